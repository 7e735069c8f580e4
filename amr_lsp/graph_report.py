"""One graph of the document against its reference graph, and its low-score warning.

:class:`GraphReport` is what the analysis (:mod:`amr_lsp.analysis`) keeps
of each graph; the lenses, hovers and diff diagnostics read it.
"""

from __future__ import annotations

from dataclasses import dataclass

from lsprotocol import types

from amrcheck import Entry, Score

from .compare import GraphComparison
from .config import Settings
from .convert import SCORE_SOURCE, LineIndex


@dataclass(slots=True)
class GraphReport:
    """One entry of the document and how it compares with its reference graph."""

    entry: Entry
    comparison: GraphComparison | None = None
    #: the reference graph it is paired with (None: none, or no pairing)
    partner: Entry | None = None
    #: why there is no comparison (None when there is one)
    note: str | None = None
    #: what a graph that cannot be read counts as in the document score:
    #: an empty graph's score against its reference graph
    empty: Score | None = None
    #: the comparison of the graph before it broke (shown, marked, on its lens)
    stale: GraphComparison | None = None


def is_low(report: GraphReport, settings: Settings) -> bool:
    """The graph was scored, below ``lowScoreThreshold``."""
    comparison = report.comparison
    return (
        comparison is not None
        and comparison.score.f1 < settings.low_score_threshold
    )


def low_score_diagnostics(
    graphs: list[GraphReport], settings: Settings, lines: LineIndex
) -> list[types.Diagnostic]:
    """A warning on the first line of each graph scoring below the threshold
    (``smatch 0.56 < 0.80``), so low scores stand out in the editor and in
    its problem list (issue 22)."""
    found = []
    for report in graphs:
        graph = report.entry.graph
        if graph is None or not is_low(report, settings):
            continue
        assert report.comparison is not None
        score, threshold = report.comparison.score.f1, settings.low_score_threshold
        shown = f"{score:.2f}"
        if float(shown) >= threshold:  # never "0.98 < 0.98"
            shown = f"{score:.4f}"
        found.append(
            types.Diagnostic(
                range=lines.line_range(graph.start),
                message=f"{settings.metric} {shown} < {threshold:.2f}",
                severity=types.DiagnosticSeverity.Warning,
                code="low-score",
                source=SCORE_SOURCE,
            )
        )
    return found
