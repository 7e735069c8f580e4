"""amr_lsp: the AMR language server (a thin pygls shell over amrcheck)."""
