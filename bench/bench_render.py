"""Bench (not a test): drawing graphs (issue 17).

Three measures, each printed with the command it ran:

* **render**: ``amrcheck render`` of all 1,562 Little Prince graphs to one
  HTML page (target ≤ 20 s);
* **diff report**: ``amrcheck diff OLD NEW --html`` where NEW is a
  revision of the corpus in the manner of the v1.6 → v3.0 re-annotation:
  277 graphs edited (concepts replaced, roles renumbered, ``:polarity -``
  added, leaves removed; one to three edits each, seeded), the other
  graphs as they are (target ≤ 20 s and ≤ 30 MB); the same diff without
  ``--html`` is timed too, for what the report adds;
* **editor**: the language server's ``amr/graph`` (with its SVG drawings)
  right after an edit in a graph of at least 50 nodes — a one-character
  edit (``didChange``) then the request, timed to its answer, as the VS
  Code webview asks after each keystroke (target ≤ 300 ms). The document
  is the Bio AMR dev file (its Little Prince graphs have at most 42
  nodes); its reference a copy with a few edits.

    python bench/bench_render.py [--edits 30] [--skip-editor]

Files go to ``bench/out/`` (not committed).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from amrcheck.reading.corpus import decode, read_corpus
from amrcheck.workflows.diff import triple_changes

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared" / "data"
LITTLE_PRINCE = SHARED / "little_prince" / "amr-bank-struct-v3.0.txt"
BIO = SHARED / "bio_amr" / "amr-release-dev-bio.txt"
OUT = REPO / "bench" / "out"

_CONCEPT_RE = re.compile(r"(?<=/ )[a-z][^\s()]*")
_ARG_RE = re.compile(r":ARG(\d)(?=[\s)])")
_LEAF_RE = re.compile(r"\s+:[A-Za-z0-9-]+ \([^\s()]+ / [^\s()]+\)")


def _relabel(graph: str, rng: random.Random, pool: list[str]) -> str:
    spots = list(_CONCEPT_RE.finditer(graph))
    spot = rng.choice(spots)
    other = rng.choice([c for c in pool if c != spot.group()][:500])
    return graph[: spot.start()] + other + graph[spot.end():]


def _renumber(graph: str, rng: random.Random, pool: list[str]) -> str:
    spots = list(_ARG_RE.finditer(graph))
    if not spots:
        return _polarity(graph, rng, pool)
    spot = rng.choice(spots)
    number = (int(spot.group(1)) + 1) % 5
    return graph[: spot.start()] + f":ARG{number}" + graph[spot.end():]


def _polarity(graph: str, rng: random.Random, pool: list[str]) -> str:
    first = _CONCEPT_RE.search(graph)
    assert first is not None
    return graph[: first.end()] + " :polarity -" + graph[first.end():]


def _drop_leaf(graph: str, rng: random.Random, pool: list[str]) -> str:
    spots = list(_LEAF_RE.finditer(graph))
    if not spots:
        return _relabel(graph, rng, pool)
    spot = rng.choice(spots)
    return graph[: spot.start()] + graph[spot.end():]


EDITS = (_relabel, _renumber, _polarity, _drop_leaf)


def revise(text: str, count: int = 277, seed: int = 17) -> str:
    """``text`` with ``count`` graphs edited one to three times (seeded)."""
    corpus = read_corpus(LITTLE_PRINCE)
    rng = random.Random(seed)
    pool = sorted({m.group() for m in _CONCEPT_RE.finditer(text)})
    rng.shuffle(pool)
    graphs = [e.graph for e in corpus if e.graph is not None]
    chosen = sorted(rng.sample(range(len(graphs)), count), reverse=True)
    for index in chosen:  # from the end: earlier offsets stay valid
        graph = graphs[index]
        piece = text[graph.start : graph.end]
        for _ in range(rng.randint(1, 3)):
            piece = rng.choice(EDITS)(piece, rng, pool)
        # an edit may undo another (a role renumbered back): edit until changed
        while not triple_changes(graph, decode(piece)):
            piece = _relabel(piece, rng, pool)
        text = text[: graph.start] + piece + text[graph.end :]
    return text


def timed(command: list[str]) -> float:
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    if done.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(command)} failed:\n{done.stderr}")
    return elapsed


def files() -> tuple[Path, Path]:
    OUT.mkdir(parents=True, exist_ok=True)
    revised = OUT / "lpp_revised.amr"
    text = LITTLE_PRINCE.read_text(encoding="utf-8")
    revised.write_text(revise(text), encoding="utf-8")
    return LITTLE_PRINCE, revised


def bench_files(runs: int) -> None:
    old, new = files()
    amrcheck = [sys.executable, "-c", "from amrcheck.cli import main; main()"]
    page = OUT / "little_prince.html"
    report = OUT / "diff_report.html"
    commands = {
        "render": [*amrcheck, "render", str(old), "-o", str(page), "-q"],
        "diff (no report)": [*amrcheck, "diff", str(old), str(new), "--stat"],
        "diff --html": [*amrcheck, "diff", str(old), str(new), "--stat", "--html",
                        str(report)],
    }
    for name, command in commands.items():
        times = [timed(command) for _ in range(runs)]
        print(f"{name}: {', '.join(f'{t:.2f}' for t in times)} s  "
              f"({' '.join(Path(a).name if '/' in a else a for a in command[3:])})")
    stat = [*amrcheck, "diff", str(old), str(new), "--stat"]
    changed = subprocess.run(stat, capture_output=True, text=True).stdout.count(
        "  changed "
    )
    print(f"render page: {page.stat().st_size / 1e6:.1f} MB; diff report: "
          f"{report.stat().st_size / 1e6:.1f} MB for {changed} changed graphs")


# --- the editor ------------------------------------------------------------------


def reference_copy(text: str) -> str:
    """The Bio AMR file with a few graphs edited (the reference to compare with)."""
    corpus = read_corpus(BIO)
    rng = random.Random(5)
    graphs = [e.graph for e in corpus if e.graph is not None]
    for index in sorted(rng.sample(range(len(graphs)), 40), reverse=True):
        graph = graphs[index]
        piece = _relabel(text[graph.start : graph.end], rng, ["protein", "cell"])
        text = text[: graph.start] + piece + text[graph.end :]
    return text


class RawClient:
    """A bare JSON-RPC client on the server's stdio, decoding with ``json``
    as an editor does (pytest-lsp's client builds a named-tuple class per
    JSON object: 0.2-0.4 s for one ``amr/graph`` answer, which is the
    client's cost, not the server's). Requests from the server are answered
    with null."""

    def __init__(self) -> None:
        self.pending: dict[int, asyncio.Future[Any]] = {}
        self.next_id = 0

    async def start(self) -> None:
        self.process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "amr_lsp",
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
        )
        self.reader = asyncio.get_running_loop().create_task(self._read())

    def _send(self, message: dict[str, Any]) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode("utf-8")
        assert self.process.stdin is not None
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    async def _read(self) -> None:
        stream = self.process.stdout
        assert stream is not None
        while True:
            length = 0
            while (line := await stream.readline()).strip():
                name, _, value = line.decode("ascii").partition(":")
                if name.lower() == "content-length":
                    length = int(value)
            if not length:
                return
            message = json.loads(await stream.readexactly(length))
            if "method" in message and "id" in message:
                self._send({"id": message["id"], "result": None})
            elif "id" in message:
                self.pending.pop(message["id"]).set_result(message.get("result"))

    async def request(self, method: str, params: Any) -> Any:
        self.next_id += 1
        future = self.pending[self.next_id] = asyncio.get_running_loop().create_future()
        self._send({"id": self.next_id, "method": method, "params": params})
        return await future

    def notify(self, method: str, params: Any) -> None:
        self._send({"method": method, "params": params})

    async def stop(self) -> None:
        await self.request("shutdown", None)
        self.notify("exit", None)
        await self.process.wait()
        self.reader.cancel()


async def bench_editor(edits: int) -> None:
    text = BIO.read_text(encoding="utf-8")
    OUT.mkdir(parents=True, exist_ok=True)
    document, gold = OUT / "bio.amr", OUT / "bio.gold.amr"
    document.write_text(text, encoding="utf-8")
    gold.write_text(reference_copy(text), encoding="utf-8")
    big = [
        e.graph for e in read_corpus(document)
        if e.graph is not None and 50 <= len(e.graph.variables()) <= 60
    ]
    uri = document.as_uri()
    client = RawClient()
    await client.start()
    await client.request("initialize", {
        "processId": None, "rootUri": OUT.as_uri(), "capabilities": {},
        "initializationOptions": {"references": {"bio.amr": "bio.gold.amr"}},
    })
    client.notify("initialized", {})
    client.notify("textDocument/didOpen", {"textDocument": {
        "uri": uri, "languageId": "amr", "version": 1, "text": text,
    }})
    rng = random.Random(3)
    times: list[float] = []
    nodes: list[int] = []
    at = {"line": 0, "character": 0}
    for version in range(2, 2 * edits + 3):
        if version % 2 == 0:  # type an "x" into a big graph's root concept
            graph = rng.choice(big)
            root = graph.definition_index(graph.top)
            assert root is not None
            concept = graph.target_span(root)
            at = {"line": concept.line - 1, "character": concept.column - 1}
            change = {"range": {"start": at, "end": at}, "text": "x"}
        else:  # and delete it: the text returns to the file's
            after = {"line": at["line"], "character": at["character"] + 1}
            change = {"range": {"start": at, "end": after}, "text": ""}
        start = time.perf_counter()
        client.notify("textDocument/didChange", {
            "textDocument": {"uri": uri, "version": version},
            "contentChanges": [change],
        })
        answer = await client.request("amr/graph", {
            "textDocument": {"uri": uri}, "position": at, "svg": True,
        })
        elapsed = time.perf_counter() - start
        assert answer["graph"]["svg"] and answer["reference"]["svg"], answer
        if version > 2:  # the first answer also waits for the opening check
            times.append(elapsed * 1000)
            nodes.append(len(answer["graph"]["nodes"]))
        await asyncio.sleep(0.05)
    await client.stop()
    ordered = sorted(times)
    p95 = ordered[round(0.95 * (len(ordered) - 1))]
    print(f"editor: edit -> amr/graph with SVG, {len(times)} edits in graphs of "
          f"{min(nodes)}-{max(nodes)} drawn nodes: median "
          f"{statistics.median(times):.0f} ms, p95 {p95:.0f} ms, "
          f"max {ordered[-1]:.0f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--edits", type=int, default=30)
    parser.add_argument("--skip-editor", action="store_true")
    args = parser.parse_args()
    bench_files(args.runs)
    if not args.skip_editor:
        asyncio.run(bench_editor(args.edits))


if __name__ == "__main__":
    main()
