"""Bench (not a test): a machine's first large run, and the runs after it.

On a machine where numba has never compiled the search (empty
``NUMBA_CACHE_DIR`` and ``AMRCHECK_CACHE_DIR``, both temporary), times
whole processes of ``amrcheck score REF CAND --per-pair F -q`` on
``--pairs`` unrelated pairs (``bench/workloads.py``):

1. the **first run**: it finds the compiled search not ready, starts its
   preparation in the background and scores with the plain search;
2. how long that **preparation** takes until the search is marked ready;
3. a **later run**, which loads the compiled search.

Both runs must write the same per-pair scores (checked).

    python bench/bench_first_run.py [--pairs 5000]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from workloads import run_timed, unrelated  # noqa: E402

READY = "from amrcheck.metrics import _search_cache as c; print(c.ready())"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=5000)
    parser.add_argument(
        "--wait", type=float, default=300.0, help="most seconds to wait for it"
    )
    args = parser.parse_args()
    cand, ref = unrelated(args.pairs)
    amrcheck = str(Path(sys.executable).with_name("amrcheck"))
    with tempfile.TemporaryDirectory() as folder:
        os.environ["AMRCHECK_CACHE_DIR"] = str(Path(folder, "amrcheck"))
        os.environ["NUMBA_CACHE_DIR"] = str(Path(folder, "numba"))
        outputs = [Path(folder, "first.tsv"), Path(folder, "later.tsv")]

        def score(out: Path) -> tuple[float, float]:
            command = [amrcheck, "score", str(ref), str(cand)]
            return run_timed([*command, "--per-pair", str(out), "-q"])[:2]

        first = score(outputs[0])
        start = time.perf_counter()
        while time.perf_counter() - start < args.wait:
            done = subprocess.run(
                [sys.executable, "-c", READY], capture_output=True, text=True
            )
            if done.stdout.strip() == "True":
                break
            time.sleep(0.5)
        else:
            raise SystemExit(f"the search was not ready after {args.wait:.0f} s")
        prepared = time.perf_counter() - start
        later = score(outputs[1])
        if outputs[0].read_text() != outputs[1].read_text():
            raise SystemExit("the first and the later run scored differently")
    print(f"| run ({args.pairs:,} unrelated pairs) | wall s | CPU s | pairs/s |")
    print("|---|---|---|---|")
    runs = (("first run (plain search)", first), ("later run (compiled)", later))
    for name, (wall, cpu) in runs:
        print(f"| {name} | {wall:.2f} | {cpu:.2f} | {args.pairs / wall:,.0f} |")
    print(f"background preparation: ready {prepared:.1f} s after the first run")


if __name__ == "__main__":
    main()
