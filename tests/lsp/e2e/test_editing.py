"""Completion and quick fixes."""

from __future__ import annotations

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from amr_lsp.convert import LineIndex
from amrcheck.reading.layout import TextEdit, apply_edits

from .conftest import LSP_DATA, change, doc, find, open_document, pos

#: read-only tests (or tests that reopen their document): one server for all
pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest.fixture
def client(shared_client: LanguageClient) -> LanguageClient:
    return shared_client


PATH = LSP_DATA / "annotations" / "typing.amr"
START = "# ::id t.1\n# ::snt The boy wants to go.\n(w / want-01\n   "


async def complete(client: LanguageClient, uri: str, at: types.Position):
    return await client.text_document_completion_async(
        types.CompletionParams(text_document=doc(uri), position=at)
    )


async def test_frame_aware_roles(client: LanguageClient) -> None:
    text = START + ":AR"
    uri = await open_document(client, PATH, text=text)
    found = await complete(client, uri, pos(3, 6))
    first = sorted(found.items, key=lambda i: i.sort_text)[:3]
    assert [(i.label, i.detail.lower()) for i in first] == [
        (":ARG0", "want-01: wanter"),
        (":ARG1", "want-01: thing wanted"),
        (":ARG2", "want-01: beneficiary"),
    ]
    assert any(i.label == ":location" for i in found.items)
    # the typed ':AR' is replaced
    assert first[0].text_edit.range == types.Range(start=pos(3, 3), end=pos(3, 6))


async def test_concepts_from_the_frame_inventory(client: LanguageClient) -> None:
    text = START + ":ARG1 (g / go-0"
    uri = await open_document(client, PATH, text=text)
    found = await complete(client, uri, pos(3, len("   :ARG1 (g / go-0")))
    labels = [i.label for i in found.items]
    assert "go-02" in labels and all(label.startswith("go-0") for label in labels)
    go = next(i for i in found.items if i.label == "go-02")
    assert "motion" in go.detail  # the roleset's name
    assert "ARG0" in go.documentation


async def test_variables_of_the_graph(client: LanguageClient) -> None:
    text = START + ":ARG0 (b / boy)\n   :ARG1 (g / go-02 :ARG0 "
    uri = await open_document(client, PATH, text=text)
    found = await complete(client, uri, pos(4, len("   :ARG1 (g / go-02 :ARG0 ")))
    assert {(i.label, i.detail) for i in found.items} == {
        ("w", "want-01"), ("b", "boy"), ("g", "go-02")
    }


async def quick_fixes(client: LanguageClient, uri: str, code: str):
    diagnostic = next(d for d in client.diagnostics[uri] if d.code == code)
    actions = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=doc(uri),
            range=diagnostic.range,
            context=types.CodeActionContext(diagnostics=[diagnostic]),
        )
    )
    return [
        a for a in actions or [] if a.diagnostics and a.diagnostics[0].code == code
    ]


def apply(text: str, action: types.CodeAction, uri: str) -> str:
    lines = LineIndex(text)
    return apply_edits(
        text,
        [
            TextEdit(lines.offset(e.range.start), lines.offset(e.range.end), e.new_text)
            for e in action.edit.changes[uri]
        ],
    )


async def only_fix(
    client: LanguageClient, text: str, code: str
) -> tuple[str, str, str]:
    """``text`` opened and its one quick fix for ``code`` applied: the
    fix's title, the text fixed and the document's URI."""
    uri = await open_document(client, PATH, text=text)
    [action] = await quick_fixes(client, uri, code)
    return action.title, apply(text, action, uri), uri


async def test_fix_duplicate_variable(client: LanguageClient) -> None:
    text = "# ::id t.1\n(w / want-01 :ARG0 (b / boy) :ARG1 (b / believe-01 :ARG0 b))\n"
    title, fixed, uri = await only_fix(client, text, "E101")
    assert title == "Rename this 'b' to 'b2'"
    assert "(b2 / believe-01" in fixed
    await change(client, uri, 2, fixed)
    assert not [d for d in client.diagnostics[uri] if d.source == "amrcheck"]


async def test_fix_unclosed_parentheses(client: LanguageClient) -> None:
    text = (
        "# ::id t.1\n# ::snt 😋\n(w / want-01\n   :ARG0 (b / boy\n"
        "      :mod \"😋\"\n\n"
    )
    title, fixed, uri = await only_fix(client, text, "E001")
    assert title == "Close 2 parentheses"
    assert fixed == text.replace('"😋"\n', '"😋"))\n')
    await change(client, uri, 2, fixed)
    assert not [d for d in client.diagnostics[uri] if d.code.startswith("E")]


async def test_no_parenthesis_fix_where_the_layout_leaves_a_choice(
    client: LanguageClient,
) -> None:
    """One line: the ")" may close "b" before ":mod" or after it (issue 29)."""
    text = "# ::id t.1\n(w / want-01 :ARG0 (b / boy :mod \"😋\"\n\n"
    uri = await open_document(client, PATH, text=text)
    assert await quick_fixes(client, uri, "E001") == []


async def test_fix_missing_id(client: LanguageClient) -> None:
    text = "# ::id typing.1\n(a / a)\n\n# ::snt no id\n(b / boy)\n"
    title, fixed, uri = await only_fix(client, text, "W101")
    assert title == "Add '# ::id typing.2'"
    assert fixed.endswith("# ::id typing.2\n# ::snt no id\n(b / boy)\n")
    await change(client, uri, 2, fixed)
    assert not [d for d in client.diagnostics[uri] if d.source == "amrcheck"]


async def test_no_fix_offered_elsewhere(client: LanguageClient) -> None:
    text = "# ::id t.1\n(w / want-01 :ARG0 (b / boy))\n"
    uri = await open_document(client, PATH, text=text)
    actions = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=doc(uri),
            range=types.Range(start=pos(1, 0), end=pos(1, 5)),
            context=types.CodeActionContext(diagnostics=[]),
        )
    )
    assert not actions
    assert find(text, "boy")  # the text is what the test thinks it is
