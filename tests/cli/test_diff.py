"""``amrcheck diff OLD NEW``: text, --stat, --json, --motifs, exit codes, errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

import amrcheck.cli.diff as diff_command
from amrcheck.cli import app
from tests.broken import (
    BROKEN,
    CANDIDATE,
    METRICS,
    REFERENCE,
    break_graph,
    option_args,
)
from tests.cli.peak_memory import peak_rss_mib, repeated
from tests.conftest import REPO

runner = CliRunner()
V1 = REPO / "examples" / "annotations_v1.amr"
V2 = REPO / "examples" / "annotations_v2.amr"


def run(*args: str | Path):
    return runner.invoke(app, ["diff", *map(str, args)])


def test_recommended_metric_explains_the_diff_issue_16() -> None:
    """diff --metric recommended: the alias resolves (and is printed), and
    its alignment gives the triples, as smatch's does."""
    pytest.importorskip("ot", reason="needs POT")
    mini = REPO / "tests" / "data" / "vectors" / "glove-mini.50d.txt"
    result = run(V1, V2, "--metric", "recommended", "-o", f"vectors={mini}")
    assert result.exit_code == 1, result.output
    lines = result.stdout.splitlines()
    assert lines[2].startswith("changed   ex.1  wlmatch-v1 0.")
    assert "  + 7:17  (a :polarity -)" in lines
    assert "  ~ 27:11 -> 30:11  (r / researcher) -> (p / person)" in lines
    assert "  - 44:4  (p :ARG0 r)" in lines and "  + 48:4  (p :ARG1 r)" in lines
    assert "alias=recommended" in lines[-1]


def test_text_output_is_plain_and_exit_1_when_graphs_changed() -> None:
    result = run(V1, V2)
    assert result.exit_code == 1, result.output
    lines = result.stdout.splitlines()
    assert lines[:5] == [
        f"--- {V1}",
        f"+++ {V2}",
        "changed   ex.1  smatch 0.9231  (+1)",
        "  + 7:17  (a :polarity -)",
        "changed   ex.2  smatch 0.9231  (-2 +1)",
    ]
    assert "  ~ 27:11 -> 30:11  (r / researcher) -> (p / person)" in lines
    assert "  - 44:4  (p :ARG0 r)" in lines and "  + 48:4  (p :ARG1 r)" in lines
    assert f"added     ex.6  {V2}:54  (11 triples)" in lines
    assert (
        "1 graph unchanged but for header or layout: comments in 1, layout in 1 "
        "(--metadata lists them)"
    ) in lines
    assert lines[-1].startswith(
        "6 graphs: 4 changed, 1 added, 0 removed, 1 unchanged "
        "(1 with header changes only); smatch 0.8889 over 5 pairs (root=variable, set)"
    )
    assert "\x1b[" not in result.stdout  # no colour codes when not a terminal


def write_revision(tmp_path: Path) -> tuple[Path, Path]:
    """OLD and NEW where one graph changes a triple and its metadata, and
    two change only their metadata."""
    old = tmp_path / "old.amr"
    new = tmp_path / "new.amr"
    old.write_text(
        "# ::id a.1 ::date 2012\n# ::zh 第一章\n(c / chapter :mod 1)\n\n"
        "# ::id a.2\n# ::zh 二\n(d / dog)\n\n"
        "# ::id a.3\n# ::zh 三\n(b / boy)\n",
        encoding="utf-8",
    )
    new.write_text(
        "# ::id a.1 ::date 2017\n(c / chapter :mod 2)\n\n"
        "# ::id a.2\n(d / dog)\n\n"
        "# ::id a.3 ::note new\n(b / boy)\n",
        encoding="utf-8",
    )
    return old, new


def test_metadata_is_summarised_by_default_issue_29(tmp_path: Path) -> None:
    """One line per changed graph naming its keys, one count per key for the
    graphs changed only in their header; never a Python repr."""
    old, new = write_revision(tmp_path)
    lines = run(old, new).stdout.splitlines()
    assert lines[2:] == [
        "changed   a.1  smatch 0.6667  (~1)",
        "  ~ 3:14 -> 2:14  (c :mod 1) -> (c :mod 2)",
        "  metadata: ::date changed, ::zh removed",
        "2 graphs unchanged but for header or layout: ::zh removed in 2, "
        "::note added in 1 (--metadata lists them)",
        "3 graphs: 1 changed, 0 added, 0 removed, 2 unchanged (2 with header "
        "changes only); smatch 0.8571 over 3 pairs (root=variable, set)",
    ]


