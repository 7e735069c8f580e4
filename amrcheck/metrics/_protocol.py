"""The metric protocol: a graph pair in, a :class:`Score` with its explanation out.

Argument order, for every metric: ``score(candidate, reference)``.
Precision is relative to the candidate, recall to the reference;
``missing`` items are in the reference but not matched in the candidate,
``extra`` items are in the candidate but not matched in the reference.
(BAMBOO calls metrics with candidate = ``tgt``, reference = ``src``; an
annotation diff uses candidate = new version, reference = old version.)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal, Protocol, runtime_checkable

from ..graph import Graph
from ..span import Span


@dataclass(frozen=True, slots=True)
class TripleRef:
    """A standardised triple of one graph and the source it came from.

    ``triple`` is (source variable, role, target variable or constant) in
    the graph's own variables; ``index`` is the written triple's index in
    ``graph.triples``, or -1 for a synthetic triple (the TOP triple), whose
    span is the root variable's definition.
    """

    triple: tuple[str, str, str]
    index: int
    graph: Graph

    @property
    def span(self) -> Span:
        if self.index < 0:
            span = self.graph.definition_span(self.graph.top)
            return span if span is not None else self.graph.span
        return self.graph.triple_span(self.index)

    def __str__(self) -> str:
        source, role, target = self.triple
        return f"({source} :{role} {target})"


@dataclass(slots=True)
class Explanation:
    """Why a pair scored as it did.

    ``alignment`` maps candidate variables to reference variables (None =
    unaligned). ``matched`` holds (candidate, reference) pairs. Metrics
    whose units are not triples (motifs, n-grams, WL features) put their
    units in ``units`` with the same matched/missing/extra split, and may
    fill ``details`` with anything metric-specific (e.g. similarities).
    """

    alignment: dict[str, str | None] = field(default_factory=dict)
    matched: list[tuple[TripleRef, TripleRef]] = field(default_factory=list)
    missing: list[TripleRef] = field(default_factory=list)
    extra: list[TripleRef] = field(default_factory=list)
    units: dict[str, list[Any]] = field(default_factory=dict)
    details: dict[str, Any] = field(default_factory=dict)


@dataclass(slots=True)
class Score:
    """One pair's (or one corpus') score.

    ``f1`` is the metric's headline number whatever the metric (rematch's
    Jaccard, WLK's cosine ...); ``precision``/``recall`` are None where the
    metric defines none. ``counts`` are the numbers behind the score, which
    corpus aggregation sums (e.g. ``matched``, ``candidate``, ``reference``).
    """

    f1: float
    precision: float | None = None
    recall: float | None = None
    counts: dict[str, float] = field(default_factory=dict)
    explanation: Explanation | None = None
    #: metric-specific facts about how the score was found (e.g. optimality)
    info: dict[str, Any] = field(default_factory=dict)


@dataclass(slots=True)
class CorpusScore:
    """Corpus aggregates over pairs (micro from summed counts, macro means)."""

    metric: str
    micro: Score
    macro_f1: float
    macro_precision: float | None
    macro_recall: float | None
    pairs: list[Score]
    settings: dict[str, Any] = field(default_factory=dict)

    @property
    def n_pairs(self) -> int:
        return len(self.pairs)


#: the value of every metric's ``compat`` option that restores its reference
#: implementation's behaviour where the default differs (issue 24)
Reference = Literal["reference"]
REFERENCE: Reference = "reference"


#: field metadata of an option that names a file: its value must be one
PATH_OPTION: dict[str, str] = {"kind": "path"}
#: field metadata of a word-vectors option: a file or a packaged source's name
VECTORS_OPTION: dict[str, str] = {"kind": "vectors"}


def check_reference(compat: str | None) -> Reference | None:
    """``compat`` if it is None or ``"reference"``; else a ValueError."""
    if compat is None or compat == REFERENCE:
        return compat
    raise ValueError(f"compat must be {REFERENCE!r} (or unset), not {compat!r}")


def prf(
    matched: float, candidate: float, reference: float
) -> tuple[float, float, float]:
    """Precision, recall, F1 with smatch's convention: 0 if either side is empty."""
    if candidate <= 0 or reference <= 0:
        return 0.0, 0.0, 0.0
    precision = matched / candidate
    recall = matched / reference
    if precision + recall == 0:
        return precision, recall, 0.0
    return precision, recall, 2 * precision * recall / (precision + recall)


