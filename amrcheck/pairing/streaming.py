"""Pairing files (a reference and candidates, or versions, or annotators) in chunks.

Layer: engine, above corpus reading (:func:`amrcheck.reading.corpus.read_chunks`).
It gives the pairs, the order, the keys and the messages of
:func:`amrcheck.pairing.graphs.pair_graphs` (see there for the rules), for files
of any size, holding only a bounded number of graphs at a time:

* all files are read in step, chunk by chunk;
* at a position where the reference graph and the candidate graph have
  the same ``::id``, they pair the same way whether the files end up
  paired by id or by position, and once pairing by position is certain
  (a graph without an id, a repeated id, ``by="position"``) every
  position pairs: such pairs are handed out at once (:meth:`PairStream.in_step`);
* the other positions (ids in another order) wait until every file has
  been read and the pairing is known (:meth:`PairStream.close`, which
  raises what :func:`amrcheck.pairing.graphs.pair_graphs` would report as
  unpaired), then their graphs are read again from their byte offsets
  (:meth:`PairStream.waiting`);
* a candidate graph that cannot be read, or that is not there (by id),
  is handed out as a pair without its candidate (it scores as an empty
  graph), and a reference graph that cannot be read as no pair: each is
  a :class:`~amrcheck.pairing.graphs.Gap` of the :class:`PairingReport`.

Per graph, a :class:`Ledger` keeps its id, place and byte range (about
150 bytes), which the messages and the second reading need.

:class:`RowStream` does the same for the rows of
:func:`amrcheck.pairing.graphs.match_entries` (two or more files, graphs that
only some files have included: ``diff`` and ``iaa``), handing out each
entry as a :class:`Sheet` (plain data and its graph); an entry whose row
must wait is kept as a sheet without its graph until it is read again.

Example:
    >>> from amrcheck.reading.corpus import read_string
    >>> ref = read_string("# ::id 1\\n(a / b)\\n\\n# ::id 2\\n(c / d)\\n", "ref.amr")
    >>> cand = read_string("# ::id 2\\n(c / e)\\n\\n# ::id 1\\n(a / b)\\n", "sys.amr")
    >>> stream = PairStream(ref, [cand])
    >>> [len(batch) for batch in stream.in_step(10)]  # the ids disagree: none yet
    []
    >>> report = stream.close()["sys.amr"]
    >>> report.by, [(p.id, p.candidate.triples) for _, p in next(stream.waiting(10))]
    ('id', [('1', [('a', ':instance', 'b')]), ('2', [('c', ':instance', 'e')])])
"""

from __future__ import annotations

from array import array
from collections.abc import Generator, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import zip_longest
from pathlib import Path
from typing import Literal

from ..errors import InputError
from ..graph import Graph
from ..reading import Entry
from ..reading.corpus import (
    CHUNK_BYTES,
    Chunk,
    Corpus,
    FilePart,
    GraphPlace,
    read_chunks,
    read_graph,
)
from ..reading.files import open_input
from ..reading.metadata import is_metadata_line
from .graphs import (
    Gap,
    GraphPair,
    Mismatch,
    PairBy,
    PairingError,
    Sentence,
    absent_gap,
    absent_problems,
    pairing_rule,
    position_mismatches,
    sentence_of,
    unreadable,
)

#: pairs to score, each with the number of its candidate file
Batch = list[tuple[int, GraphPair]]


