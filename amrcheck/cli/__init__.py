"""The ``amrcheck`` command line: a thin typer shell over the engine.

One module per command; each reads files, calls the engine, renders.
"""

from __future__ import annotations

import typer

from ..__about__ import __version__

app = typer.Typer(
    name="amrcheck",
    help="Score, diff and check AMR graphs (PENMAN files).",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"amrcheck {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(
        False, "--version", callback=_version, is_eager=True,
        help="Print the version and exit.",
    ),
) -> None:
    """Score, diff and check AMR graphs (PENMAN files)."""


def _register_commands() -> None:
    # Each command module registers itself on `app` when imported.
    from . import (  # noqa: F401
    )


def main() -> None:
    _register_commands()
    app()
