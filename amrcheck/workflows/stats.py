"""Significance for corpus scores: bootstrap confidence intervals and paired tests.

Layer: engine, generic over metrics: it needs only per-pair
:class:`~amrcheck.metrics.Score` objects and a way to aggregate them (by
default the metric's own ``aggregate``, so micro scores stay micro).
Resampling uses numpy's seeded generator: same inputs and seed, same
numbers, in any process.

* :func:`bootstrap_ci` — percentile bootstrap interval of the corpus F1
  (pairs resampled with replacement);
* :func:`paired_test` — two candidate files scored against one
  reference: the corpus-F1 difference, its paired-bootstrap interval and
  an approximate-randomisation p-value (each pair's two scores swapped
  with probability ½; two-sided, ``(hits + 1) / (trials + 1)``).

Example:
    >>> from amrcheck.metrics import Score
    >>> pairs = [Score(f1=0.0, counts={"matched": m, "candidate": 4, "reference": 4})
    ...          for m in (1, 2, 3, 4)]
    >>> ci = bootstrap_ci(pairs, resamples=200, seed=1)
    >>> ci.estimate, ci.low <= ci.estimate <= ci.high
    (0.625, True)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from ..metrics import Score, micro_prf

Aggregate = Callable[[Sequence[Score]], Score]


@dataclass(frozen=True, slots=True)
class Interval:
    """A corpus F1 and its bootstrap confidence interval."""

    estimate: float
    low: float
    high: float
    confidence: float
    resamples: int
    seed: int


@dataclass(frozen=True, slots=True)
class PairedComparison:
    """Corpus F1 of A minus that of B, with interval and p-value."""

    f1_a: float
    f1_b: float
    delta: float
    low: float
    high: float
    p_value: float
    confidence: float
    resamples: int
    seed: int


def _f1s(
    pairs: Sequence[Score], samples: np.ndarray, aggregate: Aggregate | None
) -> np.ndarray:
    """Corpus F1 of each row of ``samples`` (indices into ``pairs``)."""
    keys = ("matched", "candidate", "reference")
    if aggregate is None and all(k in p.counts for p in pairs for k in keys):
        # micro F1 from summed counts, vectorised: F1 = 2M / (|C| + |R|)
        counts = np.array([[p.counts[k] for k in keys] for p in pairs], dtype=float)
        sums = counts[samples].sum(axis=1)
        total = sums[:, 1] + sums[:, 2]
        valid = (sums[:, 1] > 0) & (sums[:, 2] > 0)
        return np.where(valid, 2 * sums[:, 0] / np.where(total > 0, total, 1), 0.0)
    combine = aggregate or micro_prf
    return np.array([combine([pairs[i] for i in row]).f1 for row in samples])


def bootstrap_ci(
    pairs: Sequence[Score],
    aggregate: Aggregate | None = None,
    resamples: int = 1000,
    confidence: float = 0.95,
    seed: int = 0,
) -> Interval:
    """Percentile bootstrap interval of the corpus F1.

    Args:
        pairs: per-pair scores of one metric.
        aggregate: the metric's ``aggregate``; default micro P/R/F1 from
            ``matched``/``candidate``/``reference`` counts.
        resamples: bootstrap samples.
        confidence: e.g. 0.95 for a 95% interval.
        seed: of the resampling.
    """
    if not pairs:
        raise ValueError("no pairs to resample")
    rng = np.random.default_rng(seed)
    count = len(pairs)
    samples = rng.integers(0, count, size=(resamples, count))
    values = _f1s(pairs, samples, aggregate)
    estimate = _f1s(pairs, np.arange(count)[None, :], aggregate)[0]
    tail = (1 - confidence) / 2
    low, high = np.quantile(values, [tail, 1 - tail])
    return Interval(
        float(estimate), float(low), float(high), confidence, resamples, seed
    )


def paired_test(
    pairs_a: Sequence[Score],
    pairs_b: Sequence[Score],
    aggregate: Aggregate | None = None,
    resamples: int = 1000,
    confidence: float = 0.95,
    seed: int = 0,
) -> PairedComparison:
    """Compare two candidates scored against the same reference, pair by pair.

    ``pairs_a[i]`` and ``pairs_b[i]`` must score the same reference graph.
    """
    if len(pairs_a) != len(pairs_b) or not pairs_a:
        raise ValueError("paired test needs two equally long, non-empty score lists")
    count = len(pairs_a)
    rng = np.random.default_rng(seed)
    everything = np.arange(count)[None, :]
    f1_a = float(_f1s(pairs_a, everything, aggregate)[0])
    f1_b = float(_f1s(pairs_b, everything, aggregate)[0])
    delta = f1_a - f1_b
    samples = rng.integers(0, count, size=(resamples, count))
    deltas = _f1s(pairs_a, samples, aggregate) - _f1s(pairs_b, samples, aggregate)
    tail = (1 - confidence) / 2
    low, high = np.quantile(deltas, [tail, 1 - tail])
    # approximate randomisation: under H0 the labels A/B of a pair are exchangeable
    both = list(pairs_a) + list(pairs_b)
    swap = rng.random((resamples, count)) < 0.5
    rows_a = np.where(swap, everything + count, everything)
    rows_b = np.where(swap, everything, everything + count)
    shuffled = _f1s(both, rows_a, aggregate) - _f1s(both, rows_b, aggregate)
    hits = int(np.sum(np.abs(shuffled) >= abs(delta) - 1e-12))
    p_value = (hits + 1) / (resamples + 1)
    return PairedComparison(
        f1_a, f1_b, delta, float(low), float(high), p_value, confidence, resamples, seed
    )
