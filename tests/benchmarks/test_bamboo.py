"""BAMBOO evaluation engine: reproduces the reference dev table."""

from __future__ import annotations

import csv
from functools import lru_cache
from pathlib import Path

import pytest

from amrcheck.benchmarks import evaluate_bamboo, load_bamboo, score_bamboo
from amrcheck.benchmarks.bamboo import SUBTASK_IDS, BambooSubtask, run_bamboo
from amrcheck.errors import InputError
from amrcheck.metrics import get_metric

from ..broken import (
    BROKEN,
    CANDIDATE,
    METRICS,
    REFERENCE,
    break_graph,
    little_bamboo,
    metric_options,
)
from ..conftest import SHARED_DATA
from ..reference import reference_rows

TABLE = SHARED_DATA / "reference_scores" / "bamboo_dev" / "bamboo_dev_table.tsv"


@lru_cache(maxsize=1)
def subtasks() -> tuple[BambooSubtask, ...]:
    return tuple(load_bamboo(SHARED_DATA / "bamboo"))


def table() -> dict[str, dict[str, str]]:
    with TABLE.open(newline="") as handle:
        return {row["metric"]: row for row in csv.DictReader(handle, delimiter="\t")}


def reference_predictions(column: str) -> dict[str, list[float]]:
    return {t.id: [float(r[column]) for r in reference_rows(t.id)] for t in subtasks()}


def test_layout_and_dummies() -> None:
    tasks = {t.id: t for t in subtasks()}
    assert list(tasks) == list(SUBTASK_IDS)
    assert tasks["sts.main"].scored == range(0, 1500)
    assert tasks["sick.reify"].scored == range(1, 501)
    assert tasks["para.syno"].scored == range(1, 501)
    assert len(tasks["sts.main"].human) == 1500
    # the human column of the reference rows is dev.y at the scored pairs
    rows = reference_rows("sick.main")
    assert tasks["sick.main"].human == [float(rows[i]["human"]) for i in range(1, 501)]
    assert rows[0]["dummy"] == rows[501]["dummy"] == "1"


@pytest.mark.parametrize(
    "column",
    [
        "rematch",
        "wlk_k2",
        "smatch104_f1",
        "sema_f1",
        "sembleu_k1",
        "smatchpp_ilp_amr_f1",
    ],
)
def test_reference_columns_reproduce_the_table(column: str) -> None:
    result = evaluate_bamboo(subtasks(), reference_predictions(column))
    expected = table()[column]
    for subtask_id, value in result.values.items():
        assert value == pytest.approx(float(expected[subtask_id]), abs=1e-9)
    assert result.amean == pytest.approx(float(expected["AMEAN"]), abs=1e-9)
    assert result.row()[-1] == result.amean


def test_role_confusion_ties_are_errors() -> None:
    task = next(t for t in subtasks() if t.id == "sick.role_confusion")
    assert task.measure([0.5, 0.5, 0.2, 0.7]) == 50.0
    assert task.measure([0.1, 0.9, 0.2, 0.7]) == 100.0


@pytest.mark.slow
def test_our_metrics_on_bamboo_dev() -> None:
    rows = table()
    rematch = get_metric("rematch", compat="reference")
    result = evaluate_bamboo(
        subtasks(), score_bamboo(subtasks(), lambda a, b: rematch.score(a, b).f1)
    )
    assert result.amean == pytest.approx(float(rows["rematch"]["AMEAN"]), abs=1e-9)
    wlk = get_metric("wlk", compat="reference")
    result = evaluate_bamboo(
        subtasks(), score_bamboo(subtasks(), lambda a, b: wlk.score(a, b).f1)
    )
    assert result.amean == pytest.approx(float(rows["wlk_k2"]["AMEAN"]), abs=0.1)


def test_missing_folder_is_an_input_error(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="BAMBOO file not found"):
        load_bamboo(tmp_path)


@pytest.mark.parametrize("name", METRICS)
def test_a_broken_tgt_graph_predicts_0_and_a_broken_src_graph_is_left_out_issue_21(
    name: str, tmp_path: Path
) -> None:
    metric = get_metric(name, **metric_options(name, tmp_path))
    whole = load_bamboo(little_bamboo(tmp_path / "whole"))
    broken = load_bamboo(
        little_bamboo(
            tmp_path / "broken",
            tgt=break_graph(CANDIDATE, BROKEN),
            src=break_graph(REFERENCE, 2),
        )
    )
    written, _ = run_bamboo(whole, metric)
    found, result = run_bamboo(broken, metric)
    for task in SUBTASK_IDS:
        expected = list(written[task])
        expected[BROKEN], expected[2] = 0.0, None
        assert found[task] == expected, task
        assert [(g.position, g.side) for g in result.gaps[task]] == [
            (BROKEN, "candidate"),
            (2, "reference"),
        ]
    # the pair that cannot be judged is left out of Pearson, with its human score
    sts = next(t for t in broken if t.id == "sts.main")
    kept = [i for i in sts.scored if i != 2]
    from scipy.stats import pearsonr

    predicted = [found["sts.main"][i] for i in kept]
    humans = [sts.human[sts.scored.index(i)] for i in kept]
    assert result.values["sts.main"] == pytest.approx(
        float(pearsonr(predicted, humans)[0]) * 100
    )


def test_role_confusion_leaves_out_a_comparison_it_cannot_judge() -> None:
    task = next(t for t in subtasks() if t.id == "sick.role_confusion")
    assert task.measure([0.5, None, 0.2, 0.7]) == 100.0
    assert task.measure([None, 0.1, 0.9, 0.7, 0.1, 0.2]) == 50.0
