"""Two files paired and scored for a gate; the graphs and failures that follow."""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from ...errors import InputError, RefusedInputError
from ...graph import Graph
from ...metrics import Metric, Score
from ...pairing.graphs import (
    EntryRow,
    Matching,
    PairingError,
    how_paired,
    match_entries,
    unreadable,
)
from ...pairing.scoring import score_rows, whole_graphs
from ...reading import Entry
from ...reading.corpus import Corpus, read_corpus
from ...reading.umr import UmrDocument, is_umr_path
from ...reading.umr_corpus import read_umr_corpus
from ...span import Span
from ...validation.filecheck import plural
from ..config import Config
from .failures import (
    EPSILON,
    FlaggedGraph,
    GateFailure,
    TripleNote,
)


@dataclass(frozen=True, slots=True)
class EntryPair:
    """Two entries that hold the same sentence; one side is None if unpaired."""

    label: str
    reference: Entry | None
    candidate: Entry | None


def pair_entries(matching: Matching) -> list[EntryPair]:
    """The pairs of two files lined up by ``::id``, else by position.

    Reference order first, then candidate entries without a partner; the
    unpaired graphs stay in the list as data (see
    :func:`amrcheck.pairing.graphs.match_entries`). Each pair's label is
    its row's key, or ``#n`` (its position) where an ``::id`` repeated in
    both files gives several rows one key: scores and baselines are kept
    by label, and each pair must keep its own (issue 33).
    """
    keys = Counter(row.key for row in matching.rows)
    return [
        EntryPair(row.key if keys[row.key] == 1 else f"#{n + 1}", *row.entries)
        for n, row in enumerate(matching.rows)
    ]


@dataclass(slots=True)
class Comparison:
    """Two files paired and scored; ``total`` aggregates the scored pairs.

    ``scores`` are the pairs whose graphs both parse (with explanations);
    ``empty`` the pairs whose checked graph cannot be read or is missing,
    scored as an empty graph. ``total`` counts both.
    """

    metric: Metric
    reference: Corpus
    candidate: Corpus
    pairs: list[EntryPair]
    #: how the files were lined up (None: they could not be, ``unpairable`` says why)
    matching: Matching | None = None
    unpairable: list[str] = field(default_factory=list)
    scores: dict[str, Score] = field(default_factory=dict)
    empty: dict[str, Score] = field(default_factory=dict)
    total: Score | None = None

    @property
    def counted(self) -> dict[str, Score]:
        """Every pair's score that the figures count, in the pairs' order."""
        found: dict[str, Score] = {}
        for pair in self.pairs:
            score = self.scores.get(pair.label, self.empty.get(pair.label))
            if score is not None:
                found[pair.label] = score
        return found

    @property
    def unpaired(self) -> list[EntryPair]:
        return [p for p in self.pairs if p.reference is None or p.candidate is None]

    @property
    def unscorable(self) -> list[EntryPair]:
        """Paired entries where either graph has a syntax error."""
        return [
            p
            for p in self.pairs
            if p.reference is not None
            and p.candidate is not None
            and (p.reference.graph is None or p.candidate.graph is None)
        ]

    def mean_f1(self) -> float | None:
        values = [score.f1 for score in self.counted.values()]
        return sum(values) / len(values) if values else None


