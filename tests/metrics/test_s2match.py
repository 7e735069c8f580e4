"""s2match: the graded concept match, smatch's search, explanations, principles I–IV.

Runs on the 400-word GloVe extract in tests/data/vectors (no glove extra).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import pytest

from amrcheck.errors import MetricError
from amrcheck.metrics import get_metric, metric_options
from amrcheck.metrics.s2match import ConceptSimilarity, S2match
from amrcheck.metrics.smatch import Smatch
from amrcheck.reading.corpus import decode, read_corpus

from ..conftest import data_path
from ..reference import bamboo_files
from .test_principles_issue4 import graphs, unrelated_pairs
from .test_wwlk import digest_across_processes

MINI = str(data_path("vectors/glove-mini.50d.txt"))


@lru_cache(maxsize=None)
def s2match(**options: object) -> S2match:
    return S2match(vectors=MINI, **options)


def similarity(a: str, b: str, cutoff: float = 0.5, diffsense: float = 0.5) -> float:
    table = ConceptSimilarity(s2match().similarity.vectors, cutoff, diffsense).table(
        {a}, {b}
    )
    return table.get((a, b), 0.0)


def test_graded_concept_match() -> None:
    vectors = s2match().similarity.vectors
    cat_kitten = vectors.cosine("cat", "kitten")
    assert 0.6 < cat_kitten < 0.7
    assert similarity("cat", "kitten") == pytest.approx(cat_kitten)
    assert similarity("cat", "kitten", cutoff=0.7) == 0.0
    assert similarity("hit-01", "hit-02") == 0.5  # another sense
    assert similarity("hit-01", "hit", diffsense=0.8) == 0.8  # predicate vs its stem
    assert similarity("cat", "zzyzx") == 0.0  # no vector: similar to nothing
    assert similarity("cat", "giraffe") == 0.0  # cosine 0.49 is below the cutoff


def test_predicates_use_stem_plus_third_person_and_diffsense() -> None:
    words = s2match().similarity.vectors

    def stem_vector(stem: str) -> np.ndarray:
        vector, third_person = words.word(stem), words.word(stem + "s")
        assert vector is not None
        return vector if third_person is None else vector + third_person

    def cosine(a: np.ndarray, b: np.ndarray) -> float:
        return float(a @ b / np.linalg.norm(a) / np.linalg.norm(b))

    assert words.word("plays") is not None  # so the third person takes part
    play, sing = stem_vector("play"), stem_vector("sing")
    assert similarity("play-01", "sing-01", cutoff=0.0) == pytest.approx(
        0.5 * cosine(play, sing)
    )
    bare_sing = words.word("sing")
    assert bare_sing is not None
    assert similarity("play-01", "sing", cutoff=0.0) == pytest.approx(
        0.5 * cosine(play, bare_sing)
    )


def test_no_graded_pair_means_smatch() -> None:
    """Where no two different concepts are similar, s2match is smatch."""
    smatch, graded = Smatch(), s2match()
    tgt, src = bamboo_files("sick.main")
    compared = 0
    for a, b in list(zip(read_corpus(tgt), read_corpus(src), strict=True))[:150]:
        ca, cb = graded.standardize(a.graph), graded.standardize(b.graph)
        if graded._table(ca, cb):
            continue
        compared += 1
        assert graded.score(a.graph, b.graph).f1 == smatch.score(a.graph, b.graph).f1
    assert compared > 10


def test_graded_matches_only_add_to_smatch_at_the_optimum() -> None:
    smatch, graded = Smatch(exact=True), s2match(exact=True)
    for a, b in unrelated_pairs()[:60]:
        exact_count = smatch.score(a, b).counts["matched"]
        graded_count = graded.score(a, b).counts["matched"]
        assert graded_count >= exact_count - 1e-9


def test_explanation_lists_aligned_concepts_with_similarity() -> None:
    metric = s2match()
    a = decode("(w / want-01 :ARG0 (c / cat) :ARG1 (e / eat-01 :ARG0 c))")
    b = decode("(w / want-01 :ARG0 (k / kitten) :ARG1 (d / drink-01 :ARG0 k))")
    score = metric.score(a, b, explain=True)
    explanation = score.explanation
    assert explanation is not None
    concepts = {str(c) for c in explanation.units["concepts"]}
    assert "want-01 ~ want-01: 1.000" in concepts
    assert any(c.startswith("cat ~ kitten: 0.6") for c in concepts)
    partial = [c for c in explanation.units["concepts"] if 0 < c.similarity < 1]
    assert partial
    for pair in partial:  # credited in part: not missing, not extra
        assert pair.candidate not in explanation.extra
        assert pair.reference not in explanation.missing
        assert (
            pair.candidate.span.text.startswith("c / cat") or pair.candidate.span.text
        )
    credited = len(explanation.matched) + sum(c.similarity for c in partial)
    assert credited == pytest.approx(score.counts["matched"])


def test_options() -> None:
    assert metric_options("s2match", {"cutoff": "0.9", "diffsense": "0.95"}) == {
        "cutoff": 0.9,
        "diffsense": 0.95,
    }
    with pytest.raises(MetricError, match="cutoff"):
        get_metric("s2match", vectors=MINI, cutoff=1.5)
    with pytest.raises(MetricError, match="diffsense"):
        get_metric("s2match", vectors=MINI, diffsense=0)
    concept_root = get_metric("s2match", vectors=MINI, root="concept")
    assert concept_root.settings()["standardization"].startswith("root=concept")  # type: ignore[attr-defined]
    assert "400 words" in concept_root.settings()["vectors"]  # type: ignore[attr-defined]


# --- principles I-IV on the shared corpora -------------------------------------


@pytest.mark.slow
def test_self_score_is_one() -> None:
    metric = s2match()
    assert all(metric.score(g, g).f1 == 1.0 for g in graphs()[::4])


def test_range() -> None:
    metric = s2match()
    for a, b in unrelated_pairs()[::8]:
        for score in (metric.score(a, b), metric.score(b, a)):
            assert 0.0 <= score.f1 <= 1.0


def test_symmetric_at_the_optimum() -> None:
    metric = s2match(exact=True)
    for a, b in unrelated_pairs()[:80]:
        forward, backward = metric.score(a, b), metric.score(b, a)
        assert forward.f1 == pytest.approx(backward.f1, abs=1e-12)
        assert forward.precision == pytest.approx(backward.recall, abs=1e-12)


def test_deterministic_across_processes_and_hash_seeds() -> None:
    assert len(digest_across_processes([("s2match", {"vectors": MINI})])) == 1
