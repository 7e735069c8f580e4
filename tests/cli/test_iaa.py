"""``amrcheck iaa A B [C ...]``: text, --json, --csv, errors."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

import amrcheck.cli.iaa  # noqa: F401  (registers the command on `app`)
from amrcheck.cli import app
from tests.broken import CANDIDATE, REFERENCE, WORST, break_graph
from tests.cli.peak_memory import peak_rss_mib, repeated
from tests.conftest import shared_path

runner = CliRunner()
FILES = [shared_path(f"multi_annotator_toy/comptest_annot{i}.txt") for i in range(1, 5)]


def run(*args: str | Path):
    return runner.invoke(app, ["iaa", *map(str, args)])


def test_text_report() -> None:
    result = run(*FILES, "--resamples", "200", "--top", "1")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert out.startswith(
        "annotators: annot1 (4 graphs), annot2 (6 graphs), annot3 (4 graphs), "
        "annot4 (4 graphs)\n"
    )
    assert "pairwise agreement (smatch F1, micro; 95% CI)" in out
    assert "mean pairwise agreement: 0.7120 (95% CI " in out
    assert "agreement per aspect" in out and "negation" in out
    queue = out[out.index("adjudication queue") :].splitlines()
    assert queue[1] == "sentence 3  mean 0.4730  please do not touch!"
    # where each annotator's graph is, and each change's file: what to open
    first, fourth = FILES[0], FILES[3]
    assert queue[2].startswith(f"  graphs: {first}:25:1 (annot1), ")
    assert queue[2].endswith(f", {fourth}:25:1 (annot4)")
    assert queue[3] == "  annot1 vs annot4  F1 0.2222  (- annot1 only, + annot4 only)"
    assert f"    - {first}:28:8  (t :polarity -)" in queue
    assert f"    ~ {first}:25:2 -> {fourth}:25:2  (y / you) -> (t / touch-01)" in queue
    assert "sentence 4" not in out  # --top 1


def test_json_schema() -> None:
    result = run(*FILES, "--json", "--resamples", "200")
    assert result.exit_code == 0
    report = json.loads(result.stdout)
    assert report["version"] == 1 and report["metric"] == "smatch"
    assert [a["name"] for a in report["annotators"]] == [
        "annot1", "annot2", "annot3", "annot4",
    ]  # fmt: skip
    assert len(report["matrix"]) == 4 and report["matrix"][0][0] == 1.0
    pair = report["pairs"][0]
    assert set(pair) == {
        "a",
        "b",
        "sentences",
        "f1",
        "precision",
        "recall",
        "ci",
        "aspects",
        "search",
    }
    # a sentence's graphs are aligned well within the default budget
    assert pair["search"]["cut"] == 0
    assert pair["search"]["optimal"] == pair["search"]["pairs"] > 0
    assert report["search"]["pairs"] >= pair["search"]["pairs"]
    assert pair["ci"]["low"] <= pair["f1"] <= pair["ci"]["high"]
    assert set(report["mean"]) == {"f1", "low", "high", "confidence", "resamples"}
    assert "named_entities" in report["aspects"]
    first = report["sentences"][0]
    assert first["id"] == "sentence 3" and first["min_f1"] < first["mean_f1"]
    assert first["pairs"][0]["changes"][0]["change"] in {"removed", "added", "relabel"}
    assert first["snt"] == "please do not touch!"
    assert first["places"][0] == {
        "annotator": "annot1", "file": str(FILES[0]), "line": 25, "column": 1,
    }  # fmt: skip
    (pair,) = [p for p in first["pairs"] if (p["a"], p["b"]) == ("annot1", "annot4")]
    assert {
        "change": "removed",
        "old": {
            "file": str(FILES[0]),
            "text": "(t :polarity -)",
            "triple": ["t", ":polarity", "-"],
            "line": 28,
            "column": 8,
        },
        "new": None,
    } in pair["changes"]
    relabel = next(c for c in pair["changes"] if c["change"] == "relabel")
    assert (relabel["old"]["file"], relabel["new"]["file"]) == tuple(
        map(str, (FILES[0], FILES[3]))
    )
    assert report["sentences"][-1]["missing"] == ["annot1", "annot3", "annot4"]


def test_a_sentence_without_snt_shows_its_tokens(tmp_path: Path) -> None:
    bio = Path(__file__).parents[1] / "data" / "bio_aligned"
    first = bio / "alignment-release-dev-bio.first100.txt"
    text = first.read_text(encoding="utf-8")
    assert "# ::snt" not in text  # ::tok only
    second = tmp_path / "second.txt"
    second.write_text(text.replace("(g / gene)", "(g / protein)", 1), encoding="utf-8")
    result = run(first, second, "--top", "1", "--resamples", "50")
    assert result.exit_code == 0, result.output
    queue = result.stdout[result.stdout.index("adjudication queue") :].splitlines()
    assert queue[1].startswith("a_pmid_2488_5690.10  mean 0.9")
    assert queue[1].endswith("in the absence of growth factors .")
    relabel = f"    ~ {first}:12:25 -> {second}:12:25  (g / gene) -> (g / protein)"
    assert relabel in queue


def test_csv_queue() -> None:
    result = run(*FILES, "--csv", "--resamples", "50")
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    assert [r["id"] for r in rows] == [f"sentence {i}" for i in (3, 4, 1, 2, 5, 6)]
    assert float(rows[0]["annot1~annot4"]) == float(rows[0]["min_f1"])
    assert rows[-1]["annot1~annot2"] == "" and rows[-1]["annotators"] == "1"


def test_csv_queue_says_where_each_annotators_graph_is() -> None:
    result = run(*FILES, "--csv", "--resamples", "50")
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    names = [key.removeprefix("place ") for key in rows[0] if key.startswith("place ")]
    assert names == ["annot1", "annot2", "annot3", "annot4"]
    for row in rows:
        for name, file in zip(names, FILES, strict=True):
            place = row[f"place {name}"]
            if name in row["missing"].split():
                assert place == ""
                continue
            path, line, column = place.rsplit(":", 2)
            assert path == str(file) and column == "1"
            text = file.read_text(encoding="utf-8").splitlines()
            assert text[int(line) - 1].startswith("("), (place, row["id"])
    assert any(row["place annot1"] == "" for row in rows)  # a sentence annot1 lacks


def test_errors(tmp_path: Path) -> None:
    assert run(FILES[0]).exit_code == 2
    broken = tmp_path / "broken.txt"
    broken.write_text(FILES[1].read_text().replace(':op1 "Wales"))', ':op1 "Wales")'))
    result = run(FILES[0], broken, FILES[2], "--json", "--resamples", "50")
    assert result.exit_code == 1
    assert f"{broken}:" in result.stderr and "E001" in result.stderr
    report = json.loads(result.stdout)
    first = next(s for s in report["sentences"] if s["id"] == "sentence 1")
    assert first["missing"] == [] and first["unreadable"] == ["broken"]
    (unreadable,) = report["unreadable"]
    assert unreadable["annotator"] == "broken" and unreadable["id"] == "sentence 1"
    error = unreadable["error"]
    assert error.startswith(f"{broken}:") and "E001" in error
    assert run(FILES[0], broken, "--strict").exit_code == 2
    assert run(FILES[0], broken, "--strict", "--skip-unreadable").exit_code == 2


def test_a_broken_graph_lowers_agreement_issue_21(tmp_path: Path) -> None:
    """An annotator whose graph cannot be read agrees 0 on that sentence,
    so agreement falls; --skip-unreadable gives the old, higher figure."""
    ref, whole, broken = (tmp_path / f"{n}.amr" for n in ("ref", "whole", "broken"))
    ref.write_text(REFERENCE)
    whole.write_text(CANDIDATE)
    broken.write_text(break_graph(CANDIDATE, WORST))
    reports = [
        json.loads(run(ref, cand, "--json", "--resamples", "50", *extra).stdout)
        for cand, extra in ((whole, ()), (broken, ()), (broken, ("--skip-unreadable",)))
    ]
    written, counted, skipped = (r["mean"]["f1"] for r in reports)
    assert counted < written < skipped
    sentence = next(s for s in reports[1]["sentences"] if s["id"] == "g1")
    assert sentence["unreadable"] == ["broken"] and sentence["mean_f1"] == 0.0
    assert [p["f1"] for p in sentence["pairs"]] == [0.0]
    assert reports[1]["sentences"][0]["id"] == "g1"  # first in the queue
    assert reports[2]["skip_unreadable"] is True
    left_out = next(s for s in reports[2]["sentences"] if s["id"] == "g1")
    assert left_out["missing"] == ["broken"] and left_out["pairs"] == []
    text = run(ref, broken, "--resamples", "50")
    assert text.exit_code == 1
    assert (
        "1 graph unreadable, each counted as an empty graph (F1 0 with every other "
        "annotator):" in text.stdout
    )
    assert f"  {broken}:5:46: E001" in text.stdout
    assert "  ref vs broken  F1 0.0000  (broken: graph cannot be read)" in text.stdout
    rows = list(csv.DictReader(io.StringIO(run(ref, broken, "--csv").stdout)))
    assert [(r["id"], r["unreadable"]) for r in rows][0] == ("g1", "broken")


def test_graphs_nobody_can_read_agree_on_nothing_issue_21(tmp_path: Path) -> None:
    """Two annotators whose graphs all cannot be read: nothing could be
    scored (exit 2); beside a third, their couple agrees 0 on every aspect
    (not 1.0 on the aspects nobody could see)."""
    unreadable = REFERENCE.replace("))\n", ")\n")
    files = [tmp_path / f"{name}.amr" for name in ("a", "b", "c")]
    files[0].write_text(unreadable)
    files[1].write_text(unreadable)
    files[2].write_text(REFERENCE)
    result = run(files[0], files[1], "--resamples", "20")
    assert result.exit_code == 2
    assert "nothing could be scored" in result.stderr
    result = run(*files, "--json", "--resamples", "20")
    assert result.exit_code == 1
    report = json.loads(result.stdout)
    (both,) = [p for p in report["pairs"] if (p["a"], p["b"]) == ("a", "b")]
    assert both["f1"] == 0.0
    assert set(both["aspects"].values()) == {0.0}
    assert report["mean"]["f1"] == 0.0


@pytest.mark.slow
def test_memory_is_flat_in_the_number_of_sentences_issue_6(tmp_path: Path) -> None:
    peaks = []
    for times in (40, 160):  # 2,000 and 8,000 sentences per annotator
        one = repeated(tmp_path / f"ann1.{times}.amr", times)
        two = repeated(tmp_path / f"ann2.{times}.amr", times)
        peaks.append(
            peak_rss_mib("iaa", one, two, "-q", "--resamples", "100", exit_codes=(0, 1))
        )
    # holding both files (and every sentence's aspects) grew by ~100 MiB
    # here; the adjudication queue's records by ~14
    assert peaks[1] - peaks[0] < 25, peaks


def test_jobs_same_json() -> None:
    one = run(*FILES, "--json", "--resamples", "100")
    two = run(*FILES, "--json", "--resamples", "100", "--jobs", "2")
    assert one.exit_code == 0 and json.loads(one.stdout) == json.loads(two.stdout)
