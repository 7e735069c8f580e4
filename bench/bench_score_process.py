"""Bench (not a test): two installed builds' ``amrcheck score`` process, side by side.

For start-up and per-pair glue work (issue 34): the same commands run by
two sites (``--before``, ``--after``: folders that ``bench_compiled_core.py
--site`` installs into), alternating, each a whole process in ``/tmp``;
the CPU seconds (user + system of the child) of each, median of ``--runs``:

* ``amrcheck score REF CAND --jobs 1 --per-pair F -q`` on 5,000 unrelated
  pairs (``bench/workloads.py``), strict, ``--compat smatch-1.0.4`` and
  ``--metric rematch``; each variant's ``--per-pair`` files must be equal
  byte for byte between the two builds (else the bench stops);
* ``amrcheck --version``, ``amrcheck --help``, ``amrcheck score --help``;
* ``python -c "import amrcheck.cli"``.

    python bench/bench_score_process.py --before /tmp/final-site \\
        --after /tmp/start-build-site [--runs 7] [--pairs 5000]
"""

from __future__ import annotations

import argparse
import filecmp
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "bench"))
from workloads import unrelated  # noqa: E402

WORK = Path("/tmp/amrcheck-bench")

#: the --per-pair score variants: name, extra options
VARIANTS = [
    ("strict", []),
    ("compat", ["--compat", "smatch-1.0.4"]),
    ("rematch", ["--metric", "rematch"]),
]


def cpu_seconds(command: list[str], site: Path) -> float:
    """User + system seconds of one process run with ``site`` first on the path."""
    env = {k: v for k, v in os.environ.items() if k != "AMRCHECK_PURE_PYTHON"}
    env["PYTHONPATH"] = str(site)
    with tempfile.TemporaryFile() as err:
        process = subprocess.Popen(
            command, stdout=subprocess.DEVNULL, stderr=err, env=env, cwd="/tmp"
        )
        _, status, usage = os.wait4(process.pid, 0)
        if os.waitstatus_to_exitcode(status) not in (0, 1):
            err.seek(0)
            raise SystemExit(f"failed: {' '.join(command)}\n{err.read().decode()}")
    return usage.ru_utime + usage.ru_stime


def commands(site: Path, pairs: int, label: str) -> dict[str, list[str]]:
    cand, ref = unrelated(pairs)
    script = [sys.executable, str(site / "bin" / "amrcheck")]
    found = {
        f"score {pairs:,} {name}": [
            *script, "score", str(ref), str(cand), "--jobs", "1",
            "--per-pair", str(WORK / f"process-{label}-{name}.tsv"), "-q", *options,
        ]
        for name, options in VARIANTS
    }
    found["--version"] = [*script, "--version"]
    found["--help"] = [*script, "--help"]
    found["score --help"] = [*script, "score", "--help"]
    found["import amrcheck.cli"] = [sys.executable, "-c", "import amrcheck.cli"]
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path, required=True)
    parser.add_argument("--after", type=Path, required=True)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--pairs", type=int, default=5000)
    args = parser.parse_args()
    sites = {"before": args.before, "after": args.after}
    runs = {label: commands(site, args.pairs, label) for label, site in sites.items()}
    cpus: dict[str, dict[str, list[float]]] = {
        name: {label: [] for label in sites} for name in runs["before"]
    }
    print(f"load at start: {Path('/proc/loadavg').read_text().strip()}", flush=True)
    for _ in range(args.runs):
        for name in cpus:
            for label, site in sites.items():
                cpus[name][label].append(cpu_seconds(runs[label][name], site))
    for name, _ in VARIANTS:
        first, second = (WORK / f"process-{label}-{name}.tsv" for label in sites)
        if not filecmp.cmp(first, second, shallow=False):
            raise SystemExit(f"--per-pair of {name} differs: {first} {second}")
    print("| command | before CPU s | after CPU s | after − before |")
    print("|---|---|---|---|")
    for name, by_site in cpus.items():
        before, after = (statistics.median(by_site[label]) for label in sites)
        print(f"| `{name}` | {before:.3f} | {after:.3f} | {after - before:+.3f} |")
    print("--per-pair files equal, byte for byte: " + ", ".join(n for n, _ in VARIANTS))
    print(f"load at end: {Path('/proc/loadavg').read_text().strip()}")


if __name__ == "__main__":
    main()
