"""1,000 random edits: the server never crashes and ends where a fresh open ends."""

from __future__ import annotations

import random

from lsprotocol import types
from pytest_lsp import LanguageClient

from .conftest import ANNOTATION, change, doc, open_document, pos, wait_published

#: what the random edits type: syntax, letters, line breaks, non-BMP text
ALPHABET = ["(", ")", "/", ":", '"', " ", "\n", "\n\n", "😋", "é", "a", "b2",
            ":ARG0", "# ::id x", "-of", "want-01"]


def utf16_position(text: str, offset: int) -> types.Position:
    """Independent of the server's conversion: count UTF-16 units directly."""
    line = text.count("\n", 0, offset)
    start = text.rfind("\n", 0, offset) + 1
    return pos(line, len(text[start:offset].encode("utf-16-le")) // 2)


async def test_thousand_random_edits(client: LanguageClient) -> None:
    rng = random.Random(8)
    text = ANNOTATION.read_text(encoding="utf-8")
    uri = await open_document(client, ANNOTATION, text=text)
    version = 1
    for n in range(1000):
        start = rng.randrange(len(text) + 1)
        if rng.random() < 0.4 and len(text) > 10:
            end = min(len(text), start + rng.randrange(1, 12))
            new = ""
        else:
            end = start
            new = rng.choice(ALPHABET)
        version += 1
        begin, finish = utf16_position(text, start), utf16_position(text, end)
        await change(client, uri, version, new, (begin.line, begin.character),
                     (finish.line, finish.character), wait=n % 100 == 99)
        text = text[:start] + new + text[end:]
        if n % 50 == 49:  # requests on whatever state the text is in
            at = utf16_position(text, rng.randrange(len(text) + 1))
            await client.text_document_hover_async(
                types.HoverParams(text_document=doc(uri), position=at)
            )
            await client.text_document_completion_async(
                types.CompletionParams(text_document=doc(uri), position=at)
            )
            await client.text_document_code_lens_async(
                types.CodeLensParams(text_document=doc(uri))
            )
    await wait_published(client, uri, version)
    assert client.error is None
    edited = [(d.source, d.code, d.message, d.range) for d in client.diagnostics[uri]]
    # reopen the same text from scratch: the same diagnostics
    client.text_document_did_close(
        types.DidCloseTextDocumentParams(text_document=doc(uri))
    )
    client.published[uri] = None
    await open_document(client, ANNOTATION, text=text)
    fresh = [(d.source, d.code, d.message, d.range) for d in client.diagnostics[uri]]
    assert edited == fresh
    assert edited  # 1,000 random edits do break something
