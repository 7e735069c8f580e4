"""The UMR layers of the gates: layer thresholds and layer changes (issue 31)."""

from __future__ import annotations

from amrcheck.reading.umr import read_umr, read_umr_string
from amrcheck.workflows.gates import render_failures
from amrcheck.workflows.gates.layers import layer_changes, layer_failures

from ..conftest import data_path

SCORING = "umr/scoring"


def test_each_layer_below_its_threshold_fails_with_its_figure() -> None:
    gold = read_umr(data_path(f"{SCORING}/gold.umr"))
    docrel = read_umr(data_path(f"{SCORING}/docrel.umr"))
    assert layer_failures("x.umr", gold, gold, {"alignment": 1, "coref": 1}) == []
    (failure,) = layer_failures(
        "x.umr", gold, docrel, {"alignment": 1, "coref": 0.5}, interval=True
    )
    assert (failure.gate, failure.metric) == ("min-layer-f1", "coref")
    assert failure.message.startswith("coref F1 0.0000 (95% CI 0.0000-")
    assert failure.message.endswith("is below 0.5; 1 of 2 sentences differ")
    (sentence,) = failure.graphs
    assert (sentence.label, sentence.f1) == ("snt2", 0.0)
    assert sentence.where.endswith("docrel.umr:38:1")  # where its graph starts
    assert sentence.changes[0].endswith(
        "gold.umr:55:14: coref missing: (s1p :same-entity s2p)"
    )


def test_a_sentence_is_listed_once_per_layer() -> None:
    gold = read_umr(data_path(f"{SCORING}/gold.umr"))
    text = data_path(f"{SCORING}/docrel.umr").read_text(encoding="utf-8")
    both = read_umr_string(text.replace("s2b2: 3-4", "s2b2: 4-4"), "both.umr")
    failures = layer_failures("x.umr", gold, both, {"alignment": 1, "coref": 1})
    assert [f.metric for f in failures] == ["alignment", "coref"]
    lines = render_failures(failures)
    assert sum("graph snt2: alignment F1" in line for line in lines) == 1
    assert sum("graph snt2: coref F1" in line for line in lines) == 1


def test_layer_changes_keep_words_alignment_and_document_changes() -> None:
    gold = data_path(f"{SCORING}/gold.umr").read_text(encoding="utf-8")
    old = read_umr_string(gold, "HEAD:x.umr")
    edited = (
        gold.replace("s1c: 3-3", "s1c: 3-4")  # an alignment
        .replace("(s1l :before s2b)", "(s2b :after s1l)")  # the same relation
        .replace("Words: She bought", "Words: He bought")  # the words
    )
    changes = layer_changes(old, read_umr_string(edited, "x.umr"))
    assert list(changes) == ["snt1", "snt2"]
    (change,) = changes["snt1"]
    assert str(change) == "x.umr:21:1: snt1 alignment ~ s1c: 3-3 -> 3-4"
    (change,) = changes["snt2"]
    assert str(change) == (
        "x.umr:35:8: snt2 words ~ 'She bought a book .' -> 'He bought a book .'"
    )
    dropped = gold.replace("\n    :coref ((s1p :same-entity s2p))", "")
    changes = layer_changes(old, read_umr_string(dropped, "x.umr"))
    assert [str(c) for c in changes["snt2"]] == [
        "HEAD:x.umr:55:14: snt2 document - :coref (s1p :same-entity s2p)"
    ]


def test_the_words_layer_counts_tokens_matched_in_order() -> None:
    gold = data_path(f"{SCORING}/gold.umr").read_text(encoding="utf-8")
    reference = read_umr_string(gold, "gold.umr")
    retokenized = read_umr_string(
        gold.replace("Words: She bought a  book .", "Words: She bought a book ."),
        "same.umr",
    )
    assert layer_failures("x.umr", reference, retokenized, {"words": 1}) == []
    edited = read_umr_string(
        gold.replace("Words: She bought a  book .", "Words: She bought the book ."),
        "x.umr",
    )
    (failure,) = layer_failures("x.umr", reference, edited, {"words": 1})
    # 4 of snt2's 5 tokens and all 4 of snt1's: 8 of 9 on each side
    assert failure.message == "words F1 0.8889 is below 1; 1 of 2 sentences differ"
    (sentence,) = failure.graphs
    assert (sentence.label, round(sentence.f1 or 0, 4)) == ("snt2", 0.8)
    assert sentence.changes == (
        "gold.umr:35:19: words missing: 'a'",
        "x.umr:35:19: words extra: 'the'",
    )


def test_a_renamed_node_is_no_layer_change() -> None:
    # czech-renamed.umr renames s1z -> s1ž and s2ř -> s2č everywhere: its
    # graphs score 1 against czech.umr, so its layers count no change either
    czech = data_path("umr/multilingual/czech.umr")
    renamed = data_path("umr/multilingual/czech-renamed.umr").read_text(
        encoding="utf-8"
    )
    old = read_umr(czech)
    assert layer_changes(old, read_umr_string(renamed, "x.umr")) == {}
    # a real change under the new name is one change, named as written
    edited = renamed.replace("s1ž: 2-3", "s1ž: 3-3")
    changes = layer_changes(old, read_umr_string(edited, "x.umr"))
    assert [str(c) for c in changes["snt1"]] == [
        "x.umr:14:1: snt1 alignment ~ s1ž: 2-3 -> 3-3"
    ]
    assert list(changes) == ["snt1"]
