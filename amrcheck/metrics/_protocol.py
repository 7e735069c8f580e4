"""The metric protocol: a graph pair in, a :class:`Score` with its explanation out.

Argument order, for every metric: ``score(candidate, reference)``.
Precision is relative to the candidate, recall to the reference;
``missing`` items are in the reference but not matched in the candidate,
``extra`` items are in the candidate but not matched in the reference.
(BAMBOO calls metrics with candidate = ``tgt``, reference = ``src``; an
annotation diff uses candidate = new version, reference = old version.)
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import chain
from typing import Any, ClassVar, Literal, Protocol, overload, runtime_checkable

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


#: None among :class:`ScoreColumns`' numbers (any NaN that is a score's
#: own number is held apart, as a value that is not a float)
_NONE = float("nan")

#: the keys of a score's ``counts`` and of its ``info``, in their order
Layout = tuple[tuple[str, ...], tuple[str, ...]]


class ScoreColumns(Sequence[Score]):
    """Many pairs' scores held in columns, for corpora of any size.

    A :class:`Score` with its two dicts takes about 1 KB; here a pair
    takes about 100 bytes: its F1, precision and recall as doubles, the
    values of its ``counts`` and ``info`` in one list, their keys once
    per set of keys. Reading an item builds its :class:`Score` anew,
    equal to the one added: the same values of the same types, the keys
    in the same order. A score with an explanation, or of a subclass of
    :class:`Score`, is kept whole.
    """

    __slots__ = ("_numbers", "_odd", "_layouts", "_layout_ids", "_layout", "_starts",
                 "_values", "_whole")

    def __init__(self, scores: Iterable[Score] = ()) -> None:
        #: F1, precision and recall of each pair, in turn
        self._numbers = array("d")
        #: the numbers that are not plain floats (None, ...), by place in ``_numbers``
        self._odd: dict[int, Any] = {}
        self._layouts: list[Layout] = []
        self._layout_ids: dict[Layout, int] = {}
        #: each pair's layout (an index into ``_layouts``)
        self._layout = array("l")
        #: where each pair's values start in ``_values``
        self._starts = array("q")
        self._values: list[Any] = []
        self._whole: dict[int, Score] = {}
        for score in scores:
            self.append(score)

    def append(self, score: Score) -> None:
        """Hold ``score`` as the last pair's."""
        self.extend((score,))

    def extend(self, scores: Iterable[Score]) -> None:
        """Hold each of ``scores`` in turn as the last pair's."""
        numbers, layouts, layout_ids = self._numbers, self._layouts, self._layout_ids
        layout_of, starts, values = self._layout, self._starts, self._values
        for score in scores:
            f1: Any = score.f1
            precision: Any = score.precision
            recall: Any = score.recall
            plain = float is type(f1) is type(precision) is type(recall)
            if plain:  # and none NaN: a NaN among the numbers is None
                total = f1 + precision + recall
                plain = total == total
            if plain:
                numbers.extend((f1, precision, recall))
            else:
                self._odd_numbers(f1, precision, recall)
            counts, info = score.counts, score.info
            layout = (tuple(counts), tuple(info))
            index = layout_ids.get(layout)
            if index is None:
                index = layout_ids[layout] = len(layouts)
                layouts.append(layout)
            if type(score) is not Score or score.explanation is not None:
                self._whole[len(layout_of)] = score
            layout_of.append(index)
            starts.append(len(values))
            values += counts.values()
            values += info.values()

    def _odd_numbers(self, *found: Any) -> None:
        """Hold a pair's F1, precision and recall when one is not a float."""
        numbers = self._numbers
        for number in found:
            if number is None:
                number = _NONE
            elif type(number) is not float or number != number:
                self._odd[len(numbers)] = number
                number = 0.0
            numbers.append(number)

    def __len__(self) -> int:
        return len(self._layout)

    @overload
    def __getitem__(self, index: int) -> Score: ...

    @overload
    def __getitem__(self, index: slice) -> list[Score]: ...

    def __getitem__(self, index: int | slice) -> Score | list[Score]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError("score index out of range")
        whole = self._whole.get(index)
        if whole is not None:
            return whole
        f1, precision, recall = self._numbers_of(index)
        count_keys, info_keys = self._layouts[self._layout[index]]
        start = self._starts[index]
        middle = start + len(count_keys)
        values = self._values
        return Score(
            f1,
            precision,
            recall,
            dict(zip(count_keys, values[start:middle], strict=True)),
            None,
            dict(zip(info_keys, values[middle : middle + len(info_keys)], strict=True)),
        )

    def __iter__(self) -> Iterator[Score]:
        return map(self.__getitem__, range(len(self)))

    def _numbers_of(self, index: int) -> tuple[Any, Any, Any]:
        at = 3 * index
        f1: Any
        precision: Any
        recall: Any
        f1, precision, recall = self._numbers[at : at + 3]
        if f1 != f1:
            f1 = None
        if precision != precision:
            precision = None
        if recall != recall:
            recall = None
        if self._odd:
            odd = self._odd
            f1 = odd.get(at, f1)
            precision = odd.get(at + 1, precision)
            recall = odd.get(at + 2, recall)
        return f1, precision, recall

    def column(self, number: int) -> list[Any]:
        """Every pair's F1 (``number`` 0), precision (1) or recall (2)."""
        found: list[Any] = [
            None if value != value else value for value in self._numbers[number::3]
        ]
        for at, odd in self._odd.items():
            if at % 3 == number:
                found[at // 3] = odd
        return found

    def count_column(self, key: str, default: Any) -> list[Any]:
        """Every pair's ``counts.get(key, default)``, without building its
        :class:`Score`."""
        layouts, values = self._layouts, self._values
        places = [keys.index(key) if key in keys else -1 for keys, _ in layouts]
        return [
            default if places[index] < 0 else values[start + places[index]]
            for index, start in zip(self._layout, self._starts, strict=True)
        ]

    def count_keys(self) -> list[str]:
        """The keys of the pairs' ``counts``, in the order they first come."""
        return list(dict.fromkeys(chain.from_iterable(c for c, _ in self._layouts)))

    def rows(self, keys: Sequence[str]) -> Iterator[tuple[Any, ...]]:
        """Each pair's (precision, recall, f1, its counts of ``keys``, None
        where it has none), without building its :class:`Score`."""
        layouts, values, numbers = self._layouts, self._values, self._numbers
        places = [
            tuple(count_keys.index(k) if k in count_keys else -1 for k in keys)
            for count_keys, _ in layouts
        ]
        plain = not self._odd and not any(n != n for n in numbers)
        for pair, (index, start) in enumerate(
            zip(self._layout, self._starts, strict=True)
        ):
            if plain:
                at = 3 * pair
                f1, precision, recall = numbers[at], numbers[at + 1], numbers[at + 2]
            else:
                f1, precision, recall = self._numbers_of(pair)
            yield (
                precision,
                recall,
                f1,
                *[None if at < 0 else values[start + at] for at in places[index]],
            )

    def taken(self, positions: Iterable[int]) -> ScoreColumns:
        """The scores at ``positions``, in that order."""
        taken = ScoreColumns()
        taken._layouts = self._layouts.copy()
        taken._layout_ids = self._layout_ids.copy()
        numbers, odd, values = self._numbers, self._odd, self._values
        for to, position in enumerate(positions):
            at = 3 * position
            taken._numbers += numbers[at : at + 3]
            for number in range(3) if odd else ():
                if at + number in odd:
                    taken._odd[3 * to + number] = odd[at + number]
            if position in self._whole:
                taken._whole[to] = self._whole[position]
            index = self._layout[position]
            taken._layout.append(index)
            taken._starts.append(len(taken._values))
            start = self._starts[position]
            count_keys, info_keys = self._layouts[index]
            taken._values += values[start : start + len(count_keys) + len(info_keys)]
        return taken


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

    def pair_scores(self) -> Sequence[Score]:
        """The pairs' scores (:attr:`pairs`, or as they are held)."""
        return self.pairs


#: the slot of :attr:`CorpusScore.pairs`, under :class:`_HeldCorpusScore`'s property
_PAIRS_SLOT: Any = CorpusScore.__dict__["pairs"]


class _HeldCorpusScore(CorpusScore):
    """A :class:`CorpusScore` whose pairs stay :class:`ScoreColumns` until
    :attr:`pairs` is first read (then a list of :class:`Score`, as any
    corpus score's), so that a report that reads none holds 100 bytes a
    pair, not a :class:`Score` each."""

    __slots__ = ("_held",)
    _held: ScoreColumns | None

    @property
    def pairs(self) -> list[Score]:
        if self._held is not None:
            _PAIRS_SLOT.__set__(self, list(self._held))
            self._held = None
        found: list[Score] = _PAIRS_SLOT.__get__(self)
        return found

    @pairs.setter
    def pairs(self, pairs: list[Score]) -> None:
        _PAIRS_SLOT.__set__(self, pairs)
        self._held = None

    @property
    def n_pairs(self) -> int:
        return len(self.pair_scores())

    def pair_scores(self) -> Sequence[Score]:
        return self.pairs if self._held is None else self._held


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
    defaults; ``from_options`` builds a metric from one. A metric whose
    :meth:`aggregate` reads :class:`ScoreColumns` without building each
    :class:`Score` (:func:`micro_prf`, :func:`count_column`) may say so with
    ``aggregates_columns = True``: :func:`corpus_score` then hands it the
    columns as they are.
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
    for key in count_keys(pairs):  # key by key, each sum in the pairs' order
        total = 0.0
        for value in count_column(pairs, key, None):
            if value is not None:  # a pair without this count
                total = total + value
        totals[key] = total
    precision, recall, f1 = prf(
        totals.get("matched", 0.0),
        totals.get("candidate", 0.0),
        totals.get("reference", 0.0),
    )
    return Score(f1=f1, precision=precision, recall=recall, counts=totals)


def count_column(pairs: Sequence[Score], key: str, default: Any = 0.0) -> list[Any]:
    """``[p.counts.get(key, default) for p in pairs]``, from columns as they are."""
    if isinstance(pairs, ScoreColumns):
        return pairs.count_column(key, default)
    return [p.counts.get(key, default) for p in pairs]


def count_keys(pairs: Sequence[Score]) -> list[str]:
    """The keys of the pairs' ``counts``, in the order they first come, from
    columns as they are."""
    if isinstance(pairs, ScoreColumns):
        return pairs.count_keys()
    return list(dict.fromkeys(chain.from_iterable(p.counts for p in pairs)))


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
    """Aggregate per-pair scores of ``metric`` into micro and macro figures.

    ``pairs`` as :class:`ScoreColumns` stay so in the result until its
    :attr:`~CorpusScore.pairs` are read.
    """
    if not isinstance(pairs, ScoreColumns):
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
    macro_f1 = _mean(pairs.column(0))
    # a metric's aggregate may read each score many times: it gets them
    # built once, unless it says it reads the columns
    reads_columns = getattr(metric, "aggregates_columns", False)
    micro = metric.aggregate(pairs if reads_columns else list(pairs))
    corpus = _HeldCorpusScore(
        metric.name,
        micro,
        macro_f1 if macro_f1 is not None else 0.0,
        _mean(pairs.column(1)),
        _mean(pairs.column(2)),
        [],
        dict(settings or {}),
    )
    corpus._held = pairs
    return corpus