@runtime_checkable
class Metric(Protocol):
    """What every registered metric provides.

    ``Options`` is a frozen dataclass of typed options with documented
    defaults; ``from_options`` builds a metric from one.
    """

    name: ClassVar[str]

    def score(self, candidate: Graph, reference: Graph, explain: bool = False) -> Score:
        """Score one pair; fill ``Score.explanation`` when ``explain``."""
        ...

    def aggregate(self, pairs: Sequence[Score]) -> Score:
        """The corpus (micro) score from per-pair scores."""
        ...

    def score_missing(self, reference: Graph) -> Score:
        """The score of a candidate that cannot be read, or is not there at all.

        Such a candidate counts as an **empty graph**: nothing of it
        matches, every unit of ``reference`` is missing, its F1 is 0. Its
        counts are those of an empty candidate, so that :meth:`aggregate`
        charges the corpus score for it as for any other pair (smatch:
        the reference's triples join the recall denominator; rematch:
        its motifs join the union; WLK: one more pair of similarity 0).
        Leaving the pair out instead would let a broken graph *raise* a
        corpus score. Every front end gets the rule from here (through
        :func:`score_pairs` and the pairing layer).
        """
        ...


def score_pairs(
    metric: Metric, pairs: Sequence[tuple[Graph | None, Graph]]
) -> list[Score]:
    """``[metric.score(c, r) for c, r in pairs]``, by the metric's batch method if any.

    A candidate of None (unreadable or absent) scores
    :meth:`Metric.score_missing` against its reference.
    A metric may define ``score_pairs(pairs)`` when scoring many pairs
    together is cheaper (WWLK embeds their graphs as one batch); it must
    give the scores :meth:`Metric.score` gives, bit for bit.
    """
    present = [(c, r) for c, r in pairs if c is not None]
    batch = getattr(metric, "score_pairs", None)
    if batch is not None and present:
        found: list[Score] = batch(present)
    else:
        score = metric.score
        found = [score(candidate, reference) for candidate, reference in present]
    if len(found) == len(pairs):  # every candidate there: the usual batch
        return found
    scored = iter(found)
    return [
        next(scored) if candidate is not None else metric.score_missing(reference)
        for candidate, reference in pairs
    ]


def expect_pairs(metric: Metric, count: int) -> None:
    """Tell ``metric`` that about ``count`` pairs are coming, if it cares.

    A metric may define ``expect_pairs(count)`` to get ready for large
    work (smatch loads its compiled search at once instead of after its
    first thousand alignments). Call it before forking workers, so that
    they inherit what it prepared. Scores never depend on it.
    """
    prepare = getattr(metric, "expect_pairs", None)
    if prepare is not None:
        prepare(count)


def micro_prf(pairs: Sequence[Score]) -> Score:
    """Micro P/R/F1 from summed ``matched``/``candidate``/``reference`` counts."""
    totals: dict[str, float] = {}
    for pair in pairs:
        for key, value in pair.counts.items():
            totals[key] = totals.get(key, 0.0) + value
    precision, recall, f1 = prf(
        totals.get("matched", 0.0),
        totals.get("candidate", 0.0),
        totals.get("reference", 0.0),
    )
    return Score(f1=f1, precision=precision, recall=recall, counts=totals)


def mean_similarity(pairs: Sequence[Score]) -> Score:
    """The mean of per-pair similarities, for metrics without a corpus mode."""
    total = sum(p.counts.get("similarity", p.f1) for p in pairs)
    n = sum(p.counts.get("pairs", 1.0) for p in pairs)
    return Score(f1=total / n if n else 0.0, counts={"similarity": total, "pairs": n})


class MeanOfPairs:
    """The corpus side of a metric without a corpus mode: the corpus score
    is the mean pair similarity, and a candidate that is unreadable or
    absent is one more pair, of similarity 0."""

    def aggregate(self, pairs: Sequence[Score]) -> Score:
        """The mean pair similarity."""
        return mean_similarity(pairs)

    def score_missing(self, reference: Graph) -> Score:
        """An unreadable or absent candidate: one more pair of similarity 0."""
        return Score(f1=0.0, counts={"similarity": 0.0, "pairs": 1.0})


def _mean(values: Sequence[float | None]) -> float | None:
    present = [v for v in values if v is not None]
    return sum(present) / len(present) if present else None


def corpus_score(
    metric: Metric, pairs: Sequence[Score], settings: dict[str, Any] | None = None
) -> CorpusScore:
    """Aggregate per-pair scores of ``metric`` into micro and macro figures."""
    macro_f1 = _mean([p.f1 for p in pairs])
    return CorpusScore(
        metric=metric.name,
        micro=metric.aggregate(pairs),
        macro_f1=macro_f1 if macro_f1 is not None else 0.0,
        macro_precision=_mean([p.precision for p in pairs]),
        macro_recall=_mean([p.recall for p in pairs]),
        pairs=list(pairs),
        settings=dict(settings or {}),
    )
