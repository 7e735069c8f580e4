"""Bench (not a test): s2match, WWLK and WWLKθ — whole-process speed and memory.

Whole process: a fresh interpreter imports amrcheck, loads the vectors
(GloVe 6B 50d unless ``--vectors``), reads both files and scores every pair
in order; reported: pairs/s of the whole run, user+system CPU seconds, and
the process' resident memory after reading, after 1,000 pairs and at the
end (flat = the scoring keeps nothing per pair), and its peak (VmHWM).

``--reference DIR`` also runs the reference WWLK on the same files: DIR
holds ``run_wwlk.py`` and the reference's modules (see bench/RESULTS.md,
section "Graded metrics", for how that folder was made; it is never part
of the repository). Its vectors are random (no gensim here), as in the
figure the issue quotes.

    python bench/workloads.py     # writes /tmp/amrcheck-bench/unrelated10000.*
    python bench/bench_graded.py [--runs 1] [--weights W.json] [--reference DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bench.workloads import bamboo_sts_main, unrelated  # noqa: E402

_WORKER = """
import json, sys
def rss(key="VmRSS"):
    lines = open("/proc/self/status").read().splitlines()
    return next(int(l.split()[1]) for l in lines if l.startswith(key))
from amrcheck.corpus import read_corpus
from amrcheck.metrics import get_metric
metric = get_metric(sys.argv[1], **json.loads(sys.argv[4]))
cand, ref = read_corpus(sys.argv[2]), read_corpus(sys.argv[3])
marks = {"read": rss()}
for k, (a, b) in enumerate(zip(cand, ref), start=1):
    metric.score(a.graph, b.graph)
    if k == 1000:
        marks["1000 pairs"] = rss()
marks["end"] = rss()
marks["peak"] = rss("VmHWM")
print(len(cand), json.dumps(marks))
"""


def _run(command: list[str]) -> tuple[float, float, str]:
    """Wall seconds, CPU seconds (user + system) and stdout of a child process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=True, cwd=REPO)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, done.stdout


def ours(
    metric: str, options: dict[str, object], cand: Path, ref: Path, runs: int
) -> str:
    walls, cpus = [], []
    for _ in range(runs):
        wall, cpu, out = _run(
            [
                sys.executable,
                "-c",
                _WORKER,
                metric,
                str(cand),
                str(ref),
                json.dumps(options),
            ]
        )
        walls.append(wall)
        cpus.append(cpu)
    pairs, marks = out.split(maxsplit=1)
    mib = {k: v / 1024 for k, v in json.loads(marks).items()}
    wall, cpu = statistics.median(walls), statistics.median(cpus)
    rss = f"{mib['read']:.0f} / {mib.get('1000 pairs', mib['end']):.0f}"
    return (
        f"| {metric} | {int(pairs) / wall:,.0f} | {wall:.1f} | {cpu:.1f} "
        f"| {rss} / {mib['end']:.0f} | {mib['peak']:.0f} |"
    )


def reference(folder: Path, cand: Path, ref: Path) -> str:
    env_path = os.pathsep.join(str(p) for p in (folder, folder.parent / "site"))
    wall, cpu, out = _run(
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
        f"| reference WWLK (random vectors) | {int(pairs) / wall:,.0f} | {wall:.1f} "
        f"| {cpu:.1f} | - | {int(peak) / 1024:.0f} |"
    )


def _weights(path: str | None) -> str:
    """A weights file for wwlk-theta (speed does not depend on the values)."""
    if path:
        return path
    from amrcheck.metrics.wwlk import save_weights

    handle, name = tempfile.mkstemp(suffix=".json")
    os.close(handle)
    save_weights(name, {":arg0": 0.3, ":arg1": 0.25}, {}, {})
    return name


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--vectors", default=None)
    parser.add_argument("--weights", default=None, help="wwlk-theta weights file")
    parser.add_argument("--reference", type=Path, default=None)
    args = parser.parse_args()
    graded = {} if args.vectors is None else {"vectors": args.vectors}
    configs = [
        ("s2match", graded),
        ("wwlk", graded),
        ("wwlk-theta", {**graded, "weights": _weights(args.weights)}),
    ]
    workloads = {"unrelated 10k": unrelated(), "BAMBOO sts/main dev": bamboo_sts_main()}
    for label, (cand, ref) in workloads.items():
        print(f"\n{label}\n")
        print(
            "| metric | pairs/s | wall s | CPU s "
            "| RSS MiB read / 1k pairs / end | peak MiB |"
        )
        print("|---|---|---|---|---|---|")
        for name, options in configs:
            print(ours(name, options, cand, ref, args.runs), flush=True)
        if args.reference is not None:
            print(reference(args.reference, cand, ref), flush=True)


if __name__ == "__main__":
    main()
