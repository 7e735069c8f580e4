"""Reading AMR files into a :class:`Corpus` of :class:`Entry` objects.

Whole files (:func:`read_corpus`), or piece by piece for files too large
to hold (:func:`read_chunks`): each :class:`Chunk` is a :class:`Corpus`
of the entries of a run of whole blocks, with file line numbers, and
:func:`read_graph` reads one graph again from where a chunk saw it.
"""

from __future__ import annotations

import mmap
import os
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO, NamedTuple

from ..errors import DecodeError, InputError, InputTooLargeError
from ..findings import Finding
from ..graph import Graph
from ..span import SourceText
from ._parse import Entry, parse_source
from .files import MAX_HELD_BYTES, decode_utf8, open_input, read_input_text, size_texts


@dataclass(slots=True, eq=False)
class Corpus:
    """The entries of one file, in file order, plus errors outside entries."""

    source: SourceText
    entries: list[Entry]
    #: errors that belong to no entry (stray text in a block with no graph)
    findings: list[Finding] = field(default_factory=list)

    @property
    def path(self) -> str:
        return self.source.path

    def __iter__(self) -> Iterator[Entry]:
        return iter(self.entries)

    def __len__(self) -> int:
        return len(self.entries)

    def __getitem__(self, index: int) -> Entry:
        return self.entries[index]

    @property
    def errors(self) -> list[Finding]:
        """Every reading error: the entries' and the orphans'."""
        found = [e for entry in self.entries for e in entry.errors]
        return sorted(found + self.findings, key=Finding.sort_key)

    def by_id(self) -> dict[str, Entry]:
        """Entries by ``::id`` (the first of duplicated ids wins)."""
        index: dict[str, Entry] = {}
        for entry in self.entries:
            if entry.id is not None:
                index.setdefault(entry.id, entry)
        return index


_LONE_CR_RE = re.compile(r"\r(?!\n)")


def normalize_text(text: str) -> str:
    """Drop a leading BOM; make a lone CR a line end.

    CRLF is kept as it is (the reader treats the CR as white space), so
    offsets into the text stay those of an editor's buffer: the language
    server maps spans to client positions without any translation.
    """
    if text.startswith("\ufeff"):
        text = text[1:]
    return _normalize_newlines(text)


def _normalize_newlines(text: str) -> str:
    return _LONE_CR_RE.sub("\n", text) if "\r" in text else text


def read_text(path: str | Path, max_bytes: int | None = MAX_HELD_BYTES) -> str:
    """Read a regular file of at most ``max_bytes`` as UTF-8.

    Raises:
        InputError: missing, unreadable, or not UTF-8 (with a place).
        RefusedInputError: not a regular file, larger than ``max_bytes``,
            or endless (:mod:`amrcheck.reading.files`).
    """
    return normalize_text(read_input_text(path, max_bytes))


def read_string(text: str, path: str = "<string>") -> Corpus:
    """Read AMR text (any number of graphs) into a Corpus.

    Example:
        >>> corpus = read_string("# ::id a\\n(w / want-01 :ARG0 (b / boy))\\n")
        >>> corpus[0].id, corpus[0].graph.top
        ('a', 'w')
    """
    source = SourceText(normalize_text(text), path)
    entries, orphans = parse_source(source)
    return Corpus(source, entries, orphans)


def read_corpus(path: str | Path, max_bytes: int | None = MAX_HELD_BYTES) -> Corpus:
    """Read an AMR file. Malformed graphs become entries that carry errors.

    The file is held whole: one larger than ``max_bytes`` is refused
    (:func:`read_chunks` reads files of any size).

    Raises:
        InputError: the file is missing, unreadable or not UTF-8.
        RefusedInputError: not a regular file, larger than ``max_bytes``,
            or endless (:mod:`amrcheck.reading.files`).
    """
    source = SourceText(read_text(path, max_bytes), str(path))
    entries, orphans = parse_source(source)
    return Corpus(source, entries, orphans)


#: bytes read at a time by :func:`read_chunks`; a chunk is about this long
#: (a few hundred graphs: small enough to ship to worker processes with them)
CHUNK_BYTES = 1 << 16

# Where a file may be cut into chunks: after a blank line, before a line
# that opens a header or a graph at column 1. The reader never carries
# anything across such a point (see amrcheck.reading._parse), so reading the
# pieces one by one gives exactly the entries of reading the whole file.
# ASCII only, so it never cuts a UTF-8 sequence.
_CUT_RE = re.compile(rb"\n[ \t\r\f\v]*\n(?=[#(])")
# How far back a cut is looked for when more text comes: a cut missed in
# a blank line longer than this only makes a chunk longer.
_BLANK_LINE_REACH = 256
#: what ``_CUT_RE`` allows on a blank line, as byte values
_BLANKS = frozenset(b" \t\r\f\v")
_NEWLINE = ord("\n")
_OPEN_PAREN = ord("(")
_BOM = "\ufeff".encode()


