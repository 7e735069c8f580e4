"""SemBleu: graph n-grams, our BLEU (no nltk), options and explanations."""

from __future__ import annotations

import math

import pytest

from amrcheck.metrics import get_metric
from amrcheck.metrics.sembleu import SemBleu, bleu, graph_ngrams
from amrcheck.reading.corpus import decode

WANT = "(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-02 :ARG0 b))"


def test_ngrams_are_paths_of_labels() -> None:
    grams = graph_ngrams(decode(WANT), 3)
    assert sorted(grams.counts[0]) == [("boy",), ("go-02",), ("want-01",)]
    # roles in the standard's lower case
    assert grams.counts[1] == {
        ("want-01", ":arg0", "boy"): 1,
        ("want-01", ":arg1", "go-02"): 1,
        ("go-02", ":arg0", "boy"): 1,
    }
    assert grams.counts[2] == {("want-01", ":arg1", "go-02", ":arg0", "boy"): 1}
    # one edge per node plus one per role
    assert grams.length == 3 + 3


def test_inverse_edges_are_reverted_by_default() -> None:
    written = decode("(b / boy :ARG0-of (w / walk-01))")
    canonical = decode("(w / walk-01 :ARG0 (b / boy))")
    assert get_metric("sembleu").score(written, canonical).f1 == 1.0
    reference_mode = get_metric("sembleu", compat="reference")
    assert reference_mode.score(written, canonical).f1 < 1.0
    kept = graph_ngrams(written, 2, compat="reference").counts[1]
    assert kept == {("boy", ":ARG0-of", "walk-01"): 1}


def test_variable_names_and_definition_place_do_not_matter_by_default() -> None:
    # the reference makes a re-entrant variable written before its
    # definition a separate leaf unless its name looks like a variable
    early = decode("(w / want-01 :ARG1 (g / go-02 :ARG0 boy) :ARG0 (boy / boy))")
    late = decode("(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-02 :ARG0 b))")
    assert get_metric("sembleu").score(early, late).f1 == 1.0
    assert get_metric("sembleu", compat="reference").score(early, late).f1 < 1.0


def test_quoted_values_are_split_into_tokens() -> None:
    grams = graph_ngrams(decode('(n / name :op1 "New York")'), 2)
    assert ("new", "york") in grams.counts[0]
    assert ("name", ":op1", "new", "york") in grams.counts[1]


def test_bleu_formula() -> None:
    # p1 = 3/4, p2 = 1/2, brevity penalty exp(1 - 5/4)
    expected = math.exp(1 - 5 / 4) * math.exp(
        0.5 * math.log(0.75) + 0.5 * math.log(0.5)
    )
    assert bleu([3, 1], [4, 2], 4, 5, (0.5, 0.5)) == pytest.approx(expected, abs=1e-15)
    # method3: the first order without a match counts 1 / (2 * total)
    smoothed = math.exp((math.log(0.75) + math.log(1 / 4)) / 2)
    assert bleu([3, 0], [4, 2], 6, 5, (0.5, 0.5)) == pytest.approx(smoothed, abs=1e-15)
    # auto_reweigh: no 2-grams in the hypothesis -> uniform over order 1
    assert bleu([3, 0], [4, 0], 6, 5, (0.5, 0.5)) == pytest.approx(0.75)
    assert bleu([0, 0], [4, 2], 6, 5, (0.5, 0.5)) == 0.0


def test_asymmetric_and_symmetric_option() -> None:
    small = decode("(w / want-01 :ARG0 (b / boy))")
    large = decode(WANT)
    metric = get_metric("sembleu", ngram=2)
    assert metric.score(small, large).f1 != metric.score(large, small).f1
    symmetric = get_metric("sembleu", ngram=2, symmetric=True)
    both = symmetric.score(small, large).f1
    assert both == symmetric.score(large, small).f1
    assert both == pytest.approx(
        (metric.score(small, large).f1 + metric.score(large, small).f1) / 2
    )


def test_corpus_score_sums_statistics() -> None:
    metric = get_metric("sembleu", ngram=2)
    a, b = decode(WANT), decode("(w / want-01 :ARG0 (b / boy))")
    pairs = [metric.score(a, b), metric.score(b, a)]
    corpus = metric.aggregate(pairs)
    assert (
        corpus.counts["match1"] == pairs[0].counts["match1"] + pairs[1].counts["match1"]
    )
    assert 0.0 < corpus.f1 <= 1.0


def test_options_are_checked() -> None:
    with pytest.raises(ValueError):
        SemBleu(ngram=5)
    with pytest.raises(ValueError):
        SemBleu(ngram=2, weights=(1.0,))
    assert SemBleu().options == SemBleu.Options(ngram=3)


def test_explanation_lists_matched_and_unmatched_ngrams() -> None:
    small = decode("(w / want-01 :ARG0 (b / boy))")
    explanation = (
        get_metric("sembleu", ngram=2)
        .score(small, decode(WANT), explain=True)
        .explanation
    )
    assert explanation is not None
    assert ("want-01 :arg0 boy", 1) in explanation.units["matched"]
    assert ("want-01 :arg1 go-02", 1) in explanation.units["missing"]
    assert explanation.units["extra"] == []
    assert explanation.details["precision"] == {1: 1.0, 2: 1.0}
