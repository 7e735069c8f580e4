"""Lenses after an edit, for an editor that asks for them again by itself
(issue 29: edit to screen in VS Code).

VS Code asks for lenses a debounce after each edit, restarts that
debounce on a ``workspace/codeLens/refresh``, and repaints a lens only in
a resolve step of its own. So, to a client that says it is VS Code: no
refresh after its own edits, and lenses that come with their titles (of
the current version), with nothing left to resolve.
"""

from __future__ import annotations

from typing import Any

from lsprotocol import types
from pytest_lsp import LanguageClient, client_capabilities

from .conftest import (
    ANNOTATION,
    CONFIG,
    DEFAULT_OPTIONS,
    LSP_DATA,
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


async def lenses(client: LanguageClient, uri: str) -> list[types.CodeLens]:
    found = await client.text_document_code_lens_async(
        types.CodeLensParams(text_document=doc(uri))
    )
    assert found is not None
    return found


def title(found: list[types.CodeLens], at: types.Position) -> str:
    [lens] = [lens for lens in found if lens.range.start == at]
    assert lens.command is not None
    return lens.command.title


async def test_lenses_follow_edits_without_refreshes() -> None:
    client, refreshes = await vscode_client()
    try:
        text = ANNOTATION.read_text(encoding="utf-8")
        uri = await open_document(client, ANNOTATION)
        first = find(text, "(c / chapter")
        before = await lenses(client, uri)
        assert all(lens.command is not None for lens in before)
        assert title(before, first).startswith("smatch 1.00")
        opened = len(refreshes)

        # a letter typed into a concept: the edited graph's lens has its
        # new title, the others are the lenses sent before
        at = find(text, "chapter")
        await change(client, uri, 2, "x", (at.line, at.character + 1), wait=False)
        typed = await lenses(client, uri)
        assert title(typed, first).startswith(
            "smatch 0.67 · P 0.67 R 0.67 · 0 missing, 0 extra, 1 relabelled"
        )
        assert [a == b for a, b in zip(typed, before, strict=True)] == [False] + [
            True
        ] * (len(before) - 1)
        # a resolve (no VS Code needs one) gives the same title
        resolved = await client.code_lens_resolve_async(typed[0])
        assert resolved.command is not None
        assert resolved.command.title == title(typed, first)
        assert len(refreshes) == opened  # VS Code asks by itself

        # a new line moves the lenses below it
        top = find(text, "# ::id lpp_1943.2")
        await change(client, uri, 3, "\n", (top.line, 0), wait=False)
        moved = [lens.range.start for lens in await lenses(client, uri)]
        assert moved[0] == before[0].range.start
        assert [p.line for p in moved[1:]] == [
            lens.range.start.line + 1 for lens in before[1:]
        ]

        # a space before a graph's "(": its lens moves along its line
        graph = find(text, "(s / see-01")
        await change(client, uri, 4, " ", (graph.line + 1, 0), wait=False)
        assert (await lenses(client, uri))[1].range.start == types.Position(
            line=graph.line + 1, character=1
        )
        await wait_published(client, uri, 4)
        assert len(refreshes) == opened
    finally:
        await shutdown(client)
        await client.stop()
