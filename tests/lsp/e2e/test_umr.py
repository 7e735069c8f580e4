"""UMR documents in the language server (issue 30, editor).

The document is a real file of the UMR 3.0 English release
(``english_umr-0003.umr``, CC BY-SA 4.0): nine sentences, coreference
chains across sentences, trailing white space, nodes without alignment.
"""

from __future__ import annotations

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from amrcheck.reading.layout import TextEdit, apply_edits
from amrcheck.reading.umr import read_umr_string
from amrcheck.validation.umr import validate_umr
from tests.conftest import data_path

from .conftest import change, doc, find, pos, wait_published

pytestmark = pytest.mark.asyncio(loop_scope="module")

UMR_FILE = data_path("umr") / "english_umr-0003.umr"
TEXT = UMR_FILE.read_text(encoding="utf-8")


@pytest.fixture
def client(shared_client: LanguageClient) -> LanguageClient:
    return shared_client


async def open_umr(
    client: LanguageClient, text: str = TEXT, uri: str | None = None,
    language_id: str = "umr",
) -> str:
    uri = uri or UMR_FILE.as_uri()
    client.published.pop(uri, None)
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(
                uri=uri, language_id=language_id, version=1, text=text
            )
        )
    )
    await wait_published(client, uri, 1)
    return uri


def close(client: LanguageClient, uri: str) -> None:
    client.text_document_did_close(
        types.DidCloseTextDocumentParams(text_document=doc(uri))
    )


def expected(text: str) -> list[tuple[str, int, int]]:
    """The engine's findings of ``text``: (code, 0-based line, column)."""
    return sorted(
        (f.code, f.span.line - 1, f.span.column - 1)
        for f in validate_umr(read_umr_string(text).sentences)
    )


def published(client: LanguageClient, uri: str) -> list[tuple[str, int, int]]:
    return sorted(
        (str(d.code), d.range.start.line, d.range.start.character)
        for d in client.diagnostics[uri]
    )


def apply(text: str, edits: list[types.TextEdit]) -> str:
    """``edits`` applied to ``text`` (ASCII text: characters are code units)."""
    starts = [0]
    for line in text.split("\n"):
        starts.append(starts[-1] + len(line) + 1)

    def offset(p: types.Position) -> int:
        return starts[p.line] + p.character

    return apply_edits(
        text,
        [TextEdit(offset(e.range.start), offset(e.range.end), e.new_text)
         for e in edits],
    )


# -- diagnostics ---------------------------------------------------------------------


async def test_diagnostics_are_the_validators(client: LanguageClient) -> None:
    uri = await open_umr(client)
    found = published(client, uri)
    assert found == expected(TEXT)
    codes = {code for code, _, _ in found}
    assert {"U001", "U304", "U309", "U408"} <= codes
    close(client, uri)


async def test_detected_without_the_language_id(client: LanguageClient) -> None:
    """A ``.txt`` with UMR block headings (language ``plaintext``) is UMR too."""
    uri = await open_umr(
        client, uri="file:///tmp/umr-in-text.txt", language_id="plaintext"
    )
    assert published(client, uri) == expected(TEXT)
    close(client, uri)


async def test_edits_revalidate(client: LanguageClient) -> None:
    uri = await open_umr(client)
    # a wrong aspect value in snt1, and a document triple naming a later sentence
    at = find(TEXT, ":aspect state)")
    column = at.character + len(":aspect ")
    await change(client, uri, 2, "stat", (at.line, column), (at.line, column + 5))
    text = TEXT.replace(":aspect state)", ":aspect stat)", 1)
    assert published(client, uri) == expected(text)
    assert ("U221", at.line, column) in published(client, uri)
    later = find(TEXT, "(s1t2 :contained s1t)")
    await change(client, uri, 3, "(s2p", (later.line, later.character),
                 (later.line, later.character + 5))
    text = text.replace("(s1t2 :contained s1t)", "(s2p :contained s1t)", 1)
    assert "U404" in {code for code, _, _ in published(client, uri)}
    assert published(client, uri) == expected(text)
    close(client, uri)


# -- outline, hover, navigation ------------------------------------------------------


