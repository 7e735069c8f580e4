"""``amrcheck baseline [FILES...]``: record the scores ``amr-regress`` compares with.

Thin: load the configuration, score the files against their configured
references (:func:`amrcheck.workflows.gates.record_baseline`), write the baseline
file, print what was recorded. The only command that writes the file;
the hooks never do. Exit status 0 written, 1 a file could not be scored
(nothing written), 2 a configuration error.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from ..errors import AmrError
from ..workflows.baseline import write_baseline
from . import app


@app.command()
def baseline(
    files: Annotated[
        Optional[list[Path]],  # noqa: UP007 (typer needs Optional on 3.10)
        typer.Argument(
            metavar="FILE",
            help="Files to record (default: every file that a regress.reference "
            "rule matches). Other files' recorded scores are kept.",
            show_default=False,
        ),
    ] = None,
    config: Annotated[
        Optional[Path],  # noqa: UP007
        typer.Option("--config", help="Configuration file to use."),
    ] = None,
) -> None:
    """Record the current scores of files against their references (for max-drop)."""
    # the configuration and the gates load numpy: here, not for ``--help``
    from ..workflows.config import load_config
    from ..workflows.gates import record_baseline, render_failures

    try:
        settings = load_config(config)
        if not settings.references:
            raise AmrError(
                f"{settings.source} sets up no [[tool.amrcheck.regress.reference]] "
                "rule (see docs/hooks.md)"
            )
        names = None if files is None else [str(path) for path in files]
        recorded, failures = record_baseline(settings, names)
    except AmrError as exc:
        typer.echo(f"amrcheck baseline: error: {exc}", err=True)
        raise typer.Exit(code=2) from None
    if failures:
        for line in render_failures(failures):
            typer.echo(line)
        typer.echo(f"Nothing written to {settings.baseline}.")
        raise typer.Exit(code=1)
    target = settings.resolve(settings.baseline)
    write_baseline(recorded, target)
    for name, entry in sorted(recorded.files.items()):
        typer.echo(
            f"{name}: {recorded.metric} F1 {entry.f1:.4f} against {entry.reference} "
            f"({len(entry.graphs)} graphs" + (f"; {entry.how})" if entry.how else ")")
        )
    typer.echo(f"Wrote {settings.baseline}; commit it with the files it scores.")
