"""The compiled alignment core against independent oracles.

The problem builder against a plain-Python reading of smatch's weights,
the assignment bound against scipy's ``linear_sum_assignment``, and the
search's determinism across processes.
"""

from __future__ import annotations

import random
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from scipy.optimize import linear_sum_assignment

from amrcheck.corpus import read_corpus
from amrcheck.metrics import _search
from amrcheck.metrics.smatch import LabelIds, Smatch, alignment_problem
from amrcheck.standardize import StandardGraph

from ..conftest import SHARED_DATA

LITTLE_PRINCE = SHARED_DATA / "little_prince" / "amr-bank-struct-v3.0.txt"


def _oracle_label_bound(
    candidate: StandardGraph, reference: StandardGraph
) -> int | None:
    """Matches if only labels had to agree (None: product counting, duplicates)."""
    product = candidate.options.counting == "product"
    duplicates = any(
        len(set(items)) < len(items)
        for graph in (candidate, reference)
        for items in (graph.instances, graph.attributes, graph.relations)
    )
    if product and duplicates:
        return None
    labels = [
        ([c for _, c in g.instances], [(r, v) for _, r, v in g.attributes],
         [r for _, r, _ in g.relations])
        for g in (candidate, reference)
    ]
    return sum(
        sum((Counter(ours) & Counter(theirs)).values())
        for ours, theirs in zip(*labels, strict=True)
    )


def _oracle_weights(
    candidate: StandardGraph, reference: StandardGraph
) -> tuple[dict[int, int], dict[tuple[int, int], int], int | None]:
    """smatch's weights, written plainly: (unary, pairwise, label bound)."""
    product = candidate.options.counting == "product"
    n2 = len(reference.variables)

    def combine(a: int, b: int) -> int:
        return a * b if product else min(a, b)

    unary: Counter[int] = Counter()
    pairwise: Counter[tuple[int, int]] = Counter()
    labelled = [
        [(n, c) for n, c in g.instances] + [(n, (r, v)) for n, r, v in g.attributes]
        for g in (candidate, reference)
    ]
    ours, theirs = Counter(labelled[0]), Counter(labelled[1])
    for (i, label), count in ours.items():
        for (j, other_label), other in theirs.items():
            if label == other_label:
                unary[i * n2 + j] += combine(count, other)
    theirs_rel = Counter(reference.relations)
    for (i, role, k), count in Counter(candidate.relations).items():
        for (j, other_role, t), other in theirs_rel.items():
            if role != other_role:
                continue
            if i == k and j == t:
                unary[i * n2 + j] += combine(count, other)
            elif i != k and j != t:
                p, q = i * n2 + j, k * n2 + t
                pairwise[p, q] += combine(count, other)
                pairwise[q, p] += combine(count, other)
    return dict(unary), dict(pairwise), _oracle_label_bound(candidate, reference)


def _pairs(metric: Smatch, count: int) -> Iterator[tuple[StandardGraph, StandardGraph]]:
    graphs = [e.graph for e in read_corpus(LITTLE_PRINCE) if e.graph is not None]
    rng = random.Random(1)
    for _ in range(count):
        a, b = rng.sample(graphs, 2)
        yield metric.standardize(a), metric.standardize(b)
    # a graph with itself (every triple matches) and a graph with duplicates
    yield metric.standardize(graphs[0]), metric.standardize(graphs[0])


@pytest.mark.parametrize(
    "options", [{}, {"compat": "smatch-1.0.4"}, {"root": "concept", "compat": "raw"}]
)
def test_builder_gives_the_weights_a_plain_reading_gives(
    options: dict[str, str],
) -> None:
    metric = Smatch(**options)
    ids = LabelIds()
    for candidate, reference in _pairs(metric, 150):
        problem, bound = alignment_problem(candidate, reference, ids)
        unary, pairwise, expected_bound = _oracle_weights(candidate, reference)
        dense = np.zeros(problem.n1 * problem.n2)
        for p, w in unary.items():
            dense[p] = w
        assert (problem.unary == dense).all()
        got = {
            (p, q): w
            for p in range(problem.n1 * problem.n2)
            for q, w in zip(
                problem.partners[problem.row_start[p] : problem.row_start[p + 1]],
                problem.weights[problem.row_start[p] : problem.row_start[p + 1]],
                strict=True,
            )
        }
        assert got == pairwise
        assert bound == expected_bound


