"""``amrcheck score REF CAND``: output, options, per-pair TSV, exit codes."""

from __future__ import annotations

import csv
import json
import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

import amrcheck.cli.score  # noqa: F401  (registers the command on `app`)
from amrcheck.cli import app
from tests.conftest import shared_path

from ..bamboo import subtask

runner = CliRunner()
SICK = "bamboo/sick/role_confusion"
REF, CAND = shared_path(f"{SICK}/src.dev.amr"), shared_path(f"{SICK}/tgt.dev.amr")


def run(*args: str | Path):
    return runner.invoke(app, ["score", *map(str, args)])


def test_prints_micro_macro_and_settings() -> None:
    result = run(REF, CAND)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].startswith(
        "metric:    smatch (root=variable, compat=None, restarts=4, seed=0"
    )
    assert lines[1] == "pairs:     50"
    assert lines[2].startswith("micro:     P 0.")
    assert lines[3].startswith("macro:     P 0.")
    assert "pairs proven optimal" in lines[4]


def test_json_report_matches_the_engine() -> None:
    result = run(REF, CAND, "--json", "--root", "concept", "--seed", "5")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["settings"]["root"] == "concept" and report["settings"]["seed"] == 5
    assert report["pairs"] == 50
    micro = report["micro"]
    assert (
        micro["f1"]
        == 2
        * micro["counts"]["matched"]
        / (micro["counts"]["candidate"] + micro["counts"]["reference"])
        or abs(
            micro["f1"]
            - 2
            * micro["precision"]
            * micro["recall"]
            / (micro["precision"] + micro["recall"])
        )
        < 1e-12
    )
    assert 0 < report["macro"]["f1"] < 1


def test_compat_exact_per_pair_tsv_equals_the_reference_optimum(tmp_path: Path) -> None:
    out = tmp_path / "pairs.tsv"
    result = run(
        REF, CAND, "--compat", "smatch-1.0.4", "--exact", "--per-pair", out, "--quiet"
    )
    assert result.exit_code == 0, result.output
    assert result.stdout.strip().startswith("0.")
    with out.open() as handle:
        rows = list(csv.DictReader(handle, delimiter="\t"))
    assert list(rows[0])[:4] == ["id", "precision", "recall", "f1"]
    _, _, reference = subtask("sick.role_confusion")
    assert [r["id"] for r in rows] == [r["pair"] for r in reference]
    for row, ref in zip(rows, reference, strict=True):
        assert abs(float(row["f1"]) - float(ref["smatch104_ilp_f1"])) < 1e-9
        assert row["optimal"] == "1"


def test_generic_options_and_jobs() -> None:
    one = run(REF, CAND, "--json", "-o", "restarts=2", "--option", "compat=raw")
    two = run(REF, CAND, "--json", "--restarts", "2", "--compat", "raw", "--jobs", "2")
    assert one.exit_code == two.exit_code == 0, one.output + two.output
    assert json.loads(one.stdout) == json.loads(two.stdout)
    assert json.loads(one.stdout)["settings"]["compat"] == "raw"


def test_aspects_table() -> None:
    result = run(REF, CAND, "--aspects", "--json")
    assert result.exit_code == 0, result.output
    aspects = json.loads(result.stdout)["aspects"]
    assert list(aspects)[:3] == ["smatch", "unlabeled", "no_wsd"]
    assert aspects["smatch"]["f1"] == json.loads(result.stdout)["micro"]["f1"]


def test_different_lengths_are_an_error_with_a_place(tmp_path: Path) -> None:
    short = tmp_path / "short.amr"
    short.write_text("(a / b)\n\n(c / d)\n")
    result = run(REF, short)
    assert result.exit_code == 2
    assert "has 50 graphs but" in result.stderr
    assert f"{REF}:" in result.stderr and "graph 3 has no counterpart" in result.stderr
    assert "Traceback" not in result.output


def test_syntax_errors_are_listed_with_line_and_column(tmp_path: Path) -> None:
    ref = tmp_path / "ref.amr"
    cand = tmp_path / "cand.amr"
    ref.write_text("(a / b)\n\n(c / d)\n")
    cand.write_text("(a / b)\n\n(c / d :ARG0 (e / f)\n")
    result = run(ref, cand)
    assert result.exit_code == 2
    assert f"{cand}:3:1: E001" in result.stderr


def test_bad_metric_option_and_missing_file_exit_2(tmp_path: Path) -> None:
    for args in (
        (REF, CAND, "-o", "nonsense=1"),
        (REF, CAND, "-o", "restarts=many"),
        (REF, CAND, "-o", "novalue"),
        (REF, tmp_path / "missing.amr"),
        (REF, CAND, "--metric", "nosuchmetric"),
    ):
        result = run(*args)
        assert result.exit_code == 2, args
        assert "Traceback" not in result.output


def test_console_script_runs() -> None:
    result = subprocess.run(
        [
            sys.executable,
            "-c",
            "from amrcheck.cli import main; main()",
            "score",
            REF,
            CAND,
            "-q",
        ],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr
    assert 0 < float(result.stdout) < 1
