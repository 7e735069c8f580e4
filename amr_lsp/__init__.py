"""amr_lsp: the AMR language server, a thin pygls front end over the amrcheck engine.

Start it with ``amrcheck lsp``, ``amr-lsp`` or ``python -m amr_lsp``;
``docs/lsp.md`` describes its settings and features.
"""
