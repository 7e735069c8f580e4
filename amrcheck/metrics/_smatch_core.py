"""smatch's per-pair path: two read graphs in, their :class:`Score` out.

Layer: metrics, below :mod:`.smatch` (which documents the metric and keeps
its public class, options and explanations). Every step a pair takes —
standardise, number canonically, encode as ints, build the alignment
problem, search, count — is here, so that a compiled install runs a pair
in one compiled call (``setup.py``); the same typed code runs interpreted
where nothing is compiled.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeVar

from ..canonical import canonical_ranks
from ..graph import Graph
from ..standardize import StandardGraph, Standardization, standardize
from ._align import (
    Alignment,
    AlignmentProblem,
    deadline_after,
    hill_climb,
    solve_exact,
    triple_problem,
)
from ._encoding import encode_pair
from ._protocol import Score, prf

#: matched triples: whole in smatch (ints), graded in s2match
_Matches = TypeVar("_Matches", int, float)


@dataclass(frozen=True, slots=True, init=False)
class Numbering:
    """Canonical node numbers of a pair (:mod:`amrcheck.canonical`).

    The search runs on these numbers, so it sees the same problem however
    each graph was written (variables, branch order, where a re-entrant
    node is defined): every writing of a graph gets the same score. Its
    results are turned back into the graphs' own numbers by :meth:`own`.
    ``candidate[node]`` is a candidate node's canonical number; likewise
    ``reference``.
    """

    candidate: list[int]
    reference: list[int]

    def __init__(self, candidate: list[int], reference: list[int]) -> None:
        # written out: the one ``dataclass`` would make runs as interpreted
        # code even in the compiled build (~2 µs a pair); frozen, so set as
        # that one sets them
        object.__setattr__(self, "candidate", candidate)
        object.__setattr__(self, "reference", reference)

    @classmethod
    def of(cls, candidate: StandardGraph, reference: StandardGraph) -> Numbering:
        return cls(canonical_ranks(candidate), canonical_ranks(reference))

    def same_graph(self, candidate: StandardGraph, reference: StandardGraph) -> bool:
        """Whether the two are one graph (equal triples in canonical numbers)."""
        ours, theirs = self.candidate, self.reference
        if len(candidate.instances) != len(reference.instances) or len(
            candidate.relations
        ) != len(reference.relations):
            return False
        return (
            sorted((ours[n], c) for n, c in candidate.instances)
            == sorted((theirs[n], c) for n, c in reference.instances)
            and sorted((ours[n], r, v) for n, r, v in candidate.attributes)
            == sorted((theirs[n], r, v) for n, r, v in reference.attributes)
            and sorted((ours[a], r, ours[b]) for a, r, b in candidate.relations)
            == sorted((theirs[a], r, theirs[b]) for a, r, b in reference.relations)
        )

    def own(self, found: Alignment) -> Alignment:
        """``found`` (in canonical numbers) in the graphs' own node numbers."""
        # the numbers are a permutation of each graph's nodes: inverted by a list
        reference_node = [0] * len(self.reference)
        for node, rank in enumerate(self.reference):
            reference_node[rank] = node
        found_mapping = found.mapping
        mapping = [
            -1 if (target := found_mapping[rank]) < 0 else reference_node[target]
            for rank in self.candidate
        ]
        return Alignment(
            mapping, found.value, found.upper_bound, found.method, found.cut
        )


def isomorphic_alignment(
    problem: AlignmentProblem,
    candidate: StandardGraph,
    reference: StandardGraph,
    numbering: Numbering,
) -> Alignment | None:
    """The identity mapping (in canonical numbers), proven optimal, when the
    pair is one graph twice: every triple then matches, and no mapping can
    earn more. Not under smatch 1.0.4's product counting, where duplicates
    multiply and the search decides.
    """
    if candidate.options.counting != "min" or not numbering.same_graph(
        candidate, reference
    ):
        return None
    identity = list(range(problem.n1))
    value = problem.value(identity)
    return Alignment(identity, value, value, "isomorphic")


