"""Parity with the published implementations on all 8,347 BAMBOO dev pairs.

Columns: ../shared/data/reference_scores/bamboo_dev/SUMMARY.md. BAMBOO
order: candidate = tgt, reference = src. Exact mode over every pair takes
about a minute per column on one core, so all pairs run in the normal
suite (no sample).
"""

from __future__ import annotations

import pytest

from amrcheck.metrics.smatch import Smatch

from ..bamboo import all_pairs
from ..reference import SUBTASK_IDS


def _differences(
    metric: Smatch, column: str, tolerance: float
) -> list[tuple[str, int, float, float]]:
    wrong = []
    for subtask, i, tgt, src, row in all_pairs():
        f1 = metric.score(tgt[i].graph, src[i].graph).f1
        if abs(f1 - float(row[column])) > tolerance:
            wrong.append((subtask, i, f1, float(row[column])))
    return wrong


def test_all_twelve_subtasks_in_bamboo_order() -> None:
    assert [s for s, *_ in all_pairs()][::1000][:3] == ["sts.main"] * 2 + ["sts.reify"]
    assert len({s for s, *_ in all_pairs()}) == len(SUBTASK_IDS) == 12
    assert len(all_pairs()) == 8347


@pytest.mark.slow
def test_compat_exact_equals_smatch_104_optimum_on_every_pair() -> None:
    metric = Smatch(compat="smatch-1.0.4", exact=True)
    assert _differences(metric, "smatch104_ilp_f1", 1e-9) == []


@pytest.mark.slow
def test_root_concept_raw_exact_equals_smatchpp_rootconcept_on_every_pair() -> None:
    metric = Smatch(compat="raw", root="concept", exact=True)
    assert _differences(metric, "smatchpp_ilp_rootconcept_f1", 1e-6) == []


@pytest.mark.parametrize("subtask_id", ["sick.main", "para.role_confusion"])
@pytest.mark.slow
def test_root_variable_raw_exact_equals_smatchpp_do_nothing(subtask_id: str) -> None:
    metric = Smatch(compat="raw", exact=True)
    wrong = []
    for subtask, i, tgt, src, row in all_pairs():
        if subtask == subtask_id:
            f1 = metric.score(tgt[i].graph, src[i].graph).f1
            if abs(f1 - float(row["smatchpp_ilp_f1"])) > 1e-6:
                wrong.append((subtask, i, f1, float(row["smatchpp_ilp_f1"])))
    assert wrong == []


def test_compat_default_search_reaches_the_optimum_and_beats_smatch_104_r4() -> None:
    metric = Smatch(compat="smatch-1.0.4")
    optimum = at_least_r4 = proven = total = 0
    ours = theirs = 0.0
    for _, i, tgt, src, row in all_pairs():
        score = metric.score(tgt[i].graph, src[i].graph)
        total += 1
        ours += score.f1
        theirs += float(row["smatch104_r4_f1"])
        optimum += abs(score.f1 - float(row["smatch104_ilp_f1"])) <= 1e-9
        at_least_r4 += score.f1 >= float(row["smatch104_r4_f1"]) - 1e-9
        proven += score.info["optimal"]
        assert score.counts["matched"] <= int(row["smatch104_ilp_match"])
    assert optimum / total >= 0.98
    # pair by pair against one random run of smatch 1.0.4: our own seeds
    # 0, 1 and 2 give 99.48 %, 99.32 % and 99.56 % (canonical node order)
    assert at_least_r4 / total >= 0.993
    assert ours > theirs  # and higher on average
    assert proven / total > 0.45
