"""``amrcheck diff OLD NEW``: what changed between two versions of an annotation file.

Thin: :func:`amrcheck.workflows.diff.diff_corpora` on the files (streamed: memory
does not grow with their graphs), render (text, ``--stat`` or ``--json``;
the JSON schema is in ``docs/cli.md``). Exit
status as ``diff``'s: 0 when no graph was added, removed or changed
(metadata, comments and layout may differ), 1 otherwise, 2 on errors,
130 on Ctrl-C.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any, Optional

import typer
from rich.console import Console
from rich.text import Text

from ..pairing.graphs import PairingError
from ..reading.corpus import read_corpus, read_errors
from ..reading.umr import is_umr_path
from ..validation.filecheck import plural
from ..workflows.diff import (
    Change,
    CorpusDiff,
    GraphDiff,
    metadata_change_text,
    metadata_counts,
    metadata_summary,
)
from ..workflows.diff import diff_corpora as run_diff
from . import app
from ._common import (
    CHANGE_STYLES,
    ClusterOption,
    JobsOption,
    MetricName,
    PairByChoice,
    PairByOption,
    TimeBudgetOption,
    announce_pairing,
    build_metrics,
    change_line,
    console,
    describe_settings,
    fail,
    graphs_in,
    guarded,
    pairing_dict,
    progress_bar,
    report_input_errors,
    time_budget_options,
    workers,
)
from ._umr import umr_diff, umr_diff_report

#: bumped only when the JSON output changes incompatibly
JSON_SCHEMA_VERSION = 1

STATUS_STYLES = {
    "changed": "bold yellow",
    "added": "bold green",
    "removed": "bold red",
    "unchanged": "dim",
}


@app.command()
def diff(
    old: Annotated[Path, typer.Argument(help="The earlier version of the file.")],
    new: Annotated[Path, typer.Argument(help="The later version.")],
    metric: Annotated[
        MetricName,
        PairByChoice,
        typer.Option("--metric", "-m", help="Metric that scores each changed graph."),
    ] = MetricName["smatch"],  # noqa: B008
    time_budget: TimeBudgetOption = None,
    option: Annotated[
        Optional[list[str]],  # noqa: UP007
        typer.Option("--option", "-o", help="Metric option key=value (repeatable)."),
    ] = None,
    motifs: Annotated[
        bool,
        typer.Option(
            "--motifs", help="Show the rematch motif diff instead of triples."
        ),
    ] = False,
    stat: Annotated[
        bool, typer.Option("--stat", help="One summary line per graph.")
    ] = False,
    metadata: Annotated[
        bool,
        typer.Option(
            "--metadata",
            help="Show every metadata change in full (::key: old → new); by "
            "default a changed graph gets one line naming its changed keys, "
            "and graphs changed only in their header one count per key.",
        ),
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    html: Annotated[
        Optional[Path],  # noqa: UP007
        typer.Option(
            "--html", metavar="REPORT.html",
            help="Also write a self-contained HTML report: a table to sort and "
            "filter, each changed graph drawn old beside new (needs Graphviz).",
        ),
    ] = None,
    by: PairByOption = PairByChoice.AUTO,
    jobs: JobsOption = 1,
    cluster: ClusterOption = None,
    quiet: Annotated[
        bool, typer.Option("--quiet", "-q", help="No progress bar, no summary line.")
    ] = False,
    strict: Annotated[
        bool, typer.Option(help="Stop on syntax errors instead of going on.")
    ] = False,
    skip_unreadable: Annotated[
        bool,
        typer.Option(
            "--skip-unreadable",
            help="Leave removed graphs and NEW graphs that cannot be read out of "
            "the summary score instead of counting them as empty graphs (F1 0); "
            "the summary then says how many it leaves out.",
        ),
    ] = False,
) -> None:
    """Show which graphs were added, removed or changed, and how (triple diff).

    The summary score (NEW against OLD) counts a removed graph, and a NEW
    graph that cannot be read, as an empty graph (F1 0); a pair whose OLD
    graph cannot be read is left out. Exit status: 0 nothing changed, 1
    graphs added, removed or changed, 2 usage or input errors, 130
    interrupted.
    """
    _refuse_mixed_kinds(old, new)
    if is_umr_path(old) or is_umr_path(new):
        amr_only = {
            "--motifs": motifs, "--stat": stat, "--metadata": metadata,
            "--by": by is not PairByChoice.AUTO, "--strict": strict,
            "--skip-unreadable": skip_unreadable,
        }
        named = [name for name, given in amr_only.items() if given]
        if named:
            raise fail(
                "diff", f"{', '.join(named)}: AMR files only; UMR files are "
                "compared layer by layer, sentences paired by number (docs/umr.md)"
            )
        raise typer.Exit(
            _umr(old, new, as_json, quiet, html, jobs, [metric.value], option,
                 time_budget)
        )
    with guarded("diff"):
        (scorer,) = build_metrics(
            [metric.value], option, time_budget_options(time_budget)
        )
        if strict:  # a quick read first: stop before diffing anything
            report_input_errors("diff", read_errors(old) + read_errors(new), strict)
        total = max(graphs_in(old), graphs_in(new))
        with workers(jobs, cluster) as where, progress_bar(
            "diff", total, quiet
        ) as done:
            try:
                result = run_diff(
                    old,
                    new,
                    scorer,
                    motifs=motifs,
                    by=by.value,
                    jobs=where,
                    progress=done,
                    skip_unreadable=skip_unreadable,
                )
            except PairingError:  # the syntax errors are told first, as always
                errors = read_errors(old) + read_errors(new)
                report_input_errors("diff", errors, strict=False)
                raise
        report_input_errors(
            "diff",
            result.matching.errors,
            strict=False,
            consequence="their graphs are compared as text, and the summary "
            "says how they count",
        )
        if html is not None:
            from ..render import diff_report

            with progress_bar("report", len(result.graphs), quiet) as done:
                page = diff_report(
                    result, read_corpus(old), read_corpus(new), scorer, jobs, done
                )
            html.write_text(page, encoding="utf-8")
    if not as_json:
        matching = result.matching
        announce_pairing("diff", matching.by, matching.note, matching.mismatches)
    if as_json:
        typer.echo(
            json.dumps(json_report(result, motifs), indent=2, ensure_ascii=False)
        )
    else:
        out = console()
        if stat:
            render_stat(out, result)
        else:
            render_text(out, result, motifs, metadata)
        if not quiet:
            out.print(summary_line(result))
    raise typer.Exit(code=1 if result.differs else 0)


def _refuse_mixed_kinds(old: Path, new: Path) -> None:
    """A UMR file against an AMR file is an error (a missing file is told
    when it is read)."""
    kinds = [is_umr_path(path) if path.is_file() else None for path in (old, new)]
    if None not in kinds and kinds[0] != kinds[1]:
        umr, amr = (old, new) if kinds[0] else (new, old)
        raise fail(
            "diff", f"{umr} is a UMR file and {amr} is not: diff compares two "
            "versions of one kind (UMR layer by layer, docs/umr.md)"
        )


def _umr(
    old: Path,
    new: Path,
    as_json: bool,
    quiet: bool,
    html: Path | None,
    jobs: int,
    metric: list[str],
    option: list[str] | None,
    time_budget: float | None,
) -> int:
    """UMR files: the changes per layer, and the ``--html`` report; the exit
    status."""
    status = umr_diff(old, new, as_json, quiet)
    if html is not None and status != 2:
        with guarded("diff"):
            (scorer,) = build_metrics(metric, option, time_budget_options(time_budget))
            umr_diff_report(old, new, scorer, html, jobs, quiet)
    return status


# --- JSON ---------------------------------------------------------------------


def _score(graph: GraphDiff) -> dict[str, Any] | None:
    s = graph.score
    if s is None:
        return None
    return {"f1": s.f1, "precision": s.precision, "recall": s.recall}


def _place(place: tuple[int, int] | None) -> dict[str, int] | None:
    return None if place is None else {"line": place[0], "column": place[1]}


def json_report(result: CorpusDiff, motifs: bool) -> dict[str, Any]:
    total = result.total
    return {
        "version": JSON_SCHEMA_VERSION,
        "old": result.old_path,
        "new": result.new_path,
        "paired_by": result.matching.by,
        "note": result.matching.note,
        "pairing": pairing_dict(
            result.matching.by, result.matching.note, result.matching.mismatches
        ),
        "metric": result.metric,
        "settings": result.settings,
        "summary": result.summary,
        "score": None
        if total is None
        else {"f1": total.f1, "precision": total.precision, "recall": total.recall},
        "skip_unreadable": result.skip_unreadable,
        "counted_empty": result.counted_empty,
        "left_out": result.left_out,
        "graphs": [
            {
                "id": g.id,
                "status": g.status,
                "old": _place(g.old),
                "new": _place(g.new),
                "score": _score(g),
                "counted_empty": g.counted_empty,
                "left_out": g.left_out,
                "counts": g.counts,
                "changes": [c.to_dict() for c in g.changes],
                **({"motifs": [c.to_dict() for c in g.motifs]} if motifs else {}),
                "layout_changed": g.layout_changed,
                "metadata": {
                    key: {"old": before, "new": after}
                    for key, (before, after) in g.metadata.items()
                },
                "comments_changed": g.comments_changed,
                "errors": g.errors,
            }
            for g in result.graphs
        ],
    }


# --- text ---------------------------------------------------------------------


def _f1(graph: GraphDiff, metric: str) -> str:
    return "" if graph.score is None else f"{metric} {graph.score.f1:.4f}"


def _counts(graph: GraphDiff) -> str:
    """``-1 +2 ~1``: the engine's one way of counting (ChangeCounts)."""
    return graph.change_counts.compact()


