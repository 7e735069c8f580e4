"""Whole-process peak RSS and pairs/s of ``amrcheck score`` (or diff, iaa) by size.

Issue 6 asks for memory that is flat in corpus size: ``score`` streams
both files in chunks, so peak RSS should stay put from 1k to 40k pairs
while the old whole-file path grew with the file. Each run is a fresh
interpreter; its peak RSS is the child's own ``ru_maxrss`` (``os.wait4``,
so earlier runs do not leak into later ones) and pairs/s is pairs over
wall-clock seconds (imports, reading, pairing, scoring, output).

Workloads are ``bench/workloads.py``'s unrelated pairs at 1k, 5k and 10k,
plus 40k: the 10k files four times over, ids made unique so that graphs
still pair by ``::id``.

    python bench/workloads.py
    python bench/bench_streaming.py [--tree DIR ...] [--jobs 1,2]
                                    [--metrics smatch,rematch]
                                    [--command score|diff|iaa] [--sizes ...]

``--command diff`` runs ``amrcheck diff REF CAND -q`` (the reference as
the old version; text output), ``--command iaa`` runs ``amrcheck iaa REF
CAND -q`` (two annotators; text output); both stream since issue 6 too,
and take no ``--metrics`` (diff's metric is smatch, iaa's is smatch).

``--tree DIR`` runs another copy of the package (a directory holding an
``amrcheck/`` folder), e.g. the code before a change; given several
times, the copies take turns on each workload, so that a before/after
table sees the same machine load.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from workloads import DEFAULT_OUT, unrelated  # noqa: E402

SIZES = (1_000, 5_000, 10_000)
REPEATS = 4  # the largest workload: the 10k files this many times


def _repeated(cand: Path, ref: Path, times: int) -> tuple[Path, Path, int]:
    """The 10k workload ``times`` over, each copy's ids suffixed ``.k``."""
    pairs = 10_000 * times
    out = [cand.with_name(f"unrelated{pairs}.{side}.amr") for side in ("cand", "ref")]
    for source, target in zip((cand, ref), out, strict=True):
        if target.exists():
            continue
        lines = source.read_text(encoding="utf-8").splitlines(keepends=True)
        with target.open("w", encoding="utf-8") as handle:
            for copy in range(times):
                for line in lines:
                    if line.startswith("# ::id "):
                        line = f"{line.rstrip()}.{copy}\n"
                    handle.write(line)
    return out[0], out[1], pairs


def workloads() -> list[tuple[int, Path, Path]]:
    chosen = []
    for size in SIZES:
        cand, ref = unrelated(size, DEFAULT_OUT)
        chosen.append((size, cand, ref))
    big_cand, big_ref, pairs = _repeated(*unrelated(10_000, DEFAULT_OUT), REPEATS)
    chosen.append((pairs, big_cand, big_ref))
    return chosen


def run(
    ref: Path,
    cand: Path,
    metric: str,
    jobs: int,
    tree: Path | None,
    subcommand: str = "score",
) -> tuple[float, float]:
    """(wall seconds, peak RSS in MiB) of one ``amrcheck SUBCOMMAND`` process."""
    env = dict(os.environ)
    if tree is not None:  # and run from there: python -c puts the cwd first
        env["PYTHONPATH"] = str(tree)
    options = ["-m", metric] if subcommand == "score" else []
    command = [
        sys.executable, "-c", "from amrcheck.cli import main; main()",
        subcommand, str(ref), str(cand), *options, "-q", "--jobs", str(jobs),
    ]  # fmt: skip
    began = time.perf_counter()
    child = subprocess.Popen(command, env=env, cwd=tree, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    seconds = time.perf_counter() - began
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode not in (0, 1 if subcommand == "diff" else 0):
        raise SystemExit(f"{' '.join(command)} exited {child.returncode}")
    return seconds, usage.ru_maxrss / 1024  # ru_maxrss is in KiB on Linux


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--tree", type=Path, action="append", help="directory holding amrcheck/"
    )
    parser.add_argument("--jobs", default="1,2", help="comma-separated --jobs values")
    parser.add_argument("--metrics", default="smatch,rematch")
    parser.add_argument("--command", default="score", choices=["score", "diff", "iaa"])
    parser.add_argument(
        "--sizes", help="comma-separated pair counts to run (default: all)"
    )
    args = parser.parse_args()
    trees: list[Path | None] = args.tree or [None]
    metrics = args.metrics.split(",") if args.command == "score" else ["smatch"]
    sizes = {int(n) for n in args.sizes.split(",")} if args.sizes else None
    print(f"`amrcheck {args.command}`")
    print()
    print("| metric | jobs | pairs | code | pairs/s | wall s | peak RSS |")
    print("|---|---|---|---|---|---|---|")
    for metric in metrics:
        for jobs in map(int, args.jobs.split(",")):
            for pairs, cand, ref in workloads():
                if sizes is not None and pairs not in sizes:
                    continue
                for tree in trees:
                    seconds, peak = run(ref, cand, metric, jobs, tree, args.command)
                    print(
                        f"| {metric} | {jobs} | {pairs:,} "
                        f"| {tree.name if tree else 'installed'} "
                        f"| {pairs / seconds:,.0f} | {seconds:.1f} | {peak:.0f} MiB |",
                        flush=True,
                    )


if __name__ == "__main__":
    main()
