"""What a drawing of one graph shows: nodes and edges as written, with their places.

Layer: render, on top of the graph layer. A :class:`Scene` is the graph
*as the annotator wrote it* — every role as in the text (``:ARG0-of``
stays an edge from the node it is written under, labelled ``:ARG0-of``),
one node per variable (a re-entrancy is a second edge into the same
node), one node per constant occurrence, the root marked — with the
source span of each element, so that any front end can jump from a drawn
node to its text. Layout is not done here (:mod:`amrcheck.render.layout`
asks Graphviz); neither is colouring (:mod:`amrcheck.render.compare`).

Element keys are stable and readable: ``v:<variable>`` for a variable's
node, ``c:<triple index>`` for a constant, ``e:<triple index>`` for an
edge (the written triple it draws).

Example:
    >>> from amrcheck.reading.corpus import decode
    >>> scene = graph_scene(decode('(w / want-01 :ARG0 (b / boy) :ARG1-of b)'))
    >>> [(n.key, n.label, n.root) for n in scene.nodes]
    [('v:w', 'want-01', True), ('v:b', 'boy', False)]
    >>> [(e.source, e.role, e.target) for e in scene.edges]
    [('v:w', ':ARG0', 'v:b'), ('v:w', ':ARG1-of', 'v:b')]
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from ..graph import Graph, TripleKind
from ..span import Span

NodeKind = Literal["concept", "constant"]


@dataclass(frozen=True, slots=True)
class SceneNode:
    """A variable's node (its concept) or one constant."""

    key: str
    kind: NodeKind
    #: the concept, or the constant as written (quotes kept)
    label: str
    #: the variable (None for a constant)
    variable: str | None
    #: the written triple that makes the node: the variable's first
    #: instance triple, or the attribute triple that holds the constant
    triple: int
    #: where the node is written: the variable's definition, or the constant
    span: Span
    root: bool = False


@dataclass(frozen=True, slots=True)
class SceneEdge:
    """A relation or attribute, from the node it is written under."""

    key: str
    source: str
    target: str
    #: the role as written, colon and ``-of`` included
    role: str
    triple: int
    #: the role token
    span: Span
    #: a second edge into a variable's node (the node is written elsewhere)
    reentrant: bool = False


@dataclass(slots=True)
class Scene:
    """One graph's nodes and edges, in text order."""

    graph: Graph
    nodes: list[SceneNode] = field(default_factory=list)
    edges: list[SceneEdge] = field(default_factory=list)

    def node_key(self, triple: int) -> str | None:
        """The node a written triple makes (instance: its variable's; attribute:
        its constant's), or None for a relation or the TOP triple (-1)."""
        if triple < 0:
            return None
        kind = self.graph.kinds[triple]
        if kind is TripleKind.INSTANCE:
            return variable_key(self.graph.triples[triple][0])
        if kind is TripleKind.ATTRIBUTE:
            return f"c:{triple}"
        return None

    def edge_key(self, triple: int) -> str | None:
        """The edge that draws a written relation or attribute triple."""
        if triple < 0 or self.graph.kinds[triple] is TripleKind.INSTANCE:
            return None
        return f"e:{triple}"


def variable_key(variable: str) -> str:
    return f"v:{variable}"


def graph_scene(graph: Graph) -> Scene:
    """The nodes and edges of ``graph`` as written (module docstring)."""
    scene = Scene(graph)
    seen: set[str] = set()
    triples, kinds = graph.triples, graph.kinds
    for index, ((variable, _, concept), kind) in enumerate(
        zip(triples, kinds, strict=True)
    ):
        if kind is TripleKind.INSTANCE and variable not in seen:
            seen.add(variable)
            scene.nodes.append(
                SceneNode(
                    variable_key(variable),
                    "concept",
                    concept,
                    variable,
                    index,
                    graph.role_span(index),
                    root=variable == graph.top,
                )
            )
    for index, ((source, role, target), kind) in enumerate(
        zip(triples, kinds, strict=True)
    ):
        if kind is TripleKind.INSTANCE:
            continue
        if kind is TripleKind.ATTRIBUTE:
            constant = f"c:{index}"
            scene.nodes.append(
                SceneNode(
                    constant, "constant", target, None, index,
                    graph.target_span(index),
                )
            )
            target_key = constant
        else:
            target_key = variable_key(target)
        scene.edges.append(
            SceneEdge(
                f"e:{index}", variable_key(source), target_key, role, index,
                graph.role_span(index),
                reentrant=kind is TripleKind.RELATION
                and not graph.defines_target(index),
            )
        )
    return scene
