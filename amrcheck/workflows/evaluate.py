"""Scoring candidate files against a reference: the engine behind ``amrcheck score``.

Layer: engine, above pairing, the metrics and :mod:`amrcheck.workflows.stats`.
One reference, one or more candidate files, one or more metrics:

* every candidate is paired with the reference by the rules of
  :func:`amrcheck.pairing.graphs.pair_graphs`; a candidate graph the
  reference lacks (by id), or files of different lengths (by position),
  are an error that lists every such graph with its place — files are
  never truncated silently;
* a candidate graph that cannot be read, or is not there (by id), counts
  as an **empty graph** (:meth:`amrcheck.metrics.Metric.score_missing`:
  nothing matched, F1 0), so that breaking a graph can never raise a
  score; ``skip_unreadable=True`` leaves such pairs out instead, and the
  report says so. A reference graph that cannot be read leaves its pair
  out (it cannot be judged). Every such pair is a
  :class:`~amrcheck.pairing.graphs.Gap` of the report, with its place;
  ``strict=True`` makes them errors;
* each (candidate, metric) gets micro and macro corpus scores, and on
  request a bootstrap interval and Damonte et al.'s aspects (smatch);
* with two candidates, ``compare=True`` adds a paired significance test
  per metric, over the pairs both candidates have.

UMR files (:func:`amrcheck.reading.umr.is_umr_path`) are scored by their
sentence graphs (:mod:`amrcheck.reading.umr_corpus`), paired by sentence
number. Other files given by path are streamed
(:class:`amrcheck.pairing.streaming.PairStream`):
graphs are read, paired and scored a chunk at a time, every metric in
one pass, so memory does not grow with the files' graphs; what is kept
per pair is its key and its scores (the numbers behind micro, macro,
intervals and tests, in columns: :class:`~amrcheck.metrics.ScoreColumns`),
and per graph a ledger entry (id, place).

Example:
    >>> from amrcheck.reading.corpus import read_string
    >>> from amrcheck.metrics import get_metric
    >>> ref = read_string("# ::id 1\\n(a / b)\\n\\n# ::id 2\\n(c / d)\\n", "ref.amr")
    >>> cand = read_string("# ::id 2\\n(c / e)\\n\\n# ::id 1\\n(a / b)\\n", "sys.amr")
    >>> report = evaluate(ref, [cand], [get_metric("smatch")])
    >>> [(r.metric, r.ids, round(r.corpus.micro.f1, 2)) for r in report.results]
    [('smatch', ['1', '2'], 0.75)]
    >>> bad = read_string("# ::id 1\\n(a / b)\\n\\n# ::id 2\\n(c / d\\n", "bad.amr")
    >>> report = evaluate(ref, [bad], [get_metric("smatch")])
    >>> round(report.results[0].corpus.micro.f1, 2)
    0.67
    >>> [str(gap) for gap in report.counted_empty["bad.amr"]]
    ["bad.amr:5:7: graph 2: E001 unbalanced parentheses: 1 '(' not closed"]
    >>> report = evaluate(ref, [bad], [get_metric("smatch")], skip_unreadable=True)
    >>> round(report.results[0].corpus.micro.f1, 2), report.skipped
    (1.0, {'bad.amr': ['2']})
"""

from __future__ import annotations

from array import array
from collections.abc import Generator, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import InputError
from ..execution import Jobs, Progress, can_fork, local_processes, run_work, stripe
from ..graph import Graph
from ..metrics import (
    CorpusScore,
    Metric,
    Score,
    ScoreColumns,
    expect_pairs,
    score_pairs,
)
from ..pairing.graphs import Gap, GraphPair, PairBy, aggregate_scores
from ..pairing.streaming import Batch, PairingReport, PairStream, check_reports
from ..reading.corpus import CHUNK_BYTES, Corpus, graph_count, is_amr_name

if TYPE_CHECKING:  # numpy is imported only when --ci or --compare need it
    from ..metrics.aspects import AspectDefinitions
    from ..pairing.parts import PartReport
    from .stats import Interval, PairedComparison

