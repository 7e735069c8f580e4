"""``.pre-commit-hooks.yaml``, console scripts, README and docs agree."""

from __future__ import annotations

import importlib

import pytest
import tomllib
import yaml

from tests.conftest import REPO, fresh_python

MANIFEST = yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text())
SCRIPTS = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["scripts"]
HOOK_SCRIPTS = {
    name: target
    for name, target in SCRIPTS.items()
    if target.startswith("amrcheck.hooks.")
}
IDS = [hook["id"] for hook in MANIFEST]


def test_every_hook_has_a_console_script_and_vice_versa() -> None:
    assert sorted(IDS) == sorted(HOOK_SCRIPTS)


@pytest.mark.parametrize("hook", MANIFEST, ids=IDS)
def test_manifest_entry(hook: dict[str, object]) -> None:
    assert hook["entry"] == hook["id"]
    assert hook["language"] == "python"
    # every hook takes UMR files too (the scoring hooks their sentence graphs)
    assert hook["files"] == r"\.(amr|umr)$"
    assert hook["name"] and hook["description"]
    module, _, function = HOOK_SCRIPTS[hook["id"]].partition(":")
    assert function == "main"
    assert callable(importlib.import_module(module).main)


@pytest.mark.parametrize("hook_id", IDS)
def test_readme_and_docs_name_every_hook(hook_id: str) -> None:
    readme = (REPO / "README.md").read_text()
    section = readme.split("## Use in your annotation repository")[1].split("\n## ")[0]
    assert f"id: {hook_id}" in section
    assert f"`{hook_id}`" in (REPO / "docs" / "hooks.md").read_text()
    assert f"{hook_id}" in (REPO / "hooks" / "README.md").read_text()


@pytest.mark.parametrize("hook_id", IDS)
def test_help(hook_id: str, capsys) -> None:
    module = importlib.import_module(HOOK_SCRIPTS[hook_id].partition(":")[0])
    with pytest.raises(SystemExit) as exited:
        module.main(["--help"])
    assert exited.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith(f"usage: {hook_id} ")
    assert "Exit status" in out and "--config" in out


def test_hooks_import_no_cli_library() -> None:
    """Hooks start fast and stay thin: no typer, rich or LSP libraries."""
    code = (
        "import sys, amrcheck.hooks.check, amrcheck.hooks.regress, amrcheck.hooks.iaa\n"
        "print(','.join(m for m in ('typer', 'rich', 'pygls', 'lsprotocol', 'click')"
        " if m in sys.modules))\n"
    )
    assert fresh_python(code) == ""


def _toml_blocks(text: str) -> list[str]:
    return [block.split("```")[0] for block in text.split("```toml\n")[1:]]


@pytest.mark.parametrize(
    "block",
    _toml_blocks((REPO / "docs" / "hooks.md").read_text())
    + _toml_blocks((REPO / "README.md").read_text()),
)
def test_documented_configurations_load(block: str, tmp_path, monkeypatch) -> None:
    from amrcheck.workflows.config import load_config

    monkeypatch.chdir(tmp_path)
    (tmp_path / ".amrcheck.toml").write_text(block)
    config = load_config(".amrcheck.toml")
    assert config.references or config.heads or config.iaa
