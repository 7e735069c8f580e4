"""Checking a metric against the principles of Opitz et al. (2020), SPEC §4 I–IV.

Layer: engine (benchmarks). On the graphs of a corpus:

* **I range**: every score (F1, and precision/recall where defined) of
  every pair below is in [0, 1];
* **II identity**: every graph scores exactly 1.0 against itself;
* **III symmetry**: ``score(a, b).f1 == score(b, a).f1`` for neighbouring
  graphs (graph *i* against graph *i + 1*);
* **IV determinism**: the same pairs scored again give bit-identical
  F1s — with a fresh metric object in this process, in worker processes
  (``jobs``), and in a new interpreter with another ``PYTHONHASHSEED``.

Violations are listed (first few, with graph labels and values). Also
:func:`time_pairs`: seconds per pair against graph size, for runtime
charts.

Example:
    >>> from amrcheck.reading.corpus import read_string
    >>> corpus = read_string("(a / b :ARG0 (c / d))\\n\\n(a / b :ARG1 (c / d))\\n")
    >>> checks = check_principles(corpus, "rematch", processes=False)
    >>> [(c.code, c.holds) for c in checks]
    [('I', True), ('II', True), ('III', True), ('IV', True)]
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import AmrError
from ..execution import Progress, run_map
from ..graph import Graph
from ..metrics import Score, get_metric
from ..reading.corpus import Corpus, read_corpus

#: how many violations a check lists
SHOWN = 5


@dataclass(slots=True)
class PrincipleCheck:
    """One principle: whether it holds on the checked pairs, and where not."""

    code: str
    name: str
    holds: bool
    checked: int
    violations: list[str] = field(default_factory=list)
    note: str = ""


class _Scorer:
    """Picklable ``(i, j) -> Score`` over the graphs of one corpus."""

    def __init__(self, name: str, options: dict[str, Any], graphs: list[Graph]) -> None:
        self.name = name
        self.options = options
        self.graphs = graphs
        self.metric = get_metric(name, **options)

    def __call__(self, pair: tuple[int, int]) -> Score:
        i, j = pair
        return self.metric.score(self.graphs[i], self.graphs[j])


def _in_subprocess(
    name: str, options: dict[str, Any], path: str, pairs: list[tuple[int, int]]
) -> list[float]:
    """F1s of ``pairs`` computed by a new interpreter with another hash seed."""
    request = json.dumps(
        {"metric": name, "options": options, "path": path, "pairs": pairs}
    )
    code = "from amrcheck.benchmarks.principles import _worker; _worker()"
    env = dict(os.environ, PYTHONHASHSEED="4242")
    done = subprocess.run(
        [sys.executable, "-c", code],
        input=request,
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    if done.returncode != 0:
        raise AmrError(f"determinism check: the worker process failed: {done.stderr}")
    values: list[float] = json.loads(done.stdout)
    return values


def _worker() -> None:
    """Entry of :func:`_in_subprocess`: read a request on stdin, print F1s."""
    request = json.load(sys.stdin)
    graphs = _graphs(read_corpus(request["path"]))[1]
    scorer = _Scorer(request["metric"], request["options"], graphs)
    json.dump([scorer((i, j)).f1 for i, j in request["pairs"]], sys.stdout)


def _graphs(corpus: Corpus) -> tuple[list[str], list[Graph]]:
    kept = [entry for entry in corpus if entry.graph is not None]
    return [e.label for e in kept], [e.graph for e in kept if e.graph is not None]


def _values(score: Score) -> list[float]:
    return [v for v in (score.f1, score.precision, score.recall) if v is not None]


def check_principles(
    corpus: Corpus,
    name: str,
    options: dict[str, Any] | None = None,
    neighbours: int = 200,
    jobs: int = 2,
    processes: bool = True,
    progress: Progress | None = None,
) -> list[PrincipleCheck]:
    """Check principles I–IV for metric ``name`` on the graphs of ``corpus``.

    Args:
        options: the metric's options.
        neighbours: how many (i, i + 1) graph pairs to score both ways.
        jobs: worker processes for the determinism check.
        processes: also check determinism across processes (workers and a
            new interpreter with another hash seed; needs ``corpus`` on disk).
        progress: called with the number of pairs scored.
    """
    options = dict(options or {})
    labels, graphs = _graphs(corpus)
    scorer = _Scorer(name, options, graphs)
    selves = [(i, i) for i in range(len(graphs))]
    forward = [(i, i + 1) for i in range(min(neighbours, len(graphs) - 1))]
    backward = [(j, i) for i, j in forward]
    pairs = selves + forward + backward
    scores = run_map(scorer, pairs, jobs=1, progress=progress)
    by_pair = dict(zip(pairs, scores, strict=True))

    def label(pair: tuple[int, int]) -> str:
        i, j = pair
        return labels[i] if i == j else f"{labels[i]} vs {labels[j]}"

    out_of_range = [
        f"{label(p)}: {v!r}"
        for p, s in by_pair.items()
        for v in _values(s)
        if not 0.0 <= v <= 1.0
    ]
    not_one = [f"{label(p)}: {by_pair[p].f1!r}" for p in selves if by_pair[p].f1 != 1.0]
    asymmetric = [
        f"{label(p)}: {by_pair[p].f1!r} but {by_pair[(p[1], p[0])].f1!r} the other way"
        for p in forward
        if abs(by_pair[p].f1 - by_pair[(p[1], p[0])].f1) > 1e-12
    ]
    reference = [s.f1 for s in scores]
    runs = {
        "a fresh metric object": [
            s.f1 for s in map(_Scorer(name, options, graphs), pairs)
        ]
    }
    notes = ["in-process"]
    if processes and len(pairs) > 1:
        parallel = run_map(
            scorer, pairs, jobs=max(2, jobs), chunk_size=max(1, len(pairs) // 4)
        )
        runs[f"{max(2, jobs)} worker processes"] = [s.f1 for s in parallel]
        if Path(corpus.path).is_file():  # a new interpreter reads it again
            runs["a new interpreter (PYTHONHASHSEED=4242)"] = _in_subprocess(
                name, options, corpus.path, pairs
            )
        notes = list(runs)
    unstable = [
        f"{label(p)}: {a!r} here, {b!r} in {where}"
        for where, values in runs.items()
        for p, a, b in zip(pairs, reference, values, strict=True)
        if a != b
    ]
    return [
        PrincipleCheck(
            "I", "range [0, 1]", not out_of_range, len(pairs), out_of_range[:SHOWN]
        ),
        PrincipleCheck(
            "II", "self-score = 1", not not_one, len(selves), not_one[:SHOWN]
        ),
        PrincipleCheck(
            "III", "symmetry", not asymmetric, len(forward), asymmetric[:SHOWN]
        ),
        PrincipleCheck(
            "IV",
            "determinism",
            not unstable,
            len(pairs),
            unstable[:SHOWN],
            "compared with " + ", ".join(notes),
        ),
    ]


@dataclass(frozen=True, slots=True)
class Timing:
    """One scored pair: its size (triples of both graphs) and the seconds it took."""

    label: str
    size: int
    seconds: float


class _Timer:
    def __init__(self, scorer: _Scorer) -> None:
        self.scorer = scorer

    def __call__(self, pair: tuple[int, int]) -> float:
        start = time.perf_counter()
        self.scorer(pair)
        return time.perf_counter() - start


def time_pairs(
    corpus: Corpus,
    name: str,
    options: dict[str, Any] | None = None,
    progress: Progress | None = None,
) -> list[Timing]:
    """Seconds to score each graph against the next one (serially, in this process)."""
    labels, graphs = _graphs(corpus)
    pairs: Sequence[tuple[int, int]] = [(i, i + 1) for i in range(len(graphs) - 1)]
    seconds = run_map(
        _Timer(_Scorer(name, dict(options or {}), graphs)), pairs, progress=progress
    )
    return [
        Timing(
            f"{labels[i]} vs {labels[j]}",
            len(graphs[i].triples) + len(graphs[j].triples),
            s,
        )
        for (i, j), s in zip(pairs, seconds, strict=True)
    ]
