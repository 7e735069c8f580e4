"""Alignment problems written by hand, for the search tests."""

from __future__ import annotations

import numpy as np

from amrcheck.metrics._align import AlignmentProblem


def problem_from_weights(
    n1: int,
    n2: int,
    unary: dict[int, float],
    pairwise: dict[int, dict[int, float]],
    integral: bool = True,
) -> AlignmentProblem:
    """A problem from ``unary[p]`` and symmetric ``pairwise[p][q]`` dicts."""
    dense = np.zeros(n1 * n2)
    for p, w in unary.items():
        dense[p] = w
    row_start = np.zeros(n1 * n2 + 1, dtype=np.int64)
    partners: list[int] = []
    weights: list[float] = []
    for p in range(n1 * n2):
        row = pairwise.get(p, {})
        for q in sorted(row):
            partners.append(q)
            weights.append(row[q])
        row_start[p + 1] = len(partners)
    problem = AlignmentProblem(
        n1,
        n2,
        dense,
        row_start,
        np.array(partners, dtype=np.int64),
        np.array(weights, dtype=np.float64),
        integral,
    )
    problem.check()
    return problem
