"""From a standard graph to the token graph AMRSim's encoder reads (no torch).

Layer: engine, above :mod:`amrcheck.canonical`. Following AMRSim (Shou & Lin
2023, §3.2.2):

* **units**: every variable's concept, every constant and every relation
  is a unit. A labelled edge (u, r, v) becomes the unit ``r`` and two
  unlabelled edges (u, r), (r, v); attributes likewise, the constant being
  a unit of its own (each occurrence its own unit). The TOP triple is not a
  unit: the root is marked by the positions.
* **linearisation**: depth first from the root, over the canonical node
  order of :func:`amrcheck.canonical.canonicalize`, a node's edges sorted by
  (outgoing first, role, target); every unit appears once (a re-entrant
  node is not repeated; its other edges point at it). Nodes reached only
  against an edge's direction are visited through it too, so the order
  does not depend on how ``:X-of`` was written.
* **tokens**: a relation is one added token (``:arg0``), never split;
  concepts and constants are split into the encoder's subwords, and each
  subword is joined to the unit's edges. A role outside the added
  vocabulary is read as words (so two different roles never read alike).
* **positions**: ``1 +`` the unit's shortest-path distance to the root in
  the unlabelled, undirected unit graph (``[CLS]`` has 0): they come from
  the graph, not from the token order, so every writing of a graph gets
  the same positions. A unit the root cannot reach (only possible in
  disconnected input) counts from the first unit of its own part.
* **windows**: the transformer reads at most ``max_length`` tokens at
  once (``[CLS]`` and ``[SEP]`` included). A longer graph is cut, at unit
  boundaries, into the fewest windows of near-equal size along the
  depth-first order (subtrees stay together); each window is read on its
  own, while the GNN adapter and the pooling see the whole graph.

Everything is a function of the canonical graph alone, so two writings of
one graph give identical token graphs, element for element.

Example:
    >>> from amrcheck.reading.corpus import decode
    >>> from amrcheck.canonical import canonicalize
    >>> from amrcheck.standardize import standardize
    >>> g = decode("(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-02 :ARG0 b))")
    >>> units = linearize(canonicalize(standardize(g)))
    >>> [u.text for u in units.units]
    ['want-01', 'arg0', 'boy', 'arg1', 'go-02', 'arg0']
    >>> units.distances
    [0, 1, 2, 1, 2, 3]
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import IntEnum
from typing import Protocol

from ..standardize import TOP_ROLE, StandardGraph


class UnitKind(IntEnum):
    CONCEPT = 0  # the concept of a variable
    CONSTANT = 1  # the value of an attribute
    RELATION = 2  # the role of a relation or attribute


@dataclass(frozen=True, slots=True)
class Unit:
    """One unit of the linearised graph.

    ``origin`` is the index of the written triple it stands for (a
    variable's instance triple, the attribute of a constant, the relation
    or attribute of a role), so explanations can point at the source;
    ``node`` is the standard node of a concept, else -1.
    """

    kind: UnitKind
    text: str
    origin: int
    node: int = -1


@dataclass(slots=True)
class UnitGraph:
    """The units of a graph in depth-first order, their edges and distances.

    ``edges`` are (from unit, to unit), two per relation unit: its source
    to it, and it to its target.
    """

    units: list[Unit]
    edges: list[tuple[int, int]]
    distances: list[int]


class Vocabulary(Protocol):
    """Token ids of the encoder: subwords of text, and the added relation tokens."""

    def words(self, text: str) -> tuple[int, ...]:
        """Subword ids of ``text`` (at least one)."""
        ...

    def relation(self, role: str) -> int | None:
        """The added token of ``role``, or None if it has none."""
        ...


@dataclass(slots=True)
class TokenGraph:
    """What the encoder reads for one graph.

    Token arrays are parallel: ``ids`` (the encoder's ids), ``positions``
    (1 + unit distance), ``types`` (the encoder's token type: 1 for the
    subwords of a constant, 0 otherwise, so a constant never reads like a
    concept of the same spelling) and ``units`` (the unit each token
    belongs to).
    ``edges`` are (from token, to token). ``windows`` are [start, end)
    ranges of tokens read by the transformer together; each window is
    framed by ``[CLS]`` (position 0) and ``[SEP]`` (position
    ``sep_position``) when read.
    """

    unit_graph: UnitGraph
    ids: list[int]
    positions: list[int]
    types: list[int]
    units: list[int]
    edges: list[tuple[int, int]]
    windows: list[tuple[int, int]]
    sep_position: int
    #: the relation roles read as words (outside the added vocabulary)
    unknown_roles: list[str] = field(default_factory=list)

    @property
    def size(self) -> int:
        return len(self.ids)


def linearize(graph: StandardGraph) -> UnitGraph:
    """The units of ``graph`` in depth-first order.

    ``graph`` must be canonical (:func:`amrcheck.canonical.canonicalize`):
    the walk follows its node numbers and triple order.
    """
    return _Linearizer(graph).run()


def tokenize(
    units: UnitGraph, vocabulary: Vocabulary, max_length: int = 128
) -> TokenGraph:
    """The token graph of ``units``: ids, positions, token edges and windows.

    Raises:
        ValueError: ``max_length`` below 3 (no room for a token).
    """
    if max_length < 3:
        raise ValueError("max_length must leave room for [CLS], a token and [SEP]")
    ids: list[int] = []
    positions: list[int] = []
    types: list[int] = []
    owner: list[int] = []
    unknown: list[str] = []
    spans: list[range] = []
    for index, unit in enumerate(units.units):
        if unit.kind is UnitKind.RELATION:
            added = vocabulary.relation(unit.text)
            if added is None:
                unknown.append(unit.text)
            pieces = (added,) if added is not None else vocabulary.words(unit.text)
        else:
            pieces = vocabulary.words(unit.text)
        start = len(ids)
        ids.extend(pieces)
        spans.append(range(start, len(ids)))
        positions.extend([1 + units.distances[index]] * len(pieces))
        types.extend([int(unit.kind is UnitKind.CONSTANT)] * len(pieces))
        owner.extend([index] * len(pieces))
    edges = [(a, b) for u, v in units.edges for a in spans[u] for b in spans[v]]
    return TokenGraph(
        unit_graph=units,
        ids=ids,
        positions=positions,
        types=types,
        units=owner,
        edges=edges,
        windows=_windows([len(s) for s in spans], max_length - 2),
        sep_position=2 + max(units.distances, default=0),
        unknown_roles=unknown,
    )


def _windows(sizes: Sequence[int], room: int) -> list[tuple[int, int]]:
    """Token ranges of at most ``room`` tokens, cut between units.

    About the fewest windows the sizes allow, of near-equal size: a window
    closes once it holds its equal share, or before a unit that would
    overflow it. (A unit longer than ``room`` is cut inside, which only a
    pathological label can cause.)
    """
    total = sum(sizes)
    if total <= room:
        return [(0, total)]
    share = -(-total // -(-total // room))
    windows: list[tuple[int, int]] = []
    start = end = 0
    for size in sizes:
        if end > start and end + size - start > room:
            windows.append((start, end))
            start = end
        end += size
        while end - start > room:
            windows.append((start, start + room))
            start += room
        if end - start >= share:
            windows.append((start, end))
            start = end
    if end > start:
        windows.append((start, end))
    return windows


class _Linearizer:
    """Depth-first walk over a canonicalised standard graph."""

    def __init__(self, graph: StandardGraph) -> None:
        self.graph = graph
        n = len(graph.variables)
        self.concepts: list[list[tuple[str, int]]] = [[] for _ in range(n)]
        for (node, concept), origin in zip(
            graph.instances, graph.instance_origin, strict=True
        ):
            self.concepts[node].append((concept, origin))
        self.root = 0
        # per node, sorted: outgoing (role, constant, target, triple number)
        # and incoming (role, source, relation number)
        self.outgoing: list[list[tuple[str, bool, int | str, int]]] = [
            [] for _ in range(n)
        ]
        self.incoming: list[list[tuple[str, int, int]]] = [[] for _ in range(n)]
        for number, (node, role, value) in enumerate(graph.attributes):
            if role == TOP_ROLE:
                self.root = node
            else:
                self.outgoing[node].append((role, True, value, number))
        for number, (source, role, target) in enumerate(graph.relations):
            self.outgoing[source].append((role, False, target, number))
            self.incoming[target].append((role, source, number))
        for edges in self.outgoing:
            edges.sort(key=_outgoing_key)
        for into in self.incoming:
            into.sort()
        self.units: list[Unit] = []
        self.unit_edges: list[tuple[int, int]] = []
        self.node_unit: dict[int, int] = {}
        self.done: set[int] = set()  # relation numbers with a unit
        #: (unit, incoming edge) of the nodes walked, not yet followed
        self.pending: deque[tuple[int, tuple[str, int, int]]] = deque()

    def run(self) -> UnitGraph:
        for start in [self.root, *range(len(self.graph.variables))]:
            if start not in self.node_unit:
                self._walk(start)
            # nodes reached only against an edge's direction: from the
            # edges into the nodes walked so far, in the order met
            while self.pending:
                here, (role, source, number) = self.pending.popleft()
                if number in self.done:
                    continue
                relation = self._relation(role, number)
                other = self.node_unit.get(source)
                if other is None:
                    other = self._walk(source)
                self.unit_edges += [(other, relation), (relation, here)]
        return UnitGraph(self.units, self.unit_edges, self._distances())

    def _add(self, unit: Unit) -> int:
        self.units.append(unit)
        return len(self.units) - 1

    def _relation(self, role: str, number: int) -> int:
        self.done.add(number)
        origin = self.graph.relation_origin[number]
        return self._add(Unit(UnitKind.RELATION, role, origin))

    def _concept(self, node: int) -> int:
        found = sorted(self.concepts[node])
        text = " ".join(concept for concept, _ in found)
        origin = found[0][1] if found else -1
        unit = self.node_unit[node] = self._add(
            Unit(UnitKind.CONCEPT, text, origin, node)
        )
        self.pending.extend((unit, edge) for edge in self.incoming[node])
        return unit

    def _walk(self, node: int) -> int:
        """Units for ``node`` and, depth first, all it reaches along
        outgoing edges; returns the node's unit."""
        first = self._concept(node)
        stack = [(first, iter(self.outgoing[node]))]
        while stack:
            here, edges = stack[-1]
            step = next(edges, None)
            if step is None:
                stack.pop()
                continue
            role, constant, target, number = step
            if constant:
                origin = self.graph.attribute_origin[number]
                relation = self._add(Unit(UnitKind.RELATION, role, origin))
                value = self._add(Unit(UnitKind.CONSTANT, str(target), origin))
                self.unit_edges += [(here, relation), (relation, value)]
                continue
            if number in self.done:
                continue
            relation = self._relation(role, number)
            assert isinstance(target, int)
            other = self.node_unit.get(target)
            if other is None:
                other = self._concept(target)
                stack.append((other, iter(self.outgoing[target])))
            self.unit_edges += [(here, relation), (relation, other)]
        return first

    def _distances(self) -> list[int]:
        count = len(self.units)
        neighbours: list[list[int]] = [[] for _ in range(count)]
        for a, b in self.unit_edges:
            neighbours[a].append(b)
            neighbours[b].append(a)
        distance = [-1] * count
        for start in range(count):  # unit 0 is the root's concept
            if distance[start] >= 0:
                continue
            distance[start] = 0
            queue = deque([start])
            while queue:
                unit = queue.popleft()
                for other in neighbours[unit]:
                    if distance[other] < 0:
                        distance[other] = distance[unit] + 1
                        queue.append(other)
        return distance


def _outgoing_key(edge: tuple[str, bool, int | str, int]) -> tuple[str, bool, int, str]:
    role, constant, target, _ = edge
    if isinstance(target, int):
        return (role, constant, target, "")
    return (role, constant, -1, target)
