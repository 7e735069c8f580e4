"""Real ``pre-commit`` with this repository: ``repo: <path>`` + ``rev``, and local.

The hook repository is a snapshot of the working tree (the package and
``.pre-commit-hooks.yaml``), committed and tagged in a temp dir. One
``PRE_COMMIT_HOME`` for the session, so pre-commit builds the hook
environment (pip-installing amrcheck) once: 20-40 s, then about 1 s a run.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO
from tests.hooks.conftest import isolated_env, make_repo, put

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

#: a version-like tag (pre-commit warns about revs that look like branches)
TAG = "v0.0.0-test"
#: what pip needs to build and install amrcheck from the hook repository
PACKAGE_PATHS = (
    "amrcheck",
    "amr_lsp",
    "pyproject.toml",
    "README.md",
    "LICENSE",
    ".pre-commit-hooks.yaml",
)
HOOK_IDS = ("amr-check", "amr-regress", "amr-iaa")


def run(cwd: Path, *args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True)


@pytest.fixture(scope="session")
def hook_repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """This repository's working tree, committed and tagged :data:`TAG`."""
    snapshot = tmp_path_factory.mktemp("hook-repo")
    env = isolated_env(snapshot.parent)
    listed = subprocess.run(
        ["git", "ls-files", "-co", "--exclude-standard", "-z", "--", *PACKAGE_PATHS],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split("\0")
    for name in filter(None, listed):
        if (REPO / name).is_file():
            (snapshot / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(REPO / name, snapshot / name)
    for args in (
        ("init", "-q"),
        ("add", "-A"),
        ("commit", "-q", "-m", "snapshot"),
        ("tag", TAG),
    ):
        subprocess.run(["git", *args], cwd=snapshot, env=env, check=True)
    return snapshot


@pytest.fixture(scope="session")
def pre_commit_env(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    home = tmp_path_factory.mktemp("pre-commit-home")
    return isolated_env(home, PRE_COMMIT_HOME=str(home), PRE_COMMIT_COLOR="never")


def annotation_repo(tmp_path: Path, config: str, env: dict[str, str]) -> Path:
    """The example repository, ``config`` committed, ``pre-commit install``-ed."""
    repo = make_repo(tmp_path / "annotations")
    (repo / ".pre-commit-config.yaml").write_text(config)
    for args in (("git", "add", "-A"), ("git", "commit", "-q", "-m", "hooks")):
        subprocess.run(args, cwd=repo, env=env, check=True)
    installed = run(repo, sys.executable, "-m", "pre_commit", "install", env=env)
    assert installed.returncode == 0, installed.stdout + installed.stderr
    return repo


def commit(repo: Path, env: dict[str, str], *paths: str) -> tuple[int, str]:
    """Stage and commit; the exit status and what the hooks printed."""
    subprocess.run(["git", "add", *paths], cwd=repo, env=env, check=True)
    result = run(repo, "git", "commit", "-m", "change", env=env)
    # git hands the hook's output to stderr; pre-commit's own lines included
    return result.returncode, result.stdout + result.stderr


def remote_config(hook_repo: Path) -> str:
    hooks = "".join(f"      - id: {hook_id}\n" for hook_id in HOOK_IDS)
    return f"repos:\n  - repo: {hook_repo}\n    rev: {TAG}\n    hooks:\n{hooks}"


def test_repo_with_rev(
    hook_repo: Path, pre_commit_env: dict[str, str], tmp_path: Path
) -> None:
    env = pre_commit_env
    repo = annotation_repo(tmp_path, remote_config(hook_repo), env)

    put(repo, "parser/ch1.amr", "broken.amr")
    status, out = commit(repo, env, "parser/ch1.amr")
    assert status == 1, out
    assert "amr-check (validate AMR files)" in out
    assert "parser/ch1.amr:31:43: E001 unbalanced parentheses" in out
    assert "WARNING" not in out

    put(repo, "parser/ch1.amr", "parse_regressed.amr")
    status, out = commit(repo, env, "parser/ch1.amr")
    assert status == 1, out
    assert "parser/ch1.amr: min-f1: smatch F1 0.9221 is below 0.95" in out
    assert "gold/ch1.amr:31:12: missing from parser/ch1.amr: (b2 :ARG0-of s)" in out

    put(repo, "parser/ch1.amr", "gold.amr")  # a better parse passes every gate
    status, out = commit(repo, env, "parser/ch1.amr")
    assert status == 0, out
    lines = out.splitlines()
    for hook in ("amr-check", "amr-regress", "amr-iaa"):
        assert any(
            line.startswith(hook) and line.endswith("Passed") for line in lines
        ), out


def test_repo_with_rev_mass_edit_of_gold(
    hook_repo: Path, pre_commit_env: dict[str, str], tmp_path: Path
) -> None:
    env = pre_commit_env
    repo = annotation_repo(tmp_path, remote_config(hook_repo), env)
    gold = repo / "gold/ch1.amr"
    gold.write_text(gold.read_text().replace(":ARG1 ", ":ARG2 "))
    result = run(
        repo,
        sys.executable,
        "-m",
        "pre_commit",
        "run",
        "amr-regress",
        "--files",
        "gold/ch1.amr",
        env=env,
    )
    assert result.returncode == 1
    assert (
        "gold/ch1.amr: max-changed-graphs: 4 graphs changed since HEAD" in result.stdout
    )
    assert "HEAD:gold/ch1.amr:40:19: removed since HEAD: (c :ARG1 p)" in result.stdout


LOCAL_CONFIG = """\
repos:
  - repo: local
    hooks:
{hooks}"""


def test_repo_local(pre_commit_env: dict[str, str], tmp_path: Path) -> None:
    """A team that installs amrcheck itself: ``language: system`` runs its scripts."""
    hooks = "".join(
        f"      - id: {hook_id}\n        name: {hook_id}\n        entry: {hook_id}\n"
        "        language: system\n        files: \\.amr$\n"
        "        require_serial: true\n"
        for hook_id in HOOK_IDS
    )
    env = pre_commit_env
    repo = annotation_repo(tmp_path, LOCAL_CONFIG.format(hooks=hooks), env)

    annotator2 = repo / "annotator2/toy.amr"
    text = annotator2.read_text().replace("chase-01", "eat-01")
    annotator2.write_text(text.replace("(m / man)", "(w / woman)"))
    status, out = commit(repo, env, "annotator2/toy.amr")
    assert status == 1, out
    assert (
        "annotator1/toy.amr vs annotator2/toy.amr: min-mean-f1: mean smatch F1 0.7312 "
        "over 4 graphs is below 0.75"
    ) in out
    assert "annotator2/toy.amr:33:14: only in annotator2/toy.amr: (c / eat-01)" in out

    put(repo, "annotator2/toy.amr", "annotator1.amr")
    status, out = commit(repo, env, "annotator2/toy.amr")
    assert status == 0, out
