"""``amrcheck render FILE [--id ID ...] -o OUT.svg|.png|.html``: draw graphs.

Thin: read the file, choose the graphs, then
:func:`amrcheck.render.graphs_picture` (one SVG or PNG, graphs stacked) or
:func:`amrcheck.render.graphs_report` (one self-contained HTML page).
Graphs that do not parse are drawn as their text with their errors, and
the errors are also printed on stderr (``file:line:col: CODE message``).
Exit status 0 on success, 2 on usage errors, an unreadable file, an
unknown ``--id`` or a missing Graphviz, 130 on Ctrl-C.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from . import app
from ._common import fail, guarded, progress_bar

FORMATS = (".svg", ".png", ".html")


@app.command()
def render(
    file: Annotated[
        Path, typer.Argument(help="AMR file to draw (or UMR: its sentence graphs).")
    ],
    output: Annotated[
        Path,
        typer.Option(
            "--output", "-o",
            help="Where to write: OUT.svg or OUT.png (graphs stacked in one "
            "picture) or OUT.html (every graph, a table to sort and filter).",
        ),
    ],
    ids: Annotated[
        Optional[list[str]],  # noqa: UP007 (typer needs Optional here)
        typer.Option(
            "--id", help="Graph to draw: its ::id, or #N for the N-th graph "
            "(repeatable; default: every graph).",
        ),
    ] = None,
    jobs: Annotated[
        int, typer.Option(help="Graphviz processes at once (0 = one per CPU).")
    ] = 1,
    quiet: Annotated[
        bool, typer.Option("--quiet", "-q", help="No progress bar, no summary line.")
    ] = False,
) -> None:
    """Draw AMR graphs with Graphviz: concepts, constants, roles as written."""
    from ..render import (
        MAX_PICTURE_GRAPHS,
        chosen_entries,
        graphs_picture,
        graphs_report,
        read_with_words,
    )
    from ..render.layout import ImageFormat

    suffix = output.suffix.lower()
    if suffix not in FORMATS:
        raise fail("render", f"{output}: write .svg, .png or .html")
    with guarded("render"):
        # a UMR file: its sentence graphs, with their words and alignments
        corpus, words = read_with_words(file)
        entries, unknown = chosen_entries(corpus, ids)
        if unknown:
            raise fail(
                "render", f"{file}: no graph {', '.join(unknown)} "
                "(give a ::id, or #N for the N-th graph)",
            )
        if not entries:
            raise fail("render", f"{file}: no graph to draw")
        for entry in entries:
            for error in entry.errors:
                typer.echo(str(error), err=True)
        if suffix == ".html":
            with progress_bar("render", len(entries), quiet) as done:
                text = graphs_report(corpus, entries, jobs, done, words)
            output.write_text(text, encoding="utf-8")
        else:
            if len(entries) > MAX_PICTURE_GRAPHS:
                raise fail(
                    "render", f"{len(entries)} graphs are too many for one picture "
                    f"(at most {MAX_PICTURE_GRAPHS}): choose some with --id, "
                    "or write .html",
                )
            fmt: ImageFormat = "svg" if suffix == ".svg" else "png"
            output.write_bytes(graphs_picture(entries, fmt, words))
    if not quiet:
        broken = sum(entry.graph is None for entry in entries)
        note = f" ({broken} as text: they do not parse)" if broken else ""
        typer.echo(f"amrcheck render: {len(entries)} graphs drawn{note} -> {output}",
                   err=True)