#: pairs per batch, the unit of work handed to a worker process; with the
#: reader's chunks (:data:`amrcheck.reading.corpus.CHUNK_BYTES`) and the batches in
#: flight (two per process), this bounds the graphs held at once
CHUNK_PAIRS = 128


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
class CandidateComparison:
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
    pairings: dict[str, PairingReport]
    results: list[MetricResult] = field(default_factory=list)
    comparisons: list[CandidateComparison] = field(default_factory=list)
    #: whether candidate graphs that cannot be read (or are absent) were
    #: left out instead of counted as empty graphs
    skip_unreadable: bool = False

    @property
    def errors(self) -> list[str]:
        """Syntax errors of all files (each once), ``file:line:col: CODE message``."""
        seen: dict[str, None] = {}
        for pairing in self.pairings.values():
            seen.update(dict.fromkeys(pairing.errors))
        return list(seen)

    def _gaps(self, counted: bool) -> dict[str, list[Gap]]:
        skip = self.skip_unreadable
        found = {
            path: [g for g in p.gaps if g.counts_as_empty(skip) == counted]
            for path, p in self.pairings.items()
        }
        return {path: gaps for path, gaps in found.items() if gaps}

    @property
    def counted_empty(self) -> dict[str, list[Gap]]:
        """Per candidate, its graphs that cannot be read or are absent, each
        counted as an empty graph (F1 0) in every score."""
        return self._gaps(counted=True)

    @property
    def left_out(self) -> dict[str, list[Gap]]:
        """Per candidate, the pairs no score includes: the reference graph
        cannot be read, or (``skip_unreadable``) the candidate's."""
        return self._gaps(counted=False)

    @property
    def skipped(self) -> dict[str, list[str]]:
        """Per candidate, the keys of the pairs left out (:attr:`left_out`)."""
        return {path: [g.key for g in gaps] for path, gaps in self.left_out.items()}


#: (candidate number, reference position, key, a score per metric, aspects)
Scored = tuple[int, int, str, tuple[Score, ...], dict[str, Score] | None]


class _PairScorer:
    """Every metric (and the aspects) of a batch of pairs; picklable for workers.

    A pair without its candidate graph scores as an empty graph, or is
    dropped with ``skip_unreadable``: the rule of
    :func:`amrcheck.pairing.scoring.score_or_empty`, for pairs whose
    reference graph is always there (a :class:`GraphPair`: a reference
    that cannot be read is a gap, never a pair), so that it takes no loop
    of its own: :func:`~amrcheck.metrics.score_pairs` scores an absent
    candidate as an empty graph.
    """

    def __init__(
        self,
        metrics: Sequence[Metric],
        aspects: Metric | None,
        skip_unreadable: bool,
        definitions: AspectDefinitions = "amrcheck",
    ) -> None:
        self.metrics = tuple(metrics)
        self.aspects = aspects
        self.skip_unreadable = skip_unreadable
        self.definitions: AspectDefinitions = definitions

    def __call__(self, batch: Sequence[tuple[int, GraphPair]]) -> list[Scored]:
        if self.skip_unreadable:  # left out: the pairs without a candidate
            batch = [item for item in batch if item[1].candidate is not None]
        # one pass per metric over the batch, one row per pair: no call,
        # closure or tuple of a pair's own beyond its row (one-job speed)
        sides = [(pair.candidate, pair.reference) for _, pair in batch]
        by_pair: Iterable[tuple[Score, ...]] = zip(
            *[score_pairs(metric, sides) for metric in self.metrics], strict=True
        )
        aspects = self._aspects(sides)
        return [
            (number, pair.index, pair.id, scores, kept)
            for (number, pair), scores, kept in zip(
                batch,
                by_pair,
                [None] * len(batch) if aspects is None else aspects,
                strict=True,
            )
        ]

    def _aspects(
        self, sides: Sequence[tuple[Graph | None, Graph]]
    ) -> list[dict[str, Score]] | None:
        """Damonte et al.'s aspects of each pair, an absent candidate's as an
        empty graph's (None: not asked for)."""
        if self.aspects is None:
            return None
        from ..metrics.aspects import aspect_scores, aspect_scores_missing
        from ..metrics.smatch import Smatch

        smatch, definitions = self.aspects, self.definitions
        assert isinstance(smatch, Smatch)
        return [
            aspect_scores_missing(smatch, reference, definitions)
            if candidate is None
            else aspect_scores(smatch, candidate, reference, definitions)
            for candidate, reference in sides
        ]


