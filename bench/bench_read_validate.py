"""Bench (not a test): whole-process time of ``amrcheck check`` on Little Prince.

Reads and validates all 1,562 graphs of the Little Prince corpus by running
the ``amrcheck`` console script as a subprocess several times, and prints the
median wall-clock time (target: under 1.5 s), plus an in-process breakdown.

    python bench/bench_read_validate.py [--runs 7] [FILE]
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DEFAULT_FILE = (
    REPO.parent / "shared" / "data" / "little_prince" / "amr-bank-struct-v3.0.txt"
)


def command(path: Path) -> list[str]:
    script = shutil.which("amrcheck")
    if script is None:  # not installed as a console script: same entry point
        return [sys.executable, "-c", "from amrcheck.cli import main; main()",
                "check", str(path)]
    return [script, "check", str(path)]


def whole_process(path: Path, runs: int) -> list[float]:
    cmd = command(path)
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
        times.append(time.perf_counter() - start)
        if proc.returncode not in (0, 1):
            raise SystemExit(f"{' '.join(cmd)} failed:\n{proc.stderr}")
    return times


def in_process(path: Path) -> tuple[float, float, int]:
    from amrcheck import read_corpus, validate
    from amrcheck.validation.propbank import load_frames

    start = time.perf_counter()
    corpus = read_corpus(path)
    read = time.perf_counter() - start
    load_frames()  # counted with validation (first use loads the frames)
    validate(corpus)
    return read, time.perf_counter() - start - read, len(corpus)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", nargs="?", type=Path, default=DEFAULT_FILE)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    times = whole_process(args.file, args.runs)
    read, check, graphs = in_process(args.file)
    print(f"command: {' '.join(command(args.file))}")
    print(f"graphs: {graphs}")
    print(
        f"whole process, {args.runs} runs: median {statistics.median(times):.3f} s "
        f"(min {min(times):.3f}, max {max(times):.3f})"
    )
    print(f"in process: read {read:.3f} s, validate {check:.3f} s")


if __name__ == "__main__":
    main()
