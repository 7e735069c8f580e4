"""Bench (not a test): AMRSim — whole-process speed and peak memory of the CLI.

Runs the product command, ``amrcheck score REF CAND --metric amrsim --jobs N
--per-pair FILE -q``, as a fresh process on the unrelated-pairs workload
(``bench/workloads.py``: graphs of all shared corpora paired with graphs
from elsewhere in the pool), once per ``--jobs`` value. Reported: pairs/s of
the whole process (start-up, model loading, reading, scoring, writing),
user + system CPU seconds, the peak resident memory of the largest process
(``ru_maxrss`` of the children: with ``--jobs 2``, the parent or a worker),
and the load average before the run (other jobs on the machine). The run
stops if the per-pair scores of two ``--jobs`` values differ. With
``--smatch``, smatch 1.0.4 (``smatch.py --ms -f CAND REF``, the bench
extra) runs on the same pairs in the same run, as the yardstick.

    python bench/workloads.py --pairs 20000
    python bench/bench_amrsim.py [--pairs 20000] [--jobs 2 1] [--smatch]
        [-o precision=float32]
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

#: runs a command and prints the peak RSS (KiB) of its largest process
_PEAK = (
    "import resource, subprocess, sys\n"
    "subprocess.run(sys.argv[1:], check=True, stdout=subprocess.DEVNULL)\n"
    "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
)

from bench.workloads import run_timed, unrelated  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=20_000)
    parser.add_argument("--jobs", type=int, nargs="+", default=[1, 2])
    parser.add_argument("-o", "--option", action="append", default=[])
    parser.add_argument(
        "--smatch", action="store_true", help="smatch 1.0.4 on the same pairs too"
    )
    args = parser.parse_args()
    cand, ref = unrelated(args.pairs)
    options = [item for option in args.option for item in ("-o", option)]
    print(
        "| jobs | pairs/s | wall s | CPU s | peak RSS (largest process) | load before |"
    )
    print("|---|---|---|---|---|---|")
    scores: dict[int, str] = {}
    with tempfile.TemporaryDirectory() as folder:
        for jobs in args.jobs:
            out = Path(folder) / f"jobs{jobs}.tsv"
            load = os.getloadavg()[0]
            command = [
                *(sys.executable, "-c", _PEAK),
                *(sys.executable, "-c", "from amrcheck.cli import main; main()"),
                *("score", str(ref), str(cand), "--metric", "amrsim", *options),
                *("--jobs", str(jobs), "--per-pair", str(out), "-q"),
            ]
            wall, cpu, printed = run_timed(command)
            peak = int(printed.split()[-1]) / 1024
            scores[jobs] = out.read_text(encoding="utf-8")
            print(
                f"| {jobs} | {args.pairs / wall:,.0f} | {wall:.1f} | {cpu:.1f} "
                f"| {peak:,.0f} MiB | {load:.2f} |",
                flush=True,
            )
        if args.smatch:
            _smatch_row(cand, ref, args.pairs)
    if len(set(scores.values())) > 1:
        raise SystemExit("per-pair scores differ between --jobs values")
    print(f"per-pair scores identical for --jobs {' '.join(map(str, args.jobs))}")


def _smatch_row(cand: Path, ref: Path, pairs: int) -> None:
    """smatch 1.0.4 on the same pairs (one process: it has no parallel mode)."""
    smatch_py = shutil.which("smatch.py", path=str(Path(sys.executable).parent))
    if smatch_py is None:
        raise SystemExit("--smatch needs smatch.py: pip install smatch==1.0.4")
    load = os.getloadavg()[0]
    command = [
        *(sys.executable, "-c", _PEAK),
        *(sys.executable, smatch_py, "--ms", "-f", str(cand), str(ref)),
    ]
    wall, cpu, printed = run_timed(command)
    peak = int(printed.split()[-1]) / 1024
    print(
        f"| smatch 1.0.4 | {pairs / wall:,.0f} | {wall:.1f} | {cpu:.1f} "
        f"| {peak:,.0f} MiB | {load:.2f} |",
        flush=True,
    )


if __name__ == "__main__":
    main()
