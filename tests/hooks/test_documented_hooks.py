"""The ``.pre-commit-config.yaml`` examples of README.md and docs/hooks.md, as written.

Each documented configuration runs with real ``pre-commit`` in a temporary
annotation repository, following the documented steps: the config as the
docs show it (only ``repo: ../amrcheck`` pointed at a snapshot of this
checkout), ``pre-commit autoupdate``, which must pin ``rev:`` to the
snapshot's commit SHA (the snapshot, like amrcheck, has no tags), then
``pre-commit install`` and commits. The snapshot is this working tree,
uncommitted changes included, committed in a temp dir: what is tested is
what is checked out.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml  # type: ignore[import-untyped]

from tests.conftest import REPO
from tests.hooks.conftest import isolated_env, make_repo, put
from tests.hooks.test_precommit import PACKAGE_PATHS, commit, run

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

DOCUMENTED = (REPO / "README.md", REPO / "docs" / "hooks.md")


def documented_configs() -> list[tuple[str, str]]:
    """``(where, text)`` of every YAML block holding a ``repos:`` list."""
    found = []
    for path in DOCUMENTED:
        text = path.read_text(encoding="utf-8")
        for match in re.finditer(r"^```yaml\n(.*?)^```", text, re.M | re.S):
            if yaml.safe_load(match.group(1)).get("repos"):
                line = text.count("\n", 0, match.start()) + 1
                found.append((f"{path.relative_to(REPO)}:{line}", match.group(1)))
    return found


CONFIGS = documented_configs()


@pytest.fixture(scope="module")
def untagged_hook_repo(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """This working tree committed in a temp dir (no tag); the commit's SHA."""
    snapshot = tmp_path_factory.mktemp("amrcheck")
    env = isolated_env(snapshot.parent)
    listed = subprocess.run(
        ["git", "ls-files", "-co", "--exclude-standard", "-z", "--", *PACKAGE_PATHS],
        cwd=REPO, capture_output=True, text=True, check=True,
    ).stdout.split("\0")
    for name in filter(None, listed):
        if (REPO / name).is_file():
            (snapshot / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(REPO / name, snapshot / name)
    for args in (("init", "-q"), ("add", "-A"), ("commit", "-q", "-m", "snapshot")):
        subprocess.run(["git", *args], cwd=snapshot, env=env, check=True)
    sha = subprocess.run(
        ["git", "rev-parse", "HEAD"], cwd=snapshot, env=env,
        capture_output=True, text=True, check=True,
    ).stdout.strip()
    return snapshot, sha


@pytest.fixture(scope="module")
def pre_commit_env(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    home = tmp_path_factory.mktemp("pre-commit-home")
    return isolated_env(home, PRE_COMMIT_HOME=str(home), PRE_COMMIT_COLOR="never")


def test_the_docs_show_a_pinned_remote_config_and_a_local_one() -> None:
    assert len(CONFIGS) == 3, [where for where, _ in CONFIGS]
    remote = [c for _, c in CONFIGS if "repo: ../amrcheck" in c]
    assert len(remote) == 2 and all("rev: " in c for c in remote)


@pytest.mark.parametrize(
    "config", [c for _, c in CONFIGS], ids=[where for where, _ in CONFIGS]
)
def test_a_documented_config_gates_commits(
    config: str,
    untagged_hook_repo: tuple[Path, str],
    pre_commit_env: dict[str, str],
    tmp_path: Path,
) -> None:
    env = pre_commit_env
    hook_repo, sha = untagged_hook_repo
    repo = make_repo(tmp_path / "annotations")
    written = repo / ".pre-commit-config.yaml"
    written.write_text(
        config.replace("repo: ../amrcheck", f"repo: {hook_repo}"), encoding="utf-8"
    )
    remote = "repo: ../amrcheck" in config
    if remote:  # the documented step: pin rev with autoupdate
        updated = run(repo, sys.executable, "-m", "pre_commit", "autoupdate", env=env)
        assert updated.returncode == 0, updated.stdout + updated.stderr
        (pinned,) = [r["rev"] for r in yaml.safe_load(written.read_text())["repos"]]
        assert pinned == sha
    for args in (("git", "add", "-A"), ("git", "commit", "-q", "-m", "hooks")):
        subprocess.run(args, cwd=repo, env=env, check=True)
    installed = run(repo, sys.executable, "-m", "pre_commit", "install", env=env)
    assert installed.returncode == 0, installed.stdout + installed.stderr

    put(repo, "parser/ch1.amr", "broken.amr")
    status, out = commit(repo, env, "parser/ch1.amr")
    assert status == 1, out
    assert "parser/ch1.amr:31:43: E001 unbalanced parentheses" in out
    assert "WARNING" not in out  # e.g. pre-commit's warning about a mutable rev

    put(repo, "parser/ch1.amr", "gold.amr")  # a better parse passes every gate
    status, out = commit(repo, env, "parser/ch1.amr")
    assert status == 0, out
    hooks = [h["id"] for r in yaml.safe_load(config)["repos"] for h in r["hooks"]]
    passed = [line for line in out.splitlines() if line.endswith("Passed")]
    assert [re.sub(r"[^\w-].*", "", line) for line in passed] == hooks, out
