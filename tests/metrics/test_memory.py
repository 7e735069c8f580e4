"""Scoring keeps no memory per pair: a process that scores pair after pair
(``amrcheck score`` at 20k pairs, the language server all day) stays the
size it was after the first pairs.

Run on the compiled build too (``tests/test_compiled.py``): there, a
compiled function that takes a ``vec`` and is called through Python never
released the vector (mypyc 2.4 / librt 0.17), and smatch's search leaked
every pair's problem (~3.5 KB a pair; UMR's document level too) until
:mod:`amrcheck.metrics._align` called the search natively.
"""

from __future__ import annotations

import gc
import sys
from collections.abc import Callable
from functools import lru_cache

import pytest

from amrcheck.graph import Graph
from amrcheck.metrics import _align
from amrcheck.metrics.rematch import Rematch
from amrcheck.metrics.smatch import Smatch
from amrcheck.reading.corpus import read_corpus, read_string
from amrcheck.reading.umr import read_umr
from amrcheck.workflows.umr_score import score_document

from ..conftest import shared_path

#: pairs per round: a leak of one small block a pair shows as hundreds
PAIRS = 300


@pytest.fixture(autouse=True)
def _plain_search(monkeypatch: pytest.MonkeyPatch) -> None:
    # interpreted, a process loads numba's search after SWITCH_AFTER
    # alignments (a one-off ~30 MB): not what these tests look for
    monkeypatch.setattr(_align, "_plain_only", True)


@lru_cache(maxsize=1)
def _pairs() -> list[tuple[Graph, Graph]]:
    path = shared_path("little_prince/amr-bank-struct-v3.0.txt")
    graphs = [e.graph for e in read_corpus(path) if e.graph is not None]
    return list(zip(graphs[:PAIRS], graphs[1 : PAIRS + 1], strict=True))


def _assert_holds_no_memory(work: Callable[[], object]) -> None:
    """Memory blocks held after each of 4 rounds of ``work()`` do not grow
    after the second (the first fills the caches: label tables, lazily
    loaded resources)."""
    held = []
    for _ in range(4):
        work()
        gc.collect()
        held.append(sys.getallocatedblocks())
    # a leak of one block a pair adds PAIRS a round; allow stray noise
    assert held[-1] - held[1] < PAIRS // 10, held


@pytest.mark.parametrize(
    "metric",
    [Smatch(), Smatch(compat="smatch-1.0.4"), Rematch()],
    ids=["smatch", "smatch-1.0.4", "rematch"],
)
def test_scoring_pair_after_pair_holds_no_memory(metric: Smatch | Rematch) -> None:
    pairs = _pairs()

    def work() -> None:
        for candidate, reference in pairs:
            metric.score(candidate, reference)

    _assert_holds_no_memory(work)


def test_an_identical_pair_holds_no_memory() -> None:
    # one graph twice takes another path (the isomorphic proof, which
    # values the identity mapping)
    pairs = _pairs()
    metric = Smatch()

    def work() -> None:
        for graph, _ in pairs:
            metric.score(graph, graph)

    _assert_holds_no_memory(work)


def test_reading_holds_no_memory() -> None:
    text = "\n\n".join(candidate.text for candidate, _ in _pairs())

    def work() -> None:
        read_string(text)

    _assert_holds_no_memory(work)


def test_umr_document_scoring_holds_no_memory() -> None:
    # the document level aligns each sentence pair with smatch's search
    files = sorted(shared_path("umr/english").glob("*.umr"))[:12]
    documents = [read_umr(path) for path in files]

    def work() -> None:
        for reference, candidate in zip(documents[:-1], documents[1:], strict=True):
            score_document(reference, candidate)

    _assert_holds_no_memory(work)
