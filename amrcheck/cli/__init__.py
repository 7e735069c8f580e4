"""The ``amrcheck`` command line: a thin typer shell over the engine.

One module per command; each reads files, calls the engine, renders.
"""

from __future__ import annotations

import gc
import importlib
import sys

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


#: command modules; each registers on `app` the command of its own name
#: when imported
COMMAND_MODULES: tuple[str, ...] = (
    "baseline",
    "bench",
    "check",
    "diff",
    "iaa",
    "index",
    "lsp",
    "render",
    "score",
    "search",
    "train",
)


def _register_commands(argv: list[str]) -> None:
    """Register the command that ``argv`` runs, or every command.

    Only the command at hand is imported when the first argument names
    one (the others would load numpy, the benchmarks and the diff
    engine for nothing); ``--version`` gets none; ``--help`` and unknown
    commands get them all, so listings and "no such command" stay complete.
    """
    named = argv[0] if argv else ""
    if named == "--version":  # eager: it prints and exits before any command
        return
    modules = (named,) if named in COMMAND_MODULES else COMMAND_MODULES
    for module in modules:
        importlib.import_module(f"{__name__}.{module}")


def main() -> None:
    _register_commands(sys.argv[1:])
    try:
        app()
    finally:
        # what is left at exit is freed with the process: spare the
        # collector its last pass over it (~0.1 s after scoring 10k pairs)
        gc.freeze()
