"""``amr-regress`` with a search budget (issue 35): a graph whose alignment
the budget cut says so beside its score."""

from __future__ import annotations

from pathlib import Path

from amrcheck.hooks.regress import main
from amrcheck.workflows.gates import CUT_REMARK
from tests.hooks.conftest import CONFIG

LARGE = Path(__file__).resolve().parents[1] / "data" / "large"


def test_a_cut_graph_says_so(annotation_repo: Path, capsys) -> None:
    """A document (40 sentences joined) under a budget already spent when
    its search starts: cut, and the failing graph's line says so."""
    (annotation_repo / ".amrcheck.toml").write_text(
        "[metric-options]\ntime_budget = 1e-9\n\n" + CONFIG
    )
    for side, suffix in (("gold", "ref"), ("parser", "cand")):
        text = (LARGE / f"little_prince_40_joined.{suffix}.amr").read_text()
        (annotation_repo / side / "document.amr").write_text(text)
    assert main(["parser/document.amr"]) == 1
    (graph,) = [
        line for line in capsys.readouterr().out.splitlines() if ": graph " in line
    ]
    assert graph.startswith("parser/document.amr:2:1: graph doc: smatch F1 0.")
    assert graph.endswith(CUT_REMARK)


def test_the_budget_is_checked_as_a_metric_option(
    annotation_repo: Path, capsys
) -> None:
    (annotation_repo / ".amrcheck.toml").write_text(
        "[metric-options]\ntime_budget = -1\n\n" + CONFIG
    )
    assert main(["parser/ch1.amr"]) == 2
    assert "time_budget must be > 0" in capsys.readouterr().err
