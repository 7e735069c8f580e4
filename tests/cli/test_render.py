"""``amrcheck render FILE [--id ID ...] -o OUT.svg|.png|.html``."""

from __future__ import annotations

from pathlib import Path
from xml.etree import ElementTree

import pytest
from typer.testing import CliRunner

import amrcheck.cli.render  # noqa: F401 (registers the command)
from amrcheck.cli import app
from amrcheck.render import INSTALL_HINT, expanded
from tests.conftest import REPO, data_path, shared_path
from tests.render.conftest import needs_dot

runner = CliRunner()
V1 = REPO / "examples" / "annotations_v1.amr"
ODD = data_path("render/odd.amr")
SVG = "{http://www.w3.org/2000/svg}"


def run(*args: str | Path):
    return runner.invoke(app, ["render", *map(str, args)])


def test_help_names_the_formats_and_options() -> None:
    result = run("--help")
    assert result.exit_code == 0
    for words in ("OUT.svg", "OUT.png", "OUT.html", "--id", "--jobs", "--quiet"):
        assert words in result.stdout


@needs_dot
def test_svg_of_chosen_graphs(tmp_path: Path) -> None:
    out = tmp_path / "two.svg"
    result = run(V1, "--id", "ex.3", "--id", "#1", "-o", out)
    assert result.exit_code == 0, result.output
    assert result.stderr.strip() == f"amrcheck render: 2 graphs drawn -> {out}"
    root = ElementTree.parse(out).getroot()
    ids = {g.get("id") for g in root.iter(f"{SVG}g")}
    assert {"g1-v:a", "g2-v:f", "g2-v:r"} <= ids  # ex.1's root, ex.3's nodes
    texts = {t.text for t in root.iter(f"{SVG}text")}
    assert "ex.3: Researchers quickly found the cause of the outage." in texts
    assert "ex.2: The girl wants to visit her grandmother in Lyon." not in texts


@needs_dot
def test_png(tmp_path: Path) -> None:
    out = tmp_path / "graph.png"
    result = run(V1, "--id", "ex.2", "-o", out, "-q")
    assert result.exit_code == 0, result.output
    assert result.stderr == ""
    data = out.read_bytes()
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    width, height = (int.from_bytes(data[at : at + 4], "big") for at in (16, 20))
    assert width > 200 and height > 200


@needs_dot
def test_html_of_a_file_with_a_broken_graph(tmp_path: Path) -> None:
    out = tmp_path / "odd.html"
    result = run(ODD, "-o", out)
    assert result.exit_code == 0, result.output
    # the error on stderr, and the graph shown as its text, never dropped
    error = f"{ODD}:17:29: E001 unbalanced parentheses: 1 '(' not closed"
    assert error in result.stderr
    assert "3 graphs drawn (1 as text: they do not parse)" in result.stderr
    html = expanded(out.read_text(encoding="utf-8"))
    assert html.count('<section class="pair"') == 3 and html.count("<svg") == 2
    assert "(w / want-01\n   :ARG0 (b / boy)" in html
    assert 'data-status="error"' in html


@needs_dot
def test_picture_of_a_broken_graph_is_its_text(tmp_path: Path) -> None:
    out = tmp_path / "broken.svg"
    result = run(ODD, "--id", "odd.2", "-o", out)
    assert result.exit_code == 0, result.output
    svg = out.read_text(encoding="utf-8")
    assert "E001 unbalanced parentheses" in svg and "want&#45;01" in svg


def test_unknown_id_and_format_are_usage_errors(tmp_path: Path) -> None:
    result = run(V1, "--id", "ex.9", "--id", "ex.1", "-o", tmp_path / "x.svg")
    assert result.exit_code == 2
    assert result.stderr.strip() == (
        f"amrcheck render: error: {V1}: no graph ex.9 "
        "(give a ::id, or #N for the N-th graph)"
    )
    result = run(V1, "-o", tmp_path / "x.pdf")
    assert result.exit_code == 2
    assert "write .svg, .png or .html" in result.stderr
    result = run(tmp_path / "missing.amr", "-o", tmp_path / "x.svg")
    assert result.exit_code == 2 and "missing.amr" in result.stderr
    assert not (tmp_path / "x.svg").exists()


def test_too_many_graphs_for_one_picture(tmp_path: Path) -> None:
    corpus = shared_path("little_prince/amr-bank-struct-v3.0.txt")
    result = run(corpus, "-o", tmp_path / "all.png")
    assert result.exit_code == 2
    assert "1562 graphs are too many for one picture (at most 100)" in result.stderr
    assert "or write .html" in result.stderr


def test_missing_graphviz_is_one_line_with_the_install(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    result = run(V1, "-o", tmp_path / "x.html")
    assert result.exit_code == 2
    assert result.stderr == (
        f"amrcheck render: error: Graphviz's 'dot' is not on PATH; {INSTALL_HINT}\n"
    )
    assert "Traceback" not in result.output


@needs_dot
def test_a_umr_file_draws_its_sentence_graphs_with_their_words(
    tmp_path: Path,
) -> None:
    # issue 31: a Czech file, non-ASCII variables; the document-level blocks
    # are not graphs to draw
    czech = data_path("umr/multilingual/czech.umr")
    out = tmp_path / "cs.svg"
    result = run(czech, "--id", "snt2", "-o", out)
    assert result.exit_code == 0, result.output
    assert result.stderr.strip() == f"amrcheck render: 1 graphs drawn -> {out}"
    texts = {t.text for t in ElementTree.parse(out).getroot().iter(f"{SVG}text")}
    assert {"snt2: Růst trápí vládu .", "1-1: Růst", "3-3: vládu", "s2ř"} <= texts
    page = tmp_path / "cs.html"
    result = run(czech, "-o", page)
    assert result.exit_code == 0, result.output
    html = expanded(page.read_text(encoding="utf-8"))
    assert "2-3: se zvýšily" in html and '<p class="words">' in html
    assert "<h1>UMR sentence graphs: " in html
    assert "E006" not in result.output