class GraphPlace(NamedTuple):
    """Where a graph's text is in its file: bytes, and its first line and column."""

    start: int
    end: int
    line: int
    column: int


@dataclass(slots=True, eq=False)
class Chunk:
    """A run of whole blocks of a file, read into a :class:`Corpus`.

    Spans count lines from the start of the file (``source.first_line``)
    and offsets from the start of the chunk, which is ``byte_offset`` bytes
    into the file.
    """

    corpus: Corpus
    byte_offset: int
    #: (offset, its byte offset) of the last :meth:`place`, to go on from
    _mark: tuple[int, int] = (0, 0)
    _ascii: bool | None = None  # then offsets are byte offsets
    #: (offset, its line) of the last :meth:`line_column`, to go on from
    _line_mark: tuple[int, int] | None = None

    def place(self, graph: Graph) -> GraphPlace:
        """Where :func:`read_graph` finds ``graph`` (one of this chunk's) again."""
        return GraphPlace(*self.place_numbers(graph))

    def place_numbers(self, graph: Graph) -> tuple[int, int, int, int]:
        """:meth:`place`'s start byte, end byte, line and column, as a plain
        tuple: a named tuple's constructor runs interpreted, and the pairing
        ledger places every graph."""
        line, column = self.line_column(graph.start)
        return self._byte(graph.start), self._byte(graph.end), line, column

    def line_column(self, offset: int) -> tuple[int, int]:
        """``source.line_column(offset)``, without building the line table.

        Asked in text order, as a reader of the chunk's entries asks, the
        lines are counted on from the last answer: linear in the chunk.
        """
        text = self.corpus.source.text
        done, line = self._line_mark or (0, self.corpus.source.first_line)
        if done > offset:
            done, line = 0, self.corpus.source.first_line
        line += text.count("\n", done, offset)
        self._line_mark = (offset, line)
        return line, offset - text.rfind("\n", 0, offset)

    def _byte(self, offset: int) -> int:
        """The file's byte offset of ``offset`` into this chunk's text (asked
        in text order, as :meth:`place` asks, it is linear in the chunk)."""
        text = self.corpus.source.text
        if self._ascii is None:
            self._ascii = text.isascii()
        if self._ascii:
            return self.byte_offset + offset
        # graphs are placed in text order, so encoding goes on from the last
        # place instead of from the start: linear in the chunk
        done, done_bytes = self._mark if self._mark[0] <= offset else (0, 0)
        between = text[done:offset]  # most of it ASCII: then no encoding
        done_bytes += len(between) if between.isascii() else len(between.encode())
        self._mark = (offset, done_bytes)
        return self.byte_offset + done_bytes


class FilePart(NamedTuple):
    """A byte range of a file that starts where the reader may cut it.

    ``line`` is the file line it starts on, ``raw_lines`` the ``\\n``
    bytes before it (for the places of UTF-8 errors) and ``first_entry``
    the :attr:`Entry.index` of its first entry, as counted by
    graph-opening lines (:func:`split_file`): whoever reads the part
    checks that count.
    """

    start: int
    end: int
    line: int
    raw_lines: int
    first_entry: int


def read_chunks(
    path: str | Path,
    chunk_bytes: int = CHUNK_BYTES,
    part: FilePart | None = None,
    max_block: int = MAX_HELD_BYTES,
) -> Iterator[Chunk]:
    """Read an AMR file piece by piece; the entries are those of :func:`read_corpus`.

    Only one chunk (about ``chunk_bytes`` long, or one block if a block
    is longer) is held at a time, whatever the size of the file. Chunks
    end at blank lines, so a file without blank lines between its graphs
    (or with lone CRs for line ends) is read as one chunk, up to
    ``max_block`` bytes. With ``part``, only that range is read, its
    entries those of the whole file there.

    Raises:
        InputError: the file is missing, unreadable or not UTF-8 (the
            latter when the reader gets there).
        RefusedInputError: not a regular file, endless, or (when the
            reader gets there) more than ``max_block`` bytes without a
            blank line.
    """
    name = str(path)
    with open_input(name) as handle:
        pending, offset, more = bytearray(), 0, True
        first_line, first_index, raw_lines = 1, 0, 0
        left = -1  # bytes of the part still to read (-1: to the end)
        if part is not None:
            handle.seek(part.start)
            offset, left = part.start, part.end - part.start
            first_line, raw_lines = part.line, part.raw_lines
            first_index = part.first_entry
        while more:
            want = chunk_bytes if left < 0 else min(chunk_bytes, left)
            data = _read(handle, want, name)
            if left >= 0:
                left -= len(data)
            more = bool(data)
            # only the new data (and a blank line before it) can hold a new cut
            scan = max(0, len(pending) - _BLANK_LINE_REACH)
            pending += data
            cut = _last_cut(pending, scan) if more else len(pending)
            if not cut:
                if len(pending) > max_block:
                    size, limit = size_texts(len(pending), max_block)
                    raise InputTooLargeError(
                        f"{first_line}:1: no blank line between graphs in the "
                        f"{size} from here, more than the {limit} held at once "
                        "(is it an AMR file?)",
                        name,
                    )
                continue
            piece = pending[:cut]
            del pending[:cut]
            decoded = decode_utf8(piece, name, raw_lines)
            text = _normalize_newlines(decoded)
            skipped = len(_BOM) if offset == 0 and text.startswith("\ufeff") else 0
            source = SourceText(text[1 if skipped else 0:], name, first_line)
            entries, orphans = parse_source(source, first_index=first_index)
            yield Chunk(Corpus(source, entries, orphans), offset + skipped)
            offset += len(piece)
            lines = piece.count(b"\n")
            raw_lines += lines
            # one count: the text's lines are the bytes' unless lone CRs
            # became line ends
            first_line += lines if text is decoded else text.count("\n")
            first_index += len(entries)


