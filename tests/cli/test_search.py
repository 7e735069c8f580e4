"""``amrcheck index`` and ``amrcheck search``: output, JSON, re-ranking, refusals."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import pytest
from typer.testing import CliRunner

import amrcheck.cli.index  # noqa: F401 (registers the command)
import amrcheck.cli.search  # noqa: F401
from amrcheck.cli import app
from amrcheck.metrics import get_metric
from amrcheck.reading.corpus import read_corpus
from amrcheck.search import Index
from tests.conftest import REPO, shared_path

runner = CliRunner()
LPP = shared_path("little_prince/amr-bank-struct-v3.0.txt")
V1, V2 = (
    REPO / "examples" / "annotations_v1.amr",
    REPO / "examples" / "annotations_v2.amr",
)


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("cli") / "corpus.idx"
    result = runner.invoke(app, ["index", str(LPP), str(V1), "-o", str(path)])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith(f"{path}: 1567 graphs of 2 file(s) by wlk (cosine)")
    return path


def test_index_leaves_broken_graphs_out_and_says_where(tmp_path: Path) -> None:
    broken = tmp_path / "broken.amr"
    broken.write_text("(a / a-01 :ARG0 (b / b))\n\n(c / c :ARG0 (d / d)\n\n(e / e)\n")
    out = tmp_path / "b.idx"
    result = runner.invoke(app, ["index", str(broken), "-o", str(out), "--json"])
    assert result.exit_code == 0
    report = json.loads(result.stdout)
    assert report["graphs"] == 2 and len(report["skipped"]) == 1
    assert report["skipped"][0].startswith(f"{broken}:3:")
    assert report["skipped"][0] in result.stderr
    assert (
        "warning: 1 syntax error(s); the graphs concerned are left out" in result.stderr
    )
    assert len(Index.load(out)) == 2


def test_index_refuses_a_metric_without_vectors(tmp_path: Path) -> None:
    result = runner.invoke(
        app, ["index", str(V1), "-o", str(tmp_path / "x.idx"), "--metric", "smatch"]
    )
    assert result.exit_code == 2
    assert "metric 'smatch' has no per-graph vectors" in result.stderr
    assert not (tmp_path / "x.idx").exists()


def test_search_json_lists_hits_with_places_and_scores(index: Path) -> None:
    result = runner.invoke(app, ["search", str(index), str(V2), "--top", "3", "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["metric"] == "wlk" and report["rerank"] is None
    queries = {e.id: e.graph for e in read_corpus(V2)}
    assert [q["query"]["id"] for q in report["queries"]] == list(queries)
    wlk = get_metric("wlk")
    first = report["queries"][0]
    assert [h["rank"] for h in first["hits"]] == [1, 2, 3]
    best = first["hits"][0]
    # the earlier version of the same annotation comes first
    assert (best["id"], best["line"], best["path"]) == (
        "ex.1",
        6,
        "examples/annotations_v1.amr",
    )
    v1 = {e.id: e.graph for e in read_corpus(V1)}
    assert best["score"] == pytest.approx(wlk.score(queries["ex.1"], v1["ex.1"]).f1)
    assert best["snt"] == "The committee did not approve the budget."


def test_rerank_by_smatch_explains_each_hit(index: Path) -> None:
    result = runner.invoke(
        app, ["search", str(index), str(V2), "-k", "2", "--rerank", "smatch", "--json"]
    )
    assert result.exit_code == 0, result.output
    hit = json.loads(result.stdout)["queries"][0]["hits"][0]
    rerank = hit["rerank"]
    v1 = {e.id: e.graph for e in read_corpus(V1)}
    v2 = {e.id: e.graph for e in read_corpus(V2)}
    expected = get_metric("smatch").score(v1["ex.1"], v2["ex.1"])
    assert rerank["f1"] == pytest.approx(expected.f1)
    # v2 added the negation: the precedent lacks it, with its place in the query
    assert rerank["missing"] == [{"triple": "(a :polarity -)", "line": 7, "column": 17}]
    assert rerank["extra"] == []
    text = runner.invoke(
        app, ["search", str(index), str(V2), "-k", "1", "--rerank", "smatch"]
    )
    assert "- 7:17  (a :polarity -)" in text.stdout


def test_duplicates_lists_pairs_above_the_threshold(index: Path) -> None:
    result = runner.invoke(
        app, ["search", str(index), "--duplicates", "--min-score", "0.99", "--json"]
    )
    assert result.exit_code == 0, result.output
    pairs = json.loads(result.stdout)["pairs"]
    assert pairs and all(p["score"] >= 0.99 for p in pairs)
    wlk = get_metric("wlk")
    graphs = {
        (str(LPP.resolve()), e.graph.span.line): e.graph
        for e in read_corpus(LPP)
        if e.graph
    }
    for pair in pairs[:10]:
        a = graphs[(pair["a"]["path"], pair["a"]["line"])]
        b = graphs[(pair["b"]["path"], pair["b"]["line"])]
        assert wlk.score(a, b).f1 == pytest.approx(pair["score"])


def test_an_index_of_another_version_is_one_line_and_exit_2(
    index: Path, tmp_path: Path
) -> None:
    old = tmp_path / "old.idx"
    with zipfile.ZipFile(index) as source, zipfile.ZipFile(old, "w") as target:
        for item in source.infolist():
            data = source.read(item)
            if item.filename == "manifest.json":
                data = json.dumps({**json.loads(data), "amrcheck": "0.0.9"}).encode()
            target.writestr(item, data)
    result = runner.invoke(app, ["search", str(old), str(V2)])
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [
        f"amrcheck search: error: {old} was built by amrcheck 0.0.9, this is "
        "amrcheck 0.1.0: rebuild it with 'amrcheck index'"
    ]


def test_an_index_of_another_metric_is_refused(index: Path) -> None:
    result = runner.invoke(app, ["search", str(index), str(V2), "--metric", "rematch"])
    assert result.exit_code == 2
    assert "was built with wlk" in result.stderr
    assert "rebuild it with 'amrcheck index --metric rematch'" in result.stderr


def test_query_and_duplicates_exclude_each_other(index: Path) -> None:
    both = runner.invoke(app, ["search", str(index), str(V2), "--duplicates"])
    neither = runner.invoke(app, ["search", str(index)])
    for result in (both, neither):
        assert result.exit_code == 2
        assert "give QUERY.amr, or --duplicates (not both)" in result.stderr