def compare(
    metric: Metric, reference: Corpus, candidate: Corpus, peers: bool = False
) -> Comparison:
    """Pair two files and score them.

    Pairs are scored, or counted as empty graphs, by the one rule of
    :func:`amrcheck.pairing.scoring.score_rows`: a candidate graph that
    cannot be read, or that the candidate lacks, scores as an empty graph
    against its reference graph; with ``peers`` (two annotators) a graph
    that cannot be read on either side scores as empty, and a graph that
    only one file has is not scored. Files that cannot be lined up
    (:func:`~amrcheck.pairing.graphs.match_entries`: ids that differ by
    position) give no pairs and say why in ``unpairable``.
    """
    try:
        matching = match_entries([reference, candidate])
    except PairingError as exc:
        return Comparison(metric, reference, candidate, [], unpairable=exc.problems)
    result = Comparison(
        metric, reference, candidate, pair_entries(matching), matching
    )

    def score(whole: Sequence[EntryRow]) -> list[Score]:
        return [metric.score(*whole_graphs(row), explain=True) for row in whole]

    def empty(row: EntryRow, graph: Graph | None) -> Score:
        # between peers, two unreadable graphs agree on nothing
        return metric.score_missing(graph) if graph is not None else Score(0.0)

    rows = score_rows(matching, score, empty, peers=peers)
    for pair, row in zip(result.pairs, rows, strict=True):
        if row.how == "scored":
            assert isinstance(row.result, Score)
            result.scores[pair.label] = row.result
        elif row.how == "empty":
            assert isinstance(row.result, Score)
            result.empty[pair.label] = row.result
    if result.counted:
        result.total = metric.aggregate(list(result.counted.values()))
    return result


def _empty_report(
    comparison: Comparison, pair: EntryPair, before: float | None = None
) -> FlaggedGraph:
    """The report of a pair scored as an empty graph: F1 0 and why."""
    if pair.candidate is None:
        assert pair.reference is not None
        where, why = _graph_place(pair.reference), "missing"
    else:
        broken = pair.candidate if pair.candidate.graph is None else pair.reference
        assert broken is not None
        where, why = unreadable(broken)
        where = where if broken is pair.candidate else _graph_place(pair.candidate)
        why = f"cannot be read ({why})" if broken is pair.candidate else (
            f"{broken.source.path}'s graph cannot be read ({why})"
        )
    return FlaggedGraph(
        label=pair.label,
        where=where,
        f1=comparison.empty[pair.label].f1,
        before=before,
        remark=f"{why}: counted as an empty graph",
    )


def graph_reports(
    comparison: Comparison,
    missing: str,
    extra: str,
    before: dict[str, float] | None = None,
) -> list[FlaggedGraph]:
    """The report of every counted pair, in the pairs' order (see
    :func:`graph_report`); ``before`` holds baseline F1s by label."""
    known = before or {}
    return [
        graph_report(comparison, pair, missing, extra, known.get(pair.label))
        if pair.label in comparison.scores
        else _empty_report(comparison, pair, known.get(pair.label))
        for pair in comparison.pairs
        if pair.label in comparison.counted
    ]


#: a graph whose alignment search the time budget stopped (its F1 may be
#: below the optimum's): said beside its score
CUT_REMARK = (
    "alignment cut by the time budget, not proven optimal "
    "(metric-options time_budget)"
)


def _graph_place(entry: Entry) -> str:
    return str(Span(entry.source, entry.graph_start, entry.graph_start))


def graph_report(
    comparison: Comparison,
    pair: EntryPair,
    missing: str,
    extra: str,
    before: float | None = None,
) -> FlaggedGraph:
    """The report of a scored pair: its F1 and the triples that differ.

    ``missing`` and ``extra`` word the notes of reference-only and
    candidate-only triples.
    """
    assert pair.candidate is not None
    score = comparison.scores[pair.label]
    notes: list[TripleNote] = []
    if score.explanation is not None:
        for refs, note in (
            (score.explanation.missing, missing),
            (score.explanation.extra, extra),
        ):
            in_file_order = sorted(refs, key=lambda ref: ref.span.start)
            notes += [TripleNote(ref, note) for ref in in_file_order]
    return FlaggedGraph(
        label=pair.label,
        where=_graph_place(pair.candidate),
        f1=score.f1,
        before=before,
        notes=tuple(notes),
        remark=CUT_REMARK if score.counts.get("cut") else "",
    )


def _unscorable_lines(comparison: Comparison) -> list[str]:
    """The first syntax error of each graph that cannot be scored."""
    lines = []
    for pair in comparison.unscorable:
        for entry in (pair.reference, pair.candidate):
            if entry is not None and entry.graph is None:
                why = (
                    str(entry.errors[0])
                    if entry.errors
                    else f"{Span(entry.source, entry.start, entry.start)}: no graph"
                )
                lines.append(f"{why} (graph {pair.label})")
    return lines


