"""What smatch's canonical node numbering costs (issue 24).

    python bench/workloads.py --pairs 10000
    python bench/bench_canonical.py [--pairs 10000] [--metric smatch]

Scores the unrelated pairs of ``bench/workloads.py`` in this process and
times, with process CPU time, the whole scoring and the part spent in
``Numbering.of`` (both graphs of a pair numbered canonically before the
search). Times a process's CPU, so other jobs on the machine inflate it
less than wall clock.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from workloads import DEFAULT_OUT

from amrcheck.metrics import get_metric
from amrcheck.metrics import smatch as smatch_module
from amrcheck.reading.corpus import read_corpus


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pairs", type=int, default=10_000)
    parser.add_argument("--metric", default="smatch", choices=("smatch", "s2match"))
    args = parser.parse_args()
    stem = DEFAULT_OUT / f"unrelated{args.pairs}"
    refs = [e.graph for e in read_corpus(f"{stem}.ref.amr")]
    cands = [e.graph for e in read_corpus(f"{stem}.cand.amr")]
    pairs = [(c, r) for c, r in zip(cands, refs, strict=True) if c and r]
    metric = get_metric(args.metric)
    for cand, ref in pairs[:1_500]:  # past the switch to the compiled search
        metric.score(cand, ref)
    numbering = smatch_module.Numbering
    plain = numbering.of.__func__  # type: ignore[attr-defined]
    spent = 0.0

    def timed(cls: Any, candidate: Any, reference: Any) -> Any:
        nonlocal spent
        start = time.process_time()
        found = plain(cls, candidate, reference)
        spent += time.process_time() - start
        return found

    numbering.of = classmethod(timed)  # type: ignore[method-assign,assignment]
    start = time.process_time()
    for cand, ref in pairs:
        metric.score(cand, ref)
    total = time.process_time() - start
    print(
        f"{len(pairs)} unrelated pairs, {args.metric} in process: {total:.2f} s CPU, "
        f"canonical numbering {spent:.2f} s ({100 * spent / total:.1f} %)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
