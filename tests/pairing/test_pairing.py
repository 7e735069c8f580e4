"""Pairing graphs across files: by ::id, by position (and saying why), many files."""

from __future__ import annotations

import pytest

from amrcheck.pairing.graphs import (
    PairingError,
    match_entries,
    pair_corpora,
    pair_graphs,
    sentence_of,
    sentences_differ,
)
from amrcheck.pairing.streaming import RowStream
from amrcheck.reading.corpus import read_corpus, read_string
from tests.conftest import REPO, shared_path

EXAMPLES = REPO / "examples"
TOY = "multi_annotator_toy"


def test_examples_pair_by_id_and_the_added_graph_comes_last() -> None:
    old = read_corpus(EXAMPLES / "annotations_v1.amr")
    new = read_corpus(EXAMPLES / "annotations_v2.amr")
    matching = match_entries([old, new])
    assert matching.by == "id" and matching.note is None
    assert [row.key for row in matching.rows] == [f"ex.{i}" for i in range(1, 7)]
    assert matching.rows[-1].present == (False, True)


def test_ids_in_another_order_pair_by_id() -> None:
    ref = read_string("# ::id a\n(x / one)\n\n# ::id b\n(y / two)\n", "ref.amr")
    cand = read_string("# ::id b\n(y / two)\n\n# ::id a\n(x / one)\n", "cand.amr")
    pairs = pair_corpora(ref, cand)
    assert [(p.id, p.reference.triples, p.candidate.triples) for p in pairs] == [
        ("a", [("x", ":instance", "one")], [("x", ":instance", "one")]),
        ("b", [("y", ":instance", "two")], [("y", ":instance", "two")]),
    ]


def test_missing_ids_fall_back_to_position_and_say_where() -> None:
    ref = read_string("# ::id a\n(x / one)\n\n(y / two)\n", "ref.amr")
    cand = read_string("# ::id a\n(x / one)\n\n# ::id b\n(y / two)\n", "cand.amr")
    matching = match_entries([ref, cand])
    assert matching.by == "position"
    assert matching.note == (
        "graphs paired by position: 1 graph has no ::id in ref.amr (first: ref.amr:4:1)"
    )
    # the key is the id both agree on, else the position
    assert [row.key for row in matching.rows] == ["a", "#2"]
    with pytest.raises(PairingError, match="no ::id in ref.amr"):
        match_entries([ref, cand], by="id")


def test_a_repeated_id_falls_back_to_position() -> None:
    twice = read_string("# ::id a\n(x / one)\n\n# ::id a\n(y / two)\n", "twice.amr")
    matching = match_entries([twice, twice])
    assert matching.by == "position"
    assert "::id 'a' is repeated in twice.amr:5:1" in str(matching.note)


def test_ids_only_one_file_has_are_listed_with_places() -> None:
    """A reference graph the candidate lacks is a gap (its candidate counts
    as an empty graph); a candidate graph the reference lacks is unpaired."""
    ref = read_string("# ::id a\n(x / one)\n\n# ::id b\n(y / two)\n", "ref.amr")
    cand = read_string("# ::id a\n(x / one)\n\n# ::id c\n(z / three)\n", "cand.amr")
    pairing = pair_graphs(ref, cand)
    assert [(p.id, p.candidate is None) for p in pairing.pairs] == [
        ("a", False),
        ("b", True),
    ]
    assert pairing.unpaired == ["cand.amr:5:1: ::id 'c' is not in ref.amr"]
    (gap,) = pairing.gaps
    assert (gap.key, gap.side, gap.absent) == ("b", "candidate", True)
    assert str(gap) == "ref.amr:5:1: graph b: ::id 'b' is not in cand.amr"
    with pytest.raises(PairingError) as raised:
        pair_corpora(ref, cand)
    assert raised.value.problems == [
        "cand.amr:5:1: ::id 'c' is not in ref.amr",
        "ref.amr:5:1: ::id 'b' is not in cand.amr",
    ]


