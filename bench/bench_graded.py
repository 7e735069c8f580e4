"""Bench (not a test): the graded metrics — whole-process speed and memory.

Whole process: a fresh interpreter imports amrcheck, loads the vectors
(GloVe 6B 50d unless ``--vectors``), reads both files and scores every pair
in order; reported: pairs/s of the whole run, user+system CPU seconds, and
the process' resident memory after reading, after 1,000 pairs and at the
end (flat = the scoring keeps nothing per pair), and its peak (VmHWM).

``--jobs 1 2`` runs each metric once per process count; with more than
one, pairs are scored as ``--jobs`` scores them
(:func:`amrcheck.execution.run_map`:
forked workers that inherit the corpus, the metric and its memory-mapped
vectors), the peak of the largest worker is added, and the run stops if
any pair's score differs from the single-process run.

Then the product command, ``amrcheck score REF CAND --metric M --jobs N
--per-pair FILE``, whole process, for each ``--jobs`` (with two or more,
each worker reads and scores its own part of the files); its per-pair
scores must equal the in-process runs' bit for bit.

``--reference DIR`` also runs the reference WWLK on the same files: DIR
holds ``run_wwlk.py`` and the reference's modules (see bench/RESULTS.md,
section "Graded metrics", for how that folder was made; it is never part
of the repository). Its vectors are random (no gensim here), as in the
figure the issue quotes.

    python bench/workloads.py     # writes /tmp/amrcheck-bench/unrelated10000.*
    python bench/bench_graded.py [--runs 1] [--weights W.json] [--reference DIR]
        [--jobs 1 2] [--metrics wwlk wwlk-theta] [--unrelated 10000 20000]
"""

from __future__ import annotations

import csv
import hashlib
import json
import os
import statistics
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bench.command_line import runs_parser  # noqa: E402
from bench.workloads import bamboo_sts_main, run_timed, unrelated  # noqa: E402

_WORKER = """
import hashlib, json, resource, sys
def rss(key="VmRSS"):
    lines = open("/proc/self/status").read().splitlines()
    return next(int(l.split()[1]) for l in lines if l.startswith(key))
from amrcheck.reading.corpus import read_corpus
from amrcheck.metrics import get_metric
from amrcheck.execution import run_map
metric = get_metric(sys.argv[1], **json.loads(sys.argv[4]))
jobs = int(sys.argv[5])
cand, ref = read_corpus(sys.argv[2]), read_corpus(sys.argv[3])
marks = {"read": rss()}
pairs = [(a.graph, b.graph) for a, b in zip(cand, ref)]
def score(pair):
    return metric.score(*pair).f1
if jobs == 1:
    scores = []
    for k, pair in enumerate(pairs, start=1):
        scores.append(score(pair))
        if k == 1000:
            marks["1000 pairs"] = rss()
else:  # as --jobs does: forked workers that share the corpus and vectors
    scores = run_map(score, pairs, jobs=jobs)
marks["end"] = rss()
marks["peak"] = rss("VmHWM")
marks["worker peak"] = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
digest = hashlib.sha256(repr(scores).encode()).hexdigest()[:16]
print(len(cand), digest, json.dumps(marks))
"""


def median_runs(command: list[str], runs: int) -> tuple[float, float, str]:
    """Median wall and CPU seconds of ``runs`` runs of ``command``; the last stdout."""
    timings = [run_timed(command) for _ in range(runs)]
    wall = statistics.median(t[0] for t in timings)
    return wall, statistics.median(t[1] for t in timings), timings[-1][2]


def check_digest(digests: dict[str, str], metric: str, digest: str, run: str) -> None:
    """Stop unless every run of ``metric`` gave the first run's per-pair scores."""
    if digests.setdefault(metric, digest) != digest:
        raise SystemExit(f"{metric}: {run} gives other per-pair scores")


def ours(
    metric: str,
    options: dict[str, object],
    cand: Path,
    ref: Path,
    runs: int,
    jobs: int,
    digests: dict[str, str],
) -> str:
    wall, cpu, out = median_runs(
        [
            sys.executable,
            "-c",
            _WORKER,
            metric,
            str(cand),
            str(ref),
            json.dumps(options),
            str(jobs),
        ],
        runs,
    )
    pairs, digest, marks = out.split(maxsplit=2)
    # the scores of every pair must not depend on the number of processes
    check_digest(digests, metric, digest, f"jobs {jobs}")
    mib = {k: v / 1024 for k, v in json.loads(marks).items()}
    after_1k = f"{mib['1000 pairs']:.0f}" if "1000 pairs" in mib else "-"
    peak = f"{mib['peak']:.0f}"
    if jobs > 1:  # each worker's own peak (pages shared with the parent count in both)
        peak += f" (workers {mib['worker peak']:.0f})"
    return (
        f"| {metric} | {jobs} | {int(pairs) / wall:,.0f} | {wall:.2f} | {cpu:.1f} "
        f"| {mib['read']:.0f} / {after_1k} / {mib['end']:.0f} | {peak} |"
    )


