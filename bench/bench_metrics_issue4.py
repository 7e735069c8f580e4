"""Bench (not a test): rematch, SemBleu, SEMA and WLK — speed and memory.

Whole process: a fresh interpreter reads both files and scores every pair
(import, reading and scoring all included); reports pairs/s and the
process' peak RSS. In process: reading alone, scoring alone, WLK's memory
beyond the corpus at growing corpus sizes, and time per pair by graph
size (buckets of candidate + reference triples).

    python bench/bench_metrics_issue4.py [--runs 3]
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from amrcheck.graph import Graph  # noqa: E402
from bench.command_line import runs_parser  # noqa: E402
from bench.workloads import bamboo_sts_main, unrelated  # noqa: E402

METRICS = ("rematch", "sembleu", "sema", "wlk")

_WORKER = """
import sys
from amrcheck.reading.corpus import read_corpus
from amrcheck.metrics import get_metric
metric = get_metric(sys.argv[1])
cand, ref = read_corpus(sys.argv[2]), read_corpus(sys.argv[3])
total = 0.0
for a, b in zip(cand, ref):
    total += metric.score(a.graph, b.graph).f1
# VmHWM: this process' own peak RSS (ru_maxrss survives exec on Linux)
peak = next(l.split()[1] for l in open("/proc/self/status") if l.startswith("VmHWM"))
print(len(cand), total, peak)
"""


def whole_process(
    metric: str, cand: Path, ref: Path, runs: int
) -> tuple[int, float, int]:
    times, rss, pairs = [], 0, 0
    for _ in range(runs):
        start = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-c", _WORKER, metric, str(cand), str(ref)],
            capture_output=True,
            text=True,
            check=True,
            cwd=REPO,
        )
        times.append(time.perf_counter() - start)
        n, _, peak = done.stdout.split()
        pairs, rss = int(n), max(rss, int(peak))
    return pairs, statistics.median(times), rss


def in_process(cand: Path, ref: Path) -> None:
    from amrcheck.metrics import get_metric
    from amrcheck.reading.corpus import read_corpus

    start = time.perf_counter()
    a, b = read_corpus(cand), read_corpus(ref)
    read = time.perf_counter() - start
    print(
        f"  reading {2 * len(a)} graphs: {read:.2f} s"
        f" = {2 * len(a) / read:,.0f} graphs/s"
    )
    pairs = [(x.graph, y.graph) for x, y in zip(a, b, strict=False)]
    for name in METRICS:
        metric = get_metric(name)
        start = time.perf_counter()
        for x, y in pairs:
            metric.score(x, y)
        spent = time.perf_counter() - start
        print(f"  scoring only, {name}: {len(pairs) / spent:,.0f} pairs/s")


def _pairs(cand: Path, ref: Path) -> list[tuple[Graph, Graph]]:
    from amrcheck.reading.corpus import read_corpus

    pairs = zip(read_corpus(cand), read_corpus(ref), strict=True)
    return [(x.graph, y.graph) for x, y in pairs if x.graph and y.graph]


def by_size(cand: Path, ref: Path) -> None:
    from amrcheck.metrics import get_metric

    pairs = _pairs(cand, ref)
    edges = [0, 10, 20, 40, 80, 10_000]
    print("  µs per pair by candidate + reference triples (µs per triple):")
    print(
        "  | metric | "
        + " | ".join(f"{lo}-{hi}" for lo, hi in zip(edges, edges[1:], strict=False))
        + " |"
    )
    for name in METRICS:
        metric = get_metric(name)
        cells = []
        for lo, hi in zip(edges, edges[1:], strict=False):
            bucket = [
                (x, y) for x, y in pairs if lo <= len(x.triples) + len(y.triples) < hi
            ]
            if not bucket:
                cells.append("-")
                continue
            size = sum(len(x.triples) + len(y.triples) for x, y in bucket) / len(bucket)
            start = time.perf_counter()
            for x, y in bucket:
                metric.score(x, y)
            per_pair = (time.perf_counter() - start) / len(bucket) * 1e6
            cells.append(f"{per_pair:.0f} ({per_pair / size:.2f}, n={len(bucket)})")
        print(f"  | {name} | " + " | ".join(cells) + " |")


def wlk_memory(cand: Path, ref: Path) -> None:
    import tracemalloc

    from amrcheck.metrics import get_metric

    pairs = _pairs(cand, ref)
    metric = get_metric("wlk")
    for n in (1_000, 5_000, 10_000):
        tracemalloc.start()
        for x, y in pairs[:n]:
            metric.score(x, y)
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        print(
            f"  WLK scoring {n:>6} pairs: "
            f"peak memory beyond the corpus {peak / 1024:,.0f} KiB"
        )


def main() -> None:
    parser = runs_parser(__doc__, runs=3)
    args = parser.parse_args()
    workloads = {"unrelated 10k": unrelated(), "BAMBOO sts/main dev": bamboo_sts_main()}
    for label, (cand, ref) in workloads.items():
        print(f"{label}:")
        for name in METRICS:
            pairs, seconds, rss = whole_process(name, cand, ref, args.runs)
            print(
                f"  whole process, {name}: {pairs} pairs in {seconds:.2f} s = "
                f"{pairs / seconds:,.0f} pairs/s, peak RSS {rss / 1024:.0f} MiB"
            )
        in_process(cand, ref)
    by_size(*unrelated())
    wlk_memory(*unrelated())


if __name__ == "__main__":
    main()