def read_errors(path: str | Path) -> list[str]:
    """Every reading error of a file (``file:line:col: CODE message``), in file order.

    The file is read in chunks (:func:`read_chunks`): a cheap first look
    for commands that stop on syntax errors before doing any work.

    Raises:
        InputError: the file is missing, unreadable or not UTF-8, or
            refused (:func:`read_chunks`).
    """
    return [str(f) for chunk in read_chunks(path) for f in chunk.corpus.errors]


def _read(handle: BinaryIO, size: int, name: str) -> bytes:
    try:
        return handle.read(size)
    except OSError as exc:
        raise InputError(exc.strerror or str(exc), name) from None


def _last_cut(data: bytes | bytearray, start: int) -> int:
    """The last place where ``data`` may be cut, looking from ``start`` (0: none):
    the end of the last match of ``_CUT_RE`` that starts at ``start`` or after.

    Searched from the end (``rfind`` of the lines that open with ``(`` or
    ``#``, then a look back over the blanks before them), so a chunk costs
    about its last entry, not a regex scan of all of it. Matches of
    ``_CUT_RE`` never overlap (each ends before a ``#`` or ``(``), so the
    last one is the last line start that qualifies.
    """
    opens = data.rfind(b"\n(", start)
    header = data.rfind(b"\n#", start)
    while opens >= 0 or header >= 0:
        newline = max(opens, header)  # ends the blank line, if one is before it
        before = newline - 1
        while before >= start and data[before] in _BLANKS:
            before -= 1
        if before >= start and data[before] == _NEWLINE:
            return newline + 1
        # the next candidates end before this one
        if newline == opens:
            opens = data.rfind(b"\n(", start, newline + 1)
        else:
            header = data.rfind(b"\n#", start, newline + 1)
    return 0


def is_amr_name(path: str | Path) -> bool:
    """Whether ``path`` is named as an AMR file (``.amr``): it is read as AMR,
    never looked into for UMR headings (so an AMR score never loads UMR's
    reader; :func:`~amrcheck.reading.umr_corpus.umr_as_corpus`)."""
    return str(path).lower().endswith(".amr")


def count_graph_lines(path: str | Path) -> int:
    """Lines that open with ``(``: about the number of graphs, without parsing.

    Raises:
        InputError: the file is missing or unreadable, or refused
            (:func:`amrcheck.reading.files.open_input`).
    """
    count, after_newline = 0, True  # a "(" that starts the file counts
    try:
        # in blocks: files may be large; small ones, and nothing joined, as
        # blocks of a MiB took fresh memory (pages the kernel zeroes) each
        with open_input(path) as handle:
            while block := handle.read(CHUNK_BYTES):
                if after_newline and block[0] == _OPEN_PAREN:
                    count += 1  # a "\n(" across two blocks
                count += block.count(_GRAPH_LINE)
                after_newline = block[-1] == _NEWLINE
    except OSError as exc:
        raise InputError(exc.strerror or str(exc), str(path)) from None
    return count


def graph_count(file: Corpus | str | Path) -> int:
    """About the number of graphs: a corpus's entries, a file's graph-opening lines."""
    return len(file) if isinstance(file, Corpus) else count_graph_lines(file)


#: what :func:`split_file` counts: a line that opens with ``(`` (after the first)
_GRAPH_LINE = b"\n("
#: how far before a graph-opening line its header may start, for a cut
_HEADER_REACH = 1 << 16


