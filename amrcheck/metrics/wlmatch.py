"""wlmatch-v1: the metric amrcheck recommends (issue 16; ``--metric recommended``).

Layer: metrics. One score that tracks human similarity judgements (BAMBOO)
*and* graded structural damage (RARE), with an explanation as concrete as
smatch's. Design and figures: ``docs/recommended.md``.

1. **graph**: the shared standardisation (:mod:`amrcheck.standardize`,
   strict defaults), put in canonical node order (:mod:`amrcheck.canonical`)
   so that every writing of a graph is processed identically; nodes are the
   variables (labelled by their concept) and one node per attribute value
   (the TOP triple aside); edges are the relations and attributes;
2. **context**: WWLK's message passing (:mod:`.wwlk`: word vectors, K = 2
   rounds of ½(x + mean of weighted neighbours), unit-length [x⁰; x¹; x²]);
3. **alignment**: a one-to-one node alignment minimising the total
   distance of the aligned nodes' contextual vectors plus 1 for every pair
   with different labels, concepts paired with concepts and attribute
   values with values where the counts allow (Hungarian method), found in
   a canonical direction so that it does not depend on argument order;
4. **six agreements**, each in [0, 1]:

   * ``concepts``: F1 of identical labels under the alignment, each node
     weighted by the informativeness (idf) of its label, estimated on the
     BAMBOO train graphs (``and``, ``person``, ``-`` count less than
     ``dollar`` or ``say-01``);
   * ``senses``: F1 of labels identical once PropBank senses are stripped;
   * ``graded``: F1 of aligned labels' similarity (1 if identical, else the
     cosine of their word vectors if positive, 0 for out-of-vocabulary);
   * ``edges``: F1 of relations and attributes kept by the alignment (same
     role, both ends aligned) — the structure, role direction included;
   * ``subtrees``: WLK's score of the two graphs (:func:`.wlk.wl_similarity`,
     two rounds): neighbourhoods shared beyond one edge, without alignment —
     what a rewired graph loses first;
   * ``transport``: 1 − EMD/2 of the contextual node vectors (WWLK's
     optimal transport; its plan is an n:m alignment);

5. **score**: their weighted mean, weights fitted on BAMBOO train (the
   structural weight chosen on BAMBOO dev); identical graphs (the same
   canonical form) score exactly 1.0.

Principles: I (range [0, 1]), II (1.0 for any writing of the same graph;
a score of 1 needs identical concepts and edges under the alignment),
III (symmetric, exactly), IV (deterministic: no hash seeds, seeded
out-of-vocabulary vectors, the same float operations in every order).

Example:
    >>> from amrcheck.reading.corpus import decode
    >>> metric = WLMatch(vectors="tests/data/vectors/glove-mini.50d.txt")
    >>> a = decode('(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-02 :ARG0 b))')
    >>> b = decode('(x / want-01 :ARG1 (y / go-02 :ARG0 z) :ARG0 (z / boy))')
    >>> metric.score(a, b).f1
    1.0
    >>> c = decode('(w / want-01 :ARG0 (g / girl) :ARG1 (g2 / go-02 :ARG0 g))')
    >>> round(metric.score(a, c).f1, 3)
    0.802
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field, fields
from functools import cache
from pathlib import Path
from typing import Any, ClassVar

import numpy as np

from ..canonical import canonicalize
from ..errors import InputError, MetricError
from ..graph import Graph
from ..reading.files import read_input_text
from ..reading.tokens import SENSE_SUFFIX_RE
from ..standardize import standardize
from . import register
from ._protocol import (
    VECTORS_OPTION,
    Explanation,
    MeanOfPairs,
    Score,
    TripleRef,
)
from ._refs import written_ref
from .wlk import WLGraph, standard_nodes, wl_similarity
from .wwlk import (
    WWLK,
    NodeGraph,
    batch_representations,
    explain_flow,
    node_graph,
    transport,
)

#: the agreements, in the order of the weights
COMPONENTS: tuple[str, ...] = (
    "concepts", "senses", "graded", "edges", "subtrees", "transport",
)
#: what the alignment adds to the distance of two nodes with different labels
LABEL_PENALTY = 1.0
#: ... and to a concept paired with an attribute value: more than any
#: distance (at most 2) and label penalty together, so concepts pair with
#: concepts and values with values wherever the counts allow, as in smatch
KIND_PENALTY = 4.0
#: fitted parameters (idf table, component weights) and how they were made
PARAMETERS = Path(__file__).resolve().parent.parent / "data" / "wlmatch_v1.json"
PARAMETERS_FORMAT = "amrcheck-wlmatch-parameters/1"



@dataclass(frozen=True, slots=True)
class Parameters:
    """What was fitted: component weights and the label idf table."""

    weights: dict[str, float]
    idf: dict[str, float]
    #: idf of a label not in the table (seen at most once in the data)
    idf_default: float


def read_parameters(path: str | Path) -> Parameters:
    """The parameters file (``bench/fit_wlmatch.py`` writes it).

    Raises:
        MetricError: unreadable or not a parameters file.
    """
    try:
        document = json.loads(read_input_text(path))
    except InputError as exc:
        raise MetricError(
            f"{path}: cannot read wlmatch parameters: {exc.message}"
        ) from None
    except json.JSONDecodeError as exc:
        raise MetricError(f"{path}: cannot read wlmatch parameters: {exc}") from None
    if not isinstance(document, dict) or document.get("format") != PARAMETERS_FORMAT:
        raise MetricError(f"{path}: not a wlmatch parameters file")
    weights = document.get("weights", {})
    if sorted(weights) != sorted(COMPONENTS) or min(weights.values()) < 0:
        raise MetricError(f"{path}: needs a weight >= 0 for each of {COMPONENTS}")
    return Parameters(
        {name: float(weights[name]) for name in COMPONENTS},
        {str(k): float(v) for k, v in document["idf"].items()},
        float(document["idf_default"]),
    )


@cache
def shipped_parameters() -> Parameters:
    return read_parameters(PARAMETERS)


@dataclass(slots=True, eq=False)
class Prepared:
    """One graph as the metric sees it (see the module docstring, step 1).

    ``key`` is the canonical form: two graphs have the same key exactly
    when they are the same graph, however written.
    """

    key: tuple[object, ...]
    wl: WLGraph
    #: variable of each node; None for an attribute value
    variables: list[str | None]
    #: written triple of each edge (``wl.origin`` has each node's)
    edge_origin: list[int]
    idf: np.ndarray
    #: each edge and its position in ``wl.edges``
    edges: dict[tuple[int, str, int], int]
    nodes: NodeGraph

    def written(self) -> list[int]:
        """The written triples the graph is made of, concepts first."""
        concepts = [
            where
            for where, variable in zip(self.wl.origin, self.variables, strict=True)
            if variable is not None
        ]
        return concepts + self.edge_origin

    @property
    def size(self) -> int:
        return len(self.wl.labels)


@register("wlmatch-v1")
class WLMatch(MeanOfPairs):
    """wlmatch-v1 (see the module docstring)."""

    name: ClassVar[str] = "wlmatch-v1"

    @dataclass(frozen=True, slots=True)
    class Options:
        """``vectors``: None for GloVe 6B 50d (the ``glove`` extra), a
        GloVe/word2vec text file, or another source of
        :func:`amrcheck.embeddings.load_word_vectors`. ``seed``: of the
        out-of-vocabulary vectors and the edge weights (WWLK's)."""

        vectors: str | None = field(default=None, metadata=VECTORS_OPTION)
        seed: int = 0

    def __init__(self, **options: Any) -> None:
        self.options = self.Options(**options)
        self.parameters = shipped_parameters()
        self.wwlk = WWLK(vectors=self.options.vectors, seed=self.options.seed)
        self.concepts = self.wwlk.concepts
        weights = self.parameters.weights
        self._weights = np.array([weights[name] for name in COMPONENTS])
        self._total = float(self._weights.sum())
        self._cosines: dict[tuple[str, str], float] = {}

    @classmethod
    def from_options(cls, options: Any) -> WLMatch:
        return cls(**{f.name: getattr(options, f.name) for f in fields(options)})

    def settings(self) -> dict[str, Any]:
        """Every option, the vectors loaded and the fitted weights."""
        return {
            "vectors": self.concepts.describe(),
            "seed": self.options.seed,
            "weights": ", ".join(
                f"{name} {self.parameters.weights[name]:g}" for name in COMPONENTS
            ),
        }

    # --- preparing graphs ------------------------------------------------------

    def prepare_many(
        self, graphs: Sequence[Graph]
    ) -> tuple[list[Prepared], list[np.ndarray]]:
        """The prepared graphs and their contextual node vectors (one batch)."""
        prepared = []
        idf, default = self.parameters.idf, self.parameters.idf_default
        for graph in graphs:
            standard = canonicalize(standardize(graph))
            wl, variables, edge_origin = standard_nodes(standard)
            nodes = node_graph(graph, wl, self.concepts)
            prepared.append(
                Prepared(
                    key=(
                        tuple(standard.instances),
                        tuple(standard.attributes),
                        tuple(standard.relations),
                    ),
                    wl=wl,
                    variables=variables,
                    edge_origin=edge_origin,
                    idf=np.array([idf.get(label, default) for label in wl.labels]),
                    edges={edge: k for k, edge in enumerate(wl.edges)},
                    nodes=nodes,
                )
            )
        rows = batch_representations(
            [p.nodes for p in prepared],
            [self.wwlk.group_weights(p.nodes) for p in prepared],
            self.wwlk.options.iterations,
            self.wwlk.options.update,
        )
        return prepared, rows

    # --- scoring ----------------------------------------------------------------

    def score(self, candidate: Graph, reference: Graph, explain: bool = False) -> Score:
        """The weighted agreement of the two graphs (symmetric)."""
        graphs = [candidate] if reference is candidate else [candidate, reference]
        prepared, rows = self.prepare_many(graphs)
        return self._score(prepared[0], rows[0], prepared[-1], rows[-1], explain)

    def score_pairs(self, pairs: Sequence[tuple[Graph, Graph]]) -> list[Score]:
        """:meth:`score` of many pairs (same scores), their graphs embedded at once."""
        prepared, rows = self.prepare_many([g for pair in pairs for g in pair])
        return [
            self._score(prepared[k], rows[k], prepared[k + 1], rows[k + 1], False)
            for k in range(0, len(prepared), 2)
        ]

    def _score(
        self,
        cand: Prepared,
        cand_rows: np.ndarray,
        ref: Prepared,
        ref_rows: np.ndarray,
        explain: bool,
    ) -> Score:
        # one direction for both argument orders: (a, b) and (b, a) then
        # solve the same problems, so the score is exactly symmetric
        swap = (cand.size, cand_rows.tobytes(), cand.wl.labels) > (
            ref.size,
            ref_rows.tobytes(),
            ref.wl.labels,
        )
        first, second = (ref, cand) if swap else (cand, ref)
        rows = (ref_rows, cand_rows) if swap else (cand_rows, ref_rows)
        distance, flow, cost = transport(*rows)
        if first.key == second.key:  # the same graph: identity alignment
            pairs = list(range(first.size))
            mapping = dict(zip(pairs, pairs, strict=True))
        else:
            mapping = _align(first, second, cost)
        values = self._components(first, second, mapping, distance)
        similarity = (
            1.0
            if first.key == second.key
            else min(1.0, float(self._weights @ values) / self._total)
        )
        score = Score(
            f1=similarity,
            counts={"similarity": similarity, "pairs": 1.0},
            info={"components": dict(zip(COMPONENTS, values.tolist(), strict=True))},
        )
        if explain:
            if swap:
                mapping = {j: i for i, j in mapping.items()}
                flow, cost = flow.T, cost.T
            score.explanation = self._explain(cand, ref, mapping, flow, cost, distance)
            score.explanation.details["components"] = score.info["components"]
        return score

    def _cosine(self, a: str, b: str) -> float:
        key = (a, b) if a < b else (b, a)
        found = self._cosines.get(key)
        if found is None:
            if len(self._cosines) > 1 << 16:  # flat memory on any corpus
                self._cosines.clear()
            found = self._cosines[key] = max(0.0, self.concepts.cosine(a, b))
        return found

    def _components(
        self,
        first: Prepared,
        second: Prepared,
        mapping: dict[int, int],
        distance: float,
    ) -> np.ndarray:
        labels_a, labels_b = first.wl.labels, second.wl.labels
        same = weighted = senses = graded = 0.0
        for i, j in mapping.items():
            a, b = labels_a[i], labels_b[j]
            if a == b:
                weighted += first.idf[i]
                same += 1.0
                senses += 1.0
                graded += 1.0
                continue
            if SENSE_SUFFIX_RE.sub("", a) == SENSE_SUFFIX_RE.sub("", b):
                senses += 1.0
            graded += self._cosine(a, b)
        nodes = first.size + second.size
        kept = sum(
            1
            for s, role, t in first.wl.edges
            if (mapping.get(s), role, mapping.get(t)) in second.edges
        )
        edges = len(first.wl.edges) + len(second.wl.edges)
        values = np.array(
            [
                2 * weighted / (first.idf.sum() + second.idf.sum()),
                2 * senses / nodes,
                2 * graded / nodes,
                2 * kept / edges if edges else 1.0,
                wl_similarity(first.wl, second.wl),
                1.0 - distance / 2,
            ]
        )
        # sums in another order can pass 1 (or 0) by a rounding step
        clipped: np.ndarray = np.clip(values, 0.0, 1.0)
        return clipped

    # --- explaining -------------------------------------------------------------

    def _explain(
        self,
        cand: Prepared,
        ref: Prepared,
        mapping: dict[int, int],
        flow: np.ndarray,
        cost: np.ndarray,
        distance: float,
    ) -> Explanation:
        """smatch's kind of explanation under the node alignment, and more.

        ``matched`` pairs the written triples that agree: the concepts of
        aligned nodes with the same label, and the relations and attributes
        the alignment keeps; ``missing`` / ``extra`` are the reference's /
        candidate's other triples. ``units["nodes"]`` has every aligned
        node pair with its graded similarity, ``units["flows"]`` the
        transport plan (WWLK's n:m alignment).
        """
        graph_c, graph_r = cand.nodes.graph, ref.nodes.graph
        alignment: dict[str, str | None] = {
            v: None for v in cand.variables if v is not None
        }
        matched: list[tuple[TripleRef, TripleRef]] = []
        nodes: list[NodeMatch] = []
        used_c: set[int] = set()
        used_r: set[int] = set()
        for i, j in sorted(mapping.items()):
            a, b = cand.wl.labels[i], ref.wl.labels[j]
            variable = cand.variables[i]
            if variable is not None:
                alignment[variable] = ref.variables[j]
            similarity = 1.0 if a == b else self._cosine(a, b)
            nodes.append(
                NodeMatch(
                    written_ref(graph_c, cand.wl.origin[i]),
                    written_ref(graph_r, ref.wl.origin[j]),
                    a,
                    b,
                    similarity,
                )
            )
            # an attribute value's triple is its edge: counted with the edges
            if a == b and variable is not None and ref.variables[j] is not None:
                matched.append(
                    (
                        written_ref(graph_c, cand.wl.origin[i]),
                        written_ref(graph_r, ref.wl.origin[j]),
                    )
                )
                used_c.add(cand.wl.origin[i])
                used_r.add(ref.wl.origin[j])
        for k, (s, role, t) in enumerate(cand.wl.edges):
            other = ref.edges.get((mapping.get(s, -1), role, mapping.get(t, -1)))
            if other is not None:
                c_origin, r_origin = cand.edge_origin[k], ref.edge_origin[other]
                matched.append(
                    (written_ref(graph_c, c_origin), written_ref(graph_r, r_origin))
                )
                used_c.add(c_origin)
                used_r.add(r_origin)
        return Explanation(
            alignment=alignment,
            matched=matched,
            missing=_unused(ref, graph_r, used_r),
            extra=_unused(cand, graph_c, used_c),
            units={
                "nodes": nodes,
                "flows": explain_flow(cand.nodes, ref.nodes, flow, cost, distance)
                .units["flows"],
            },
            details={
                "unit": "triple",
                "emd": distance,
                "weights": dict(self.parameters.weights),
            },
        )


@dataclass(frozen=True, slots=True)
class NodeMatch:
    """Two aligned nodes (their written triples), labels and similarity."""

    candidate: TripleRef
    reference: TripleRef
    candidate_label: str
    reference_label: str
    similarity: float

    def __str__(self) -> str:
        return f"{self.candidate_label} ~ {self.reference_label}: {self.similarity:.3f}"


def _unused(prepared: Prepared, graph: Graph, used: set[int]) -> list[TripleRef]:
    return [written_ref(graph, i) for i in prepared.written() if i not in used]


def _align(first: Prepared, second: Prepared, cost: np.ndarray) -> dict[int, int]:
    """One-to-one node alignment: contextual distance + label penalty, minimal."""
    from scipy.optimize import linear_sum_assignment  # loaded with POT already

    labels_a = np.array(first.wl.labels, dtype=object)
    labels_b = np.array(second.wl.labels, dtype=object)
    values_a = np.array([v is None for v in first.variables])
    values_b = np.array([v is None for v in second.variables])
    penalty = LABEL_PENALTY * (labels_a[:, None] != labels_b[None, :])
    penalty += KIND_PENALTY * (values_a[:, None] != values_b[None, :])
    rows, cols = linear_sum_assignment(cost + penalty)
    return dict(zip(rows.tolist(), cols.tolist(), strict=True))
