"""End-to-end fixtures: ``python -m amr_lsp`` in a subprocess, driven by pytest-lsp.

Every test gets a fresh server (function scope) initialised with the
workspace root ``tests/data/lsp`` and the reference mapping
``annotations/*.amr -> gold/{name}.amr``; tests that need other settings
use :func:`start_client` themselves.
"""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
import pytest_lsp
from lsprotocol import types
from pygls.protocol import default_converter
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities
from pytest_lsp.client import DEFAULT_CLIENT_FEATURES, register_lsp_features

from tests.conftest import data_path

LSP_DATA = data_path("lsp")
#: an annotator's revision of eight Little Prince graphs (gold: gold/lpp.amr)
ANNOTATION = LSP_DATA / "annotations" / "lpp.amr"
SERVER_COMMAND = [sys.executable, "-m", "amr_lsp"]
DEFAULT_OPTIONS: dict[str, Any] = {
    "references": {"annotations/*.amr": "gold/{name}.amr"},
    "debounceMs": 10,
}
#: generous: the machine is shared, a server start takes about a second
TIMEOUT = 20.0


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    for item in items:
        if here in Path(item.fspath).parents:
            item.add_marker(pytest.mark.e2e)


def _publish(client: LanguageClient, params: types.PublishDiagnosticsParams) -> None:
    client.diagnostics[params.uri] = params.diagnostics
    client.published[params.uri] = params.version


def _document_score(client: LanguageClient, params: Any) -> None:
    client.scores.append(params)


def _accept(client: LanguageClient, params: Any) -> None:
    return None


def make_client() -> LanguageClient:
    """pytest-lsp's client plus what our server sends beyond the basics."""
    client = LanguageClient(converter_factory=default_converter)
    client.published = {}  # uri -> version of the last publishDiagnostics
    client.scores = []  # amr/documentScore payloads
    register_lsp_features(
        client,
        {
            **DEFAULT_CLIENT_FEATURES,
            types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS: _publish,
            "amr/documentScore": _document_score,
            types.WORKSPACE_CODE_LENS_REFRESH: _accept,
            types.WORKSPACE_INLAY_HINT_REFRESH: _accept,
            types.CLIENT_REGISTER_CAPABILITY: _accept,
        },
    )
    return client


CONFIG = ClientServerConfig(server_command=SERVER_COMMAND, client_factory=make_client)


async def initialize(
    client: LanguageClient,
    options: Any = None,
    root: Path | None = LSP_DATA,
    capabilities: str = "visual-studio-code",
) -> types.InitializeResult:
    return await client.initialize_session(
        types.InitializeParams(
            capabilities=client_capabilities(capabilities),
            root_uri=root.as_uri() if root is not None else None,
            initialization_options=DEFAULT_OPTIONS if options is None else options,
        )
    )


async def shutdown(client: LanguageClient) -> None:
    """Shut the server down; a server that does not exit in time is left to
    ``client.stop()``, which terminates it (a hung server must not hang the
    test run)."""
    try:
        await asyncio.wait_for(client.shutdown_session(), TIMEOUT)
    except asyncio.TimeoutError:
        pass


@pytest_lsp.fixture(config=CONFIG)
async def client(lsp_client: LanguageClient):
    await initialize(lsp_client)
    yield
    await shutdown(lsp_client)


@pytest_lsp.fixture(config=CONFIG, scope="module")
async def shared_client(lsp_client: LanguageClient):
    """One server for a whole module (mark it ``asyncio(loop_scope="module")``).

    For modules whose tests only read, or reopen their documents: a
    server start costs about a second on a loaded machine.
    """
    await initialize(lsp_client)
    yield
    await shutdown(lsp_client)


@pytest_asyncio.fixture
async def start_client():
    """A factory for servers with other settings: ``await start_client(...)``.

    ``configuration`` is what the client answers to ``workspace/configuration``
    for the ``amrcheck`` section, ``answer_after`` seconds after the request;
    ``options`` the initialization options; ``env`` adds to the server's
    environment.
    """
    started: list[LanguageClient] = []

    async def start(
        configuration: Any = None,
        options: Any = None,
        capabilities: str = "visual-studio-code",
        root: Path | None = LSP_DATA,
        answer_after: float = 0.0,
        env: dict[str, str] | None = None,
    ) -> LanguageClient:
        config = CONFIG if env is None else ClientServerConfig(
            server_command=SERVER_COMMAND, client_factory=make_client,
            server_env={**os.environ, **env},
        )
        client = await config.start()
        started.append(client)
        if configuration is not None:
            client.set_configuration(configuration, section="amrcheck")
        if answer_after:
            features = client.protocol.fm.features
            answer = features[types.WORKSPACE_CONFIGURATION]

            async def late(params: types.ConfigurationParams) -> Any:
                await asyncio.sleep(answer_after)
                return answer(params)

            features[types.WORKSPACE_CONFIGURATION] = late
        client.initialize_result = await initialize(
            client, options, root, capabilities
        )
        return client

    yield start
    for client in started:
        await shutdown(client)
        await client.stop()


