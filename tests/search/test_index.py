"""The similarity index: vectors equal to the metrics, search, duplicates, refusals."""

from __future__ import annotations

import json
import zipfile
from collections.abc import Sequence
from itertools import combinations
from pathlib import Path
from typing import Any, ClassVar

import numpy as np
import pytest

from amrcheck.errors import IndexFileError, MetricError
from amrcheck.execution import connect
from amrcheck.graph import Graph, TripleKind
from amrcheck.metrics import REGISTRY, Score, get_metric, register
from amrcheck.reading.corpus import read_corpus
from amrcheck.search import Index, build_index, vectors_for
from amrcheck.search.index import IndexedGraph
from amrcheck.search.vectors import cosine
from tests.conftest import shared_path
from tests.special_files import fifo, sparse_file

SRC = shared_path("bamboo/sts/main/src.dev.amr")
TGT = shared_path("bamboo/sts/main/tgt.dev.amr")
LPP = shared_path("little_prince/amr-bank-struct-v3.0.txt")


def _similarity(kind: str, a: dict[str, float], b: dict[str, float]) -> float:
    if kind == "cosine":
        return cosine(a, b)
    shared = len(a.keys() & b.keys())
    return shared / (len(a) + len(b) - shared) if shared else 0.0


@pytest.mark.parametrize("name", ["wlk", "rematch"])
def test_the_vectors_similarity_is_the_metrics_score(name: str) -> None:
    metric = get_metric(name)
    vectors = vectors_for(metric)
    pairs = list(zip(read_corpus(SRC), read_corpus(TGT), strict=True))[:400]
    for a, b in pairs:
        assert a.graph is not None and b.graph is not None
        ours = _similarity(
            vectors.similarity, vectors.features(a.graph), vectors.features(b.graph)
        )
        assert ours == pytest.approx(metric.score(a.graph, b.graph).f1, abs=1e-12)


def test_wlk_options_change_the_vectors() -> None:
    graph = next(iter(read_corpus(SRC))).graph
    assert graph is not None
    one = vectors_for(get_metric("wlk", iterations=1)).features(graph)
    two = vectors_for(get_metric("wlk")).features(graph)
    assert set(one) < set(two)


def test_a_metric_without_vectors_is_refused_by_name() -> None:
    with pytest.raises(
        MetricError, match="'smatch' has no per-graph vectors.*rematch, wlk"
    ):
        vectors_for(get_metric("smatch"))


@pytest.fixture(scope="module")
def lpp(tmp_path_factory: pytest.TempPathFactory) -> tuple[Index, Path]:
    path = tmp_path_factory.mktemp("index") / "lpp.idx"
    built = build_index([LPP], get_metric("wlk"))
    assert built.skipped == []
    built.index.save(path)
    return built.index, path


def test_hits_are_the_best_by_the_metric_and_survive_saving(
    lpp: tuple[Index, Path],
) -> None:
    index, path = lpp
    loaded = Index.load(path)
    assert len(loaded) == len(index) == 1562
    wlk = get_metric("wlk")
    graphs = [e.graph for e in read_corpus(LPP)]
    for number in (0, 17, 500, 1561):
        query = graphs[number]
        assert query is not None
        hits = loaded.search(query, top=5)
        assert hits == index.search(query, top=5)
        # the graph itself first, then the others, best first, scored by WLK
        assert hits[0].number == number and hits[0].score == pytest.approx(1.0)
        scores = [h.score for h in hits]
        assert scores == sorted(scores, reverse=True)
        for hit in hits:
            other = graphs[hit.number]
            assert other is not None and hit.graph.read().triples == other.triples
            assert hit.score == pytest.approx(wlk.score(query, other).f1, abs=1e-9)
        # leaving the query's own place out
        mine = index.graph(number)
        without = loaded.search(query, top=5, exclude=(mine.path, mine.line))
        assert number not in [h.number for h in without]


