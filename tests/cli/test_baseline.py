"""``amrcheck baseline``: the only writer of the baseline file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

import amrcheck.cli.baseline  # noqa: F401  (registers the command on `app`)
from amrcheck.cli import app
from tests.hooks.conftest import CONFIG, make_repo, put

runner = CliRunner()


@pytest.fixture
def annotation_repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    repo = make_repo(tmp_path / "annotations")
    monkeypatch.chdir(repo)
    return repo


def test_records_every_configured_file(annotation_repo: Path) -> None:
    (annotation_repo / ".amrcheck-baseline.json").unlink()
    result = runner.invoke(app, ["baseline"])
    assert result.exit_code == 0, result.output
    assert result.stdout == (
        "parser/ch1.amr: smatch F1 0.9870 against gold/ch1.amr (5 graphs; "
        "graphs paired by ::id)\n"
        "Wrote .amrcheck-baseline.json; commit it with the files it scores.\n"
    )
    data = json.loads((annotation_repo / ".amrcheck-baseline.json").read_text())
    assert data["metric"] == "smatch" and data["settings"]["root"] == "variable"
    entry = data["files"]["parser/ch1.amr"]
    assert entry["reference"] == "gold/ch1.amr" and entry["f1"] == 0.987013
    assert list(entry["graphs"]) == [f"lpp_1943.{n}" for n in range(1, 6)]


def test_update_of_one_file_keeps_the_others(annotation_repo: Path) -> None:
    (annotation_repo / "parser/ch2.amr").write_text("(c / chapter :mod 1)\n")
    (annotation_repo / "gold/ch2.amr").write_text("(c / chapter :mod 2)\n")
    result = runner.invoke(app, ["baseline", "parser/ch2.amr"])
    assert result.exit_code == 0, result.output
    data = json.loads((annotation_repo / ".amrcheck-baseline.json").read_text())
    assert sorted(data["files"]) == ["parser/ch1.amr", "parser/ch2.amr"]


def test_nothing_written_when_a_file_cannot_be_scored(annotation_repo: Path) -> None:
    before = (annotation_repo / ".amrcheck-baseline.json").read_text()
    put(annotation_repo, "parser/ch1.amr", "broken.amr")
    result = runner.invoke(app, ["baseline"])
    assert result.exit_code == 1
    assert "E001 unbalanced parentheses" in result.stdout
    assert result.stdout.endswith("Nothing written to .amrcheck-baseline.json.\n")
    assert (annotation_repo / ".amrcheck-baseline.json").read_text() == before


def test_file_without_rule(annotation_repo: Path) -> None:
    result = runner.invoke(app, ["baseline", "gold/ch1.amr"])
    assert result.exit_code == 1
    assert (
        "gold/ch1.amr: baseline: matches no [[regress.reference]] rule" in result.stdout
    )


def test_configuration_errors_exit_2(annotation_repo: Path) -> None:
    (annotation_repo / ".amrcheck.toml").write_text(
        CONFIG.split("[[regress.reference]]")[0]
    )
    result = runner.invoke(app, ["baseline"])
    assert result.exit_code == 2
    assert "sets up no [[tool.amrcheck.regress.reference]] rule" in result.stderr