def _notes(graph: GraphDiff) -> list[str]:
    notes = []
    if graph.metadata:
        notes.append("metadata " + ", ".join(f"::{key}" for key in graph.metadata))
    if graph.comments_changed:
        notes.append("comments")
    if graph.layout_changed and graph.status == "unchanged":
        notes.append("layout")
    return notes


def _headline(graph: GraphDiff, result: CorpusDiff) -> Text:
    line = Text()
    line.append(f"{graph.status:<9} ", style=STATUS_STYLES[graph.status])
    line.append(graph.id, style="bold")
    if graph.status == "added" and graph.new is not None:
        line.append(
            f"  {result.new_path}:{graph.new[0]}  ({len(graph.changes)} triples)"
        )
    elif graph.status == "removed" and graph.old is not None:
        line.append(
            f"  {result.old_path}:{graph.old[0]}  ({len(graph.changes)} triples)"
        )
    else:
        score = _f1(graph, result.metric)
        if score:
            line.append(f"  {score}")
        if graph.counts and _counts(graph):
            line.append(f"  ({_counts(graph)})")
    note = graph.scoring_note
    if note:
        line.append(f"  ({note})", style="red")
    return line


def render_text(
    out: Console, result: CorpusDiff, motifs: bool, metadata: bool = False
) -> None:
    """The diff, graph by graph; metadata in full only with ``metadata``
    (else one line per changed graph and one count per key for the graphs
    whose triples did not change: the diff is about graphs)."""
    out.print(Text(f"--- {result.old_path}", style="red"))
    out.print(Text(f"+++ {result.new_path}", style="green"))
    header_only = []
    for graph in result.graphs:
        if graph.status == "unchanged":
            if graph.header_changed or graph.layout_changed:
                header_only.append(graph)
            continue
        out.print(_headline(graph, result))
        if graph.status == "changed":
            # motifs keep a line each: their places are only their first source's
            lines = (
                [change_line(m) for m in graph.motifs]
                if motifs
                else change_lines(graph.changes)
            )
            for line in lines:
                out.print(line)
            _print_metadata(out, graph, metadata)
        for error in graph.errors:
            out.print(Text(f"  ! {error}", style="bold red"))
    if header_only:
        _print_header_only(out, header_only, metadata)