def command(
    metric: str,
    options: dict[str, object],
    cand: Path,
    ref: Path,
    runs: int,
    jobs: int,
    digests: dict[str, str],
) -> str:
    """The product command, whole process: ``amrcheck score ... --jobs N --per-pair``.

    With two jobs or more, each worker reads and scores its own part of
    the files (``amrcheck.pairing.parts``); the per-pair scores must equal the
    in-process runs' bit for bit (same digest).
    """
    amrcheck = Path(sys.executable).parent / "amrcheck"
    settings = [f"{key}={value}" for key, value in options.items()]
    with tempfile.TemporaryDirectory() as folder:
        table = Path(folder) / "pairs.tsv"
        wall, cpu, _ = median_runs(
            [str(amrcheck), "score", str(ref), str(cand), "--metric", metric]
            + [part for s in settings for part in ("--option", s)]
            + ["--jobs", str(jobs), "-q", "--per-pair", str(table)],
            runs,
        )
        with table.open() as handle:
            f1s = [float(row["f1"]) for row in csv.DictReader(handle, delimiter="\t")]
    digest = hashlib.sha256(repr(f1s).encode()).hexdigest()[:16]
    check_digest(digests, metric, digest, f"amrcheck score --jobs {jobs}")
    return (
        f"| {metric} (`amrcheck score --jobs {jobs}`) | {jobs} "
        f"| {len(f1s) / wall:,.0f} | {wall:.2f} | {cpu:.1f} | - | - |"
    )


def reference(folder: Path, cand: Path, ref: Path) -> str:
    env_path = os.pathsep.join(str(p) for p in (folder, folder.parent / "site"))
    wall, cpu, out = run_timed(
        [
            "env",
            f"PYTHONPATH={env_path}",
            sys.executable,
            str(folder / "run_wwlk.py"),
            str(cand),
            str(ref),
        ]
    )
    pairs, _, peak = out.split()
    return (
        f"| reference WWLK (random vectors) | 1 | {int(pairs) / wall:,.0f} "
        f"| {wall:.2f} | {cpu:.1f} | - | {int(peak) / 1024:.0f} |"
    )


def main() -> None:
    parser = runs_parser(__doc__, runs=1)
    parser.add_argument("--vectors", default=None)
    parser.add_argument(
        "--weights", default=None, help="wwlk-theta weights file (default: shipped)"
    )
    parser.add_argument("--reference", type=Path, default=None)
    parser.add_argument(
        "--jobs",
        type=int,
        nargs="+",
        default=[1],
        help="process counts to run each metric with (scores must not differ)",
    )
    parser.add_argument(
        "--metrics", nargs="+", default=["s2match", "wwlk", "wwlk-theta"]
    )
    parser.add_argument(
        "--unrelated",
        type=int,
        nargs="+",
        default=[10_000],
        help="sizes of the unrelated-pair workloads (pairs)",
    )
    args = parser.parse_args()
    graded = {} if args.vectors is None else {"vectors": args.vectors}
    # wwlk-theta without --weights: the weights shipped in the package
    configs = [
        (name, {**graded, "weights": args.weights})
        if name == "wwlk-theta" and args.weights
        else (name, graded)
        for name in args.metrics
    ]
    workloads = {
        f"unrelated {pairs:,}": unrelated(pairs) for pairs in args.unrelated
    }
    workloads["BAMBOO sts/main dev"] = bamboo_sts_main()
    for label, (cand, ref) in workloads.items():
        print(f"\n{label} (load average before: {os.getloadavg()[0]:.2f})\n")
        print(
            "| metric | jobs | pairs/s | wall s | CPU s "
            "| RSS MiB read / 1k pairs / end | peak MiB |"
        )
        print("|---|---|---|---|---|---|---|")
        digests: dict[str, str] = {}
        for name, options in configs:
            for jobs in args.jobs:
                row = ours(name, options, cand, ref, args.runs, jobs, digests)
                print(row, flush=True)
            for jobs in args.jobs:
                row = command(name, options, cand, ref, args.runs, jobs, digests)
                print(row, flush=True)
        if args.reference is not None:
            print(reference(args.reference, cand, ref), flush=True)
        print(f"load average after: {os.getloadavg()[0]:.2f}", flush=True)


if __name__ == "__main__":
    main()