def _umr_as_corpus(file: Corpus | str | Path) -> Corpus | str | Path:
    """:func:`~amrcheck.reading.umr_corpus.umr_as_corpus`, whose module (UMR's
    reader, ~4 ms to import) an AMR file by name never loads."""
    if isinstance(file, Corpus) or is_amr_name(file):
        return file
    from ..reading.umr_corpus import umr_as_corpus

    return umr_as_corpus(file)


class _Tally:
    """One candidate's per-pair scores; they may come in any order of pairs.

    Held in columns (:class:`~amrcheck.metrics.ScoreColumns`): about 100
    bytes a pair and metric where its :class:`Score` takes about 1 KB.
    """

    def __init__(self, metrics: int, keep_aspects: bool) -> None:
        #: each pair's position in the reference and key, as the pairs
        #: came (in the reference's order once :meth:`ordered`)
        self.positions = array("q")
        self.keys: list[str] = []
        #: each metric's scores of the pairs, in the same order
        self.held = [ScoreColumns() for _ in range(metrics)]
        # aspects are micro sums, so they are summed as they come, unless
        # --compare may still leave pairs out: then they are kept per pair
        self.keep_aspects = keep_aspects
        self.aspect_rows: list[tuple[str, dict[str, Score]]] = []
        self.aspect_sum: dict[str, Score] | None = None

    def __len__(self) -> int:
        return len(self.keys)

    def add(self, rows: Iterable[Scored]) -> None:
        """Hold the scores of the pairs of ``rows`` (their aspects apart)."""
        rows = list(rows)
        self.positions.extend([row[1] for row in rows])
        self.keys += [row[2] for row in rows]
        for metric, columns in enumerate(self.held):  # a column at a time
            columns.extend([row[3][metric] for row in rows])

    def add_aspects(self, key: str, aspects: dict[str, Score]) -> None:
        from ..metrics.aspects import aggregate_aspects

        if self.keep_aspects:
            self.aspect_rows.append((key, aspects))
        elif self.aspect_sum is None:
            self.aspect_sum = aspects
        else:
            self.aspect_sum = aggregate_aspects([self.aspect_sum, aspects])

    def ordered(self) -> None:
        """Put the pairs in the reference's order (by position: each is unique)."""
        positions = self.positions
        order = sorted(range(len(positions)), key=positions.__getitem__)
        if order == list(range(len(positions))):
            return
        self.positions = array("q", [positions[i] for i in order])
        self.keys = [self.keys[i] for i in order]
        self.held = [columns.taken(order) for columns in self.held]

    def scores(self, metric: int, keys: set[str] | None = None) -> ScoreColumns:
        """One metric's scores of the pairs in ``keys`` (None: all), in the
        pairs' order."""
        if keys is None:
            return self.held[metric]
        return self.held[metric].taken(
            i for i, key in enumerate(self.keys) if key in keys
        )

    def aspect_total(
        self, keys: set[str] | None, definitions: AspectDefinitions = "amrcheck"
    ) -> dict[str, Score]:
        """The aspects summed over the pairs in ``keys`` (None: all)."""
        from ..metrics.aspects import aggregate_aspects

        if self.keep_aspects:
            kept = [a for k, a in self.aspect_rows if keys is None or k in keys]
        else:
            kept = [] if self.aspect_sum is None else [self.aspect_sum]
        return aggregate_aspects(kept, definitions)