def test_builder_counts_duplicates_as_smatch_104_does() -> None:
    from amrcheck.corpus import decode

    metric = Smatch(compat="smatch-1.0.4")
    twice = metric.standardize(decode("(a / b :ARG0 (c / d) :ARG0 c)"))
    once = metric.standardize(decode("(a / b :ARG0 (c / d))"))
    problem, bound = alignment_problem(twice, twice)
    assert bound is None  # product counting with a duplicate: no label bound
    # the doubled relation earns 2 x 2 between (a->a) and (c->c)
    assert problem.weights.max() == 4
    problem, bound = alignment_problem(twice, once)
    assert problem.weights.max() == 2 and bound is None


@pytest.mark.parametrize("seed", range(40))
def test_assignment_bound_is_the_optimal_assignment(seed: int) -> None:
    rng = np.random.default_rng(seed)
    n1, n2 = rng.integers(1, 8, size=2)
    stars = rng.integers(0, 4, size=n1 * n2).astype(float) / 2
    bound, mapping = _search.assignment_bound(n1, n2, stars, False)
    matrix = stars.reshape(n1, n2)
    rows, cols = linear_sum_assignment(matrix, maximize=True)
    assert bound == pytest.approx(matrix[rows, cols].sum(), abs=1e-12)
    taken = [j for j in mapping if j >= 0]
    assert len(taken) == len(set(taken))
    assert sum(matrix[i, j] for i, j in enumerate(mapping) if j >= 0) == bound
    integral, _ = _search.assignment_bound(n1, n2, stars, True)
    assert integral == np.floor(bound + 1e-9)


def test_the_same_pair_scores_the_same_in_another_process() -> None:
    metric = Smatch(compat="smatch-1.0.4", restarts=6, seed=7)
    pairs = list(_pairs(metric, 40))
    here = [metric.score_standard(a, b).counts["matched"] for a, b in pairs]
    script = (
        "import random, sys\n"
        "from amrcheck.corpus import read_corpus\n"
        "from amrcheck.metrics.smatch import Smatch\n"
        f"graphs = [e.graph for e in read_corpus({str(LITTLE_PRINCE)!r}) if e.graph]\n"
        "rng = random.Random(1)\n"
        "m = Smatch(compat='smatch-1.0.4', restarts=6, seed=7)\n"
        "pairs = [rng.sample(graphs, 2) for _ in range(40)] + [[graphs[0]] * 2]\n"
        "print(' '.join(str(m.score(a, b).counts['matched']) for a, b in pairs))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True,
        cwd=Path(__file__).parent,
    )
    assert done.stdout.split() == [str(x) for x in here]


def test_a_slow_first_load_says_it_is_compiling(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import time

    from amrcheck.metrics import _align

    def slow_build(*args: object) -> object:
        time.sleep(0.5)  # as numba compiling on a machine's first run
        return None

    monkeypatch.setattr(_align, "_loaded", False)
    monkeypatch.setattr(_align, "_COMPILING_AFTER", 0.05)
    monkeypatch.setattr(_search, "build_triple_problem", slow_build)
    _align._compiled()
    assert "compiling the alignment search" in capsys.readouterr().err
    monkeypatch.setattr(_align, "_loaded", False)
    monkeypatch.setattr(_align, "_COMPILING_AFTER", 5.0)
    _align._compiled()  # loads well within the limit: no notice
    assert capsys.readouterr().err == "" and _align._loaded
