"""Inter-annotator agreement: the same sentences annotated by several people.

Layer: engine, above pairing, the metrics, the diff and the aspects;
returns plain data. Sentences are lined up across the annotators' files
by ``::id`` (else by position: :func:`amrcheck.pairing.graphs.match_entries`);
a sentence some annotators lack is scored among those who have it. A
graph that cannot be read counts as an **empty graph**
(:meth:`amrcheck.metrics.Metric.score_missing`): it agrees 0 with every
other annotator's graph, so breaking a graph never raises agreement;
``skip_unreadable=True`` leaves it out instead, as if the annotator
lacked the sentence.

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
  (:func:`amrcheck.workflows.diff.triple_changes`: ``removed`` = only the first
  annotator has it, ``added`` = only the second), each at its
  ``file:line:col``, and where each annotator's graph of it is. Sorted
  lowest first, this is the adjudication queue.

Files are streamed in step (:class:`amrcheck.pairing.streaming.RowStream`), so
the graphs held at once do not grow with the files; per sentence only
its queue record is kept, and the aspects are summed as they come.

Example:
    >>> from amrcheck.reading.corpus import read_string
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
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from pathlib import Path, PurePath
from typing import NamedTuple

import numpy as np

from ..execution import Jobs, Progress, run_batches
from ..graph import Graph
from ..metrics import Score
from ..metrics.aspects import (
    ASPECTS,
    aggregate_aspects,
    aspect_scores,
    aspect_scores_missing,
)
from ..metrics.smatch import Smatch
from ..pairing.graphs import PairBy
from ..pairing.streaming import Lineup, Row, RowOrder, RowStream, Sheet
from ..reading.corpus import CHUNK_BYTES, Corpus, graph_count
from ..reading.umr_corpus import sentence_text, umr_as_corpus
from .diff import Change, triple_changes
from .stats import Interval


@dataclass(slots=True)
class PairDisagreement:
    """Two annotators on one sentence: their F1 and the triples they differ on."""

    a: str
    b: str
    score: Score
    changes: list[Change]


class Place(NamedTuple):
    """Where an annotator's graph of a sentence is: the file (its path as
    given), line and column (where the header ends, without a graph)."""

    path: str
    line: int
    column: int

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.column}"


@dataclass(slots=True)
class SentenceAgreement:
    """One sentence across annotators."""

    key: str
    #: the sentence: the first ``::snt`` (else ``::tok``) of its graphs
    #: (UMR: the words of the ``Words`` row), None without any
    text: str | None
    #: annotators whose graph of this sentence was scored (an unreadable
    #: one as an empty graph)
    annotators: list[str]
    #: annotators without this sentence (with ``skip_unreadable``, also
    #: those whose graph cannot be read)
    missing: list[str]
    pairs: list[PairDisagreement] = field(default_factory=list)
    #: annotator -> why their graph cannot be read (``file:line:col: ...``)
    unreadable: dict[str, str] = field(default_factory=dict)
    #: annotator -> where their graph of this sentence is, in annotator order
    places: dict[str, Place] = field(default_factory=dict)

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
    #: how the sentences were lined up (``by``, ``note``)
    matching: Lineup
    settings: dict[str, object]
    pairs: list[PairAgreement]
    mean: Interval
    #: aspect -> mean over annotator pairs of the pair's micro F1
    aspects: dict[str, float]
    #: lowest mean agreement first; sentences with fewer than two annotations last
    sentences: list[SentenceAgreement]
    #: syntax errors of all files, ``file:line:col: CODE message``
    errors: list[str]
    #: (sentence, annotator, why) of every graph that cannot be read, in the
    #: order of the sentences in the files: counted as empty graphs unless
    #: ``skip_unreadable``
    unreadable: list[tuple[str, str, str]] = field(default_factory=list)
    #: whether unreadable graphs were left out rather than counted as empty
    skip_unreadable: bool = False

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


@dataclass(slots=True)
class _Judgement:
    """One sentence judged: its queue record, and per pair its aspects."""

    order: RowOrder
    sentence: SentenceAgreement
    #: per pair of ``sentence.pairs``, its number among the annotator couples
    couples: list[int] = field(default_factory=list)
    #: per pair of ``sentence.pairs``, its aspect scores
    aspects: list[dict[str, Score]] = field(default_factory=list)


def _unreadable(sheet: Sheet) -> str:
    """Why ``sheet``'s graph cannot be read: its first error, with its place."""
    return sheet.errors[0] if sheet.errors else f"{sheet.where}: no graph"


def _mirrored(score: Score) -> Score:
    """``score`` with the two annotators' roles swapped (P/R, their counts)."""
    counts = dict(score.counts)
    counts["candidate"], counts["reference"] = (
        score.counts["reference"],
        score.counts["candidate"],
    )
    return Score(score.f1, score.recall, score.precision, counts)


#: the aspects of two graphs that both cannot be read: nothing to count
_NOTHING = {
    name: Score(0.0, 0.0, 0.0, {k: 0.0 for k in ("matched", "candidate", "reference")})
    for name in ASPECTS
}


