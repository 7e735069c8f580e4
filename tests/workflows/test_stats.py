"""Bootstrap intervals and the paired test (amrcheck.workflows.stats)."""

from __future__ import annotations

import pytest

from amrcheck.metrics import Score
from amrcheck.metrics.smatch import Smatch
from amrcheck.pairing.graphs import pair_corpora, score_corpus
from amrcheck.workflows.stats import bootstrap_ci, paired_test

from ..bamboo import subtask


def _pairs(matched: list[int], size: int = 10) -> list[Score]:
    return [
        Score(f1=m / size, counts={"matched": m, "candidate": size, "reference": size})
        for m in matched
    ]


@pytest.fixture(scope="module")
def sick_scores() -> tuple[list[Score], list[Score]]:
    tgt, src, _ = subtask("sick.main")
    pairs = pair_corpora(src, tgt)
    metric = Smatch()
    good = score_corpus(metric, pairs).pairs
    # a weaker "system": the same graphs scored under the stricter root policy
    weaker = score_corpus(Smatch(root="concept"), pairs).pairs
    return good, weaker


def test_interval_contains_the_corpus_f1_and_is_seeded(sick_scores) -> None:
    good, _ = sick_scores
    first = bootstrap_ci(good, seed=3)
    assert first == bootstrap_ci(good, seed=3)
    assert first != bootstrap_ci(good, seed=4)
    assert first.low < first.estimate < first.high
    assert first.estimate == pytest.approx(Smatch().aggregate(good).f1)
    assert first.high - first.low < 0.1


def test_generic_aggregate_gives_the_same_interval(sick_scores) -> None:
    good, _ = sick_scores
    fast = bootstrap_ci(good, resamples=200, seed=1)
    generic = bootstrap_ci(good, aggregate=Smatch().aggregate, resamples=200, seed=1)
    assert generic.low == pytest.approx(fast.low)
    assert generic.high == pytest.approx(fast.high)


def test_paired_test_detects_a_real_difference(sick_scores) -> None:
    good, weaker = sick_scores
    result = paired_test(good, weaker, seed=0)
    assert result.delta == pytest.approx(result.f1_a - result.f1_b)
    assert result.delta > 0 and result.low > 0
    assert result.p_value < 0.01


def test_paired_test_finds_nothing_between_equal_systems() -> None:
    a = _pairs([5, 6, 7, 8] * 20)
    result = paired_test(a, list(a), resamples=500)
    assert result.delta == 0.0
    assert result.low <= 0.0 <= result.high
    assert result.p_value == 1.0


def test_bad_input_is_refused() -> None:
    with pytest.raises(ValueError):
        bootstrap_ci([])
    with pytest.raises(ValueError):
        paired_test(_pairs([1, 2]), _pairs([1]))
