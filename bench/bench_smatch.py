"""Bench (not a test): amrcheck smatch against PyPI smatch 1.0.4, same run.

Workloads from ``bench/workloads.py``: 10,000 and 20,000 unrelated pairs
from all of ../shared/data (``--pairs``), and BAMBOO sts/main dev. For
each, whole processes (fresh interpreter, reading both files, scoring
every pair, writing per-pair scores), median wall time of ``--runs``,
with the largest peak RSS (``ru_maxrss`` of the child):

* ``smatch.py --ms --significant 6 -f CAND REF`` (smatch 1.0.4, -r 4);
* ``amrcheck score REF CAND --compat smatch-1.0.4`` (same triples and
  counting, so mean F1 is comparable) and the strict default, each with
  one process and with ``--jobs 2``; ``--exact`` with ``--exact``.

One untimed process gets the compiled search ready first: the first run
on a machine compiles it into numba's cache (seconds, once).

Then time per pair by graph size, in process, both tools parsing the pair
from its text and scoring it (smatch: ``get_amr_match`` on one-line
graphs; amrcheck: ``decode`` + ``Smatch.score``), bucketed by the pair's
total triple count.

    pip install smatch==1.0.4      # the `bench` extra
    python bench/bench_smatch.py [--runs 3] [--pairs 10000 20000] [--sample 3000]
"""

from __future__ import annotations

import argparse
import csv
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from workloads import bamboo_sts_main, unrelated  # noqa: E402

BUCKETS = [(0, 20), (21, 40), (41, 80), (81, 160), (161, 10_000)]


def _run(command: list[str], stdout: Path) -> tuple[float, float]:
    """Wall seconds and peak RSS (MiB) of one whole process."""
    start = time.perf_counter()
    with stdout.open("w") as out:
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.PIPE)
        _, status, usage = os.wait4(process.pid, 0)
    elapsed = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(
            f"failed: {' '.join(command)}\n{process.stderr.read().decode()}"
        )
    return elapsed, usage.ru_maxrss / 1024


def _smatch_f1s(path: Path) -> list[float]:
    return [
        float(line.split()[1])
        for line in path.read_text().splitlines()
        if line.startswith("F-score")
    ]


def _tsv_f1s(path: Path) -> list[float]:
    with path.open() as handle:
        return [float(row["f1"]) for row in csv.DictReader(handle, delimiter="\t")]


def _tsv_optimal(path: Path) -> float:
    with path.open() as handle:
        rows = list(csv.DictReader(handle, delimiter="\t"))
    return sum(int(row["optimal"]) for row in rows) / len(rows)


def _median_run(command: list[str], stdout: Path, runs: int) -> tuple[float, float]:
    """Median wall seconds of ``runs`` whole processes, and the largest peak RSS."""
    timings = [_run(command, stdout) for _ in range(runs)]
    return (
        statistics.median(seconds for seconds, _ in timings),
        max(rss for _, rss in timings),
    )


def whole_process(
    name: str, cand: Path, ref: Path, work: Path, runs: int, exact: bool
) -> list[str]:
    # the scripts next to this interpreter, not a version manager's shims
    # (which add their own start-up time to every run)
    scripts = Path(sys.executable).parent
    smatch_py = shutil.which("smatch.py", path=str(scripts))
    amrcheck = shutil.which("amrcheck", path=str(scripts))
    if smatch_py is None or amrcheck is None:
        raise SystemExit(
            "needs smatch.py (pip install smatch==1.0.4) and amrcheck on PATH"
        )
    rows = []
    slug = name.replace(" ", "_").replace("/", "_")
    out = work / f"{slug}.smatch104.txt"
    reference = [sys.executable, smatch_py, "--ms", "--significant", "6"]
    seconds, rss = _median_run([*reference, "-f", str(cand), str(ref)], out, runs)
    f1s = _smatch_f1s(out)
    count = len(f1s)
    base = count / seconds
    rows.append(
        f"| {name} | smatch 1.0.4 `-r 4` | {base:,.0f} | 1.0× "
        f"| {statistics.fmean(f1s):.4f} | – | {rss:.0f} MiB |"
    )
    print(rows[-1], flush=True)
    variants = [
        ("amrcheck compat smatch-1.0.4", ["--compat", "smatch-1.0.4"]),
        ("amrcheck compat, `--jobs 2`", ["--compat", "smatch-1.0.4", "--jobs", "2"]),
        ("amrcheck strict (default)", []),
        ("amrcheck strict, `--jobs 2`", ["--jobs", "2"]),
    ]
    if exact:
        variants.append(
            ("amrcheck compat, `--exact`", ["--compat", "smatch-1.0.4", "--exact"])
        )
    for label, options in variants:
        tsv = work / f"{slug}.{len(rows)}.tsv"
        command = [amrcheck, "score", str(ref), str(cand), *options]
        seconds, rss = _median_run(
            [*command, "--per-pair", str(tsv), "-q"], work / "stdout.txt", runs
        )
        f1s = _tsv_f1s(tsv)
        assert len(f1s) == count
        rate = count / seconds
        rows.append(
            f"| {name} | {label} | {rate:,.0f} | {rate / base:.1f}× "
            f"| {statistics.fmean(f1s):.4f} "
            f"| {_tsv_optimal(tsv):.1%} | {rss:.0f} MiB |"
        )
        print(rows[-1], flush=True)
    return rows


