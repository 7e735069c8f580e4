"""The compiled alignment core against independent oracles.

The problem builder against a plain-Python reading of smatch's weights,
the assignment bound against scipy's ``linear_sum_assignment``, and the
search's determinism across processes.
"""

from __future__ import annotations

import math
import random
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from scipy.optimize import linear_sum_assignment

from amrcheck.metrics import _search, _search_cache
from amrcheck.metrics._align import AlignmentProblem
from amrcheck.metrics._encoding import encode_pair
from amrcheck.metrics.smatch import LabelIds, Numbering, Smatch, alignment_problem
from amrcheck.reading.corpus import read_corpus
from amrcheck.standardize import StandardGraph

from ..conftest import SHARED_DATA
from .problems import problem_from_weights

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
        # in the graphs' own node numbers, as the oracle reads them
        own = Numbering(
            list(range(len(candidate.variables))), list(range(len(reference.variables)))
        )
        problem, bound = alignment_problem(candidate, reference, ids, own)
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
    from amrcheck.reading.corpus import decode

    metric = Smatch(compat="smatch-1.0.4")
    twice = metric.standardize(decode("(a / b :ARG0 (c / d) :ARG0 c)"))
    once = metric.standardize(decode("(a / b :ARG0 (c / d))"))
    problem, bound = alignment_problem(twice, twice)
    assert bound is None  # product counting with a duplicate: no label bound
    # the doubled relation earns 2 x 2 between (a->a) and (c->c)
    assert problem.weights.max() == 4
    problem, bound = alignment_problem(twice, once)
    assert problem.weights.max() == 2 and bound is None


@pytest.fixture(scope="module")
def compiled() -> dict[str, Any]:
    return _search.compiled()


@pytest.mark.parametrize("seed", range(40))
def test_assignment_bound_is_the_optimal_assignment(
    seed: int, compiled: dict[str, Any]
) -> None:
    rng = np.random.default_rng(seed)
    n1, n2 = (int(n) for n in rng.integers(1, 8, size=2))
    stars = rng.integers(0, 4, size=n1 * n2).astype(float) / 2
    matrix = stars.reshape(n1, n2)
    rows, cols = linear_sum_assignment(matrix, maximize=True)
    plain = _search.assignment_bound(n1, n2, stars.tolist(), False, math.inf, [0])
    bound, mapping = compiled["assignment_bound"](
        n1, n2, stars, False, math.inf, np.zeros(1, dtype=np.int64)
    )
    assert (bound, list(mapping)) == plain
    assert bound == pytest.approx(matrix[rows, cols].sum(), abs=1e-12)
    taken = [j for j in mapping if j >= 0]
    assert len(taken) == len(set(taken))
    assert sum(matrix[i, j] for i, j in enumerate(mapping) if j >= 0) == bound
    integral, _ = _search.assignment_bound(
        n1, n2, stars.tolist(), True, math.inf, [0]
    )
    assert integral == np.floor(bound + 1e-9)


def _both_ways(problem: AlignmentProblem, seed: int) -> tuple[Any, Any]:
    """(plain, compiled) ``search`` results on one problem, as lists."""
    arrays = (problem.unary, problem.row_start, problem.partners, problem.weights)
    args = (problem.n1, problem.n2)
    tail = (problem.integral, 4, seed, math.inf, math.inf)
    plain = _search.search(*args, *(a.tolist() for a in arrays), *tail)
    compiled = _search.compiled()["search"](*args, *arrays, *tail)
    return plain, (list(compiled[0]), *compiled[1:])


@pytest.mark.slow
@pytest.mark.parametrize("options", [{}, {"compat": "smatch-1.0.4"}])
def test_plain_and_compiled_search_give_the_same_results(
    options: dict[str, str], compiled: dict[str, Any]
) -> None:
    """The plain search (small jobs) and the compiled one (large jobs) must
    agree exactly, or a pair's score would depend on the size of the run."""
    metric = Smatch(**options)
    ids = LabelIds()
    for n, (candidate, reference) in enumerate(_pairs(metric, 250)):
        numbering = Numbering.of(candidate, reference)
        encoded = encode_pair(
            candidate, reference, numbering.candidate, numbering.reference, ids
        )
        built = compiled["build_triple_problem"](np.array(encoded), True)
        plain_built = _search.build_triple_problem(encoded, True)
        assert [list(x) for x in built[:4]] == [list(x) for x in plain_built[:4]]
        assert built[4] == plain_built[4]
        problem, _ = alignment_problem(candidate, reference, ids)
        plain, fast = _both_ways(problem, seed=n)
        assert plain == fast


