"""UMR reading: the English release's time, and a 50 MB file's memory.

    python bench/bench_umr_read.py

* reads all 584 files of the UMR 3.0 English release (31,534 sentences) in
  one process, wall and CPU seconds (the target is 10 s);
* writes a file of at least 50 MB (the release's files one after another,
  under /tmp) and reads it in a fresh process with
  :func:`amrcheck.reading.umr.iter_umr_file`, then checks it with
  ``amrcheck check --select U40`` (few findings, so what is measured is the
  reading), each time printing the process's peak resident memory.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from amrcheck.reading.umr import iter_umr_file  # noqa: E402

ENGLISH = REPO.parent / "shared" / "data" / "umr" / "english"
BIG = Path("/tmp/amrcheck-umr-50mb.umr")
_READ_ALL = (
    "import resource, sys\n"
    "from amrcheck.reading.umr import iter_umr_file\n"
    "count = sum(1 for _ in iter_umr_file(sys.argv[1]))\n"
    "print(count, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024)\n"
)


def read_release() -> tuple[int, float, float]:
    files = sorted(ENGLISH.glob("*.umr"))
    wall, cpu = time.perf_counter(), time.process_time()
    count = sum(1 for path in files for _ in iter_umr_file(path))
    return count, time.perf_counter() - wall, time.process_time() - cpu


def write_big() -> int:
    files = sorted(ENGLISH.glob("*.umr"))
    size = 0
    with BIG.open("wb") as out:
        while size < 50_000_000:
            for path in files:
                data = path.read_bytes()
                out.write(data)
                size += len(data)
                if size >= 50_000_000:
                    break
    return size


def main() -> int:
    with open("/proc/loadavg") as handle:
        print(f"load: {handle.read().strip()}")
    count, wall, cpu = read_release()
    print(
        f"English release: {count} sentences read in {wall:.1f} s wall, {cpu:.1f} s CPU"
    )
    size = write_big()
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    done = subprocess.run(
        [sys.executable, "-c", _READ_ALL, str(BIG)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    sentences, peak = done.stdout.split()
    print(f"{size / 1e6:.1f} MB file: {sentences} sentences read, peak RSS {peak} MB")
    start = time.perf_counter()
    subprocess.run(
        ["amrcheck", "check", "--quiet", "--select", "U40", str(BIG)],
        env=env,
        capture_output=True,
        check=False,
    )
    seconds = time.perf_counter() - start
    peak_check = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024
    print(
        f"amrcheck check --select U40 on it: {seconds:.1f} s, peak RSS {peak_check} MB"
    )
    BIG.unlink()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
