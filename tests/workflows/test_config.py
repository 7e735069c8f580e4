"""Configuration: discovery, path patterns, and errors that name file and key."""

from __future__ import annotations

from pathlib import Path

import pytest

from amrcheck.errors import ConfigError
from amrcheck.workflows.config import PathPattern, find_config, load_config

FULL = """\
[tool.amrcheck]
metric = "smatch"
metric-options = { root = "concept", restarts = 2 }

[tool.amrcheck.check]
select = "E,W1"
ignore = ["W101"]
fail-on = "warning"

[tool.amrcheck.regress]
baseline = "scores/baseline.json"

[[tool.amrcheck.regress.reference]]
files = "parses/{model}/{doc}.amr"
reference = "gold/{doc}.amr"
min_f1 = 0.7
max-drop = 0

[[tool.amrcheck.regress.head]]
files = "gold/**/*.amr"
max-changed-graphs = 10

[[tool.amrcheck.regress.head]]
files = "gold/*.umr"
min-layer-f1 = { temporal = 0.8 }

[[tool.amrcheck.iaa]]
files = ["a1/{doc}.amr", "a2/{doc}.amr"]
min-graph-f1 = 0.5
min-layer-f1 = { alignment = 0.9, coref = 1 }
"""


def test_every_key(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(FULL)
    config = load_config(tmp_path / "pyproject.toml")
    assert config.root == tmp_path.resolve()
    assert config.make_metric().settings()["root"] == "concept"
    assert config.check.select == ("E", "W1") and config.check.fail_on == "warning"
    assert config.baseline == "scores/baseline.json"
    (rule,) = config.references
    assert (rule.min_f1, rule.max_drop, rule.min_graph_f1) == (0.7, 0.0, None)
    assert rule.reference.format(rule.files.match("parses/amrbart/ch1.amr")) == (
        "gold/ch1.amr"
    )
    assert config.heads[0].files.match("gold/a/b/c.amr") == {}
    assert config.heads[0].files.match("gold/c.amr") == {}
    assert config.heads[0].files.match("gold/c.txt") is None
    assert [p.text for p in config.iaa[0].files] == ["a1/{doc}.amr", "a2/{doc}.amr"]
    assert config.iaa[0].min_layer_f1 == {"alignment": 0.9, "coref": 1.0}
    assert rule.min_layer_f1 == {}
    assert config.heads[0].min_layer_f1 == {}
    assert config.heads[1].min_layer_f1 == {"temporal": 0.8}


def test_discovery(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / "sub").mkdir()
    monkeypatch.chdir(tmp_path / "sub")
    assert find_config() is None
    assert load_config().path is None
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'x'\n")
    assert find_config() is None  # no [tool.amrcheck]
    (tmp_path / "pyproject.toml").write_text(FULL)
    assert find_config() == (tmp_path / "pyproject.toml").resolve()
    (tmp_path / ".amrcheck.toml").write_text("")
    assert find_config() == (tmp_path / ".amrcheck.toml").resolve()
    # paths are relative to the configuration's directory, not the current one
    assert load_config().relative("x.amr") == "sub/x.amr"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("metric = 'smatsch'", "metric: unknown metric 'smatsch'; choose one of:"),
        ("metric-options = { roots = 'x' }", "metric-options: metric 'smatch':"),
        ("[check]\nselect = 3", "check.select: expected a list of strings, got 3"),
        ("[regress]\nreference = 3", "regress.reference: expected an array of tables"),
        (
            "[[regress.reference]]\nfiles = 'p/{doc}.amr'\nmin-f1 = 0.5",
            "regress.reference[1]: missing key 'reference'",
        ),
        (
            "[[regress.reference]]\nfiles = 'p/{doc}.amr'\nreference = 'g/{name}.amr'\n"
            "min-f1 = 0.5",
            "regress.reference[1].reference: 'g/{name}.amr' uses {name}, which "
            "'p/{doc}.amr' does not define",
        ),
        (
            "[[regress.reference]]\nfiles = 'p/*.amr'\nreference = 'g/*.amr'\n"
            "min-f1 = 0.5",
            "regress.reference[1].reference: 'g/*.amr' names one file per match",
        ),
        (
            "[[regress.reference]]\nfiles = 'p/{doc}.amr'\nreference = 'g/{doc}.amr'\n"
            "min-f1 = 1.5",
            "regress.reference[1].min-f1: expected a number from 0 to 1, got 1.5",
        ),
        (
            "[[regress.reference]]\nfiles = 'p/{doc}.amr'\nreference = 'g/{doc}.amr'\n"
            "min_f1 = true",
            "regress.reference[1].min_f1: expected a number from 0 to 1, got True",
        ),
        (
            "[[regress.reference]]\nfiles = 'p/{doc}.amr'\nreference = 'g/{doc}.amr'",
            "regress.reference[1]: sets no threshold: add min-f1, max-drop, "
            "min-graph-f1 or min-layer-f1",
        ),
        (
            "[[regress.reference]]\nfiles = 'p/{doc}.umr'\nreference = 'g/{doc}.umr'\n"
            "min-layer-f1 = {alignment = 0.9, corref = 0.8}",
            "regress.reference[1].min-layer-f1: unknown key 'corref' "
            "(did you mean 'coref'?)",
        ),
        (
            "[[regress.reference]]\nfiles = 'p/{doc}.umr'\nreference = 'g/{doc}.umr'\n"
            "min-layer-f1 = {modal = 2}",
            "regress.reference[1].min-layer-f1.modal: expected a number from 0 to 1, "
            "got 2",
        ),
        (
            "[[regress.reference]]\nfiles = 'p/{doc}.umr'\nreference = 'g/{doc}.umr'\n"
            "min-layer-f1 = 0.9",
            "regress.reference[1].min-layer-f1: expected a table, got 0.9",
        ),
        (
            "[[iaa]]\nfiles = ['a/{doc}.umr', 'b/{doc}.umr']\nmin-layer-f1 = {}",
            "iaa[1].min-layer-f1: names no layer: use words, alignment, temporal, "
            "modal, coref",
        ),
        (
            "[[regress.reference]]\nfiles = 'p/{doc}.amr'\nreference = 'g/{doc}.amr'\n"
            "max-drop = 0.1\nmin-f1 = 0.1\nmin_f1 = 0.2",
            "regress.reference[1]: 'min-f1' and 'min_f1' are the same key",
        ),
        (
            "[[regress.head]]\nfiles = 'g/*.umr'",
            "regress.head[2]: sets no threshold: add max-changed-graphs, "
            "min-f1-vs-head or min-layer-f1",
        ),
        (
            "[[regress.head]]\nfiles = 'g/*.umr'\nmin-layer-f1 = {temporl = 0.8}",
            "regress.head[2].min-layer-f1: unknown key 'temporl' "
            "(did you mean 'temporal'?)",
        ),
        (
            "[[regress.head]]\nfiles = 'g/*.amr'\nmax-changed-graphs = 1.5",
            "regress.head[2].max-changed-graphs: expected a whole number >= 0, got 1.5",
        ),
        (
            "[[regress.head]]\nfiles = 'g/{x.amr'\nmax-changed-graphs = 1",
            "regress.head[2].files: unbalanced brace in 'g/{x.amr'",
        ),
        (
            "[[iaa]]\nfiles = ['a1/{doc}.amr']\nmin-mean-f1 = 0.5",
            "iaa[1].files: expected at least two patterns",
        ),
        (
            "[[iaa]]\nfiles = ['a1/*.amr', 'a2/*.amr']\nmin-mean-f1 = 0.5",
            "iaa[1].files: 'a1/*.amr': each pattern needs a {placeholder}",
        ),
        ("[[iaa]]\nfiles = ['a/{d}', 'b/{d}']\nmin-man-f1 = 0.5", "(did you mean"),
        (
            "[check]\nfail-on = 'error'\nwhatever = 1",
            "check: unknown key 'whatever' (valid keys: fail-on, ignore, select)",
        ),
        ("metric = ", "invalid TOML: "),
    ],
)
def test_errors_name_file_and_key(
    tmp_path: Path, monkeypatch, text: str, message: str
) -> None:
    monkeypatch.chdir(tmp_path)
    # a valid head rule first, so that positions in arrays are visible
    prefix = "[[regress.head]]\nfiles = 'x/*.amr'\nmax-changed-graphs = 1\n"
    body = prefix + text if "regress.head" in text else text
    (tmp_path / ".amrcheck.toml").write_text(body + "\n")
    with pytest.raises(ConfigError) as caught:
        load_config(".amrcheck.toml")
    assert str(caught.value).startswith(".amrcheck.toml: "), str(caught.value)
    assert message in str(caught.value)


