"""WLK: graph preparation, WL features, options, explanations."""

from __future__ import annotations

import pytest

from amrcheck.metrics import get_metric
from amrcheck.metrics.wlk import WLK, wl_graph
from amrcheck.reading.corpus import decode

A = decode("(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-02 :ARG0 b))")
B = decode("(w / want-01 :ARG0 (g / girl) :ARG1 (d / go-02 :ARG0 g))")


def test_constants_become_nodes_and_inverse_edges_are_reversed() -> None:
    g = wl_graph(decode('(m / man :ARG0-of (w / walk-01) :name (n / name :op1 "Ed"))'))
    assert g.labels == ["man", "walk-01", "name", "ed"]
    assert sorted(g.edges) == [(0, ":name", 2), (1, ":arg0", 0), (2, ":op1", 3)]
    assert g.origin == [0, 2, 4, 5]


def test_duplicate_triples_count_once() -> None:
    once = decode("(w / want-01 :ARG0 (b / boy))")
    twice = decode("(w / want-01 :ARG0 (b / boy) :ARG0 b)")
    assert wl_graph(twice).edges == wl_graph(once).edges
    assert get_metric("wlk").score(once, twice).f1 == 1.0


def test_edge_to_node() -> None:
    g = wl_graph(decode("(w / want-01 :ARG0 (b / boy))"), edge_to_node=True)
    assert g.labels == ["want-01", "boy", ":arg0"]
    assert g.edges == [(0, ":edge", 2), (2, ":edge", 1)]


def test_score_is_a_cosine_of_weighted_features() -> None:
    score = get_metric("wlk", iterations=0).score(A, B)
    # iteration 0 only: labels {want-01, boy, go-02} vs {want-01, girl, go-02}
    # and label triples 3 vs 3 with one shared (want-01_:arg1_go-02)
    assert score.f1 == pytest.approx((2 + 1) / 6)
    assert get_metric("wlk").score(A, A).f1 == 1.0
    assert get_metric("wlk").score(A, B).f1 == get_metric("wlk").score(B, A).f1


@pytest.mark.parametrize(
    "direction", ["undirected", "top-down", "bottom-up", "two-way"]
)
def test_directions(direction: str) -> None:
    metric = get_metric("wlk", direction=direction)
    assert metric.score(A, A).f1 == pytest.approx(1.0, abs=1e-15)
    assert 0.0 < metric.score(A, B).f1 < 1.0


def test_directions_differ() -> None:
    x = decode("(a / alpha :ARG0 (b / beta))")
    y = decode("(b / beta :ARG0 (a / alpha))")
    undirected = get_metric("wlk", direction="undirected").score(x, y).f1
    two_way = get_metric("wlk", direction="two-way").score(x, y).f1
    assert two_way < undirected


def test_collapse_same_label_is_the_reference_quirk() -> None:
    # two "person" nodes with different neighbourhoods
    g = decode(
        "(a / and :op1 (p / person :ARG0-of (r / run-01))"
        " :op2 (q / person :ARG0-of (s / swim-01)))"
    )
    h = decode(
        "(a / and :op1 (p / person :ARG0-of (r / run-01))"
        " :op2 (q / person :ARG0-of (s / sing-01)))"
    )
    proper = WLK(collapse_same_label=False).score(g, h).f1
    collapsed = WLK(collapse_same_label=True).score(g, h).f1
    assert proper != collapsed


def test_bad_options() -> None:
    with pytest.raises(ValueError):
        WLK(direction="sideways")
    with pytest.raises(ValueError):
        WLK(iterations=-1)


def test_explanation_maps_features_to_nodes() -> None:
    explanation = get_metric("wlk").score(A, B, explain=True).explanation
    assert explanation is not None
    matched = {
        str(a): [r.span.text for r in a.nodes] for a, _ in explanation.units["matched"]
    }
    assert matched["[0] want-01"] == ["w / want-01"]
    missing = {str(f) for f in explanation.units["missing"]}
    assert "[0] girl" in missing
    assert "[1] girl {:arg0 go-02, :arg0 want-01}" in missing
    assert "want-01_:arg1_go-02" in explanation.details["shared_label_triples"]
