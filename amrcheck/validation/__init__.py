"""Validating annotations: findings with source spans, never exceptions.

Layer: engine, on top of :mod:`amrcheck.reading`. ``validate`` checks
graphs against the AMR role inventory and PropBank frames (``propbank``);
``rules`` is the table of rule codes and their selection; ``filecheck``
checks whole files for the ``check`` command and hook.
"""
