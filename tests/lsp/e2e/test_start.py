"""Starting the server (stdio, TCP, ``amrcheck lsp``) and configuring it."""

from __future__ import annotations

import asyncio
import contextlib
import socket
import subprocess
import sys

import pytest
from lsprotocol import types

from .conftest import (
    ANNOTATION,
    TIMEOUT,
    initialize,
    lens_titles,
    make_client,
    open_document,
    wait_published,
)


async def test_amrcheck_lsp_command() -> None:
    client = make_client()
    await client.start_io(
        sys.executable, "-c", "from amrcheck.cli import main; main()", "lsp"
    )
    try:
        result = await initialize(client)
        assert result.server_info.name == "amr-lsp"
        uri = await open_document(client, ANNOTATION)
        assert client.diagnostics[uri]
        await client.shutdown_session()
    finally:
        await client.stop()


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


async def test_tcp() -> None:
    port = _free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "amr_lsp", "--tcp", "--port", str(port)],
        stderr=subprocess.DEVNULL,  # pygls prints SystemExit there on exit
    )
    client = make_client()
    try:
        for _ in range(400):  # until the server listens (a probe would end it:
            try:  # pygls serves one TCP connection, then exits)
                await client.start_tcp("127.0.0.1", port)
                break
            except OSError:
                await asyncio.sleep(0.05)
        await initialize(client)
        uri = await open_document(client, ANNOTATION)
        assert any(
            "relabelled (m / magnificent) at gold/lpp.amr:15:23" in d.message
            for d in client.diagnostics[uri]
        ), [d.message for d in client.diagnostics[uri]]
        await client.shutdown_session()
    finally:
        # a client whose session did not shut down (a failed assertion)
        # waits for its server's end when stopping: bounded, then the
        # server is ended and the assertion's own error is what is seen
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(client.stop(), TIMEOUT)
        if server.poll() is None:
            server.kill()
        server.wait(TIMEOUT)


async def test_invalid_settings_fall_back_to_defaults(start_client) -> None:
    client = await start_client(
        options={
            "references": {"annotations/*.amr": "gold/{stem}.amr"},
            "metric": "nope",
            "debounceMs": "fast",
            "features": {"codeLens": "yes", "diff": False},
            "colour": "blue",
        }
    )
    [message] = client.messages
    assert message.type == types.MessageType.Warning
    for part in (
        "references.annotations/*.amr: unknown placeholder {stem}",
        "metric: unknown metric 'nope'",
        "debounceMs: 'fast' is not a valid value",
        "features.codeLens: 'yes' is not a valid value",
        "colour: unknown setting",
    ):
        assert part in message.message
    uri = await open_document(client, ANNOTATION)
    # valid settings are kept (diff off), invalid ones are defaults (lens on)
    assert not [d for d in client.diagnostics[uri] if d.source == "amrcheck-diff"]
    assert set(await lens_titles(client, uri)) == {
        "smatch – · no reference file configured"
    }


@pytest.mark.parametrize("options", [["a list"], "a string"])
async def test_options_that_are_not_an_object(start_client, options) -> None:
    client = await start_client(options=options)
    assert "expected an object" in client.messages[0].message
    uri = await open_document(client, ANNOTATION)
    assert client.diagnostics[uri] is not None


async def test_configuration_change(start_client) -> None:
    client = await start_client()
    uri = await open_document(client, ANNOTATION)
    assert (await lens_titles(client, uri))[0].startswith("smatch 1.00")
    client.set_configuration({"metric": "sembleu"}, section="amrcheck")
    client.workspace_did_change_configuration(
        types.DidChangeConfigurationParams(settings=None)
    )
    await asyncio.sleep(0.2)
    await wait_published(client, uri, 1)
    titles = await lens_titles(client, uri)
    # in sembleu's own units, not smatch's triples (issue 22)
    assert titles[0].startswith("sembleu 1.00 · n-grams: 3 shared, 0 missing, 0 extra")
    assert "P " not in titles[0]  # sembleu reports no precision/recall split


def test_no_stdout_noise() -> None:
    """An stdio server writes nothing but protocol to stdout (here: nothing)."""
    done = subprocess.run(
        [sys.executable, "-m", "amr_lsp"], input=b"", capture_output=True,
        timeout=TIMEOUT, check=False,
    )
    assert done.stdout == b""

