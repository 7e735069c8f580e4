"""Issue 24: same graph, same score, for every registered metric's default mode.

A graph written differently — variables renamed, branches reordered, a
fresh layout (re-entrant nodes defined elsewhere, edges written inverted)
— is the same graph: it must score exactly 1.0 against the original, and
any pair must score exactly the same when both its graphs are rewritten.
The metrics come from the registry, so a new metric is covered as soon as
it is registered.
"""

from __future__ import annotations

import random
from functools import lru_cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from amrcheck.graph import Graph
from amrcheck.metrics import Metric, get_metric, metric_names, resolve, score_pairs
from amrcheck.reading.corpus import decode, read_corpus
from tests.conftest import SHARED_DATA
from tests.rewrite import REWRITES, Rewrite, rewrite

#: every registered metric under its own name (aliases resolve to one)
METRICS = [name for name in metric_names() if resolve(name) == name]
#: the same, the learned metric (an encoder on CPU, seconds a sweep) marked slow
METRIC_PARAMS = [
    pytest.param(name, marks=pytest.mark.slow) if name == "amrsim" else name
    for name in METRICS
]


@lru_cache(maxsize=None)
def metric(name: str) -> Metric:
    return get_metric(name)


@lru_cache(maxsize=1)
def corpus_texts() -> tuple[str, ...]:
    """Every distinct graph of the shipped corpora: Little Prince v3.0,
    Bio AMR dev and test, the BAMBOO dev graphs."""
    files = [
        SHARED_DATA / "little_prince" / "amr-bank-struct-v3.0.txt",
        *sorted((SHARED_DATA / "bio_amr").glob("amr-release-*-bio.txt")),
        *sorted(SHARED_DATA.glob("bamboo/*/*/*.dev.amr")),
    ]
    texts: dict[str, None] = {}
    for path in files:
        for entry in read_corpus(path):
            assert entry.graph is not None, f"{path}: {entry.errors}"
            texts.setdefault(entry.graph.text, None)
    return tuple(texts)


@lru_cache(maxsize=1)
def originals() -> tuple[Graph, ...]:
    return tuple(decode(text) for text in corpus_texts())


@lru_cache(maxsize=None)
def copies(how: Rewrite) -> tuple[Graph, ...]:
    rng = random.Random(f"issue-24-{how}")
    return tuple(decode(rewrite(text, how, rng)) for text in corpus_texts())


def test_the_corpora_are_all_there() -> None:
    assert len(corpus_texts()) > 14_000
    assert len(METRICS) >= 9


@pytest.mark.slow
@pytest.mark.parametrize("how", REWRITES)
@pytest.mark.parametrize("name", METRICS)
def test_every_corpus_graph_scores_one_against_its_rewrite(
    name: str, how: Rewrite
) -> None:
    pairs = list(zip(copies(how), originals(), strict=True))
    scores = score_pairs(metric(name), pairs)
    below = [
        (copy.text, score.f1)
        for (copy, _), score in zip(pairs, scores, strict=True)
        if score.f1 != 1.0
    ]
    assert below == [], f"{len(below)} of {len(pairs)}, first: {below[0]}"


@pytest.mark.parametrize("how", REWRITES)
@pytest.mark.parametrize("name", METRIC_PARAMS)
def test_pair_scores_do_not_change_when_both_graphs_are_rewritten(
    name: str, how: Rewrite
) -> None:
    rng = random.Random(7)
    total = len(corpus_texts())
    chosen = [tuple(rng.sample(range(total), 2)) for _ in range(300)]
    written = [(originals()[a], originals()[b]) for a, b in chosen]
    rewritten = [(copies(how)[a], copies(how)[b]) for a, b in chosen]
    half = [(copies(how)[a], originals()[b]) for a, b in chosen]
    expected = [s.f1 for s in score_pairs(metric(name), written)]
    assert [s.f1 for s in score_pairs(metric(name), rewritten)] == expected
    assert [s.f1 for s in score_pairs(metric(name), half)] == expected


# --- generated graphs ---------------------------------------------------------

_CONCEPTS = ["want-01", "go-02", "boy", "girl", "thing", "and"]
_ROLES = [":ARG0", ":ARG1", ":mod", ":op1", ":location", ":domain", ":part-of"]
_VALUES = ["-", "1", '"Paris"', "imperative"]


@st.composite
def _graph_texts(draw: st.DrawFn) -> str:
    """A connected PENMAN graph with re-entrancies, inverse roles and values."""
    import penman

    n = draw(st.integers(1, 8))
    triples = [
        (f"v{i}", ":instance", draw(st.sampled_from(_CONCEPTS))) for i in range(n)
    ]
    for i in range(1, n):
        triples.append(
            (f"v{draw(st.integers(0, i - 1))}", draw(st.sampled_from(_ROLES)), f"v{i}")
        )
    for _ in range(draw(st.integers(0, 3))):
        a, b = draw(st.integers(0, n - 1)), draw(st.integers(0, n - 1))
        triples.append((f"v{a}", draw(st.sampled_from(_ROLES)), f"v{b}"))
    for _ in range(draw(st.integers(0, 3))):
        node = draw(st.integers(0, n - 1))
        role = draw(st.sampled_from([":polarity", ":quant", ":name", ":mode"]))
        triples.append((f"v{node}", role, draw(st.sampled_from(_VALUES))))
    return str(penman.encode(penman.Graph(triples, top="v0")))


@settings(max_examples=60, deadline=None)
@given(
    _graph_texts(),
    _graph_texts(),
    st.sampled_from(REWRITES),
    st.randoms(use_true_random=False),
)
def test_generated_graphs_score_the_same_however_written(
    one: str, two: str, how: Rewrite, rng: random.Random
) -> None:
    a, b = decode(one), decode(two)
    a2, b2 = decode(rewrite(one, how, rng)), decode(rewrite(two, how, rng))
    for name in METRICS:
        scorer = metric(name)
        assert scorer.score(a2, a).f1 == 1.0, name
        assert scorer.score(a2, b2).f1 == scorer.score(a, b).f1, name
