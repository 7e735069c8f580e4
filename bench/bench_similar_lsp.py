"""Bench (not a test): "similar annotations" hovers of the language server.

Starts ``python -m amr_lsp`` (stdio) with ``similar.index`` set to INDEX
(e.g. the ~50,000-graph index of ``bench/bench_index.py build``), opens
the Little Prince corpus and hovers the top node of ``--hovers`` random
graphs, one at a time. The first hover loads the index (reported on its
own); the others are the request latency an editor sees: hover request
-> answer with the precedents, p50/p95.

    python bench/bench_similar_lsp.py /tmp/amrcheck-bench/all.idx [--hovers 200]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

from lsprotocol import types

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_lsp import started_client, stop  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
DOCUMENT = (
    REPO.parent / "shared" / "data" / "little_prince" / "amr-bank-struct-v3.0.txt"
)


async def run(index: Path, hovers: int, seed: int) -> None:
    text = DOCUMENT.read_text(encoding="utf-8")
    folder = Path(tempfile.mkdtemp(prefix="bench_similar_"))
    document = folder / "lpp.amr"
    document.write_text(text, encoding="utf-8")
    uri = document.as_uri()
    options = {"similar": {"index": str(index), "top": 5}}
    client = await started_client(folder, "neovim", options)
    try:
        client.text_document_did_open(
            types.DidOpenTextDocumentParams(
                text_document=types.TextDocumentItem(
                    uri=uri, language_id="amr", version=1, text=text
                )
            )
        )
        await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        lines = text.split("\n")
        tops = [n for n, line in enumerate(lines) if line.startswith("(")]
        rng = random.Random(seed)
        picked = [rng.choice(tops) for _ in range(hovers + 1)]
        times = []
        for line in picked:
            params = types.HoverParams(
                text_document=types.TextDocumentIdentifier(uri=uri),
                position=types.Position(line=line, character=1),
            )
            start = time.perf_counter()
            found = await client.text_document_hover_async(params)
            times.append((time.perf_counter() - start) * 1000)
            assert found is not None and "Similar annotations" in found.contents.value
        first, rest = times[0], sorted(times[1:])
        p95 = rest[int(0.95 * (len(rest) - 1))]
        print("| index | first hover (loads it) | hovers | p50 ms | p95 ms | max ms |")
        print(
            f"| {index.name} | {first:.0f} ms | {len(rest)} | "
            f"{statistics.median(rest):.1f} | {p95:.1f} | {rest[-1]:.1f} |"
        )
    finally:
        await stop(client)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("index", type=Path)
    parser.add_argument("--hovers", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    asyncio.run(run(args.index.resolve(), args.hovers, args.seed))


if __name__ == "__main__":
    main()
