"""Graph-against-reference comparisons, cached so an edit re-scores only what changed.

The engine scores (``metric.score(candidate, reference, explain=True)``);
this module only keeps the result in a form that survives re-parsing:
triple *indices* instead of spans. A graph re-read from identical text
has identical triples in the same order, so a comparison cached under
``(graph text, reference graph)`` is valid for every later version of
the document in which that graph's text is unchanged, wherever it moved.

Diffs and alignments always come from the alignment ``amrcheck diff``
uses (:func:`amrcheck.workflows.diff.diff_aligner`: smatch, proven
optimal), and differences are counted as it counts them
(:class:`amrcheck.workflows.diff.ChangeCounts`), so the lens, hovers,
Problems and ``diff`` say the same (issue 29). When the lens metric is
smatch and its search proved its alignment optimal, that alignment is the
diff's, and is not searched for again. The lens metric, when it is
another one, is scored alongside for its number and what differs in its
own units (:func:`amrcheck.render.summary.summarize`: motifs, n-grams,
WL features, flows, ...), which its lens prints instead of smatch's
triple counts.
"""

from __future__ import annotations

import sys
import threading
from dataclasses import dataclass, replace
from typing import Any

from amrcheck import Entry, Graph, Metric, Score, TripleRef, get_metric
from amrcheck.cache import ByteBoundedLru
from amrcheck.metrics import BUDGET_OPTIONS, metric_factory
from amrcheck.metrics.smatch import Smatch
from amrcheck.render.summary import summarize
from amrcheck.workflows.diff import ChangeCounts, diff_aligner, relabels

#: the metric whose alignment explains diffs and hovers
DIFF_METRIC = "smatch"


@dataclass(frozen=True, slots=True)
class TripleId:
    """A standardised triple and the index of the written triple it came from.

    ``index`` is -1 for the synthetic TOP triple (no written triple).
    """

    triple: tuple[str, str, str]
    index: int

    @classmethod
    def of(cls, ref: TripleRef) -> TripleId:
        return cls(ref.triple, ref.index)


@dataclass(frozen=True, slots=True, eq=False)
class GraphComparison:
    """One document graph against its reference graph."""

    #: the lens metric's score (no explanation kept)
    score: Score
    #: the reference entry (spans point into the reference file)
    reference: Entry
    #: candidate variable -> reference variable (None: unaligned)
    alignment: dict[str, str | None]
    #: (candidate, reference) triples that match under the alignment
    matched: tuple[tuple[TripleId, TripleId], ...]
    #: reference triples with no candidate partner
    missing: tuple[TripleId, ...]
    #: candidate triples with no reference partner
    extra: tuple[TripleId, ...]
    #: (reference, candidate) triples of ``missing`` and ``extra`` that
    #: replace one another (a node's concept, an attribute's value)
    relabelled: tuple[tuple[TripleId, TripleId], ...]
    #: the differences as every front end counts them
    counts: ChangeCounts
    #: what differs in the lens metric's own units (None: the lens metric
    #: is smatch, whose counts are ``missing`` and ``extra``)
    summary: str | None = None
    #: the time budget stopped the diff alignment's search: the alignment
    #: shown is the best found, not proven optimal
    alignment_cut: bool = False

    @property
    def score_cut(self) -> bool:
        """The time budget stopped the lens metric's search: its score is
        a lower bound (the best alignment found)."""
        return bool(self.score.counts.get("cut"))

    def approximate_bytes(self) -> int:
        """The memory this comparison holds (the reference entry not counted):
        :func:`amrcheck.cache.approximate_size`'s figure within about 5 % on
        Little Prince pairs, at a hundredth of its cost."""
        summary = 0 if self.summary is None else sys.getsizeof(self.summary)
        return (
            1800 + 350 * len(self.matched) + 200 * (len(self.missing) + len(self.extra))
            + 250 * len(self.relabelled)
            + 30 * len(self.alignment) + summary
        )

    def status(self, index: int) -> TripleId | None | bool:
        """The reference triple matched by candidate triple ``index``.

        Returns the matched reference :class:`TripleId`, False when the
        triple is extra, None when the triple was not scored.
        """
        for candidate, reference in self.matched:
            if candidate.index == index:
                return reference
        if any(extra.index == index for extra in self.extra):
            return False
        return None

    def relabelled_from(self, index: int) -> TripleId | None:
        """The reference triple that candidate triple ``index`` relabels, if any."""
        for reference, candidate in self.relabelled:
            if candidate.index == index:
                return reference
        return None

    def unpaired_missing(self) -> list[TripleId]:
        """The missing triples that no extra triple relabels."""
        paired = {reference.index for reference, _ in self.relabelled}
        return [m for m in self.missing if m.index not in paired]

    def unpaired_extra(self) -> list[TripleId]:
        """The extra triples that relabel no missing triple."""
        paired = {candidate.index for _, candidate in self.relabelled}
        return [e for e in self.extra if e.index not in paired]


def _strip(score: Score) -> Score:
    return Score(score.f1, score.precision, score.recall, dict(score.counts),
                 None, dict(score.info))


