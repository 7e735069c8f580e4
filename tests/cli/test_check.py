"""``amrcheck check``: output format, filters, exit codes."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

import amrcheck.cli.check  # noqa: F401  (registers the command on `app`)
from amrcheck.cli import app
from tests.conftest import data_path, shared_path

runner = CliRunner()
RULES = data_path("rules")
LINE_RE = re.compile(r"^(.+):(\d+):(\d+): ([EW]\d{3}) \S.*$")


def run(*args: str | Path):
    return runner.invoke(app, ["check", *map(str, args)])


def test_clean_file_exits_0_with_summary() -> None:
    result = run(shared_path("little_prince/amr-bank-struct-v3.0.txt"), "--ignore", "W")
    assert result.exit_code == 0, result.output
    assert result.stdout == "No problems found (1 file, 1,562 graphs).\n"


def test_compiler_style_lines_sorted_then_summary() -> None:
    result = run(RULES / "W402.amr", RULES / "E101.amr", RULES / "E203.amr")
    assert result.exit_code == 1
    *lines, summary = result.stdout.splitlines()
    assert all(LINE_RE.match(line) for line in lines), lines
    places = [LINE_RE.match(line).groups()[:3] for line in lines]
    keys = [(p, int(ln), int(col)) for p, ln, col in places]
    assert keys == sorted(keys)
    assert lines[0] == (
        f"{RULES / 'E101.amr'}:4:11: E101 variable 'b' is already defined at 3:21"
    )
    assert summary == "Found 5 errors and 1 warning (3 files, 3 graphs)."


def test_warnings_alone_exit_0() -> None:
    result = run(RULES / "W301.amr")
    assert result.exit_code == 0
    assert "W301 unknown PropBank frame 'want-09'" in result.stdout


def test_errors_in_any_file_exit_1() -> None:
    assert run(RULES / "W402.amr", RULES / "E002.amr").exit_code == 1
    assert run(RULES / "E002.amr", RULES / "W402.amr").exit_code == 1


@pytest.mark.parametrize(
    ("options", "codes"),
    [
        ([], ["E203", "E203", "E203", "E203", "W401"]),
        (["--select", "W"], ["W401"]),
        (["--ignore", "E2"], ["W401"]),
        (["--select", "E203,W401", "--ignore", "W4"], ["E203"] * 4),
        (["--select", "e2", "--select", "w"], ["E203"] * 4 + ["W401"]),
    ],
)
def test_select_and_ignore(
    tmp_path: Path, options: list[str], codes: list[str]
) -> None:
    text = (RULES / "E203.amr").read_text() + "\n# ::id 2\n(g / go-02 :polarity +)\n"
    path = tmp_path / "mixed.amr"
    path.write_text(text)
    result = run(path, "-q", *options)
    assert [line.split()[1] for line in result.stdout.splitlines()] == codes
    assert result.exit_code == (1 if "E203" in codes else 0)


def test_ignoring_errors_changes_the_exit_status() -> None:
    assert run(RULES / "E002.amr", "--ignore", "E0").exit_code == 0


def test_quiet_prints_findings_only() -> None:
    result = run(RULES / "W402.amr", "--quiet")
    assert result.stdout.splitlines() == [
        f"{RULES / 'W402.amr'}:3:17: W402 :mod -: a sign is a value of "
        ":polarity, not of :mod (did you mean :polarity -?)"
    ]
    assert run(shared_path("little_prince/amr-bank-struct-v3.0.txt"), "-q",
               "--select", "E").stdout == ""


def test_json_schema() -> None:
    result = run(RULES / "E101.amr", RULES / "W101.amr", "--format", "json")
    assert result.exit_code == 1
    report = json.loads(result.stdout)
    assert report["version"] == 1
    assert report["summary"] == {
        "files": 2, "unreadable": 0, "graphs": 3, "errors": 1, "warnings": 1,
    }
    assert [f["path"] for f in report["files"]] == [
        str(RULES / "E101.amr"), str(RULES / "W101.amr"),
    ]
    assert report["files"][0] == {
        "path": str(RULES / "E101.amr"), "readable": True, "problem": None,
        "graphs": 1, "errors": 1, "warnings": 0,
    }
    first = report["findings"][0]
    assert first == {
        "path": str(RULES / "E101.amr"), "line": 4, "column": 11,
        "end_line": 4, "end_column": 12, "code": "E101", "severity": "error",
        "message": "variable 'b' is already defined at 3:21",
    }


def test_unreadable_files_exit_2_and_name_the_file(tmp_path: Path) -> None:
    bad = tmp_path / "latin1.amr"
    bad.write_bytes(b"# ::snt caf\xe9\n(c / cafe)\n")
    missing = tmp_path / "missing.amr"
    result = run(bad, missing, RULES / "E002.amr")
    assert result.exit_code == 2
    assert f"cannot read {bad}: 1:12: not valid UTF-8 (byte 0xe9)" in result.stderr
    assert f"cannot read {missing}:" in result.stderr
    # the readable file is still checked
    assert "E002" in result.stdout
    assert "Traceback" not in result.output
    report = json.loads(run(bad, "--format", "json").stdout)
    assert report["files"][0]["readable"] is False
    assert "not valid UTF-8" in report["files"][0]["problem"]


@pytest.mark.parametrize(
    "args", [[], ["--select", "X1", "f.amr"], ["--format", "xml", "f.amr"]]
)
def test_usage_errors_exit_2(args: list[str]) -> None:
    result = run(*args)
    assert result.exit_code == 2
    assert "Traceback" not in result.output


def test_console_script_end_to_end(tmp_path: Path) -> None:
    junk = tmp_path / "junk.amr"
    junk.write_bytes(bytes(range(1, 128)) * 3 + b"((((:::\"\n)))")
    proc = subprocess.run(
        [sys.executable, "-c", "from amrcheck.cli import main; main()",
         "check", str(junk), str(RULES / "W402.amr")],
        capture_output=True, text=True, check=False,
    )
    assert proc.returncode == 1, proc.stderr
    assert proc.stderr == ""
    assert proc.stdout.splitlines()[-1].startswith("Found ")


def test_e001_is_placed_where_the_parser_ran_out_issue_22() -> None:
    """The ")" missing from ``(w / want-01 :ARG0 (b / boy)`` (line 3) is
    reported after the graph's last token (line 4), not under the "(";
    the JSON names the "(" left open."""
    result = run(RULES / "E001.amr")
    assert result.exit_code == 1
    assert result.stdout.startswith(
        f"{RULES / 'E001.amr'}:4:19: E001 unbalanced parentheses: 1 '(' not closed\n"
    )
    [finding] = json.loads(run(RULES / "E001.amr", "--format", "json").stdout)[
        "findings"
    ]
    assert (finding["line"], finding["column"]) == (4, 19)
    assert (finding["end_line"], finding["end_column"]) == (4, 19)
    assert finding["related"] == [
        {"line": 3, "column": 1, "message": "this '(' is not closed"}
    ]


def test_umr_files_in_path_order_print_as_when_held(tmp_path: Path) -> None:
    # named in path order, files print one by one; out of order, all are
    # held and sorted: the same lines either way, and the same summary
    release = shared_path("umr/english")
    files = [release / "english_umr-0003.umr", release / "english_umr-0001.umr"]
    held = run("--umr", "no-check-wiki", *files)
    streamed = run("--umr", "no-check-wiki", *sorted(files))
    assert held.exit_code == streamed.exit_code == 1
    assert streamed.stdout == held.stdout
    *lines, summary = streamed.stdout.splitlines()
    paths = [line.split(":", 1)[0] for line in lines]
    assert paths == sorted(paths) and len(set(paths)) == 2
    assert summary.startswith("Found ") and "(2 files, " in summary
