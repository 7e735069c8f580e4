"""Canonical node order: one numbering of a graph's nodes whatever way it was written.

Layer: engine core, on top of :mod:`amrcheck.standardize`. Two PENMAN texts
of the same graph — variables renamed, branches in another order, a
re-entrant node defined at another of its places, ``:X-of`` written either
way — standardise to the same triples under different node numbers and in
different orders. :func:`canonicalize` renumbers the nodes and sorts the
triples so that all such texts give *identical* standard graphs (the same
lists, element for element). Any computation that is a deterministic
function of those lists — a seeded search, a float sum, a model's forward
pass — then gives bit-for-bit the same result for every writing of a graph.

How: colour refinement (1-dimensional Weisfeiler-Leman) from each node's
concepts and attributes, over labelled, directed relations; colours are
ranks of sorted signatures, so they depend on the graph alone, never on
variable names or text order. Where refinement leaves nodes tied, each
candidate of the first tied cell is singled out in turn and refined again
(individualisation-refinement, as in graph canonisation tools); the
numbering whose relabelled triples sort first wins. Nodes that are twins
(same colour and the same labelled neighbours) are interchangeable, so only
one of them is tried. For AMR graphs ties are rare and small; a search
that would try more than :data:`MAX_LEAVES` numberings keeps the best of
the first ones (deterministic, but then not guaranteed canonical).

Example:
    >>> from amrcheck.reading.corpus import decode
    >>> from amrcheck.standardize import standardize
    >>> a = standardize(decode("(w / want :ARG0 (b / boy) :ARG1 (g / go :ARG0 b))"))
    >>> b = standardize(decode("(x / want :ARG1 (y / go :ARG0 (z / boy)) :ARG0 z)"))
    >>> canonical_key(a) == canonical_key(b)
    True
    >>> canonicalize(b).variables
    ['x', 'z', 'y']
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import islice

from .standardize import StandardGraph

#: numberings tried at most when refinement leaves ties (see the module doc)
MAX_LEAVES = 64

#: the relabelled triples of a graph: instances, attributes, relations
Form = tuple[
    tuple[tuple[int, str], ...],
    tuple[tuple[int, str, str], ...],
    tuple[tuple[int, str, int], ...],
]


def canonical_order(graph: StandardGraph) -> list[int]:
    """The graph's nodes in canonical order (position -> node)."""
    return _Canon(graph).order()


def canonical_ranks(graph: StandardGraph) -> list[int]:
    """Each node's canonical number (node -> position)."""
    return _rank(canonical_order(graph))


def canonical_key(graph: StandardGraph) -> Form:
    """A hashable value equal for two standard graphs exactly when their
    triples are the same up to node numbering (isomorphic graphs)."""
    return _form(graph, _rank(canonical_order(graph)))


def canonicalize(graph: StandardGraph) -> StandardGraph:
    """``graph`` renumbered in canonical order, its triples sorted.

    Variables, origins and options travel with their nodes and triples,
    so explanations still point at the written text.
    """
    order = canonical_order(graph)
    rank = _rank(order)
    instances = [(rank[n], c) for n, c in graph.instances]
    attributes = [(rank[n], r, v) for n, r, v in graph.attributes]
    relations = [(rank[s], r, rank[t]) for s, r, t in graph.relations]
    by_instance = sorted(range(len(instances)), key=instances.__getitem__)
    by_attribute = sorted(range(len(attributes)), key=attributes.__getitem__)
    by_relation = sorted(range(len(relations)), key=relations.__getitem__)
    return StandardGraph(
        graph.graph,
        [graph.variables[node] for node in order],
        [instances[i] for i in by_instance],
        [attributes[i] for i in by_attribute],
        [relations[i] for i in by_relation],
        [graph.instance_origin[i] for i in by_instance],
        [graph.attribute_origin[i] for i in by_attribute],
        [graph.relation_origin[i] for i in by_relation],
        graph.options,
    )


def _rank(order: Sequence[int]) -> list[int]:
    rank = [0] * len(order)
    for position, node in enumerate(order):
        rank[node] = position
    return rank


def _form(graph: StandardGraph, rank: Sequence[int]) -> Form:
    return (
        tuple(sorted((rank[n], c) for n, c in graph.instances)),
        tuple(sorted((rank[n], r, v) for n, r, v in graph.attributes)),
        tuple(sorted((rank[s], r, rank[t]) for s, r, t in graph.relations)),
    )


