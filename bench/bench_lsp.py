"""Bench (not a test): language server latency on the whole Little Prince corpus.

Starts ``python -m amr_lsp`` as a subprocess and drives it with the
pytest-lsp client (the machinery of the e2e tests). The document is all
1,562 Little Prince graphs; its reference is a copy with a few edits, so
the server validates, pairs, scores and diffs every graph. Measured:

* **open**: ``didOpen`` -> first ``publishDiagnostics`` and the code
  lenses of that version;
* **edit**: a one-character edit (typing into a concept of a random
  graph, alternately inserting and deleting) -> ``publishDiagnostics``
  for the new version, then a ``codeLens`` request answered with the
  refreshed lenses. Edits are spaced so that the debounce never merges two.

The server sends lens ranges only; titles come from ``codeLens/resolve``.
The bench resolves what VS Code resolves: the lenses in the visible
lines (``--viewport-lines`` around the edit, the first ones after
opening), all at once. A lens counts as refreshed when its title is back.

    python bench/bench_lsp.py [--edits 40] [--debounce-ms D] [--viewport-lines 50]
                               [--client-gc] [FILE]

Without ``--debounce-ms`` the server's default debounce is used.

The client here is Python (pytest-lsp), and its own full garbage
collections (~40 ms each: it keeps the 30,000-line text, its lines and
every decoded message) would land on random edits and be counted as the
server's latency. After opening, the bench therefore freezes the objects
it holds (``gc.freeze()``), as the server does with a newly opened
document; ``--client-gc`` measures without that. An editor is no Python
process and pays no such pauses.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import random
import re
import shutil
import statistics
import sys
import tempfile
import time
from bisect import bisect_right
from pathlib import Path

from lsprotocol import types
from pytest_lsp import LanguageClient, client_capabilities, make_test_lsp_client

REPO = Path(__file__).resolve().parents[1]
DEFAULT_FILE = (
    REPO.parent / "shared" / "data" / "little_prince" / "amr-bank-struct-v3.0.txt"
)


def reference_copy(text: str) -> str:
    """The corpus with a few annotation edits (the "gold" to compare with)."""
    edits = [
        (":mod (m / magnificent)", ":mod (m / beautiful)"),
        ("(p2 / primeval)", "(p2 / ancient)"),
        ("(s2 / say-01\n", "(s2 / say-01 :polarity -\n"),
    ]
    for old, new in edits:
        assert old in text, old
        text = text.replace(old, new, 1)
    return text


async def wait_version(client, uri: str, version: int) -> None:
    while True:
        params = await client.wait_for_notification(
            types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS
        )
        if params.uri == uri and params.version == version:
            return


async def lenses(
    client, uri: str, first_line: int, last_line: int
) -> list[types.CodeLens]:
    """The lenses, those between the two lines resolved (an editor's view)."""
    found = list(
        await client.text_document_code_lens_async(
            types.CodeLensParams(text_document=types.TextDocumentIdentifier(uri=uri))
        )
    )
    visible = [
        i for i, lens in enumerate(found)
        if first_line <= lens.range.start.line <= last_line and lens.command is None
    ]
    resolved = await asyncio.gather(
        *(client.code_lens_resolve_async(found[i]) for i in visible)
    )
    for i, lens in zip(visible, resolved, strict=True):
        assert lens.command is not None and lens.command.title, lens
        found[i] = lens
    return found


async def start_server(
    text: str, reference: str, options: dict[str, object], prefix: str
) -> tuple[LanguageClient, Path, str]:
    """A workspace (a temporary folder) holding ``text`` as ``lpp.amr`` and
    ``reference`` as its reference ``lpp.gold.amr``, and a server started
    and initialised on it: the client, the folder and the document's URI."""
    folder = Path(tempfile.mkdtemp(prefix=prefix))
    document = folder / "lpp.amr"
    document.write_text(text, encoding="utf-8")
    (folder / "lpp.gold.amr").write_text(reference, encoding="utf-8")
    options = {"references": {"*.amr": "{name}.gold.amr"}, **options}
    client = await started_client(folder, "neovim", options)
    return client, folder, document.as_uri()


async def started_client(
    root: Path, editor: str, options: dict[str, object]
) -> LanguageClient:
    """A server started as users run it (its own process, stdio) and
    initialised on ``root`` by a client with ``editor``'s capabilities."""
    client = make_test_lsp_client()
    await client.start_io(sys.executable, "-m", "amr_lsp")
    await client.initialize_session(
        types.InitializeParams(
            capabilities=client_capabilities(editor),
            root_uri=root.as_uri(),
            initialization_options=options,
        )
    )
    return client


async def stop(client: LanguageClient, folder: Path | None = None) -> None:
    """Shut the server down (and remove its workspace ``folder``)."""
    await client.shutdown_session()
    await client.stop()
    if folder is not None:
        shutil.rmtree(folder, ignore_errors=True)


async def open_document(client: LanguageClient, uri: str, text: str) -> None:
    """Open ``uri`` with ``text`` (version 1) and wait for its diagnostics."""
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(
                uri=uri, language_id="amr", version=1, text=text
            )
        )
    )
    await wait_version(client, uri, 1)


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


