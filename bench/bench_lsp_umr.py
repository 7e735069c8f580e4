"""Bench (not a test): edit -> diagnostics latency of the language server on a UMR file.

Starts ``python -m amr_lsp`` as a subprocess and speaks JSON-RPC to it
over stdio with a minimal client of its own: it writes the messages and
reads each reply's bytes, decoding only the head of a
``publishDiagnostics`` (its version). The largest English file of the
UMR 3.0 release has ~9,000 findings; a Python LSP client would spend
~0.2 s turning them into objects, which is the client's time, not the
server's (an editor parses that JSON in a few milliseconds).

Measured:

* **open**: ``didOpen`` -> the first ``publishDiagnostics``;
* **edit**: a one-character edit typed into a concept of a random
  sentence graph (alternately inserting and deleting), and, with
  ``--line-edits``, a new line inserted in a random graph (the sentences
  below move down a line) -> ``publishDiagnostics`` for that version.

    python bench/bench_lsp_umr.py [--edits 60] [--line-edits 20] [FILE]

Without FILE: the largest ``.umr`` of ``../shared/data/umr/english``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import re
import statistics
import sys
import time
from bisect import bisect_right
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
ENGLISH = REPO.parent / "shared" / "data" / "umr" / "english"
_VERSION_RE = re.compile(rb'"version":\s*(-?[0-9]+|null)')


def largest_file() -> Path:
    return max(ENGLISH.glob("*.umr"), key=lambda p: p.stat().st_size)


class RawClient:
    """JSON-RPC over the server's stdio; publications are waited for by version."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process
        self.next_id = 0
        self.replies: dict[int, asyncio.Future[Any]] = {}
        self.published: dict[int, asyncio.Future[int]] = {}
        self.sizes: list[int] = []
        self.reader = asyncio.ensure_future(self._read())

    def send(self, message: dict[str, Any]) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode()
        assert self.process.stdin is not None
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    async def request(self, method: str, params: Any) -> Any:
        self.next_id += 1
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self.replies[self.next_id] = future
        self.send({"id": self.next_id, "method": method, "params": params})
        return await future

    def notify(self, method: str, params: Any) -> None:
        self.send({"method": method, "params": params})

    def expect(self, version: int) -> asyncio.Future[int]:
        future: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        self.published[version] = future
        return future

    async def _read(self) -> None:
        while True:
            body = await self._frame()
            if body is None:
                return
            self._dispatch(body)

    async def _frame(self) -> bytes | None:
        stdout = self.process.stdout
        assert stdout is not None
        length = 0
        while True:
            line = await stdout.readline()
            if not line:
                return None
            if line in (b"\r\n", b"\n"):
                break
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":")[1])
        return await stdout.readexactly(length)

    def _dispatch(self, body: bytes) -> None:
        if b'"textDocument/publishDiagnostics"' in body[:200]:
            # only the head is decoded: the version, before the diagnostics
            found = _VERSION_RE.search(body[: max(body.find(b'"diagnostics"'), 0)])
            if found and found.group(1) != b"null":
                self.sizes.append(len(body))
                waiting = self.published.pop(int(found.group(1)), None)
                if waiting is not None and not waiting.done():
                    waiting.set_result(len(body))
            return
        message = json.loads(body)
        if "id" in message and "method" in message:  # a request of the server
            self.send({"id": message["id"], "result": None})
        elif "id" in message:
            future = self.replies.pop(message["id"], None)
            if future is not None:
                future.set_result(message.get("result"))


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


async def run(path: Path, edits: int, line_edits: int, seed: int) -> None:
    text = path.read_text(encoding="utf-8")
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "amr_lsp",
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
        limit=1 << 26,
    )
    client = RawClient(process)
    uri = path.resolve().as_uri()
    try:
        await client.request("initialize", {
            "processId": None, "rootUri": None, "capabilities": {},
            "initializationOptions": {"debounceMs": 0},
        })
        client.notify("initialized", {})
        opened = client.expect(1)
        start = time.perf_counter()
        client.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": "umr", "version": 1, "text": text}})
        size = await opened
        print(f"{path.name}: {len(text):,} characters, "
              f"{text.count('# :: snt'):,} sentences")
        print(f"open -> diagnostics: {time.perf_counter() - start:.3f} s "
              f"({size:,} bytes of diagnostics)")
        lines = text.split("\n")
        starts = [0]
        for line in lines:
            starts.append(starts[-1] + len(line) + 1)
        concepts = [m.end() for m in re.finditer(r"/ [a-z]", text)]
        rng = random.Random(seed)
        version = 1

        async def edit(change: dict[str, Any]) -> float:
            nonlocal version
            version += 1
            published = client.expect(version)
            clock = time.perf_counter()
            client.notify("textDocument/didChange", {
                "textDocument": {"uri": uri, "version": version},
                "contentChanges": [change]})
            await published
            elapsed = time.perf_counter() - clock
            await asyncio.sleep(0.05)
            return elapsed * 1000

        def place(offset: int) -> dict[str, int]:
            line = bisect_right(starts, offset) - 1
            return {"line": line, "character": offset - starts[line]}

        await _edits(edits, line_edits, rng, concepts, place, edit)
        await client.request("shutdown", None)
        client.notify("exit", None)
    finally:
        client.reader.cancel()
        if process.returncode is None:
            try:
                await asyncio.wait_for(process.wait(), 10)
            except asyncio.TimeoutError:
                process.kill()


async def _edits(
    edits: int, line_edits: int, rng: random.Random, concepts: list[int],
    place: Any, edit: Any,
) -> None:
    """Typing in concepts, then line breaks in graphs (each undone next)."""
    typed = []
    for n in range(edits):
        if n % 2 == 0:
            at = place(rng.choice(concepts))
            change = {"range": {"start": at, "end": at}, "text": "x"}
        else:  # undo: the text returns to the original
            end = {"line": at["line"], "character": at["character"] + 1}
            change = {"range": {"start": at, "end": end}, "text": ""}
        typed.append(await edit(change))
    print(f"edit -> diagnostics (typing in a concept): median "
          f"{statistics.median(typed):.0f} ms, p95 {p95(typed):.0f} ms, "
          f"max {max(typed):.0f} ms ({edits} edits)")
    if line_edits:
        moved = []
        for n in range(line_edits):
            if n % 2 == 0:
                at = place(rng.choice(concepts))
                change = {"range": {"start": at, "end": at}, "text": "\n"}
            else:
                end = {"line": at["line"] + 1, "character": 0}
                change = {"range": {"start": at, "end": end}, "text": ""}
            moved.append(await edit(change))
        print(f"edit -> diagnostics (a line break in a graph): median "
              f"{statistics.median(moved):.0f} ms, p95 {p95(moved):.0f} ms, "
              f"max {max(moved):.0f} ms ({line_edits} edits)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("file", nargs="?", type=Path)
    parser.add_argument("--edits", type=int, default=60)
    parser.add_argument("--line-edits", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    path = args.file or largest_file()
    asyncio.run(run(path, args.edits, args.line_edits, args.seed))


if __name__ == "__main__":
    main()
