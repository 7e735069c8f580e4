"""Pair the graphs of several versions of a file, and score graph pairs.

Layer: engine, above corpus reading and the metrics. Two or more files
(a reference and a candidate, an old and a new version, several
annotators) are lined up graph by graph:

* by ``::id`` when every graph of every file has one and no file repeats
  an id — the order of the files may then differ;
* else by position (the n-th graph of each file), with a
  :attr:`Matching.note` that says why, so that front ends can tell
  their users (:func:`how_paired`);
* by position, graphs whose ``::id`` both say they are different
  sentences are an error (unless the caller forces position), and
  graphs whose sentences (``::snt``, else ``::tok``) differ are each a
  :class:`Mismatch` to warn about (:func:`position_mismatches`).

:func:`pairing_rule` and :func:`position_mismatches` are the rule; the
streaming readers (:mod:`.streaming`) apply the same functions to what
they keep of each graph.

:func:`match_entries` returns every row, including graphs that only
some files have; :func:`pair_graphs` keeps the rows that can be scored
and lists, each with its place (``file:line:col``), every :class:`Gap`:
a candidate graph that cannot be read, or that is not there when pairing
by id (such a pair is kept, its candidate None: it counts as an empty
graph, :meth:`amrcheck.metrics.Metric.score_missing`, unless the caller
leaves it out), and a reference graph that cannot be read (its pair
cannot be judged and is left out). :func:`pair_corpora` is the strict
form that raises instead.

Note the order: files are given reference first, as on the command line,
while metrics take ``score(candidate, reference)``.

Example:
    >>> from amrcheck.reading.corpus import read_string
    >>> from amrcheck.metrics import get_metric
    >>> ref = read_string("(a / b)\\n\\n(c / d)\\n", "ref.amr")
    >>> cand = read_string("(a / b)\\n\\n(c / e)\\n", "cand.amr")
    >>> result = score_corpus(get_metric("smatch"), pair_corpora(ref, cand))
    >>> [round(p.f1, 2) for p in result.pairs], round(result.micro.f1, 2)
    ([1.0, 0.5], 0.75)
    >>> broken = read_string("(a / b)\\n\\n(c / e\\n", "broken.amr")
    >>> pairing = pair_graphs(ref, broken)
    >>> [(p.id, p.candidate is None) for p in pairing.pairs]
    [('#1', False), ('#2', True)]
    >>> print(pairing.gaps[0])
    broken.amr:3:7: graph #2: E001 unbalanced parentheses: 1 '(' not closed
    >>> round(score_corpus(get_metric("smatch"), pairing.pairs).micro.f1, 2)
    0.67
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
from typing import Any, Literal, Protocol

from ..errors import InputError
from ..execution import Jobs, run_map
from ..graph import Graph
from ..metrics import CorpusScore, Metric, Score, corpus_score
from ..reading import Entry
from ..reading.corpus import Corpus
from ..span import Span

PairBy = Literal["auto", "id", "position"]
#: why a pairing is by position when the user asked for it
BY_POSITION_NOTE = "graphs paired by position: --pair-by position"
#: a graph's sentence as pairing compares it: hashes of its ``::snt`` and
#: ``::tok`` with white space collapsed (0: none)
Sentence = tuple[int, int]


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
    #: by position: pairs whose sentences (or forced, ids) differ
    mismatches: list[Mismatch] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class Mismatch:
    """Two graphs paired by position whose sentences differ (or, when the
    user forced position, whose ids differ): ``places`` are their
    ``file:line:col``, the first file's first."""

    key: str
    what: Literal["sentence", "::id"]
    places: tuple[str, str]

    def __str__(self) -> str:
        return (
            f"{self.places[0]}: graph {self.key} is paired by position with "
            f"{self.places[1]}, but their {self.what}s differ"
        )

    def as_dict(self) -> dict[str, Any]:
        return {"key": self.key, "what": self.what, "places": list(self.places)}


def how_paired(by: Literal["id", "position"], note: str | None) -> str:
    """The line every pairing command prints: by id, or by position and why."""
    if by == "id":
        return "graphs paired by ::id"
    return note or BY_POSITION_NOTE


def mismatch_lines(mismatches: Sequence[Mismatch], shown: int = 10) -> list[str]:
    """The warnings about ``mismatches``: a count, then the first ``shown``."""
    if not mismatches:
        return []
    count = len(mismatches)
    pairs = "pair has" if count == 1 else "pairs have"
    lines = [
        f"warning: {count:,} {pairs} different sentences or ids: pairing by "
        "position may pair graphs of different sentences"
    ]
    lines += [f"  {m}" for m in mismatches[:shown]]
    if count > shown:
        lines.append(f"  ... and {count - shown:,} more (all in --json)")
    return lines