async def wait_published(client: LanguageClient, uri: str, version: int) -> None:
    """Until diagnostics of ``uri`` at ``version`` (or later) are published."""

    async def poll() -> None:
        while (client.published.get(uri) or -1) < version:
            await asyncio.sleep(0.01)

    await asyncio.wait_for(poll(), TIMEOUT)


async def wait_score(
    client: LanguageClient, uri: str, version: int, metric: str | None = None
) -> Any:
    """The ``amr/documentScore`` payload of ``uri`` at ``version`` (waiting for
    it), by ``metric`` if given (the configuration may arrive after the
    document is first scored)."""

    def found() -> Any:
        mine = (s for s in reversed(client.scores) if s.uri == uri)
        return next(
            (
                s
                for s in mine
                if s.version == version and metric in (None, s.metric)
            ),
            None,
        )

    async def poll() -> Any:
        while found() is None:
            await asyncio.sleep(0.01)
        return found()

    return await asyncio.wait_for(poll(), TIMEOUT)


async def open_document(
    client: LanguageClient, path: Path, text: str | None = None, version: int = 1
) -> str:
    """Open ``path`` (with ``text`` if given) and wait for its diagnostics."""
    uri = path.as_uri()
    client.published.pop(uri, None)  # it may have been open before
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(
                uri=uri,
                language_id="amr",
                version=version,
                text=path.read_text(encoding="utf-8") if text is None else text,
            )
        )
    )
    await wait_published(client, uri, version)
    return uri


async def change(
    client: LanguageClient,
    uri: str,
    version: int,
    text: str,
    start: tuple[int, int] | None = None,
    end: tuple[int, int] | None = None,
    wait: bool = True,
) -> None:
    """Replace the range ``start``-``end`` (or the whole text) with ``text``."""
    if start is None:
        event: Any = types.TextDocumentContentChangeWholeDocument(text=text)
    else:
        end = start if end is None else end
        event = types.TextDocumentContentChangePartial(
            range=types.Range(
                start=types.Position(line=start[0], character=start[1]),
                end=types.Position(line=end[0], character=end[1]),
            ),
            text=text,
        )
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(
                uri=uri, version=version
            ),
            content_changes=[event],
        )
    )
    if wait:
        await wait_published(client, uri, version)


async def resolved_lenses(client: LanguageClient, uri: str) -> list[types.CodeLens]:
    """The document's code lenses, each resolved (as an editor that shows them).

    The server answers ``textDocument/codeLens`` with ranges only; the
    titles come from ``codeLens/resolve``.
    """
    lenses = await client.text_document_code_lens_async(
        types.CodeLensParams(text_document=doc(uri))
    )
    assert all(lens.command is None for lens in lenses)
    return list(
        await asyncio.gather(
            *(client.code_lens_resolve_async(lens) for lens in lenses)
        )
    )


async def lens_titles(client: LanguageClient, uri: str) -> list[str]:
    titles = []
    for lens in await resolved_lenses(client, uri):
        assert lens.command is not None
        titles.append(lens.command.title)
    return titles


def doc(uri: str) -> types.TextDocumentIdentifier:
    return types.TextDocumentIdentifier(uri=uri)


def pos(line: int, character: int) -> types.Position:
    return types.Position(line=line, character=character)


def by_source(client: LanguageClient, uri: str, source: str) -> list[types.Diagnostic]:
    return [d for d in client.diagnostics[uri] if d.source == source]


def find(text: str, needle: str, occurrence: int = 0) -> types.Position:
    """The UTF-16 position of the ``occurrence``-th ``needle`` in ``text``."""
    at = -1
    for _ in range(occurrence + 1):
        at = text.index(needle, at + 1)
    line = text.count("\n", 0, at)
    line_start = text.rfind("\n", 0, at) + 1
    column = len(text[line_start:at].encode("utf-16-le")) // 2
    return types.Position(line=line, character=column)
