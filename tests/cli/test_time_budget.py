"""``--time-budget`` on the commands that score, and how reports count cut pairs."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

import amrcheck.cli.diff  # noqa: F401 (the commands register on import)
import amrcheck.cli.iaa  # noqa: F401
import amrcheck.cli.score  # noqa: F401
from amrcheck.cli import app

runner = CliRunner()
LARGE = Path(__file__).resolve().parents[1] / "data" / "large"
REF = LARGE / "little_prince_40_joined.ref.amr"
CAND = LARGE / "little_prince_40_joined.cand.amr"
#: far below what the joined document needs, so its search is always cut
SPENT = "0.000001"


def test_score_reports_a_cut_pair_in_every_format(tmp_path: Path) -> None:
    per_pair = tmp_path / "pairs.tsv"
    result = runner.invoke(
        app,
        [
            "score",
            str(REF),
            str(CAND),
            "--time-budget",
            SPENT,
            "--per-pair",
            str(per_pair),
        ],
    )
    assert result.exit_code == 0, result.output
    assert "0/1 pairs proven optimal, 1 cut by the time budget" in result.output
    (row,) = csv.DictReader(per_pair.open(encoding="utf-8"), delimiter="\t")
    assert row["cut"] == "1" and row["optimal"] == "0"
    assert int(row["matched"]) <= int(row["upper_bound"])

    as_json = runner.invoke(
        app, ["score", str(REF), str(CAND), "--time-budget", SPENT, "--json"]
    )
    micro = json.loads(as_json.stdout)["results"][0]["micro"]
    assert micro["counts"]["cut"] == 1 and micro["counts"]["optimal"] == 0
    assert micro["f1_upper_bound"] >= micro["f1"]


def test_without_a_budget_nothing_is_cut() -> None:
    result = runner.invoke(
        app, ["score", str(REF), str(CAND), "--time-budget", "0", "--json"]
    )
    assert result.exit_code == 0, result.output
    micro = json.loads(result.stdout)["results"][0]["micro"]
    assert micro["counts"]["cut"] == 0


def test_a_budget_needs_a_metric_that_searches() -> None:
    result = runner.invoke(
        app, ["score", str(REF), str(CAND), "-m", "sembleu", "--time-budget", "1"]
    )
    assert result.exit_code == 2
    assert "time_budget" in result.output


@pytest.mark.slow
def test_diff_summary_counts_cut_pairs() -> None:
    result = runner.invoke(
        app, ["diff", str(REF), str(CAND), "--stat", "--time-budget", SPENT]
    )
    assert result.exit_code == 1, result.output  # the graphs differ
    assert "1 cut by the time budget (not proven optimal)" in result.output


@pytest.mark.slow
def test_iaa_counts_cut_pairs_in_text_and_json() -> None:
    args = ["iaa", str(REF), str(CAND), "--time-budget", SPENT, "--resamples", "20"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert (
        "smatch search over the sentence pairs: 0/1 pairs proven optimal, "
        "1 cut by the time budget (best alignment found kept)"
    ) in result.stdout

    as_json = runner.invoke(app, [*args, "--json"])
    assert as_json.exit_code == 0, as_json.output
    report = json.loads(as_json.stdout)
    assert report["search"] == {"pairs": 1, "optimal": 0, "cut": 1}
    assert report["pairs"][0]["search"] == {"pairs": 1, "optimal": 0, "cut": 1}

