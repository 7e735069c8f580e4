"""Formatting: penman's layout for graphs, nothing else touched."""

from __future__ import annotations

from amrcheck import read_corpus, read_string
from amrcheck.reading.layout import apply_edits, format_corpus

from ..conftest import REPO, shared_path

EXAMPLES = REPO / "examples"


def test_formatting_keeps_metadata_comments_and_triples() -> None:
    text = (
        "# header comment\n\n"
        "# ::id a\n# ::snt Boys want.\n(w / want-01 :ARG0 (b / boy~e.1))\n\n"
        "# ::id b\n(x / y\n  # a note inside\n  :mod (z / q))\n\n"
        "# ::id c\n(broken / x :ARG0\n"
    )
    corpus = read_string(text)
    edits = format_corpus(corpus)
    assert len(edits) == 1  # b keeps its inner comment, c is broken
    result = apply_edits(text, edits)
    assert result == text.replace(
        "(w / want-01 :ARG0 (b / boy~e.1))",
        "(w / want-01\n   :ARG0 (b / boy~e.1))",
    )
    again = read_string(result)
    assert again[0].graph is not None and corpus[0].graph is not None
    assert again[0].graph.triples == corpus[0].graph.triples
    assert again[0].graph.alignments == corpus[0].graph.alignments


def test_formatting_a_gold_corpus_changes_no_triple() -> None:
    corpus = read_corpus(shared_path("little_prince/amr-bank-struct-v3.0.txt"))
    result = apply_edits(corpus.source.text, format_corpus(corpus))
    again = read_string(result)
    assert len(again) == len(corpus)
    for before, after in zip(corpus, again, strict=True):
        assert before.metadata == after.metadata
        assert before.graph is not None and after.graph is not None
        assert before.graph.triples == after.graph.triples
    # formatting is idempotent
    assert format_corpus(again) == []


def test_only_hand_laid_out_example_graphs_get_edits() -> None:
    assert format_corpus(read_corpus(EXAMPLES / "annotations_v1.amr")) == []
    corpus = read_corpus(EXAMPLES / "annotations_v2.amr")
    edited = [corpus.source.line_column(e.start)[0] for e in format_corpus(corpus)]
    assert edited == [7, 39]  # ex.1 (":polarity -" on the top line) and ex.4
