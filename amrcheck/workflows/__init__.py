"""The jobs users run, composed from the engine: each a library call.

Layer: engine, top. ``evaluate`` (``amrcheck score``), ``diff``, ``iaa``,
``gates`` with ``config`` and ``baseline`` (the pre-commit gates),
and ``stats`` (bootstrap intervals, paired tests). The trainers are in
:mod:`amrcheck.training`. The CLI, the hooks and the language server
call these.
"""