def encoded_problem(
    candidate: StandardGraph,
    reference: StandardGraph,
    ids: dict[object, int],
    numbering: Numbering,
    max_labels: int,
) -> tuple[AlignmentProblem, float | None]:
    """The pair's alignment problem and label bound
    (:func:`.smatch.alignment_problem`), label ids from ``ids``, which
    starts over when it holds more than ``max_labels`` labels (see
    :class:`.smatch.LabelIds`)."""
    if len(ids) > max_labels:
        ids.clear()
    encoded = encode_pair(
        candidate, reference, numbering.candidate, numbering.reference, ids
    )
    return triple_problem(encoded, candidate.options.counting == "product")


@dataclass(frozen=True, slots=True)
class Search:
    """How smatch searches a pair's mapping (its options of the same names)."""

    restarts: int
    seed: int
    exact: bool
    time_limit: float
    time_budget: float | None

    def run(
        self,
        problem: AlignmentProblem,
        candidate: StandardGraph,
        reference: StandardGraph,
        numbering: Numbering,
        bound: float | None,
    ) -> Alignment:
        """The identity for one graph twice, else the hill climb (``bound``:
        the best any mapping can earn, if known), then the ILP where
        ``exact`` asks and the climb proved nothing; in own numbers."""
        found = isomorphic_alignment(problem, candidate, reference, numbering)
        if found is None:
            found = hill_climb(
                problem,
                restarts=self.restarts,
                seed=self.seed,
                bound=bound,
                deadline=deadline_after(self.time_budget),
            )
        if self.exact and not found.optimal:
            found = solve_exact(problem, found, self.time_limit)
        return numbering.own(found)


class PairScorer:
    """smatch's whole path for one pair after another: the standardisation,
    the search, and the label ids shared by the pairs (``ids``, started
    over past ``max_labels`` labels: see :class:`.smatch.LabelIds`)."""

    def __init__(
        self,
        standardization: Standardization,
        search: Search,
        ids: dict[object, int],
        max_labels: int,
    ) -> None:
        self.standardization = standardization
        self.search = search
        self.ids = ids
        self.max_labels = max_labels

    def score(self, candidate: Graph, reference: Graph) -> Score:
        """smatch's score of the pair (P: candidate, R: reference)."""
        options = self.standardization
        return self.score_standard(
            standardize(candidate, options), standardize(reference, options)
        )

    def align(self, candidate: StandardGraph, reference: StandardGraph) -> Alignment:
        """The best mapping found (proven optimal when ``Alignment.optimal``)."""
        numbering = Numbering.of(candidate, reference)
        problem, bound = encoded_problem(
            candidate, reference, self.ids, numbering, self.max_labels
        )
        return self.search.run(problem, candidate, reference, numbering, bound)

    def score_standard(
        self, candidate: StandardGraph, reference: StandardGraph
    ) -> Score:
        """:meth:`score` of graphs already standardised."""
        found = self.align(candidate, reference)
        return alignment_score(
            found,
            round(found.value),
            round(found.upper_bound),
            candidate.size,
            reference.size,
        )


def alignment_score(
    found: Alignment,
    matched: _Matches,
    bound: _Matches,
    n_cand: int,
    n_ref: int,
) -> Score:
    """A pair's score from its alignment and its ``matched`` triples
    (``bound``: the most a mapping could match), smatch's counts and facts."""
    precision, recall, f1 = prf(matched, n_cand, n_ref)
    optimal = found.optimal
    return Score(
        f1=f1,
        precision=precision,
        recall=recall,
        counts={
            "matched": matched,
            "candidate": n_cand,
            "reference": n_ref,
            "upper_bound": bound,
            "optimal": int(optimal),
            "cut": int(found.cut),
        },
        info={
            "optimal": optimal,
            "f1_upper_bound": prf(bound, n_cand, n_ref)[2],
            "method": found.method,
        },
    )
