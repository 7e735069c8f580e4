"""Scores at a glance (issue 22): low-score warnings, scores in document
symbols, and the command that goes to the next graph below the threshold."""

from __future__ import annotations

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from .conftest import (
    LSP_DATA,
    by_source,
    doc,
    find,
    open_document,
    pos,
    wait_published,
)

ANNOTATION = LSP_DATA / "annotations" / "lpp.amr"
TEXT = ANNOTATION.read_text(encoding="utf-8")
#: the graphs of lpp.amr below 0.98 (smatch 0.9677, 0.9091, 0.9756)
LOW = {
    "lpp_1943.2": find(TEXT, "(s / see-01"),
    "lpp_1943.4": find(TEXT, "(b / be-located-at-91"),
}


def first_line_of(graph_id: str) -> int:
    """The 0-based line of the graph after ``# ::id graph_id``."""
    lines = TEXT.split("\n")
    at = next(i for i, line in enumerate(lines) if f"::id {graph_id} " in line)
    return next(i for i in range(at, len(lines)) if lines[i].startswith("("))


async def next_low(client: LanguageClient, uri: str, line: int, character: int):
    return await client.workspace_execute_command_async(
        types.ExecuteCommandParams(
            command="amrcheck.nextLowScore", arguments=[uri, line, character]
        )
    )


@pytest.mark.slow
async def test_low_scores_stand_out(start_client) -> None:
    client = await start_client(configuration={"lowScoreThreshold": 0.98})
    uri = await open_document(client, ANNOTATION)
    await client.workspace_execute_command_async(  # the configured analysis
        types.ExecuteCommandParams(command="amrcheck.documentScore", arguments=[uri])
    )
    low = by_source(client, uri, "amrcheck-score")
    fifth = first_line_of("lpp_1943.5")
    assert [(d.range.start, d.message) for d in low] == [
        (LOW["lpp_1943.2"], "smatch 0.97 < 0.98"),
        (LOW["lpp_1943.4"], "smatch 0.91 < 0.98"),
        # 0.9756 shown as 0.98 would not look low
        (pos(fifth, 0), "smatch 0.9756 < 0.98"),
    ]
    assert all(d.code == "low-score" for d in low)
    assert all(d.severity == types.DiagnosticSeverity.Warning for d in low)
    # on the graph's first line only
    assert all(d.range.end.line == d.range.start.line for d in low)

    # document symbols carry the score (an outline to scan or sort by score)
    symbols = await client.text_document_document_symbol_async(
        types.DocumentSymbolParams(text_document=doc(uri))
    )
    details = {s.name: s.detail for s in symbols}
    assert details["lpp_1943.4"].startswith("smatch 0.91 · ")
    assert details["lpp_1943.1"] == "smatch 1.00 · Chapter 1 ."

    # next graph below the threshold after a position, wrapping around
    first = await next_low(client, uri, 0, 0)
    assert (first["id"], first["line"], first["character"]) == (
        "lpp_1943.2", LOW["lpp_1943.2"].line, 0
    )
    assert first["score"] < first["threshold"] == 0.98 and not first["wrapped"]
    second = await next_low(client, uri, first["line"], 0)
    assert second["id"] == "lpp_1943.4" and second["metric"] == "smatch"
    third = await next_low(client, uri, second["line"], 5)
    assert third["id"] == "lpp_1943.5" and third["line"] == fifth
    again = await next_low(client, uri, fifth + 1, 0)
    assert again["id"] == "lpp_1943.2" and again["wrapped"]


async def test_no_low_scores_under_the_default_threshold(
    client: LanguageClient,
) -> None:
    uri = await open_document(client, ANNOTATION)
    # every graph scores above 0.8
    assert not by_source(client, uri, "amrcheck-score")
    assert await next_low(client, uri, 0, 0) is None
    # a graph made worse gets its warning
    worse = TEXT.replace("(c / chapter\n  :mod 1)", "(b / book\n  :mod 2)")
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=worse)],
        )
    )
    await wait_published(client, uri, 2)
    found = await next_low(client, uri, 0, 0)
    assert found["id"] == "lpp_1943.1" and found["score"] < 0.8
    [low] = by_source(client, uri, "amrcheck-score")
    assert low.message == f"smatch {found['score']:.2f} < 0.80"
    assert low.range.start == find(worse, "(b / book")


async def test_symbols_of_a_document_without_reference(
    client: LanguageClient,
) -> None:
    gold = LSP_DATA / "gold" / "lpp.amr"
    uri = await open_document(client, gold)
    symbols = await client.text_document_document_symbol_async(
        types.DocumentSymbolParams(text_document=doc(uri))
    )
    assert symbols[0].detail == "Chapter 1 ."


async def test_graph_scores_for_a_list_by_score(start_client) -> None:
    client = await start_client(configuration={"lowScoreThreshold": 0.98})
    uri = await open_document(client, ANNOTATION)
    answer = await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command="amrcheck.graphScores", arguments=[uri])
    )
    assert (answer["metric"], answer["threshold"]) == ("smatch", 0.98)
    graphs = answer["graphs"]
    assert [g["id"] for g in graphs] == [f"lpp_1943.{i}" for i in range(1, 9)]
    # the exact scores (a list sorts by them), not the lens's two digits
    by_id = {g["id"]: g for g in graphs}
    assert round(by_id["lpp_1943.4"]["score"], 4) == 0.9091
    assert round(by_id["lpp_1943.5"]["score"], 4) == 0.9756
    assert {g["id"] for g in graphs if g["low"]} == set(LOW) | {"lpp_1943.5"}
    assert all(g["low"] == (g["score"] < 0.98) for g in graphs)
    # the place nextLowScore goes to, and the whole entry with its metadata
    fourth = by_id["lpp_1943.4"]
    assert (fourth["line"], fourth["character"]) == (LOW["lpp_1943.4"].line, 0)
    assert fourth["range"]["start"]["line"] == LOW["lpp_1943.4"].line - 3
    assert fourth["sentence"] == "Here is a copy of the drawing ."
    assert fourth["note"] is None


async def test_graph_scores_without_reference(client: LanguageClient) -> None:
    uri = await open_document(client, LSP_DATA / "gold" / "lpp.amr")
    answer = await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command="amrcheck.graphScores", arguments=[uri])
    )
    first = answer["graphs"][0]
    assert first["score"] is None and not first["low"]
    assert first["note"] == "no reference file configured"
