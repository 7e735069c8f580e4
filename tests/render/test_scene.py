"""A graph as drawn: nodes and edges as written, with their places."""

from __future__ import annotations

from amrcheck import Corpus
from amrcheck.render import graph_scene


def test_nodes_edges_and_root_as_written(odd: Corpus) -> None:
    graph = odd[0].graph
    assert graph is not None
    scene = graph_scene(graph)
    concepts = [(n.key, n.label) for n in scene.nodes if n.kind == "concept"]
    assert concepts[:3] == [("v:a", "and"), ("v:s", "say-01"), ("v:h", "he")]
    assert [n.key for n in scene.nodes if n.root] == ["v:a"]
    # one node per variable: the re-entrant `h` and `s` are drawn once
    assert len([n for n in scene.nodes if n.variable == "h"]) == 1
    into_h = [(e.source, e.role) for e in scene.edges if e.target == "v:h"]
    assert into_h == [("v:s", ":ARG0"), ("v:l", ":ARG0")]
    # the second edge into `h` re-enters it: it is written under `s`
    assert [e.reentrant for e in scene.edges if e.target == "v:h"] == [False, True]
    assert not any(e.reentrant for e in scene.edges if e.target.startswith("c:"))
    # the inverse role stays as written, from the node it is written under
    assert ("v:s3", ":ARG1-of", "v:c") in {
        (e.source, e.role, e.target) for e in scene.edges
    }


def test_constants_are_one_node_per_occurrence(odd: Corpus) -> None:
    graph = odd[0].graph
    assert graph is not None
    scene = graph_scene(graph)
    constants = {n.label: n for n in scene.nodes if n.kind == "constant"}
    assert set(constants) == {'"a<b & \\"c\\""', '"\\\\o/"', '"Zoë"', '"😋"'}
    emoji = constants['"😋"']
    assert emoji.variable is None and emoji.key == f"c:{emoji.triple}"
    edge = next(e for e in scene.edges if e.target == emoji.key)
    assert (edge.source, edge.role) == ("v:n", ":op2")
    assert scene.node_key(emoji.triple) == emoji.key
    assert scene.edge_key(emoji.triple) == edge.key


def test_places_point_at_the_text(odd: Corpus) -> None:
    graph = odd[0].graph
    assert graph is not None
    scene = graph_scene(graph)
    cause = next(n for n in scene.nodes if n.variable == "c")
    assert cause.span.text == "c"
    assert (cause.span.line, cause.span.column) == (11, 23)
    role = next(e for e in scene.edges if e.role == ":ARG1-of")
    assert role.span.text == ":ARG1-of"
    assert scene.node_key(-1) is None and scene.edge_key(-1) is None