def sentence_of(metadata: dict[str, str]) -> Sentence:
    """:data:`Sentence` of an entry's metadata."""
    return _text_hash(metadata.get("snt")), _text_hash(metadata.get("tok"))


def _text_hash(text: str | None) -> int:
    """A text's hash, white space collapsed (0: no text; never 0 otherwise)."""
    return (hash(" ".join(text.split())) or 1) if text else 0


def sentences_differ(a: Sentence, b: Sentence) -> bool:
    """Whether two graphs say they are different sentences: their ``::snt``
    differ, or (one lacks it) their ``::tok`` differ."""
    if a[0] and b[0]:
        return a[0] != b[0]
    return bool(a[1] and b[1] and a[1] != b[1])


class PositionView(Protocol):
    """What :func:`position_mismatches` needs of a file, by position."""

    path: str

    def __len__(self) -> int: ...

    def id_at(self, position: int) -> str | None: ...

    def sentence_at(self, position: int) -> Sentence: ...

    def where(self, position: int) -> str: ...


def pairing_rule(
    by: PairBy, problems: Sequence[str]
) -> tuple[Literal["id", "position"], str | None]:
    """How files pair (``id`` or ``position``) and why by position, given
    ``problems``: why some file cannot be paired by id.

    Raises:
        PairingError: ``by="id"`` but there are problems.
    """
    if by == "id" and problems:
        raise PairingError(list(problems))
    if by == "position":
        return "position", BY_POSITION_NOTE
    if problems:
        return "position", f"graphs paired by position: {problems[0]}"
    return "id", None


def position_mismatches(
    by: PairBy, note: str | None, files: Sequence[PositionView]
) -> list[Mismatch]:
    """The pairs by position (each later file against the first) whose
    sentences differ, and, when ``by="position"`` (forced), whose ids differ.

    Raises:
        PairingError: not forced (``by="auto"``), and two graphs paired by
            position have ids that differ: the first such pair is named.
    """
    first, *others = files
    found: list[Mismatch] = []
    for other in others:
        for position in range(min(len(first), len(other))):
            a, b = first.id_at(position), other.id_at(position)
            places = (first.where(position), other.where(position))
            key = f"#{position + 1}"
            if a is not None and b is not None and a != b:
                if by != "position":
                    raise PairingError([
                        f"{places[0]}: ::id {a!r} is paired by position with "
                        f"::id {b!r} at {places[1]} ({note}); give the files "
                        "the same ids, or --pair-by position to pair them anyway"
                    ])
                found.append(Mismatch(key, "::id", places))
            elif sentences_differ(
                first.sentence_at(position), other.sentence_at(position)
            ):
                same = a if a is not None and a == b else key
                found.append(Mismatch(same, "sentence", places))
    return found


class _CorpusView:
    """A read corpus as a :class:`PositionView`."""

    def __init__(self, corpus: Corpus) -> None:
        self.corpus = corpus
        self.path = corpus.path

    def __len__(self) -> int:
        return len(self.corpus)

    def id_at(self, position: int) -> str | None:
        return self.corpus[position].id

    def sentence_at(self, position: int) -> Sentence:
        return sentence_of(self.corpus[position].metadata)

    def where(self, position: int) -> str:
        return where(self.corpus[position])


def where(entry: Entry) -> str:
    """``file:line:col`` of an entry's graph (or of its header if it has none)."""
    return str(Span(entry.source, entry.graph_start, entry.end))