def _taken(metric: str, options: dict[str, Any]) -> dict[str, Any]:
    """``options`` without the budget options that ``metric`` does not take."""
    fields = getattr(metric_factory(metric), "Options", None)
    takes = getattr(fields, "__dataclass_fields__", {})
    return {
        k: v for k, v in options.items() if k not in BUDGET_OPTIONS or k in takes
    }


class Comparer:
    """Scores graph pairs with one metric setting, behind an LRU cache.

    The cache holds at most ``max_bytes`` of comparisons (estimated; the
    reference entries they point to belong to the reference file and are
    not counted), so a long editing session's memory stays flat however
    many graph versions it scores.
    """

    def __init__(
        self,
        metric: str,
        options: dict[str, Any],
        max_bytes: int = 32 << 20,
        time_budget: float | None = None,
    ) -> None:
        self.metric_name = metric
        # the editor's search budget goes to every metric that searches,
        # unless the metric's own options set one: a large graph is then
        # scored in bounded time, cut and said so, never hanging a worker
        bounded = (
            {} if time_budget is None
            else dict.fromkeys(BUDGET_OPTIONS, time_budget)
        )
        self.metric: Metric = get_metric(
            metric, **_taken(metric, {**bounded, **options})
        )
        self.aligner: Smatch = diff_aligner(time_budget)
        self._cache: ByteBoundedLru[tuple[Any, ...], GraphComparison] = (
            ByteBoundedLru(max_bytes)
        )
        # empty-graph scores kept (one per reference graph read)
        self._max_missing = 20_000
        self._lock = threading.Lock()
        #: the empty-graph score of each reference graph, by the same keys
        self._missing: dict[tuple[Any, ...], Score] = {}
        #: how many comparisons were computed (not served from the cache)
        self.computed = 0

    def compare(
        self, candidate: Graph, reference: Entry, generation: int
    ) -> GraphComparison:
        """``candidate`` scored against ``reference.graph`` (which must exist).

        ``generation`` identifies the read of the reference file, so a
        reference that changed on disk is never served from the cache.
        """
        assert reference.graph is not None
        key = (candidate.text, reference.source.path, generation, reference.index)
        with self._lock:
            known = self._cache.get(key)
        if known is not None:
            return known
        found = self._compute(candidate, reference)
        size = sys.getsizeof(candidate.text) + found.approximate_bytes()
        with self._lock:
            self._cache.put(key, found, size)
            self.computed += 1
        return found

    def stats(self) -> dict[str, int]:
        """The comparison cache's entries, estimated bytes and budget."""
        with self._lock:
            return self._cache.stats()

    def _compute(self, candidate: Graph, reference: Entry) -> GraphComparison:
        assert reference.graph is not None
        score = self.metric.score(candidate, reference.graph, explain=True)
        aligned = score if self._aligned_as_diff(score) else self.aligner.score(
            candidate, reference.graph, explain=True
        )
        explanation = aligned.explanation
        assert explanation is not None
        summary = None if self.metric_name == DIFF_METRIC else summarize(score)
        pairs = relabels(explanation.missing, explanation.extra, explanation.alignment)
        return GraphComparison(
            score=_strip(score),
            reference=reference,
            alignment=dict(explanation.alignment),
            matched=tuple(
                (TripleId.of(c), TripleId.of(r)) for c, r in explanation.matched
            ),
            missing=tuple(TripleId.of(r) for r in explanation.missing),
            extra=tuple(TripleId.of(c) for c in explanation.extra),
            relabelled=tuple(
                (TripleId.of(r), TripleId.of(c)) for r, c in pairs
            ),
            counts=ChangeCounts.of(
                explanation.missing, explanation.extra, explanation.alignment
            ),
            summary=summary,
            alignment_cut=bool(aligned.counts.get("cut")),
        )

    def _aligned_as_diff(self, score: Score) -> bool:
        """Whether ``score`` (the lens metric's) holds the diff aligner's
        explanation: smatch with the aligner's options but its exact mode,
        whose search proved its alignment optimal (the exact mode then
        returns that very alignment: it only solves what the search did
        not prove)."""
        metric = self.metric
        return (
            isinstance(metric, Smatch)
            and replace(metric.options, exact=True) == self.aligner.options
            and bool(metric.options.exact or score.info.get("optimal"))
        )

    def missing(self, reference: Entry, generation: int) -> Score:
        """What a graph that cannot be read (or is absent) scores against
        ``reference.graph``: the lens metric's empty-graph score (cached)."""
        assert reference.graph is not None
        key = (None, reference.source.path, generation, reference.index)
        with self._lock:
            known = self._missing.get(key)
        if known is None:
            known = self.metric.score_missing(reference.graph)
            with self._lock:
                self._missing[key] = known
                while len(self._missing) > self._max_missing:
                    self._missing.pop(next(iter(self._missing)))
        return known

    def aggregate(self, scores: list[Score]) -> Score:
        """The document score: the lens metric's corpus aggregate."""
        return self.metric.aggregate(scores)