def _print_header_only(out: Console, graphs: list[GraphDiff], in_full: bool) -> None:
    if not in_full:
        out.print(header_only_summary(graphs))
        return
    out.print(Text("graph unchanged, header or layout changed:", style="dim"))
    for graph in graphs:
        out.print(Text(f"  {graph.id}: {', '.join(_notes(graph))}", style="cyan"))
        for key, (before, after) in graph.metadata.items():
            out.print(Text(f"    {metadata_change_text(key, before, after)}"))


def _print_metadata(out: Console, graph: GraphDiff, in_full: bool) -> None:
    if in_full:
        for key, (before, after) in graph.metadata.items():
            line = metadata_change_text(key, before, after)
            out.print(Text(f"  {line}", style="cyan"))
    elif graph.metadata:
        out.print(Text(f"  metadata: {metadata_summary(graph)}", style="cyan"))


def header_only_summary(graphs: list[GraphDiff]) -> Text:
    """One line for the graphs whose triples did not change: how many, and
    one count per changed ``::key`` (then comments, layout)."""
    parts = [
        f"::{key} {kind} in {count:,}"
        for (key, kind), count in metadata_counts(graphs).items()
    ]
    for note, count in (
        ("comments", sum(g.comments_changed for g in graphs)),
        ("layout", sum(g.layout_changed for g in graphs)),
    ):
        if count:
            parts.append(f"{note} in {count:,}")
    return Text(
        f"{plural(len(graphs), 'graph')} unchanged but for header or layout: "
        f"{', '.join(parts)} (--metadata lists them)",
        style="cyan",
    )


