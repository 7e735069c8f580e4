"""Scores at a glance: the code lenses, their titles and the next low score.

Built on request from an :class:`~amr_lsp.analysis.Analysis`; the triples
are counted as ``amrcheck diff`` and the diff diagnostics count them.
"""

from __future__ import annotations

from bisect import bisect_left

from lsprotocol import types

from .analysis import Analysis
from .graph_report import GraphReport, is_low


def score_text(analysis: Analysis, report: GraphReport) -> str | None:
    """``smatch 0.56`` (None: the graph has no score)."""
    if report.comparison is None:
        return None
    return f"{analysis.settings.metric} {report.comparison.score.f1:.2f}"


def next_low_score(analysis: Analysis, offset: int) -> GraphReport | None:
    """The first graph below the threshold that starts after ``offset``,
    else (wrapping around) the first one of the document."""
    low = [
        report for report in analysis.graphs
        if report.entry.graph is not None and is_low(report, analysis.settings)
    ]
    after = [r for r in low if _lens_offset(r) > offset]
    found = after or low
    return found[0] if found else None


# -- lenses -------------------------------------------------------------------


#: what a lens says of a score whose search the time budget stopped
CUT_NOTE = "at least: search cut by the time budget"


def lens_title(analysis: Analysis, report: GraphReport) -> str:
    """``smatch 0.87 · P 0.90 R 0.84 · 1 missing, 1 extra, 1 relabelled vs
    gold/x.amr#id``.

    The counts are in the lens metric's own units: triples for smatch and
    s2match, ``motifs: 9 shared, 2 missing, 0 extra`` for rematch, and so
    on (:attr:`GraphComparison.summary`). Triples are counted as
    ``amrcheck diff`` and the diff diagnostics count them
    (:attr:`GraphComparison.counts`).
    """
    metric = analysis.settings.metric
    comparison = report.comparison
    if report.empty is not None:
        counted = "counts as 0 in the document score"
        if report.stale is None:
            return f"{metric} – · {report.note}: {counted}"
        return (
            f"{metric} {report.stale.score.f1:.2f} (before this edit) · "
            f"{report.note}: {counted}"
        )
    if comparison is None:
        return f"{metric} – · {report.note}"
    score = comparison.score
    title = f"{metric} {score.f1:.2f}"
    if comparison.score_cut:
        title += f" ({CUT_NOTE})"
    if score.precision is not None and score.recall is not None:
        title += f" · P {score.precision:.2f} R {score.recall:.2f}"
    title += " · " + (
        comparison.summary if comparison.summary is not None
        else str(comparison.counts)
    )
    return f"{title} vs {analysis.reference_name}#{comparison.reference.label}"


def lens_anchor(analysis: Analysis, report: GraphReport) -> types.Range:
    """Where a graph's lens sits: the graph's first character, whether it
    parses or not."""
    offset = _lens_offset(report)
    return analysis.parsed.lines.range(offset, offset)


def _lens_offset(report: GraphReport) -> int:
    # a graph that does not parse gets its lens where its text starts, as a
    # parsed graph does, not above its ``# ::id`` (issue 22)
    return report.entry.graph_start


def unresolved_lenses(
    analysis: Analysis, previous: list[types.CodeLens] | None = None
) -> list[types.CodeLens]:
    """One lens per graph: its range and ``[uri, index]``, no title yet.

    The title comes with ``codeLens/resolve`` (:func:`lens_report`,
    :func:`lens_title`). A lens of ``previous`` (the lenses of an earlier
    version) that is still right is reused: after a keystroke that is
    nearly all of them.
    """
    lines, uri = analysis.parsed.lines, analysis.parsed.uri
    known = previous or []
    lenses = []
    for index, report in enumerate(analysis.graphs):
        line, character = lines.line_character(_lens_offset(report))
        if index < len(known):
            old = known[index]
            start = old.range.start
            if (
                start.line == line and start.character == character
                and old.data == [uri, index] and old.command is None
            ):
                lenses.append(old)
                continue
        position = types.Position(line=line, character=character)
        lenses.append(
            types.CodeLens(
                range=types.Range(start=position, end=position), data=[uri, index]
            )
        )
    return lenses


def lens_report(
    analysis: Analysis, index: int, anchor: types.Position
) -> GraphReport | None:
    """The graph of the lens ``index`` anchored at ``anchor`` (a resolve request).

    The lens may come from an earlier version of the document: the graph
    is the one whose lens is at ``anchor`` now (``index`` is where to look
    first), or None when no graph's lens is there any more.
    """
    graphs = analysis.graphs

    def anchored(i: int) -> bool:
        return 0 <= i < len(graphs) and lens_anchor(analysis, graphs[i]).start == anchor

    if anchored(index):
        return graphs[index]
    # graphs are in text order: the first one whose lens is at or after it
    first = bisect_left(graphs, analysis.parsed.offset(anchor), key=_lens_offset)
    return graphs[first] if anchored(first) else None
