"""``hooks/pre-commit``: the plain git hook, in a real repository, with real commits."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from tests.conftest import REPO
from tests.hooks.conftest import isolated_env, make_repo, put

pytestmark = pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    repo = make_repo(tmp_path / "annotations")
    shutil.copy(REPO / "hooks" / "pre-commit", repo / ".git" / "hooks" / "pre-commit")
    return repo


def commit(repo: Path, *paths: str, **env: str) -> subprocess.CompletedProcess[str]:
    environment = isolated_env(repo.parent, **env)
    subprocess.run(["git", "add", *paths], cwd=repo, env=environment, check=True)
    return subprocess.run(
        ["git", "commit", "-q", "-m", "change"],
        cwd=repo,
        env=environment,
        capture_output=True,
        text=True,
    )


def head(repo: Path) -> str:
    return subprocess.run(
        ["git", "rev-parse", "HEAD"],
        cwd=repo,
        capture_output=True,
        text=True,
        check=True,
    ).stdout


def test_good_commit_passes(repo: Path) -> None:
    gold = repo / "gold/ch1.amr"
    gold.write_text(gold.read_text().replace("(h / here)", "(h / there)"))
    before = head(repo)
    result = commit(repo, "gold/ch1.amr")
    assert result.returncode == 0, result.stdout + result.stderr
    assert head(repo) != before


@pytest.mark.parametrize(
    ("target", "fixture", "expected"),
    [
        ("parser/ch1.amr", "broken.amr", "parser/ch1.amr:31:43: E001 unbalanced"),
        ("parser/ch1.amr", "parse_regressed.amr", "parser/ch1.amr: min-f1: smatch F1 "),
        ("annotator2/toy.amr", None, "annotator1/toy.amr vs annotator2/toy.amr: "),
    ],
)
def test_bad_commit_is_blocked(
    repo: Path, target: str, fixture: str | None, expected: str
) -> None:
    if fixture is None:  # the second annotator disagrees on more concepts
        text = (repo / target).read_text()
        for old, new in (("(m / man)", "(w / woman)"), ("chase-01", "eat-01")):
            text = text.replace(old, new)
        (repo / target).write_text(text)
    else:
        put(repo, target, fixture)
    before = head(repo)
    result = commit(repo, target)
    assert result.returncode == 1
    assert expected in result.stderr  # git shows a hook's output on stderr
    assert head(repo) == before


def test_unstaged_changes_are_refused(repo: Path) -> None:
    put(repo, "parser/ch1.amr", "gold.amr")
    subprocess.run(["git", "add", "parser/ch1.amr"], cwd=repo, check=True)
    put(repo, "parser/ch1.amr", "broken.amr")
    result = commit(repo)
    assert result.returncode == 1
    assert "staged files with unstaged changes" in result.stderr
    assert "parser/ch1.amr" in result.stderr


def test_choose_hooks_and_files(repo: Path) -> None:
    put(repo, "parser/ch1.amr", "parse_regressed.amr")
    result = commit(repo, "parser/ch1.amr", AMRCHECK_HOOKS="amr-check")
    assert result.returncode == 0, result.stdout + result.stderr
    (repo / "notes.txt").write_text("(x / broken\n")
    assert commit(repo, "notes.txt").returncode == 0  # not an .amr file
    (repo / "more.txt").write_text("(x / broken\n")
    result = commit(
        repo, "more.txt", AMRCHECK_FILES=r"\.txt$", AMRCHECK_HOOKS="amr-check"
    )
    assert result.returncode == 1
    assert "more.txt:1:12: E001" in result.stderr


def test_missing_scripts_are_named(repo: Path) -> None:
    put(repo, "parser/ch1.amr", "gold.amr")
    result = commit(repo, "parser/ch1.amr", AMRCHECK_HOOKS="amr-nonesuch")
    assert result.returncode == 1
    assert (
        "amr-nonesuch not found on PATH (install amrcheck: pip install path/to/amrcheck"
        in result.stderr
    )
