"""``Metric.score_missing``: a candidate that cannot be read counts as an empty graph.

Issue 21: for every registered metric, the pair of an unreadable (or
absent) candidate scores 0, its counts charge the corpus score, and so a
broken graph can only lower a corpus score, never raise it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from amrcheck.metrics import Metric, get_metric, score_pairs
from amrcheck.metrics.aspects import ASPECTS, aspect_scores_missing
from amrcheck.metrics.smatch import Smatch, emptied
from amrcheck.reading.corpus import decode, read_string
from tests.broken import (
    BROKEN,
    CANDIDATE,
    METRICS,
    REFERENCE,
    WORST,
    metric_options,
)

WANT = "(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-02 :ARG0 b) :polarity -)"


def build(name: str, folder: Path) -> Metric:
    return get_metric(name, **metric_options(name, folder))


@pytest.mark.parametrize("name", METRICS)
def test_every_metric_scores_a_missing_candidate_0_issue_21(
    name: str, tmp_path: Path
) -> None:
    metric = build(name, tmp_path)
    assert isinstance(metric, Metric)  # score_missing is part of the protocol
    missing = metric.score_missing(decode(WANT))
    assert missing.f1 == 0.0
    assert missing.precision in (None, 0.0) and missing.recall in (None, 0.0)
    # the batch entry point gives the same for a candidate of None
    (batched,) = score_pairs(metric, [(None, decode(WANT))])
    assert batched == missing


@pytest.mark.parametrize("name", METRICS)
def test_a_missing_candidate_lowers_every_corpus_score_issue_21(
    name: str, tmp_path: Path
) -> None:
    """Counting a graph as empty lowers the corpus score below the score
    with the graph as written, and below the score that leaves the pair out
    (which, for the worst graph, is above the score as written: the leak)."""
    metric = build(name, tmp_path)
    refs = [e.graph for e in read_string(REFERENCE)]
    cands = [e.graph for e in read_string(CANDIDATE)]
    written = [metric.score(c, r) for c, r in zip(cands, refs, strict=True)]  # type: ignore[arg-type]
    as_written = metric.aggregate(written).f1
    assert min(written, key=lambda s: s.f1) is written[WORST]

    def counted_empty(index: int) -> float:
        empty = list(written)
        empty[index] = metric.score_missing(refs[index])  # type: ignore[arg-type]
        return metric.aggregate(empty).f1

    def left_out(index: int) -> float:
        return metric.aggregate(written[:index] + written[index + 1 :]).f1

    assert counted_empty(BROKEN) < as_written
    assert counted_empty(WORST) < left_out(WORST)
    assert as_written < left_out(WORST)


def test_smatch_counts_every_reference_triple_as_missing() -> None:
    smatch = Smatch()
    reference = smatch.standardize(decode(WANT))
    missing = smatch.score_missing(decode(WANT))
    assert missing.counts["matched"] == missing.counts["candidate"] == 0
    assert missing.counts["reference"] == reference.size == 8
    # the same as scoring an empty graph through the usual path, explanation aside
    assert missing == smatch.score_standard(emptied(reference), reference)
    explained = smatch.score_standard(emptied(reference), reference, explain=True)
    assert explained.explanation is not None
    assert len(explained.explanation.missing) == 8


def test_sembleu_charges_the_reference_length_to_the_brevity_penalty() -> None:
    sembleu = get_metric("sembleu", symmetric=True)
    missing = sembleu.score_missing(decode(WANT))
    assert missing.counts["hyp_length"] == 0 and missing.counts["ref_length"] > 0
    assert missing.counts["rev_hyp_length"] == missing.counts["ref_length"]
    assert missing.counts["rev_total1"] > 0 == missing.counts["rev_match1"]


def test_aspects_of_a_missing_candidate_count_the_reference_items() -> None:
    scores = aspect_scores_missing(Smatch(), decode(WANT))
    assert list(scores) == list(ASPECTS)
    for name, score in scores.items():
        assert score.counts["matched"] == score.counts["candidate"] == 0, name
    assert scores["negation"].counts["reference"] == 1
    assert scores["srl"].counts["reference"] == 3
    assert scores["wikification"].f1 == 1.0  # nothing to miss: both empty
