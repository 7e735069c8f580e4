"""``amrcheck search INDEX QUERY.amr``: the indexed graphs most similar to each query.

Thin: :class:`amrcheck.search.Index` (load, search, duplicates) and
:func:`amrcheck.search.rerank`, then render. ``--rerank smatch`` scores
the candidates with an alignment metric and shows what each precedent
lacks (``-``, the query's triples) and adds (``+``, its own), with line
and column. ``--duplicates`` lists the pairs of indexed graphs that score
``--min-score`` or more (all pairs via the index; ``--jobs``/``--cluster``
spread it). An index made by another amrcheck version, or with another
metric than ``--metric``, is refused. Exit 0, 2 on bad input, 130 on
Ctrl-C.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Optional

import typer
from rich.console import Console
from rich.text import Text

from ..metrics import TripleRef
from . import app
from ._common import (
    ClusterOption,
    JobsOption,
    build_metrics,
    console,
    fail,
    guarded,
    progress_bar,
    report_input_errors,
    workers,
)

if TYPE_CHECKING:
    from ..search import Duplicate, Explained, Hit, Index, IndexedGraph

#: bumped only when the JSON output changes incompatibly
JSON_SCHEMA_VERSION = 1
#: differing triples shown per side of a re-ranked hit (all of them in JSON)
SHOWN_TRIPLES = 6


def _shown(path: str) -> str:
    """A path as the user may type it: relative to here when below here."""
    try:
        return str(Path(path).relative_to(Path.cwd()))
    except ValueError:
        return path


def _graph_dict(graph: IndexedGraph) -> dict[str, Any]:
    return {
        "path": _shown(graph.path),
        "line": graph.line,
        "column": graph.column,
        "id": graph.id,
        "snt": graph.snt,
    }


def _ref_dict(ref: TripleRef) -> dict[str, Any]:
    span = ref.span
    return {"triple": str(ref), "line": span.line, "column": span.column}


def _hit_dict(rank: int, hit: Hit, explained: Explained | None) -> dict[str, Any]:
    out = {"rank": rank, "score": hit.score, **_graph_dict(hit.graph)}
    if explained is not None:
        score, why = explained.score, explained.score.explanation
        assert why is not None
        out["rerank"] = {
            "f1": score.f1,
            "precision": score.precision,
            "recall": score.recall,
            "missing": [_ref_dict(r) for r in why.missing],
            "extra": [_ref_dict(r) for r in why.extra],
        }
    return out


def _describe(graph: IndexedGraph) -> str:
    said = f"  {graph.snt}" if graph.snt else ""
    return f"{_shown(graph.path)}:{graph.line}:{graph.column}  {graph.id or '-'}{said}"


def _render_hit(
    out: Console, rank: int, hit: Hit, explained: Explained | None, metric: str
) -> None:
    out.print(f"  {rank:>3}  {hit.score:.4f}  {_describe(hit.graph)}")
    if explained is None:
        return
    score, why = explained.score, explained.score.explanation
    assert why is not None
    out.print(
        f"       {metric} {score.f1:.4f} (P {score.precision or 0:.4f} "
        f"R {score.recall or 0:.4f}), {len(why.missing)} missing, "
        f"{len(why.extra)} extra"
    )
    for sign, refs, style in (("-", why.missing, "red"), ("+", why.extra, "green")):
        for ref in refs[:SHOWN_TRIPLES]:
            span = ref.span
            out.print(
                Text(f"       {sign} {span.line}:{span.column}  {ref}", style=style)
            )
        if len(refs) > SHOWN_TRIPLES:
            out.print(f"       {sign} ... {len(refs) - SHOWN_TRIPLES} more")


def _duplicates(
    out: Console, index: Index, pairs: list[Duplicate], as_json: bool, minimum: float
) -> None:
    if as_json:
        report = {
            "version": JSON_SCHEMA_VERSION,
            "metric": index.metric,
            "min_score": minimum,
            "pairs": [
                {
                    "score": p.score,
                    "a": _graph_dict(p.first),
                    "b": _graph_dict(p.second),
                }
                for p in pairs
            ],
        }
        typer.echo(json.dumps(report, indent=2, ensure_ascii=False))
        return
    for pair in pairs:
        out.print(f"{pair.score:.4f}  {_describe(pair.first)}")
        out.print(f"        {_describe(pair.second)}")
    out.print(
        f"{len(pairs)} pair(s) of {len(index)} indexed graphs score "
        f"{minimum} or more by {index.metric}"
    )


@app.command()
def search(
    index_file: Annotated[
        Path, typer.Argument(metavar="INDEX", help="An index made by 'amrcheck index'.")
    ],
    query: Annotated[
        Optional[Path],  # noqa: UP007 (typer needs Optional here)
        typer.Argument(metavar="QUERY.amr", help="Graphs to find precedents of."),
    ] = None,
    top: Annotated[int, typer.Option("--top", "-k", help="Hits per query.")] = 10,
    rerank: Annotated[
        Optional[str],  # noqa: UP007
        typer.Option(
            "--rerank",
            metavar="METRIC",
            help="Re-rank by an alignment metric (smatch).",
        ),
    ] = None,
    duplicates: Annotated[
        bool, typer.Option("--duplicates", help="List near-duplicate pairs instead.")
    ] = False,
    min_score: Annotated[
        float, typer.Option("--min-score", help="Threshold of --duplicates.")
    ] = 0.95,
    metric: Annotated[
        Optional[str],  # noqa: UP007
        typer.Option("--metric", "-m", help="Refuse an index built with another."),
    ] = None,
    option: Annotated[
        Optional[list[str]],  # noqa: UP007
        typer.Option("--option", "-o", help="Option of --metric/--rerank key=value."),
    ] = None,
    jobs: JobsOption = 1,
    cluster: ClusterOption = None,
    quiet: Annotated[
        bool, typer.Option("--quiet", "-q", help="No progress bar.")
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Find the indexed graphs most similar to each graph of QUERY.amr."""
    # the index loads numpy and scipy: here, not for ``--help``
    from ..search import Index
    from ..search import read_queries as read_query_file
    from ..search import rerank as rerank_hits

    out = console()
    with guarded("search"):
        if duplicates == (query is not None):
            raise fail("search", "give QUERY.amr, or --duplicates (not both)")
        if top < 1:
            raise fail("search", "--top must be 1 or more")
        names = [n for n in (metric, rerank) if n is not None]
        built = dict(zip(names, build_metrics(names, option), strict=True))
        # a regular file of any size: the user named it, and it is held whole
        index = Index.load(
            index_file, built.get(metric) if metric else None, max_bytes=None
        )
        if duplicates:
            with (
                workers(jobs, cluster) as where,
                progress_bar("duplicates", len(index), quiet) as done,
            ):
                pairs = index.duplicates(min_score, jobs=where, progress=done)
            _duplicates(out, index, pairs, as_json, min_score)
            return
        assert query is not None
        queries, errors = read_query_file(query)
        report_input_errors("search", errors, strict=False)
        exclude = [(place.path, place.line) for place, _ in queries]
        graphs = [graph for _, graph in queries]
        wanted = 3 * top if rerank else top
        found = index.search_many(graphs, wanted, exclude)
        explained: list[list[Explained] | None] = [
            rerank_hits(hits, graph, built[rerank])[:top] if rerank else None
            for hits, graph in zip(found, graphs, strict=True)
        ]
    results = []
    for (place, _), hits, why in zip(queries, found, explained, strict=True):
        ranked = (
            [(e.hit, e) for e in why] if why is not None else [(h, None) for h in hits]
        )
        if as_json:
            results.append(
                {
                    "query": _graph_dict(place),
                    "hits": [_hit_dict(k, h, e) for k, (h, e) in enumerate(ranked, 1)],
                }
            )
            continue
        out.print(f"query {_describe(place)}")
        for rank, (hit, explanation) in enumerate(ranked, 1):
            _render_hit(out, rank, hit, explanation, rerank or "")
    if as_json:
        report = {
            "version": JSON_SCHEMA_VERSION,
            "index": str(index_file),
            "metric": index.metric,
            "similarity": index.similarity,
            "rerank": rerank,
            "queries": results,
        }
        typer.echo(json.dumps(report, indent=2, ensure_ascii=False))