def evaluate(
    reference: Corpus | str | Path,
    candidates: Sequence[Corpus | str | Path],
    metrics: Sequence[Metric],
    *,
    by: PairBy = "auto",
    strict: bool = False,
    skip_unreadable: bool = False,
    ci: bool = False,
    compare: bool = False,
    aspects: bool | AspectDefinitions = False,
    resamples: int = 1000,
    confidence: float = 0.95,
    seed: int = 0,
    jobs: Jobs = 1,
    progress: Progress | None = None,
    chunk_pairs: int = CHUNK_PAIRS,
    chunk_bytes: int = CHUNK_BYTES,
) -> Evaluation:
    """Score ``candidates`` against ``reference`` with ``metrics``.

    Args:
        reference, candidates: files (streamed) or corpora already read.
        strict: raise on any syntax error or absent candidate graph.
        skip_unreadable: leave out the pairs whose candidate graph cannot
            be read or is absent, instead of counting it as an empty graph
            (:attr:`Evaluation.left_out` lists them).
        ci: add a percentile bootstrap interval (``resamples``,
            ``confidence``, ``seed``) of every corpus score.
        compare: paired test between exactly two candidates, per metric,
            over the pairs both have.
        aspects: fine-grained scores for the smatch metrics, by amrcheck's
            definitions (True, ``"amrcheck"``) or Damonte et al.'s
            (``"damonte"``; :mod:`amrcheck.metrics.aspects`).
        jobs: worker processes, or a cluster (:mod:`amrcheck.execution`);
            results do not depend on it.
        progress: called with the number of pairs scored.
        chunk_pairs, chunk_bytes: pairs per batch of work, bytes read at a
            time from each file (results do not depend on them).

    Raises:
        PairingError: a graph has no counterpart (or, with ``strict``, a
            graph has a syntax error or a reference graph is absent from a
            candidate); every problem is listed.
        InputError: ``compare`` without exactly two candidates, the same
            candidate twice, or a file that cannot be read.
    """
    if compare and len(candidates) != 2:
        raise InputError(f"--compare needs two candidate files, not {len(candidates)}")
    # UMR files: their sentence graphs, paired by sentence number
    reference = _umr_as_corpus(reference)
    candidates = [_umr_as_corpus(c) for c in candidates]
    smatch = next((m for m in metrics if m.name == "smatch"), None)
    definitions: AspectDefinitions = "damonte" if aspects == "damonte" else "amrcheck"
    scorer = _PairScorer(
        metrics, smatch if aspects else None, skip_unreadable, definitions
    )
    # graph-opening lines per file: a cheap look before reading
    counts = [graph_count(f) for f in (reference, *candidates)]
    _fail_fast(reference, candidates, counts, by, strict, chunk_bytes)
    for metric in metrics:
        expect_pairs(metric, counts[0] * len(candidates))
    scoring = _Scoring(scorer, by, strict, compare, jobs, progress, chunk_pairs)
    report, tallies = scoring.in_parts(
        reference, candidates, counts[0]
    ) or scoring.whole(reference, candidates, chunk_bytes)
    report.skip_unreadable = skip_unreadable
    paths = list(report.pairings)
    for tally in tallies:
        tally.ordered()
    # --compare: the pairs both candidates have; else each its own (all)
    common = set.intersection(*(set(t.keys) for t in tallies)) if compare else None
    for path, tally in zip(paths, tallies, strict=True):
        ids = tally.keys
        if common is not None:
            ids = [key for key in ids if key in common]
        for number, metric in enumerate(metrics):
            scores = tally.scores(number, common)
            result = MetricResult(
                path, metric.name, aggregate_scores(metric, scores), ids
            )
            if ci:  # resampling reads each score many times: built once
                result.ci = _interval(
                    metric, list(scores), resamples, confidence, seed
                )
            if aspects and metric is smatch:
                result.aspects = tally.aspect_total(common, definitions)
            report.results.append(result)
    if compare:
        _compare(report, metrics, resamples, confidence, seed)
    return report


