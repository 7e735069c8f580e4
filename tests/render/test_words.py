"""A UMR sentence's words and alignments as the reports draw them (issue 31)."""

from __future__ import annotations

from pathlib import Path

from amrcheck.reading.umr import read_umr, read_umr_string
from amrcheck.render.compare import single_view
from amrcheck.render.drawing import scene_dot, tooltips
from amrcheck.render.words import (
    aligned_words,
    alignment_differences,
    mark_words,
    read_with_words,
)

DATA = Path(__file__).parents[1] / "data" / "umr"


def test_czech_ranges_and_unaligned_nodes_say_what_is_written() -> None:
    words = aligned_words(read_umr(DATA / "multilingual" / "czech.umr").sentences[0])
    assert words.words == ("Ceny", "se", "zvýšily", ".")
    assert words.note("s1z") == "2-3: se zvýšily"  # zvýšit-se-001: two words
    assert words.note("s1c") == "1-1: Ceny"
    assert [(c.position, c.variables) for c in words.chips()] == [
        (1, ("s1c",)), (2, ("s1z",)), (3, ("s1z",)), (4, ()),
    ]


def test_glossed_words_carry_their_gloss_and_0_0_says_unaligned() -> None:
    sentence = read_umr(DATA / "multilingual" / "glossed.umr").sentences[0]
    words = aligned_words(sentence)
    assert [(c.text, c.gloss) for c in words.chips()] == [
        ("Ninakupenda", "1SG.love"), ("sana", "much"), (".", "."),
    ]
    assert words.note("s1m") == "unaligned (0-0)"
    assert words.note("s1p") == "1-1: Ninakupenda"


def test_a_missing_line_a_bad_line_and_a_range_beyond_the_words() -> None:
    doc = read_umr_string(
        "# :: snt1\nWords: Dogs bark\n\n# sentence level graph:\n"
        "(s1b / bark-01 :ARG0 (s1d / dog) :manner (s1l / loud))\n\n"
        "# alignment:\ns1b: 2-3\ns1d: one\ns1x: 2-1\n\n"
        "# document level annotation:\n(s1s0 / sentence)\n\n\n"
    )
    words = aligned_words(doc.sentences[0])
    assert words.note("s1b") == "2-3: bark ?"
    assert words.note("s1d").startswith("alignment unreadable: ")
    assert words.note("s1l") == "no alignment line"
    assert words.note("s1x") == "2-1: ?"  # a range the wrong way round: no words


def test_the_drawing_writes_each_node_s_words_under_its_label() -> None:
    corpus, table = read_with_words(DATA / "multilingual" / "czech.umr")
    graph = corpus[1].graph
    assert graph is not None
    side = single_view(graph)
    mark_words(side, table[1])
    dot = scene_dot(side, "g1-")
    assert "1-1: Růst" in dot and "2-2: trápí" in dot
    assert tooltips(side, "g1-")["g1-v:s2ř"] == "s2ř / růst-001  32:12  · 1-1: Růst"


def test_an_amr_file_has_no_words_table() -> None:
    corpus, table = read_with_words(Path(__file__).parents[2] / "examples"
                                    / "annotations_v1.amr")
    assert len(corpus) > 0 and table == {}


def test_differences_in_words_and_alignments_are_listed() -> None:
    gold = read_umr(DATA / "scoring" / "gold.umr").sentences[1]
    moved = read_umr(DATA / "scoring" / "alignment.umr").sentences[1]
    renamed = read_umr(DATA / "scoring" / "tokens.umr").sentences[1]
    a, b, c = aligned_words(gold), aligned_words(moved), aligned_words(renamed)
    assert alignment_differences([("s2b2", "s2b2"), ("s2b", "s2b")], a, b) == [
        "alignment of s2b2: 3-4: a book → 4-4: book"
    ]
    assert alignment_differences([("s2b2", "s2b2")], a, c) == [
        "the words differ: reference “She bought a book .”, "
        "candidate “She bought a novel .”",
        "alignment of s2b2: 3-4: a book → 3-4: a novel",
    ]
    assert alignment_differences([("s2b2", "s2b2")], a, a) == []
    assert alignment_differences([("s2b2", "s2b2")], a, None) == []
