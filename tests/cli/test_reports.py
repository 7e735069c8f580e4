"""The HTML reports of the CLI: ``diff OLD NEW --html REPORT`` and
``score REF CAND --html REPORT``."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

import amrcheck.cli.diff  # noqa: F401 (registers the command)
import amrcheck.cli.score  # noqa: F401 (registers the command)
from amrcheck.cli import app
from amrcheck.render import expanded
from tests.conftest import REPO, data_path
from tests.render.conftest import needs_dot, page_text

runner = CliRunner()
V1 = REPO / "examples" / "annotations_v1.amr"
V2 = REPO / "examples" / "annotations_v2.amr"
GOLD = data_path("lsp/gold/lpp.amr")
ANNOTATION = data_path("lsp/annotations/lpp.amr")
BROKEN = data_path("lsp/broken/malformed_gold.amr")

pytestmark = needs_dot


def sections(html: str) -> dict[str, str]:
    """Section id -> status."""
    found = re.findall(r'<section class="pair" id="(g\d+)" data-status="(\w+)"', html)
    return dict(found)


def test_diff_html_beside_the_text_report(tmp_path: Path) -> None:
    report = tmp_path / "diff.html"
    result = runner.invoke(app, ["diff", str(V1), str(V2), "--html", str(report)])
    assert result.exit_code == 1  # graphs changed, as without --html
    assert result.stdout.startswith(f"--- {V1}\n+++ {V2}\n")
    html = report.read_text(encoding="utf-8")
    assert list(sections(html).values()) == ["changed"] * 4 + ["added"]
    # paths relative to the working folder, the file once above its places
    text = page_text(html)
    assert "(a :polarity -)" in text and "new · examples/annotations_v2.amr" in text
    assert "7:17" in text and str(REPO) not in text
    # the legend in the roles of a diff
    assert "only in the old" in text and "only in the new" in text


def test_diff_html_with_a_flow_metric_links_n_to_m(tmp_path: Path) -> None:
    report = tmp_path / "diff.html"
    mini = data_path("vectors/glove-mini.50d.txt")
    result = runner.invoke(app, [
        "diff", str(V1), str(V2), "-m", "wwlk", "-o", f"vectors={mini}",
        "--html", str(report), "-q",
    ])
    assert result.exit_code == 1, result.output
    html = expanded(report.read_text(encoding="utf-8"))
    assert "wwlk " in html and "node flows of the metric" in html
    links = re.findall(r'data-links="([^"]*)"', html)
    assert any("0." in chunk for chunk in links)  # masses, not 1:1 weights


def test_diff_html_of_a_graph_that_does_not_parse(tmp_path: Path) -> None:
    report = tmp_path / "diff.html"
    result = runner.invoke(app, ["diff", str(GOLD), str(BROKEN), "--html", str(report)])
    assert result.exit_code == 1
    text = page_text(report.read_text(encoding="utf-8"))
    assert f"{BROKEN}:3:55: E001 unbalanced parentheses" in text
    assert "(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-02 :ARG0 b)" in text


def test_score_html_with_two_metrics(tmp_path: Path) -> None:
    report = tmp_path / "score.html"
    result = runner.invoke(app, [
        "score", str(GOLD), str(ANNOTATION), "-m", "smatch,rematch",
        "--html", str(report), "-q",
    ])
    assert result.exit_code == 0, result.output
    html = report.read_text(encoding="utf-8")
    # the identical pairs are rows of the table, drawn with --draw-all only
    assert list(sections(html).values()) == ["different"] * 3
    statuses = re.findall(r'<tr data-status="(\w+)"', html)
    assert statuses.count("different") == 3 and statuses.count("identical") == 5
    assert "<th>smatch</th><th>rematch</th>" in html
    text = page_text(html)
    assert "only in the reference" in text and "only in the candidate" in text
    assert "(old)" not in text and "(new)" not in text
    result = runner.invoke(app, [
        "score", str(GOLD), str(ANNOTATION), "--html", str(report), "-q",
        "--draw-all",
    ])
    assert result.exit_code == 0, result.output
    statuses = list(sections(report.read_text(encoding="utf-8")).values())
    assert statuses.count("different") == 3 and statuses.count("identical") == 5


def test_score_html_drawn_with_smatch_for_a_motif_metric(tmp_path: Path) -> None:
    report = tmp_path / "score.html"
    result = runner.invoke(app, [
        "score", str(GOLD), str(ANNOTATION), "-m", "rematch", "--html", str(report),
        "-q",
    ])
    assert result.exit_code == 0, result.output
    html = expanded(report.read_text(encoding="utf-8"))
    assert "(drawn with smatch&#x27;s alignment)" in html
    assert "motifs of the metric" in html


def test_score_html_summary_counts_a_pair_the_time_budget_cut(tmp_path: Path) -> None:
    large = REPO / "tests" / "data" / "large"
    report = tmp_path / "score.html"
    result = runner.invoke(app, [
        "score", str(large / "little_prince_40_joined.ref.amr"),
        str(large / "little_prince_40_joined.cand.amr"),
        "--time-budget", "0.000001", "--html", str(report), "-q",
    ])
    assert result.exit_code == 0, result.output
    text = page_text(report.read_text(encoding="utf-8"))
    assert (
        "over 1 pairs; 0/1 pairs proven optimal, 1 cut by the time budget "
        "(best alignment found kept)"
    ) in text


def test_score_html_summary_says_pairs_were_proven_optimal(tmp_path: Path) -> None:
    report = tmp_path / "score.html"
    result = runner.invoke(
        app,  # no budget: nothing can be cut, whatever the machine's load
        ["score", str(GOLD), str(ANNOTATION), "--time-budget", "0", "--html",
         str(report), "-q"],
    )
    assert result.exit_code == 0, result.output
    text = page_text(report.read_text(encoding="utf-8"))
    assert "over 8 pairs; 8/8 pairs proven optimal, 0 cut by the time budget\n" in text


def test_report_without_graphviz_fails_cleanly(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    report = tmp_path / "diff.html"
    result = runner.invoke(app, ["diff", str(V1), str(V2), "--html", str(report)])
    assert result.exit_code == 2
    assert result.stderr.strip().endswith("apt-get install graphviz (Debian/Ubuntu), "
                                          "brew install graphviz (macOS), or see "
                                          "https://graphviz.org/download/")
    assert "Traceback" not in result.output and not report.exists()