def test_an_unreadable_candidate_is_a_pair_without_its_graph_issue_21() -> None:
    ref = read_string("(a / b)\n\n(c / d)\n\n(e / f)\n", "ref.amr")
    cand = read_string("(a / b)\n\n(c / d :ARG0 (x / y)\n\n(e / f)\n", "cand.amr")
    pairing = pair_graphs(ref, cand)
    assert [(p.id, p.candidate is None) for p in pairing.pairs] == [
        ("#1", False),
        ("#2", True),
        ("#3", False),
    ]
    assert [str(g) for g in pairing.gaps] == [
        "cand.amr:3:21: graph #2: E001 unbalanced parentheses: 1 '(' not closed"
    ]
    assert pairing.errors[0].startswith("cand.amr:3:21: E001")
    with pytest.raises(PairingError, match="cand.amr:3:21: E001"):
        pair_corpora(ref, cand)


E001 = "E001 unbalanced parentheses: 1 '(' not closed"
E007 = "E007 empty graph: metadata without a graph"


def test_an_unreadable_reference_leaves_its_pair_out_issue_21() -> None:
    ref = read_string("(a / b)\n\n(c / d\n\n# ::id x\n", "ref.amr")
    cand = read_string("(a / b)\n\n(c / d)\n\n(e / f)\n", "cand.amr")
    pairing = pair_graphs(ref, cand)
    assert [p.id for p in pairing.pairs] == ["#1"]
    assert [(g.key, g.side, g.where, g.why) for g in pairing.gaps] == [
        ("#2", "reference", "ref.amr:3:7", E001),
        ("#3", "reference", "ref.amr:5:1", E007),
    ]


def test_multi_annotator_toy_rows() -> None:
    names = ["annot1", "annot2", "annot3", "annot4", "gold"]
    corpora = [read_corpus(shared_path(f"{TOY}/comptest_{n}.txt")) for n in names]
    matching = match_entries(corpora)
    assert matching.by == "id"
    assert [row.key for row in matching.rows] == [f"sentence {i}" for i in range(1, 7)]
    present = {row.key: row.present for row in matching.rows}
    assert present["sentence 1"] == (True,) * 5
    assert present["sentence 5"] == (False, True, False, False, True)
    assert present["sentence 6"] == (False, True, False, False, False)


def test_sentences_compare_snt_first_then_tok_white_space_aside() -> None:
    a = sentence_of({"snt": "The boy  wants\tto go.", "tok": "The boy wants to go ."})
    b = sentence_of({"snt": "The boy wants to go."})
    c = sentence_of({"tok": "The girl wants to go ."})
    assert not sentences_differ(a, b)
    assert sentences_differ(a, c)  # no ::snt in c: the tokens tell
    assert not sentences_differ(b, c)  # nothing to compare: no warning
    assert not sentences_differ(sentence_of({}), a)


def test_by_position_sentences_that_differ_are_mismatches_with_both_places() -> None:
    ref = read_string("# ::snt a\n(a / b)\n\n# ::snt c\n(c / d)\n", "ref.amr")
    cand = read_string("# ::snt a\n(a / b)\n\n# ::snt e\n(c / d)\n", "sys.amr")
    matching = match_entries([ref, cand])
    assert matching.by == "position"
    assert [str(m) for m in matching.mismatches] == [
        "ref.amr:5:1: graph #2 is paired by position with sys.amr:5:1, "
        "but their sentences differ"
    ]


def test_by_position_ids_that_differ_are_an_error_unless_forced() -> None:
    ref = read_string("# ::id 1\n(a / b)\n\n# ::id 2\n(c / d)\n", "ref.amr")
    cand = read_string("(a / b)\n\n# ::id 3\n(c / d)\n", "sys.amr")
    with pytest.raises(PairingError, match=r"ref.amr:5:1: ::id '2' is paired by "
                       r"position with ::id '3' at sys.amr:4:1"):
        match_entries([ref, cand])
    forced = match_entries([ref, cand], "position")
    assert [(m.key, m.what) for m in forced.mismatches] == [("#2", "::id")]
    stream = RowStream([ref, cand], "position")
    list(stream.in_step(10))
    assert stream.close().mismatches == forced.mismatches
