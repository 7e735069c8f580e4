"""Bench (not a test): the language server's memory over a long editing session.

Starts ``python -m amr_lsp`` as a subprocess (stdio, as editors run it),
opens the first ``--graphs`` Little Prince graphs against a reference in
which every fifth ``:ARG1`` reads ``:ARG2``, and types: each edit inserts
a random letter into a random concept, the next one deletes it again, so
nearly every version holds a graph text the server has never seen. After
every edit the bench waits for that version's diagnostics and resolves the
lenses of the 50 lines around the edit (what an editor shows).

The server's resident memory (``VmRSS`` of its process) is sampled every
``--report-every`` edits; the figure of merit is the last sample against
the one after the first 1,000 edits (issue 22: within 20 %). The server's
cache sizes (``amrcheck.cacheStats``) are printed beside each sample.

    python bench/bench_lsp_memory.py [--edits 60000] [--graphs 100]
                                      [--report-every 5000] [--seed 0]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import re
import sys
import time
from bisect import bisect_right
from pathlib import Path

from lsprotocol import types

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_lsp import (  # noqa: E402
    DEFAULT_FILE,
    lenses,
    open_document,
    start_server,
    stop,
    wait_version,
)

VIEW_LINES = 50


def first_graphs(path: Path, count: int) -> str:
    """The first ``count`` graphs of ``path`` (with their metadata)."""
    blocks = re.split(r"\n\s*\n", path.read_text(encoding="utf-8"))
    graphs = [b.strip("\n") for b in blocks if "# ::id " in b]
    return "\n\n".join(graphs[:count]) + "\n"


def reference_of(text: str) -> str:
    """Every fifth ``:ARG1`` turned into ``:ARG2``: a reference that differs."""
    count = 0

    def change(match: re.Match[str]) -> str:
        nonlocal count
        count += 1
        return ":ARG2" if count % 5 == 0 else match.group(0)

    return re.sub(r":ARG1\b", change, text)


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError(f"no VmRSS for process {pid}")


async def run(edits: int, graphs: int, every: int, seed: int) -> None:
    text = first_graphs(DEFAULT_FILE, graphs)
    client, folder, uri = await start_server(
        text, reference_of(text), {"debounceMs": 0}, "bench_lsp_memory_"
    )
    pid = client._server.pid  # type: ignore[union-attr]
    samples: list[tuple[int, float]] = []

    async def sample(done: int) -> None:
        stats = await client.workspace_execute_command_async(
            types.ExecuteCommandParams(command="amrcheck.cacheStats")
        )
        samples.append((done, rss_mib(pid)))
        print(f"{done:>6} edits: RSS {samples[-1][1]:6.1f} MiB; caches {stats}",
              flush=True)

    try:
        await open_document(client, uri, text)
        await sample(0)
        concepts = [m.end() for m in re.finditer(r"/ [a-z]", text)]
        starts = [0]
        for line in text.split("\n"):
            starts.append(starts[-1] + len(line) + 1)
        rng = random.Random(seed)
        clock = time.perf_counter()
        inserted = types.Position(line=0, character=0)
        for n in range(1, edits + 1):
            if n % 2:
                offset = rng.choice(concepts)
                line = bisect_right(starts, offset) - 1
                inserted = types.Position(line=line, character=offset - starts[line])
                change = types.TextDocumentContentChangePartial(
                    range=types.Range(start=inserted, end=inserted),
                    text=rng.choice("abcdefghijklmnopqrstuvwxyz"),
                )
            else:  # the next edit deletes the letter again
                end = types.Position(
                    line=inserted.line, character=inserted.character + 1
                )
                change = types.TextDocumentContentChangePartial(
                    range=types.Range(start=inserted, end=end), text=""
                )
            client.text_document_did_change(
                types.DidChangeTextDocumentParams(
                    text_document=types.VersionedTextDocumentIdentifier(
                        uri=uri, version=n + 1
                    ),
                    content_changes=[change],
                )
            )
            await wait_version(client, uri, n + 1)
            line = inserted.line
            await lenses(client, uri, line - VIEW_LINES // 2, line + VIEW_LINES // 2)
            if n == 1000 or n % every == 0 or n == edits:
                await sample(n)
        seconds = time.perf_counter() - clock
        baseline = dict(samples).get(1000)
        last = samples[-1][1]
        print(f"{edits} edits in {seconds / 60:.1f} min on {graphs} graphs; "
              f"RSS after opening {samples[0][1]:.1f} MiB, ", end="")
        if baseline is not None:
            print(f"after 1,000 edits {baseline:.1f} MiB, at the end {last:.1f} MiB "
                  f"({(last / baseline - 1) * 100:+.1f} %)")
        else:
            print(f"at the end {last:.1f} MiB")
    finally:
        await stop(client, folder)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--edits", type=int, default=60_000)
    parser.add_argument("--graphs", type=int, default=100)
    parser.add_argument("--report-every", type=int, default=5_000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    asyncio.run(run(args.edits, args.graphs, args.report_every, args.seed))


if __name__ == "__main__":
    main()
