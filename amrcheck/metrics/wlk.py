"""WLK: Weisfeiler-Leman kernel similarity of two graphs (Opitz et al. 2021).

Constants become nodes of their own; every node starts with its label
(concept or constant). Each of the K iterations relabels every node by
its label together with the sorted multiset of ``role neighbour-label``
messages from its neighbours. A graph's features are binary occurrences
of: the initial node labels and ``source_role_target`` label triples
(iteration 0), then the node labels of each iteration. Iteration i is
weighted 1/(1+i); the score is the cosine of the two concatenated
feature vectors. Deterministic: labels are compressed to ids in a table
made per pair (in order of first appearance), never through ``hash()``.

Graphs are read with the shared standardisation (:mod:`amrcheck.standardize`,
strict: lower case, no quotes, ``:X-of`` reversed where penman's AMR model
calls the role inverted, ``:mod``/``:domain`` one relation, a set of
triples) and put in canonical node order (:mod:`amrcheck.canonical`);
every attribute value is a node of its own; TOP is no feature. Each node
is relabelled from its own neighbourhood (textbook WL). So a graph scores
exactly the same however it is written, and 1.0 against itself.

``compat="reference"`` restores the reference's behaviour
(flipz357/weisfeiler-leman-amr-metrics ``51624e2``), which the default
does not follow because it depends on how a graph is written (issue 24):
penman's reading (every ``:X-of`` to a variable reversed, ``:consist-of``
included), quotes ``"`` and ``'`` removed; a constant equal to a concept
label is not a node, its edge goes to the last node carrying that label;
and a WL iteration's new labels are keyed by the *old label*, so all
nodes sharing a label get the neighbourhood of whichever of them comes
last — in an order that depends on Python's string hash seed in the
reference (its scores change with ``PYTHONHASHSEED``: 1,186 of 8,347
BAMBOO dev pairs between seeds 0 and 12345); here the last node *in graph
order* wins, which is deterministic and within 0.002 (mean absolute
difference) of the seed-0 reference scores. ``collapse_same_label``
switches that collapse on or off in either mode (default: on with
``compat="reference"``, off otherwise).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields
from typing import Any, ClassVar, Literal

from ..canonical import canonicalize
from ..graph import Graph, TripleKind
from ..standardize import TOP_ROLE, StandardGraph, standardize
from . import register
from ._protocol import (
    Explanation,
    MeanOfPairs,
    Reference,
    Score,
    TripleRef,
    check_reference,
)
from ._refs import written_ref

Direction = Literal["undirected", "top-down", "bottom-up", "two-way"]
DIRECTIONS: tuple[str, ...] = ("undirected", "top-down", "bottom-up", "two-way")

_NO_QUOTES = str.maketrans("", "", "\"'")


#: cleaned labels and roles by their text: the same few thousand recur in
#: every graph, and a lookup costs a fraction of cleaning again
_CLEANED: dict[str, str] = {}
#: beyond this many the memo starts over, so memory stays flat on any corpus
_CLEANED_MAX = 1 << 16


def _clean(text: str) -> str:
    cleaned = _CLEANED.get(text)
    if cleaned is None:
        if len(_CLEANED) >= _CLEANED_MAX:
            _CLEANED.clear()
        cleaned = _CLEANED[text] = text.lower().translate(_NO_QUOTES)
    return cleaned


@dataclass(slots=True)
class WLGraph:
    """Nodes with labels, labelled edges, and where each node came from.

    ``origin[n]`` is the written triple a node stands for: a variable's
    definition, the attribute that holds a constant, or the edge an
    edge-node replaces.
    """

    labels: list[str]
    edges: list[tuple[int, str, int]]
    origin: list[int]


def standard_nodes(
    standard: StandardGraph,
) -> tuple[WLGraph, list[str | None], list[int]]:
    """Nodes (concepts, then attribute values) and edges of a standard graph.

    Returns the graph (nodes with their written triples), each node's
    variable (None for a value) and each edge's written triple. TOP is no
    edge. In canonical order (:func:`amrcheck.canonical.canonicalize`)
    the result is the same for every writing of a graph.
    """
    labels: list[str] = [""] * len(standard.variables)
    origin = [-1] * len(standard.variables)
    # a variable defined twice keeps its first concept
    for (node, concept), where in zip(
        reversed(standard.instances), reversed(standard.instance_origin), strict=True
    ):
        labels[node], origin[node] = concept, where
    variables: list[str | None] = list(standard.variables)
    edges = [(s, ":" + role, t) for s, role, t in standard.relations]
    edge_origin = list(standard.relation_origin)
    for (node, role, value), where in zip(
        standard.attributes, standard.attribute_origin, strict=True
    ):
        if role == TOP_ROLE:
            continue
        # a value node stands for its attribute's written triple, as its edge
        edges.append((node, ":" + role, len(labels)))
        edge_origin.append(where)
        labels.append(value)
        origin.append(where)
        variables.append(None)
    return WLGraph(labels, edges, origin), variables, edge_origin


def standard_wl_graph(graph: Graph, edge_to_node: bool = False) -> WLGraph:
    """``graph`` standardised, in canonical order, as WL nodes and edges.

    Example:
        >>> from amrcheck.reading.corpus import decode
        >>> g = standard_wl_graph(decode('(m / man :ARG0-of (w / walk) :mod -)'))
        >>> g.labels, g.edges
        (['man', 'walk', '-'], [(1, ':arg0', 0), (0, ':mod', 2)])
    """
    wl, _, edge_origin = standard_nodes(canonicalize(standardize(graph)))
    return _split_edges(wl, edge_origin) if edge_to_node else wl


def _split_edges(wl: WLGraph, edge_origin: list[int]) -> WLGraph:
    """Every edge a node labelled with its role, between two ``:edge`` edges."""
    labels, origin = list(wl.labels), list(wl.origin)
    split: list[tuple[int, str, int]] = []
    for (head, label, tail), i in zip(wl.edges, edge_origin, strict=True):
        middle = len(labels)
        labels.append(label)
        origin.append(i)
        split.append((head, ":edge", middle))
        split.append((middle, ":edge", tail))
    return WLGraph(labels, split, origin)


def wl_graph(graph: Graph, edge_to_node: bool = False) -> WLGraph:  # noqa: C901 -- mirrors the reference's single pass
    """``graph`` as the WLK reference builds it (``compat="reference"``).

    Example:
        >>> from amrcheck.reading.corpus import decode
        >>> g = wl_graph(decode('(m / man :ARG0-of (w / walk-01) :polarity -)'))
        >>> g.labels, g.edges
        (['man', 'walk-01', '-'], [(1, ':arg0', 0), (0, ':polarity', 2)])
    """
    instance, relation = TripleKind.INSTANCE, TripleKind.RELATION
    node_of: dict[str, int] = {}
    labels: list[str] = []
    origin: list[int] = []
    # one pass over the triples for the nodes; edges need every node, so
    # the other triples wait for a second pass over just them
    others: list[int] = []
    for i, (triple, kind) in enumerate(zip(graph.triples, graph.kinds, strict=True)):
        if kind is not instance:
            others.append(i)
        elif triple[0] not in node_of:
            node_of[triple[0]] = len(labels)
            labels.append(_clean(triple[2]))
            origin.append(i)
    concepts = set(labels)
    edges: list[tuple[int, str, int]] = []
    edge_origin: list[int] = []
    constants: list[tuple[int, int, str, str]] = []  # triple, source, role, value
    # the reference dedupes triples; a relation's key ends in the target
    # node (an int), an attribute's in its value (a str), so they never meet
    seen: set[tuple[int, str, int | str]] = set()
    triples, kinds = graph.triples, graph.kinds
    for i in others:
        source, role, target = triples[i]
        if kinds[i] is relation:
            if role.endswith("-of"):  # penman reverses every -of to a variable
                edge = (node_of[target], _clean(role[:-3]), node_of[source])
            else:
                edge = (node_of[source], _clean(role), node_of[target])
            if edge not in seen:
                seen.add(edge)
                edges.append(edge)
                edge_origin.append(i)
            continue
        holder, label, value = node_of[source], _clean(role), _clean(target)
        key = (holder, label, value)
        if key in seen:
            continue
        seen.add(key)
        if value in concepts:
            # not made a node: the edge goes to the last node with that
            # label, unless that is node 0 (the reference tests its index)
            last = max(n for n, text in enumerate(labels) if text == value)
            if last:
                edges.append((holder, label, last))
                edge_origin.append(i)
            continue
        constants.append((i, holder, label, value))
    # constant nodes come last, in the order the reference's set of
    # triple indices yields them (ints: no hash seed involved)
    by_index = {c[0]: c for c in constants}
    for i in set(by_index):
        _, holder, label, value = by_index[i]
        edges.append((holder, label, len(labels)))
        edge_origin.append(i)
        labels.append(value)
        origin.append(i)
    wl = WLGraph(labels, edges, origin)
    return _split_edges(wl, edge_origin) if edge_to_node else wl


@dataclass(frozen=True, slots=True)
class WLFeature:
    """One WL feature of one graph and the nodes that carry it."""

    iteration: int
    text: str
    nodes: tuple[TripleRef, ...]

    def __str__(self) -> str:
        return f"[{self.iteration}] {self.text}"


# a node label: a string at iteration 0, a table id afterwards
_Label = object


class _Features:
    """Per-iteration label ids and feature sets of one graph of a pair."""

    def __init__(self, graph: WLGraph, direction: str) -> None:
        self.graph = graph
        n = len(graph.labels)
        self.neighbours: list[list[tuple[str, int]]] = [[] for _ in range(n)]
        hear_children = direction in ("undirected", "bottom-up", "two-way")
        hear_parents = direction in ("undirected", "top-down", "two-way")
        parent_mark = "-of" if direction == "two-way" else ""
        for source, role, target in graph.edges:
            if hear_children:
                self.neighbours[source].append((role, target))
            if hear_parents:
                self.neighbours[target].append((role + parent_mark, source))
        labels = graph.labels
        self.node_labels: list[list[_Label]] = [list(labels)]
        self.triples = {f"{labels[s]}_{role}_{labels[t]}" for s, role, t in graph.edges}

    def iterate(self, table: dict[object, int], collapse: bool) -> None:
        current = self.node_labels[-1]
        signatures = [
            (current[node], tuple(sorted((role, current[nb]) for role, nb in heard)))
            for node, heard in enumerate(self.neighbours)
        ]
        if collapse:  # the reference: the last node with a label speaks for all
            by_label = dict(zip(current, signatures, strict=True))
            signatures = [by_label[label] for label in current]
        self.node_labels.append(
            [table.setdefault(sig, len(table)) for sig in signatures]
        )

    def sets(self) -> list[set[object]]:
        """Feature sets: node labels, label triples, then one per iteration."""
        out: list[set[object]] = [set(self.node_labels[0]), set(self.triples)]
        out += [set(labels) for labels in self.node_labels[1:]]
        return out


@register("wlk")
class WLK(MeanOfPairs):
    """WLK: cosine of weighted binary Weisfeiler-Leman feature vectors."""

    name: ClassVar[str] = "wlk"

    @dataclass(frozen=True, slots=True)
    class Options:
        """WLK settings (defaults: the reference's ``-k 2``, undirected).

        ``compat="reference"``: the reference's graph reading and label
        collapse (see the module docstring). ``collapse_same_label``:
        None follows ``compat``.
        """

        iterations: int = 2
        direction: Direction = "undirected"
        edge_to_node: bool = False
        collapse_same_label: bool | None = None
        compat: Reference | None = None

    def __init__(
        self,
        iterations: int = 2,
        direction: str = "undirected",
        edge_to_node: bool = False,
        collapse_same_label: bool | None = None,
        compat: str | None = None,
    ) -> None:
        if direction not in DIRECTIONS:
            raise ValueError(
                f"direction must be one of {', '.join(DIRECTIONS)}, not {direction!r}"
            )
        iterations = int(iterations)
        if iterations < 0:
            raise ValueError("iterations must be 0 or more")
        self.options = self.Options(
            iterations,
            direction,  # type: ignore[arg-type]  # checked against DIRECTIONS above
            bool(edge_to_node),
            None if collapse_same_label is None else bool(collapse_same_label),
            check_reference(compat),
        )
        reference = self.options.compat is not None
        self._collapse = (
            reference if collapse_same_label is None else bool(collapse_same_label)
        )

    @classmethod
    def from_options(cls, options: WLK.Options) -> WLK:
        return cls(**{f.name: getattr(options, f.name) for f in fields(options)})

    def _features(
        self, candidate: Graph, reference: Graph
    ) -> tuple[_Features, _Features, dict[object, int]]:
        table: dict[object, int] = {}
        cand = self.graph_features(candidate, table)
        ref = self.graph_features(reference, table)
        return cand, ref, table

    def graph_features(self, graph: Graph, table: dict[object, int]) -> _Features:
        """One graph's WL labels after every iteration; new labels get ids
        in ``table`` (shared by the graphs that are compared)."""
        opts = self.options
        read = wl_graph if opts.compat is not None else standard_wl_graph
        return _refined(
            read(graph, opts.edge_to_node), opts.direction, opts.iterations,
            table, self._collapse,
        )

    def score(self, candidate: Graph, reference: Graph, explain: bool = False) -> Score:
        """Cosine similarity of the two graphs' WL feature vectors.

        Example:
            >>> from amrcheck.reading.corpus import decode
            >>> a = decode('(w / want-01 :ARG0 (b / boy))')
            >>> round(WLK().score(a, a).f1, 12)
            1.0
        """
        cand, ref, table = self._features(candidate, reference)
        similarity = _cosine(cand, ref)
        score = Score(f1=similarity, counts={"similarity": similarity, "pairs": 1.0})
        if explain:
            score.explanation = _explain(candidate, reference, cand, ref, table)
        return score


def wl_similarity(
    first: WLGraph, second: WLGraph, iterations: int = 2,
    direction: Direction = "undirected",
) -> float:
    """WLK's score of two WL graphs (its defaults: no label collapse).

    Example:
        >>> a = WLGraph(["want-01", "boy"], [(0, ":arg0", 1)], [0, 1])
        >>> b = WLGraph(["want-01", "girl"], [(0, ":arg0", 1)], [0, 1])
        >>> round(wl_similarity(a, a), 12), round(wl_similarity(a, b), 3)
        (1.0, 0.269)
    """
    table: dict[object, int] = {}
    return _cosine(
        _refined(first, direction, iterations, table, collapse=False),
        _refined(second, direction, iterations, table, collapse=False),
    )


def _refined(
    graph: WLGraph, direction: str, iterations: int, table: dict[object, int],
    collapse: bool,
) -> _Features:
    """``graph``'s WL labels after ``iterations`` rounds (ids in ``table``)."""
    side = _Features(graph, direction)
    for _ in range(iterations):
        side.iterate(table, collapse)
    return side


def _cosine(cand: _Features, ref: _Features) -> float:
    dot = norm_cand = norm_ref = 0.0
    # weights 1/(1+i): node labels and label triples are both iteration 0
    for k, (a, b) in enumerate(zip(cand.sets(), ref.sets(), strict=False)):
        weight = 1.0 / (1 + max(0, k - 1)) ** 2  # squared: w² per feature
        dot += weight * len(a & b)
        norm_cand += weight * len(a)
        norm_ref += weight * len(b)
    return dot / math.sqrt(norm_cand * norm_ref) if dot else 0.0


def _explain(
    candidate: Graph,
    reference: Graph,
    cand: _Features,
    ref: _Features,
    table: dict[object, int],
) -> Explanation:
    """Shared and unshared features, each with the nodes that carry it."""
    signature_of: dict[int, Any] = {v: k for k, v in table.items()}
    texts: dict[int, str] = {}

    def text(label: object) -> str:
        if not isinstance(label, int):
            return str(label)
        if label not in texts:
            own, heard = signature_of[label]
            inner = ", ".join(f"{role} {text(nb)}" for role, nb in heard)
            texts[label] = f"{text(own)} {{{inner}}}" if heard else text(own)
        return texts[label]

    def features(side: _Features, graph: Graph) -> dict[tuple[int, object], WLFeature]:
        found: dict[tuple[int, object], list[int]] = {}
        for k, labels in enumerate(side.node_labels):
            for node, label in enumerate(labels):
                found.setdefault((k, label), []).append(side.graph.origin[node])
        out = {}
        for (k, label), origins in found.items():
            refs = tuple(written_ref(graph, i) for i in sorted(set(origins)))
            out[(k, label)] = WLFeature(k, text(label), refs)
        return out

    a, b = features(cand, candidate), features(ref, reference)

    def order(key: tuple[int, object]) -> tuple[int, str]:
        return key[0], (a.get(key) or b[key]).text

    return Explanation(
        units={
            "matched": [(a[k], b[k]) for k in sorted(a.keys() & b.keys(), key=order)],
            "missing": [b[k] for k in sorted(b.keys() - a.keys(), key=order)],
            "extra": [a[k] for k in sorted(a.keys() - b.keys(), key=order)],
        },
        details={
            "unit": "WL feature",
            "shared_label_triples": sorted(cand.triples & ref.triples),
            "missing_label_triples": sorted(ref.triples - cand.triples),
            "extra_label_triples": sorted(cand.triples - ref.triples),
        },
    )
