"""``amrcheck score REF CAND...``: tables, metrics, statistics, per-pair, errors."""

from __future__ import annotations

import csv
import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

import amrcheck.cli.score as score_command
import amrcheck.pairing.parts
from amrcheck.cli import app
from tests.broken import (
    BROKEN,
    CANDIDATE,
    METRICS,
    REFERENCE,
    WORST,
    break_graph,
    option_args,
)
from tests.cli.peak_memory import peak_rss_mib
from tests.cli.terminal import Terminal
from tests.conftest import shared_path

from ..bamboo import subtask

runner = CliRunner()
SICK = "bamboo/sick/role_confusion"
REF, CAND = shared_path(f"{SICK}/src.dev.amr"), shared_path(f"{SICK}/tgt.dev.amr")
TOY = "multi_annotator_toy"


def run(*args: str | Path):
    return runner.invoke(app, ["score", *map(str, args)])


def test_prints_a_plain_table_with_settings() -> None:
    result = run(REF, CAND)
    assert result.exit_code == 0, result.output
    lines = [line.rstrip() for line in result.stdout.splitlines()]
    assert lines[0] == f"reference: {REF}"
    assert lines[1].split() == ["metric", "pairs", "P", "R", "F1", "macro", "F1"]
    assert lines[2].split()[:2] == ["smatch", "50"]
    assert lines[3].startswith("smatch: root=variable, compat=None, restarts=4, seed=0")
    assert lines[4].startswith("smatch: ") and "pairs proven optimal" in lines[4]
    assert "\x1b[" not in result.stdout


def test_json_report_matches_the_engine() -> None:
    result = run(REF, CAND, "--json", "--root", "concept", "--seed", "5")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["version"] == 1 and report["reference"] == str(REF)
    assert report["candidates"] == [str(CAND)] and report["paired_by"] == "id"
    (entry,) = report["results"]
    assert entry["settings"]["root"] == "concept" and entry["settings"]["seed"] == 5
    assert entry["pairs"] == 50 and entry["candidate"] == str(CAND)
    micro = entry["micro"]
    counts = micro["counts"]
    assert micro["f1"] == pytest.approx(
        2 * counts["matched"] / (counts["candidate"] + counts["reference"])
    )
    assert 0 < entry["macro"]["f1"] < 1
    assert report["comparisons"] == [] and report["skipped"] == {}


def test_compat_exact_per_pair_tsv_equals_the_reference_optimum(tmp_path: Path) -> None:
    out = tmp_path / "pairs.tsv"
    result = run(
        REF, CAND, "--compat", "smatch-1.0.4", "--exact", "--per-pair", out, "--quiet"
    )
    assert result.exit_code == 0, result.output
    assert result.stdout.strip().startswith("0.")
    with out.open() as handle:
        rows = list(csv.DictReader(handle, delimiter="\t"))
    assert list(rows[0])[:6] == ["file", "metric", "id", "precision", "recall", "f1"]
    _, _, reference = subtask("sick.role_confusion")
    assert [r["id"] for r in rows] == [r["pair"] for r in reference]
    for row, ref in zip(rows, reference, strict=True):
        assert abs(float(row["f1"]) - float(ref["smatch104_ilp_f1"])) < 1e-9
        assert row["optimal"] == "1"