@dataclass(slots=True)
class _Scoring:
    """Reading, pairing and scoring the files, in one or more processes."""

    scorer: _PairScorer
    by: PairBy
    strict: bool
    compare: bool
    jobs: Jobs
    progress: Progress | None
    chunk_pairs: int

    def whole(
        self,
        reference: Corpus | str | Path,
        candidates: Sequence[Corpus | str | Path],
        chunk_bytes: int,
    ) -> tuple[Evaluation, list[_Tally]]:
        """One reading of the whole files; each worker scores its share of batches."""

        def work(
            shard: int, shards: int
        ) -> Generator[Batch, None, tuple[str, dict[str, PairingReport]]]:
            stream = PairStream(reference, candidates, self.by, chunk_bytes)
            batches = stream.batches(self.chunk_pairs, self.strict)
            pairings = yield from stripe(batches, shard, shards)
            return stream.reference.path, pairings

        run = run_work(self.scorer, work, self.jobs, self.progress)
        tallies = self._tally(run, len(candidates))
        return Evaluation(*run.summaries[0]), tallies

    def in_parts(
        self,
        reference: Corpus | str | Path,
        candidates: Sequence[Corpus | str | Path],
        graphs: int,
    ) -> tuple[Evaluation, list[_Tally]] | None:
        """Each worker reads and scores its own part of the files (:mod:`.parts`).

        None when that cannot be done (one job, a cluster, corpora in memory,
        pairing by position, which compares the whole files' sentences; files
        that cannot be cut or do not pair part by part): then the caller
        reads the files whole, and the progress reported here is taken back.
        ``graphs`` is the reference's count of graph-opening lines.
        """
        jobs = local_processes(self.jobs)  # 0 on a cluster: it ships batches
        if (
            jobs < 2
            or self.by == "position"
            or not can_fork()
            or isinstance(reference, Corpus)
            or any(isinstance(c, Corpus) for c in candidates)
        ):
            return None
        from ..pairing.parts import merge_parts, pair_part, plan_parts

        ref, cands = str(reference), [str(c) for c in candidates]
        plan = plan_parts(ref, cands, jobs, graphs)
        if plan is None:
            return None
        by, chunk_pairs = self.by, self.chunk_pairs

        def work(shard: int, shards: int) -> Generator[Batch, None, PartReport]:
            files = plan[shard]
            entries = None  # the last part: as many entries in each file
            if shard + 1 < shards:
                entries = plan[shard + 1][0].first_entry - files[0].first_entry
            return pair_part(ref, cands, files, by, chunk_pairs, entries=entries)

        run = run_work(self.scorer, work, jobs, self.progress, lambda r: not r.fits)
        tallies = self._tally(run, len(candidates))
        pairings = None if run.gave_up else merge_parts(ref, cands, run.summaries)
        if pairings is None:
            scored = sum(len(t) for t in tallies)
            if self.progress is not None and scored:
                self.progress(-scored)
            return None
        check_reports(pairings, self.strict)
        return Evaluation(ref, pairings), tallies

    def _tally(self, run: run_work[Any, Scored], candidates: int) -> list[_Tally]:
        metrics = len(self.scorer.metrics)
        tallies = [_Tally(metrics, self.compare) for _ in range(candidates)]
        aspects = self.scorer.aspects is not None
        for results in run:
            if candidates == 1 and not aspects:
                tallies[0].add(results)  # no step per pair here
                continue
            for scored in results:
                tally = tallies[scored[0]]
                tally.add((scored,))
                if scored[4] is not None:
                    tally.add_aspects(scored[2], scored[4])
        return tallies


def _fail_fast(
    reference: Corpus | str | Path,
    candidates: Sequence[Corpus | str | Path],
    counts: Sequence[int],
    by: PairBy,
    strict: bool,
    chunk_bytes: int,
) -> None:
    """If the files seem not to pair (``counts`` of graphs differ), read them
    once without scoring, so that the errors come at once.

    Unpaired graphs are known only once whole files have been read;
    without this, files that will not pair would be scored in full first.
    """
    if len(set(counts)) < 2:
        return
    stream = PairStream(reference, candidates, by, chunk_bytes)
    for _ in stream.in_step(CHUNK_PAIRS):
        pass
    stream.close(strict)


def _interval(
    metric: Metric,
    scores: Sequence[Score],
    resamples: int,
    confidence: float,
    seed: int,
) -> Interval | None:
    from .stats import bootstrap_ci

    if not scores:
        return None
    return bootstrap_ci(scores, _aggregate(metric), resamples, confidence, seed)


def _compare(
    report: Evaluation,
    metrics: Sequence[Metric],
    resamples: int,
    confidence: float,
    seed: int,
) -> None:
    from .stats import paired_test

    a, b = report.pairings
    for metric in metrics:
        first, second = (
            next(
                r
                for r in report.results
                if r.candidate == path and r.metric == metric.name
            )
            for path in (a, b)
        )
        test = paired_test(  # resampling: each pair's score built once
            list(first.corpus.pair_scores()),
            list(second.corpus.pair_scores()),
            _aggregate(metric),
            resamples,
            confidence,
            seed,
        )
        report.comparisons.append(
            CandidateComparison(metric.name, a, b, first.corpus.n_pairs, test)
        )


def _aggregate(metric: Metric) -> Any:
    """The resampling aggregate: None (fast micro F1) where it equals the metric's.

    smatch's corpus F1 is micro F1 of summed counts, which
    :mod:`amrcheck.workflows.stats` computes vectorised; other metrics aggregate in
    their own way (rematch Σ∩/Σ∪, sembleu corpus BLEU, WLK mean ...).
    """
    return None if metric.name == "smatch" else metric.aggregate
