"""Bench (not a test): the AMR reader alone, in this process, CPU seconds.

Reads the 5k workload's two files (``bench/workloads.py``; 10,000 graphs)
with :func:`amrcheck.reading.corpus.read_corpus` and in chunks (the
scorer's :func:`amrcheck.reading.corpus.read_chunks`), and every English UMR
file under ``../shared/data/umr`` with :func:`amrcheck.reading.umr.read_umr`
(which reads each graph block with the AMR reader), and those graph
blocks alone by the AMR reader; median CPU seconds of
``--runs``, per graph. Which build runs is whichever ``amrcheck`` is on
the path: run it once per build, alternating, e.g.

    PYTHONPATH=/tmp/main-site python bench/bench_reader.py     # before
    PYTHONPATH=/tmp/parse-site python bench/bench_reader.py    # after
"""

from __future__ import annotations

import argparse
import gc
import statistics
import time
from collections.abc import Callable
from pathlib import Path

import amrcheck.reading._parse as parse
from amrcheck.reading.corpus import read_chunks, read_corpus
from amrcheck.reading.umr import read_umr
from amrcheck.span import SourceText

REPO = Path(__file__).resolve().parents[1]
WORKLOAD = [
    Path(f"/tmp/amrcheck-bench/unrelated5000.{side}.amr") for side in ("ref", "cand")
]
UMR = REPO.parent / "shared" / "data" / "umr" / "english"


def _median(work: Callable[[], int], runs: int) -> tuple[float, int]:
    seconds, count = [], 0
    for _ in range(runs):
        start = time.process_time()
        count = work()
        seconds.append(time.process_time() - start)
        gc.collect()  # what one run left does not burden the next
    return statistics.median(seconds), count


def _umr_graph_blocks(files: list[Path]) -> list[tuple[SourceText, int, int]]:
    """Each UMR sentence graph's text (from its line's start), as the UMR
    reader hands its graph block to the AMR reader."""
    blocks = []
    for path in files:
        for sentence in read_umr(path).sentences:
            graph = sentence.graph
            if graph is not None:
                line = graph.source.text.rfind("\n", 0, graph.start) + 1
                blocks.append((graph.source, line, graph.end))
    return blocks


def _read_blocks(blocks: list[tuple[SourceText, int, int]]) -> int:
    """The blocks read by the AMR reader, the collector paused (as the UMR
    reader calls it)."""
    gc.disable()
    try:
        return sum(len(parse.parse_source(*block)[0]) for block in blocks)
    finally:
        gc.enable()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    build = "compiled" if not parse.__file__.endswith(".py") else "interpreted"
    amr, graphs = _median(lambda: sum(len(read_corpus(p)) for p in WORKLOAD), args.runs)
    chunked, _ = _median(
        lambda: sum(len(c.corpus) for p in WORKLOAD for c in read_chunks(p)), args.runs
    )
    files = sorted(UMR.rglob("*.umr"))
    umr, sentences = _median(
        lambda: sum(len(read_umr(p).sentences) for p in files), args.runs
    )
    blocks = _umr_graph_blocks(files)
    umr_blocks, _ = _median(lambda: _read_blocks(blocks), args.runs)
    print(
        f"{build}: AMR {amr:.3f} s for {graphs} graphs "
        f"({amr / graphs * 1e6:.1f} µs each), in chunks {chunked:.3f} s "
        f"({chunked / graphs * 1e6:.1f} µs each); "
        f"UMR {umr:.3f} s for {sentences} sentences of {len(files)} files "
        f"({umr / sentences * 1e6:.1f} µs each); their graph blocks alone "
        f"{umr_blocks / len(blocks) * 1e6:.1f} µs each ({len(blocks)})"
    )


if __name__ == "__main__":
    main()
