"""smatch (Cai & Knight 2013): F1 of matched triples under the best variable mapping.

Layer: metrics. Pipeline, each step replaceable:

1. **standardise** both graphs with the shared step
   (:mod:`amrcheck.standardize`: root policy, set vs multiset, compat);
2. **prepare** an :class:`~._align.AlignmentProblem`: what each candidate
   node pair earns from instance and attribute triples (TOP included), and
   what two node pairs earn together from relation triples;
3. **align**: seeded hill climbing (smart start + ``restarts`` random
   starts, stopping early once a mapping is proven optimal by an upper
   bound), then, with ``exact=True``, the ILP for the pairs the bound
   cannot settle;
4. **score**: P = M/|candidate|, R = M/|reference|, F1 (all 0 if either
   graph has no triples); the corpus score is micro (summed counts).

Example:
    >>> from amrcheck.reading.corpus import decode
    >>> metric = Smatch()
    >>> metric.score(decode('(a / b)'), decode('(a / b)')).f1
    1.0
    >>> s = metric.score(decode('(s / spit-01 :ARG0 (m / man))'),
    ...                  decode('(s / speak-01 :ARG0 (m / man))'))
    >>> s.f1, s.counts["matched"], s.info["optimal"]
    (0.75, 3, True)
    >>> Smatch(root="concept").score(decode('(s / spit-01 :ARG0 (m / man))'),
    ...                              decode('(s / speak-01 :ARG0 (m / man))')).f1
    0.5
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields, replace
from typing import Any, ClassVar, Literal

from ..graph import Graph
from ..standardize import (
    COMPAT_MODES,
    ROOT_POLICIES,
    RootPolicy,
    StandardGraph,
    Standardization,
    standardize,
)
from . import register
from ._align import SWITCH_AFTER, Alignment, AlignmentProblem, use_compiled
from ._protocol import REFERENCE, Explanation, Score, TripleRef, micro_prf, prf
from ._smatch_core import (
    Numbering,
    PairScorer,
    Search,
    alignment_score,
    encoded_problem,
    isomorphic_alignment,
)

__all__ = [
    "LabelIds",
    "Numbering",
    "Smatch",
    "alignment_problem",
    "emptied",
    "explain_alignment",
    "isomorphic_alignment",
    "search_note",
    "standard_triples",
]

INSTANCE_ROLE = "instance"


class LabelIds(dict[object, int]):
    """Small ints for labels: equal ids exactly for equal labels.

    One table per metric instance, shared by every pair it scores; ids are
    only ever compared within a pair, so scores never depend on them, and
    the table starts over between pairs once it holds :data:`MAX_LABELS`
    labels (a long-lived process, such as the language server, meets new
    labels with every edit).
    """

    #: labels kept before the table starts over: few enough that the table
    #: and its labels stay in the CPU's caches (a pair looks up some forty
    #: labels; 65,536 of them, 10 MB, made each lookup a cache miss: 5 to 10 %
    #: of smatch's time and more fresh pages at 5,000 pairs)
    MAX_LABELS = 1 << 11

    def __missing__(self, label: object) -> int:
        self[label] = len(self)
        return len(self) - 1


def alignment_problem(
    candidate: StandardGraph,
    reference: StandardGraph,
    ids: LabelIds | None = None,
    numbering: Numbering | None = None,
) -> tuple[AlignmentProblem, float | None]:
    """The weights smatch maximises for a standardised pair, and a label bound.

    Equal triples of the two graphs make ``min(c1, c2)`` matches (sets:
    0 or 1), or ``c1 * c2`` under smatch 1.0.4's counting. The label bound
    counts the matches possible if only labels had to agree (per concept,
    per (role, value) and per relation role, the smaller of the two
    counts); under smatch 1.0.4's product counting it bounds the score
    only when neither graph has a duplicate triple (else it is None).
    """
    if numbering is None:
        numbering = Numbering.of(candidate, reference)
    ids = LabelIds() if ids is None else ids
    return encoded_problem(candidate, reference, ids, numbering, ids.MAX_LABELS)


#: smatch's ``compat`` values: the standardisation's, and every metric's
#: ``reference`` (smatch 1.0.4, as which it is stored)
SmatchCompat = Literal["smatch-1.0.4", "raw", "reference"]
#: seconds of search per pair by default (``time_budget``)
DEFAULT_TIME_BUDGET = 3.0
#: options that limit resources, not what is computed: left out of
#: :meth:`Smatch.settings`, so that scores recorded under another budget
#: stay comparable (a pair the budget cuts is counted and reported apart)
RESOURCE_OPTIONS = frozenset({"time_budget"})


@register("smatch")
class Smatch:
    """smatch with both root policies, seeded search and an exact mode."""

    name: ClassVar[str] = "smatch"
    #: :meth:`aggregate` reads score columns as they are (:func:`corpus_score`)
    aggregates_columns: ClassVar[bool] = True

    @dataclass(frozen=True, slots=True)
    class Options:
        """smatch switches; the defaults are smatch 1.0.4's search, strict triples.

        ``root``: ``variable`` (smatch 1.0.4's TOP triple) or ``concept``
        (the root concept is part of the TOP triple, as in smatch++ and the
        BAMBOO leaderboard). ``compat``: ``None`` (strict: sets, normalised
        comparison, inversion), ``smatch-1.0.4`` (that tool's reader and
        counting; ``reference`` is another name for it, the value every
        metric takes for its reference) or ``raw`` (triples as written, smatch++'s
        ``DoNothingStandardizer``). ``restarts``: random starts after the
        smart start. ``seed``: the random starts' seed. ``exact``: solve
        the ILP for every pair the search does not prove optimal, with at
        most ``time_limit`` seconds per pair. ``time_budget``: seconds per
        pair for the search (None: no limit); a pair it stops is *cut*: it
        keeps the best mapping found and the upper bound, ``optimal`` is
        False and ``counts["cut"]`` is 1. The default is far above what a
        sentence's graph needs (milliseconds): only documents of hundreds
        of sentences meet it.
        """

        root: RootPolicy = "variable"
        compat: SmatchCompat | None = None
        restarts: int = 4
        seed: int = 0
        exact: bool = False
        time_limit: float = 30.0
        time_budget: float | None = DEFAULT_TIME_BUDGET

        def __post_init__(self) -> None:
            if self.root not in ROOT_POLICIES:
                raise ValueError(
                    f"root must be one of {ROOT_POLICIES}, not {self.root!r}"
                )
            if self.compat is not None and self.compat not in COMPAT_MODES:
                raise ValueError(
                    f"compat must be one of {(*COMPAT_MODES, REFERENCE)}, "
                    f"not {self.compat!r}"
                )
            if self.restarts < 0:
                raise ValueError("restarts must be >= 0")
            if self.time_limit <= 0:
                raise ValueError("time_limit must be > 0")
            if self.time_budget is not None and not self.time_budget > 0:
                raise ValueError("time_budget must be > 0 (or None: no limit)")

    def __init__(self, **options: Any) -> None:
        if options.get("compat") == REFERENCE:
            # every metric's switch to its reference: smatch 1.0.4 here
            options["compat"] = "smatch-1.0.4"
        self.options = self.Options(**options)
        compat = self.options.compat
        assert compat != REFERENCE, "stored as smatch-1.0.4 above"
        self.standardization = Standardization(root=self.options.root, compat=compat)
        self._ids = LabelIds()
        opts = self.options
        #: how a pair's mapping is searched (the options of the same names)
        self._search = Search(
            opts.restarts, opts.seed, opts.exact, opts.time_limit, opts.time_budget
        )
        #: the whole path of a pair in one call (compiled where the build
        #: compiles): smatch's own; a subclass (s2match) changes the
        #: weights, and takes the steps below one by one
        self._pairs: PairScorer | None = (
            PairScorer(
                self.standardization,
                self._search,
                self._ids,
                LabelIds.MAX_LABELS,
            )
            if type(self) is Smatch
            else None
        )

    @classmethod
    def from_options(cls, options: Smatch.Options) -> Smatch:
        return cls(**{f.name: getattr(options, f.name) for f in fields(options)})

    def settings(self) -> dict[str, Any]:
        """What a report must state: every option and the standardisation."""
        described = {
            f.name: getattr(self.options, f.name)
            for f in fields(self.options)
            if f.name not in RESOURCE_OPTIONS
        }
        described["standardization"] = self.standardization.describe()
        return described

    def standardize(self, graph: Graph) -> StandardGraph:
        return standardize(graph, self.standardization)

    def expect_pairs(self, count: int) -> None:
        """Large work (``count`` >= :data:`._align.SWITCH_AFTER` pairs) loads
        the compiled search now; see :func:`._align.use_compiled`."""
        if count >= SWITCH_AFTER:
            use_compiled()

    def align(self, candidate: StandardGraph, reference: StandardGraph) -> Alignment:
        """The best mapping found (proven optimal when ``Alignment.optimal``)."""
        numbering = Numbering.of(candidate, reference)
        problem, known = alignment_problem(candidate, reference, self._ids, numbering)
        return self._search.run(problem, candidate, reference, numbering, known)

    def score(self, candidate: Graph, reference: Graph, explain: bool = False) -> Score:
        """Score ``candidate`` against ``reference`` (P: candidate, R: reference)."""
        if self._pairs is not None and not explain:
            return self._pairs.score(candidate, reference)
        return self.score_standard(
            self.standardize(candidate), self.standardize(reference), explain
        )

    def score_standard(
        self, candidate: StandardGraph, reference: StandardGraph, explain: bool = False
    ) -> Score:
        """:meth:`score` for graphs already standardised."""
        if self._pairs is not None and not explain:
            return self._pairs.score_standard(candidate, reference)
        found = self.align(candidate, reference)
        score = alignment_score(
            found,
            self.count(found.value),
            self.count(found.upper_bound),
            candidate.size,
            reference.size,
        )
        if explain:
            score.explanation = self.explain(candidate, reference, found.mapping)
        return score

    def score_missing(self, reference: Graph) -> Score:
        """An unreadable or absent candidate: every reference triple missing.

        Scored as an empty candidate through the same path as any pair,
        so the counts (and the explanation's ``missing``) are the usual
        ones; an empty candidate's alignment is trivially optimal.
        """
        standard = self.standardize(reference)
        return self.score_standard(emptied(standard), standard)

    def count(self, value: float) -> float:
        """Matched triples for an alignment value: whole triples in smatch
        (graded variants keep the fraction)."""
        return round(value)

    def explain(
        self, candidate: StandardGraph, reference: StandardGraph, mapping: list[int]
    ) -> Explanation:
        """The alignment and the matched / missing / extra triples."""
        return explain_alignment(candidate, reference, mapping)

    def aggregate(self, pairs: Sequence[Score]) -> Score:
        """Micro P/R/F1; ``counts["optimal"]`` = pairs proven optimal,
        ``counts["cut"]`` = pairs the time budget stopped."""
        total = micro_prf(pairs)
        total.info["f1_upper_bound"] = prf(
            total.counts.get("upper_bound", 0.0),
            total.counts.get("candidate", 0.0),
            total.counts.get("reference", 0.0),
        )[2]
        return total


def search_note(counts: dict[str, float], pairs: int) -> str | None:
    """How a corpus's alignments were found, for a report: pairs proven
    optimal and pairs the time budget cut (None without smatch's counts)."""
    if "optimal" not in counts:
        return None
    cut = int(counts.get("cut", 0))
    note = f"{int(counts['optimal'])}/{pairs} pairs proven optimal"
    return note + f", {cut} cut by the time budget" + (
        " (best alignment found kept)" if cut else ""
    )


def emptied(graph: StandardGraph) -> StandardGraph:
    """``graph`` without any node or triple: what an unreadable graph counts as."""
    return replace(
        graph,
        variables=[],
        instances=[],
        attributes=[],
        relations=[],
        instance_origin=[],
        attribute_origin=[],
        relation_origin=[],
    )


def standard_triples(graph: StandardGraph) -> list[TripleRef]:
    """Every standardised triple of ``graph`` as a :class:`TripleRef`."""
    names = graph.variables
    refs = [
        TripleRef((names[n], INSTANCE_ROLE, c), o, graph.graph)
        for (n, c), o in zip(graph.instances, graph.instance_origin, strict=True)
    ]
    refs += [
        TripleRef((names[n], r, v), o, graph.graph)
        for (n, r, v), o in zip(graph.attributes, graph.attribute_origin, strict=True)
    ]
    refs += [
        TripleRef((names[a], r, names[b]), o, graph.graph)
        for (a, r, b), o in zip(graph.relations, graph.relation_origin, strict=True)
    ]
    return refs


def _keys(graph: StandardGraph, mapping: list[int] | None) -> list[tuple[Any, ...]]:
    """Comparable keys of the triples, in :func:`standard_triples` order.

    With ``mapping``, candidate nodes are renamed to their reference nodes
    (unaligned ones to a key that matches nothing).
    """

    def node(n: int) -> object:
        if mapping is None:
            return n
        return mapping[n] if mapping[n] >= 0 else ("unaligned", n)

    keys: list[tuple[Any, ...]] = [
        (node(n), INSTANCE_ROLE, c) for n, c in graph.instances
    ]
    keys += [(node(n), r, v) for n, r, v in graph.attributes]
    keys += [(node(a), r, node(b), "rel") for a, r, b in graph.relations]
    return keys


def explain_alignment(
    candidate: StandardGraph, reference: StandardGraph, mapping: list[int]
) -> Explanation:
    """The alignment and the matched / missing / extra triples under ``mapping``.

    Triples are paired one-to-one (under smatch 1.0.4's counting a
    duplicated triple may count more often than it is listed as matched).
    """
    cand_refs, ref_refs = standard_triples(candidate), standard_triples(reference)
    open_ref: dict[tuple[Any, ...], list[int]] = {}
    for index, key in enumerate(_keys(reference, None)):
        open_ref.setdefault(key, []).append(index)
    matched: list[tuple[TripleRef, TripleRef]] = []
    extra: list[TripleRef] = []
    used: set[int] = set()
    for index, key in enumerate(_keys(candidate, mapping)):
        waiting = open_ref.get(key)
        if waiting:
            other = waiting.pop(0)
            used.add(other)
            matched.append((cand_refs[index], ref_refs[other]))
        else:
            extra.append(cand_refs[index])
    missing = [ref for index, ref in enumerate(ref_refs) if index not in used]
    alignment = {
        name: (reference.variables[mapping[n]] if mapping[n] >= 0 else None)
        for n, name in enumerate(candidate.variables)
    }
    return Explanation(
        alignment=alignment, matched=matched, missing=missing, extra=extra
    )