def change_lines(changes: list[Change]) -> list[Text]:
    """Diff lines, a run of removals (or additions) on one line or on lines
    that follow one another joined into one: ``- 15:13  (v :ARG0 g2) ·
    15:20  (g2 / girl)``. Relabels keep a line each."""
    lines: list[Text] = []
    previous: Change | None = None
    for change in changes:
        place = change.old or change.new
        before = None if previous is None else previous.old or previous.new
        if (
            previous is not None
            and change.kind != "relabel"
            and change.kind == previous.kind
            and place is not None
            and before is not None
            and 0 <= place.line - before.line <= 1
        ):
            lines[-1].append(
                f" · {place.line}:{place.column}  {place.text}",
                style=CHANGE_STYLES[change.kind],
            )
        else:
            lines.append(change_line(change))
        previous = change
    return lines


def render_stat(out: Console, result: CorpusDiff) -> None:
    width = max((len(g.id) for g in result.graphs), default=0)
    for graph in result.graphs:
        line = Text(f"{graph.id:<{width}}  ")
        line.append(f"{graph.status:<9}", style=STATUS_STYLES[graph.status])
        details = [
            _f1(graph, result.metric),
            _counts(graph),
            *_notes(graph),
            graph.scoring_note,
        ]
        line.append("  " + "  ".join(d for d in details if d))
        line.rstrip()
        out.print(line)


def summary_line(result: CorpusDiff) -> str:
    s = result.summary
    text = (
        f"{len(result.graphs)} graphs: {s['changed']} changed, {s['added']} added, "
        f"{s['removed']} removed, {s['unchanged']} unchanged"
    )
    if s["metadata_only"]:
        text += f" ({s['metadata_only']} with header changes only)"
    if result.total is not None:
        paired = sum(g.score is not None for g in result.graphs)
        # the standardisation (root policy, set/multiset) when the metric
        # has one, else every setting; the JSON report has them all
        settings = result.settings.get("standardization") or describe_settings(
            result.settings
        )
        text += f"; {result.metric} {result.total.f1:.4f} over {paired} pairs"
        if result.counted_empty:
            text += (
                f", {result.counted_empty} of them counted as empty graphs "
                "(removed, or unreadable in NEW)"
            )
        cut = int(result.total.counts.get("cut", 0))
        if cut:
            text += f", {cut} cut by the time budget (not proven optimal)"
        text += f" ({settings})" if settings else ""
    if result.left_out:
        why = (
            "unreadable in OLD, or removed or unreadable in NEW (--skip-unreadable)"
            if result.skip_unreadable
            else "unreadable in OLD"
        )
        text += f"; the score leaves out {plural(result.left_out, 'graph')} ({why})"
    return text
