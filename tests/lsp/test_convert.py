"""Unit tests of amr_lsp.convert: offsets <-> LSP positions, checked against pygls."""

from __future__ import annotations

import pytest
from lsprotocol import types
from pygls.workspace import TextDocument
from pygls.workspace.position_codec import PositionCodec

from amr_lsp.convert import (
    LineIndex,
    lsp_diagnostic,
    lsp_range,
    lsp_text_edit,
    path_to_uri,
    uri_to_path,
)
from amrcheck import read_string, validate
from amrcheck.reading.layout import TextEdit

TEXTS = {
    "ascii": "# ::id a\n(w / want-01\n   :ARG0 (b / boy))\n",
    "bmp": "# ::snt Le gâteau, naïve — 小王子\n(g / gâteau :mod (n / naïve))\n",
    # pygls's own test character: 2 UTF-16 units, 4 UTF-8 bytes
    "non-bmp": '# ::snt yum 😋 yum\n(y / yum :op1 "😋" :op2 "😋😋" :mod (g / good))\n',
    "crlf": "# ::id a\r\n(w / want-01\r\n   :ARG0 (b / boy))\r\n",
    "lone-cr": "# ::id a\r(w / want-01 :ARG0 (b / boy))\r",
    "no-final-newline": "(a / b)\n\n(c / d :op1 \"😋\")",
}
ENCODINGS = {
    "utf-16": types.PositionEncodingKind.Utf16,
    "utf-8": types.PositionEncodingKind.Utf8,
    "utf-32": types.PositionEncodingKind.Utf32,
}


def pygls_document(text: str, encoding: str) -> TextDocument:
    return TextDocument(
        "file:///t.amr", text, position_codec=PositionCodec(ENCODINGS[encoding])
    )


@pytest.mark.parametrize("encoding", list(ENCODINGS))
@pytest.mark.parametrize("name", list(TEXTS))
def test_positions_agree_with_pygls(name: str, encoding: str) -> None:
    text = TEXTS[name]
    lines = LineIndex(text, encoding)
    oracle = pygls_document(text, encoding)
    for offset in range(len(text) + 1):
        if text[offset - 1:offset + 1] == "\r\n":
            continue  # between CR and LF: not a position an editor can hold
        if offset == len(text) and not text.endswith(("\n", "\r")):
            continue  # pygls puts this one on a line past the last (see below)
        expected = oracle.client_position_at_offset(offset)
        assert lines.position(offset) == expected, (name, offset)
        assert lines.offset(expected) == offset, (name, offset)


def test_end_of_text_without_final_newline() -> None:
    # the end of the last line, not (pygls) the start of a line past it
    lines = LineIndex('(a / "😋")')
    assert lines.position(9) == types.Position(line=0, character=10)
    assert LineIndex("").position(0) == types.Position(line=0, character=0)
    assert LineIndex("").offset(types.Position(line=0, character=3)) == 0


def test_non_bmp_columns() -> None:
    text = TEXTS["non-bmp"]
    lines16 = LineIndex(text)
    lines8 = LineIndex(text, "utf-8")
    after = text.index("yum", 10)  # the "yum" after the emoji on line 0
    assert lines16.position(after) == types.Position(line=0, character=after + 1)
    assert lines8.position(after) == types.Position(line=0, character=after + 3)
    assert lines16.offset(types.Position(line=0, character=after + 1)) == after


def test_bom_is_added_back() -> None:
    text = "\ufeff# ::id a\n(a / b)\n"
    corpus = read_string(text)
    lines = LineIndex(text, bom=True)
    span = corpus[0].graph.span  # engine offsets: the BOM is not counted
    assert lines.range(span.start, span.end) == types.Range(
        start=types.Position(line=1, character=0),
        end=types.Position(line=1, character=7),
    )
    assert lines.offset(types.Position(line=1, character=0)) == span.start
    assert lines.position(0) == types.Position(line=0, character=1)


def test_clamping() -> None:
    lines = LineIndex("ab\ncd\n")
    assert lines.offset(types.Position(line=0, character=99)) == 2
    assert lines.offset(types.Position(line=99, character=0)) == 6
    assert lines.position(99) == types.Position(line=2, character=0)


def test_line_range_of_crlf_line() -> None:
    lines = LineIndex("(a / b\r\n  :x 1)\r\n")
    assert lines.line_range(0) == types.Range(
        start=types.Position(line=0, character=0),
        end=types.Position(line=0, character=6),
    )


def test_unknown_encoding() -> None:
    with pytest.raises(ValueError, match="utf-7"):
        LineIndex("", "utf-7")


def test_lsp_diagnostic_keeps_code_and_range() -> None:
    text = '# ::id a\n(y / yum :op1 "😋" :mode "😋")\n'
    finding = next(f for f in validate(read_string(text)) if f.code == "W404")
    diagnostic = lsp_diagnostic(finding, LineIndex(text))
    assert diagnostic.code == "W404"
    assert diagnostic.source == "amrcheck"
    assert diagnostic.severity == types.DiagnosticSeverity.Warning
    # '"😋"' after ':mode ' on line 1 (an emoji before it): 3 code points,
    # 4 UTF-16 units
    start = text.index(':mode "') + 6 - text.index("\n") - 1
    assert diagnostic.range == types.Range(
        start=types.Position(line=1, character=start + 1),
        end=types.Position(line=1, character=start + 5),
    )
    utf32 = lsp_range(finding.span, LineIndex(text, "utf-32"))
    assert (utf32.start.character, utf32.end.character) == (start, start + 3)


def test_lsp_text_edit() -> None:
    edit = lsp_text_edit(TextEdit(3, 5, "xy"), LineIndex("😋ab\ncd"))
    assert edit == types.TextEdit(
        range=types.Range(
            start=types.Position(line=0, character=4),
            end=types.Position(line=1, character=1),
        ),
        new_text="xy",
    )


def test_uris(tmp_path) -> None:
    path = tmp_path / "a b" / "x é.amr"
    uri = path_to_uri(path)
    assert uri.startswith("file://") and "%20" in uri
    assert uri_to_path(uri) == path
    assert uri_to_path("untitled:Untitled-1") is None
