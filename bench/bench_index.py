"""Bench (not a test): the similarity index on every corpus of ../shared/data.

Three measurements, each printed as a Markdown table row for RESULTS.md:

* ``build``: ``amrcheck index`` over all corpora (BAMBOO dev all subtasks,
  BAMBOO train, Little Prince, Bio AMR, guideline examples, the toy),
  whole process: time, peak RSS, index size;
* ``latency``: ``Index.load`` once, then ``Index.search(graph, top=10)``
  for graphs drawn from the index (query vectorised each time, as the
  editor does), p50/p95 over ``--queries`` queries;
* ``recall``: a sample of ``--sample`` graphs is indexed on its own; each
  graph's 10 nearest others by the index against its 10 best by exact
  all-pairs scoring with the metric itself (``metric.score`` on every
  pair of the sample). Tie-aware: a hit counts when its exact score is at
  least the 10th best exact score.

    python bench/bench_index.py build --out /tmp/amrcheck-bench/all.idx
    python bench/bench_index.py latency --index /tmp/amrcheck-bench/all.idx
    python bench/bench_index.py recall --sample 2000 --jobs 2
"""

from __future__ import annotations

import argparse
import random
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared" / "data"


def corpora() -> list[Path]:
    return sorted(
        [
            *SHARED.glob("bamboo/*/*/*.amr"),
            *SHARED.glob("bamboo_train/*/*.amr"),
            *SHARED.glob("little_prince/*.txt"),
            *SHARED.glob("bio_amr/*.txt"),
            *SHARED.glob("amr_guidelines/*.amr"),
            *SHARED.glob("multi_annotator_toy/comptest_*.txt"),
        ]
    )


def build(out: Path, metric: str, jobs: int) -> None:
    command = [
        sys.executable,
        "-c",
        "from amrcheck.cli import main; main()",
        "index",
        *map(str, corpora()),
        "-o",
        str(out),
        "--metric",
        metric,
        "--jobs",
        str(jobs),
        "--quiet",
    ]
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True)
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        sys.exit(done.stderr)
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    size = out.stat().st_size / 2**20
    print(done.stderr.strip().splitlines()[-1] if done.stderr.strip() else "")
    print("| metric | files | jobs | build s | peak RSS | index size |")
    print(
        f"| {metric} | {len(corpora())} | {jobs} | {seconds:.1f} | "
        f"{peak:.0f} MiB | {size:.1f} MiB |"
    )


def latency(index_path: Path, queries: int) -> None:
    from amrcheck.search.index import Index

    started = time.perf_counter()
    index = Index.load(index_path)
    load = time.perf_counter() - started
    rng = random.Random(0)
    picked = rng.sample(range(len(index)), queries)
    graphs = [index.graph(n).read() for n in picked]
    index.search(graphs[0], top=10)  # warm-up: first faiss call
    times = []
    for graph in graphs:
        started = time.perf_counter()
        index.search(graph, top=10)
        times.append((time.perf_counter() - started) * 1000)
    times.sort()
    p95 = times[int(0.95 * (len(times) - 1))]
    print("| index graphs | load s | queries | p50 ms | p95 ms | max ms |")
    print(
        f"| {len(index)} | {load:.2f} | {queries} | {statistics.median(times):.2f} "
        f"| {p95:.2f} | {times[-1]:.2f} |"
    )


def _exact_row(args: tuple[int, str]) -> list[float]:
    """Exact scores of sample graph i against the graphs after it (the
    metrics indexed are symmetric)."""
    i, metric = args
    from amrcheck.metrics import get_metric

    scorer = get_metric(metric)
    return [scorer.score(_SAMPLE[i], other).f1 for other in _SAMPLE[i + 1 :]]


_SAMPLE: list = []


def recall(
    sample: int, metric: str, jobs: int, scratch: Path, candidates: int
) -> None:
    global _SAMPLE
    import numpy as np

    import amrcheck.search.index as engine

    engine.CANDIDATES = candidates
    from amrcheck.execution import run_map
    from amrcheck.metrics import get_metric
    from amrcheck.reading.corpus import read_corpus
    from amrcheck.search.index import build_index

    texts = [
        entry.text
        for path in corpora()
        for entry in read_corpus(path)
        if entry.graph is not None
    ]
    rng = random.Random(0)
    chosen = rng.sample(texts, sample)
    scratch.mkdir(parents=True, exist_ok=True)
    sample_file = scratch / f"sample{sample}.amr"
    sample_file.write_text("".join(f"{t.strip()}\n\n" for t in chosen))
    built = build_index([sample_file], get_metric(metric))
    index = built.index
    _SAMPLE = [index.graph(n).read() for n in range(len(index))]
    n = len(_SAMPLE)
    cache = scratch / f"exact{sample}.{metric}.npy"  # the slow part, kept
    started = time.perf_counter()
    if cache.exists():
        exact = np.load(cache)
    else:
        rows = run_map(_exact_row, [(i, metric) for i in range(n)], jobs)
        exact = np.ones((n, n))
        for i, row in enumerate(rows):
            exact[i, i + 1 :] = row
            exact[i + 1 :, i] = row
        np.save(cache, exact)
    exact_seconds = time.perf_counter() - started
    found = index.search_many(_SAMPLE, top=11)
    recalls = []
    for i, hits in enumerate(found):
        others = [h.number for h in hits if h.number != i][:10]
        best = sorted((s for j, s in enumerate(exact[i]) if j != i), reverse=True)
        tenth = best[9]
        recalls.append(sum(exact[i][j] >= tenth - 1e-9 for j in others) / 10)
    worst_gap = max(
        abs(h.score - exact[i][h.number]) for i, hits in enumerate(found) for h in hits
    )
    print(f"exact all-pairs: {n * (n - 1) // 2} scores in {exact_seconds:.0f} s")
    print(
        "| metric | sample | candidates | recall@10 mean | queries with recall 1 "
        "| min | max |index score - metric score| |"
    )
    print(
        f"| {metric} | {len(_SAMPLE)} | {candidates} | "
        f"{statistics.mean(recalls):.4f} | "
        f"{sum(r == 1 for r in recalls)} / {len(recalls)} | {min(recalls):.1f} | "
        f"{worst_gap:.1e} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=["build", "latency", "recall"])
    parser.add_argument("--out", type=Path, default=Path("/tmp/amrcheck-bench/all.idx"))
    parser.add_argument(
        "--index", type=Path, default=Path("/tmp/amrcheck-bench/all.idx")
    )
    parser.add_argument("--metric", default="wlk")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--queries", type=int, default=500)
    parser.add_argument("--sample", type=int, default=2000)
    parser.add_argument("--candidates", type=int, default=200)
    parser.add_argument("--scratch", type=Path, default=Path("/tmp/amrcheck-bench"))
    args = parser.parse_args()
    if args.what == "build":
        args.out.parent.mkdir(parents=True, exist_ok=True)
        build(args.out, args.metric, args.jobs)
    elif args.what == "latency":
        latency(args.index, args.queries)
    else:
        recall(args.sample, args.metric, args.jobs, args.scratch, args.candidates)


if __name__ == "__main__":
    main()
