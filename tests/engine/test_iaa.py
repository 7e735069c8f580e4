"""Inter-annotator agreement on the multi-annotator toy corpus."""

from __future__ import annotations

from functools import lru_cache

import pytest

from amrcheck.corpus import read_corpus, read_string
from amrcheck.iaa import Agreement, agreement
from amrcheck.metrics.smatch import Smatch
from amrcheck.pairing import pair_corpora, score_pairs
from tests.conftest import shared_path

TOY = "multi_annotator_toy/comptest_{}.txt"
ANNOTATORS = ["annot1", "annot2", "annot3", "annot4"]


@lru_cache(maxsize=None)
def toy(jobs: int = 1) -> Agreement:
    corpora = [read_corpus(shared_path(TOY.format(n))) for n in ANNOTATORS]
    return agreement(corpora, resamples=300, jobs=jobs)


def test_names_matrix_and_symmetry() -> None:
    result = toy()
    assert result.names == ANNOTATORS and result.graphs == [4, 6, 4, 4]
    matrix = result.matrix()
    assert [matrix[i][i] for i in range(4)] == [1.0] * 4
    assert all(matrix[i][j] == matrix[j][i] for i in range(4) for j in range(4))
    assert len(result.pairs) == 6 and {p.sentences for p in result.pairs} == {4}


def test_pair_f1_is_micro_smatch_over_shared_sentences() -> None:
    # annot1 and annot3 share sentences 1-4, in the same order: plain smatch
    one = read_corpus(shared_path(TOY.format("annot1")))
    three = read_corpus(shared_path(TOY.format("annot3")))
    expected = score_pairs(Smatch(), pair_corpora(one, three)).micro.f1
    pair = next(p for p in toy().pairs if (p.a, p.b) == ("annot1", "annot3"))
    assert pair.score.f1 == pytest.approx(expected)
    assert pair.ci is not None and pair.ci.low <= pair.score.f1 <= pair.ci.high


def test_mean_and_its_interval() -> None:
    result = toy()
    assert result.mean.estimate == pytest.approx(
        sum(p.score.f1 for p in result.pairs) / 6
    )
    assert result.mean.low <= result.mean.estimate <= result.mean.high


def test_adjudication_queue_lowest_first_and_missing_sentences() -> None:
    sentences = toy().sentences
    means = [s.mean_f1 for s in sentences if s.mean_f1 is not None]
    assert means == sorted(means)
    assert (
        sentences[0].key == "sentence 3" and sentences[0].text == "please do not touch!"
    )
    lowest = sentences[0].lowest
    assert lowest is not None and (lowest.a, lowest.b) == ("annot1", "annot4")
    # annot4 left the negation, mode and politeness commented out
    removed = [c.old.text for c in lowest.changes if c.kind == "removed" and c.old]
    assert "(t :polarity -)" in removed and "(t :polite +)" in removed
    assert [(s.key, s.annotators, s.missing) for s in sentences[-2:]] == [
        ("sentence 5", ["annot2"], ["annot1", "annot3", "annot4"]),
        ("sentence 6", ["annot2"], ["annot1", "annot3", "annot4"]),
    ]


def test_negation_disagreement_shows_in_the_aspects() -> None:
    result = toy()
    pair = next(p for p in result.pairs if (p.a, p.b) == ("annot1", "annot2"))
    # annot1 wrote ":polarity (n / neg)", annot2 ":polarity -"
    assert pair.aspects["negation"].f1 == 0.0
    assert result.aspects["wikification"] == 1.0
    assert 0 < result.aspects["srl"] < 1


def test_jobs_give_identical_results() -> None:
    one, two = toy(1), toy(2)
    assert one.matrix() == two.matrix() and one.mean == two.mean
    assert [s.key for s in one.sentences] == [s.key for s in two.sentences]


def test_needs_two_annotators_sharing_a_sentence() -> None:
    a = read_string("# ::id 1\n(a / b)\n", "a.amr")
    b = read_string("# ::id 2\n(a / b)\n", "b.amr")
    with pytest.raises(ValueError, match="no sentence has graphs from two"):
        agreement([a, b])
    with pytest.raises(ValueError, match="at least two"):
        agreement([a])
