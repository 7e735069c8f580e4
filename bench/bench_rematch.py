"""Bench (not a test): rematch whole-process pairs/s against the 10,000 target.

Each run is a fresh interpreter that imports, reads both files and scores
every pair (reading included, as the issue asks). Three ways of running
ours, and the reference in the same bench run:

* ``engine``: ``get_metric("rematch").score`` per pair, the files read
  whole (``read_corpus``) or streamed (``read_chunks``);
* ``cli``: ``amrcheck score REF CAND --metric rematch -q`` (streamed,
  per-pair TSV written), with ``--jobs 1`` and ``--jobs 2``;
* ``reference`` (with ``--reference DIR``): DIR/run_rematch.py, the
  reference's per-pair code (Rematch-RARE ``methods/rematch/rematch.py``)
  reading with smatch 1.0.4's ``amr.py`` (the ``bench`` extra installs
  smatch 1.0.4). Never part of the repository; see bench/RESULTS.md.

Runs alternate between the tools, so load from other processes hits all
alike; reported: median wall time, pairs/s from it, median CPU seconds
(user + system of the child), peak RSS, and the sum of per-pair scores
(ours must equal the reference's).

    python bench/workloads.py        # /tmp/amrcheck-bench/unrelated10000.*
    python bench/bench_rematch.py [--runs 5] [--reference /tmp/rematch-ref]
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bench.command_line import runs_parser  # noqa: E402
from bench.workloads import bamboo_sts_main, run_timed, unrelated  # noqa: E402

_ENGINE = """
import sys
from amrcheck.reading.corpus import read_corpus
from amrcheck.metrics import get_metric
metric = get_metric("rematch")
cand, ref = read_corpus(sys.argv[1]), read_corpus(sys.argv[2])
total = sum(metric.score(a.graph, b.graph).f1 for a, b in zip(cand, ref))
peak = next(l.split()[1] for l in open("/proc/self/status") if l.startswith("VmHWM"))
print(len(cand), total, peak)
"""

# the same, streamed: one chunk of each file in memory at a time (files
# in the same order, as the workloads are)
_ENGINE_STREAMED = """
import sys
from amrcheck.reading.corpus import read_chunks
from amrcheck.metrics import get_metric
metric = get_metric("rematch")
def graphs(path):
    for chunk in read_chunks(path):
        for entry in chunk.corpus:
            yield entry.graph
pairs = total = 0
for a, b in zip(graphs(sys.argv[1]), graphs(sys.argv[2]), strict=True):
    total += metric.score(a, b).f1
    pairs += 1
peak = next(l.split()[1] for l in open("/proc/self/status") if l.startswith("VmHWM"))
print(pairs, total, peak)
"""


def _tsv_total(path: str) -> float:
    lines = Path(path).read_text().splitlines()
    column = lines[0].split("\t").index("f1")
    return sum(float(line.split("\t")[column]) for line in lines[1:])


def commands(
    cand: Path, ref: Path, reference: Path | None, out: str
) -> dict[str, list[str]]:
    # the console script next to this interpreter (not a version manager's
    # shim, which adds its own start-up time)
    cli = [
        str(Path(sys.executable).parent / "amrcheck"),
        "score",
        str(ref),
        str(cand),
        "--metric",
        "rematch",
        "-q",
        "--per-pair",
        out,
    ]
    runs = {
        "engine, whole files (read_corpus)": [
            sys.executable,
            "-c",
            _ENGINE,
            str(cand),
            str(ref),
        ],
        "engine, streamed (read_chunks)": [
            sys.executable,
            "-c",
            _ENGINE_STREAMED,
            str(cand),
            str(ref),
        ],
        "amrcheck score --jobs 1": [*cli, "--jobs", "1"],
        "amrcheck score --jobs 2": [*cli, "--jobs", "2"],
    }
    if reference is not None:
        runs["reference rematch (1 process)"] = [
            sys.executable,
            str(reference / "run_rematch.py"),
            str(cand),
            str(ref),
        ]
    return runs


def bench(label: str, cand: Path, ref: Path, reference: Path | None, runs: int) -> None:
    out = os.path.join(tempfile.mkdtemp(prefix="bench-rematch-"), "pairs.tsv")
    tools = commands(cand, ref, reference, out)
    walls: dict[str, list[float]] = {name: [] for name in tools}
    cpus: dict[str, list[float]] = {name: [] for name in tools}
    facts: dict[str, tuple[int, float, int]] = {}
    for _ in range(runs):
        for name, command in tools.items():  # alternate: load hits all alike
            wall, cpu, stdout = run_timed(command)
            walls[name].append(wall)
            cpus[name].append(cpu)
            if name.startswith("amrcheck score"):
                pairs = len(Path(out).read_text().splitlines()) - 1
                facts[name] = (pairs, _tsv_total(out), 0)
            else:
                n, total, peak = stdout.split()
                facts[name] = (int(n), float(total), int(peak) // 1024)
    print(f"{label}, {runs} runs each, load average {os.getloadavg()[0]:.2f}:")
    print(
        "| tool | pairs | pairs/s (median wall) | wall s | CPU s | Σ per-pair score |"
    )
    print("|---|---|---|---|---|---|")
    for name in tools:
        pairs, total, _ = facts[name]
        wall, cpu = statistics.median(walls[name]), statistics.median(cpus[name])
        print(
            f"| {name} | {pairs:,} | **{pairs / wall:,.0f}** | {wall:.2f} "
            f"(min {min(walls[name]):.2f}) | {cpu:.2f} | {total:.9f} |"
        )


def main() -> None:
    parser = runs_parser(__doc__, runs=5)
    parser.add_argument("--reference", type=Path, default=None)
    args = parser.parse_args()
    bench("unrelated 10k", *unrelated(), args.reference, args.runs)
    bench("BAMBOO sts/main dev", *bamboo_sts_main(), args.reference, args.runs)


if __name__ == "__main__":
    main()
