"""Inter-annotator agreement: the same sentences annotated by several people.

Layer: engine, above pairing, the metrics, the diff and the aspects;
returns plain data. Sentences are lined up across the annotators' files
by ``::id`` (else by position: :func:`amrcheck.pairing.match_entries`);
a sentence some annotators lack (or annotated with a syntax error) is
scored among those who have it.

* **pairwise agreement**: for every two annotators, smatch F1 (micro:
  summed matched / triple counts over the sentences both annotated; the
  F1 is symmetric, so the order of the two does not matter), with a
  percentile bootstrap interval;
* **mean pairwise agreement**: the mean of those F1s, its interval from
  the same resamples (sentences are resampled once for all pairs);
* **per aspect**: Damonte et al.'s fine-grained scores, per pair (micro)
  and their mean (NER, negation, SRL, reentrancies, ...);
* **per sentence**: mean and lowest pairwise F1 and, for every pair that
  differs, the triples on which the two annotators differ
  (:func:`amrcheck.diff.triple_changes`: ``removed`` = only the first
  annotator has it, ``added`` = only the second). Sorted lowest first,
  this is the adjudication queue.

Example:
    >>> from amrcheck.corpus import read_string
    >>> a = read_string("# ::id 1\\n(w / want-01 :ARG0 (b / boy))\\n", "ann1.amr")
    >>> b = read_string("# ::id 1\\n(w / want-01 :ARG0 (g / girl))\\n", "ann2.amr")
    >>> result = agreement([a, b], resamples=100)
    >>> round(result.mean.estimate, 4), result.names
    (0.75, ['ann1', 'ann2'])
    >>> [str(c) for c in result.sentences[0].pairs[0].changes]
    ['~ ann1.amr:2:21 (b / boy) -> ann2.amr:2:21 (g / girl)']
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import combinations
from pathlib import PurePath

import numpy as np

from ._parse import Entry
from .corpus import Corpus
from .diff import Change, triple_changes
from .metrics import Score
from .metrics.aspects import ASPECTS, aggregate_aspects, aspect_scores
from .metrics.smatch import Smatch
from .pairing import Matching, PairBy, match_entries
from .progress import Progress, run_map
from .stats import Interval


@dataclass(slots=True)
class PairDisagreement:
    """Two annotators on one sentence: their F1 and the triples they differ on."""

    a: str
    b: str
    score: Score
    changes: list[Change]


@dataclass(slots=True)
class SentenceAgreement:
    """One sentence across annotators."""

    key: str
    text: str | None
    #: annotators whose graph of this sentence was scored
    annotators: list[str]
    #: annotators without this sentence (or whose graph has a syntax error)
    missing: list[str]
    pairs: list[PairDisagreement] = field(default_factory=list)

    @property
    def mean_f1(self) -> float | None:
        if not self.pairs:
            return None
        return sum(p.score.f1 for p in self.pairs) / len(self.pairs)

    @property
    def lowest(self) -> PairDisagreement | None:
        return min(self.pairs, key=lambda p: p.score.f1, default=None)


@dataclass(slots=True)
class PairAgreement:
    """Two annotators over every sentence both annotated."""

    a: str
    b: str
    sentences: int
    score: Score
    ci: Interval | None
    aspects: dict[str, Score]


@dataclass(slots=True)
class Agreement:
    """Everything ``amrcheck iaa`` reports."""

    names: list[str]
    paths: list[str]
    graphs: list[int]
    matching: Matching
    settings: dict[str, object]
    pairs: list[PairAgreement]
    mean: Interval
    #: aspect -> mean over annotator pairs of the pair's micro F1
    aspects: dict[str, float]
    #: lowest mean agreement first; sentences with fewer than two annotations last
    sentences: list[SentenceAgreement]
    #: syntax errors of all files, ``file:line:col: CODE message``
    errors: list[str]

    def matrix(self) -> list[list[float | None]]:
        """Pairwise micro F1, annotators in :attr:`names` order; 1.0 on the diagonal."""
        size = len(self.names)
        grid: list[list[float | None]] = [
            [1.0 if i == j else None for j in range(size)] for i in range(size)
        ]
        for pair in self.pairs:
            i, j = self.names.index(pair.a), self.names.index(pair.b)
            grid[i][j] = grid[j][i] = pair.score.f1 if pair.sentences else None
        return grid


def annotator_names(paths: Sequence[str]) -> list[str]:
    """Short names: file stems without a shared prefix word, else the paths.

    Example:
        >>> annotator_names(["x/comptest_annot1.txt", "x/comptest_annot2.txt"])
        ['annot1', 'annot2']
        >>> annotator_names(["a/doc.amr", "b/doc.amr"])
        ['a/doc.amr', 'b/doc.amr']
    """
    stems = [PurePath(p).stem for p in paths]
    if len(set(stems)) != len(stems):
        return list(paths)
    shared = os.path.commonprefix(stems)
    cut = max(shared.rfind(c) for c in "_-. ") + 1
    return [stem[cut:] for stem in stems]


class _PairJudge:
    """Picklable ``(sentence, a, b, entries) -> (score, changes, aspects)``."""

    def __init__(self, metric: Smatch) -> None:
        self.metric = metric

    def __call__(
        self, task: tuple[int, int, int, Entry, Entry]
    ) -> tuple[Score, list[Change], dict[str, Score]]:
        _, _, _, first, second = task
        assert first.graph is not None and second.graph is not None
        aspects = aspect_scores(self.metric, second.graph, first.graph)
        return aspects["smatch"], triple_changes(first.graph, second.graph), aspects


def _f1(counts: np.ndarray) -> np.ndarray:
    """Micro F1 = 2M / (|A| + |B|) over the last axis (M, |A|, |B|); 0: a side empty."""
    matched, first, second = counts[..., 0], counts[..., 1], counts[..., 2]
    total = first + second
    valid = (first > 0) & (second > 0)
    return np.where(valid, 2 * matched / np.where(total > 0, total, 1), 0.0)


def agreement(
    corpora: Sequence[Corpus],
    metric: Smatch | None = None,
    by: PairBy = "auto",
    resamples: int = 1000,
    confidence: float = 0.95,
    seed: int = 0,
    jobs: int = 1,
    progress: Progress | None = None,
) -> Agreement:
    """Agreement among the annotators whose files are ``corpora`` (two or more).

    Args:
        metric: the smatch that scores agreement (default: strict smatch).
        resamples, confidence, seed: of the bootstrap intervals.
        jobs: worker processes (results do not depend on it).
        progress: called with the number of (sentence, pair) comparisons done.

    Raises:
        ValueError: fewer than two files, or no sentence that two
            annotators both annotated.
    """
    if len(corpora) < 2:
        raise ValueError("agreement needs at least two annotators")
    metric = metric if metric is not None else Smatch()
    paths = [c.path for c in corpora]
    names = annotator_names(paths)
    matching = match_entries(corpora, by)
    couples = list(combinations(range(len(corpora)), 2))
    sentences: list[SentenceAgreement] = []
    tasks: list[tuple[int, int, int, Entry, Entry]] = []
    for s, row in enumerate(matching.rows):
        usable = [
            e if e is not None and e.graph is not None else None for e in row.entries
        ]
        texts = [e.metadata.get("snt") for e in row.entries if e is not None]
        sentences.append(
            SentenceAgreement(
                row.key,
                next((t for t in texts if t), None),
                [names[i] for i, e in enumerate(usable) if e is not None],
                [names[i] for i, e in enumerate(usable) if e is None],
            )
        )
        for i, j in couples:
            first, second = usable[i], usable[j]
            if first is not None and second is not None:
                tasks.append((s, i, j, first, second))
    judged = run_map(_PairJudge(metric), tasks, jobs=jobs, progress=progress)
    # counts[s, p] = (matched, |A|, |B|) of pair p on sentence s (zeros: not both)
    counts = np.zeros((len(sentences), len(couples), 3))
    per_pair: dict[int, list[dict[str, Score]]] = {p: [] for p in range(len(couples))}
    for (s, i, j, _, _), (score, changes, aspects) in zip(tasks, judged, strict=True):
        p = couples.index((i, j))
        counts[s, p] = [score.counts[k] for k in ("matched", "candidate", "reference")]
        per_pair[p].append(aspects)
        sentences[s].pairs.append(PairDisagreement(names[i], names[j], score, changes))
    scored = [s for s in range(len(sentences)) if sentences[s].pairs]
    if not scored:
        raise ValueError("no sentence has graphs from two annotators")
    rng = np.random.default_rng(seed)
    samples = rng.integers(0, len(scored), size=(resamples, len(scored)))
    resampled = _f1(counts[scored][samples].sum(axis=1))  # (resamples, pairs)
    estimate = _f1(counts.sum(axis=0))
    shared = (counts[..., 1] > 0).sum(axis=0)
    tail = (1 - confidence) / 2
    pairs = []
    for p, (i, j) in enumerate(couples):
        low, high = np.quantile(resampled[:, p], [tail, 1 - tail])
        total = (
            metric.aggregate([aspects["smatch"] for aspects in per_pair[p]])
            if per_pair[p]
            else Score(f1=0.0)
        )
        pairs.append(
            PairAgreement(
                names[i],
                names[j],
                int(shared[p]),
                total,
                Interval(
                    float(estimate[p]),
                    float(low),
                    float(high),
                    confidence,
                    resamples,
                    seed,
                )
                if per_pair[p]
                else None,
                aggregate_aspects(per_pair[p]) if per_pair[p] else {},
            )
        )
    compared = [p for p in range(len(couples)) if per_pair[p]]
    means = resampled[:, compared].mean(axis=1)
    low, high = np.quantile(means, [tail, 1 - tail])
    mean = Interval(
        float(estimate[compared].mean()),
        float(low),
        float(high),
        confidence,
        resamples,
        seed,
    )
    mean_aspects = {
        name: float(np.mean([pairs[p].aspects[name].f1 for p in compared]))
        for name in ASPECTS
    }
    sentences.sort(key=lambda s: (s.mean_f1 is None, s.mean_f1 or 0.0))
    errors = [str(f) for corpus in corpora for f in corpus.errors]
    return Agreement(
        names,
        paths,
        [len(c) for c in corpora],
        matching,
        dict(metric.settings()),
        pairs,
        mean,
        mean_aspects,
        sentences,
        errors,
    )
