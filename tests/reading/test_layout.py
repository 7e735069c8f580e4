"""Formatting: penman's layout, or the author's lines re-indented; nothing else
touched."""

from __future__ import annotations

import difflib

from amrcheck import read_corpus, read_string
from amrcheck.reading._parse import tokenize
from amrcheck.reading.corpus import Corpus
from amrcheck.reading.layout import (
    TextEdit,
    apply_edits,
    format_entry,
    layout_edits,
    reindent_entry,
)

from ..conftest import REPO, shared_path

EXAMPLES = REPO / "examples"


def format_corpus(corpus: Corpus) -> list[TextEdit]:
    """Edits for every entry whose layout changes, in file order."""
    edits = (format_entry(entry) for entry in corpus)
    return [edit for edit in edits if edit is not None]


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


def test_reindent_keeps_lines_tokens_and_comments_issue_22() -> None:
    text = (
        "# ::id a\n"
        '(w / want-01 :ARG0 (b / boy~e.1 :name (n / name :op1 "B (x)"))\n'
        ":ARG1 (g / go-02\n"
        "                # a note inside\n"
        "\t:ARG0 b\n"
        "  )\n"
        "          )\n"
    )
    [entry] = read_string(text)
    result = apply_edits(text, reindent_entry(entry, "  "))
    assert result == (
        "# ::id a\n"
        '(w / want-01 :ARG0 (b / boy~e.1 :name (n / name :op1 "B (x)"))\n'
        "  :ARG1 (g / go-02\n"
        "    # a note inside\n"
        "    :ARG0 b\n"
        "  )\n"  # a closing line sits at the depth of the line it closes
        ")\n"
    )
    assert [text[a:b] for _, a, b in tokenize(text)] == [
        result[a:b] for _, a, b in tokenize(result)
    ]
    assert reindent_entry(read_string(result)[0], "  ") == []


def test_reindent_edits_only_the_blanks_before_a_line_s_first_token() -> None:
    corpus = read_corpus(EXAMPLES / "annotations_v2.amr")
    text = corpus.source.text
    edits = layout_edits(corpus, "keep-lines", "      ")
    assert edits
    for edit in edits:
        assert text[edit.start - 1] == "\n"
        assert text[edit.start:edit.end].strip() == "" == edit.new_text.strip()


def test_a_graph_that_does_not_parse_is_never_laid_out() -> None:
    text = "# ::id a\n(x / broken\n        :ARG0 (y / z)\n"
    [entry] = read_string(text)
    assert entry.graph is None
    assert reindent_entry(entry, "  ") == []
    assert layout_edits([entry], "keep-lines") == []
    assert layout_edits([entry], "penman") == []


def test_the_author_s_layout_changes_far_fewer_lines_than_penman_s() -> None:
    """100 Little Prince graphs (issue 22: penman's layout changed 1,626
    lines of 100 graphs): re-indenting by 6 spaces a level keeps every line
    and changes fewer than a third as many lines."""
    corpus = read_corpus(shared_path("little_prince/amr-bank-struct-v3.0.txt"))
    graphs, text = corpus.entries[:100], corpus.source.text
    kept = apply_edits(text, layout_edits(graphs, "keep-lines", " " * 6))
    relaid = apply_edits(text, layout_edits(graphs, "penman"))
    assert kept.count("\n") == text.count("\n") < relaid.count("\n")
    before = text.split("\n")
    changed = sum(a != b for a, b in zip(before, kept.split("\n"), strict=True))
    diff = difflib.ndiff(before, relaid.split("\n"))
    rewritten = sum(line.startswith("+ ") for line in diff)
    assert 0 < 3 * changed < rewritten
    again = read_string(kept)
    for old, new in zip(corpus, again, strict=True):
        assert old.graph is not None and new.graph is not None
        assert old.graph.triples == new.graph.triples
