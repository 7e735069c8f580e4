"""The canonical node order: every writing of a graph gives the same standard graph."""

from __future__ import annotations

import random

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from amrcheck.canonical import canonical_key, canonical_order, canonicalize
from amrcheck.reading.corpus import decode, read_corpus
from amrcheck.standardize import SMATCH_104, StandardGraph, standardize
from tests.conftest import shared_path
from tests.rewrite import REWRITES, rewrite


def _lists(graph: StandardGraph) -> tuple[list, list, list]:
    return graph.instances, graph.attributes, graph.relations


@pytest.mark.parametrize(
    "name",
    ["little_prince/amr-bank-struct-v3.0.txt", "bio_amr/amr-release-dev-bio.txt"],
)
def test_rewritten_corpus_graphs_canonicalize_identically(name: str) -> None:
    rng = random.Random(24)
    corpus = read_corpus(shared_path(name))
    checked = 0
    for entry in corpus:
        assert entry.graph is not None
        original = canonicalize(standardize(entry.graph))
        for how in REWRITES:
            text = rewrite(entry.graph.text, how, rng)
            copy = canonicalize(standardize(decode(text)))
            assert _lists(copy) == _lists(original), (entry.id, how)
            checked += 1
    assert checked == 3 * len(corpus)


def test_variables_and_origins_travel_with_their_nodes() -> None:
    graph = standardize(decode("(w / want :ARG1 (g / go :ARG0 b) :ARG0 (b / boy))"))
    canon = canonicalize(graph)
    written = graph.graph.triples
    instances = zip(canon.instances, canon.instance_origin, strict=True)
    for (node, concept), origin in instances:
        assert written[origin] == (canon.variables[node], ":instance", concept)
    relations = zip(canon.relations, canon.relation_origin, strict=True)
    for (source, _, target), origin in relations:
        assert written[origin][0] == canon.variables[source]
        assert written[origin][2] == canon.variables[target]


def test_symmetric_graphs_need_individualisation() -> None:
    # every node looks alike to colour refinement; only singling one out
    # tells the 4-cycle from two 2-cycles
    cycle = standardize(decode("(a / x :r (b / x :r (c / x :r (d / x :r a))))"))
    turned = standardize(decode("(c / x :r (d / x :r (a / x :r (b / x :r c))))"))
    two = standardize(decode("(a / x :r (b / x :r a) :s (c / x :r (d / x :r c)))"))
    assert canonical_key(cycle) == canonical_key(turned)
    assert canonical_key(cycle) != canonical_key(two)


def test_multiset_graphs_keep_their_duplicates() -> None:
    graph = standardize(decode("(a / b :x 1 :x 1 :y (c / d) :y (e / d))"), SMATCH_104)
    canon = canonicalize(graph)
    assert sorted(canon.attributes) == canon.attributes
    assert len(canon.attributes) == len(graph.attributes)


def test_order_is_a_permutation() -> None:
    graph = standardize(decode("(a / b :r (c / d :r (e / b)) :r e)"))
    assert sorted(canonical_order(graph)) == [0, 1, 2]


# --- random graphs against an independent isomorphism test (networkx) ------

_ROLES = ["r", "s"]


@st.composite
def _graphs(draw: st.DrawFn) -> tuple[list[str], list[tuple[int, str, int]]]:
    n = draw(st.integers(1, 7))
    concepts = [draw(st.sampled_from(["a", "b"])) for _ in range(n)]
    edges = {(draw(st.integers(0, i - 1)), draw(st.sampled_from(_ROLES)), i)
             for i in range(1, n)}
    for _ in range(draw(st.integers(0, 4))):
        edges.add(
            (draw(st.integers(0, n - 1)), draw(st.sampled_from(_ROLES)),
             draw(st.integers(0, n - 1)))
        )
    return concepts, sorted(edges)


def _standard(concepts: list[str], edges: list[tuple[int, str, int]],
              names: list[int]) -> StandardGraph:
    text = penman_text(concepts, edges, names)
    return standardize(decode(text))


def penman_text(concepts: list[str], edges: list[tuple[int, str, int]],
                names: list[int]) -> str:
    import penman

    triples = [(f"v{names[i]}", ":instance", c) for i, c in enumerate(concepts)]
    triples += [(f"v{names[s]}", f":{r}", f"v{names[t]}") for s, r, t in edges]
    return penman.encode(penman.Graph(triples, top=f"v{names[0]}"))


def _networkx(graph: StandardGraph) -> nx.MultiDiGraph:
    g = nx.MultiDiGraph()
    for node in range(len(graph.variables)):
        own = [c for n, c in graph.instances if n == node]
        own += [f"{r}={v}" for n, r, v in graph.attributes if n == node]
        g.add_node(node, label=tuple(sorted(own)))
    for source, role, target in graph.relations:
        g.add_edge(source, target, role=role)
    return g


def _isomorphic(a: StandardGraph, b: StandardGraph) -> bool:
    return nx.is_isomorphic(
        _networkx(a), _networkx(b),
        node_match=lambda x, y: x["label"] == y["label"],
        edge_match=lambda x, y: sorted(e["role"] for e in x.values())
        == sorted(e["role"] for e in y.values()),
    )


@settings(max_examples=300, deadline=None)
@given(_graphs(), st.randoms(use_true_random=False))
def test_renumbered_random_graph_has_the_same_key(graph, rng) -> None:
    concepts, edges = graph
    names = list(range(len(concepts)))
    rng.shuffle(names)
    original = _standard(concepts, edges, list(range(len(concepts))))
    renamed = _standard(concepts, edges, names)
    assert _lists(canonicalize(renamed)) == _lists(canonicalize(original))


@settings(max_examples=300, deadline=None)
@given(_graphs(), _graphs())
def test_keys_agree_exactly_when_graphs_are_isomorphic(one, two) -> None:
    a = _standard(*one, list(range(len(one[0]))))
    b = _standard(*two, list(range(len(two[0]))))
    assert (canonical_key(a) == canonical_key(b)) == _isomorphic(a, b)