def low_graphs_failure(
    path: str,
    reports: list[FlaggedGraph],
    threshold: float,
    metric: str,
    against: str = "",
    details: tuple[str, ...] = (),
) -> GateFailure | None:
    """The ``min-graph-f1`` failure: the graphs scoring below ``threshold``
    (``against``: `` against gold/x.amr``, said after it), worst first;
    None when there are none."""
    low = [r for r in reports if r.f1 is not None and r.f1 < threshold - EPSILON]
    if not low:
        return None
    return GateFailure(
        path,
        "min-graph-f1",
        f"{len(low)} of {len(reports)} graphs have {metric} F1 below "
        f"{threshold:g}{against}",
        metric,
        _worst_first(low),
        details,
    )


def _worst_first(reports: list[FlaggedGraph]) -> tuple[FlaggedGraph, ...]:
    def key(report: FlaggedGraph) -> tuple[float, float]:
        f1 = report.f1 if report.f1 is not None else -1.0
        return (f1 - (report.before if report.before is not None else 1.0), f1)

    return tuple(sorted(reports, key=key))


def _read(path: str) -> Corpus | str:
    """The corpus at ``path``, or why it cannot be read.

    Raises:
        RefusedInputError: not a regular file, too large or endless: not
            AMR input at all, which stops the hook like a usage error.
    """
    read = _read_document(path)
    return read if isinstance(read, str) else read[0]


def _read_document(path: str) -> tuple[Corpus, UmrDocument | None] | str:
    """The corpus at ``path`` and, for a UMR file, the UMR document (its
    layers), or why it cannot be read (raises as :func:`_read`)."""
    try:
        if is_umr_path(path):  # UMR: its sentence graphs, by sentence number
            return read_umr_corpus(path)
        return read_corpus(path), None
    except RefusedInputError:
        raise
    except InputError as exc:
        return str(exc)


def _display(config: Config, relative: str) -> str:
    """A configured path as the user sees it: relative to the current directory."""
    return os.path.relpath(config.resolve(relative))


def _metric_settings(metric: Metric) -> dict[str, object]:
    describe = getattr(metric, "settings", None)
    return dict(describe()) if callable(describe) else {}



def position_failures(result: Comparison, path: str) -> list[GateFailure]:
    """Failures of a pairing that cannot be trusted: files that cannot be
    lined up, or graphs paired by position whose sentences differ (each
    with both places, and why the files were paired by position)."""
    if result.unpairable:
        return [
            GateFailure(path, "pairing", "the files cannot be paired",
                        details=tuple(result.unpairable))
        ]
    matching = result.matching
    if matching is None or not matching.mismatches:
        return []
    count = len(matching.mismatches)
    return [
        GateFailure(
            path,
            "pairing",
            f"{plural(count, 'pair')} paired by position with different sentences "
            f"({how_paired(matching.by, matching.note)}); give every graph its ::id",
            details=tuple(str(m) for m in matching.mismatches),
        )
    ]


def _pairing_failures(result: Comparison, path: str, extra: str) -> list[GateFailure]:
    """Failures for graphs without a partner and graphs that do not parse,
    and those of :func:`position_failures`."""
    failures = position_failures(result, path)
    unpaired = result.unpaired
    if unpaired:
        lines = []
        for pair in unpaired:
            if pair.candidate is None:
                assert pair.reference is not None
                lines.append(
                    f"{_graph_place(pair.reference)}: graph {pair.label} has no "
                    f"counterpart in {result.candidate.path}"
                )
            else:
                lines.append(
                    f"{_graph_place(pair.candidate)}: graph {pair.label}: {extra}"
                )
        failures.append(
            GateFailure(
                path,
                "pairing",
                f"{plural(len(unpaired), 'graph')} without a counterpart in the "
                "other file",
                details=tuple(lines),
            )
        )
    broken = _unscorable_lines(result)
    if broken:
        failures.append(
            GateFailure(
                path,
                "syntax",
                f"{plural(len(result.unscorable), 'graph')} cannot be scored",
                details=tuple(broken),
            )
        )
    return failures
