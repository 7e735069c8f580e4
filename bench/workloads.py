"""Bench workloads (not tests): AMR pair files built from ../shared/data.

``unrelated`` pairs every graph of the shared corpora (BAMBOO dev tgt/src,
Little Prince, Bio AMR, guideline examples) with a graph from elsewhere in
the pool (a fixed shuffle, seed 0), so pairs share little — the worst case
for alignment metrics and a typical one for corpus-scale runs. ``bamboo``
is BAMBOO sts/main dev as shipped. Both are written as two PENMAN files
(candidate, reference) and reused if they exist.

    python bench/workloads.py [--pairs 10000] [--out /tmp/amrcheck-bench]
"""

from __future__ import annotations

import argparse
import random
import resource
import subprocess
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared" / "data"
DEFAULT_OUT = Path("/tmp/amrcheck-bench")


def _graph_texts() -> list[str]:
    from amrcheck.reading.corpus import read_corpus

    paths = sorted(SHARED.glob("bamboo/*/*/*.amr")) + [
        SHARED / "little_prince" / "amr-bank-struct-v3.0.txt",
        *sorted(SHARED.glob("bio_amr/*.txt")),
        SHARED / "amr_guidelines" / "guidelines_examples.amr",
    ]
    texts = []
    for path in paths:
        for entry in read_corpus(path):
            if entry.graph is not None:
                texts.append(entry.graph.text)
    return texts


def unrelated(pairs: int = 10_000, out: Path = DEFAULT_OUT) -> tuple[Path, Path]:
    """Two files of ``pairs`` unrelated graph pairs."""
    cand, ref = out / f"unrelated{pairs}.cand.amr", out / f"unrelated{pairs}.ref.amr"
    if cand.exists() and ref.exists():
        return cand, ref
    pool = _graph_texts()
    rng = random.Random(0)
    rng.shuffle(pool)
    # pair i: graphs i and i + offset of the shuffled pool, both taken round
    # the pool, so a graph is never paired with itself, at any size (up to
    # session 3 the partners were sliced, and any size above half the pool
    # paired graphs with themselves)
    size = len(pool)
    offset = pairs % size or size // 2
    picked = [pool[i % size] for i in range(pairs)]
    partners = [pool[(i + offset) % size] for i in range(pairs)]
    out.mkdir(parents=True, exist_ok=True)
    cand.write_text("".join(f"# ::id {i}\n{t}\n\n" for i, t in enumerate(picked)))
    ref.write_text("".join(f"# ::id {i}\n{t}\n\n" for i, t in enumerate(partners)))
    return cand, ref


def run_timed(command: list[str]) -> tuple[float, float, str]:
    """Wall seconds, CPU seconds (user + system) and stdout of a child process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=True, cwd=REPO)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, done.stdout


def bamboo_sts_main() -> tuple[Path, Path]:
    folder = SHARED / "bamboo" / "sts" / "main"
    return folder / "tgt.dev.amr", folder / "src.dev.amr"


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=10_000)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args()
    print(*unrelated(args.pairs, args.out))