class _SentenceJudge:
    """Picklable ``row -> _Judgement``: every annotator pair on one sentence."""

    def __init__(self, metric: Smatch, names: list[str], skip_unreadable: bool) -> None:
        self.metric = metric
        self.names = names
        self.skip_unreadable = skip_unreadable

    def __call__(self, row: Row) -> _Judgement:
        order, key, sheets = row
        names = self.names
        usable = [
            s
            if s is not None and (s.graph is not None or not self.skip_unreadable)
            else None
            for s in sheets
        ]
        texts = [sentence_text(s.metadata) for s in sheets if s is not None]
        sentence = SentenceAgreement(
            key,
            next((t for t in texts if t), None),
            [names[i] for i, s in enumerate(usable) if s is not None],
            [names[i] for i, s in enumerate(usable) if s is None],
            unreadable={
                names[i]: _unreadable(s)
                for i, s in enumerate(sheets)
                if s is not None and s.graph is None
            },
            places={
                names[i]: Place(s.path, s.line, s.column)
                for i, s in enumerate(sheets)
                if s is not None
            },
        )
        judgement = _Judgement(order, sentence)
        for p, (i, j) in enumerate(combinations(range(len(sheets)), 2)):
            first, second = usable[i], usable[j]
            if first is None or second is None:
                continue
            aspects = self._aspects(first.graph, second.graph)
            changes = (
                triple_changes(first.graph, second.graph)
                if first.graph is not None and second.graph is not None
                else []  # an unreadable graph cannot be aligned
            )
            sentence.pairs.append(
                PairDisagreement(names[i], names[j], aspects["smatch"], changes)
            )
            judgement.couples.append(p)
            judgement.aspects.append(aspects)
        return judgement

    def _aspects(self, first: Graph | None, second: Graph | None) -> dict[str, Score]:
        """The aspects of ``second`` against ``first``; an unreadable graph
        (None) counts as an empty graph."""
        if first is not None and second is not None:
            return aspect_scores(self.metric, second, first)
        if first is not None:
            return aspect_scores_missing(self.metric, first)
        if second is not None:  # the first is the empty one: roles swapped
            found = aspect_scores_missing(self.metric, second)
            return {name: _mirrored(score) for name, score in found.items()}
        return dict(_NOTHING)


class _Tally:
    """The judgements as they come, in any order: queue records, aspects summed."""

    def __init__(self, couples: int) -> None:
        self.found: list[_Judgement] = []
        #: per couple, its aspects summed over its sentences (micro sums of
        #: whole counts: the order of the sentences does not matter)
        self.aspects: list[dict[str, Score] | None] = [None] * couples

    def add(self, judgement: _Judgement) -> None:
        for p, aspects in zip(judgement.couples, judgement.aspects, strict=True):
            total = self.aspects[p]
            self.aspects[p] = (
                aspects if total is None else aggregate_aspects([total, aspects])
            )
        judgement.aspects = []  # summed: only the queue record is kept
        self.found.append(judgement)

    def sentences(self) -> list[_Judgement]:
        """The judgements in :func:`~amrcheck.pairing.graphs.match_entries`'
        row order."""
        return sorted(self.found, key=lambda judgement: judgement.order)

    def aspect_total(self, couple: int) -> dict[str, Score]:
        summed = self.aspects[couple]
        if summed is None:
            return {}
        counts = summed["smatch"].counts
        if not counts.get("candidate") and not counts.get("reference"):
            # no graph of the couple could be read (a graph that can has a
            # triple): they agree on nothing, not perfectly on absent aspects
            return dict(_NOTHING)
        return aggregate_aspects([summed])


def _scored(sentences: Sequence[SentenceAgreement], counts: np.ndarray) -> list[int]:
    """The sentences with a pair of annotators, or raise: none has, or no
    graph of any pair can be read (``counts``: :func:`agreement`'s)."""
    scored = [s for s in range(len(sentences)) if sentences[s].pairs]
    if not scored:
        raise ValueError("no sentence has graphs from two annotators")
    if not counts[..., 1:].any():
        raise ValueError(
            "nothing could be scored: no graph that two annotators share can be read"
        )
    return scored


def _f1(counts: np.ndarray) -> np.ndarray:
    """Micro F1 = 2M / (|A| + |B|) over the last axis (M, |A|, |B|); 0: a side empty."""
    matched, first, second = counts[..., 0], counts[..., 1], counts[..., 2]
    total = first + second
    valid = (first > 0) & (second > 0)
    return np.where(valid, 2 * matched / np.where(total > 0, total, 1), 0.0)


#: sentences drawn per block of bootstrap resamples: bounds the memory of
#: resampling (a block holds this many (pairs, 3) rows of counts at once)
_RESAMPLED_CELLS = 1 << 18