async def test_outline(client: LanguageClient) -> None:
    uri = await open_umr(client)
    symbols = await client.text_document_document_symbol_async(
        types.DocumentSymbolParams(text_document=doc(uri))
    )
    assert [s.name for s in symbols] == [f"snt{n}" for n in range(1, 10)]
    first = symbols[0]
    assert first.detail.startswith("Edmund Pope tasted freedom today")
    assert first.range.start.line == 0
    assert ("s1t", "taste-01") == (first.children[0].name, first.children[0].detail)
    close(client, uri)


async def hover(client: LanguageClient, uri: str, at: types.Position) -> str:
    found = await client.text_document_hover_async(
        types.HoverParams(text_document=doc(uri), position=at)
    )
    assert found is not None
    return found.contents.value


async def test_hover_on_a_variable(client: LanguageClient) -> None:
    uri = await open_umr(client)
    text = await hover(client, uri, find(TEXT, "s1t / taste-01"))
    assert "**s1t** / taste-01 (snt1)" in text
    assert "aligned to 3-3 “tasted”" in text
    assert "- :temporal `s1t2 :contained s1t` (snt1)" in text
    assert "- :modal `author :full-affirmative s1t` (snt1)" in text
    person = await hover(client, uri, find(TEXT, "s1p: 0-0"))
    assert "aligned to no word (0-0)" in person
    assert "- :coref `s1p :same-entity s2p` (snt2)" in person
    close(client, uri)


async def test_hover_on_a_word(client: LanguageClient) -> None:
    uri = await open_umr(client)
    text = await hover(client, uri, find(TEXT, "tasted"))
    assert text.startswith("word 3 **tasted**")
    assert "- `s1t` / taste-01" in text
    close(client, uri)


async def test_hover_in_a_glossed_sentence_shows_the_glosses(
    client: LanguageClient,
) -> None:
    glossed = data_path("umr") / "multilingual" / "glossed.umr"
    text = glossed.read_text(encoding="utf-8")
    uri = await open_umr(client, text, glossed.as_uri())
    word = await hover(client, uri, find(text, "Ninakupenda"))
    assert word.startswith(
        "word 1 **Ninakupenda** · Word Gloss (en): 1SG.love · Morphemes: "
        "ni-na-ku-penda"
    ), word
    assert "- `s1p` / penda-01" in word
    node = await hover(client, uri, find(text, "s1p / penda-01"))
    assert "aligned to 1-1 “Ninakupenda” (1SG.love)" in node, node
    close(client, uri)


async def test_definition_from_a_later_sentence(client: LanguageClient) -> None:
    uri = await open_umr(client)
    use = find(TEXT, "(s1p :same-entity s2p)")
    use = pos(use.line, use.character + 1)
    found = await client.text_document_definition_async(
        types.DefinitionParams(text_document=doc(uri), position=use)
    )
    assert isinstance(found, types.Location)
    assert found.range.start == find(TEXT, "s1p / person")
    close(client, uri)


async def test_references_across_blocks(client: LanguageClient) -> None:
    uri = await open_umr(client)
    found = await client.text_document_references_async(
        types.ReferenceParams(
            text_document=doc(uri), position=find(TEXT, "s1p / person"),
            context=types.ReferenceContext(include_declaration=True),
        )
    )
    starts = sorted((r.range.start.line, r.range.start.character) for r in found)
    use = find(TEXT, "(s1p :same-entity s2p)")
    assert starts == sorted([
        (find(TEXT, "s1p / person").line, find(TEXT, "s1p / person").character),
        (find(TEXT, "s1p: 0-0").line, 0),
        (use.line, use.character + 1),
    ])
    close(client, uri)


# -- completion ----------------------------------------------------------------------


async def complete(client: LanguageClient, uri: str, at: types.Position) -> list[str]:
    found = await client.text_document_completion_async(
        types.CompletionParams(text_document=doc(uri), position=at)
    )
    assert isinstance(found, types.CompletionList)
    return [item.label for item in found.items]


