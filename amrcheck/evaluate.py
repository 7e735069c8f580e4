"""Scoring candidate files against a reference: the engine behind ``amrcheck score``.

Layer: engine, above pairing, the metrics and :mod:`amrcheck.stats`.
One reference, one or more candidate files, one or more metrics:

* every candidate is paired with the reference
  (:func:`amrcheck.pairing.pair_graphs`); a graph without a counterpart
  is an error that lists every such graph with its place — files are
  never truncated silently — while pairs with a syntax error are left
  out and reported (``strict=True`` makes them errors too);
* each (candidate, metric) gets micro and macro corpus scores, and on
  request a bootstrap interval and Damonte et al.'s aspects (smatch);
* with two candidates, ``compare=True`` adds a paired significance test
  per metric, over the pairs both candidates have.

Example:
    >>> from amrcheck.corpus import read_string
    >>> from amrcheck.metrics import get_metric
    >>> ref = read_string("# ::id 1\\n(a / b)\\n\\n# ::id 2\\n(c / d)\\n", "ref.amr")
    >>> cand = read_string("# ::id 2\\n(c / e)\\n\\n# ::id 1\\n(a / b)\\n", "sys.amr")
    >>> report = evaluate(ref, [cand], [get_metric("smatch")])
    >>> [(r.metric, r.ids, round(r.corpus.micro.f1, 2)) for r in report.results]
    [('smatch', ['1', '2'], 0.75)]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from .corpus import Corpus
from .errors import InputError
from .metrics import CorpusScore, Metric, Score
from .pairing import (
    GraphPair,
    PairBy,
    Pairing,
    PairingError,
    aggregate_scores,
    pair_graphs,
    pair_scorer,
)
from .progress import Progress, run_map
from .stats import Interval, PairedComparison, bootstrap_ci, paired_test


@dataclass(slots=True)
class MetricResult:
    """One candidate file scored with one metric."""

    candidate: str
    metric: str
    corpus: CorpusScore
    #: the pair keys (``::id`` or ``#n``), parallel to ``corpus.pairs``
    ids: list[str]
    ci: Interval | None = None
    aspects: dict[str, Score] | None = None


@dataclass(slots=True)
class Comparison:
    """Two candidates compared with one metric over the pairs both have."""

    metric: str
    a: str
    b: str
    pairs: int
    test: PairedComparison


@dataclass(slots=True)
class Evaluation:
    """Everything ``amrcheck score`` reports."""

    reference: str
    pairings: dict[str, Pairing]
    results: list[MetricResult] = field(default_factory=list)
    comparisons: list[Comparison] = field(default_factory=list)

    @property
    def errors(self) -> list[str]:
        """Syntax errors of all files (each once), ``file:line:col: CODE message``."""
        seen: dict[str, None] = {}
        for pairing in self.pairings.values():
            seen.update(dict.fromkeys(pairing.errors))
        return list(seen)

    @property
    def skipped(self) -> dict[str, list[str]]:
        """Per candidate, the keys of pairs left out for a syntax error."""
        return {path: p.broken for path, p in self.pairings.items() if p.broken}


class _AspectScorer:
    """Picklable per-pair aspect scorer for worker processes."""

    def __init__(self, metric: Metric) -> None:
        self.metric = metric

    def __call__(self, pair: GraphPair) -> dict[str, Score]:
        from .metrics.aspects import aspect_scores
        from .metrics.smatch import Smatch

        assert isinstance(self.metric, Smatch)
        return aspect_scores(self.metric, pair.candidate, pair.reference)


def pair_candidates(
    reference: Corpus,
    candidates: Sequence[Corpus],
    by: PairBy = "auto",
    strict: bool = False,
) -> dict[str, Pairing]:
    """Pair every candidate with the reference.

    Raises:
        PairingError: a graph has no counterpart (or, with ``strict``, a
            graph has a syntax error); every problem is listed.
        InputError: the same file is given twice as a candidate.
    """
    paths = [c.path for c in candidates]
    if len(set(paths)) != len(paths):
        raise InputError("a candidate file is given twice", paths[0])
    pairings = {c.path: pair_graphs(reference, c, by) for c in candidates}
    problems = [u for p in pairings.values() for u in p.unpaired]
    if strict:
        problems += [e for p in pairings.values() for e in p.errors]
    if problems:
        raise PairingError(list(dict.fromkeys(problems)))
    return pairings


def evaluate(
    reference: Corpus,
    candidates: Sequence[Corpus],
    metrics: Sequence[Metric],
    *,
    by: PairBy = "auto",
    strict: bool = False,
    ci: bool = False,
    compare: bool = False,
    aspects: bool = False,
    resamples: int = 1000,
    confidence: float = 0.95,
    seed: int = 0,
    jobs: int = 1,
    progress: Progress | None = None,
) -> Evaluation:
    """Score ``candidates`` against ``reference`` with ``metrics``.

    Args:
        ci: add a percentile bootstrap interval (``resamples``,
            ``confidence``, ``seed``) of every corpus score.
        compare: paired test between exactly two candidates, per metric,
            over the pairs both have.
        aspects: fine-grained scores for the smatch metrics.
        jobs: worker processes (results do not depend on it).
        progress: called with the number of pairs scored.

    Raises:
        PairingError: see :func:`pair_candidates`.
        InputError: ``compare`` without exactly two candidates.
    """
    if compare and len(candidates) != 2:
        raise InputError(f"--compare needs two candidate files, not {len(candidates)}")
    report = Evaluation(
        reference.path, pair_candidates(reference, candidates, by, strict)
    )
    pairs_of = {path: p.pairs for path, p in report.pairings.items()}
    if compare:  # score both on the same pairs
        a, b = pairs_of
        common = {p.id for p in pairs_of[a]} & {p.id for p in pairs_of[b]}
        pairs_of = {
            path: [p for p in ps if p.id in common] for path, ps in pairs_of.items()
        }
    for path, pairs in pairs_of.items():
        ids = [pair.id for pair in pairs]
        for metric in metrics:
            scores = run_map(pair_scorer(metric), pairs, jobs=jobs, progress=progress)
            result = MetricResult(
                path, metric.name, aggregate_scores(metric, scores), ids
            )
            if ci and scores:
                result.ci = bootstrap_ci(
                    scores, _aggregate(metric), resamples, confidence, seed
                )
            if aspects and metric.name == "smatch":
                from .metrics.aspects import aggregate_aspects

                result.aspects = aggregate_aspects(
                    run_map(_AspectScorer(metric), pairs, jobs=jobs, progress=progress)
                )
            report.results.append(result)
    if compare:
        a, b = pairs_of
        for metric in metrics:
            first, second = (
                next(
                    r
                    for r in report.results
                    if r.candidate == path and r.metric == metric.name
                )
                for path in (a, b)
            )
            test = paired_test(
                first.corpus.pairs,
                second.corpus.pairs,
                _aggregate(metric),
                resamples,
                confidence,
                seed,
            )
            report.comparisons.append(
                Comparison(metric.name, a, b, len(first.corpus.pairs), test)
            )
    return report


def _aggregate(metric: Metric) -> Any:
    """The resampling aggregate: None (fast micro F1) where it equals the metric's.

    smatch's corpus F1 is micro F1 of summed counts, which
    :mod:`amrcheck.stats` computes vectorised; other metrics aggregate in
    their own way (rematch Σ∩/Σ∪, sembleu corpus BLEU, WLK mean ...).
    """
    return None if metric.name == "smatch" else metric.aggregate