class _Canon:
    """Colour refinement with individualisation over one standard graph."""

    def __init__(self, graph: StandardGraph) -> None:
        self.graph = graph
        n = len(graph.variables)
        self.n = n
        # a node's own labels as strings ("\0" joins a role to its value,
        # "\1" the labels): one string per node sorts and compares fast
        # (most nodes have one label: only those with more get a list)
        labels = [""] * n
        labelled = [False] * n
        several: dict[int, list[str]] = {}
        for node, concept in graph.instances:
            _add_label(labels, labelled, several, node, concept)
        for node, role, value in graph.attributes:
            _add_label(labels, labelled, several, node, f"{role}\0{value}")
        for node, own in several.items():
            labels[node] = "\1".join(sorted(own))
        self.labels = labels
        self._edges: list[list[tuple[str, int, int]]] | None = None

    @property
    def edges(self) -> list[list[tuple[str, int, int]]]:
        """Per node: (role, direction, neighbour) of its relations; built
        only when the nodes' own labels leave some of them tied."""
        if self._edges is None:
            self._edges = [[] for _ in range(self.n)]
            for source, role, target in self.graph.relations:
                self._edges[source].append((role, 0, target))
                self._edges[target].append((role, 1, source))
        return self._edges

    def order(self) -> list[int]:
        if self.n < 2:
            return list(range(self.n))
        labels = self.labels
        by_label = sorted(range(self.n), key=labels.__getitem__)
        start, classes = _sorted_ranks(labels, by_label)
        if classes == self.n:
            # own labels tell every node apart (most AMR graphs): the order
            # refinement would reach, without refining
            return by_label
        leaves = islice(self._leaves(self._refine(start, classes)), MAX_LEAVES)
        first = next(leaves)
        best: tuple[Form, list[int]] | None = None
        for other in leaves:  # more than one numbering: the least form wins
            if best is None:
                best = (_form(self.graph, _rank(first)), first)
            form = _form(self.graph, _rank(other))
            if form < best[0]:
                best = (form, other)
        return first if best is None else best[1]

    def _refine(self, colours: list[int], classes: int) -> list[int]:
        """Refine ``colours`` (ranks, 0 .. ``classes`` - 1) until the
        partition is stable."""
        while classes < self.n:
            edges = self.edges
            # a list holds the cells
            cells: list[list[int]] = [[] for _ in range(classes)]
            for v, colour in enumerate(colours):
                cells[colour].append(v)
            # each node's rank of (colour, sorted labelled neighbours) among
            # all nodes': the colours before its own, then its signature's
            # rank in its cell; a node alone in its cell needs no signature
            refined = [0] * self.n
            count = 0
            for cell in cells:
                if len(cell) == 1:
                    refined[cell[0]] = count
                    count += 1
                    continue
                signatures = [
                    tuple(sorted((r, d, colours[u]) for r, d, u in edges[v]))
                    for v in cell
                ]
                # (by position: a compiled zip or max is a call by name)
                split, distinct = _ranks(signatures)
                for i, v in enumerate(cell):
                    refined[v] = count + split[i]
                count += distinct
            if count == classes:
                break
            colours, classes = refined, count
        return colours

    def _leaves(self, colours: list[int]) -> Iterator[list[int]]:
        """The numberings (position -> node) reached from stable ``colours``."""
        # colours are ranks, 0 .. classes - 1: a list counts them
        counts = [0] * self.n
        for colour in colours:
            counts[colour] += 1
        tied = -1
        for colour, count in enumerate(counts):
            if count > 1:
                tied = colour
                break
        if tied < 0:
            yield sorted(range(self.n), key=colours.__getitem__)
            return
        cell = [v for v, c in enumerate(colours) if c == tied]
        for node in self._untwinned(cell):
            # single ``node`` out: it sorts before the rest of its cell
            split = [2 * c + (0 if v == node else 1) for v, c in enumerate(colours)]
            ranks, classes = _ranks(split)
            yield from self._leaves(self._refine(ranks, classes))

    def _untwinned(self, cell: list[int]) -> list[int]:
        """``cell`` without the nodes that are twins of one kept before.

        Two nodes of a cell are twins when swapping them maps the graph
        onto itself: they see the same labelled neighbours, each other
        aside. Singling out either then gives the same numbering.
        """
        kept: list[int] = []
        for node in cell:
            if not any(self._view(node, k) == self._view(k, node) for k in kept):
                kept.append(node)
        return kept

    def _view(self, node: int, other: int) -> list[tuple[str, int, int]]:
        # -1: the node itself (a loop), -2: the other node
        return sorted(
            (r, d, -1 if u == node else -2 if u == other else u)
            for r, d, u in self.edges[node]
        )


def _add_label(
    labels: list[str],
    labelled: list[bool],
    several: dict[int, list[str]],
    node: int,
    label: str,
) -> None:
    """Give ``node`` ``label``: its first one in ``labels``, all of them
    (joined sorted, "\1" between them, at the end) in ``several``."""
    if not labelled[node]:
        labelled[node] = True
        labels[node] = label
        return
    own = several.get(node)
    if own is None:
        several[node] = [labels[node], label]
    else:
        own.append(label)


def _ranks(signatures: Sequence[object]) -> tuple[list[int], int]:
    """Each signature's rank among the distinct signatures, sorted, and how
    many distinct signatures there are."""
    by_signature = sorted(
        range(len(signatures)),
        key=signatures.__getitem__,  # type: ignore[arg-type]
    )
    return _sorted_ranks(signatures, by_signature)


def _sorted_ranks(
    signatures: Sequence[object], by_signature: list[int]
) -> tuple[list[int], int]:
    """:func:`_ranks` of ``signatures`` given their positions in sorted
    order: one walk comparing neighbours (no set, no table: tuples would
    be hashed twice)."""
    ranks = [0] * len(signatures)
    rank = 0
    previous = signatures[by_signature[0]]
    for position in by_signature:
        signature = signatures[position]
        if signature != previous:
            rank += 1
            previous = signature
        ranks[position] = rank
    return ranks, rank + 1
