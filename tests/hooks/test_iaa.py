"""``amr-iaa``: agreement between annotators' versions of the same file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from amrcheck.hooks.iaa import main
from tests.broken import CANDIDATE, METRICS, REFERENCE, broken_candidate, metric_options
from tests.hooks.conftest import CONFIG, put


@pytest.mark.parametrize(
    ("files", "thresholds", "expected_retval"),
    [
        (["annotator1/toy.amr"], "min-mean-f1 = 0.75", 0),  # mean 0.7825
        (["annotator2/toy.amr"], "min-mean-f1 = 0.75", 0),
        (["annotator1/toy.amr"], "min-mean-f1 = 0.8", 1),
        (["annotator1/toy.amr"], "min-graph-f1 = 0.5", 0),  # lowest 0.5714
        (["annotator1/toy.amr"], "min-graph-f1 = 0.6", 1),
        (["gold/ch1.amr", "parser/ch1.amr"], "min-mean-f1 = 1", 0),  # no group
        ([], "min-mean-f1 = 1", 0),
    ],
)
def test_thresholds(
    annotation_repo: Path, files: list[str], thresholds: str, expected_retval: int
) -> None:
    config = CONFIG.split("[[iaa]]")[0] + (
        '[[iaa]]\nfiles = ["annotator1/{doc}.amr", "annotator2/{doc}.amr"]\n'
        f"{thresholds}\n"
    )
    (annotation_repo / ".amrcheck.toml").write_text(config)
    assert main(files) == expected_retval


def test_disagreements_are_listed(annotation_repo: Path, capsys) -> None:
    (annotation_repo / ".amrcheck.toml").write_text(
        CONFIG.replace("min-graph-f1 = 0.5", "min-graph-f1 = 0.6").replace(
            "min-mean-f1 = 0.75", "min-mean-f1 = 0.8"
        )
    )
    assert main(["annotator1/toy.amr", "annotator2/toy.amr"]) == 1
    lines = capsys.readouterr().out.splitlines()
    pair = "annotator1/toy.amr vs annotator2/toy.amr"
    # both files were staged: the pair is scored once
    assert [line for line in lines if line.startswith(pair)] == [
        f"{pair}: min-graph-f1: 1 of 4 graphs have smatch F1 below 0.6",
        f"{pair}: min-mean-f1: mean smatch F1 0.7825 over 4 graphs is below 0.8",
    ]
    assert lines[1:3] == [
        "  annotator2/toy.amr:39:1: graph sentence 5 is only in annotator2/toy.amr "
        "(not compared)",
        "  annotator2/toy.amr:51:1: graph sentence 6 is only in annotator2/toy.amr "
        "(not compared)",
    ]
    assert lines[3] == "annotator2/toy.amr:24:1: graph sentence 3: smatch F1 0.5714"
    assert (
        "  annotator1/toy.amr:27:5: only in annotator1/toy.amr: (t / touch-03)" in lines
    )
    assert (
        "  annotator2/toy.amr:24:2: only in annotator2/toy.amr: (t / touch-01)" in lines
    )
    assert "  annotator1/toy.amr:16:17: only in annotator1/toy.amr: (n / neg)" in lines
    assert (
        "  annotator2/toy.amr:15:5: only in annotator2/toy.amr: (p :polarity -)"
        in lines
    )


def test_identical_annotations_agree(annotation_repo: Path) -> None:
    put(annotation_repo, "annotator2/toy.amr", "annotator1.amr")
    (annotation_repo / ".amrcheck.toml").write_text(
        CONFIG.replace("min-mean-f1 = 0.75", "min-mean-f1 = 1")
    )
    assert main(["annotator2/toy.amr"]) == 0


def test_second_annotation_not_there_yet(annotation_repo: Path) -> None:
    (annotation_repo / "annotator1/new.amr").write_text("(c / chapter)\n")
    assert main(["annotator1/new.amr"]) == 0


def test_three_annotators(annotation_repo: Path, capsys) -> None:
    (annotation_repo / "annotator3").mkdir()
    put(annotation_repo, "annotator3/toy.amr", "annotator1.amr")
    (annotation_repo / ".amrcheck.toml").write_text(
        '[[iaa]]\nfiles = ["annotator1/{d}.amr", "annotator2/{d}.amr", '
        '"annotator3/{d}.amr"]\nmin-mean-f1 = 0.8\n'
    )
    assert main(["annotator3/toy.amr"]) == 1
    out = capsys.readouterr().out
    # annotator3 agrees with annotator1 (same file) but not with annotator2
    assert "annotator2/toy.amr vs annotator3/toy.amr: min-mean-f1:" in out
    assert "annotator1/toy.amr vs annotator3/toy.amr" not in out


def test_syntax_errors_are_named(annotation_repo: Path, capsys) -> None:
    put(annotation_repo, "annotator2/toy.amr", "broken.amr")
    put(annotation_repo, "annotator1/toy.amr", "parse_good.amr")
    # the other graphs agree, but the broken one counts as F1 0 (issue 21)
    assert main(["annotator2/toy.amr"]) == 1
    assert (
        "annotator2/toy.amr:31:43: graph lpp_1943.3: smatch F1 0.0000: cannot be "
        "read (E001 unbalanced parentheses: 1 '(' not closed): counted as an empty "
        "graph" in capsys.readouterr().out
    )
    (annotation_repo / ".amrcheck.toml").write_text(
        CONFIG.replace("min-graph-f1 = 0.5", "min-graph-f1 = 1")
    )
    put(annotation_repo, "annotator1/toy.amr", "gold.amr")
    assert main(["annotator2/toy.amr"]) == 1
    assert "E001 unbalanced parentheses" in capsys.readouterr().out


def test_no_group_is_a_configuration_error(tmp_path: Path, monkeypatch, capsys) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / "pyproject.toml").write_text("[tool.amrcheck]\nmetric = 'smatch'\n")
    monkeypatch.chdir(tmp_path)
    assert main(["a.amr"]) == 2
    assert capsys.readouterr().err == (
        "amr-iaa: error: pyproject.toml [tool.amrcheck] sets up no "
        "[[tool.amrcheck.iaa]] "
        "group (see docs/hooks.md)\n"
    )


@pytest.mark.parametrize("name", METRICS)
def test_a_broken_graph_lowers_agreement_with_every_metric_issue_21(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    """The iaa gates take the configured metric: with each, an annotator
    whose graph cannot be read agrees less, and the graph's own line says
    F1 0."""
    (tmp_path / ".git").mkdir()
    for folder in ("a", "b"):
        (tmp_path / folder).mkdir()
    (tmp_path / "a" / "x.amr").write_text(REFERENCE)
    options = ", ".join(
        f"{key} = {json.dumps(value)}"
        for key, value in metric_options(name, tmp_path).items()
    )
    (tmp_path / ".amrcheck.toml").write_text(
        f'metric = "{name}"\nmetric-options = {{ {options} }}\n'
        '[[iaa]]\nfiles = ["a/{d}.amr", "b/{d}.amr"]\nmin-mean-f1 = 1\n'
    )
    monkeypatch.chdir(tmp_path)
    mean = {}
    broken = broken_candidate()
    for version, text in (("whole", CANDIDATE), ("broken", broken)):
        (tmp_path / "b" / "x.amr").write_text(text)
        assert main(["b/x.amr"]) == 1
        lines = capsys.readouterr().out.splitlines()
        (line,) = [x for x in lines if ": min-mean-f1: " in x]
        mean[version] = float(line.split(" F1 ")[1].split()[0])
    assert mean["broken"] < mean["whole"]
    assert any(
        line.startswith(f"b/x.amr:2:47: graph g0: {name} F1 0.0000: cannot be read")
        for line in lines
    ), lines
