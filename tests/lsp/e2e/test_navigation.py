"""Hovers, definition, references, rename, symbols and folding."""

from __future__ import annotations

import pytest
from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pytest_lsp import LanguageClient

from .conftest import LSP_DATA, doc, find, open_document, pos

#: read-only tests (or tests that reopen their document): one server for all
pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest.fixture
def client(shared_client: LanguageClient) -> LanguageClient:
    return shared_client


ANNOTATION = LSP_DATA / "annotations" / "lpp.amr"
TEXT = ANNOTATION.read_text(encoding="utf-8")


def _reentrancy() -> types.Position:
    """The ``i`` of ``:ARG1 i`` (age-01 in lpp_1943.2), which re-enters ``(i / i)``."""
    at = find(TEXT, ":ARG1 i\n")
    return pos(at.line, at.character + len(":ARG1 "))


async def hover(client: LanguageClient, uri: str, needle: str, nth: int = 0) -> str:
    found = await client.text_document_hover_async(
        types.HoverParams(text_document=doc(uri), position=find(TEXT, needle, nth))
    )
    assert found is not None, needle
    return found.contents.value


async def test_hover_on_misaligned_concept(client: LanguageClient) -> None:
    uri = await open_document(client, ANNOTATION)
    text = await hover(client, uri, "beautiful")
    assert text.startswith("**(m / beautiful)**")
    assert "Aligned to reference node **(m / magnificent)** in lpp_1943.2" in text
    assert "[gold/lpp.amr:15:19]" in text
    # one difference, counted as the lens and amrcheck diff count it
    assert "- ~ relabelled `(m / beautiful)`, reference `(m / magnificent)`" in text
    assert "missing `(m / magnificent)`" not in text


async def test_hover_counts_what_it_lists_issue_22(client: LanguageClient) -> None:
    """The count above a node's triples counts its bullets, missing ones
    included, and names the unit ("1 of 2 triples match" sat above 3)."""
    uri = await open_document(client, ANNOTATION)
    for needle, count, lines in (
        ("beautiful", "2 triples of this node: 1 match, 0 missing, 0 extra, "
                      "1 relabelled:", 2),
        ("be-located-at-91", "3 triples of this node: 2 match, 1 missing, "
                             "0 extra, 0 relabelled:", 3),
    ):
        text = await hover(client, uri, needle)
        head, bullets = text.split(count + "\n\n")
        assert len(bullets.splitlines()) == lines
        assert all(line.startswith("- ") for line in bullets.splitlines())


async def test_hover_on_frame_concept(client: LanguageClient) -> None:
    uri = await open_document(client, ANNOTATION)
    text = await hover(client, uri, "see-01")
    assert "PropBank `see-01` — *view*" in text
    assert "- `:ARG1` thing viewed" in text
    assert "5 triples of this node: 5 match, 0 missing, 0 extra, 0 relabelled" in text


async def test_hover_on_variable_reentrancy(client: LanguageClient) -> None:
    uri = await open_document(client, ANNOTATION)
    # ":ARG1 i" in lpp_1943.2 re-enters (i / i)
    found = await client.text_document_hover_async(
        types.HoverParams(text_document=doc(uri), position=_reentrancy())
    )
    text = found.contents.value
    assert text.startswith("**(i / i)**")
    assert "3 triples of this node: 3 match, 0 missing, 0 extra, 0 relabelled" in text
    assert "- ✓ `(a :ARG1 i)`" in text


async def test_hover_on_arg_role(client: LanguageClient) -> None:
    uri = await open_document(client, ANNOTATION)
    text = await hover(client, uri, ":ARG0 (i / i)")
    assert text.startswith("`:ARG0` of `see-01` (view): **viewer**")
    assert "✓ `(s :ARG0 i)` matches reference `(s :ARG0 i)`" in text
    extra = await hover(client, uri, ":polarity -")
    assert "✗ extra: `(s2 :polarity -)` is not in the reference" in extra


async def test_hover_outside_graphs(client: LanguageClient) -> None:
    uri = await open_document(client, ANNOTATION)
    found = await client.text_document_hover_async(
        types.HoverParams(text_document=doc(uri), position=pos(0, 3))
    )
    assert found is None


async def test_definition_and_references(client: LanguageClient) -> None:
    uri = await open_document(client, ANNOTATION)
    use = _reentrancy()
    definition = await client.text_document_definition_async(
        types.DefinitionParams(text_document=doc(uri), position=use)
    )
    assert definition.uri == uri
    assert definition.range.start == find(TEXT, "i / i")
    found = await client.text_document_references_async(
        types.ReferenceParams(
            text_document=doc(uri),
            position=find(TEXT, "i / i"),
            context=types.ReferenceContext(include_declaration=True),
        )
    )
    assert [r.range.start for r in found] == [find(TEXT, "i / i"), use]
    without = await client.text_document_references_async(
        types.ReferenceParams(
            text_document=doc(uri),
            position=use,
            context=types.ReferenceContext(include_declaration=False),
        )
    )
    assert [r.range.start for r in without] == [use]


async def test_rename_within_graph(client: LanguageClient) -> None:
    uri = await open_document(client, ANNOTATION)
    at = find(TEXT, "i / i")
    prepared = await client.text_document_prepare_rename_async(
        types.PrepareRenameParams(text_document=doc(uri), position=at)
    )
    assert prepared.placeholder == "i"
    edit = await client.text_document_rename_async(
        types.RenameParams(text_document=doc(uri), position=at, new_name="me")
    )
    edits = edit.changes[uri]
    assert [e.range.start for e in edits] == [at, _reentrancy()]
    assert {e.new_text for e in edits} == {"me"}


@pytest.mark.parametrize(
    ("new_name", "reason"),
    [("p", "already a variable of this graph"), (":ARG0", "not a valid variable")],
)
async def test_rename_rejected(
    client: LanguageClient, new_name: str, reason: str
) -> None:
    uri = await open_document(client, ANNOTATION)
    with pytest.raises(JsonRpcException, match=reason):
        await client.text_document_rename_async(
            types.RenameParams(
                text_document=doc(uri), position=find(TEXT, "i / i"), new_name=new_name
            )
        )


async def test_document_symbols_and_folding(client: LanguageClient) -> None:
    uri = await open_document(client, ANNOTATION)
    symbols = await client.text_document_document_symbol_async(
        types.DocumentSymbolParams(text_document=doc(uri))
    )
    assert [s.name for s in symbols] == [f"lpp_1943.{n}" for n in range(1, 9)]
    assert symbols[0].detail == "smatch 1.00 · Chapter 1 ."  # the score first
    assert symbols[1].selection_range.start == find(TEXT, "lpp_1943.2")
    folds = await client.text_document_folding_range_async(
        types.FoldingRangeParams(text_document=doc(uri))
    )
    assert len(folds) == 8
    assert (folds[0].start_line, folds[0].end_line) == (
        find(TEXT, "# ::id lpp_1943.1").line, find(TEXT, ":mod 1").line
    )
