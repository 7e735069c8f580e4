"""Formatting (issue 22): the author's lines are kept unless penman's layout
is asked for; range formatting lays out only the graphs a selection
touches; a graph that does not parse is never changed."""

from __future__ import annotations

import difflib

from lsprotocol import types
from pytest_lsp import LanguageClient

from amr_lsp.convert import LineIndex
from amrcheck import read_corpus, read_string
from amrcheck.reading._parse import tokenize
from amrcheck.reading.layout import TextEdit, apply_edits
from tests.conftest import REPO, shared_path

from .conftest import DEFAULT_OPTIONS, LSP_DATA, change, doc, find, open_document

LITTLE_PRINCE = shared_path("little_prince/amr-bank-struct-v3.0.txt")
#: written for this project: six graphs, each laid out by hand
EXAMPLES = REPO / "examples" / "annotations_v2.amr"


def first_graphs(count: int) -> str:
    """The first ``count`` graphs of Little Prince (with the file's header)."""
    corpus = read_corpus(LITTLE_PRINCE)
    return corpus.source.text[: corpus.entries[count - 1].end] + "\n"


def spaces(tab_size: int) -> types.FormattingOptions:
    return types.FormattingOptions(tab_size=tab_size, insert_spaces=True)


async def format_document(
    client: LanguageClient, uri: str, options: types.FormattingOptions
) -> list[types.TextEdit]:
    return await client.text_document_formatting_async(
        types.DocumentFormattingParams(text_document=doc(uri), options=options)
    )


async def format_range(
    client: LanguageClient, uri: str, start: types.Position, end: types.Position,
    options: types.FormattingOptions,
) -> list[types.TextEdit]:
    return await client.text_document_range_formatting_async(
        types.DocumentRangeFormattingParams(
            text_document=doc(uri),
            range=types.Range(start=start, end=end),
            options=options,
        )
    )


def apply(text: str, edits: list[types.TextEdit]) -> str:
    """Apply LSP edits (UTF-16 positions) to ``text``."""
    lines = LineIndex(text)
    return apply_edits(
        text,
        [
            TextEdit(lines.offset(e.range.start), lines.offset(e.range.end), e.new_text)
            for e in edits
        ],
    )


def tokens(text: str) -> list[str]:
    return [text[start:end] for _, start, end in tokenize(text)]


def changed_lines(before: str, after: str) -> int:
    assert before.count("\n") == after.count("\n")
    return sum(
        old != new
        for old, new in zip(before.split("\n"), after.split("\n"), strict=True)
    )


def graph_lines(text: str, label: str) -> set[int]:
    """The 0-based lines of graph ``label``'s text."""
    [entry] = [e for e in read_string(text) if e.label == label]
    end = entry.end if entry.graph is None else entry.graph.end
    first = text.count("\n", 0, entry.start)
    return set(range(first, text.count("\n", 0, end) + 1))


def rewritten_lines(before: str, after: str) -> int:
    """Lines of ``after`` that are not lines of ``before`` (line by line diff)."""
    diff = difflib.ndiff(before.split("\n"), after.split("\n"))
    return sum(line.startswith("+ ") for line in diff)


async def test_formatting_keeps_the_author_s_lines_issue_22(start_client) -> None:
    """By default formatting only re-indents: 100 Little Prince graphs keep
    every line break and token; penman's layout (asked for by the setting)
    rewrites more than three times as many lines."""
    text = first_graphs(100)
    kept = await start_client()
    uri = await open_document(kept, LSP_DATA / "lpp100.amr", text=text)
    edits = await format_document(kept, uri, spaces(6))
    assert edits
    for edit in edits:  # only the blanks before a line's first token
        assert edit.range.start.character == 0
        assert edit.range.end.line == edit.range.start.line
        assert set(edit.new_text) == {" "} and len(edit.new_text) % 6 == 0
    formatted = apply(text, edits)
    assert tokens(formatted) == tokens(text)
    # the author's one-line node stays on one line
    line = ':name (n / name :op1 "True" :op2 "Stories" :op3 "from" :op4 "Nature")'
    assert f"\n                  {line}\n" in formatted
    assert changed_lines(text, formatted) == len(edits)
    # formatting twice changes nothing
    await change(kept, uri, 2, formatted)
    assert not await format_document(kept, uri, spaces(6))

    penman = await start_client(options={**DEFAULT_OPTIONS, "formatStyle": "penman"})
    uri = await open_document(penman, LSP_DATA / "lpp100.amr", text=text)
    relaid = apply(text, await format_document(penman, uri, spaces(6)))
    assert tokens(relaid) == tokens(text)
    assert f"\n                  {line}\n" not in relaid
    assert relaid.count("\n") > text.count("\n")
    assert rewritten_lines(text, relaid) > 3 * rewritten_lines(text, formatted)


