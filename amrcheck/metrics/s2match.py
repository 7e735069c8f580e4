"""s2match (Opitz et al. 2020): smatch whose concept match is graded.

Layer: metrics. Everything is smatch's (:mod:`.smatch`: the shared
standardisation, the alignment problem, the seeded search with its
bounds, the optional ILP, the explanation) except the weight of aligning
two instance triples, which is 1 for identical concepts and otherwise

* ``diffsense`` (0.5) for the same predicate with another sense
  (``hit-01`` / ``hit-02``) or a predicate and its bare stem (``hit-01`` /
  ``hit``);
* else the cosine of the two concepts' vectors, negative cosines counting
  as 0, kept only if above ``cutoff`` (0.5) — and multiplied by
  ``diffsense`` when either concept is a predicate (its sense stripped).

Concept vectors come from :class:`~amrcheck.embeddings.ConceptVectors`
(GloVe 6B 50d by default); a concept without a vector is similar to
nothing but itself, as in the reference (amr-metric-suite). As there, a
predicate's vector is its stem's plus that of the stem + ``s`` (``hit`` +
``hits``) when the vocabulary has it. Unlike the reference, a multi-word
stem (``have-org-role``) is looked up as the mean of its words, as for
any other concept.

The matched count is a sum of graded weights, so P = M/|candidate|,
R = M/|reference| and F1 are graded too; identical graphs still score
exactly 1.

Example:
    >>> from amrcheck.reading.corpus import decode
    >>> metric = S2match(vectors="tests/data/vectors/glove-mini.50d.txt")
    >>> a = decode('(c / cat)')
    >>> metric.score(a, a).f1
    1.0
    >>> s = metric.score(a, decode('(k / kitten)'))
    >>> round(s.f1, 2), s.counts["matched"] > 1
    (0.82, True)
    >>> [str(c) for c in metric.score(a, decode('(k / kitten)'), explain=True)
    ...  .explanation.units["concepts"]]
    ['cat ~ kitten: 0.639']
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar

import numpy as np

from ..embeddings import ConceptVectors, load_word_vectors
from ..standardize import StandardGraph
from . import register
from ._align import Alignment
from ._protocol import VECTORS_OPTION, Explanation, TripleRef
from .smatch import (
    Numbering,
    Smatch,
    alignment_problem,
    explain_alignment,
    standard_triples,
)

_PREDICATE_RE = re.compile(r"^(.*[a-z])-\d+$")


@dataclass(frozen=True, slots=True)
class ConceptMatch:
    """Two aligned concepts (their instance triples) and their similarity."""

    candidate: TripleRef
    reference: TripleRef
    similarity: float

    def __str__(self) -> str:
        return (
            f"{self.candidate.triple[2]} ~ {self.reference.triple[2]}: "
            f"{self.similarity:.3f}"
        )


class ConceptSimilarity:
    """s2match's graded concept match (see the module docstring)."""

    def __init__(
        self, vectors: ConceptVectors, cutoff: float, diffsense: float
    ) -> None:
        self.vectors = vectors
        self.cutoff = cutoff
        self.diffsense = diffsense
        self._unit: dict[str, np.ndarray | None] = {}

    @staticmethod
    def stem(concept: str) -> str | None:
        """A predicate's stem without its sense (None: not a predicate)."""
        match = _PREDICATE_RE.match(concept)
        return match.group(1) if match else None

    def _unit_vector(self, concept: str) -> np.ndarray | None:
        if concept in self._unit:
            return self._unit[concept]
        stem = self.stem(concept)
        vector = self.vectors.vector(stem if stem is not None else concept)
        if vector is not None and stem is not None:
            third_person = self.vectors.word(stem + "s")
            if third_person is not None:
                vector = vector + third_person
        if vector is not None:
            norm = float(np.linalg.norm(vector))
            vector = vector / norm if norm else None
        self._unit[concept] = vector
        return vector

    def table(self, ours: set[str], theirs: set[str]) -> dict[tuple[str, str], float]:
        """Weights > 0 of every pair of *different* concepts of two graphs."""
        found: dict[tuple[str, str], float] = {}
        vectored: list[tuple[str, str]] = []
        for a in sorted(ours):
            stem_a = self.stem(a)
            for b in sorted(theirs):
                if a == b:
                    continue
                stem_b = self.stem(b)
                if (stem_a is not None and stem_a in (stem_b, b)) or (
                    stem_b is not None and stem_b == a
                ):
                    found[a, b] = self.diffsense
                elif (
                    self._unit_vector(a) is not None
                    and self._unit_vector(b) is not None
                ):
                    vectored.append((a, b))
        if vectored:
            left = np.array([self._unit[a] for a, _ in vectored])
            right = np.array([self._unit[b] for _, b in vectored])
            cosines = np.einsum("ij,ij->i", left, right).tolist()
            for (a, b), cosine in zip(vectored, cosines, strict=True):
                if cosine > self.cutoff:
                    predicate = self.stem(a) is not None or self.stem(b) is not None
                    found[a, b] = cosine * self.diffsense if predicate else cosine
        return found


