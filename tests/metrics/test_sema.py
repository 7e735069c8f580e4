"""SEMA: dependent-triple matching, the precision cap, explanations."""

from __future__ import annotations

import pytest

from amrcheck.errors import MetricError
from amrcheck.metrics import get_metric
from amrcheck.metrics._smatch_reader import read_smatch104
from amrcheck.reading.corpus import decode

WANT = "(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-02 :ARG0 b :polarity -))"


def test_identical_graph_scores_one() -> None:
    g = decode(WANT)
    score = get_metric("sema").score(g, g)
    assert (score.precision, score.recall, score.f1) == (1.0, 1.0, 1.0)
    # 3 nodes + 3 relations + 1 attribute
    assert score.counts == {"matched": 7.0, "candidate": 7.0, "reference": 7.0}


def test_relation_needs_both_concepts_and_role() -> None:
    cand = decode("(w / want-01 :ARG0 (b / boy))")
    ref = decode("(w / want-01 :ARG0 (g / girl))")
    score = get_metric("sema").score(cand, ref)
    assert score.counts["matched"] == 1.0  # the root concept only
    assert score.f1 == pytest.approx(1 / 3)


def test_asymmetric_precision_and_recall() -> None:
    small = decode("(w / want-01 :ARG0 (b / boy))")
    large = decode(WANT)
    forward = get_metric("sema").score(small, large)
    backward = get_metric("sema").score(large, small)
    assert forward.precision == backward.recall
    assert forward.recall == backward.precision


def test_second_edge_between_the_same_nodes_is_credited_by_default() -> None:
    """Why the reference's SEMA misses principle II: its visited
    bookkeeping; the default counts without it."""
    g = decode("(w / want-01 :ARG0 (b / boy) :ARG1 b)")
    assert get_metric("sema", compat="reference").score(g, g).f1 < 1.0
    assert get_metric("sema").score(g, g).f1 == 1.0


def test_uncapped_is_the_references_count() -> None:
    with pytest.raises(MetricError, match="compat='reference'"):
        get_metric("sema", uncapped=True)


def test_reader_is_smatch_104s() -> None:
    view = read_smatch104(
        decode('(c / cat :mod (b / big) :ARG0-of (e / eat-01) :wiki "X Y")')
    )
    # node by node: big's :domain, then eat-01's :ARG0 (both filed under
    # their target); the quoted value keeps its first word
    assert view.relations == [("domain", 1, 0, 1), ("ARG0", 2, 0, 3)]
    assert view.attributes == [("wiki", 0, "X", 5)]
    assert view.concepts == ["cat", "big", "eat-01"]


def test_explanation_splits_relations_and_attributes() -> None:
    cand = decode("(w / want-01 :ARG0 (b / boy) :polarity -)")
    ref = decode(WANT)
    explanation = get_metric("sema").score(cand, ref, explain=True).explanation
    assert explanation is not None
    assert [(str(a), str(b)) for a, b in explanation.matched] == [
        ("(w :ARG0 b)", "(w :ARG0 b)")
    ]
    assert {str(r) for r in explanation.missing} == {
        "(w :ARG1 g)",
        "(g :ARG0 b)",
        "(g :polarity -)",
    }
    assert [str(r) for r in explanation.extra] == ["(w :polarity -)"]
    assert explanation.missing[0].span.text.startswith(":ARG1")
