"""A reference that is missing, malformed, unreadable, or changes on disk."""

from __future__ import annotations

import shutil

from lsprotocol import types
from pytest_lsp import LanguageClient

from .conftest import (
    LSP_DATA,
    by_source,
    change,
    doc,
    find,
    lens_titles,
    open_document,
)

BROKEN = LSP_DATA / "broken"


async def test_missing_reference(client: LanguageClient) -> None:
    path = BROKEN / "missing_ref.amr"
    uri = await open_document(client, path)
    [problem] = by_source(client, uri, "amrcheck-diff")
    assert "does-not-exist.amr not found (from # ::reference)" in problem.message
    assert problem.severity == types.DiagnosticSeverity.Warning
    text = path.read_text(encoding="utf-8")
    assert problem.range.start == find(text, "does-not-exist.amr")
    assert any("not found" in m.message for m in client.messages)
    assert await lens_titles(client, uri) == ["smatch – · reference unavailable"]
    # the server keeps working
    hover = await client.text_document_hover_async(
        types.HoverParams(text_document=doc(uri), position=find(text, "want-01"))
    )
    assert "PropBank `want-01`" in hover.contents.value


async def test_malformed_reference(client: LanguageClient) -> None:
    uri = await open_document(client, BROKEN / "malformed_ref.amr")
    [problem] = by_source(client, uri, "amrcheck-diff")
    assert "1 graph with syntax errors (first at line 3) cannot be compared" in (
        problem.message
    )
    assert await lens_titles(client, uri) == [
        "smatch – · reference graph b.1 has errors",
        "smatch 1.00 · P 1.00 R 1.00 · 0 missing, 0 extra, 0 relabelled "
        "vs broken/malformed_gold.amr#b.2",
    ]


async def test_reference_not_utf8(client: LanguageClient) -> None:
    uri = await open_document(client, BROKEN / "not_utf8_ref.amr")
    [problem] = by_source(client, uri, "amrcheck-diff")
    assert "cannot read reference file" in problem.message
    assert "not valid UTF-8" in problem.message


async def test_reference_changes_on_disk(start_client, tmp_path) -> None:
    # the workspace is tmp_path: a header may name only files inside it
    client = await start_client(root=tmp_path)
    shutil.copy(LSP_DATA / "gold" / "lpp.amr", tmp_path / "gold.amr")
    text = "# ::reference gold.amr\n" + (LSP_DATA / "gold" / "lpp.amr").read_text(
        encoding="utf-8"
    ).split("\n\n", 1)[1]
    uri = await open_document(client, tmp_path / "doc.amr", text=text)
    assert not by_source(client, uri, "amrcheck-diff")
    gold = (tmp_path / "gold.amr").read_text(encoding="utf-8")
    (tmp_path / "gold.amr").write_text(
        gold.replace("(c / chapter", "(c / section"), encoding="utf-8"
    )
    client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams(
            changes=[
                types.FileEvent(
                    uri=(tmp_path / "gold.amr").as_uri(),
                    type=types.FileChangeType.Changed,
                )
            ]
        )
    )
    # any later edit re-reads it too; wait for the re-analysis with one
    await change(client, uri, 2, "", (0, 0), (0, 0))
    [concept] = by_source(client, uri, "amrcheck-diff")[:1]
    assert "relabelled (c / section)" in concept.message