@pytest.mark.parametrize("seed", range(60))
def test_plain_and_compiled_agree_on_graded_weights(seed: int) -> None:
    rng = random.Random(seed)
    n1, n2 = rng.randint(1, 9), rng.randint(1, 9)
    unary = {p: rng.random() for p in range(n1 * n2) if rng.random() < 0.3}
    pairwise: dict[int, dict[int, float]] = {}
    for p in range(n1 * n2):
        for q in range(p + 1, n1 * n2):
            if p // n2 != q // n2 and p % n2 != q % n2 and rng.random() < 0.2:
                pairwise.setdefault(p, {})[q] = pairwise.setdefault(q, {})[p] = 1.0
    problem = problem_from_weights(n1, n2, unary, pairwise, integral=False)
    plain, fast = _both_ways(problem, seed)
    assert plain == fast


def test_the_same_pair_scores_the_same_in_another_process() -> None:
    metric = Smatch(compat="smatch-1.0.4", restarts=6, seed=7)
    pairs = list(_pairs(metric, 40))
    here = [metric.score_standard(a, b).counts["matched"] for a, b in pairs]
    script = (
        "import random, sys\n"
        "from amrcheck.reading.corpus import read_corpus\n"
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


def test_compiling_says_so_and_loading_what_is_cached_says_nothing(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import time

    from amrcheck.metrics import _align

    def slow_compiled() -> dict[str, Any]:
        time.sleep(1.5)  # as a busy machine, or numba compiling
        return compiled_namespace

    compiled_namespace = _search.compiled()
    monkeypatch.setattr(_search, "compiled", slow_compiled)
    monkeypatch.setattr(_align, "_compiled", None)
    monkeypatch.setattr(_search_cache, "ready", lambda: False)
    _align.use_compiled(wait=True)  # nothing cached: numba compiles
    assert "compiling the alignment search" in capsys.readouterr().err
    monkeypatch.setattr(_align, "_compiled", None)
    monkeypatch.setattr(_search_cache, "ready", lambda: True)
    _align.use_compiled(wait=True)  # a slow load of the cached code: no notice
    assert capsys.readouterr().err == "" and _align._compiled is compiled_namespace


def test_a_process_switches_to_the_compiled_search_after_many_alignments(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from amrcheck.metrics import _align

    monkeypatch.setattr(_search_cache, "ready", lambda: True)
    monkeypatch.setattr(_align, "_compiled", None)
    monkeypatch.setattr(_align, "_declined", False)
    monkeypatch.setattr(_align, "_plain_alignments", 0)
    monkeypatch.setattr(_align, "SWITCH_AFTER", 3)
    metric = Smatch()
    pairs = list(_pairs(metric, 5))
    scores = [metric.score_standard(a, b).counts["matched"] for a, b in pairs[:3]]
    assert _align._compiled is None and _align._plain_alignments == 3
    scores += [metric.score_standard(a, b).counts["matched"] for a, b in pairs[3:]]
    assert _align._compiled is not None
    monkeypatch.setattr(_align, "_compiled", None)
    monkeypatch.setattr(_align, "_plain_alignments", 0)
    monkeypatch.setattr(_align, "SWITCH_AFTER", 10**6)
    assert [metric.score_standard(a, b).counts["matched"] for a, b in pairs] == scores


def test_large_work_loads_the_compiled_search_at_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from amrcheck.metrics import _align, expect_pairs, get_metric

    monkeypatch.setattr(_search_cache, "ready", lambda: True)
    monkeypatch.setattr(_align, "_compiled", None)
    monkeypatch.setattr(_align, "_declined", False)
    expect_pairs(get_metric("smatch"), 10)
    assert _align._compiled is None
    expect_pairs(get_metric("rematch"), 10**6)  # no alignment: nothing to load
    assert _align._compiled is None
    expect_pairs(get_metric("smatch"), _align.SWITCH_AFTER)
    assert _align._compiled is not None
