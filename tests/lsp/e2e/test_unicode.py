"""UTF-16 positions: non-ASCII sentences and a non-BMP character ("😋")."""

from __future__ import annotations

from lsprotocol import types
from pytest_lsp import LanguageClient

from .conftest import LSP_DATA, by_source, change, doc, find, open_document, pos

PATH = LSP_DATA / "unicode.amr"
TEXT = PATH.read_text(encoding="utf-8")
GOLD = (LSP_DATA / "gold" / "unicode.amr").read_text(encoding="utf-8")


def utf8_position(text: str, needle: str) -> types.Position:
    at = text.index(needle)
    line_start = text.rfind("\n", 0, at) + 1
    return pos(text.count("\n", 0, at), len(text[line_start:at].encode("utf-8")))


async def test_ranges_after_an_emoji(client: LanguageClient) -> None:
    uri = await open_document(client, PATH)
    quoted = next(d for d in by_source(client, uri, "amrcheck") if d.code == "W404")
    start = find(TEXT, '"😋"')
    # '"😋"' is 3 code points but 4 UTF-16 units
    assert (quoted.range.start, quoted.range.end) == (
        start, pos(start.line, start.character + 4)
    )
    first, second = by_source(client, uri, "amrcheck-diff")
    assert sorted(r.location.range.start for r in first.related_information) == [
        find(TEXT, ":mod (x / extra)"), find(TEXT, "extra)")
    ]
    # missing ":mode imperative" on the line after the CJK + emoji sentence
    [related] = second.related_information
    assert related.location.range.start == find(GOLD, ":mode imperative")


async def test_hover_and_definition_after_an_emoji(client: LanguageClient) -> None:
    uri = await open_document(client, PATH)
    hover = await client.text_document_hover_async(
        types.HoverParams(text_document=doc(uri), position=find(TEXT, "extra)"))
    )
    assert hover.contents.value.startswith("**(x / extra)**")
    assert "Not aligned to any reference node." in hover.contents.value
    assert hover.range.start == find(TEXT, "extra)")


async def test_typing_after_an_emoji(client: LanguageClient) -> None:
    uri = await open_document(client, PATH)
    # type ':polarity -' right after '"😋"' (UTF-16 column) and see it flagged
    after = find(TEXT, ' :mod (x / extra)')
    await change(client, uri, 2, " :polarity -", (after.line, after.character))
    text = TEXT.replace(' :mod (x / extra)', ' :polarity - :mod (x / extra)', 1)
    flagged = [
        related
        for d in by_source(client, uri, "amrcheck-diff")
        for related in d.related_information
        # the related place names itself too: "... (at annotations/x.amr:3:40)"
        if related.message.startswith("extra (g :polarity -) (at ")
    ]
    assert [r.location.range.start for r in flagged] == [find(text, ":polarity -")]


async def test_utf8_when_the_client_asks(start_client) -> None:
    # pytest-lsp's Neovim profile offers utf-8 first; the server takes it
    client = await start_client(capabilities="neovim")
    uri = await open_document(client, PATH)
    quoted = next(d for d in by_source(client, uri, "amrcheck") if d.code == "W404")
    start = utf8_position(TEXT, '"😋"')
    assert quoted.range.start == start
    assert quoted.range.end.character == start.character + 6  # 1 + 4 + 1 bytes
