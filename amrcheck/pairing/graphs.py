"""Pair the graphs of several versions of a file, and score graph pairs.

Layer: engine, above corpus reading and the metrics. Two or more files
(a reference and a candidate, an old and a new version, several
annotators) are lined up graph by graph:

* by ``::id`` when every graph of every file has one and no file repeats
  an id — the order of the files may then differ;
* else by position (the n-th graph of each file), with a
  :attr:`Matching.note` that says why, so that front ends can tell
  their users.

:func:`match_entries` returns every row, including graphs that only
some files have; :func:`pair_graphs` keeps the rows whose graphs can be
scored and lists what it left out, each with its place
(``file:line:col``); :func:`pair_corpora` is the strict form that
raises instead of leaving anything out.

Note the order: files are given reference first, as on the command line,
while metrics take ``score(candidate, reference)``.

Example:
    >>> from amrcheck.reading.corpus import read_string
    >>> from amrcheck.metrics import get_metric
    >>> ref = read_string("(a / b)\\n\\n(c / d)\\n", "ref.amr")
    >>> cand = read_string("(a / b)\\n\\n(c / e)\\n", "cand.amr")
    >>> result = score_pairs(get_metric("smatch"), pair_corpora(ref, cand))
    >>> [round(p.f1, 2) for p in result.pairs], round(result.micro.f1, 2)
    ([1.0, 0.5], 0.75)
    >>> pair_corpora(ref, read_string("(a / b)\\n", "short.amr"))
    ... # doctest: +ELLIPSIS
    Traceback (most recent call last):
    amrcheck.pairing.graphs.PairingError: ref.amr has 2 graphs but short.amr has 1: ...
    >>> old = read_string("# ::id s2\\n(a / b)\\n\\n# ::id s1\\n(c / d)\\n", "old.amr")
    >>> new = read_string("# ::id s1\\n(c / d)\\n\\n# ::id s3\\n(e / f)\\n", "new.amr")
    >>> matching = match_entries([old, new])
    >>> matching.by, [(row.key, row.present) for row in matching.rows]
    ('id', [('s2', (True, False)), ('s1', (True, True)), ('s3', (False, True))])
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from ..errors import InputError
from ..execution import Jobs, run_map
from ..graph import Graph
from ..metrics import CorpusScore, Metric, Score, corpus_score
from ..reading._parse import Entry
from ..reading.corpus import Corpus
from ..span import Span

PairBy = Literal["auto", "id", "position"]


class PairingError(InputError):
    """The files cannot be paired; ``problems`` lists every reason."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = problems
        super().__init__("\n".join(problems))

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.problems,))


@dataclass(frozen=True, slots=True)
class EntryRow:
    """The entries that hold one sentence, one per file (None: not in that file).

    ``key`` is the ``::id`` when pairing by id; by position it is the id
    the entries agree on, else ``#n`` (1-based position).
    """

    key: str
    entries: tuple[Entry | None, ...]

    @property
    def present(self) -> tuple[bool, ...]:
        return tuple(entry is not None for entry in self.entries)


@dataclass(slots=True)
class Matching:
    """Rows of entries across files, and how they were matched."""

    paths: list[str]
    by: Literal["id", "position"]
    rows: list[EntryRow]
    #: why position was used (None when pairing by id)
    note: str | None = None


def where(entry: Entry) -> str:
    """``file:line:col`` of an entry's graph (or of its header if it has none)."""
    return str(Span(entry.source, entry.graph_start, entry.end))


def _id_problem(corpus: Corpus) -> str | None:
    """Why ``corpus`` cannot be paired by id (None: it can)."""
    if not len(corpus):
        return None
    without = [entry for entry in corpus if entry.id is None]
    if without:
        count = len(without)
        graphs = "graph has" if count == 1 else "graphs have"
        return f"{count} {graphs} no ::id in {corpus.path} (first: {where(without[0])})"
    seen: dict[str, Entry] = {}
    for entry in corpus:
        assert entry.id is not None
        if entry.id in seen:
            return f"::id {entry.id!r} is repeated in {where(entry)}"
        seen[entry.id] = entry
    return None


def match_entries(corpora: Sequence[Corpus], by: PairBy = "auto") -> Matching:
    """Line up the entries of ``corpora`` (two or more files), by id or position.

    Args:
        corpora: the files, in the order their entries appear in each row.
        by: ``auto`` (id when possible, else position), ``id`` or ``position``.

    Returns:
        Rows in the order of the first file, then rows of entries that
        only later files have (in their order).

    Raises:
        PairingError: ``by="id"`` but a file has graphs without ids or
            repeats an id.
    """
    paths = [corpus.path for corpus in corpora]
    problems = [p for p in map(_id_problem, corpora) if p is not None]
    if by == "id" and problems:
        raise PairingError(problems)
    if by == "position" or problems:
        note = (
            "graphs paired by position: --by position"
            if by == "position"
            else f"graphs paired by position: {problems[0]}"
        )
        size = max((len(corpus) for corpus in corpora), default=0)
        rows = []
        for index in range(size):
            entries = tuple(
                corpus[index] if index < len(corpus) else None for corpus in corpora
            )
            ids = {entry.id for entry in entries if entry is not None}
            key = ids.pop() if len(ids) == 1 and None not in ids else f"#{index + 1}"
            rows.append(EntryRow(str(key), entries))
        return Matching(paths, "position", rows, note)
    order: dict[str, list[Entry | None]] = {}
    for position, corpus in enumerate(corpora):
        for entry in corpus:
            assert entry.id is not None
            row = order.setdefault(entry.id, [None] * len(corpora))
            row[position] = entry
    return Matching(
        paths, "id", [EntryRow(key, tuple(row)) for key, row in order.items()]
    )


