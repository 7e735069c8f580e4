"""The extension's settings mirror the server's (docs/lsp.md, STYLE lesson 9).

Every server setting is an ``amrcheck.*`` setting of ``vscode-extension/package.json``
with the same default and a description, and the extension declares no
``amrcheck.*`` setting the server does not know (it would be reported as
unknown). Client-only settings live under ``amr.*``.
"""

from __future__ import annotations

import dataclasses
import json
import re
from typing import Any, get_args, get_type_hints

from amr_lsp.config import SECTION, Settings, camel
from amrcheck import metric_names
from tests.conftest import REPO, data_path

EXTENSION = REPO / "vscode-extension"


def manifest() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(
        (EXTENSION / "package.json").read_text(encoding="utf-8")
    )
    return data


def contributed() -> dict[str, dict[str, Any]]:
    found: dict[str, dict[str, Any]] = {}
    for block in manifest()["contributes"]["configuration"]:
        found.update(block["properties"])
    return found


def server_defaults(obj: Any = None, prefix: str = SECTION) -> dict[str, Any]:
    """``amrcheck.features.codeLens`` -> default, from the server's dataclasses."""
    obj = Settings() if obj is None else obj
    flat: dict[str, Any] = {}
    for field in dataclasses.fields(obj):
        value = getattr(obj, field.name)
        key = f"{prefix}.{camel(field.name)}"
        if dataclasses.is_dataclass(value):
            flat.update(server_defaults(value, key))
        else:
            flat[key] = value
    return flat


def test_every_server_setting_is_contributed_with_its_default() -> None:
    settings = contributed()
    for key, default in server_defaults().items():
        assert key in settings, f"{key} missing from package.json"
        assert settings[key]["default"] == default, key
        spec = settings[key]
        assert spec.get("description") or spec.get("markdownDescription"), key
        assert spec.get("scope"), key


def test_no_setting_the_server_would_reject() -> None:
    ours = {k for k in contributed() if k.startswith(SECTION + ".")}
    assert ours == set(server_defaults())


def test_metric_choices_are_the_registry() -> None:
    assert sorted(contributed()["amrcheck.metric"]["enum"]) == sorted(metric_names())


def test_client_settings_and_commands() -> None:
    settings = contributed()
    assert settings["amr.server.python"]["default"] == ""
    assert settings["amr.trace.server"]["enum"] == ["off", "messages", "verbose"]
    commands = {c["command"]: c["title"] for c in manifest()["contributes"]["commands"]}
    assert commands["amr.compareWithReference"] == "Compare with reference…"
    assert commands["amr.showDiff"] == "Show diff against reference"
    assert commands["amr.restartServer"] == "Restart server"


def test_language_and_activation() -> None:
    data = manifest()
    assert data["activationEvents"] == ["onLanguage:amr", "onLanguage:umr"]
    language, umr = data["contributes"]["languages"]
    assert language["id"] == "amr"
    assert set(language["extensions"]) == {".amr", ".penman"}
    # issue 30: UMR files, and UMR text that starts as the release's files do
    assert umr["id"] == "umr"
    assert umr["extensions"] == [".umr"]
    first_line = re.compile(umr["firstLine"])
    release = data_path("umr") / "english_umr-0003.umr"
    assert first_line.match(release.read_text(encoding="utf-8").split("\n")[0])
    assert first_line.match("# :: snt1")
    assert not first_line.match("# ::id lpp_1943.1")
    grammars = {g["language"]: g["scopeName"] for g in data["contributes"]["grammars"]}
    assert grammars == {"amr": "source.amr", "umr": "source.umr"}


def test_the_client_serves_umr() -> None:
    source = (EXTENSION / "src" / "server.ts").read_text(encoding="utf-8")
    assert '{ scheme: "file", language: "umr" }' in source


def test_restricted_mode_ignores_the_settings_that_run_or_read_things() -> None:
    # issue 20: a cloned repository's .vscode/settings.json must not choose the
    # program that runs, nor let headers or options read outside the workspace
    untrusted = manifest()["capabilities"]["untrustedWorkspaces"]
    assert untrusted["supported"] == "limited"
    restricted = set(untrusted["restrictedConfigurations"])
    assert restricted == {
        "amr.server.python",
        "amrcheck.references",
        "amrcheck.allowedReferencePaths",
        "amrcheck.metricOptions",
        "amrcheck.maxReferenceMegabytes",
        "amrcheck.similar.index",
    }
    assert restricted <= set(contributed())


def test_reading_limits_are_settings() -> None:
    settings = contributed()
    assert settings["amrcheck.allowedReferencePaths"]["items"] == {"type": "string"}
    assert settings["amrcheck.maxReferenceMegabytes"]["minimum"] == 1


def test_show_graph_command() -> None:
    contributes = manifest()["contributes"]
    commands = {c["command"]: c for c in contributes["commands"]}
    assert commands["amr.showGraph"]["title"] == "Show graph"
    assert commands["amr.showGraph"]["category"] == "AMR"
    palette = {m["command"]: m["when"] for m in contributes["menus"]["commandPalette"]}
    # UMR sentence graphs too (with their aligned words, issue 31)
    assert palette["amr.showGraph"] == "editorLangId == amr || editorLangId == umr"
    title = {m["command"]: m["when"] for m in contributes["menus"]["editor/title"]}
    assert title["amr.showGraph"] == "resourceLangId == amr || resourceLangId == umr"


def test_choices_are_the_server_s_issue_22() -> None:
    hints = get_type_hints(Settings)
    for name in ("diff_diagnostics", "format_style"):
        key = f"{SECTION}.{camel(name)}"
        assert contributed()[key]["enum"] == list(get_args(hints[name])), key


def test_scores_at_a_glance_contributions() -> None:
    # issue 22: a key to the next graph below the threshold, a view of the
    # graphs by score
    contributes = manifest()["contributes"]
    commands = {c["command"]: c for c in contributes["commands"]}
    assert commands["amr.goToNextLowScore"]["category"] == "AMR"
    (binding,) = [
        k for k in contributes["keybindings"] if k["command"] == "amr.goToNextLowScore"
    ]
    # Alt+F8 and Shift+Alt+F8 are VS Code's next/previous problem in the file
    assert binding["key"] == "ctrl+f8"
    assert binding["when"] == "editorLangId == amr"
    (view,) = contributes["views"]["explorer"]
    source = (EXTENSION / "src" / "graphScores.ts").read_text(encoding="utf-8")
    assert f'GRAPH_SCORES_VIEW = "{view["id"]}"' in source
    assert 'REVEAL_GRAPH_COMMAND = "amr.revealGraph"' in source
    palette = {m["command"]: m["when"] for m in contributes["menus"]["commandPalette"]}
    # it needs a graph's place: only the view's items run it
    assert palette["amr.revealGraph"] == "false"