def test_every_exact_copy_is_found_as_a_duplicate(
    lpp: tuple[Index, Path], tmp_path: Path
) -> None:
    # 150 graphs, then 20 of them again under other ids
    corpus = list(read_corpus(LPP))[:150]
    copies = [e.text.replace("::id lpp", "::id copy") for e in corpus[::7][:20]]
    mixed = tmp_path / "mixed.amr"
    mixed.write_text("\n\n".join([e.text for e in corpus] + copies) + "\n")
    built = build_index([mixed], get_metric("wlk"))
    found = built.index.duplicates(0.9)
    # exact all-pairs by the metric itself
    graphs = [e.graph for e in read_corpus(mixed)]
    wlk = get_metric("wlk")
    expected = {
        (i, j)
        for i, j in combinations(range(len(graphs)), 2)
        if wlk.score(graphs[i], graphs[j]).f1 >= 0.9
    }
    numbers = {(g.line, g.column): n for n, g in enumerate(built.index.graphs)}
    got = {
        (
            numbers[(p.first.line, p.first.column)],
            numbers[(p.second.line, p.second.column)],
        )
        for p in found
    }
    assert got == expected and len(expected) >= 20
    scores = [p.score for p in found]
    assert scores == sorted(scores, reverse=True)


def test_duplicates_on_a_dask_cluster_equal_one_process(
    lpp: tuple[Index, Path],
) -> None:
    index, _ = lpp
    here = index.duplicates(0.95)
    with connect("local:2") as cluster:
        there = index.duplicates(0.95, jobs=cluster)
    assert there == here and len(here) > 10


def test_broken_graphs_are_left_out_with_their_places(tmp_path: Path) -> None:
    corpus = tmp_path / "broken.amr"
    corpus.write_text(
        "# ::id a\n(w / want-01 :ARG0 (b / boy))\n\n"
        "# ::id b\n(x / want-01 :ARG0 (y / girl)\n\n"
        "# ::id c\n(g / go-02 :ARG0 (b / boy))\n"
    )
    built = build_index([corpus], get_metric("wlk"))
    assert [g.id for g in built.index.graphs] == ["a", "c"]
    assert len(built.skipped) == 1
    assert built.skipped[0].startswith(f"{corpus}:5:")


def _rewrite_manifest(source: Path, target: Path, **changes: Any) -> None:
    with zipfile.ZipFile(source) as old, zipfile.ZipFile(target, "w") as new:
        for item in old.infolist():
            data = old.read(item)
            if item.filename == "manifest.json":
                data = json.dumps({**json.loads(data), **changes}).encode()
            new.writestr(item, data)


def test_an_index_of_another_version_or_format_is_refused(
    lpp: tuple[Index, Path], tmp_path: Path
) -> None:
    _, path = lpp
    old = tmp_path / "old.idx"
    _rewrite_manifest(path, old, amrcheck="0.0.9")
    with pytest.raises(IndexFileError) as caught:
        Index.load(old)
    assert str(caught.value) == (
        f"{old} was built by amrcheck 0.0.9, this is amrcheck 0.1.0: "
        "rebuild it with 'amrcheck index'"
    )
    _rewrite_manifest(path, old, format=99)
    with pytest.raises(
        IndexFileError, match="index format 99, this amrcheck reads format 1"
    ):
        Index.load(old)


def test_an_index_of_another_metric_is_refused(lpp: tuple[Index, Path]) -> None:
    _, path = lpp
    assert Index.load(path, get_metric("wlk")).metric == "wlk"
    with pytest.raises(IndexFileError) as caught:
        Index.load(path, get_metric("rematch"))
    assert "was built with wlk (iterations=2" in str(caught.value)
    assert "'amrcheck index --metric rematch'" in str(caught.value)
    with pytest.raises(IndexFileError, match="built with wlk \\(iterations=2"):
        Index.load(path, get_metric("wlk", iterations=3))


def test_what_is_not_an_index_is_said_so(tmp_path: Path) -> None:
    with pytest.raises(IndexFileError, match="no such index file"):
        Index.load(tmp_path / "missing.idx")
    text = tmp_path / "text.idx"
    text.write_text("(a / b)\n")
    with pytest.raises(IndexFileError, match="not an amrcheck index"):
        Index.load(text)