@dataclass(frozen=True, slots=True)
class GraphPair:
    """Two graphs to score: ``id`` is the row key, ``index`` its 0-based place.

    (From a :class:`~amrcheck.pairing.streaming.PairStream`, ``index`` is the
    reference graph's position in its file, which orders the pairs the same.)
    """

    index: int
    id: str
    candidate: Graph
    reference: Graph


@dataclass(slots=True)
class Pairing:
    """The scorable pairs of two files, and what could not be paired."""

    matching: Matching
    pairs: list[GraphPair]
    #: graphs without a counterpart, each with its place
    unpaired: list[str] = field(default_factory=list)
    #: syntax errors (``file:line:col: CODE message``) of the two files
    errors: list[str] = field(default_factory=list)
    #: keys of the rows left out because a graph has a syntax error
    broken: list[str] = field(default_factory=list)

    @property
    def problems(self) -> list[str]:
        return self.unpaired + self.errors


def _unpaired(matching: Matching, corpora: Sequence[Corpus]) -> list[str]:
    reference, candidate = corpora
    if matching.by == "position" and len(reference) != len(candidate):
        longer, shorter = (
            (reference, candidate)
            if len(reference) > len(candidate)
            else (candidate, reference)
        )
        first = len(shorter)
        return [
            f"{reference.path} has {len(reference)} graphs but {candidate.path} has "
            f"{len(candidate)}: {where(longer[first])}: graph {first + 1} has no "
            f"counterpart in {shorter.path}"
        ]
    lonely = []
    for row in matching.rows:
        ref, cand = row.entries
        if ref is not None and cand is None:
            lonely.append(f"{where(ref)}: ::id {row.key!r} is not in {candidate.path}")
        elif cand is not None and ref is None:
            lonely.append(f"{where(cand)}: ::id {row.key!r} is not in {reference.path}")
    return lonely


def pair_graphs(reference: Corpus, candidate: Corpus, by: PairBy = "auto") -> Pairing:
    """Pair two files for scoring and list everything that cannot be scored.

    Pairs whose graphs both parse are kept; graphs without a counterpart
    and pairs with a syntax error are listed with their places (nothing
    is dropped silently, nothing raises).
    """
    matching = match_entries([reference, candidate], by)
    result = Pairing(matching, [])
    result.unpaired = _unpaired(matching, [reference, candidate])
    result.errors = [str(finding) for finding in reference.errors + candidate.errors]
    for row in matching.rows:
        ref, cand = row.entries
        if ref is None or cand is None:
            continue
        if ref.graph is None or cand.graph is None:
            result.broken.append(row.key)
            for entry in (ref, cand):
                if entry.graph is None and not entry.errors:  # metadata only
                    result.errors.append(f"{where(entry)}: graph {row.key} is empty")
            continue
        result.pairs.append(
            GraphPair(len(result.pairs), row.key, cand.graph, ref.graph)
        )
    return result


def pair_corpora(reference: Corpus, candidate: Corpus) -> list[GraphPair]:
    """Pair every graph of two files, or raise.

    Raises:
        PairingError: a graph has no counterpart (different lengths, or
            ids only one file has) or a syntax error; every problem of
            both files is listed, with its place.
    """
    pairing = pair_graphs(reference, candidate)
    if pairing.problems:
        raise PairingError(pairing.problems)
    return pairing.pairs


class _PairScorer:
    """A picklable ``pair -> Score`` for :func:`amrcheck.execution.run_map`."""

    def __init__(self, metric: Metric, explain: bool) -> None:
        self.metric = metric
        self.explain = explain

    def __call__(self, pair: GraphPair) -> Score:
        return self.metric.score(pair.candidate, pair.reference, explain=self.explain)


def pair_scorer(metric: Metric, explain: bool = False) -> _PairScorer:
    """``pair -> metric.score(pair.candidate, pair.reference)``, picklable."""
    return _PairScorer(metric, explain)


def score_pairs(
    metric: Metric,
    pairs: Sequence[GraphPair],
    jobs: Jobs = 1,
    explain: bool = False,
    settings: dict[str, Any] | None = None,
) -> CorpusScore:
    """Score every pair (in ``jobs`` processes) and aggregate micro and macro.

    Per-pair results are identical whatever ``jobs`` is.
    """
    scores = run_map(_PairScorer(metric, explain), pairs, jobs=jobs)
    return aggregate_scores(metric, scores, settings)


def aggregate_scores(
    metric: Metric, scores: Sequence[Score], settings: dict[str, Any] | None = None
) -> CorpusScore:
    """Micro and macro corpus figures of per-pair ``scores``, with settings."""
    return corpus_score(
        metric, scores, metric_settings(metric) if settings is None else settings
    )


def metric_settings(metric: Metric) -> dict[str, Any]:
    """What a report states about a metric: its ``settings()``, else its options."""
    describe = getattr(metric, "settings", None)
    settings: dict[str, Any] = {}
    alias = getattr(metric, "alias", None)
    if alias is not None:  # reached through an alias ("recommended"): say so
        settings["alias"] = alias
    if callable(describe):
        settings.update(describe())
        return settings
    options = getattr(metric, "options", None)
    if options is not None and dataclasses.is_dataclass(options):
        settings.update(
            {f.name: getattr(options, f.name) for f in dataclasses.fields(options)}
        )
    return settings
