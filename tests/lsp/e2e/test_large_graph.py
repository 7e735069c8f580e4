"""The editor never blocks on a large graph (issue 35): a document holding
a whole book joined into one graph is scored under a tiny
``amrcheck.timeBudget``; the server answers another document meanwhile
and reports the cut search on the lens, the hover and the document score."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from lsprotocol import types

from tests.conftest import data_path

from .conftest import (
    DEFAULT_OPTIONS,
    LSP_DATA,
    doc,
    find,
    lens_titles,
    open_document,
    wait_score,
)

LARGE = data_path("large")
#: the smallest budget the setting takes: far below what the joined graph's
#: search needs, so it is always cut
TINY_BUDGET = 0.01


def workspace(root: Path) -> tuple[Path, Path]:
    """``annotations/`` with the joined book and a small document, their
    references under ``gold/`` (the default mapping); the two documents."""
    for folder in ("annotations", "gold"):
        (root / folder).mkdir()
    large = root / "annotations" / "book.amr"
    shutil.copy(LARGE / "little_prince_40_joined.cand.amr", large)
    shutil.copy(LARGE / "little_prince_40_joined.ref.amr", root / "gold" / "book.amr")
    small = root / "annotations" / "lpp.amr"
    shutil.copy(LSP_DATA / "annotations" / "lpp.amr", small)
    shutil.copy(LSP_DATA / "gold" / "lpp.amr", root / "gold" / "lpp.amr")
    return large, small


@pytest.mark.slow
async def test_a_large_graph_is_cut_while_another_document_is_answered(
    start_client, tmp_path: Path
) -> None:
    large, small = workspace(tmp_path)
    client = await start_client(
        options={**DEFAULT_OPTIONS, "timeBudget": TINY_BUDGET}, root=tmp_path
    )
    book = large.as_uri()
    # the book is opened (its scoring starts); the small document is asked
    # about without waiting for it
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(
                uri=book,
                language_id="amr",
                version=1,
                text=large.read_text(encoding="utf-8"),
            )
        )
    )
    uri = await open_document(client, small)
    symbols = await client.text_document_document_symbol_async(
        types.DocumentSymbolParams(text_document=doc(uri))
    )
    assert [s.name for s in symbols][:2] == ["lpp_1943.1", "lpp_1943.2"]
    assert symbols[0].detail is not None
    assert symbols[0].detail.startswith("smatch 1.00")

    # the book's score: published, the cut said
    score = await wait_score(client, book, 1)
    assert score.compared == 1 and score.cut == 1
    assert 0 < score.f1 < 1
    (title,) = await lens_titles(client, book)
    assert title.startswith(f"smatch {score.f1:.2f} (at least: search cut by the ")
    assert title.endswith("vs gold/book.amr#doc")
    text = large.read_text(encoding="utf-8")
    hover = await client.text_document_hover_async(
        types.HoverParams(text_document=doc(book), position=find(text, "s2s / see"))
    )
    assert hover is not None and isinstance(hover.contents, types.MarkupContent)
    # the score is cut; the diff's alignment is cut too unless its ILP
    # finished within its own limit: either way the hover says the score
    # is a lower bound
    said = hover.contents.value
    assert (
        "was cut by the time budget (`amrcheck.timeBudget`)" in said
        and ("Its score is a lower bound." in said
             or "its score is a lower bound." in said)
    ), said
    # the small document was scored too (whether its searches met the tiny
    # budget depends on the machine's load: not asserted)
    assert (await wait_score(client, uri, 1)).compared == 8
