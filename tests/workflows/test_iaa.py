"""Inter-annotator agreement on the multi-annotator toy corpus."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import pytest

from amrcheck.metrics.smatch import Smatch
from amrcheck.pairing.graphs import pair_corpora, score_corpus
from amrcheck.reading.corpus import read_corpus, read_string
from amrcheck.workflows.diff import triple_changes
from amrcheck.workflows.iaa import Agreement, agreement
from tests.conftest import shared_path
from tests.graph_census import SICK, GraphCensus, repeat_corpus

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
    expected = score_corpus(Smatch(), pair_corpora(one, three)).micro.f1
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


def test_an_unreadable_graph_counts_as_an_empty_graph_either_way_round_issue_21(
) -> None:
    whole = "# ::id 1\n(w / want-01 :ARG0 (b / boy))\n"
    broken = whole.replace("))", ")")
    for first, second in ((broken, whole), (whole, broken)):
        a, b = read_string(first, "a.amr"), read_string(second, "b.amr")
        result = agreement([a, b], resamples=10)
        (pair,) = result.pairs
        counts = pair.score.counts
        assert pair.score.f1 == 0.0 and counts["matched"] == 0
        # the empty graph is the first annotator's (A) or the second's (B)
        sizes = (counts["reference"], counts["candidate"])
        assert sizes == ((0, 4) if first is broken else (4, 0))
        (sentence,) = result.sentences
        assert sentence.annotators == ["a", "b"] and sentence.missing == []
        assert list(sentence.unreadable) == ["a" if first is broken else "b"]
        assert result.unreadable[0][:2] == ("1", "a" if first is broken else "b")
    # left out, the broken graph leaves no sentence two annotators share
    with pytest.raises(ValueError, match="no sentence has graphs from two"):
        agreement(
            [read_string(broken, "a.amr"), read_string(whole, "b.amr")],
            skip_unreadable=True,
        )


def test_needs_two_annotators_sharing_a_sentence() -> None:
    a = read_string("# ::id 1\n(a / b)\n", "a.amr")
    b = read_string("# ::id 2\n(a / b)\n", "b.amr")
    with pytest.raises(ValueError, match="no sentence has graphs from two"):
        agreement([a, b])
    with pytest.raises(ValueError, match="at least two"):
        agreement([a])


@pytest.mark.slow
@pytest.mark.parametrize("shuffle", [False, True], ids=["in step", "read again"])
def test_graphs_held_do_not_grow_with_the_files_issue_6(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, shuffle: bool
) -> None:
    one, two = tmp_path / "ann1.amr", tmp_path / "ann2.amr"
    held = []
    for times in (4, 16):  # 200 and 800 sentences per annotator
        repeat_corpus(shared_path(f"{SICK}/src.dev.amr"), one, times)
        repeat_corpus(shared_path(f"{SICK}/tgt.dev.amr"), two, times, shuffle)
        census = GraphCensus()
        monkeypatch.setattr(
            "amrcheck.workflows.iaa.triple_changes", census.wrap(triple_changes)
        )
        result = agreement([one, two], resamples=10, chunk_rows=16, chunk_bytes=2048)
        assert len(result.sentences) == 50 * times
        held.append(census.held)
    # both files whole would be 400 and 1,600 graphs
    assert held[1] < 150 and held[1] <= held[0] + 30, held


def _shuffled_toy(tmp_path: Path) -> list[Path]:
    """The toy files, annot2's and annot4's sentences in another order."""
    paths = []
    for number, name in enumerate(ANNOTATORS):
        text = shared_path(TOY.format(name)).read_text()
        if number % 2:
            blocks = text.strip().split("\n\n")
            text = "\n\n".join(blocks[2:] + blocks[:2]) + "\n"
        paths.append(tmp_path / f"comptest_{name}.txt")
        paths[-1].write_text(text)
    return paths


@pytest.mark.parametrize("jobs", [1, 2])
def test_streamed_files_agree_as_whole_files_do(tmp_path: Path, jobs: int) -> None:
    paths = _shuffled_toy(tmp_path)
    whole = agreement([read_corpus(p) for p in paths], resamples=300)
    streamed = agreement(paths, resamples=300, jobs=jobs, chunk_rows=1, chunk_bytes=64)
    assert streamed == whole  # every figure, the queue and its explanations
    assert [s.key for s in streamed.sentences] == [s.key for s in toy().sentences]


def test_bootstrap_in_blocks_draws_as_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    corpora = [read_corpus(shared_path(TOY.format(n))) for n in ANNOTATORS]
    at_once = agreement(corpora, resamples=301, seed=3)
    # blocks of one resample
    monkeypatch.setattr("amrcheck.workflows.iaa._RESAMPLED_CELLS", 7)
    in_blocks = agreement(corpora, resamples=301, seed=3)
    assert in_blocks.mean == at_once.mean
    assert [p.ci for p in in_blocks.pairs] == [p.ci for p in at_once.pairs]


def test_a_file_given_twice_is_an_error() -> None:
    path = shared_path(TOY.format("annot1"))
    with pytest.raises(ValueError, match="is given twice"):
        agreement([path, path])