def test_several_metrics_jsonl_and_options_per_metric(tmp_path: Path) -> None:
    out = tmp_path / "pairs.jsonl"
    result = run(
        REF, CAND, "-m", "smatch,rematch", "-m", "sembleu", "-o", "sembleu.ngram=2",
        "--per-pair", out, "--json",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert [r["metric"] for r in report["results"]] == ["smatch", "rematch", "sembleu"]
    assert report["results"][2]["settings"]["ngram"] == 2
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(rows) == 150
    assert {r["metric"] for r in rows} == {"smatch", "rematch", "sembleu"}
    rematch = [r["f1"] for r in rows if r["metric"] == "rematch"]
    _, _, reference = subtask("sick.role_confusion")
    assert rematch == [float(r["rematch"]) for r in reference]


def test_ci_and_compare_two_candidates() -> None:
    result = run(REF, CAND, REF, "--ci", "--compare", "--resamples", "200", "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    first, second = report["results"]
    assert first["ci"]["low"] <= first["micro"]["f1"] <= first["ci"]["high"]
    assert first["ci"]["resamples"] == 200 and first["ci"]["confidence"] == 0.95
    assert second["micro"]["f1"] == 1.0
    (comparison,) = report["comparisons"]
    assert comparison["a"] == str(CAND) and comparison["b"] == str(REF)
    assert comparison["delta"] == pytest.approx(first["micro"]["f1"] - 1.0)
    assert comparison["high"] < 0 and comparison["p_value"] < 0.01
    text = run(REF, CAND, REF, "--ci", "--compare", "--resamples", "200")
    assert "(paired bootstrap, approximate randomisation)" in text.stdout
    assert "95% CI" in text.stdout


def test_compare_needs_two_candidates() -> None:
    result = run(REF, CAND, "--compare")
    assert result.exit_code == 2
    assert "--compare needs two candidate files, not 1" in result.stderr


def test_aspects_table() -> None:
    result = run(REF, CAND, "--aspects", "--json")
    assert result.exit_code == 0, result.output
    entry = json.loads(result.stdout)["results"][0]
    aspects = entry["aspects"]
    assert list(aspects)[:3] == ["smatch", "unlabeled", "no_wsd"]
    assert aspects["smatch"]["f1"] == entry["micro"]["f1"]
    assert run(REF, CAND, "--aspects", "-m", "rematch").exit_code == 2


def test_pairs_by_id_across_orders_and_files(tmp_path: Path) -> None:
    gold = shared_path(f"{TOY}/comptest_gold.txt")
    system = shared_path(f"{TOY}/comptest_sys.txt")
    shuffled = tmp_path / "shuffled.txt"
    blocks = system.read_text().strip().split("\n\n")
    shuffled.write_text("\n\n".join(reversed(blocks)) + "\n")
    one, two = run(gold, system, "-q"), run(gold, shuffled, "-q")
    assert one.exit_code == two.exit_code == 0
    assert one.stdout == two.stdout


def test_mismatched_ids_are_listed_never_truncated() -> None:
    gold = shared_path(f"{TOY}/comptest_gold.txt")
    annot2 = shared_path(f"{TOY}/comptest_annot2.txt")
    annot1 = shared_path(f"{TOY}/comptest_annot1.txt")
    result = run(gold, annot2)
    assert result.exit_code == 2
    assert f"{annot2}:51:1: ::id 'sentence 6' is not in {gold}" in result.stderr
    # a gold graph the candidate lacks counts as an empty graph (issue 21)
    result = run(gold, annot1)
    assert result.exit_code == 1
    assert (
        f"  {gold}:39:1: graph sentence 5: ::id 'sentence 5' is not in {annot1}"
        in result.stdout
    )
    strict = run(gold, annot1, "--strict")
    assert strict.exit_code == 2
    assert f"{gold}:39:1: ::id 'sentence 5' is not in {annot1}" in strict.stderr


def test_different_lengths_are_an_error_with_a_place(tmp_path: Path) -> None:
    short = tmp_path / "short.amr"
    short.write_text("(a / b)\n\n(c / d)\n")
    result = run(REF, short)
    assert result.exit_code == 2
    assert "has 50 graphs but" in result.stderr
    assert f"{REF}:" in result.stderr and "graph 3 has no counterpart" in result.stderr
    assert "Traceback" not in result.output


def write_pair(folder: Path, broken: int | None = BROKEN) -> tuple[Path, Path]:
    """The little reference and candidate of tests.broken; one graph broken."""
    ref, cand = folder / "ref.amr", folder / "cand.amr"
    ref.write_text(REFERENCE)
    cand.write_text(CANDIDATE if broken is None else break_graph(CANDIDATE, broken))
    return ref, cand


def test_an_unreadable_candidate_counts_as_an_empty_graph_issue_21(
    tmp_path: Path,
) -> None:
    ref, cand = write_pair(tmp_path)
    out = tmp_path / "pairs.tsv"
    result = run(ref, cand, "--json", "--per-pair", out)
    assert result.exit_code == 1
    assert f"{cand}:2:47: E001" in result.stderr
    assert "1 graph counted as empty, 0 pairs left out" in result.stderr
    report = json.loads(result.stdout)
    (entry,) = report["results"]
    assert entry["pairs"] == 4 and entry["counted_empty"] == 1
    assert entry["left_out"] == 0 and report["skip_unreadable"] is False
    assert report["counted_empty"] == {
        str(cand): [
            {
                "id": "g0",
                "where": f"{cand}:2:47",
                "why": "E001 unbalanced parentheses: 1 '(' not closed",
                "side": "candidate",
                "counted": "empty graph",
            }
        ]
    }
    assert report["skipped"] == {} and report["left_out"] == {}
    with out.open() as handle:
        rows = list(csv.DictReader(handle, delimiter="\t"))
    assert [(r["id"], r["graph"]) for r in rows] == [
        ("g0", "unreadable"), ("g1", "read"), ("g2", "read"), ("g3", "read")
    ]
    assert float(rows[0]["f1"]) == 0.0 and rows[0]["matched"] == "0"
    assert rows[0]["reference"] == "6" and rows[0]["candidate"] == "0"
    text = run(ref, cand)
    assert text.exit_code == 1
    assert text.stdout.splitlines()[-2:] == [
        f"{cand}: 1 candidate graph unreadable or missing, counted as an empty "
        "graph (F1 0):",
        f"  {cand}:2:47: graph g0: E001 unbalanced parentheses: 1 '(' not closed",
    ]
    strict = run(ref, cand, "--strict")
    assert strict.exit_code == 2 and f"{cand}:2:47: E001" in strict.stderr


@pytest.mark.parametrize("name", METRICS)
def test_a_broken_graph_lowers_every_metric_issue_21(
    name: str, tmp_path: Path
) -> None:
    ref, cand = write_pair(tmp_path)
    whole = tmp_path / "whole.amr"
    whole.write_text(CANDIDATE)
    out = tmp_path / "pairs.jsonl"
    options = option_args(name, tmp_path)
    result = run(ref, whole, cand, "-m", name, *options, "--json", "--per-pair", out)
    assert result.exit_code == 1, result.output
    unbroken, broken = json.loads(result.stdout)["results"]
    assert broken["micro"]["f1"] < unbroken["micro"]["f1"]
    assert broken["pairs"] == unbroken["pairs"] == 4
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    (row,) = [r for r in rows if r["file"] == str(cand) and r["id"] == "g0"]
    assert row["f1"] == 0.0 and row["graph"] == "unreadable"


def test_skip_unreadable_leaves_the_pair_out_and_says_so_issue_21(
    tmp_path: Path,
) -> None:
    ref, cand = write_pair(tmp_path, WORST)
    whole = tmp_path / "whole.amr"
    whole.write_text(CANDIDATE)
    counted = json.loads(run(ref, cand, "--json").stdout)["results"][0]
    written = json.loads(run(ref, whole, "--json").stdout)["results"][0]
    result = run(ref, cand, "--json", "--skip-unreadable")
    assert result.exit_code == 1
    report = json.loads(result.stdout)
    skipped = report["results"][0]
    assert report["skip_unreadable"] is True and skipped["pairs"] == 3
    assert report["skipped"] == {str(cand): ["g1"]}
    assert [g["id"] for g in report["left_out"][str(cand)]] == ["g1"]
    assert report["counted_empty"] == {}
    # leaving the worst graph out is the leak: it beats the graph as written
    f1 = [r["micro"]["f1"] for r in (counted, written, skipped)]
    assert f1[0] < f1[1] < f1[2]
    text = run(ref, cand, "--skip-unreadable")
    assert text.exit_code == 1
    assert (
        f"{cand}: 1 candidate graph unreadable or missing, left out of the scores "
        "(--skip-unreadable):" in text.stdout
    )
    both = run(ref, cand, "--skip-unreadable", "--strict")
    assert both.exit_code == 2 and "exclude each other" in both.stderr


def test_an_unreadable_reference_leaves_its_pair_out_issue_21(tmp_path: Path) -> None:
    ref, cand = write_pair(tmp_path, None)
    ref.write_text(break_graph(REFERENCE, 2))
    result = run(ref, cand, "--json")
    assert result.exit_code == 1
    report = json.loads(result.stdout)
    assert report["results"][0]["pairs"] == 3
    assert report["skipped"] == {str(cand): ["g2"]}
    assert report["left_out"][str(cand)][0]["where"] == f"{ref}:8:46"
    assert report["left_out"][str(cand)][0]["side"] == "reference"
    text = run(ref, cand, "-q")
    assert text.exit_code == 1
    assert (
        f"{cand}: 1 pair left out of the scores: the reference graph is unreadable:"
        in text.stderr
    )


def test_nothing_to_score_exits_2_issue_21(tmp_path: Path) -> None:
    ref, cand = write_pair(tmp_path, None)
    ref.write_text(REFERENCE.replace(")\n", "\n"))  # no reference graph can be read
    result = run(ref, cand)
    assert result.exit_code == 2
    assert f"nothing could be scored in {cand}" in result.stderr
    ref.write_text(REFERENCE)
    cand.write_text(CANDIDATE.replace(")\n", "\n"))
    assert run(ref, cand).exit_code == 1  # every graph counted as empty: F1 0
    assert run(ref, cand, "--skip-unreadable").exit_code == 2


def test_compare_and_ci_count_the_broken_graph_issue_21(tmp_path: Path) -> None:
    ref, cand = write_pair(tmp_path)
    whole = tmp_path / "whole.amr"
    whole.write_text(CANDIDATE)
    result = run(ref, whole, cand, "--ci", "--compare", "--resamples", "200", "--json")
    assert result.exit_code == 1
    report = json.loads(result.stdout)
    (comparison,) = report["comparisons"]
    assert comparison["pairs"] == 4  # the broken graph is one of the pairs
    assert comparison["delta"] > 0
    unbroken, broken = report["results"]
    assert broken["ci"]["low"] < unbroken["ci"]["low"]
    skipped = json.loads(
        run(ref, whole, cand, "--compare", "--skip-unreadable", "--json").stdout
    )
    assert skipped["comparisons"][0]["pairs"] == 3  # pairs both candidates have


def test_jobs_read_in_parts_count_the_broken_graph_alike_issue_21(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(amrcheck.pairing.parts, "MIN_GRAPHS_PER_PART", 1)
    ref, cand = tmp_path / "ref.amr", tmp_path / "cand.amr"
    ref.write_text(REFERENCE * 3)  # ids repeat: parts, then the whole files
    cand.write_text(break_graph(CANDIDATE, BROKEN) * 3)
    for files in ((ref, cand), (tmp_path / "r.amr", tmp_path / "c.amr")):
        if not files[0].exists():  # distinct ids: the parts pair alone
            files[0].write_text(REFERENCE + REFERENCE.replace("::id g", "::id h"))
            files[1].write_text(
                break_graph(CANDIDATE, BROKEN)
                + break_graph(CANDIDATE, 3).replace("::id g", "::id h")
            )
        one = run(*files, "--json", "-m", "smatch,rematch", "--aspects")
        two = run(*files, "--json", "-m", "smatch,rematch", "--aspects", "--jobs", "2")
        assert one.exit_code == two.exit_code == 1
        assert json.loads(one.stdout) == json.loads(two.stdout)


def test_bad_metric_option_and_missing_file_exit_2(tmp_path: Path) -> None:
    for args, message in (
        ((REF, CAND, "-o", "nonsense=1"), "belongs to none of the chosen metrics"),
        ((REF, CAND, "-o", "restarts=many"), "restarts='many'"),
        ((REF, CAND, "-o", "novalue"), "expects key=value"),
        ((REF, CAND, "-o", "wlk.k=1"), "'wlk' is not a chosen metric"),
        ((REF, tmp_path / "missing.amr"), "missing.amr"),
        ((REF, CAND, "--metric", "nosuchmetric"), "choose one of: amrsim, rematch"),
        ((REF, CAND, "-m", "rematch", "--exact"), "'exact' belongs to none"),
    ):
        result = run(*args)
        assert result.exit_code == 2, args
        assert message in result.stderr, (args, result.stderr)
        assert "Traceback" not in result.output


def test_generic_options_and_jobs() -> None:
    one = run(REF, CAND, "--json", "-o", "restarts=2", "--option", "compat=raw")
    two = run(REF, CAND, "--json", "--restarts", "2", "--compat", "raw", "--jobs", "2")
    assert one.exit_code == two.exit_code == 0, one.output + two.output
    assert json.loads(one.stdout) == json.loads(two.stdout)
    assert json.loads(one.stdout)["results"][0]["settings"]["compat"] == "raw"


def test_ctrl_c_exits_130(monkeypatch: pytest.MonkeyPatch) -> None:
    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(score_command, "evaluate", interrupted)
    result = run(REF, CAND)
    assert result.exit_code == 130 and "Traceback" not in result.output


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


@pytest.mark.slow
def test_memory_is_flat_in_the_number_of_pairs_issue_6(tmp_path: Path) -> None:
    peaks = []
    for times in (40, 160):  # 2,000 and 8,000 pairs
        ref, cand = tmp_path / f"ref{times}.amr", tmp_path / f"cand{times}.amr"
        for source, target in ((REF, ref), (CAND, cand)):
            text = source.read_text(encoding="utf-8")
            target.write_text(
                "".join(text.replace("# ::id ", f"# ::id {n}.") for n in range(times)),
                encoding="utf-8",
            )
        peaks.append(peak_rss_mib("score", ref, cand, "-m", "rematch", "-q"))
    # holding every graph grew by ~48 MiB here; the per-pair scores and the
    # ledger of ids and places grow by ~7 MiB
    assert peaks[1] - peaks[0] < 20, peaks


@pytest.mark.slow
def test_ctrl_c_while_workers_score_a_stream_exits_130(tmp_path: Path) -> None:
    ref, cand = tmp_path / "ref.amr", tmp_path / "cand.amr"
    for source, target in ((REF, ref), (CAND, cand)):
        text = source.read_text(encoding="utf-8")
        target.write_text(
            "".join(text.replace("# ::id ", f"# ::id {n}.") for n in range(400)),
            encoding="utf-8",
        )
    terminal = Terminal(
        [sys.executable, "-c", "from amrcheck.cli import main; main()", "score"]
        + [str(ref), str(cand), "--jobs", "2", "--exact"]
    )
    try:
        terminal.wait_for_progress()  # the workers are scoring
        pid = terminal.process.pid
        workers = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
        terminal.ctrl_c()
        status, out = terminal.wait()
    finally:
        terminal.close()
    assert status == 130, terminal.stderr
    assert terminal.text_lines() == ["amrcheck score: interrupted"], terminal.stderr
    assert out == ""
    assert len(workers) == 2
    assert not any(Path(f"/proc/{w}").exists() for w in workers)