class Ledger:
    """What is kept of every graph of one file: id, place, byte range."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.ids: list[str | None] = []
        self.lines = array("q")
        self.columns = array("q")
        #: byte range of the graph, (-1, -1) without a graph
        self.starts = array("q")
        self.ends = array("q")
        #: positions of entries without a graph and without errors (metadata only)
        self.empty: set[int] = set()
        #: (where, why) of every entry without a graph, by position
        self.unreadable: dict[int, tuple[str, str]] = {}
        #: ``file:line:col: CODE message`` of every syntax error, in file order
        self.errors: list[str] = []
        #: first position of each id
        self.positions: dict[str, int] = {}
        #: :data:`~.graphs.Sentence` of each graph, its two hashes apart
        self.sentences = array("q")
        self.tokens = array("q")
        self.missing = 0  # graphs without an id
        self.first_missing = -1
        self.first_repeat = -1

    def __len__(self) -> int:
        return len(self.ids)

    def add(self, entry: Entry, chunk: Chunk) -> None:
        position = len(self.ids)
        key, graph, metadata = entry.id, entry.graph, entry.metadata
        self.ids.append(key)
        # sentence_of reads ::snt and ::tok alone (0 for each one absent)
        sentence, tokens = (
            sentence_of(metadata) if "snt" in metadata or "tok" in metadata else (0, 0)
        )
        self.sentences.append(sentence)
        self.tokens.append(tokens)
        if graph is None:
            line, column = chunk.line_column(entry.graph_start)
            start = end = -1
        else:  # where the graph starts is where the entry's graph starts
            start, end, line, column = chunk.place_numbers(graph)
        self.lines.append(line)
        self.columns.append(column)
        self.starts.append(start)
        self.ends.append(end)
        if graph is None:
            self.unreadable[position] = unreadable(entry)
            if not entry.errors:
                self.empty.add(position)
        if key is None:
            self.missing += 1
            if self.first_missing < 0:
                self.first_missing = position
        elif key in self.positions:
            if self.first_repeat < 0:
                self.first_repeat = position
        else:
            self.positions[key] = position

    @property
    def unfit_for_ids(self) -> bool:
        """Whether pairing by id is ruled out (by what was read so far)."""
        return self.missing > 0 or self.first_repeat >= 0

    def has_graph(self, position: int) -> bool:
        return self.starts[position] >= 0

    def id_at(self, position: int) -> str | None:
        return self.ids[position]

    def sentence_at(self, position: int) -> Sentence:
        return self.sentences[position], self.tokens[position]

    def where(self, position: int) -> str:
        """``file:line:col`` as :func:`amrcheck.pairing.graphs.where` gives it."""
        return f"{self.path}:{self.lines[position]}:{self.columns[position]}"

    def place(self, position: int) -> GraphPlace:
        return GraphPlace(
            self.starts[position],
            self.ends[position],
            self.lines[position],
            self.columns[position],
        )

    def id_problem(self) -> str | None:
        """Why this file cannot be paired by id (as :mod:`.graphs` says)."""
        if self.missing:
            graphs = "graph has" if self.missing == 1 else "graphs have"
            return (
                f"{self.missing} {graphs} no ::id in {self.path} "
                f"(first: {self.where(self.first_missing)})"
            )
        if self.first_repeat >= 0:
            repeated = self.ids[self.first_repeat]
            return f"::id {repeated!r} is repeated in {self.where(self.first_repeat)}"
        return None


class _Source:
    """A file (or a part of one) read chunk by chunk, or a corpus already in memory."""

    def __init__(
        self,
        file: Corpus | str | Path,
        chunk_bytes: int,
        part: FilePart | None = None,
    ) -> None:
        self.corpus = file if isinstance(file, Corpus) else None
        self.path = file.path if isinstance(file, Corpus) else str(file)
        self.chunk_bytes = chunk_bytes
        self.part = part
        self.ledger = Ledger(self.path)

    def entries(self) -> Iterator[Entry]:
        chunks = (
            iter([Chunk(self.corpus, 0)])
            if self.corpus is not None
            else read_chunks(self.path, self.chunk_bytes, self.part)
        )
        for chunk in chunks:
            self.ledger.errors += [str(f) for f in chunk.corpus.errors]
            for entry in chunk.corpus:
                self.ledger.add(entry, chunk)
                yield entry

    def graphs(self, positions: Sequence[int]) -> list[Graph]:
        """The graphs at ``positions``, read again."""
        if self.corpus is not None:
            return [self._graph(self.corpus[p].graph) for p in positions]
        with open_input(self.path) as handle:
            return [
                read_graph(handle, self.path, self.ledger.place(p)) for p in positions
            ]

    @staticmethod
    def _graph(graph: Graph | None) -> Graph:
        assert graph is not None, "only graphs that parsed are read again"
        return graph


@dataclass(slots=True)
class PairingReport:
    """How one candidate file was paired with the reference, and what was left out.

    The fields are those of :class:`amrcheck.pairing.graphs.Pairing` and
    :class:`~amrcheck.pairing.graphs.Matching`, without the graphs.
    """

    path: str
    by: Literal["id", "position"]
    #: why position was used (None when pairing by id)
    note: str | None = None
    #: graphs without a counterpart, each with its place
    unpaired: list[str] = field(default_factory=list)
    #: syntax errors (``file:line:col: CODE message``) of the two files
    errors: list[str] = field(default_factory=list)
    #: candidate graphs that cannot be read or are absent, reference graphs
    #: that cannot be read; in the reference's order
    gaps: list[Gap] = field(default_factory=list)
    #: by position: pairs whose sentences (or forced, ids) differ
    mismatches: list[Mismatch] = field(default_factory=list)

    def finish(
        self,
        errors: list[str],
        empties: Sequence[tuple[int, str]],
        gaps: Sequence[Gap],
    ) -> PairingReport:
        """Set the errors (the files' syntax errors, then the empty graphs,
        from ``(reference position, text)`` in any order) and the gaps."""
        self.errors = errors + [message for _, message in sorted(empties)]
        self.gaps = sorted(gaps, key=lambda gap: gap.position)
        return self


def step_key(ref: Entry, cand: Entry, position: int, by_position: bool) -> str | None:
    """The key of the pair at ``position`` if it is certain as it is read (else None).

    Where the two entries have the same ``::id``, pairing by id or by
    position pairs them alike; other positions pair only by position.
    """
    if ref.id is not None and ref.id == cand.id:
        return ref.id
    return f"#{position + 1}" if by_position else None


def empty_graphs(key: str, places: Iterable[tuple[Ledger, int]]) -> list[str]:
    """The messages for the entries at ``places`` that are metadata only."""
    return [
        f"{ledger.where(position)}: graph {key} is empty"
        for ledger, position in places
        if position in ledger.empty
    ]


def pair_gap(
    key: str, ref: Ledger, ref_position: int, cand: Ledger, cand_position: int
) -> Gap | None:
    """The gap of a pair whose reference graph is there, if it has one:
    the reference or the candidate (-1: absent) cannot be read."""
    if not ref.has_graph(ref_position):
        place, why = ref.unreadable[ref_position]
        return Gap(ref_position, key, "reference", place, why)
    if cand_position < 0:
        return absent_gap(ref_position, key, ref.where(ref_position), cand.path)
    if not cand.has_graph(cand_position):
        place, why = cand.unreadable[cand_position]
        return Gap(ref_position, key, "candidate", place, why)
    return None


class _Pairer:
    """How one candidate pairs with the reference, decided as the files are read."""

    def __init__(self, ref: _Source, cand: _Source, by: PairBy) -> None:
        self.ref, self.cand = ref, cand
        self.by = by
        #: reference positions whose partner is known only at the end
        self.waiting: list[int] = []
        #: pairs that cannot be scored as written
        self.gaps: list[Gap] = []
        #: (reference position, message) of graphs that are metadata only
        self.empties: list[tuple[int, str]] = []
        #: (reference position, candidate position or -1, key) to read again
        self.rows: list[tuple[int, int, str]] = []

    def by_position(self) -> bool:
        """Whether pairing by position is certain already."""
        if self.by != "auto":
            return self.by == "position"
        return self.ref.ledger.unfit_for_ids or self.cand.ledger.unfit_for_ids

    def step(
        self, position: int, ref: Entry | None, cand: Entry | None
    ) -> GraphPair | None:
        """The pair at ``position`` if it is certain now and its reference parses
        (its candidate None when that cannot be read)."""
        if ref is None or cand is None:
            if ref is not None:
                self.waiting.append(position)
            return None
        key = step_key(ref, cand, position, self.by_position())
        if key is None:
            self.waiting.append(position)
            return None
        if not self.note(position, position, key):
            return None
        assert ref.graph is not None
        return GraphPair(position, key, cand.graph, ref.graph)

    def note(self, ref_position: int, cand_position: int, key: str) -> bool:
        """Note the pair's gap and empty graphs; whether it is to be scored
        (its reference parses). ``cand_position`` -1: the candidate is absent."""
        ref, cand = self.ref.ledger, self.cand.ledger
        if (
            cand_position >= 0
            and ref.has_graph(ref_position)
            and cand.has_graph(cand_position)
        ):
            return True  # both graphs parse: no gap, no empty graph
        places = [(ref, ref_position)]
        places += [(cand, cand_position)] if cand_position >= 0 else []
        for message in empty_graphs(key, places):
            self.empties.append((ref_position, message))
        gap = pair_gap(key, ref, ref_position, cand, cand_position)
        if gap is not None:
            self.gaps.append(gap)
        return ref.has_graph(ref_position)

    def close(self) -> PairingReport:
        """Decide the pairing of the whole files and what waits to be read again.

        Raises:
            PairingError: ``by="id"`` but a file cannot be paired by id.
        """
        ref, cand = self.ref.ledger, self.cand.ledger
        problems = [p for p in (self.problem(ref), self.problem(cand)) if p]
        paired_by, note = pairing_rule(self.by, problems)
        if paired_by == "position":
            report = PairingReport(cand.path, "position", note)
            report.mismatches = position_mismatches(self.by, note, [ref, cand])
            report.unpaired = self._unequal()
            partners = {i: i for i in self.waiting if i < len(cand)}
        else:
            report = PairingReport(cand.path, "id")
            report.unpaired = self._lonely()
            # a reference graph the candidate lacks counts as an empty graph
            partners = {
                i: cand.positions.get(key, -1)
                for i in self.waiting
                if (key := ref.ids[i]) is not None
            }
        for i, j in partners.items():
            key = self.key(report.by, i, j)
            if self.note(i, j, key):
                self.rows.append((i, j, key))
        return report.finish(ref.errors + cand.errors, self.empties, self.gaps)

    @staticmethod
    def problem(ledger: Ledger) -> str | None:
        return ledger.id_problem() if len(ledger) else None

    def key(self, by: str, ref_position: int, cand_position: int) -> str:
        ref_id = self.ref.ledger.ids[ref_position]
        if by == "id" or ref_id == self.cand.ledger.ids[cand_position]:
            if ref_id is not None:
                return ref_id
        return f"#{ref_position + 1}"

    def _unequal(self) -> list[str]:
        ref, cand = self.ref.ledger, self.cand.ledger
        if len(ref) == len(cand):
            return []
        longer, shorter = (ref, cand) if len(ref) > len(cand) else (cand, ref)
        first = len(shorter)
        return [
            f"{ref.path} has {len(ref)} graphs but {cand.path} has {len(cand)}: "
            f"{longer.where(first)}: graph {first + 1} has no counterpart in "
            f"{shorter.path}"
        ]

    def _lonely(self) -> list[str]:
        """Candidate graphs the reference lacks (the other way round is a gap)."""
        ref, cand = self.ref.ledger, self.cand.ledger
        return [
            f"{cand.where(j)}: ::id {key!r} is not in {ref.path}"
            for j, key in enumerate(cand.ids)
            if key not in ref.positions
        ]


def check_reports(reports: dict[str, PairingReport], strict: bool) -> None:
    """Raise what keeps the pairings from being used.

    Raises:
        PairingError: a graph has no counterpart (or, with ``strict``, a
            graph has a syntax error or a reference graph is absent from a
            candidate); every problem is listed.
    """
    problems = [u for r in reports.values() for u in r.unpaired]
    if strict:
        problems += [p for r in reports.values() for p in absent_problems(r.gaps)]
        problems += [e for r in reports.values() for e in r.errors]
    if problems:
        raise PairingError(list(dict.fromkeys(problems)))


class PairStream:
    """The scorable pairs of a reference and candidates, read in chunks.

    Use in three steps: :meth:`in_step` while reading, :meth:`close`,
    then :meth:`waiting`. Pairs come as ``(candidate number, pair)``;
    ``pair.index`` is the position of the reference graph, which orders
    each candidate's pairs as :func:`amrcheck.pairing.graphs.pair_graphs` does.
    """

    def __init__(
        self,
        reference: Corpus | str | Path,
        candidates: Sequence[Corpus | str | Path],
        by: PairBy = "auto",
        chunk_bytes: int = CHUNK_BYTES,
    ) -> None:
        self.reference = _Source(reference, chunk_bytes)
        self.candidates = [_Source(c, chunk_bytes) for c in candidates]
        paths = [c.path for c in self.candidates]
        if len(set(paths)) != len(paths):
            raise InputError("a candidate file is given twice", paths[0])
        self.pairers = [_Pairer(self.reference, c, by) for c in self.candidates]

    def in_step(self, size: int) -> Iterator[Batch]:
        """Read every file once; batches of at most ``size`` pairs certain already."""
        streams = [s.entries() for s in (self.reference, *self.candidates)]
        batch: Batch = []
        for position, (ref, *cands) in enumerate(zip_longest(*streams)):
            for number, (pairer, cand) in enumerate(
                zip(self.pairers, cands, strict=True)
            ):
                pair = pairer.step(position, ref, cand)
                if pair is not None:
                    batch.append((number, pair))
            if len(batch) >= size:
                yield batch
                batch = []
        if batch:
            yield batch

    def close(self, strict: bool = False) -> dict[str, PairingReport]:
        """Decide every pairing once :meth:`in_step` is done.

        Raises:
            PairingError: a graph has no counterpart (or, with ``strict``,
                a graph has a syntax error); every problem is listed.
        """
        reports = {p.cand.path: p.close() for p in self.pairers}
        check_reports(reports, strict)
        return reports

    def batches(
        self, size: int, strict: bool = False
    ) -> Generator[Batch, None, dict[str, PairingReport]]:
        """The three steps in one: every batch, then (returned) the pairings."""
        yield from self.in_step(size)
        pairings = self.close(strict)
        yield from self.waiting(size)
        return pairings

    def waiting(self, size: int) -> Iterator[Batch]:
        """The pairs that had to wait, read again, in batches of ``size``."""
        for number, pairer in enumerate(self.pairers):
            rows, cand = pairer.rows, pairer.cand
            for start in range(0, len(rows), size):
                part = rows[start:start + size]
                refs = self.reference.graphs([i for i, _, _ in part])
                readable = [
                    j for _, j, _ in part if j >= 0 and cand.ledger.has_graph(j)
                ]
                cands = dict(zip(readable, cand.graphs(readable), strict=True))
                yield [
                    (number, GraphPair(i, key, cands.get(j), ref))
                    for (i, j, key), ref in zip(part, refs, strict=True)
                ]


# --- rows of several files, for diff and agreement -------------------------


@dataclass(slots=True)
class Sheet:
    """One entry as plain data, with its graph: what a row hands to the work.

    Without its graph a sheet holds no source text, so the sheets kept
    for later are small; the graph's source is the chunk it was read
    from, or only the graph's own text when it was read again.
    """

    path: str
    id: str | None
    metadata: dict[str, str]
    #: the header's ``#`` lines that are not metadata, stripped
    comments: list[str]
    #: syntax errors, ``file:line:col: CODE message``
    errors: list[str]
    #: where the graph starts (where the header ends, without a graph)
    line: int
    column: int
    #: None when the graph did not parse (or is not read yet)
    graph: Graph | None = None
    #: the entry's graph text with white space collapsed, without a graph
    text: str | None = None

    @property
    def where(self) -> str:
        """``file:line:col`` as :func:`amrcheck.pairing.graphs.where` gives it."""
        return f"{self.path}:{self.line}:{self.column}"


def _sheet(entry: Entry, ledger: Ledger, graph: bool) -> Sheet:
    """The sheet of the entry ``ledger`` added last; with its graph or not."""
    text = entry.source.text
    comments = [text[start:end].strip() for start, end in entry.comments]
    return Sheet(
        ledger.path,
        entry.id,
        entry.metadata,
        [line for line in comments if not is_metadata_line(line)],
        [str(f) for f in entry.errors],
        ledger.lines[-1],
        ledger.columns[-1],
        entry.graph if graph else None,
        None
        if entry.graph is not None
        else " ".join(text[entry.graph_start : entry.end].split()),
    )


@dataclass(slots=True)
class Lineup:
    """How the files of a :class:`RowStream` were lined up, and what they held.

    ``by`` and ``note`` are those of :class:`amrcheck.pairing.graphs.Matching`.
    """

    paths: list[str]
    by: Literal["id", "position"]
    note: str | None
    #: entries per file
    sizes: list[int]
    #: syntax errors of every file, in file order, ``file:line:col: CODE message``
    errors: list[str]
    #: by position: pairs whose sentences (or forced, ids) differ
    mismatches: list[Mismatch] = field(default_factory=list)


#: where a row goes in :func:`amrcheck.pairing.graphs.match_entries`' order:
#: (file that has it first, its position there)
RowOrder = tuple[int, int]
#: a row: its order, its key, one sheet per file (None: not in that file)
Row = tuple[RowOrder, str, tuple[Sheet | None, ...]]


class RowStream:
    """The rows of :func:`.graphs.match_entries`, from files read in chunks.

    Every entry is in one row, graphs that only some files have included.
    Use in three steps: :meth:`in_step` while reading, :meth:`close`,
    then :meth:`waiting`. Rows come in batches and in no set order; sort
    them by their :data:`RowOrder` for the order of ``match_entries``.
    The graphs held at once are those of the current chunks and batches:
    a position where every file has the same ``::id`` is a row whatever
    the pairing (so is every position once pairing by position is
    certain) and goes out at once with its graphs; the entries of other
    positions are kept as sheets without graphs until :meth:`close`
    knows the pairing, and their graphs are read again by :meth:`waiting`.

    Example:
        >>> from amrcheck.reading.corpus import read_string
        >>> old = read_string("# ::id 1\\n(a / b)\\n\\n# ::id 2\\n(c / d)\\n", "o")
        >>> new = read_string("# ::id 1\\n(a / e)\\n\\n# ::id 3\\n(c / d)\\n", "n")
        >>> stream = RowStream([old, new])
        >>> [(order, key) for batch in stream.in_step(10) for order, key, _ in batch]
        [((0, 0), '1')]
        >>> stream.close().by
        'id'
        >>> [(order, key, [s is not None for s in sheets])
        ...  for batch in stream.waiting(10) for order, key, sheets in batch]
        [((0, 1), '2', [True, False]), ((1, 1), '3', [False, True])]
    """

    def __init__(
        self,
        files: Sequence[Corpus | str | Path],
        by: PairBy = "auto",
        chunk_bytes: int = CHUNK_BYTES,
    ) -> None:
        self.sources = [_Source(f, chunk_bytes) for f in files]
        self.by = by
        #: per file, position -> sheet (without its graph) of entries that wait
        self.held: list[dict[int, Sheet]] = [{} for _ in files]
        #: (order, key, position per file) of the rows that wait, after
        #: close; by position the key is known once the sheets are read
        self.rows: list[tuple[RowOrder, str | None, tuple[int | None, ...]]] = []

    def _by_position(self) -> bool:
        if self.by != "auto":
            return self.by == "position"
        return any(s.ledger.unfit_for_ids for s in self.sources)

    def in_step(self, size: int) -> Iterator[list[Row]]:
        """Read every file once; batches of at most ``size`` rows certain already."""
        streams = [s.entries() for s in self.sources]
        batch: list[Row] = []
        for position, entries in enumerate(zip_longest(*streams)):
            ids = {e.id if e is not None else None for e in entries}
            agreed = len(ids) == 1 and None not in ids
            if agreed or self._by_position():
                sheets = tuple(
                    None if e is None else _sheet(e, s.ledger, graph=True)
                    for e, s in zip(entries, self.sources, strict=True)
                )
                batch.append(((0, position), _position_key(position, sheets), sheets))
            else:
                for held, e, s in zip(self.held, entries, self.sources, strict=True):
                    if e is not None:
                        held[position] = _sheet(e, s.ledger, graph=False)
            if len(batch) >= size:
                yield batch
                batch = []
        if batch:
            yield batch

    def close(self) -> Lineup:
        """Decide the pairing once :meth:`in_step` is done.

        Raises:
            PairingError: ``by="id"`` but a file has graphs without ids or
                repeats an id (every such file is listed).
        """
        ledgers = [s.ledger for s in self.sources]
        problems = [p for p in (lg.id_problem() for lg in ledgers if len(lg)) if p]
        paired_by, note = pairing_rule(self.by, problems)
        paths = [lg.path for lg in ledgers]
        sizes = [len(lg) for lg in ledgers]
        errors = [e for lg in ledgers for e in lg.errors]
        if paired_by == "position":
            mismatches = position_mismatches(self.by, note, ledgers)
            self._rows_by_position(sizes)
            return Lineup(paths, "position", note, sizes, errors, mismatches)
        self._rows_by_id(ledgers)
        return Lineup(paths, "id", None, sizes, errors)

    def _rows_by_position(self, sizes: list[int]) -> None:
        waiting = sorted({p for held in self.held for p in held})
        self.rows = [
            ((0, p), None, tuple(p if p < n else None for n in sizes)) for p in waiting
        ]

    def _rows_by_id(self, ledgers: list[Ledger]) -> None:
        seen: set[str] = set()
        for number, held in enumerate(self.held):
            for position, sheet in held.items():
                key = sheet.id
                assert key is not None, "pairing by id: every graph has an id"
                if key in seen:
                    continue
                seen.add(key)
                places = tuple(lg.positions.get(key) for lg in ledgers)
                self.rows.append(((number, position), key, places))

    def waiting(self, size: int) -> Iterator[list[Row]]:
        """The rows that waited, their graphs read again, in batches of ``size``."""
        files = range(len(self.sources))
        for start in range(0, len(self.rows), size):
            part = self.rows[start : start + size]
            columns = [self._read_again(k, [r[2][k] for r in part]) for k in files]
            batch: list[Row] = []
            for n, (order, key, _) in enumerate(part):
                sheets = tuple(column[n] for column in columns)
                row_key = _position_key(order[1], sheets) if key is None else key
                batch.append((order, row_key, sheets))
            yield batch

    def _read_again(
        self, number: int, positions: list[int | None]
    ) -> list[Sheet | None]:
        """The sheets of file ``number`` at ``positions``, with their graphs."""
        held, source = self.held[number], self.sources[number]
        sheets = [None if p is None else held.pop(p) for p in positions]
        parsed = [p for p in positions if p is not None and source.ledger.has_graph(p)]
        graphs = dict(zip(parsed, source.graphs(parsed), strict=True))
        for sheet, position in zip(sheets, positions, strict=True):
            if sheet is not None and position in graphs:
                sheet.graph = graphs[position]
        return sheets


def _position_key(position: int, sheets: Sequence[Sheet | None]) -> str:
    """The row key by position: the id every present entry has, else ``#n``."""
    ids = {s.id for s in sheets if s is not None}
    key = ids.pop() if len(ids) == 1 and None not in ids else None
    return f"#{position + 1}" if key is None else key
