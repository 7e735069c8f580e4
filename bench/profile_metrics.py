"""Bench (not a test): where each metric's time goes on unrelated pairs, one process.

For every registered metric, on ``--pairs`` unrelated pairs
(``bench/workloads.py``), in this one process and in order:

* **reading** both files into graphs (:func:`amrcheck.reading.corpus.read_corpus`);
* **standardising** every graph with the shared step
  (:func:`amrcheck.standardize.standardize`, the metric's own settings for
  smatch and s2match). The other metrics standardise inside scoring, so
  for them this column is the share of their scoring that the shared step
  takes, not time spent on top of it;
* **scoring** every pair (:func:`amrcheck.metrics.score_pairs`, batches of
  500 as ``amrcheck score`` makes them);
* **output**: the per-pair TSV rows written to a file;

then the **whole process**, ``amrcheck score REF CAND --metric M --jobs 1
--per-pair F -q`` (start-up and loading included). The **floor** beside
them: a whole process that only reads both files into graphs, and the
bytes alone. Process CPU seconds are given beside wall seconds: the CPU
time is what the machine's other work disturbs least.

    python bench/workloads.py --pairs 20000
    python -m amrcheck.metrics._search_cache     # the compiled search, ready
    python bench/profile_metrics.py [--pairs 20000] [--metrics smatch rematch]
"""

from __future__ import annotations

import argparse
import io
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from workloads import run_timed, unrelated  # noqa: E402

BATCH = 500


def _timed(work: Callable[[], Any]) -> tuple[float, float, Any]:
    wall, cpu = time.perf_counter(), time.process_time()
    result = work()
    return time.perf_counter() - wall, time.process_time() - cpu, result


def _profile(name: str, cand: Path, ref: Path) -> dict[str, Any]:
    from amrcheck.metrics import expect_pairs, get_metric, score_pairs
    from amrcheck.reading.corpus import read_corpus
    from amrcheck.standardize import STRICT, standardize

    row: dict[str, Any] = {"metric": name}

    def read() -> list[tuple[Any, Any]]:
        cands = [e.graph for e in read_corpus(cand)]
        refs = [e.graph for e in read_corpus(ref)]
        return list(zip(cands, refs, strict=True))

    wall, cpu, pairs = _timed(read)
    row["read"] = (wall, cpu)
    metric = get_metric(name)
    own = getattr(metric, "standardization", STRICT)
    row["standardise"] = _timed(
        lambda: [(standardize(c, own), standardize(r, own)) for c, r in pairs]
    )[:2]
    expect_pairs(metric, len(pairs))

    def score() -> list[Any]:
        found = []
        for start in range(0, len(pairs), BATCH):
            found += score_pairs(metric, pairs[start : start + BATCH])
        return found

    wall, cpu, scores = _timed(score)
    row["score"] = (wall, cpu)

    def output() -> None:
        with open("/dev/null", "w") as sink:
            text = io.StringIO()
            for number, s in enumerate(scores):
                # (P and R are None for the metrics that have none)
                text.write(f"{number}\t{s.f1:.6f}\t{s.precision}\t{s.recall}\n")
            sink.write(text.getvalue())

    row["output"] = _timed(output)[:2]
    row["pairs"] = len(pairs)
    return row


def _whole(name: str, cand: Path, ref: Path, out: Path) -> tuple[float, float]:
    amrcheck = str(Path(sys.executable).with_name("amrcheck"))
    command = [amrcheck, "score", str(ref), str(cand), "--metric", name]
    command += ["--jobs", "1", "--per-pair", str(out), "-q"]
    wall, cpu, _ = run_timed(command)
    return wall, cpu


def _floor(cand: Path, ref: Path) -> tuple[tuple[float, float], tuple[float, float]]:
    script = (
        "import sys\n"
        "from amrcheck.reading.corpus import read_corpus\n"
        "for path in sys.argv[1:]:\n"
        "    sum(1 for _ in read_corpus(path))\n"
    )
    parse = run_timed([sys.executable, "-c", script, str(cand), str(ref)])[:2]
    raw = "import sys\nfor p in sys.argv[1:]:\n    open(p, 'rb').read()\n"
    read = run_timed([sys.executable, "-c", raw, str(cand), str(ref)])[:2]
    return read, parse


def _cell(seconds: tuple[float, float]) -> str:
    return f"{seconds[0]:.2f} / {seconds[1]:.2f}"


def main() -> None:
    from amrcheck.metrics import BUILTIN_METRICS

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=20_000)
    parser.add_argument("--metrics", nargs="+", default=sorted(BUILTIN_METRICS))
    parser.add_argument("--json", action="store_true", help="rows as JSON lines")
    args = parser.parse_args()
    cand, ref = unrelated(args.pairs)
    raw, parse = _floor(cand, ref)
    print(
        f"floor, whole process (wall / CPU s): bytes only {_cell(raw)}, "
        f"read into graphs {_cell(parse)}"
    )
    print(
        "| metric | reading | standardising | scoring | output "
        "| whole process | pairs/s (whole) |"
    )
    print("|---|---|---|---|---|---|---|")
    out = Path("/tmp/amrcheck-bench/profile.tsv")
    for name in args.metrics:
        print(f"profiling {name} ...", file=sys.stderr, flush=True)
        row = _profile(name, cand, ref)
        row["whole"] = _whole(name, cand, ref, out)
        if args.json:
            print(json.dumps(row))
            continue
        print(
            f"| {name} | {_cell(row['read'])} | {_cell(row['standardise'])} "
            f"| {_cell(row['score'])} | {_cell(row['output'])} "
            f"| {_cell(row['whole'])} | {row['pairs'] / row['whole'][0]:,.0f} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
