"""Bench (not a test): smatch on many pairs, --jobs 1 and 2 and a Dask cluster.

Each mode runs in a fresh interpreter (``--mode`` below) on the
``unrelated`` workload of ``bench/workloads.py`` and prints one JSON
line; the driver prints a Markdown table. Per mode: wall time of
``evaluate`` (reading, pairing, scoring, aggregation), pairs/s, the
peak RSS of the main process and of each worker process (psutil,
sampled every 0.2 s), and for the cluster: its start-up time and the
scheduler overhead, i.e. the wall time times the workers minus the time
the workers spent in tasks (Dask's task stream), per batch.

    python bench/bench_cluster.py --pairs 20000
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
MODES = ("jobs1", "jobs2", "local2")
#: what a cluster's client does per pair besides waiting: read, pair, pickle
FEED = "feed"


class PeakSampler:
    """Peak RSS of every descendant process, sampled in a thread."""

    def __init__(self) -> None:
        import psutil

        self.me = psutil.Process()
        self.peaks: dict[int, float] = {}
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self.stop.is_set():
            for child in self.me.children(recursive=True):
                try:
                    rss = child.memory_info().rss / 2**20
                except Exception:
                    continue
                self.peaks[child.pid] = max(self.peaks.get(child.pid, 0.0), rss)
            time.sleep(0.2)

    def __enter__(self) -> PeakSampler:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        self.thread.join()


def feed(pairs: int) -> dict[str, Any]:
    """The client's own work per pair on a cluster: reading and pairing the
    files into batches and pickling them, without scoring."""
    import pickle

    sys.path.insert(0, str(REPO / "bench"))
    from workloads import unrelated

    from amrcheck.pairing.streaming import PairStream
    from amrcheck.reading.corpus import CHUNK_BYTES
    from amrcheck.workflows.evaluate import CHUNK_PAIRS

    cand, ref = unrelated(pairs)
    began = time.perf_counter()
    shipped = 0
    stream = PairStream(ref, [cand], "auto", CHUNK_BYTES)
    for batch in stream.batches(CHUNK_PAIRS, False):
        shipped += len(pickle.dumps(batch, pickle.HIGHEST_PROTOCOL))
    wall = time.perf_counter() - began
    return {
        "mode": FEED,
        "pairs": pairs,
        "wall_s": wall,
        "pairs_per_s": pairs / wall,
        "bytes_per_pair": shipped / pairs,
    }


def one_mode(mode: str, pairs: int) -> dict[str, Any]:
    if mode == FEED:
        return feed(pairs)
    sys.path.insert(0, str(REPO / "bench"))
    from workloads import unrelated

    from amrcheck.execution import connect
    from amrcheck.metrics import get_metric
    from amrcheck.workflows.evaluate import evaluate

    cand, ref = unrelated(pairs)
    smatch = get_metric("smatch")
    report: dict[str, Any] = {"mode": mode, "pairs": pairs}
    with PeakSampler() as sampler:
        if mode == "local2":
            from distributed import get_task_stream

            started = time.perf_counter()
            with connect("local:2") as cluster:
                report["startup_s"] = time.perf_counter() - started
                began = time.perf_counter()
                with get_task_stream(cluster.client) as stream:
                    result = evaluate(ref, [cand], [smatch], jobs=cluster)
                wall = time.perf_counter() - began
                busy = sum(
                    part["stop"] - part["start"]
                    for task in stream.data
                    for part in task["startstops"]
                    if part["action"] == "compute"
                )
                batches = len(stream.data)
                report["overhead_ms_per_batch"] = (
                    (wall * cluster.workers - busy) / batches * 1000
                )
                report["batches"] = batches
                report["worker_peak_mib"] = sorted(
                    v / 2**20 for v in cluster.client.run(_own_peak_bytes).values()
                )
        else:
            began = time.perf_counter()
            result = evaluate(ref, [cand], [smatch], jobs=1 if mode == "jobs1" else 2)
            wall = time.perf_counter() - began
            report["worker_peak_mib"] = sorted(sampler.peaks.values())
    report["wall_s"] = wall
    report["pairs_per_s"] = pairs / wall
    report["main_peak_mib"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    report["f1"] = result.results[0].corpus.micro.f1
    return report


def _own_peak_bytes() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=20_000)
    parser.add_argument("--mode", choices=(*MODES, FEED))
    parser.add_argument("--modes", default=",".join(MODES))
    args = parser.parse_args()
    if args.mode:
        print(json.dumps(one_mode(args.mode, args.pairs)))
        return
    rows = []
    for mode in args.modes.split(","):
        done = subprocess.run(
            [sys.executable, __file__, "--mode", mode, "--pairs", str(args.pairs)],
            capture_output=True,
            text=True,
            check=True,
            cwd=REPO,
            env={**os.environ, "PYTHONPATH": str(REPO)},
        )
        rows.append(json.loads(done.stdout.strip().splitlines()[-1]))
        print(json.dumps(rows[-1]), flush=True)
    print(
        "| mode | pairs | wall s | pairs/s | main peak | worker peaks | "
        "cluster start s | overhead ms/batch | F1 |"
    )
    for r in rows:
        workers = ", ".join(f"{w:.0f}" for w in r["worker_peak_mib"]) or "-"
        print(
            f"| {r['mode']} | {r['pairs']} | {r['wall_s']:.1f} | "
            f"{r['pairs_per_s']:.0f} | {r['main_peak_mib']:.0f} MiB | "
            f"{workers} MiB | {r.get('startup_s', 0):.1f} | "
            f"{r.get('overhead_ms_per_batch', 0):.1f} | {r['f1']:.4f} |"
        )


if __name__ == "__main__":
    main()
