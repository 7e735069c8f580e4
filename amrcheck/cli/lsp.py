"""``amrcheck lsp``: start the AMR language server (stdio, TCP or WebSocket).

Thin: the server lives in :mod:`amr_lsp` (a front end of its own), imported
only when the command runs so the rest of the CLI never loads pygls.
"""

from __future__ import annotations

from typing import Annotated

import typer

from . import app


@app.command()
def lsp(
    tcp: Annotated[bool, typer.Option("--tcp", help="Serve over TCP.")] = False,
    ws: Annotated[bool, typer.Option("--ws", help="Serve over WebSocket.")] = False,
    host: Annotated[str, typer.Option(help="Address for --tcp/--ws.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port for --tcp/--ws.")] = 8888,
) -> None:
    """Start the language server (stdio unless --tcp or --ws); see docs/lsp.md."""
    from amr_lsp.__main__ import main

    argv = ["--host", host, "--port", str(port)]
    if tcp:
        argv.append("--tcp")
    elif ws:
        argv.append("--ws")
    raise typer.Exit(code=main(argv))