async def run(
    path: Path, edits: int, debounce_ms: int | None, view: int, seed: int,
    client_gc: bool = False, metric: str | None = None,
) -> None:
    text = path.read_text(encoding="utf-8")
    options: dict[str, object] = {}
    if debounce_ms is not None:
        options["debounceMs"] = debounce_ms
    if metric is not None:
        options["metric"] = metric
    client, folder, uri = await start_server(
        text, reference_copy(text), options, "bench_lsp_"
    )
    try:
        start = time.perf_counter()
        await open_document(client, uri, text)
        diagnosed = time.perf_counter() - start
        found = await lenses(client, uri, 0, view - 1)
        opened = time.perf_counter() - start
        assert len(found) == text.count("# ::id "), len(found)
        shown = sum(lens.command is not None for lens in found)
        print(f"open: diagnostics {diagnosed:.3f} s, with lenses {opened:.3f} s "
              f"({len(found)} lenses, {shown} resolved, "
              f"{len(client.diagnostics[uri])} diagnostics)")

        # what Neovim does after each lens refresh: resolve every lens
        start = time.perf_counter()
        await asyncio.gather(*(client.code_lens_resolve_async(lens) for lens in found))
        print(f"resolve all {len(found)} lenses at once: "
              f"{(time.perf_counter() - start) * 1000:.0f} ms")

        concepts = [m.end() for m in re.finditer(r"/ [a-z]", text)]
        rng = random.Random(seed)
        lines = text.split("\n")
        starts = [0]
        for line in lines:
            starts.append(starts[-1] + len(line) + 1)
        diag_times, total_times = [], []
        if not client_gc:
            gc.freeze()  # see the module docstring
        version = 1
        for n in range(edits):
            offset = rng.choice(concepts)
            line = bisect_right(starts, offset) - 1
            column = offset - starts[line]
            position = types.Position(line=line, character=column)
            if n % 2 == 0:
                change = types.TextDocumentContentChangePartial(
                    range=types.Range(start=position, end=position), text="x"
                )
                inserted = position
            else:  # undo the previous insertion: the text returns to the original
                end = types.Position(
                    line=inserted.line, character=inserted.character + 1
                )
                change = types.TextDocumentContentChangePartial(
                    range=types.Range(start=inserted, end=end), text=""
                )
            version += 1
            start = time.perf_counter()
            client.text_document_did_change(
                types.DidChangeTextDocumentParams(
                    text_document=types.VersionedTextDocumentIdentifier(
                        uri=uri, version=version
                    ),
                    content_changes=[change],
                )
            )
            await wait_version(client, uri, version)
            diag_times.append(time.perf_counter() - start)
            await lenses(client, uri, line - view // 2, line + view // 2)
            total_times.append(time.perf_counter() - start)
            await asyncio.sleep(0.05)
        ms = [t * 1000 for t in total_times]
        dms = [t * 1000 for t in diag_times]
        print(f"edit -> diagnostics: median {statistics.median(dms):.0f} ms, "
              f"p95 {p95(dms):.0f} ms")
        print(f"edit -> diagnostics + lenses: median {statistics.median(ms):.0f} ms, "
              f"p95 {p95(ms):.0f} ms, max {max(ms):.0f} ms ({edits} edits, "
              f"debounce {'default' if debounce_ms is None else debounce_ms} ms, "
              f"{view}-line view{', client gc' if client_gc else ''})")
    finally:
        await stop(client, folder)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", nargs="?", type=Path, default=DEFAULT_FILE)
    parser.add_argument("--edits", type=int, default=40)
    parser.add_argument("--debounce-ms", type=int, default=None,
                        help="the server's debounceMs setting (default: its own)")
    parser.add_argument("--viewport-lines", type=int, default=50,
                        help="lines on screen: the lenses resolved after each edit")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--client-gc", action="store_true",
                        help="leave the bench client's garbage collector as it is")
    parser.add_argument("--metric", default=None,
                        help="the lens metric (the server's metric setting)")
    args = parser.parse_args()
    asyncio.run(
        run(args.file, args.edits, args.debounce_ms, args.viewport_lines, args.seed,
            args.client_gc, args.metric)
    )


if __name__ == "__main__":
    main()