def _warm_up() -> None:
    """Get the compiled search ready on this machine, untimed: the first run
    on a machine compiles it into numba's cache (seconds, once) and marks
    it ready; until then runs use the plain search. Timed runs measure the
    later ones."""
    subprocess.run([sys.executable, "-m", "amrcheck.metrics._search_cache"], check=True)


def by_size(cand: Path, ref: Path, sample: int) -> list[str]:
    """In-process seconds per pair, by total triple count, both tools."""
    import smatch  # type: ignore[import-not-found]

    from amrcheck.metrics import expect_pairs
    from amrcheck.metrics.smatch import Smatch
    from amrcheck.reading.corpus import decode, read_corpus

    texts_c = [e.graph.text for e in read_corpus(cand)][:sample]
    texts_r = [e.graph.text for e in read_corpus(ref)][:sample]
    metric = Smatch(compat="smatch-1.0.4")
    # the compiled search, which large runs use (small ones start plain)
    expect_pairs(metric, 10**6)
    smatch.iteration_num = 5  # -r 4
    timings: dict[tuple[int, int], list[list[float]]] = {b: [[], []] for b in BUCKETS}
    for text_c, text_r in zip(texts_c, texts_r, strict=True):
        one_c, one_r = " ".join(text_c.split()), " ".join(text_r.split())
        start = time.perf_counter()
        score = metric.score(decode(text_c), decode(text_r))
        ours = time.perf_counter() - start
        start = time.perf_counter()
        smatch.get_amr_match(one_c, one_r)
        smatch.match_triple_dict.clear()
        theirs = time.perf_counter() - start
        size = score.counts["candidate"] + score.counts["reference"]
        bucket = next(b for b in BUCKETS if b[0] <= size <= b[1])
        timings[bucket][0].append(ours)
        timings[bucket][1].append(theirs)
    rows = []
    for (low, high), (ours, theirs) in timings.items():
        if not ours:
            continue
        a, b = statistics.fmean(ours) * 1e3, statistics.fmean(theirs) * 1e3
        label = f"{low}–{high}" if high < 10_000 else f"> {low - 1}"
        rows.append(
            f"| {label} | {len(ours)} | {a:.2f} ms | {b:.2f} ms | {b / a:.1f}× |"
        )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--sample", type=int, default=3000, help="pairs for the size table"
    )
    parser.add_argument(
        "--runs", type=int, default=3, help="whole-process runs (median)"
    )
    parser.add_argument(
        "--pairs",
        type=int,
        nargs="+",
        default=[10_000, 20_000],
        help="sizes of the unrelated workload",
    )
    parser.add_argument(
        "--exact", action="store_true", help="also time --exact (slow)"
    )
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="bench-smatch-"))
    _warm_up()
    print(
        "| workload | tool | pairs/s | vs smatch 1.0.4 | mean F1 "
        "| proven optimal | peak RSS |"
    )
    print("|---|---|---|---|---|---|---|")
    workloads = [(f"unrelated {n // 1000}k", unrelated(n)) for n in args.pairs]
    workloads.append(("BAMBOO sts/main", bamboo_sts_main()))
    rows = []
    for name, (cand, ref) in workloads:
        rows += whole_process(name, cand, ref, work, args.runs, args.exact)
    print("\n".join(rows))
    print("\n| total triples (both graphs) | pairs | amrcheck | smatch 1.0.4 | ratio |")
    print("|---|---|---|---|---|")
    print("\n".join(by_size(*unrelated(), args.sample)))


if __name__ == "__main__":
    main()
