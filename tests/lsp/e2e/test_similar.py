"""Similar annotations: precedents of the graph under the cursor, from an index."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

from lsprotocol import types
from pytest_lsp import LanguageClient

from amrcheck.metrics import get_metric
from amrcheck.reading.corpus import read_corpus
from amrcheck.search import Index, build_index

from .conftest import ANNOTATION, DEFAULT_OPTIONS, LSP_DATA, doc, find, open_document

GOLD = LSP_DATA / "gold" / "lpp.amr"
TEXT = ANNOTATION.read_text(encoding="utf-8")


def _index(tmp_path: Path, *files: Path) -> Path:
    path = tmp_path / "gold.idx"
    build_index(list(files), get_metric("wlk")).index.save(path)
    return path


def _options(index: Path, top: int = 3) -> dict[str, object]:
    return {**DEFAULT_OPTIONS, "similar": {"index": str(index), "top": top}}


async def _hover(client: LanguageClient, uri: str, needle: str) -> str | None:
    at = find(TEXT, needle)
    if needle.startswith("("):  # on the variable after the parenthesis
        at = types.Position(line=at.line, character=at.character + 1)
    found = await client.text_document_hover_async(
        types.HoverParams(text_document=doc(uri), position=at)
    )
    return None if found is None else found.contents.value


async def test_the_top_node_hover_lists_precedents_with_links(
    start_client, tmp_path: Path
) -> None:
    index = _index(tmp_path, GOLD)
    client = await start_client(options=_options(index))
    uri = await open_document(client, ANNOTATION)
    text = await _hover(client, uri, "(s / see-01") or ""
    header = "**Similar annotations** (wlk, 8 indexed)"
    assert header in text
    lines = [line for line in text.split(header)[1].splitlines() if line]
    # what the engine finds for the same graph, each with a link to its line
    mine = next(e.graph for e in read_corpus(ANNOTATION) if e.id == "lpp_1943.2")
    hits = Index.load(index).search(mine, top=3)
    assert len(lines) == len(hits) == 3
    for line, hit in zip(lines, hits, strict=True):
        link = f"{GOLD.as_uri()}#L{hit.graph.line}"
        name = hit.graph.id.replace("_", "\\_")
        assert line.startswith(f"- `{hit.score:.3f}` [{name}]({link}) — ")
    # and the scores are WLK's own
    gold = {e.id: e.graph for e in read_corpus(GOLD)}
    wlk = get_metric("wlk")
    for hit in hits:
        assert abs(hit.score - wlk.score(mine, gold[hit.graph.id]).f1) < 1e-9
    # other tokens' hovers are as before: no section
    assert "Similar annotations" not in (await _hover(client, uri, "beautiful") or "")


async def test_the_command_returns_the_precedents_and_leaves_the_graph_out(
    start_client, tmp_path: Path
) -> None:
    # the annotation file itself is indexed: its own graph must not come back
    client = await start_client(options=_options(_index(tmp_path, ANNOTATION), 2))
    uri = await open_document(client, ANNOTATION)
    at = find(TEXT, "(s / see-01")
    hits = await client.workspace_execute_command_async(
        types.ExecuteCommandParams(
            command="amrcheck.similarAnnotations",
            arguments=[uri, at.line, at.character + 1],
        )
    )
    assert len(hits) == 2
    assert all(hit["uri"] == ANNOTATION.as_uri() for hit in hits)
    assert all(hit["line"] != at.line for hit in hits)
    assert hits[0]["score"] >= hits[1]["score"]
    assert {"id", "snt", "score", "uri", "line"} <= set(hits[0])


async def test_an_index_of_another_version_is_refused_once_and_hovers_go_on(
    start_client, tmp_path: Path
) -> None:
    index = _index(tmp_path, GOLD)
    old = tmp_path / "old.idx"
    with zipfile.ZipFile(index) as source, zipfile.ZipFile(old, "w") as target:
        for item in source.infolist():
            data = source.read(item)
            if item.filename == "manifest.json":
                manifest = json.loads(data)
                manifest["amrcheck"] = "0.0.1"
                data = json.dumps(manifest).encode()
            target.writestr(item, data)
    client = await start_client(options=_options(old))
    uri = await open_document(client, ANNOTATION)
    text = await _hover(client, uri, "(s / see-01") or ""
    assert text.startswith("**(s / see-01)**") and "Similar" not in text
    await _hover(client, uri, "(s / see-01")
    refused = [m.message for m in client.messages if "similar annotations" in m.message]
    assert refused == [
        f"amrcheck: similar annotations: {old} was built by amrcheck 0.0.1, this is "
        "amrcheck 0.1.0: rebuild it with 'amrcheck index'"
    ]
