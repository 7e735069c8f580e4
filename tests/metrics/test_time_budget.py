"""The search's time budget (issue 35): a cut pair keeps its best
alignment, says it is cut and not optimal, and keeps a valid bound.

The workload is a document: the first 40 Little Prince sentences joined
under a ``multi-sentence`` root (``bench/bench_large_graphs.py`` wrote
the files), against a copy with some concepts and roles changed. The
tests set the state (a deadline already past, or none), never a clock.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from amrcheck.metrics import _search
from amrcheck.metrics._align import AlignmentProblem
from amrcheck.metrics.smatch import Smatch, alignment_problem
from amrcheck.reading.corpus import read_corpus
from tests.bamboo import subtask

LARGE = Path(__file__).resolve().parents[1] / "data" / "large"


def _joined() -> tuple[Any, Any]:
    (reference,) = read_corpus(LARGE / "little_prince_40_joined.ref.amr")
    (candidate,) = read_corpus(LARGE / "little_prince_40_joined.cand.amr")
    assert candidate.graph is not None and reference.graph is not None
    return candidate.graph, reference.graph


@pytest.fixture(scope="module")
def problem() -> tuple[AlignmentProblem, float | None]:
    metric = Smatch()
    candidate, reference = _joined()
    return alignment_problem(
        metric.standardize(candidate), metric.standardize(reference)
    )


def _arguments(problem: AlignmentProblem, plain: bool) -> list[Any]:
    arrays = (problem.unary, problem.row_start, problem.partners, problem.weights)
    return [
        problem.n1,
        problem.n2,
        *((a.tolist() for a in arrays) if plain else arrays),
    ]


def test_the_joined_document_is_a_large_problem(
    problem: tuple[AlignmentProblem, float | None],
) -> None:
    found, _ = problem
    assert found.n1 * found.n2 >= _search.LARGE_CELLS


def test_a_spent_budget_keeps_the_start_and_a_valid_bound(
    problem: tuple[AlignmentProblem, float | None],
) -> None:
    found, known = problem
    assert known is not None
    start = _search._smart_start(found.n1, found.n2, found.unary.tolist())
    start_value = found.value(list(start))
    mapping, value, bound, proven, cut = _search.search(
        *_arguments(found, plain=True), True, 4, 0, known, 0.0
    )
    assert (cut, proven) == (1, 0)
    assert value == found.value(list(mapping)) >= start_value
    assert value <= bound <= known


def test_plain_and_compiled_search_agree_on_a_large_problem(
    problem: tuple[AlignmentProblem, float | None],
) -> None:
    """Sweeps and perturbed restarts (large problems only) are the same
    code plain and compiled, so they give the same alignment."""
    found, known = problem
    assert known is not None
    plain = _search.search(*_arguments(found, plain=True), True, 4, 0, known, math.inf)
    fast = _search.compiled()["search"](
        *_arguments(found, plain=False), True, 4, 0, known, math.inf
    )
    assert list(plain[0]) == list(fast[0])
    assert plain[1:] == tuple(fast[1:])
    assert plain[4] == 0  # no deadline: never cut
    assert plain[1] <= plain[2]


def test_a_cut_pair_is_reported_not_optimal_with_its_bound() -> None:
    candidate, reference = _joined()
    unbounded = Smatch(time_budget=None).score(candidate, reference)
    cut = Smatch(time_budget=1e-9).score(candidate, reference)
    assert unbounded.counts["cut"] == 0
    assert cut.counts["cut"] == 1 and cut.counts["optimal"] == 0
    assert cut.info["optimal"] is False
    assert cut.counts["matched"] <= cut.counts["upper_bound"]
    assert cut.info["f1_upper_bound"] >= cut.f1
    # the bound holds for the better, uncut alignment too
    assert unbounded.counts["matched"] <= cut.counts["upper_bound"]
    total = Smatch(time_budget=1e-9).aggregate([cut, unbounded])
    assert total.counts["cut"] == 1


def test_the_default_budget_changes_no_sentence_score() -> None:
    """Sentences are aligned in milliseconds: the default budget never cuts
    them, so scores equal those of an unbounded search."""
    tgt, src, _ = subtask("sts.main")
    bounded, unbounded = Smatch(), Smatch(time_budget=None)
    for cand, ref in list(zip(tgt, src, strict=True))[:150]:
        assert cand.graph is not None and ref.graph is not None
        first = bounded.score(cand.graph, ref.graph)
        second = unbounded.score(cand.graph, ref.graph)
        assert first.counts == second.counts and first.counts["cut"] == 0


def test_the_budget_is_no_setting_of_the_score() -> None:
    """A resource limit, like the number of jobs: baselines recorded under
    another budget stay comparable."""
    assert "time_budget" not in Smatch(time_budget=10.0).settings()
    with pytest.raises(ValueError, match="time_budget"):
        Smatch(time_budget=0.0)


def test_an_array_deadline_check_runs_compiled() -> None:
    compiled = _search.compiled()
    cut = np.zeros(1, dtype=np.int64)
    assert compiled["_out_of_time"](0.0, cut) and cut[0] == 1
    cut[0] = 0
    assert not compiled["_out_of_time"](math.inf, cut) and cut[0] == 0
