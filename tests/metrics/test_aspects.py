"""Fine-grained smatch scores (Damonte et al. 2017)."""

from __future__ import annotations

from amrcheck.metrics.aspects import ASPECTS, aggregate_aspects, aspect_scores
from amrcheck.metrics.smatch import Smatch
from amrcheck.reading.corpus import decode

from ..bamboo import subtask

GOLD = """(w / want-01 :polarity -
   :ARG0 (p / person :wiki "Q1" :name (n / name :op1 "Ann"))
   :ARG1 (g / go-02 :ARG0 p))"""
SYSTEM = """(w / want-02
   :ARG0 (p / person :wiki "Q2" :name (n / name :op1 "Ann"))
   :ARG1 (g / go-01 :ARG1 p))"""


def _f1s(candidate: str, reference: str) -> dict[str, float]:
    scores = aspect_scores(Smatch(), decode(candidate), decode(reference))
    assert list(scores) == list(ASPECTS)
    return {name: round(score.f1, 4) for name, score in scores.items()}


def test_identical_graphs_score_one_on_every_aspect() -> None:
    assert set(_f1s(GOLD, GOLD).values()) == {1.0}


def test_each_aspect_sees_its_own_part() -> None:
    f1 = _f1s(SYSTEM, GOLD)
    assert f1["concepts"] == 0.5  # person and name of four concepts
    assert f1["frames"] == 0.0  # want-02 / go-01 vs want-01 / go-02
    assert f1["no_wsd"] > f1["smatch"]
    assert f1["named_entities"] == 1.0  # person in both
    assert f1["negation"] == 0.0  # only the gold negates
    assert f1["wikification"] == 0.0  # Q2 vs Q1
    assert f1["srl"] == 0.6667  # both ARGs of want match; go's ARG0 is an ARG1
    assert f1["reentrancies"] == 0.5  # p: want's ARG0 matches, go's does not
    assert f1["unlabeled"] > f1["smatch"]


def test_both_empty_aspects_score_one() -> None:
    f1 = _f1s("(a / b)", "(a / c)")
    assert f1["negation"] == f1["wikification"] == f1["reentrancies"] == 1.0
    assert f1["concepts"] == 0.0


def test_reentrancies_and_srl_use_the_smatch_alignment() -> None:
    graph = "(g / go-02 :ARG0 (b / boy) :ARG1-of (w / want-01 :ARG0 b))"
    scores = aspect_scores(
        Smatch(),
        decode(graph),
        decode(graph.replace("b /", "x /").replace(" b)", " x)")),
    )
    assert scores["reentrancies"].counts == {
        "matched": 2,
        "candidate": 2,
        "reference": 2,
    }
    assert scores["srl"].counts["matched"] == 3


def test_corpus_aspects_are_micro_sums() -> None:
    tgt, src, _ = subtask("sick.role_confusion")
    metric = Smatch()
    per_pair = [
        aspect_scores(metric, t.graph, s.graph)  # type: ignore[arg-type]
        for t, s in zip(tgt, src, strict=True)
    ]
    totals = aggregate_aspects(per_pair)
    for name in ASPECTS:
        matched = sum(p[name].counts["matched"] for p in per_pair)
        assert totals[name].counts["matched"] == matched
        assert 0.0 <= totals[name].f1 <= 1.0
    assert totals["smatch"].f1 == metric.aggregate([p["smatch"] for p in per_pair]).f1
