"""Bench (not a test): the alignment search alone, three ways, on smatch's problems.

The problems of ``--pairs`` unrelated pairs (``bench/workloads.py``), strict
and ``--compat smatch-1.0.4``, encoded as smatch encodes them; then, in
fresh processes of the compiled install ``--site`` (``bench_compiled_core.py``
builds it), the time to build each problem and search it
(``_search.build_triple_problem`` then ``_search.search``, no deadline):

* **compiled**: mypyc's build of ``_search.py`` over packed vectors;
* **interpreted**: the same ``.py`` over lists (``AMRCHECK_PURE_PYTHON=1``);
* **numba**: :func:`._search.compiled` over numpy arrays, its load (from
  numba's cache, prepared first) timed apart.

Every way must give the same mapping, value, bound and proof for every
problem. CPU seconds (``time.process_time``), median of ``--runs``.

    python bench/bench_compiled_search.py [--pairs 1000] [--runs 3]
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "bench"))
from workloads import unrelated  # noqa: E402

#: encodes the problems (run with the install's pure sources)
_ENCODE = r"""
import pickle, sys
from amrcheck.metrics import get_metric
from amrcheck.metrics.smatch import Numbering
from amrcheck.reading.corpus import read_corpus
cand, ref, out = sys.argv[1:4]
graphs = [(a.graph, b.graph) for a, b in zip(read_corpus(cand), read_corpus(ref))]
problems = []
for options in ({}, {"compat": "smatch-1.0.4"}):
    metric = get_metric("smatch", **options)
    product = "compat" in options
    for a, b in graphs:
        a, b = metric.standardize(a), metric.standardize(b)
        encoded = metric._ids.encode(a, b, Numbering.of(a, b))
        problems.append((encoded, product))
pickle.dump(problems, open(out, "wb"))
"""

#: times one way; prints JSON (seconds, load seconds, results digest)
_TIME = r"""
import hashlib, json, math, pickle, sys, time
way, path = sys.argv[1:3]
problems = pickle.load(open(path, "rb"))
from amrcheck.metrics import _search
load = 0.0
if way == "numba":
    import numpy as np
    start = time.process_time()
    kernels = _search.compiled()
    kernels["search"](1, 1, *kernels["build_triple_problem"](
        np.array([1, 1, 1, 0, 0, 1, 0, 0, 0, 7, 0, 7], dtype=np.int64), True)[:4],
        True, 4, 0, 1.0, math.inf)
    load = time.process_time() - start
    encode = lambda values: np.array(values, dtype=np.int64)
else:
    assert _search.PACKED == (way == "compiled"), _search.__file__
    kernels, encode = vars(_search), _search.as_ints
build, search = kernels["build_triple_problem"], kernels["search"]
inputs = [(encode(e), p) for e, p in problems]
digest = hashlib.sha256()
start = time.process_time()
for (data, product), (encoded, _) in zip(inputs, problems):
    unary, row_start, partners, weights, bound = build(data, product)
    found = search(encoded[0], encoded[1], unary, row_start, partners, weights,
                   True, 4, 0, math.inf if bound < 0 else bound, math.inf)
    digest.update(repr(([int(j) for j in found[0]], float(found[1]),
                        float(found[2]), int(found[3]))).encode())
seconds = time.process_time() - start
print(json.dumps({"seconds": seconds, "load": load, "digest": digest.hexdigest()}))
"""


def _run(site: Path, code: str, *args: str, pure: bool) -> str:
    env = {k: v for k, v in os.environ.items() if k != "AMRCHECK_PURE_PYTHON"}
    env["PYTHONPATH"] = str(site)
    if pure:
        env["AMRCHECK_PURE_PYTHON"] = "1"
    done = subprocess.run(
        [sys.executable, "-c", code, *args],
        capture_output=True, text=True, env=env, cwd="/tmp", check=False,
    )
    if done.returncode:
        raise SystemExit(done.stderr)
    return done.stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument(
        "--site", type=Path, default=Path("/tmp/amrcheck-bench/compiled-site")
    )
    args = parser.parse_args()
    cand, ref = unrelated(args.pairs)
    with tempfile.TemporaryDirectory() as folder:
        path = str(Path(folder, "problems.pickle"))
        _run(args.site, _ENCODE, str(cand), str(ref), path, pure=True)
        with open(path, "rb") as handle:
            count = len(pickle.load(handle))
        # numba's search from its cache, as large work of a pure install has it
        _run(args.site, "import amrcheck.metrics._search_cache as c; c._prepare()",
             pure=True)
        ways = {"compiled": False, "interpreted": True, "numba": True}
        found: dict[str, list[dict[str, float | str]]] = {way: [] for way in ways}
        for _ in range(args.runs):
            for way, pure in ways.items():
                out = _run(args.site, _TIME, way, path, pure=pure)
                found[way].append(json.loads(out))
    digests = {row["digest"] for rows in found.values() for row in rows}
    assert len(digests) == 1, "the three ways differ"
    print(f"{count:,} problems ({args.pairs:,} unrelated pairs, strict and compat); "
          "every way the same results")
    print("| search | CPU s | µs per problem | load, CPU s |")
    print("|---|---|---|---|")
    for way, rows in found.items():
        seconds = statistics.median(float(row["seconds"]) for row in rows)
        load = statistics.median(float(row["load"]) for row in rows)
        loading = f"{load:.2f}" if load else "–"
        print(f"| {way} | {seconds:.3f} | {seconds / count * 1e6:.0f} | {loading} |")


if __name__ == "__main__":
    main()