def test_metadata_option_shows_every_change_as_old_arrow_new(tmp_path: Path) -> None:
    old, new = write_revision(tmp_path)
    result = run(old, new, "--metadata", "--quiet")
    assert result.stdout.splitlines()[2:] == [
        "changed   a.1  smatch 0.6667  (~1)",
        "  ~ 3:14 -> 2:14  (c :mod 1) -> (c :mod 2)",
        "  ::date: 2012 → 2017",
        "  ::zh: 第一章 → (none)",
        "graph unchanged, header or layout changed:",
        "  a.2: metadata ::zh",
        "    ::zh: 二 → (none)",
        "  a.3: metadata ::zh, ::note",
        "    ::zh: 三 → (none)",
        "    ::note: (none) → new",
    ]
    assert "'" not in result.stdout and "None" not in result.stdout
    # the JSON keeps every change, structured
    report = json.loads(run(old, new, "--json").stdout)
    assert report["graphs"][2]["metadata"] == {
        "zh": {"old": "三", "new": None},
        "note": {"old": None, "new": "new"},
    }


def test_html_report_writes_metadata_as_old_arrow_new(tmp_path: Path) -> None:
    old, new = write_revision(tmp_path)
    report = tmp_path / "report.html"
    run(old, new, "--html", report, "-q")
    page = report.read_text(encoding="utf-8")
    assert "::date: 2012 → 2017" in page and "::zh: 第一章 → (none)" in page
    assert "&#x27;2012&#x27;" not in page and "'2012'" not in page


def test_same_file_exits_0() -> None:
    result = run(V1, V1, "--quiet")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == [f"--- {V1}", f"+++ {V1}"]


def test_stat_one_line_per_graph() -> None:
    result = run(V2, V1, "--stat", "-q")
    assert result.exit_code == 1
    assert result.stdout.splitlines() == [
        "ex.1  changed    smatch 0.9231  -1  comments",
        "ex.2  changed    smatch 0.9231  -1 +2  comments",
        "ex.3  changed    smatch 0.7273  -2 ~2  comments",
        "ex.4  unchanged  smatch 1.0000  comments  layout",
        "ex.5  changed    smatch 0.8333  -1 +1  comments",
        "ex.6  removed    smatch 0.0000  -11  removed: counted as an empty graph",
    ]


@pytest.mark.parametrize("name", METRICS)
def test_a_broken_graph_lowers_the_summary_score_issue_21(
    name: str, tmp_path: Path
) -> None:
    old, whole, broken = (tmp_path / f"{n}.amr" for n in ("old", "whole", "broken"))
    old.write_text(REFERENCE)
    whole.write_text(CANDIDATE)
    broken.write_text(break_graph(CANDIDATE, BROKEN))
    options = option_args(name, tmp_path)
    written, counted = (
        json.loads(run(old, new, "-m", name, *options, "--json").stdout)
        for new in (whole, broken)
    )
    assert counted["score"]["f1"] < written["score"]["f1"]
    assert counted["counted_empty"] == 1
    graph = counted["graphs"][BROKEN]
    assert graph["score"]["f1"] == 0.0 and graph["counted_empty"] is True


def test_skip_unreadable_says_what_the_score_leaves_out_issue_21(
    tmp_path: Path,
) -> None:
    old, new = tmp_path / "old.amr", tmp_path / "new.amr"
    old.write_text(REFERENCE)
    new.write_text(break_graph(REFERENCE, BROKEN))
    counted = run(old, new)
    assert counted.exit_code == 1
    lines = counted.stdout.splitlines()
    assert lines[2] == (
        "changed   g0  smatch 0.0000  (unreadable: counted as an empty graph)"
    )
    assert lines[3].startswith(f"  ! {new}:2:46: E001")
    assert lines[-1] == (
        "4 graphs: 1 changed, 0 added, 0 removed, 3 unchanged; smatch 0.8571 over 4 "
        "pairs, 1 of them counted as empty graphs (removed, or unreadable in NEW) "
        "(root=variable, set)"
    )
    skipped = run(old, new, "--skip-unreadable", "--stat")
    assert skipped.stdout.splitlines()[0] == "g0  changed    left out of the score"
    assert skipped.stdout.splitlines()[-1] == (
        "4 graphs: 1 changed, 0 added, 0 removed, 3 unchanged; smatch 1.0000 over 3 "
        "pairs (root=variable, set); the score leaves out 1 graph (unreadable in "
        "OLD, or removed or unreadable in NEW (--skip-unreadable))"
    )


