"""Bench (not a test): what the input-safety rules of issue 20 cost and keep.

    python bench/bench_hardening.py lsp [--hovers 50]
    python bench/bench_hardening.py soak [--edits 10000]
    python bench/bench_hardening.py check [--megabytes 50]

* ``lsp``: a real server (``python -m amr_lsp``, stdio, the pytest-lsp
  client) and a workspace whose documents name, in ``# ::reference``
  headers, ``/dev/zero``, a FIFO, a file outside the workspace, a symlink
  out of it and a 60 MB file. Prints the time from ``didOpen`` to the
  refusal's diagnostics for each, then hover latencies on another
  document (the issue asks for 1 s), the bytes the server read meanwhile
  (``/proc/<pid>/io``), and how long a reference just under the size
  limit (a 49 MB real corpus) holds the engine thread: its own open ->
  diagnostics, and a hover on another document sent right after it.
* ``soak``: random edits to an 8-graph document whose header switches
  every 25 edits between two references, a FIFO, an outside file, a
  60 MB file and a missing file (as ``tests/lsp/e2e/test_memory.py``,
  longer); the server's RSS before and after.
* ``check``: ``amrcheck check`` on a Little Prince corpus repeated to
  about ``--megabytes`` MB: time and peak RSS (it streams its files).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from lsprotocol import types

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tests.lsp.e2e.test_hardening import BODY, bytes_read  # noqa: E402
from tests.lsp.e2e.test_memory import resident_kib  # noqa: E402
from tests.lsp.e2e.test_random_edits import ALPHABET, utf16_position  # noqa: E402
from tests.special_files import fifo, sparse_file  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_lsp import started_client, stop, wait_version  # noqa: E402

GOLD = REPO / "tests" / "data" / "lsp" / "gold" / "lpp.amr"
ANNOTATION = REPO / "tests" / "data" / "lsp" / "annotations" / "lpp.amr"
LPP = REPO.parent / "shared" / "data" / "little_prince" / "amr-bank-struct-v3.0.txt"


def record_published(client) -> dict[tuple[str, int], float]:
    """From now on: (uri, version) -> when its diagnostics arrived."""
    arrived: dict[tuple[str, int], float] = {}
    protocol = client.protocol
    handle = protocol.handle_message

    def recording(message):
        if getattr(message, "method", None) == types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS:
            params = message.params
            arrived.setdefault((params.uri, params.version), time.perf_counter())
        return handle(message)

    protocol.handle_message = recording
    return arrived


def open_text(client, path: Path, text: str, version: int = 1) -> str:
    uri = path.as_uri()
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(
                uri=uri, language_id="amr", version=version, text=text
            )
        )
    )
    return uri


async def timed_open(client, path: Path, text: str) -> float:
    begin = time.perf_counter()
    uri = open_text(client, path, text)
    await wait_version(client, uri, 1)
    return time.perf_counter() - begin


async def hover_ms(client, uri: str) -> float:
    begin = time.perf_counter()
    await client.text_document_hover_async(
        types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            position=types.Position(line=4, character=5),
        )
    )
    return (time.perf_counter() - begin) * 1000


async def bench_lsp(hovers: int) -> None:
    with tempfile.TemporaryDirectory(prefix="bench_hardening_") as tmp:
        ws, outside = Path(tmp) / "ws", Path(tmp) / "outside"
        ws.mkdir()
        outside.mkdir()
        shutil.copy(GOLD, ws / "gold.amr")
        (outside / "secret.amr").write_text("(s / secret-01)\n")
        (ws / "link.amr").symlink_to(outside / "secret.amr")
        sparse_file(ws / "big.amr", 60_000_000)
        lpp = LPP.read_text(encoding="utf-8")
        (ws / "near-limit.amr").write_text((lpp + "\n\n") * 70)  # 48.3 MB
        client = await started_client(ws, "visual-studio-code", {"debounceMs": 0})
        try:
            good = open_text(client, ws / "good.amr", "# ::reference gold.amr\n" + BODY)
            await wait_version(client, good, 1)
            pid = client._server.pid
            before = bytes_read(pid)
            with fifo(ws / "pipe.amr") as pipe:
                for name, reference in [
                    ("/dev/zero", "/dev/zero"), ("FIFO", "pipe.amr"),
                    ("outside file", "../outside/secret.amr"),
                    ("symlink out", "link.amr"), ("60 MB file", "big.amr"),
                ]:
                    seconds = await timed_open(
                        client, ws / f"refused-{len(name)}.amr",
                        f"# ::reference {reference}\n{BODY}",
                    )
                    print(f"{name:>13}: refused, open -> diagnostics "
                          f"{seconds * 1000:.0f} ms")
                times = [await hover_ms(client, good) for _ in range(hovers)]
                print(f"hover on another document afterwards: median "
                      f"{statistics.median(times):.1f} ms, max {max(times):.1f} ms "
                      f"({hovers} hovers)")
                print(f"bytes the server read meanwhile: "
                      f"{bytes_read(pid) - before:,}; FIFO untouched: "
                      f"{pipe.untouched()}")
            size = (ws / "near-limit.amr").stat().st_size
            arrived = record_published(client)
            begin = time.perf_counter()
            near = open_text(client, ws / "near.amr",
                             "# ::reference near-limit.amr\n" + BODY)
            await asyncio.sleep(0.05)  # the engine thread is reading it now
            hovered = await hover_ms(client, good)
            edited = time.perf_counter()
            client.text_document_did_change(
                types.DidChangeTextDocumentParams(
                    text_document=types.VersionedTextDocumentIdentifier(
                        uri=good, version=2
                    ),
                    content_changes=[types.TextDocumentContentChangeWholeDocument(
                        text="# ::reference gold.amr\n" + BODY.replace("1)", "2)")
                    )],
                )
            )
            # near's diagnostics come first (the engine thread reads its
            # reference, then checks the edit): both are waited for together
            while (near, 1) not in arrived or (good, 2) not in arrived:
                await asyncio.sleep(0.005)
            print(f"a {size / 1e6:.1f} MB reference: open -> diagnostics "
                  f"{arrived[near, 1] - begin:.2f} s; meanwhile a hover on "
                  f"another document answered in {hovered:.0f} ms (no engine work), "
                  f"an edit of it waited {arrived[good, 2] - edited:.2f} s for its "
                  "diagnostics (the engine thread)")
        finally:
            await stop(client)


async def bench_soak(edits: int) -> None:
    with tempfile.TemporaryDirectory(prefix="bench_hardening_") as tmp:
        ws = Path(tmp) / "ws"
        ws.mkdir()
        gold = GOLD.read_text(encoding="utf-8")
        (ws / "gold.amr").write_text(gold)
        (ws / "other.amr").write_text(gold.replace("magnificent", "beautiful"))
        (Path(tmp) / "outside.amr").write_text(gold)
        sparse_file(ws / "big.amr", 60_000_000)
        references = ["gold.amr", "pipe.amr", "other.amr", "../outside.amr",
                      "big.amr", "missing.amr"]
        client = await started_client(ws, "visual-studio-code", {"debounceMs": 0})
        rng = random.Random(20)
        text = f"# ::reference {references[0]}\n" + ANNOTATION.read_text("utf-8")
        version = 1
        try:
            with fifo(ws / "pipe.amr"):
                uri = open_text(client, ws / "doc.amr", text)
                await wait_version(client, uri, 1)

                def send(new: str, at: int, end: int) -> None:
                    nonlocal text, version
                    begin, finish = utf16_position(text, at), utf16_position(text, end)
                    version += 1
                    client.text_document_did_change(
                        types.DidChangeTextDocumentParams(
                            text_document=types.VersionedTextDocumentIdentifier(
                                uri=uri, version=version
                            ),
                            content_changes=[types.TextDocumentContentChangePartial(
                                range=types.Range(start=begin, end=finish), text=new
                            )],
                        )
                    )
                    text = text[:at] + new + text[end:]

                for name in references:
                    send(f"# ::reference {name}", 0, text.index("\n"))
                    await wait_version(client, uri, version)
                start_kib = resident_kib(client)
                begin = time.perf_counter()
                for n in range(edits):
                    if n % 25 == 0:
                        name = references[(n // 25) % len(references)]
                        send(f"# ::reference {name}", 0, text.index("\n"))
                        await wait_version(client, uri, version)
                    first = text.index("\n") + 1
                    at = rng.randrange(first, len(text) + 1)
                    if rng.random() < 0.4 and len(text) - at > 1:
                        send("", at, min(len(text), at + rng.randrange(1, 12)))
                    else:
                        send(rng.choice(ALPHABET), at, at)
                    if n % 100 == 99:
                        await wait_version(client, uri, version)
                await wait_version(client, uri, version)
                end_kib = resident_kib(client)
            print(f"{edits:,} edits in {time.perf_counter() - begin:.1f} s; server "
                  f"RSS {start_kib / 1024:.1f} MiB after every reference was seen "
                  f"once, {end_kib / 1024:.1f} MiB at the end "
                  f"({(end_kib / start_kib - 1) * 100:+.1f} %)")
        finally:
            await stop(client)


def bench_check(megabytes: int) -> None:
    lpp = LPP.read_text(encoding="utf-8")
    copies = max(1, round(megabytes * 1e6 / len(lpp.encode())))
    with tempfile.TemporaryDirectory(prefix="bench_hardening_") as tmp:
        path = Path(tmp) / "big.amr"
        path.write_text((lpp + "\n\n") * copies)
        begin = time.perf_counter()
        result = subprocess.run(
            [sys.executable, "-c", "from amrcheck.cli import main; main()",
             "check", "-q", str(path)],
            capture_output=True, text=True,
        )
        seconds = time.perf_counter() - begin
        peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        findings = result.stdout.count("\n")
        print(f"amrcheck check on {path.stat().st_size / 1e6:.1f} MB "
              f"({copies} x Little Prince): {seconds:.1f} s, peak RSS {peak:.0f} MiB, "
              f"{findings:,} findings, exit {result.returncode}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="what", required=True)
    sub.add_parser("lsp").add_argument("--hovers", type=int, default=50)
    sub.add_parser("soak").add_argument("--edits", type=int, default=10_000)
    sub.add_parser("check").add_argument("--megabytes", type=int, default=50)
    args = parser.parse_args()
    if args.what == "lsp":
        asyncio.run(bench_lsp(args.hovers))
    elif args.what == "soak":
        asyncio.run(bench_soak(args.edits))
    else:
        bench_check(args.megabytes)


if __name__ == "__main__":
    main()