def split_file(path: str | Path, ordinals: Sequence[int]) -> list[FilePart] | None:
    """The file in parts that start before graph-opening lines ``ordinals``.

    ``ordinals`` are increasing 0-based numbers of lines that open with
    ``(`` (the first is 0: the file's start); each part starts at the
    reader's cut before that line, which is where the entry holding that
    graph begins, so the parts read one by one give the file's entries.
    None when a cut cannot be placed (no blank line before a header, a
    header too long, fewer graph lines) or the file holds lone CRs.

    Raises:
        InputError: the file is missing or unreadable, or refused
            (:func:`amrcheck.reading.files.open_input`).
    """
    try:
        with open_input(path) as handle:
            size = os.fstat(handle.fileno()).st_size
            if size == 0:
                return None
            # the size when opened: a file that grew since is not mapped further
            with mmap.mmap(handle.fileno(), size, access=mmap.ACCESS_READ) as data:
                return _split(data, size, ordinals)
    except OSError as exc:
        raise InputError(exc.strerror or str(exc), str(path)) from None


def _split(
    data: mmap.mmap, size: int, ordinals: Sequence[int]
) -> list[FilePart] | None:
    starts = [0]
    found, position = 0, 0  # graph lines before `position` (the one at 0 too)
    if data[:1] == b"(":
        found = position = 1
    for ordinal in ordinals[1:]:
        line = _nth_graph_line(data, size, position, ordinal - found)
        if line < 0:
            return None
        found, position = ordinal + 1, line + 1
        cut = _cut_before(data, line)
        if cut <= starts[-1]:
            return None
        starts.append(cut)
    if _count(data, b"\r", 0, size) != _count(data, b"\r\n", 0, size):
        return None  # lone CRs: the reader counts them as line ends too
    parts: list[FilePart] = []
    raw, done = 0, 0
    for start, end in zip(starts, [*starts[1:], size], strict=True):
        raw, done = raw + _count(data, b"\n", done, start), start
        parts.append(FilePart(start, end, raw + 1, raw, ordinals[len(parts)]))
    return parts


def _count(data: mmap.mmap, pattern: bytes, start: int, end: int) -> int:
    """Occurrences of ``pattern`` starting in ``[start, end)``, a block at a time."""
    total, block = 0, 1 << 20
    for at in range(start, end, block):
        stop = min(at + block, end)
        total += data[at : min(stop + len(pattern) - 1, len(data))].count(pattern)
    return total


def _nth_graph_line(data: mmap.mmap, size: int, start: int, n: int) -> int:
    """Offset of the ``(`` of the ``n``-th graph line from ``start`` (-1: none)."""
    block = 1 << 20
    at = start
    while at < size:
        stop = min(at + block, size)
        seen = data[at : min(stop + 1, size)].count(_GRAPH_LINE)
        if seen > n:
            break
        n -= seen
        at = stop
    else:
        return -1
    position = at
    for _ in range(n + 1):
        position = data.find(_GRAPH_LINE, position) + 1
    return position


def _cut_before(data: mmap.mmap, line: int) -> int:
    """The reader's cut just before the entry whose graph opens at ``line`` (or -1)."""
    low = max(0, line - _HEADER_REACH)
    cut = -1
    for match in _CUT_RE.finditer(data[low : line + 1]):
        cut = low + match.end()
    # only the entry's header (no other graph line) may lie between
    if cut < 0 or data.find(_GRAPH_LINE, cut - 1, line - 1) >= 0:
        return -1
    return cut


def read_graph(handle: BinaryIO, path: str, place: GraphPlace) -> Graph:
    """Read again the graph at ``place`` of the open file ``handle`` (named ``path``).

    The graph's text is read alone, indented to its column, so its spans
    are those of the file's lines.

    Raises:
        InputError: there is no graph there any more (the file changed).
    """
    handle.seek(place.start)
    size = place.end - place.start
    data = _read(handle, size, path)
    entries: list[Entry] = []
    if len(data) == size:  # the bytes were valid UTF-8 when the file was read
        text = _normalize_newlines(data.decode("utf-8", errors="replace"))
        padded = SourceText(" " * (place.column - 1) + text, path, place.line)
        entries = parse_source(padded)[0]
    graph = entries[0].graph if len(entries) == 1 else None
    if graph is None:
        raise InputError(
            f"{place.line}:{place.column}: the file changed while being read", path
        )
    return graph


def decode(text: str) -> Graph:
    """Decode exactly one graph; raise DecodeError (with its span) otherwise.

    Example:
        >>> decode("(d / dog :quant 2)").triples
        [('d', ':instance', 'dog'), ('d', ':quant', '2')]
    """
    corpus = read_string(text)
    if corpus.errors:
        first = corpus.errors[0]
        raise DecodeError(f"{first.code} {first.message}", first.span)
    graphs = [entry.graph for entry in corpus if entry.graph is not None]
    if len(graphs) != 1:
        raise DecodeError(f"expected one graph, found {len(graphs)}")
    return graphs[0]