def test_an_index_is_read_like_any_input_issue_20(
    lpp: tuple[Index, Path], tmp_path: Path
) -> None:
    # the language server loads the index its settings name: never a FIFO, a
    # device or a file over the limit, and it says why in one line
    with fifo(tmp_path / "pipe.idx") as pipe:
        with pytest.raises(IndexFileError) as caught:
            Index.load(pipe.path)
        assert pipe.untouched()
    assert str(caught.value) == (
        f"{pipe.path}: not a regular file but a named pipe (FIFO); amrcheck "
        "reads regular files only"
    )
    with pytest.raises(IndexFileError, match="/dev/zero: not a regular file but a "
                       "character device"):
        Index.load("/dev/zero")
    with pytest.raises(IndexFileError, match="not a regular file but a directory"):
        Index.load(tmp_path)
    _, path = lpp
    size = path.stat().st_size
    with pytest.raises(IndexFileError, match=f"more than the {size - 1:,} bytes limit"):
        Index.load(path, max_bytes=size - 1)
    whole = Index.load(path, max_bytes=None)
    assert len(Index.load(path, max_bytes=size)) == len(whole)


def test_an_index_whose_parts_unpack_to_more_than_it_holds_is_refused(
    lpp: tuple[Index, Path], tmp_path: Path
) -> None:
    # a compressed "index" of 200 KB saying it holds 200 MB: refused from the
    # sizes the archive declares, before any part is unpacked
    bomb = tmp_path / "bomb.idx"
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("manifest.json", b"{" + b" " * 200_000_000 + b"}")
    with pytest.raises(IndexFileError) as caught:
        Index.load(bomb, max_bytes=None)
    assert str(caught.value) == (
        f"{bomb}: not an amrcheck index (its parts unpack to 200 MB, more than "
        f"the file's {bomb.stat().st_size:,} bytes)"
    )
    _, path = lpp  # a real index stores its parts as they are
    assert len(Index.load(path, max_bytes=None)) > 0


def test_an_indexed_graph_is_read_again_like_any_input(tmp_path: Path) -> None:
    # an index names files and byte ranges: whatever it says, only a regular
    # file is read, and no more than one block of it
    with fifo(tmp_path / "pipe.amr") as pipe:
        graph = IndexedGraph(str(pipe.path), 1, 1, 0, 100, "x", None)
        with pytest.raises(IndexFileError, match="not a regular file but a named pipe"):
            graph.read()
        assert pipe.untouched()
    big = sparse_file(tmp_path / "big.amr", 1000)
    for start, end in ((0, 10**12), (5, 1)):
        with pytest.raises(IndexFileError, match="not a graph's place"):
            IndexedGraph(str(big), 1, 1, start, end, "x", None).read()


class BagOfConcepts:
    """A test metric with dense embeddings: concept counts in 32 buckets."""

    name: ClassVar[str] = "test-bag"

    def embed(self, graphs: Sequence[Graph]) -> np.ndarray:
        rows = np.zeros((len(graphs), 32), dtype=np.float32)
        for row, graph in enumerate(graphs):
            for (_, _, concept), kind in zip(graph.triples, graph.kinds, strict=True):
                if kind is TripleKind.INSTANCE:
                    rows[row, sum(map(ord, concept)) % 32] += 1
        return rows

    def score(self, candidate: Graph, reference: Graph, explain: bool = False) -> Score:
        a, b = self.embed([candidate, reference])
        similarity = float(a @ b / (np.linalg.norm(a) * np.linalg.norm(b) or 1.0))
        return Score(f1=similarity)

    def aggregate(self, pairs: Sequence[Score]) -> Score:
        return Score(f1=sum(p.f1 for p in pairs) / max(1, len(pairs)))


@pytest.fixture
def bag_metric() -> Any:
    register("test-bag")(BagOfConcepts)
    yield get_metric("test-bag")
    del REGISTRY["test-bag"]


def test_a_metric_with_embeddings_plugs_in(bag_metric: Any, tmp_path: Path) -> None:
    built = build_index([SRC], bag_metric)
    assert built.index.manifest["vectors"]["kind"] == "embeddings"
    built.index.save(tmp_path / "bag.idx")
    index = Index.load(tmp_path / "bag.idx")
    query = next(iter(read_corpus(TGT))).graph
    assert query is not None
    hits = index.search(query, top=5)
    for hit in hits:
        expected = bag_metric.score(query, hit.graph.read()).f1
        assert hit.score == pytest.approx(expected, abs=1e-5)
