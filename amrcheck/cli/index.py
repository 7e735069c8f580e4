"""``amrcheck index CORPUS... -o INDEX``: a similarity index of the graphs of AMR files.

Thin: :func:`amrcheck.search.build_index` on the files, then save. Graphs
with syntax errors are left out, each reported ``file:line:col`` on
stderr with their count; the index is still written (exit 0). The
vectors come from ``--metric`` (default WLK; rematch, or a metric with
embeddings); ``-o`` here names the output, metric options are
``--option``.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Annotated, Optional

import typer

from . import app
from ._common import (
    ClusterOption,
    JobsOption,
    build_metrics,
    graphs_in,
    guarded,
    progress_bar,
    workers,
)

#: bumped only when the JSON output changes incompatibly
JSON_SCHEMA_VERSION = 1


@app.command()
def index(
    corpora: Annotated[
        list[Path], typer.Argument(metavar="CORPUS...", help="AMR files to index.")
    ],
    output: Annotated[
        Path,
        typer.Option("--output", "-o", metavar="INDEX", help="Index file to write."),
    ],
    metric: Annotated[
        str, typer.Option("--metric", "-m", help="Metric whose vectors are indexed.")
    ] = "wlk",
    option: Annotated[
        Optional[list[str]],  # noqa: UP007 (typer needs Optional here)
        typer.Option("--option", help="Metric option key=value (repeatable)."),
    ] = None,
    jobs: JobsOption = 1,
    cluster: ClusterOption = None,
    quiet: Annotated[
        bool, typer.Option("--quiet", "-q", help="No progress bar, no summary.")
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Index the graphs of CORPUS files for `amrcheck search` and the editor."""
    from ..search import build_index  # numpy and scipy: not for ``--help``

    started = time.perf_counter()
    with guarded("index"):
        (chosen,) = build_metrics([metric], option)
        total = sum(graphs_in(path) for path in corpora)
        with (
            workers(jobs, cluster) as where,
            progress_bar("index", total, quiet) as done,
        ):
            built = build_index(corpora, chosen, jobs=where, progress=done)
        built.index.save(output)
    for problem in built.skipped:
        typer.echo(problem, err=True)
    if built.skipped:
        typer.echo(
            f"amrcheck index: warning: {len(built.skipped)} syntax error(s); "
            "the graphs concerned are left out of the index",
            err=True,
        )
    manifest = built.index.manifest
    size = output.stat().st_size
    seconds = time.perf_counter() - started
    if as_json:
        report = {
            "version": JSON_SCHEMA_VERSION,
            "index": str(output),
            "graphs": len(built.index),
            "skipped": built.skipped,
            "vectors": manifest["vectors"],
            "corpora": manifest["corpora"],
            "bytes": size,
            "seconds": round(seconds, 3),
        }
        typer.echo(json.dumps(report, indent=2, ensure_ascii=False))
    elif not quiet:
        typer.echo(
            f"{output}: {len(built.index)} graphs of {len(corpora)} file(s) by "
            f"{built.index.metric} ({built.index.similarity}), "
            f"{size / 2**20:.1f} MiB, {seconds:.1f} s"
        )
