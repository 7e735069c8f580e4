"""``amr-check``: validate the files a commit touches (main() called directly)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from amrcheck.hooks.check import main
from tests.hooks.conftest import hook_data

LINE_RE = re.compile(r"^(.+):(\d+):(\d+): ([EW]\d{3}) \S.*$")


@pytest.fixture(autouse=True)
def no_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Run in an empty repository root, so that no configuration is found."""
    (tmp_path / ".git").mkdir()
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize(
    ("files", "args", "expected_retval"),
    [
        ([], [], 0),
        (["gold.amr"], [], 0),
        (["gold.amr", "parse_good.amr", "annotator1.amr"], [], 0),
        (["broken.amr"], [], 1),
        (["gold.amr", "broken.amr"], [], 1),
        (["annotator1.amr"], ["--fail-on", "warning"], 1),
        (["annotator1.amr"], ["--fail-on", "warning", "--ignore", "W"], 0),
        (["broken.amr"], ["--select", "W"], 0),
        (["broken.amr"], ["--ignore", "W3,W402", "--select", "E0"], 1),
    ],
)
def test_exit_status(files: list[str], args: list[str], expected_retval: int) -> None:
    assert main([*args, *map(str, map(hook_data, files))]) == expected_retval


def test_errors_of_all_files_sorted_then_one_summary(capsys) -> None:
    files = [
        hook_data("broken.amr"),
        hook_data("annotator1.amr"),
        hook_data("gold.amr"),
    ]
    assert main(list(map(str, files))) == 1
    *lines, summary = capsys.readouterr().out.splitlines()
    assert all(LINE_RE.match(line) for line in lines), lines
    places = [(m[1], int(m[2]), int(m[3])) for m in map(LINE_RE.match, lines)]
    assert places == sorted(places)
    assert f"{hook_data('broken.amr')}:31:43: E001 " in "\n".join(lines)
    assert summary == "Found 1 error and 3 warnings (3 files, 14 graphs)."


def test_clean_files_print_nothing(capsys) -> None:
    assert main([str(hook_data("gold.amr")), "--ignore", "W"]) == 0
    assert capsys.readouterr().out == ""


def test_unreadable_file_fails(capsys, no_config: Path) -> None:
    (no_config / "latin1.amr").write_bytes(b"(c / caf\xe9)\n")
    assert main(["latin1.amr", "missing.amr"]) == 1
    out = capsys.readouterr().out
    assert "amr-check: cannot read latin1.amr: 1:9: not valid UTF-8" in out
    assert "amr-check: cannot read missing.amr: No such file or directory" in out


@pytest.mark.parametrize(
    ("config", "expected_retval"),
    [
        ('[tool.amrcheck.check]\nfail-on = "warning"\n', 1),
        ('[tool.amrcheck.check]\nignore = "W301,W302,W401"\nfail-on = "warning"\n', 0),
        ('[tool.amrcheck.check]\nselect = ["E"]\nfail_on = "warning"\n', 0),
        ("[project]\nname = 'x'\n", 0),  # no [tool.amrcheck]: defaults
    ],
)
def test_pyproject_configuration(
    no_config: Path, config: str, expected_retval: int
) -> None:
    (no_config / "pyproject.toml").write_text(config)
    assert main([str(hook_data("annotator1.amr"))]) == expected_retval


def test_options_replace_the_configuration(no_config: Path) -> None:
    (no_config / ".amrcheck.toml").write_text('[check]\nfail-on = "warning"\n')
    assert main([str(hook_data("annotator1.amr"))]) == 1
    assert main([str(hook_data("annotator1.amr")), "--fail-on", "error"]) == 0


@pytest.mark.parametrize(
    ("args", "config", "message"),
    [
        (["--select", "X9"], None, "amr-check: error: --select: unknown rule code"),
        (
            [],
            '[check]\nignore = ["E9"]\n',
            "amr-check: error: .amrcheck.toml: check.ignore: unknown rule code or "
            "prefix 'E9'",
        ),
        (
            [],
            "[check]\nfail-on = 'never'\n",
            "amr-check: error: .amrcheck.toml: check.fail-on: expected one of "
            "'error', 'warning', got 'never'",
        ),
        (
            [],
            "[check]\nignor = ['W']\n",
            "amr-check: error: .amrcheck.toml: check: unknown key 'ignor' "
            "(did you mean 'ignore'?)",
        ),
        (
            ["--config", "nowhere.toml"],
            None,
            "amr-check: error: nowhere.toml: cannot read",
        ),
    ],
)
def test_configuration_errors_exit_2_without_traceback(
    no_config: Path, capsys, args: list[str], config: str | None, message: str
) -> None:
    if config is not None:
        (no_config / ".amrcheck.toml").write_text(config)
    assert main([*args, str(hook_data("gold.amr"))]) == 2
    captured = capsys.readouterr()
    assert captured.err.startswith(message), captured.err
    assert "Traceback" not in captured.err
    assert captured.out == ""
