"""WWLK: Wasserstein Weisfeiler-Leman kernel similarity (Opitz et al. 2021).

Layer: metrics. Each graph becomes nodes with word vectors; K rounds of
message passing contextualise them; the score is one minus the earth
mover's distance between the two clouds of node representations, and the
optimal transport plan is an **n:m alignment** of the nodes.

1. **graph**: built as WLK builds it (:func:`.wlk.standard_wl_graph`: the
   shared standardisation in canonical node order, attribute values as
   nodes), so a graph scores the same however it is written;
   ``compat="reference"`` reads it as the reference does
   (:func:`.wlk.wl_graph`: constants are nodes, every ``-of`` edge
   reversed, lower case, no quotes, no duplicate triples), which depends on
   the writing where a constant equals a concept;
2. **initial vectors** x⁰: :class:`~amrcheck.embeddings.ConceptVectors`
   (GloVe 6B 50d by default; OOV labels get a seeded uniform(−0.05, 0.05)
   vector);
3. **K iterations** (default 2), every node hearing all its neighbours
   (edges undirected): xᵏ⁺¹ = ½(xᵏ + mean over neighbours of w·xᵏ_nbr),
   where w is the product of the weights of the edge labels between the
   two nodes (a scalar per label). ``update="add"`` uses xᵏ + mean, as the
   reference code (weisfeiler-leman-amr-metrics) does; the ½ is the
   paper's and SPEC's formula;
4. **representation**: [x⁰; x¹; …; xᴷ] per node, scaled to unit length;
5. **score**: uniform mass (1/n, 1/m), Euclidean cost, exact EMD by POT's
   network simplex, similarity = 1 − EMD, as the reference reports it.
   Unit vectors are at most 2 apart, so the score lies in [−1, 1]: it is
   below 0 when the graphs are less alike than orthogonal ones (117 of the
   8,347 BAMBOO dev pairs with GloVe 50d). Principle I ([0, 1]) therefore
   does not hold; clipping would tie those pairs at 0.

Edge-label weights: the reference draws them per run for the labels of
the corpus at hand (lowest entropy of 10 draws from U(0.2, 0.35) each,
unseeded), so a pair's score depends on the run and on the other pairs
in the file. Here each label's weight comes from a generator seeded by the
label and ``seed`` alone: of 10 draws from U(0.2, 0.35), the one farthest
from the interval's middle — the same two-peaked spread the entropy rule
produces, but fixed per label. WWLKθ (:class:`WWLKTheta`, ``wwlk-theta``)
replaces them with weights trained by :mod:`amrcheck.training.wwlk_theta`.

Determinism and symmetry: nothing depends on hash seeds or on the order
pairs are scored in, and a pair is always transported in one canonical
direction, so ``score(a, b) == score(b, a)`` exactly.

Example:
    >>> from amrcheck.reading.corpus import decode
    >>> metric = WWLK(vectors="tests/data/vectors/glove-mini.50d.txt")
    >>> a = decode('(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-02 :ARG0 b))')
    >>> metric.score(a, a).f1
    1.0
    >>> b = decode('(w / want-01 :ARG0 (g / girl) :ARG1 (g2 / go-02 :ARG0 g))')
    >>> round(metric.score(a, b).f1, 3)
    0.859
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, fields
from functools import cache, lru_cache
from pathlib import Path
from typing import Any, ClassVar, Literal

import numpy as np

from ..embeddings import ConceptVectors, label_rng, load_word_vectors
from ..errors import InputError, MetricError
from ..graph import Graph, TripleKind
from ..reading.files import read_input_text
from . import register
from ._protocol import (
    PATH_OPTION,
    VECTORS_OPTION,
    Explanation,
    MeanOfPairs,
    Reference,
    Score,
    TripleRef,
    check_reference,
)
from ._refs import written_ref
from .wlk import WLGraph, standard_wl_graph, wl_graph

Update = Literal["average", "add"]
UPDATES: tuple[str, ...] = ("average", "add")
#: the interval untrained edge-label weights are drawn from (the reference's)
WEIGHT_RANGE: tuple[float, float] = (0.2, 0.35)


def default_edge_weight(label: str, seed: int = 0) -> float:
    """The untrained weight of edge label ``label`` (see module docstring).

    Example:
        >>> 0.2 <= default_edge_weight(":arg0") <= 0.35
        True
    """
    low, high = WEIGHT_RANGE
    draws = label_rng("edge:" + label, seed).uniform(low, high, 10)
    middle = (low + high) / 2
    return float(draws[np.argmax(np.abs(draws - middle))])


@dataclass(slots=True, eq=False)
class NodeGraph:
    """One graph made ready for message passing.

    A *group* is a node pair (source, target) joined by edges;
    ``group_labels`` has each group's edge labels. Every group is heard
    from both ends: hearing ``k`` is node ``listeners[k]`` hearing node
    ``speakers[k]`` through group ``k % len(group_labels)``; ``divisor``
    holds each node's number of hearings (at least 1), to turn the sum
    heard into a mean.
    """

    graph: Graph
    wl: WLGraph
    vectors: np.ndarray
    group_labels: list[tuple[str, ...]]
    listeners: np.ndarray
    speakers: np.ndarray
    divisor: np.ndarray

    @property
    def size(self) -> int:
        return len(self.wl.labels)


def prepare(
    graph: Graph, concepts: ConceptVectors, compat: Reference | None = None
) -> NodeGraph:
    """Nodes, initial vectors and edge groups of ``graph``: the standard
    graph in canonical order, or with ``compat="reference"`` the graph as
    the reference reads it (:func:`.wlk.wl_graph`)."""
    read = wl_graph if compat is not None else standard_wl_graph
    return node_graph(graph, read(graph), concepts)


def node_graph(graph: Graph, wl: WLGraph, concepts: ConceptVectors) -> NodeGraph:
    """Initial vectors and edge groups of the nodes ``wl`` made of ``graph``."""
    n = len(wl.labels)
    labels_of: dict[tuple[int, int], list[str]] = {}
    for source, role, target in wl.edges:
        labels_of.setdefault((source, target), []).append(role)
    # built in Python: graphs are small, and a handful of list operations
    # cost less than the numpy calls they replace
    sources = [s for s, _ in labels_of]
    targets = [t for _, t in labels_of]
    degree = [0] * n
    for s, t in labels_of:
        degree[s] += 1
        degree[t] += 1
    return NodeGraph(
        graph=graph,
        wl=wl,
        vectors=concepts.stack(wl.labels),
        group_labels=[tuple(roles) for roles in labels_of.values()],
        listeners=np.array(sources + targets, dtype=np.intp),
        speakers=np.array(targets + sources, dtype=np.intp),
        divisor=np.array([d or 1 for d in degree], dtype=np.float64),
    )


def representations(
    nodes: NodeGraph, group_weights: np.ndarray, iterations: int, update: str
) -> np.ndarray:
    """Unit-length [x⁰; …; xᴷ] rows, one per node, for these edge weights."""
    return batch_representations([nodes], [group_weights], iterations, update)[0]


def batch_representations(
    graphs: Sequence[NodeGraph],
    group_weights: Sequence[np.ndarray],
    iterations: int,
    update: str,
) -> list[np.ndarray]:
    """:func:`representations` of many graphs, computed together.

    The graphs are the blocks of one sparse adjacency, so each message
    passing step is one product for all of them instead of a dozen small
    array operations per graph. A node's row sums only the node's own
    hearings, in the same order whatever else is in the batch, so a
    graph's rows do not depend on the batch (bit for bit).
    """
    from scipy.sparse import csr_matrix  # loaded with POT already

    sizes = [g.size for g in graphs]
    offsets = np.cumsum([0, *sizes])
    total = int(offsets[-1])
    x = np.concatenate([g.vectors for g in graphs])
    parts = [x]
    if iterations:
        shift = np.repeat(offsets[:-1], [len(g.listeners) for g in graphs])
        listeners = np.concatenate([g.listeners for g in graphs]) + shift
        speakers = np.concatenate([g.speakers for g in graphs]) + shift
        divisor = np.concatenate([g.divisor for g in graphs])
        heard = np.concatenate([np.concatenate([w, w]) for w in group_weights])
        heard = heard / divisor[listeners]  # the mean of what a node hears
        # rows in order, each row's hearings in their order within the graph
        order = np.argsort(listeners, kind="stable")
        starts = np.zeros(total + 1, dtype=np.intp)
        np.cumsum(np.bincount(listeners, minlength=total), out=starts[1:])
        adjacency = csr_matrix(
            (heard[order], speakers[order], starts), shape=(total, total)
        )
        for _ in range(iterations):
            x = x + adjacency @ x
            if update == "average":
                x *= 0.5
            parts.append(x)
    stacked = np.concatenate(parts, axis=1)
    norms = np.sqrt(np.einsum("ij,ij->i", stacked, stacked))
    norms[norms == 0.0] = 1.0  # a zero row stays zero
    stacked /= norms[:, None]
    return np.split(stacked, offsets[1:-1])


@cache
def _solver() -> tuple[Callable[..., Any], Callable[[int], Any]]:
    """POT's network simplex (``emd_c``) and its result check, imported once.

    Called directly rather than through ``ot.emd``: for graphs of a few
    dozen nodes the wrapper's conversions and checks cost twice the solve
    itself (bit for bit the same result: see :func:`transport`).
    """
    from ot.lp.emd_wrap import check_result, emd_c

    return emd_c, check_result


@lru_cache(maxsize=4096)
def _masses(n: int, m: int) -> tuple[np.ndarray, np.ndarray]:
    """Uniform masses of n and m nodes, the second rescaled to the first's
    total as ``ot.emd`` does (the sums differ in the last bits)."""
    a = np.full(n, 1 / n)
    b = np.full(m, 1 / m)
    b = b * a.sum() / b.sum()
    a.flags.writeable = b.flags.writeable = False
    return a, b


#: ``ot.emd``'s default iteration limit of the network simplex
MAX_ITERATIONS = 100_000


def transport(
    first: np.ndarray, second: np.ndarray
) -> tuple[float, np.ndarray, np.ndarray]:
    """EMD, flow and cost between two row sets with uniform mass.

    Solved in a canonical order of the two sets (then transposed back),
    so swapping the arguments transposes the flow and keeps the EMD bit
    for bit. Computes what ``ot.emd(a, b, cost)`` does for uniform
    masses, which always balance (no marginal check, no dual centring).
    """
    from scipy.spatial.distance import cdist  # loaded with POT already

    n, m = len(first), len(second)
    swap = n > m or (n == m and first.tobytes() > second.tobytes())
    a, b = (second, first) if swap else (first, second)
    cost = cdist(a, b)
    emd_c, check_result = _solver()
    flow, _, _, _, status = emd_c(*_masses(len(a), len(b)), cost, MAX_ITERATIONS, 1)
    check_result(status)  # warns, as ot.emd does, if the simplex stopped early
    distance = float((flow * cost).sum())
    if swap:
        flow, cost = flow.T, cost.T
    return distance, flow, cost


@dataclass(frozen=True, slots=True)
class NodeFlow:
    """Mass moved from a candidate node to a reference node, and at what cost.

    ``candidate`` / ``reference`` are the written triples the nodes come
    from (a variable's instance triple, or the attribute holding a
    constant), so each has a source span. ``mass`` is a share of the total
    (all flows of a pair sum to 1); ``cost`` is the Euclidean distance of
    the two nodes' unit-length representations (0 = same in context).
    """

    candidate: TripleRef
    reference: TripleRef
    candidate_label: str
    reference_label: str
    mass: float
    cost: float

    def __str__(self) -> str:
        return (
            f"{self.candidate_label} -> {self.reference_label}: "
            f"mass {self.mass:.3f}, cost {self.cost:.3f}"
        )


def _require_pot() -> None:
    try:
        import ot.lp  # noqa: F401
    except ImportError:
        raise MetricError(
            "WWLK needs POT (optimal transport): pip install 'amrcheck[glove]'"
        ) from None


@register("wwlk")
class WWLK(MeanOfPairs):
    """WWLK with seeded edge-label weights (see module docstring)."""

    name: ClassVar[str] = "wwlk"

    @dataclass(frozen=True, slots=True)
    class Options:
        """WWLK settings (defaults: the published K=2, GloVe 6B 50d).

        ``iterations``: K. ``vectors``: None for GloVe 6B 50d (the
        ``glove`` extra) or the path of a GloVe / word2vec text file.
        ``seed``: of the OOV stand-in vectors and untrained edge weights.
        ``update``: ``average`` (½(x + mean), the paper's) or ``add``
        (x + mean, the reference code's). ``compat="reference"``: graphs
        read as the reference reads them (see the module docstring).
        """

        iterations: int = 2
        vectors: str | None = field(default=None, metadata=VECTORS_OPTION)
        seed: int = 0
        update: Update = "average"
        compat: Reference | None = None

        def __post_init__(self) -> None:
            check_reference(self.compat)
            if self.iterations < 0:
                raise ValueError("iterations must be 0 or more")
            if self.update not in UPDATES:
                raise ValueError(
                    f"update must be one of {UPDATES}, not {self.update!r}"
                )

    def __init__(self, **options: Any) -> None:
        self.options = self.Options(**options)
        _require_pot()
        self.concepts = ConceptVectors(
            load_word_vectors(self.options.vectors), self.options.seed
        )
        self._weights: dict[str, float] = {}
        # products of _weights per group of edge labels (most groups are
        # one of a few hundred single labels); filled as groups are met, so
        # _weights must be complete before the first pair is scored
        self._group_weights: dict[tuple[str, ...], float] = {}

    @classmethod
    def from_options(cls, options: Any) -> WWLK:
        return cls(**{f.name: getattr(options, f.name) for f in fields(options)})

    def settings(self) -> dict[str, Any]:
        """Every option, and the vectors actually loaded."""
        described = {
            f.name: getattr(self.options, f.name) for f in fields(self.options)
        }
        described["vectors"] = self.concepts.describe()
        return described

    def edge_weight(self, label: str) -> float:
        weight = self._weights.get(label)
        if weight is None:
            weight = self._weights[label] = default_edge_weight(
                label, self.options.seed
            )
        return weight

    def group_weights(self, nodes: NodeGraph) -> np.ndarray:
        """Per node pair, the product of its edges' label weights."""
        known = self._group_weights
        try:
            products = [known[labels] for labels in nodes.group_labels]
        except KeyError:  # a label combination not met before
            products = [self._group_weight(labels) for labels in nodes.group_labels]
        return np.array(products, dtype=np.float64)

    def _group_weight(self, labels: tuple[str, ...]) -> float:
        product = self._group_weights.get(labels)
        if product is None:
            weight: Callable[[str], float] = self.edge_weight
            product = self._group_weights[labels] = math.prod(map(weight, labels))
        return product

    def embed_many(
        self, graphs: Sequence[Graph]
    ) -> tuple[list[NodeGraph], list[np.ndarray]]:
        """The prepared graphs and their node representations."""
        compat = self.options.compat
        nodes = [prepare(graph, self.concepts, compat) for graph in graphs]
        rows = batch_representations(
            nodes,
            [self.group_weights(n) for n in nodes],
            self.options.iterations,
            self.options.update,
        )
        return nodes, rows

    def embed(self, graph: Graph) -> tuple[NodeGraph, np.ndarray]:
        """The prepared graph and its node representations."""
        nodes, rows = self.embed_many([graph])
        return nodes[0], rows[0]

    def score(self, candidate: Graph, reference: Graph, explain: bool = False) -> Score:
        """1 − EMD of the two graphs' node representations (symmetric)."""
        graphs = [candidate] if reference is candidate else [candidate, reference]
        nodes, rows = self.embed_many(graphs)
        return self._score(nodes[0], rows[0], nodes[-1], rows[-1], explain)

    def score_pairs(self, pairs: Sequence[tuple[Graph, Graph]]) -> list[Score]:
        """:meth:`score` of many pairs (same scores), their graphs embedded at once."""
        nodes, rows = self.embed_many([graph for pair in pairs for graph in pair])
        return [
            self._score(nodes[k], rows[k], nodes[k + 1], rows[k + 1], False)
            for k in range(0, len(nodes), 2)
        ]

    def _score(
        self,
        cand: NodeGraph,
        cand_rows: np.ndarray,
        ref: NodeGraph,
        ref_rows: np.ndarray,
        explain: bool,
    ) -> Score:
        distance, flow, cost = transport(cand_rows, ref_rows)
        similarity = 1.0 - distance
        score = Score(
            f1=similarity,
            counts={"similarity": similarity, "pairs": 1.0},
            info={"emd": distance},
        )
        if explain:
            score.explanation = explain_flow(cand, ref, flow, cost, distance)
        return score


def _node_ref(nodes: NodeGraph, node: int) -> TripleRef:
    return written_ref(nodes.graph, nodes.wl.origin[node])


def _variable(nodes: NodeGraph, node: int) -> str | None:
    origin = nodes.wl.origin[node]
    if nodes.graph.kinds[origin] is TripleKind.INSTANCE:
        return nodes.graph.triples[origin][0]
    return None


def explain_flow(
    cand: NodeGraph,
    ref: NodeGraph,
    flow: np.ndarray,
    cost: np.ndarray,
    distance: float,
) -> Explanation:
    """The n:m alignment: every flow with mass, cost and source triples.

    ``alignment`` maps each candidate variable to the reference variable
    that receives most of its mass (None if that is a constant node);
    ``units["flows"]`` has all flows, by candidate node, then mass.
    """
    flows: list[NodeFlow] = []
    alignment: dict[str, str | None] = {}
    for i in range(cand.size):
        row = flow[i]
        order = sorted(np.flatnonzero(row > 0).tolist(), key=lambda j: (-row[j], j))
        for j in order:
            flows.append(
                NodeFlow(
                    candidate=_node_ref(cand, i),
                    reference=_node_ref(ref, j),
                    candidate_label=cand.wl.labels[i],
                    reference_label=ref.wl.labels[j],
                    mass=float(row[j]),
                    cost=float(cost[i, j]),
                )
            )
        variable = _variable(cand, i)
        if variable is not None and order:
            alignment[variable] = _variable(ref, order[0])
    return Explanation(
        alignment=alignment,
        units={"flows": flows},
        details={"unit": "node flow", "emd": distance},
    )


#: the ``format`` field of a weights file
WEIGHTS_FORMAT = "amrcheck-wwlk-weights/1"


def save_weights(
    path: str | Path,
    weights: dict[str, float],
    settings: dict[str, Any],
    training: dict[str, Any],
) -> None:
    """Write trained edge-label weights as JSON (labels sorted)."""
    document = {
        "format": WEIGHTS_FORMAT,
        "settings": settings,
        "training": training,
        "weights": {label: weights[label] for label in sorted(weights)},
    }
    Path(path).write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")


def load_weights(path: str | Path) -> tuple[dict[str, float], dict[str, Any]]:
    """Weights and training settings from a file written by :func:`save_weights`.

    Raises:
        MetricError: unreadable, not JSON, or not a weights file.
    """
    try:
        document = json.loads(read_input_text(path))
    except InputError as exc:
        raise MetricError(f"{path}: cannot read WWLK weights: {exc.message}") from None
    except json.JSONDecodeError as exc:
        raise MetricError(f"{path}: cannot read WWLK weights: {exc}") from None
    if not isinstance(document, dict) or document.get("format") != WEIGHTS_FORMAT:
        raise MetricError(f"{path}: not a WWLK weights file ({WEIGHTS_FORMAT})")
    raw = document.get("weights")
    if not isinstance(raw, dict) or not all(
        isinstance(v, (int, float)) for v in raw.values()
    ):
        raise MetricError(f"{path}: 'weights' must map edge labels to numbers")
    return {str(k): float(v) for k, v in raw.items()}, dict(
        document.get("settings", {})
    )


#: the weights ``wwlk-theta`` uses when given none: trained by
#: ``bench/train_wwlk_theta.py`` (``amrcheck train wwlk``, seed 0, SPSA
#: defaults) on the BAMBOO train split, main subtask of all three tasks;
#: the file's ``provenance`` field names command, seed and data
DEFAULT_WEIGHTS = Path(__file__).resolve().parent.parent / "data" / (
    "wwlk_theta_bamboo_train.json"
)


@register("wwlk-theta")
class WWLKTheta(WWLK):
    """WWLKθ: WWLK with edge-label weights learned by SPSA (a weights file).

    Without ``weights``, the weights shipped in the package
    (:data:`DEFAULT_WEIGHTS`). Labels the file does not know keep WWLK's
    seeded weight. The file records the ``iterations`` and ``update`` it
    was trained with; scoring with others is refused, since the weights
    fit only those.
    """

    name: ClassVar[str] = "wwlk-theta"

    @dataclass(frozen=True, slots=True)
    class Options(WWLK.Options):
        """WWLK's options plus ``weights``: the JSON file ``amrcheck train
        wwlk`` writes (None: the shipped :data:`DEFAULT_WEIGHTS`)."""

        weights: str | None = field(default=None, metadata=PATH_OPTION)

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        path = getattr(self.options, "weights", None) or DEFAULT_WEIGHTS
        self.weights_path = Path(path)
        trained, settings = load_weights(path)
        for key in ("iterations", "update"):
            if key in settings and settings[key] != getattr(self.options, key):
                raise MetricError(
                    f"{path}: weights were trained with {key}={settings[key]}, "
                    f"not {getattr(self.options, key)}"
                )
        self._weights.update(trained)

    def settings(self) -> dict[str, Any]:
        """WWLK's settings, with the weights file actually used."""
        described = super().settings()
        described["weights"] = (
            f"{DEFAULT_WEIGHTS.name} (shipped, trained on BAMBOO train)"
            if self.weights_path == DEFAULT_WEIGHTS
            else str(self.weights_path)
        )
        return described