def _id_problem(corpus: Corpus, ids: Sequence[str | None]) -> str | None:
    """Why ``corpus`` (whose entries have ``ids``) cannot be paired by id
    (None: it can)."""
    if not ids:
        return None
    if None in ids:
        without = [entry for entry in corpus if entry.id is None]
        count = len(without)
        graphs = "graph has" if count == 1 else "graphs have"
        return f"{count} {graphs} no ::id in {corpus.path} (first: {where(without[0])})"
    if len(set(ids)) < len(ids):
        seen: set[str | None] = set()
        for entry, key in zip(corpus, ids, strict=True):
            if key in seen:
                return f"::id {key!r} is repeated in {where(entry)}"
            seen.add(key)
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
            repeats an id; or ``by="auto"`` pairs by position graphs whose
            ids differ (:func:`position_mismatches`).
    """
    paths = [corpus.path for corpus in corpora]
    # each entry's id read once (an edit in the editor pairs 1,500 graphs)
    ids = [[entry.id for entry in corpus] for corpus in corpora]
    problems = [
        p for p in map(_id_problem, corpora, ids) if p is not None
    ]
    paired_by, note = pairing_rule(by, problems)
    if paired_by == "position":
        views = [_CorpusView(corpus) for corpus in corpora]
        mismatches = position_mismatches(by, note, views) if views else []
        size = max((len(corpus) for corpus in corpora), default=0)
        rows = []
        for index in range(size):
            entries = tuple(
                corpus[index] if index < len(corpus) else None for corpus in corpora
            )
            same = {keys[index] for keys in ids if index < len(keys)}
            key = same.pop() if len(same) == 1 and None not in same else None
            rows.append(EntryRow(f"#{index + 1}" if key is None else key, entries))
        return Matching(paths, "position", rows, note, mismatches)
    order: dict[str, list[Entry | None]] = {}
    for position, (corpus, keys) in enumerate(zip(corpora, ids, strict=True)):
        for entry, key in zip(corpus, keys, strict=True):
            assert key is not None
            row = order.get(key)
            if row is None:
                row = order[key] = [None] * len(corpora)
            row[position] = entry
    return Matching(
        paths, "id", [EntryRow(key, tuple(row)) for key, row in order.items()]
    )


@dataclass(frozen=True, slots=True)
class GraphPair:
    """Two graphs to score: ``id`` is the row key, ``index`` the reference
    graph's 0-based position in its file (which orders the pairs).

    ``candidate`` is None when the candidate graph cannot be read or is
    not there (a :class:`Gap`): it scores as an empty graph.
    """

    index: int
    id: str
    candidate: Graph | None
    reference: Graph


@dataclass(frozen=True, slots=True)
class Gap:
    """A pair that cannot be scored as written, and why.

    ``side`` is whose graph is missing: the ``candidate``'s (it cannot be
    read, or ``absent``: the candidate file has no graph with this
    ``::id``) or the ``reference``'s (it cannot be read: the pair cannot
    be judged). ``where`` is ``file:line:col`` of the problem (of the
    reference graph when the candidate is absent); ``position`` is the
    reference graph's, which orders gaps as their pairs.
    """

    position: int
    key: str
    side: Literal["candidate", "reference"]
    where: str
    why: str
    absent: bool = False

    def __str__(self) -> str:
        return f"{self.where}: graph {self.key}: {self.why}"

    def counts_as_empty(self, skip_unreadable: bool = False) -> bool:
        """Whether the pair is scored with an empty candidate graph; if not,
        every score leaves it out (the reference cannot be read, or the
        caller asked to skip unreadable candidates)."""
        return self.side == "candidate" and not skip_unreadable


def unreadable(entry: Entry) -> tuple[str, str]:
    """(``where``, ``why``) of an entry without a graph, for its :class:`Gap`:
    its first syntax error, or its header without a graph."""
    if entry.errors:
        first = entry.errors[0]
        return str(first.span), f"{first.code} {first.message}"
    return where(entry), "no graph after the header"


def absent_gap(position: int, key: str, place: str, candidate: str) -> Gap:
    """The gap of a reference graph (at ``place``) that ``candidate`` lacks."""
    why = f"::id {key!r} is not in {candidate}"
    return Gap(position, key, "candidate", place, why, absent=True)


@dataclass(slots=True)
class Pairing:
    """The pairs of two files, and what could not be paired or read."""

    matching: Matching
    #: the pairs to score, a None candidate for each candidate-side gap
    pairs: list[GraphPair]
    #: graphs without a counterpart that are errors (by position: files of
    #: different lengths; by id: candidate graphs the reference lacks)
    unpaired: list[str] = field(default_factory=list)
    #: syntax errors (``file:line:col: CODE message``) of the two files
    errors: list[str] = field(default_factory=list)
    #: candidate graphs that cannot be read or are absent, reference graphs
    #: that cannot be read; in the reference's order
    gaps: list[Gap] = field(default_factory=list)

    @property
    def problems(self) -> list[str]:
        """Everything that keeps the files from pairing in full (strict mode)."""
        return self.unpaired + absent_problems(self.gaps) + self.errors


def absent_problems(gaps: Sequence[Gap]) -> list[str]:
    """The absent candidate graphs as the pairing errors they are when strict."""
    return [f"{gap.where}: {gap.why}" for gap in gaps if gap.absent]


def gap_lines(label: str, gaps: Sequence[Gap], skip: bool = False) -> list[str]:
    """:func:`gap_report` of ``gaps``, split by how they count
    (``skip``: unreadable candidates are left out)."""
    counted = [gap for gap in gaps if gap.counts_as_empty(skip)]
    left_out = [gap for gap in gaps if not gap.counts_as_empty(skip)]
    return gap_report(label, counted, left_out)


def gap_report(path: str, counted: Sequence[Gap], left_out: Sequence[Gap]) -> list[str]:
    """What became of the graphs of ``path`` that could not be scored as
    written: a headline per kind, then each (``file:line:col: graph KEY: why``).

    Every report of a corpus score (command line, HTML) says it this way.
    """
    skipped = [gap for gap in left_out if gap.side == "candidate"]
    judged = [gap for gap in left_out if gap.side == "reference"]
    lines = []
    for gaps, headline in (
        (counted, "{} unreadable or missing, counted as an empty graph (F1 0)"),
        (skipped, "{} unreadable or missing, left out of the scores "
                  "(--skip-unreadable)"),
        (judged, "{} left out of the scores: the reference graph is unreadable"),
    ):
        if gaps:
            noun = "pair" if gaps is judged else "candidate graph"
            lines.append(f"{path}: {headline.format(_plural(len(gaps), noun))}:")
            lines += [f"  {gap}" for gap in gaps]
    return lines


def _plural(count: int, word: str) -> str:
    return f"{count:,} {word}{'' if count == 1 else 's'}"


def _unpaired(matching: Matching, corpora: Sequence[Corpus]) -> list[str]:
    """Graphs without a counterpart that keep the files from pairing.

    A reference graph the candidate lacks (by id) is not among them: it
    is a :class:`Gap` (the candidate counts as an empty graph).
    """
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
    return [
        f"{where(cand)}: ::id {row.key!r} is not in {reference.path}"
        for row in matching.rows
        if (cand := row.entries[1]) is not None and row.entries[0] is None
    ]


def pair_graphs(reference: Corpus, candidate: Corpus, by: PairBy = "auto") -> Pairing:
    """Pair two files for scoring and list everything that cannot be scored.

    Every reference graph that can be read is in a pair, in the
    reference's order; its candidate is None when the candidate graph
    cannot be read or is not there (by id). Each such graph, and each
    reference graph that cannot be read, is a :class:`Gap` with its
    place; graphs that keep the files from pairing are ``unpaired``.
    Nothing is dropped silently, nothing raises.
    """
    matching = match_entries([reference, candidate], by)
    result = Pairing(matching, [])
    result.unpaired = _unpaired(matching, [reference, candidate])
    result.errors = [str(finding) for finding in reference.errors + candidate.errors]
    by_id = matching.by == "id"
    for row in matching.rows:
        ref, cand = row.entries
        if ref is None or (cand is None and not by_id):
            continue  # unpaired: candidate only, or files of different lengths
        for entry in (ref, cand):
            if entry is not None and entry.graph is None and not entry.errors:
                result.errors.append(f"{where(entry)}: graph {row.key} is empty")
        position = ref.index
        if ref.graph is None:
            place, why = unreadable(ref)
            result.gaps.append(Gap(position, row.key, "reference", place, why))
            continue
        if cand is None:
            gap = absent_gap(position, row.key, where(ref), candidate.path)
            result.gaps.append(gap)
        elif cand.graph is None:
            place, why = unreadable(cand)
            result.gaps.append(Gap(position, row.key, "candidate", place, why))
        graph = None if cand is None else cand.graph
        result.pairs.append(GraphPair(position, row.key, graph, ref.graph))
    return result


def pair_corpora(reference: Corpus, candidate: Corpus) -> list[GraphPair]:
    """Pair every graph of two files, or raise.

    Every pair returned has both graphs.

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
        if pair.candidate is None:
            return self.metric.score_missing(pair.reference)
        return self.metric.score(pair.candidate, pair.reference, explain=self.explain)


def pair_scorer(metric: Metric, explain: bool = False) -> _PairScorer:
    """``pair -> metric.score(pair.candidate, pair.reference)``, picklable.

    A pair without its candidate graph scores
    :meth:`~amrcheck.metrics.Metric.score_missing`.
    """
    return _PairScorer(metric, explain)


def score_corpus(
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