async def test_completion(client: LanguageClient) -> None:
    at = find(TEXT, ":aspect state)")
    text = TEXT.replace(":aspect state)", ":asp state)", 1)
    uri = await open_umr(client, text)
    roles = await complete(client, uri, pos(at.line, at.character + 4))
    assert roles == [":aspect"]
    values = await complete(client, uri, pos(at.line, at.character + 5))
    assert values == []  # right after the role, before its value
    close(client, uri)
    uri = await open_umr(client)
    values = await complete(client, uri, pos(at.line, at.character + len(":aspect ")))
    assert {"state", "performance", "habitual"} <= set(values)
    person = find(TEXT, ":refer-person 3rd")
    values = await complete(
        client, uri, pos(person.line, person.character + len(":refer-person "))
    )
    assert {"1st", "2nd", "3rd"} <= set(values)
    relation = find(TEXT, ":contained s1t)")
    relations = await complete(client, uri, pos(relation.line, relation.character + 1))
    assert {":before", ":after", ":overlap", ":contained", ":depends-on",
            ":full-affirmative", ":same-entity"} <= set(relations)
    assert ":ARG0" not in relations  # sentence roles are not document relations
    close(client, uri)


# -- quick fixes and formatting ------------------------------------------------------


async def actions(
    client: LanguageClient, uri: str, at: types.Position
) -> list[types.CodeAction]:
    found = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=doc(uri), range=types.Range(start=at, end=at),
            context=types.CodeActionContext(diagnostics=[]),
        )
    )
    return [a for a in found or [] if isinstance(a, types.CodeAction)]


async def test_fix_trailing_white_space(client: LanguageClient) -> None:
    uri = await open_umr(client)
    line = TEXT.split("\n")[4]
    assert line.endswith(". ")
    [fix] = await actions(client, uri, pos(4, len(line) - 1))
    assert fix.title == "Remove trailing white space"
    fixed = apply(TEXT, fix.edit.changes[uri])
    assert fixed.split("\n")[4] == line.rstrip()
    assert fixed.replace(line.rstrip() + "\n", line + "\n") == TEXT
    close(client, uri)


async def test_fix_missing_alignment(client: LanguageClient) -> None:
    uri = await open_umr(client)
    missing = [d for d in client.diagnostics[uri] if d.code == "U304"]
    assert missing
    diagnostic = missing[0]
    fixes = await actions(client, uri, diagnostic.range.start)
    [fix] = [f for f in fixes if f.diagnostics and f.diagnostics[0].code == "U304"]
    variable = fix.title.split("'")[1].split(":")[0]
    assert fix.title == f"Add '{variable}: 0-0' (aligned to no word)"
    fixed = apply(TEXT, fix.edit.changes[uri])
    assert f"\n{variable}: 0-0\n" in fixed
    after = expected(fixed)
    assert ("U304", diagnostic.range.start.line, diagnostic.range.start.character) \
        not in after
    assert len([c for c, _, _ in after if c == "U304"]) == len(missing) - 1
    close(client, uri)


async def test_fix_missing_heading(client: LanguageClient) -> None:
    text = TEXT.replace("\n# alignment:\ns1t: 3-3", "\ns1t: 3-3", 1)
    uri = await open_umr(client, text)
    line = text.split("\n").index("s1t: 3-3")
    [fix] = [
        a for a in await actions(client, uri, pos(line, 0))
        if a.title == "Add the heading '# alignment:'"
    ]
    assert apply(text, fix.edit.changes[uri]) == TEXT
    close(client, uri)


async def test_formatting_reindents_graphs_only(client: LanguageClient) -> None:
    line = "    :ARG1 (s1f / freedom)"
    assert line in TEXT
    text = TEXT.replace(line, ":ARG1 (s1f / freedom)", 1)
    uri = await open_umr(client, text)
    edits = await client.text_document_formatting_async(
        types.DocumentFormattingParams(
            text_document=doc(uri),
            options=types.FormattingOptions(tab_size=4, insert_spaces=True),
        )
    )
    formatted = apply(text, edits)
    assert line in formatted.split("\n")
    # only indentation of graph lines changes; other blocks stay as written
    sentences = read_umr_string(text).sentences
    graph_lines = {
        n
        for s in sentences if s.graph is not None
        for n in range(s.graph.span.line - 1, s.graph.span.end_line)
    }
    assert {e.range.start.line for e in edits} <= graph_lines
    assert all(e.range.start.character == 0 and not e.new_text.strip() for e in edits)
    assert [w.strip() for w in formatted.split("\n")] == [
        w.strip() for w in text.split("\n")
    ]
    close(client, uri)

