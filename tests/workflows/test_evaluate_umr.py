"""UMR sentence graphs through the engine's pairing and scoring (issue 31)."""

from __future__ import annotations

from pathlib import Path

import pytest

from amrcheck.metrics import get_metric, metric_names
from amrcheck.reading.umr_corpus import read_umr_corpus
from amrcheck.workflows.evaluate import evaluate

DATA = Path(__file__).parents[1] / "data" / "umr" / "scoring"
ENGLISH = Path(__file__).parents[2] / ".." / "shared" / "data" / "umr" / "english"


def test_sentences_pair_by_number_and_a_one_concept_edit_costs_one_triple() -> None:
    report = evaluate(DATA / "gold.umr", [DATA / "concept.umr"], [get_metric("smatch")])
    result = report.results[0]
    assert result.ids == ["snt1", "snt2"]
    first, second = result.corpus.pairs
    assert first.f1 == 1.0
    assert second.counts["matched"] == second.counts["reference"] - 1


def test_a_broken_sentence_counts_as_empty_and_is_listed_with_its_place() -> None:
    report = evaluate(DATA / "gold.umr", [DATA / "broken.umr"], [get_metric("smatch")])
    gaps = report.counted_empty[str(DATA / "broken.umr")]
    assert [gap.key for gap in gaps] == ["snt2"]
    # the unclosed '(' of the book ends where the indentation says (after
    # 'singular' on line 43: ':aspect' below belongs to the event)
    assert str(gaps[0]).startswith(f"{DATA / 'broken.umr'}:43:31: graph snt2: U201")
    assert report.results[0].corpus.pairs[1].f1 == 0.0


def test_a_missing_sentence_counts_as_empty() -> None:
    report = evaluate(DATA / "gold.umr", [DATA / "missing.umr"], [get_metric("smatch")])
    gaps = report.counted_empty[str(DATA / "missing.umr")]
    assert [(gap.key, gap.absent) for gap in gaps] == [("snt2", True)]
    assert report.results[0].corpus.micro.recall < 1.0


@pytest.mark.parametrize("name", ["smatch", "rematch", "wlk", "recommended"])
def test_every_metric_scores_a_umr_file_against_itself_as_one(name: str) -> None:
    assert name in metric_names()
    path = ENGLISH / "english_umr-0003.umr"
    report = evaluate(path, [path], [get_metric(name)])
    assert report.results[0].corpus.micro.f1 == pytest.approx(1.0)


def test_explanations_place_triples_at_the_file_lines_of_the_umr_file() -> None:
    reference, _ = read_umr_corpus(DATA / "gold.umr")
    candidate, _ = read_umr_corpus(DATA / "concept.umr")
    score = get_metric("smatch").score(
        candidate[1].graph, reference[1].graph, explain=True
    )
    assert score.explanation is not None
    extra = [str(t.span) for t in score.explanation.extra]
    missing = [(str(t), t.span.line) for t in score.explanation.missing]
    assert extra and extra[0].startswith(f"{DATA / 'concept.umr'}:42:")
    assert missing == [("(s2b2 :instance book)", 42)]
    assert score.explanation.alignment["s2b2"] == "s2b2"