async def test_penman_layout_keeps_metadata_and_comments(start_client) -> None:
    client = await start_client(options={**DEFAULT_OPTIONS, "formatStyle": "penman"})
    text = (
        "# a file comment\n\n"
        "# ::id f.1\n# ::snt The boy wants 😋 to go.\n"
        "(w / want-01 :ARG0 (b / boy)\n  :ARG1 (g / go-02 :ARG0 b))\n\n"
        "# ::id f.2\n(x / broken :ARG0\n"
    )
    path = LSP_DATA / "annotations" / "format.amr"
    uri = await open_document(client, path, text=text)
    edits = await format_document(client, uri, spaces(2))
    assert len(edits) == 1  # the broken graph is left alone
    formatted = apply(text, edits)
    assert formatted == (
        "# a file comment\n\n"
        "# ::id f.1\n# ::snt The boy wants 😋 to go.\n"
        "(w / want-01\n   :ARG0 (b / boy)\n"
        "   :ARG1 (g / go-02\n            :ARG0 b))\n\n"
        "# ::id f.2\n(x / broken :ARG0\n"
    )
    await change(client, uri, 2, formatted)
    assert not await format_document(client, uri, spaces(2))


#: the examples with each first-level role indented by one space, not three
MESSY = EXAMPLES.read_text(encoding="utf-8").replace("\n   :", "\n :")


def edited_lines(edits: list[types.TextEdit]) -> set[int]:
    return {
        line for edit in edits
        for line in range(edit.range.start.line, edit.range.end.line + 1)
    }


async def test_range_formatting_lays_out_only_the_graphs_it_touches_issue_22(
    client: LanguageClient,
) -> None:
    uri = await open_document(client, LSP_DATA / "examples.amr", text=MESSY)
    everything = edited_lines(await format_document(client, uri, spaces(3)))
    ex2, ex3 = graph_lines(MESSY, "ex.2"), graph_lines(MESSY, "ex.3")
    assert everything - ex2 - ex3  # other graphs have edits too
    # the cursor in one graph (an empty range): that graph only
    at = find(MESSY, "visit-01")
    inside = await format_range(client, uri, at, at, spaces(3))
    assert inside and edited_lines(inside) <= ex2
    # a selection from one graph into the next: both
    both = await format_range(
        client, uri, find(MESSY, "(g / girl)"), find(MESSY, "find-01"), spaces(3)
    )
    assert edited_lines(both) == everything & (ex2 | ex3)
    formatted = apply(MESSY, both)
    assert "\n   :ARG0 (g / girl)" in formatted  # ex.2
    assert "\n   :ARG0 (p / person" in formatted  # ex.3
    assert "\n :ARG1 (r / rain-01" in formatted  # ex.5, not selected
    # one level is the editor's: a tab when it indents with tabs
    tabs = await format_range(
        client, uri, at, at, types.FormattingOptions(tab_size=4, insert_spaces=False)
    )
    assert tabs and all(set(edit.new_text) == {"\t"} for edit in tabs)


async def test_a_graph_that_does_not_parse_is_never_formatted_issue_22(
    start_client,
) -> None:
    broken = MESSY.replace(":manner (q / quick-02))", ":manner (q / quick-02)")
    ex3 = graph_lines(broken, "ex.3")
    for style in ("keep-lines", "penman"):
        client = await start_client(options={**DEFAULT_OPTIONS, "formatStyle": style})
        uri = await open_document(client, LSP_DATA / "examples.amr", text=broken)
        edits = await format_document(client, uri, spaces(3))
        assert edits, style
        assert not edited_lines(edits) & ex3, style
        at = find(broken, "outage")
        assert not await format_range(client, uri, at, at, spaces(3)), style
