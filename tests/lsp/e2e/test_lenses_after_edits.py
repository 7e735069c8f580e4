"""Lenses after an edit, for an editor that asks for them again by itself
(issue 29: edit to screen in VS Code).

VS Code asks for lenses a debounce after each edit, a debounce that grows
with how long its lens requests take, and restarts it on a
``workspace/codeLens/refresh``. So, to a client that says it is VS Code:
no refresh after its own edits; lenses still where the graphs start are
sent at once, their titles (``codeLens/resolve``) wait for the analysis;
a refresh only when those early lenses turn out misplaced.
"""

from __future__ import annotations

import asyncio
from typing import Any

from lsprotocol import types
from pytest_lsp import LanguageClient, client_capabilities

from .conftest import (
    ANNOTATION,
    CONFIG,
    DEFAULT_OPTIONS,
    LSP_DATA,
    TIMEOUT,
    change,
    doc,
    find,
    open_document,
    shutdown,
    wait_published,
)


async def vscode_client() -> tuple[LanguageClient, list[Any]]:
    """A client that introduces itself as VS Code, and the refresh
    requests it receives."""
    client = await CONFIG.start()
    refreshes: list[Any] = []

    def refreshed(params: Any) -> None:
        refreshes.append(params)

    client.protocol.fm.features[types.WORKSPACE_CODE_LENS_REFRESH] = refreshed
    await client.initialize_session(
        types.InitializeParams(
            capabilities=client_capabilities("visual-studio-code"),
            client_info=types.ClientInfo(name="Visual Studio Code"),
            root_uri=LSP_DATA.as_uri(),
            initialization_options=DEFAULT_OPTIONS,
        )
    )
    return client, refreshes


async def starts(client: LanguageClient, uri: str) -> list[types.Position]:
    lenses = await client.text_document_code_lens_async(
        types.CodeLensParams(text_document=doc(uri))
    )
    return [lens.range.start for lens in lenses]


async def title(client: LanguageClient, uri: str, at: types.Position) -> str:
    lenses = await client.text_document_code_lens_async(
        types.CodeLensParams(text_document=doc(uri))
    )
    [lens] = [lens for lens in lenses if lens.range.start == at]
    resolved = await client.code_lens_resolve_async(lens)
    assert resolved.command is not None
    return resolved.command.title


async def test_lenses_follow_edits_without_refreshes() -> None:
    client, refreshes = await vscode_client()
    try:
        text = ANNOTATION.read_text(encoding="utf-8")
        uri = await open_document(client, ANNOTATION)
        first = find(text, "(c / chapter")
        before = await starts(client, uri)
        assert (await title(client, uri, first)).startswith("smatch 1.00")
        opened = len(refreshes)

        # a letter typed into a concept: the lenses are where they were,
        # sent without waiting; the title is the new version's
        at = find(text, "chapter")
        await change(client, uri, 2, "x", (at.line, at.character + 1), wait=False)
        assert await starts(client, uri) == before
        assert (await title(client, uri, first)).startswith(
            "smatch 0.67 · P 0.67 R 0.67 · 0 missing, 0 extra, 1 relabelled"
        )
        assert len(refreshes) == opened  # VS Code asks by itself

        # a new line moves the lenses below it: they wait for the analysis
        top = find(text, "# ::id lpp_1943.2")
        await change(client, uri, 3, "\n", (top.line, 0), wait=False)
        moved = await starts(client, uri)
        assert moved[0] == before[0]
        assert [p.line for p in moved[1:]] == [p.line + 1 for p in before[1:]]
        assert len(refreshes) == opened

        # a space before a graph's "(": its lens moves along its line; the
        # early lenses were misplaced, so the client is asked to ask again
        graph = find(text, "(s / see-01")
        await change(client, uri, 4, " ", (graph.line + 1, 0), wait=False)
        assert await starts(client, uri) == moved  # sent early, as they were
        await wait_published(client, uri, 4)
        # the refresh follows the analysis: waited for as long as it may take
        # on a loaded machine (TIMEOUT), ended as soon as it comes
        async def refreshed() -> None:
            while len(refreshes) <= opened:
                await asyncio.sleep(0.05)

        await asyncio.wait_for(refreshed(), TIMEOUT)
        assert len(refreshes) == opened + 1
        assert (await starts(client, uri))[1] == types.Position(
            line=graph.line + 1, character=1
        )
    finally:
        await shutdown(client)
        await client.stop()