def test_json_schema() -> None:
    result = run(V1, V2, "--json")
    assert result.exit_code == 1
    report = json.loads(result.stdout)
    assert report["version"] == 1 and report["paired_by"] == "id"
    assert report["note"] is None and report["metric"] == "smatch"
    assert report["settings"]["root"] == "variable"
    assert report["summary"]["changed"] == 4 and report["summary"]["added"] == 1
    ex1 = report["graphs"][0]
    assert set(ex1) == {
        "id", "status", "old", "new", "score", "counted_empty", "left_out",
        "counts", "changes", "layout_changed", "metadata", "comments_changed",
        "errors",
    }  # fmt: skip
    assert report["counted_empty"] == report["left_out"] == 0
    assert ex1["old"] == {"line": 6, "column": 1}
    assert ex1["changes"] == [
        {
            "change": "added",
            "old": None,
            "new": {
                "text": "(a :polarity -)",
                "triple": ["a", ":polarity", "-"],
                "line": 7,
                "column": 17,
            },
        }
    ]
    relabel = report["graphs"][2]["changes"][0]
    assert relabel["change"] == "relabel"
    assert relabel["old"]["text"] == "(r / researcher)"
    assert relabel["new"]["text"] == "(p / person)"
    assert report["graphs"][5]["status"] == "added"
    assert report["graphs"][5]["score"] is None


def test_metric_options_and_motifs() -> None:
    result = run(V1, V2, "--metric", "rematch", "--motifs", "--json")
    report = json.loads(result.stdout)
    assert report["metric"] == "rematch"
    ex1 = report["graphs"][0]
    assert "attribute (polarity -)" in [
        m["new"]["text"] for m in ex1["motifs"] if m["new"]
    ]
    text = run(V1, V2, "--motifs", "-q").stdout
    assert "  + 7:17  attribute (polarity -)" in text
    concept = run(V1, V2, "--json", "-o", "root=concept")
    assert json.loads(concept.stdout)["settings"]["root"] == "concept"


def test_position_fallback_is_announced(tmp_path: Path) -> None:
    old, new = tmp_path / "old.amr", tmp_path / "new.amr"
    old.write_text("(a / one)\n\n(b / two)\n")
    new.write_text("(a / one)\n\n(b / three)\n")
    result = run(old, new, "-q")
    assert result.exit_code == 1
    assert f"graphs paired by position: 2 graphs have no ::id in {old}" in result.stderr
    assert "  ~ 3:2 -> 3:2  (b / two) -> (b / three)" in result.stdout


def test_syntax_errors_warn_and_go_on_unless_strict(tmp_path: Path) -> None:
    broken = tmp_path / "broken.amr"
    broken.write_text(
        V2.read_text().replace("(g3 / grandmother)))", "(g3 / grandmother))")
    )
    result = run(V1, broken, "--json")
    assert result.exit_code == 1
    # where the ")" is missing, as the indentation says (issue 29)
    assert f"{broken}:21:59: E001" in result.stderr
    report = json.loads(result.stdout)
    assert [g["status"] for g in report["graphs"]][:3] == ["changed"] * 3
    assert report["graphs"][1]["errors"][0].startswith(f"{broken}:21:59: E001")
    strict = run(V1, broken, "--strict")
    assert strict.exit_code == 2 and strict.stdout == ""
    assert "--strict" in strict.stderr and "Traceback" not in strict.output


def test_usage_errors_exit_2(tmp_path: Path) -> None:
    for args in (
        (V1, tmp_path / "missing.amr"),
        (V1, V2, "--metric", "nosuch"),
        (V1, V2, "-o", "nosuch=1"),
    ):
        result = run(*args)
        assert result.exit_code == 2, args
        assert "Traceback" not in result.output
    assert "missing.amr" in run(V1, tmp_path / "missing.amr").stderr


def test_ctrl_c_exits_130_without_traceback(monkeypatch: pytest.MonkeyPatch) -> None:
    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(diff_command, "run_diff", interrupted)
    result = run(V1, V2)
    assert result.exit_code == 130
    assert result.stderr == "amrcheck diff: interrupted\n"


def test_jobs_same_json() -> None:
    one = run(V1, V2, "--json")
    two = run(V1, V2, "--json", "--jobs", "2")
    assert json.loads(one.stdout) == json.loads(two.stdout)


@pytest.mark.slow
def test_memory_is_flat_in_the_number_of_graphs_issue_6(tmp_path: Path) -> None:
    peaks = []
    for times in (40, 160):  # 2,000 and 8,000 graphs per file
        old = repeated(tmp_path / f"old{times}.amr", times)
        new = repeated(tmp_path / f"new{times}.amr", times)
        peaks.append(peak_rss_mib("diff", old, new, "-q", exit_codes=(0, 1)))
    # holding both files grew by ~57 MiB here; the per-graph reports by ~10
    assert peaks[1] - peaks[0] < 25, peaks
