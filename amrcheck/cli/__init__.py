"""The ``amrcheck`` command line: a thin typer shell over the engine.

One module per command; each reads files, calls the engine, renders.
"""

from __future__ import annotations

import importlib

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


#: command modules; each registers its commands on `app` when imported
COMMAND_MODULES: tuple[str, ...] = (
    "baseline",
    "bench",
    "check",
    "diff",
    "iaa",
    "lsp",
    "score",
    "train",
)


def _register_commands() -> None:
    for module in COMMAND_MODULES:
        importlib.import_module(f"{__name__}.{module}")


def main() -> None:
    _register_commands()
    app()