def test_pyproject_keys_are_named_in_full(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pyproject.toml").write_text("[tool.amrcheck.check]\nfail-on = 1\n")
    with pytest.raises(
        ConfigError, match=r"^pyproject.toml: tool.amrcheck.check.fail-on"
    ):
        load_config("pyproject.toml")
    (tmp_path / "pyproject.toml").write_text("[project]\n")
    with pytest.raises(ConfigError, match="has no \\[tool.amrcheck\\] table"):
        load_config("pyproject.toml")


@pytest.mark.parametrize(
    ("pattern", "path", "expected"),
    [
        ("a/{doc}.amr", "a/x.amr", {"doc": "x"}),
        ("a/{doc}.amr", "a/b/x.amr", None),
        ("{who}/{doc}.amr", "ann1/x.y.amr", {"who": "ann1", "doc": "x.y"}),
        ("{d}/{d}.amr", "x/x.amr", {"d": "x"}),
        ("{d}/{d}.amr", "x/y.amr", None),
        ("**/*.amr", "x.amr", {}),
        ("**/*.amr", "a/b/x.amr", {}),
        ("a/?.amr", "a/x.amr", {}),
        ("a+b/(x).amr", "a+b/(x).amr", {}),
    ],
)
def test_path_patterns(
    pattern: str, path: str, expected: dict[str, str] | None
) -> None:
    assert PathPattern.parse(pattern).match(path) == expected