def _resampled_f1(
    counts: np.ndarray, resamples: int, rng: np.random.Generator
) -> np.ndarray:
    """Per resample and pair, the micro F1 of ``counts`` (sentences, pairs, 3).

    Drawn in blocks of resamples, which takes the same numbers from
    ``rng`` as drawing them all at once; counts are whole numbers, so the
    sums do not depend on the blocks either.
    """
    size = len(counts)
    step = max(1, _RESAMPLED_CELLS // size)
    blocks = []
    for start in range(0, resamples, step):
        samples = rng.integers(0, size, size=(min(step, resamples - start), size))
        blocks.append(_f1(counts[samples].sum(axis=1)))
    return np.concatenate(blocks)


#: the smatch counts behind micro F1, in the order of :func:`_f1`
_COUNTS = ("matched", "candidate", "reference")

#: sentences per batch of work; with the reader's chunks and the batches in
#: flight (two per process), this bounds the graphs held at once
CHUNK_ROWS = 64


def agreement(
    corpora: Sequence[Corpus | str | Path],
    metric: Smatch | None = None,
    by: PairBy = "auto",
    resamples: int = 1000,
    confidence: float = 0.95,
    seed: int = 0,
    jobs: Jobs = 1,
    progress: Progress | None = None,
    chunk_rows: int = CHUNK_ROWS,
    chunk_bytes: int = CHUNK_BYTES,
    skip_unreadable: bool = False,
) -> Agreement:
    """Agreement among the annotators whose files are ``corpora`` (two or more).

    Files given by path are streamed, in step
    (:class:`amrcheck.pairing.streaming.RowStream`): the graphs held at once are
    bounded by ``chunk_bytes`` and ``chunk_rows``, not by the files; what
    is kept per sentence is its queue record and its counts.

    Args:
        metric: the smatch that scores agreement (default: strict smatch).
        resamples, confidence, seed: of the bootstrap intervals.
        jobs: worker processes or a cluster (results do not depend on it).
        progress: called with the number of sentences done.
        chunk_rows, chunk_bytes: sentences per batch of work, bytes read
            at a time from each file (results do not depend on them).
        skip_unreadable: leave a graph that cannot be read out, as if its
            annotator lacked the sentence, instead of counting it as an
            empty graph (agreement 0).

    Raises:
        ValueError: fewer than two files, a file given twice, or no
            sentence that two annotators both annotated.
        PairingError: ``by="id"`` but a file cannot be paired by id.
        InputError: a file cannot be read.
    """
    if len(corpora) < 2:
        raise ValueError("agreement needs at least two annotators")
    # UMR files: their sentence graphs, paired by sentence number
    corpora = [umr_as_corpus(c) for c in corpora]
    metric = metric if metric is not None else Smatch()
    annotators = len(corpora)
    metric.expect_pairs(annotators * (annotators - 1) // 2 * graph_count(corpora[0]))
    stream = RowStream(corpora, by, chunk_bytes)
    paths = [s.ledger.path for s in stream.sources]
    if len(set(paths)) < len(paths):
        twice = next(p for p in paths if paths.count(p) > 1)
        raise ValueError(f"{twice} is given twice: one file per annotator")
    names = annotator_names(paths)
    judge = _SentenceJudge(metric, names, skip_unreadable)
    couples = list(combinations(range(len(corpora)), 2))
    tally = _Tally(len(couples))

    def work(batches: Iterator[list[Row]]) -> None:
        for results in run_batches(judge, batches, jobs, progress):
            for judgement in results:
                tally.add(judgement)

    work(stream.in_step(chunk_rows))
    lineup = stream.close()
    work(stream.waiting(chunk_rows))
    judged = tally.sentences()
    sentences = [judgement.sentence for judgement in judged]
    unreadable = [
        (sentence.key, name, why)
        for sentence in sentences
        for name, why in sentence.unreadable.items()
    ]
    # counts[s, p] = (matched, |A|, |B|) of pair p on sentence s (zeros: not both)
    counts = np.zeros((len(sentences), len(couples), 3))
    per_pair: dict[int, list[Score]] = {p: [] for p in range(len(couples))}
    for s, judgement in enumerate(judged):
        for p, pair in zip(judgement.couples, judgement.sentence.pairs, strict=True):
            counts[s, p] = [pair.score.counts[k] for k in _COUNTS]
            per_pair[p].append(pair.score)
    scored = _scored(sentences, counts)
    rng = np.random.default_rng(seed)
    resampled = _resampled_f1(counts[scored], resamples, rng)  # (resamples, pairs)
    estimate = _f1(counts.sum(axis=0))
    shared = (counts[..., 1] > 0).sum(axis=0)
    tail = (1 - confidence) / 2
    pairs = []
    for p, (i, j) in enumerate(couples):
        low, high = np.quantile(resampled[:, p], [tail, 1 - tail])
        total = metric.aggregate(per_pair[p]) if per_pair[p] else Score(f1=0.0)
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
                tally.aspect_total(p),
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
    return Agreement(
        names,
        lineup.paths,
        lineup.sizes,
        lineup,
        dict(metric.settings()),
        pairs,
        mean,
        mean_aspects,
        sentences,
        lineup.errors,
        unreadable,
        skip_unreadable,
    )
