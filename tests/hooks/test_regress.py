"""``amr-regress``: scores against the gold file, the baseline and HEAD."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from amrcheck.hooks.regress import main
from amrcheck.metrics import metric_names, resolve
from amrcheck.reading.corpus import read_corpus
from tests.broken import CANDIDATE, METRICS, REFERENCE, broken_candidate, metric_options
from tests.hooks.conftest import CONFIG, git, make_repo, put
from tests.rewrite import Rewrite, rewrite


@pytest.mark.parametrize(
    ("fixture", "expected_retval"),
    [
        ("parse_good.amr", 0),  # as recorded in the baseline
        ("gold.amr", 0),  # better than the baseline
        ("parse_regressed.amr", 1),
        ("broken.amr", 1),
    ],
)
def test_parser_output_against_gold(
    annotation_repo: Path, fixture: str, expected_retval: int
) -> None:
    put(annotation_repo, "parser/ch1.amr", fixture)
    assert main(["parser/ch1.amr"]) == expected_retval


def test_regression_names_thresholds_graphs_and_triples(
    annotation_repo: Path, capsys
) -> None:
    put(annotation_repo, "parser/ch1.amr", "parse_regressed.amr")
    assert main(["parser/ch1.amr"]) == 1
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[0] == (
        "parser/ch1.amr: min-f1: smatch F1 0.9221 is below 0.95 "
        "(5 graphs against gold/ch1.amr)"
    )
    # the graphs that got worse than their baseline score, worst first
    graphs = [line for line in lines if ": graph " in line]
    assert graphs == [
        "parser/ch1.amr:46:1: graph lpp_1943.5: smatch F1 0.8500 (baseline 1.0000)",
        "parser/ch1.amr:26:1: graph lpp_1943.3: smatch F1 0.9167 (baseline 1.0000)",
        "parser/ch1.amr:36:1: graph lpp_1943.4: smatch F1 0.9167 (baseline 1.0000)",
    ]
    # each with the triples that got worse, where they are written
    assert "  gold/ch1.amr:31:12: missing from parser/ch1.amr: (b2 :ARG0-of s)" in lines
    assert "  parser/ch1.amr:30:12: not in gold/ch1.amr: (b2 :ARG1-of s)" in lines
    assert "  parser/ch1.amr:41:14: not in gold/ch1.amr: (h / there)" in lines
    assert (
        "parser/ch1.amr: max-drop: smatch F1 0.9221 is 0.0649 below the baseline "
        "0.9870 (.amrcheck-baseline.json); at most 0.01 allowed "
        "(5 graphs against gold/ch1.amr)"
    ) in lines
    assert "(3 graphs listed above)" in lines  # not listed twice


def test_show_limits_the_graphs_listed(annotation_repo: Path, capsys) -> None:
    put(annotation_repo, "parser/ch1.amr", "parse_regressed.amr")
    assert main(["--show", "1", "parser/ch1.amr"]) == 1
    out = capsys.readouterr().out
    # one per failure: min-f1 lists the worst, max-drop the next one
    assert out.count(": graph ") == 2
    assert "... and 2 more graphs (--show 0 lists all)" in out


def test_syntax_error_is_reported_with_its_place(annotation_repo: Path, capsys) -> None:
    put(annotation_repo, "parser/ch1.amr", "broken.amr")
    assert main(["parser/ch1.amr"]) == 1
    out = capsys.readouterr().out
    assert "parser/ch1.amr: syntax: 1 graph cannot be scored" in out
    assert (
        "  parser/ch1.amr:31:43: E001 unbalanced parentheses: 1 '(' not closed "
        "(graph lpp_1943.3)"
    ) in out


#: a baseline as amrcheck recorded it before issue 21 (same format and settings)
BASELINE_BEFORE_ISSUE_21 = {
    "version": 1,
    "metric": "smatch",
    "settings": {
        "compat": None, "exact": False, "restarts": 4, "root": "variable",
        "seed": 0, "standardization": "root=variable, set", "time_limit": 30.0,
    },
    "files": {
        "parser/ch1.amr": {
            "reference": "gold/ch1.amr",
            "f1": 0.987013,
            "graphs": {
                "lpp_1943.1": 1.0, "lpp_1943.2": 0.966667, "lpp_1943.3": 1.0,
                "lpp_1943.4": 1.0, "lpp_1943.5": 1.0,
            },
        }
    },
}  # fmt: skip


def test_a_broken_graph_fails_min_f1_and_max_drop_issue_21(
    annotation_repo: Path, capsys
) -> None:
    """The broken graph counts as F1 0 against the baseline recorded before:
    the file's score drops instead of rising (it rose to 1.0 when the graph
    was left out)."""
    (annotation_repo / ".amrcheck-baseline.json").write_text(
        json.dumps(BASELINE_BEFORE_ISSUE_21)
    )
    put(annotation_repo, "parser/ch1.amr", "broken.amr")
    assert main(["parser/ch1.amr"]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert (
        "parser/ch1.amr: min-f1: smatch F1 0.9014 is below 0.95 (5 graphs against "
        "gold/ch1.amr, 1 of them counted as empty graphs)"
    ) in lines
    assert (
        "parser/ch1.amr:31:43: graph lpp_1943.3: smatch F1 0.0000 (baseline 1.0000): "
        "cannot be read (E001 unbalanced parentheses: 1 '(' not closed): counted as "
        "an empty graph"
    ) in lines
    assert (
        "parser/ch1.amr: max-drop: smatch F1 0.9014 is 0.0856 below the baseline "
        "0.9870 (.amrcheck-baseline.json); at most 0.01 allowed (5 graphs against "
        "gold/ch1.amr, 1 of them counted as empty graphs)"
    ) in lines


def test_a_missing_graph_counts_as_an_empty_graph_issue_21(
    annotation_repo: Path, capsys
) -> None:
    parse = annotation_repo / "parser/ch1.amr"
    blocks = parse.read_text().strip().split("\n\n")
    parse.write_text("\n\n".join(blocks[:2] + blocks[3:]) + "\n")  # no lpp_1943.3
    assert main(["parser/ch1.amr"]) == 1
    out = capsys.readouterr().out
    assert "parser/ch1.amr: pairing: 1 graph without a counterpart" in out
    assert "min-f1: smatch F1 0.9014 is below 0.95" in out
    assert (
        "gold/ch1.amr:27:1: graph lpp_1943.3: smatch F1 0.0000 (baseline 1.0000): "
        "missing: counted as an empty graph"
    ) in out


@pytest.mark.parametrize("name", METRICS)
def test_a_broken_graph_lowers_every_metric_issue_21(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / "gold.amr").write_text(REFERENCE)
    options = ", ".join(
        f"{key} = {json.dumps(value)}"
        for key, value in metric_options(name, tmp_path).items()
    )
    (tmp_path / ".amrcheck.toml").write_text(
        f'metric = "{name}"\nmetric-options = {{ {options} }}\n'
        '[[regress.reference]]\nfiles = "{d}.parse.amr"\nreference = "gold.amr"\n'
        "min-f1 = 1\n"
    )
    monkeypatch.chdir(tmp_path)
    (tmp_path / "whole.parse.amr").write_text(CANDIDATE)
    (tmp_path / "broken.parse.amr").write_text(broken_candidate())
    f1 = {}
    for stem in ("whole", "broken"):
        assert main([f"{stem}.parse.amr"]) == 1
        first = capsys.readouterr().out.splitlines()
        (line,) = [x for x in first if ": min-f1: " in x]
        f1[stem] = float(line.split(" F1 ")[1].split()[0])
    assert f1["broken"] < f1["whole"]
    # the broken graph's own line is there, with F1 0
    assert any(
        line.startswith(f"broken.parse.amr:2:47: graph g0: {name} F1 0.0000: ")
        for line in first
    ), first


def test_min_graph_f1(annotation_repo: Path, capsys) -> None:
    (annotation_repo / ".amrcheck.toml").write_text(
        CONFIG.replace("max-drop = 0.01", "max-drop = 0.01\nmin-graph-f1 = 0.99")
    )
    assert main(["parser/ch1.amr"]) == 1
    assert capsys.readouterr().out.splitlines()[:2] == [
        "parser/ch1.amr: min-graph-f1: 1 of 5 graphs have smatch F1 below 0.99 "
        "against gold/ch1.amr",
        "parser/ch1.amr:10:1: graph lpp_1943.2: smatch F1 0.9667 (baseline 0.9667)",
    ]


def test_max_drop_needs_a_recorded_score(annotation_repo: Path, capsys) -> None:
    (annotation_repo / "parser/ch2.amr").write_text(
        (annotation_repo / "parser/ch1.amr").read_text()
    )
    (annotation_repo / "gold/ch2.amr").write_text(
        (annotation_repo / "gold/ch1.amr").read_text()
    )
    assert main(["parser/ch2.amr"]) == 1
    assert capsys.readouterr().out == (
        "parser/ch2.amr: max-drop: .amrcheck-baseline.json has no score for this "
        "file; run `amrcheck baseline parser/ch2.amr` and commit "
        ".amrcheck-baseline.json\n"
    )


def test_baseline_of_other_metric_settings_is_not_compared(
    annotation_repo: Path, capsys
) -> None:
    (annotation_repo / ".amrcheck.toml").write_text(
        'metric-options = { root = "concept" }\n' + CONFIG
    )
    assert main(["parser/ch1.amr"]) == 1
    out = capsys.readouterr().out
    assert out.startswith(
        "parser/ch1.amr: max-drop: .amrcheck-baseline.json was recorded"
    )
    assert "'root': 'variable'" in out and "'root': 'concept'" in out
    assert "run `amrcheck baseline` (all files)" in out


def test_missing_reference(annotation_repo: Path, capsys) -> None:
    (annotation_repo / "gold/ch1.amr").unlink()
    assert main(["parser/ch1.amr"]) == 1
    assert capsys.readouterr().out.startswith(
        "parser/ch1.amr: reference: cannot read its reference gold/ch1.amr "
        "(.amrcheck.toml: regress.reference[1]): gold/ch1.amr: No such file"
    )


def test_unpaired_graphs_fail(annotation_repo: Path, capsys) -> None:
    text = (annotation_repo / "parser/ch1.amr").read_text()
    (annotation_repo / "parser/ch1.amr").write_text(
        text.split("\n\n# ::id lpp_1943.5")[0]
    )
    assert main(["parser/ch1.amr"]) == 1
    out = capsys.readouterr().out
    assert (
        "parser/ch1.amr: pairing: 1 graph without a counterpart in the other file"
        in out
    )
    assert (
        "  gold/ch1.amr:47:1: graph lpp_1943.5 has no counterpart in parser/ch1.amr"
        in out
    )


def test_files_without_a_rule_are_skipped(annotation_repo: Path) -> None:
    assert main(["annotator1/toy.amr", "elsewhere.amr"]) == 0


# --- against HEAD -------------------------------------------------------------


def test_unchanged_and_small_edits_pass(annotation_repo: Path) -> None:
    assert main(["gold/ch1.amr"]) == 0
    gold = annotation_repo / "gold/ch1.amr"
    gold.write_text(gold.read_text().replace("(h / here)", "(h / there)"))
    assert main(["gold/ch1.amr"]) == 0  # one changed graph, F1 0.99 vs HEAD


def test_mass_edit_is_blocked(annotation_repo: Path, capsys) -> None:
    gold = annotation_repo / "gold/ch1.amr"
    gold.write_text(gold.read_text().replace(":ARG1 ", ":ARG2 "))
    assert main(["gold/ch1.amr"]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == (
        "gold/ch1.amr: max-changed-graphs: 4 graphs changed since HEAD; "
        "at most 1 allowed"
    )
    assert "  HEAD:gold/ch1.amr:40:19: removed since HEAD: (c :ARG1 p)" in lines
    assert "  gold/ch1.amr:40:19: added since HEAD: (c :ARG2 p)" in lines
    assert (
        "gold/ch1.amr: min-f1-vs-head: smatch F1 0.8974 against HEAD is below 0.97 "
        "(5 graphs compared)"
    ) in lines


def test_removed_graphs_count_added_ones_do_not(annotation_repo: Path, capsys) -> None:
    gold = annotation_repo / "gold/ch1.amr"
    blocks = gold.read_text().strip().split("\n\n")
    new = blocks[0].replace("lpp_1943.1 ", "lpp_1943.99 ")
    gold.write_text("\n\n".join([*blocks[2:], new, new.replace(".99", ".98")]) + "\n")
    assert main(["gold/ch1.amr"]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == (
        "gold/ch1.amr: max-changed-graphs: 2 graphs changed since HEAD "
        "(2 of them removed); 2 new graphs not counted; at most 1 allowed"
    )
    assert (
        "HEAD:gold/ch1.amr:4:1: graph lpp_1943.1: smatch F1 0.0000: removed since HEAD"
        in lines
    )
    # a removed graph counts as an empty graph against HEAD (issue 21)
    assert (
        "gold/ch1.amr: min-f1-vs-head: smatch F1 0.7213 against HEAD is below 0.97 "
        "(5 graphs compared, 2 of them counted as empty graphs)"
    ) in lines


def test_new_file_has_nothing_to_compare_with(annotation_repo: Path) -> None:
    (annotation_repo / "gold/ch2.amr").write_text("(c / chapter :mod 2)\n")
    assert main(["gold/ch2.amr"]) == 0


def test_head_from_a_subdirectory(annotation_repo: Path, monkeypatch) -> None:
    gold = annotation_repo / "gold/ch1.amr"
    gold.write_text(gold.read_text().replace(":ARG1 ", ":ARG2 "))
    monkeypatch.chdir(annotation_repo / "gold")
    assert main(["ch1.amr"]) == 1


def test_first_commit_passes(tmp_path: Path, monkeypatch) -> None:
    git(tmp_path, "init", "-q")
    (tmp_path / "gold").mkdir()
    (tmp_path / "gold/a.amr").write_text("(c / chapter)\n")
    (tmp_path / ".amrcheck.toml").write_text(
        '[[regress.head]]\nfiles = "gold/*.amr"\nmax-changed-graphs = 0\n'
    )
    monkeypatch.chdir(tmp_path)
    assert main(["gold/a.amr"]) == 0


# --- configuration ------------------------------------------------------------


def test_no_rules_is_a_configuration_error(tmp_path: Path, monkeypatch, capsys) -> None:
    (tmp_path / ".git").mkdir()
    monkeypatch.chdir(tmp_path)
    assert main(["a.amr"]) == 2
    assert capsys.readouterr().err == (
        "amr-regress: error: (no configuration file) sets up no "
        "[[tool.amrcheck.regress.reference]] or [[tool.amrcheck.regress.head]] rule "
        "(see docs/hooks.md)\n"
    )


def test_broken_baseline_is_a_configuration_error(
    annotation_repo: Path, capsys
) -> None:
    (annotation_repo / ".amrcheck-baseline.json").write_text(json.dumps({"version": 1}))
    assert main(["parser/ch1.amr"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(
        "amr-regress: error: .amrcheck-baseline.json: not a valid baseline file"
    )


def test_hook_never_writes(annotation_repo: Path) -> None:
    put(annotation_repo, "parser/ch1.amr", "parse_regressed.amr")
    gold = annotation_repo / "gold/ch1.amr"
    gold.write_text(gold.read_text().replace(":ARG1 ", ":ARG2 "))
    before = git(annotation_repo, "status", "--porcelain")
    main(["parser/ch1.amr", "gold/ch1.amr"])
    assert git(annotation_repo, "status", "--porcelain") == before


def _relaid(path: Path, how: Rewrite, seed: int) -> str:
    """``path``'s text with every graph written another way (``how``)."""
    text = path.read_text(encoding="utf-8")
    rng = random.Random(seed)
    for entry in read_corpus(path):
        assert entry.graph is not None
        text = text.replace(entry.graph.text, rewrite(entry.graph.text, how, rng), 1)
    return text


@pytest.mark.parametrize("how", ["shuffle", "relayout"])
@pytest.mark.parametrize(
    "metric", [m for m in metric_names() if resolve(m) == m]
)
def test_layout_only_commit_is_no_drop_with_any_metric_issue_24(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys, metric: str, how: Rewrite
) -> None:
    config = CONFIG.replace("[check]", f'metric = "{metric}"\n\n[check]').replace(
        "max-drop = 0.01", "max-drop = 0.0"
    ).replace("min-f1 = 0.95", "min-f1 = 0.0")
    repo = make_repo(tmp_path / f"annotations-{metric}", config)
    monkeypatch.chdir(repo)
    parses = repo / "parser" / "ch1.amr"
    parses.write_text(_relaid(parses, how, seed=24), encoding="utf-8")
    assert git(repo, "diff", "--stat")  # the layout did change
    assert main(["parser/ch1.amr"]) == 0, capsys.readouterr().out
