"""Memory over long sessions (issues 20 and 22).

Issue 20: 2,000 random edits with alternating references leave memory where it was.

The document's ``# ::reference`` header is switched, every 25 edits, in
turn to two readable references, a FIFO, a file outside the workspace, a
60 MB file and a missing file; one reference is rewritten on disk now
and then (``workspace/didChangeWatchedFiles``). The server's resident
memory (``VmRSS`` of ``/proc/<pid>/status``) after the session must be
within 20 % of what it was once every reference had been seen once.
"""

from __future__ import annotations

import random
import re
import shutil
from pathlib import Path

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from ...special_files import fifo, sparse_file
from .conftest import (
    ANNOTATION,
    DEFAULT_OPTIONS,
    LSP_DATA,
    change,
    open_document,
    wait_published,
)
from .test_random_edits import ALPHABET, utf16_position

STATUS = Path("/proc/self/status")
EDITS = 2_000


def resident_kib(client: LanguageClient) -> int:
    pid = client._server.pid  # type: ignore[attr-defined]
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS")


@pytest.mark.slow
@pytest.mark.skipif(not STATUS.exists(), reason="needs /proc/<pid>/status (Linux)")
async def test_memory_after_2000_edits_with_alternating_references(
    start_client, tmp_path: Path
) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    shutil.copy(LSP_DATA / "gold" / "lpp.amr", ws / "gold.amr")
    gold_text = (LSP_DATA / "gold" / "lpp.amr").read_text(encoding="utf-8")
    (ws / "other.amr").write_text(gold_text.replace("magnificent", "beautiful"))
    (tmp_path / "outside.amr").write_text(gold_text)
    sparse_file(ws / "big.amr", 60_000_000)
    references = ["gold.amr", "pipe.amr", "other.amr", "../outside.amr",
                  "big.amr", "missing.amr"]
    client = await start_client(options={"debounceMs": 0}, root=ws)
    rng = random.Random(20)
    body = ANNOTATION.read_text(encoding="utf-8")
    text = f"# ::reference {references[0]}\n" + body
    with fifo(ws / "pipe.amr") as pipe:
        uri = await open_document(client, ws / "doc.amr", text=text)
        version = 1

        async def set_reference(name: str) -> None:
            nonlocal text, version
            line_end = text.index("\n")
            version += 1
            await change(client, uri, version, f"# ::reference {name}",
                         (0, 0), (0, utf16_position(text, line_end).character))
            text = f"# ::reference {name}" + text[line_end:]

        for name in references:  # every reference seen once: the start
            await set_reference(name)
        start = resident_kib(client)

        for n in range(EDITS):
            if n % 25 == 0:
                await set_reference(references[(n // 25) % len(references)])
            if n % 500 == 250:  # a reference changes on disk
                (ws / "other.amr").write_text(
                    gold_text.replace("magnificent", f"beautiful-{n}")
                )
                client.workspace_did_change_watched_files(
                    types.DidChangeWatchedFilesParams(changes=[types.FileEvent(
                        uri=(ws / "other.amr").as_uri(),
                        type=types.FileChangeType.Changed,
                    )])
                )
            # random edits anywhere after the header line
            first = text.index("\n") + 1
            at = rng.randrange(first, len(text) + 1)
            if rng.random() < 0.4 and len(text) - at > 1:
                end, new = min(len(text), at + rng.randrange(1, 12)), ""
            else:
                end, new = at, rng.choice(ALPHABET)
            begin, finish = utf16_position(text, at), utf16_position(text, end)
            version += 1
            await change(client, uri, version, new, (begin.line, begin.character),
                         (finish.line, finish.character), wait=n % 100 == 99)
            text = text[:at] + new + text[end:]
        await wait_published(client, uri, version)
        end_kib = resident_kib(client)
        assert pipe.untouched()
    assert client.error is None
    print(f"server RSS {start / 1024:.1f} MiB at the start, "
          f"{end_kib / 1024:.1f} MiB after {EDITS} edits")
    assert end_kib <= start * 1.2


@pytest.mark.skipif(not STATUS.exists(), reason="needs /proc/<pid>/status (Linux)")
async def test_caches_stay_within_their_budget_over_distinct_edits(
    start_client,
) -> None:
    """Issue 22: every edit makes a graph text the server has not seen; its
    caches stay within their byte budgets (a small one here, 1 MB) and
    pygls keeps no finished message (it kept one per keystroke and one
    per command)."""
    client = await start_client(
        options={**DEFAULT_OPTIONS, "debounceMs": 0},
        env={"AMR_LSP_CACHE_MEGABYTES": "1"},
    )
    text = ANNOTATION.read_text(encoding="utf-8")
    uri = await open_document(client, ANNOTATION, text=text)
    concepts = [m.end() for m in re.finditer(r"/ [a-z]", text)]
    rng = random.Random(22)
    for version in range(2, 302):  # letters typed into concepts, none undone
        at = rng.choice(concepts)
        letter = rng.choice("abcdefghijklmnopqrstuvwxyz")
        where = utf16_position(text, at)
        await change(client, uri, version, letter, (where.line, where.character),
                     (where.line, where.character), wait=version % 50 == 0)
        text = text[:at] + letter + text[at:]
        concepts = [c + (c >= at) for c in concepts]
    await wait_published(client, uri, 301)
    for _ in range(30):  # commands too: each call of an async handler
        stats = await client.workspace_execute_command_async(
            types.ExecuteCommandParams(command="amrcheck.cacheStats")
        )
    assert client.error is None
    tables = {name: stats[name] for name in ("comparisons", "findings", "views",
                                               "drawings")}
    for name, table in tables.items():
        assert 0 <= table["bytes"] <= table["maxBytes"], (name, table)
    assert sum(t["maxBytes"] for t in tables.values()) <= 1 << 20
    # 300 graph versions were compared and checked; the budget kept fewer
    assert 0 < tables["comparisons"]["entries"] < 300, tables
    assert 0 < tables["findings"]["entries"] < 300, tables
    # a few messages of the start and this request; not one per edit
    assert stats["pendingMessages"] < 10, stats
