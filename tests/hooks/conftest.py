"""Fixtures for the hook tests: a team's annotation repository in a temp dir."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from amrcheck.workflows.baseline import write_baseline
from amrcheck.workflows.config import load_config
from amrcheck.workflows.gates import record_baseline
from tests.conftest import data_path

HOOK_DATA = data_path("hooks")

#: the configuration of the example repository; tests rewrite it as needed
CONFIG = """\
[check]
ignore = ["W3", "W402"]

[[regress.reference]]
files = "parser/{doc}.amr"
reference = "gold/{doc}.amr"
min-f1 = 0.95
max-drop = 0.01

[[regress.head]]
files = "gold/*.amr"
max-changed-graphs = 1
min-f1-vs-head = 0.97

[[iaa]]
files = ["annotator1/{doc}.amr", "annotator2/{doc}.amr"]
min-graph-f1 = 0.5
min-mean-f1 = 0.75
"""

#: what the example repository holds: path -> fixture under tests/data/hooks
LAYOUT = {
    "gold/ch1.amr": "gold.amr",
    "parser/ch1.amr": "parse_good.amr",
    "annotator1/toy.amr": "annotator1.amr",
    "annotator2/toy.amr": "annotator2.amr",
}

GIT_ENV = {
    "GIT_AUTHOR_NAME": "Annotator",
    "GIT_AUTHOR_EMAIL": "annotator@example.org",
    "GIT_COMMITTER_NAME": "Annotator",
    "GIT_COMMITTER_EMAIL": "annotator@example.org",
    "GIT_CONFIG_NOSYSTEM": "1",
}


def hook_data(name: str) -> Path:
    return HOOK_DATA / name


def isolated_env(tmp: Path, **extra: str) -> dict[str, str]:
    """The environment for git and hooks: no user git config, scripts on PATH."""
    empty = tmp / "gitconfig"
    empty.touch()
    env = dict(os.environ, GIT_CONFIG_GLOBAL=str(empty), **GIT_ENV, **extra)
    # console scripts of this environment (amr-check ...) come first
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env["PATH"]])
    return env


def git(repo: Path, *args: str, env: dict[str, str] | None = None) -> str:
    result = subprocess.run(
        ["git", *args],
        cwd=repo,
        env=env or isolated_env(repo.parent),
        capture_output=True,
        text=True,
        check=True,
    )
    return result.stdout


def make_repo(root: Path, config: str = CONFIG) -> Path:
    """An annotation repository at ``root``: files, config, baseline, one commit."""
    root.mkdir(parents=True, exist_ok=True)
    git(root, "init", "-q", "-b", "main")
    for target, fixture in LAYOUT.items():
        (root / target).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(hook_data(fixture), root / target)
    (root / ".amrcheck.toml").write_text(config)
    settings = load_config(root / ".amrcheck.toml")
    # baseline paths are relative to the current directory, as for the CLI
    old = Path.cwd()
    os.chdir(root)
    try:
        recorded, failures = record_baseline(settings)
    finally:
        os.chdir(old)
    assert not failures, failures
    write_baseline(recorded, root / settings.baseline)
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "annotations")
    return root


@pytest.fixture
def annotation_repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The example repository, committed, as the current directory."""
    repo = make_repo(tmp_path / "annotations")
    monkeypatch.chdir(repo)
    for key, value in GIT_ENV.items():
        monkeypatch.setenv(key, value)
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(tmp_path / "gitconfig"))
    (tmp_path / "gitconfig").touch()
    return repo


def put(repo: Path, target: str, fixture: str) -> None:
    """Replace ``target`` in ``repo`` by a fixture file."""
    shutil.copy(hook_data(fixture), repo / target)
