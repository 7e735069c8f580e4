"""Spans: offsets to 1-based lines and columns, carets for messages."""

from __future__ import annotations

import pickle

from amrcheck import SourceText


def test_line_column_round_trip() -> None:
    source = SourceText("ab\ncdé\n\nf", "x.amr")
    for offset in range(len(source.text) + 1):
        line, column = source.line_column(offset)
        assert source.offset(line, column) == offset
    assert source.line_column(5) == (2, 3)
    assert str(source.span(5, 6)) == "x.amr:2:3"


def test_caret_line_marks_the_span() -> None:
    source = SourceText("(a / b\n  :ARG0 (c / ))", "x.amr")
    span = source.span(source.offset(2, 9), source.offset(2, 10))
    assert span.caret_line() == "  :ARG0 (c / ))\n        ^"


def test_a_piece_of_a_file_keeps_the_file_lines() -> None:
    whole = SourceText("a\nbc\nd\n(e / f)\n", "x.amr")
    piece = SourceText("d\n(e / f)\n", "x.amr", first_line=3)
    assert piece.line_column(2) == whole.line_column(whole.text.index("(e"))
    assert piece.line_column(3) == (4, 2)
    assert piece.offset(4, 2) == 3 and piece.line_text(4) == "(e / f)"
    assert str(piece.span(2, 9)) == "x.amr:4:1"
    assert piece.span(4, 5).caret_line() == "(e / f)\n  ^"



def test_texts_and_spans_survive_pickling() -> None:
    # compiled, neither class has an argument-free constructor for pickle's
    # default, so each says how it is made again
    source = SourceText("a\nbc\n", "g.amr", 7)
    source.line_starts()
    text = pickle.loads(pickle.dumps(source))
    assert (text.text, text.path, text.first_line) == ("a\nbc\n", "g.amr", 7)
    assert text.line_column(3) == source.line_column(3) == (8, 2)
    span = pickle.loads(pickle.dumps(source.span(3, 4)))
    assert (str(span), span.text, span.end_line) == ("g.amr:8:2", "c", 8)