@register("s2match")
class S2match(Smatch):
    """smatch with graded concept matches (same search and explanations)."""

    name: ClassVar[str] = "s2match"

    @dataclass(frozen=True, slots=True)
    class Options(Smatch.Options):
        """smatch's options, plus the graded match (defaults: the paper's).

        ``cutoff``: cosines at or below it count 0. ``diffsense``: factor
        for a sense difference and for any pair involving a predicate.
        ``vectors``: None for GloVe 6B 50d (the ``glove`` extra) or the path
        of a GloVe / word2vec text file. (The BAMBOO leaderboard's "S2match"
        row uses cutoff 0.9, diffsense 0.95.)
        """

        cutoff: float = 0.5
        diffsense: float = 0.5
        vectors: str | None = field(default=None, metadata=VECTORS_OPTION)

        def __post_init__(self) -> None:
            Smatch.Options.__post_init__(self)
            if not 0.0 <= self.cutoff <= 1.0:
                raise ValueError("cutoff must be in [0, 1]")
            if not 0.0 < self.diffsense <= 1.0:
                raise ValueError("diffsense must be in (0, 1]")

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        opts = self.options
        assert isinstance(opts, S2match.Options)
        self.similarity = ConceptSimilarity(
            ConceptVectors(load_word_vectors(opts.vectors)), opts.cutoff, opts.diffsense
        )

    def settings(self) -> dict[str, Any]:
        described = super().settings()
        described["vectors"] = self.similarity.vectors.describe()
        return described

    def _table(
        self, candidate: StandardGraph, reference: StandardGraph
    ) -> dict[tuple[str, str], float]:
        return self.similarity.table(
            {c for _, c in candidate.instances}, {c for _, c in reference.instances}
        )

    def align(self, candidate: StandardGraph, reference: StandardGraph) -> Alignment:
        """smatch's search on graded weights (ILP too with ``exact``)."""
        table = self._table(candidate, reference)
        numbering = Numbering.of(candidate, reference)
        problem, exact = alignment_problem(candidate, reference, self._ids, numbering)
        # smatch already credits identical concepts 1 each; add the rest,
        # in canonical numbers and order (float sums then never depend on
        # how a graph was written)
        product = candidate.options.counting == "product"
        n2 = problem.n2
        unary = problem.unary
        ours = sorted(
            Counter((numbering.candidate[i], a) for i, a in candidate.instances).items()
        )
        theirs = sorted(
            Counter((numbering.reference[j], b) for j, b in reference.instances).items()
        )
        for (i, a), count in ours:
            for (j, b), other in theirs:
                weight = table.get((a, b))
                if weight:
                    times = count * other if product else min(count, other)
                    unary[i * n2 + j] += weight * times
        problem.integral = False
        bound = _graded_bound(candidate, reference, table, exact)
        return self._search.run(problem, candidate, reference, numbering, bound)

    def count(self, value: float) -> float:
        """Graded matches keep their fractions."""
        return value

    def explain(
        self, candidate: StandardGraph, reference: StandardGraph, mapping: list[int]
    ) -> Explanation:
        """smatch's explanation plus every aligned concept pair's similarity.

        ``units["concepts"]`` lists the aligned concept pairs (instance
        triples) with their similarity, 1.0 for identical ones. A pair with
        partial credit (0 < similarity < 1) is listed there and not under
        ``missing`` / ``extra``.
        """
        explanation = explain_alignment(candidate, reference, mapping)
        table = self._table(candidate, reference)
        cand_refs = standard_triples(candidate)
        ref_refs = standard_triples(reference)
        ref_instance = {
            n: k for k, (n, _) in reversed(list(enumerate(reference.instances)))
        }
        concepts: list[ConceptMatch] = []
        partial: set[TripleRef] = set()
        for k, (i, a) in enumerate(candidate.instances):
            j = mapping[i]
            if j < 0 or j not in ref_instance:
                continue
            other = ref_instance[j]
            b = reference.instances[other][1]
            similarity = 1.0 if a == b else table.get((a, b), 0.0)
            pair = ConceptMatch(cand_refs[k], ref_refs[other], similarity)
            concepts.append(pair)
            if 0.0 < similarity < 1.0:
                partial.update((pair.candidate, pair.reference))
        explanation.missing = [t for t in explanation.missing if t not in partial]
        explanation.extra = [t for t in explanation.extra if t not in partial]
        explanation.units["concepts"] = concepts
        return explanation


def _graded_bound(
    candidate: StandardGraph,
    reference: StandardGraph,
    table: dict[tuple[str, str], float],
    exact: float | None,
) -> float | None:
    """smatch's label bound (``exact``) with each concept's best similarity
    instead of 0/1."""
    if exact is None:
        return None
    # sorted: the sums below then never depend on the written order
    ours = sorted(c for _, c in candidate.instances)
    theirs = sorted(c for _, c in reference.instances)
    identical = sum((Counter(ours) & Counter(theirs)).values())

    def best(
        labels: list[str], others: set[str], key: Callable[[str, str], float]
    ) -> float:
        return sum(max((key(a, b) for b in others), default=0.0) for a in labels)

    def weight(a: str, b: str) -> float:
        return 1.0 if a == b else table.get((a, b), 0.0)

    graded = min(
        best(ours, set(theirs), weight),
        best(theirs, set(ours), lambda b, a: weight(a, b)),
    )
    return exact - identical + graded
