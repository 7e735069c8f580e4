"""Reading UMR files: sentences of four blocks, every item with its place.

A UMR file (one document) is a sequence of sentences; each sentence has
a token block (``# :: sntN``, ``Words:`` and interlinear rows), a
sentence-level graph (PENMAN, read by the AMR reader), an alignment block
(``s1p: 3-3``) and a document-level block (``(s1s0 / sentence :temporal
((a :before b)))``). ``../shared/UMR.md`` describes the format.

How text is cut into sentences and blocks (the layouts of the UMR 3.0
release included, which differ from the ÚFAL specification):

* a sentence starts at its header lines (a rule of ``#``, ``# meta-info``,
  ``# :: sntN``) once the current sentence has a body; a block heading that
  the current sentence already passed starts a sentence too, and so does
  content after two empty lines that follows a document-level block;
* inside a sentence, block headings (``# sentence level graph:``,
  ``# alignment:``, ``# document level annotation:``) say where blocks
  start, with or without empty lines before them; without headings, an
  empty line followed by content starts the next block.

Layout deviations (a missing heading, two empty lines inside a sentence,
no empty line before a heading) are recorded as :class:`LayoutNote` data
for the validator; reading goes on and takes the blocks as the authors
meant them. A broken sentence (unclosed graph, bad alignment line) keeps
its error in :attr:`UmrSentence.errors`; nothing is dropped.

Each sentence has its own :class:`~amrcheck.span.SourceText` (a piece of
the file with the file's line numbers), so files of any size are read
sentence by sentence in bounded memory (:func:`iter_umr_file`).

Example:
    >>> doc = read_umr_string(
    ...     "# :: snt1\\nWords: Dogs bark\\n\\n# sentence level graph:\\n"
    ...     "(s1b / bark-01 :ARG0 (s1d / dog))\\n\\n# alignment:\\ns1b: 2-2\\n"
    ...     "s1d: 1-1\\n\\n# document level annotation:\\n(s1s0 / sentence)\\n\\n\\n")
    >>> sentence = doc.sentences[0]
    >>> sentence.number, [w.text for w in sentence.words], sentence.graph.top
    (1, ['Dogs', 'bark'], 's1b')
    >>> [(a.variable, a.ranges) for a in sentence.alignments]
    [('s1b', [(2, 2)]), ('s1d', [(1, 1)])]
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from enum import IntEnum
from functools import partial
from pathlib import Path
from typing import NamedTuple

from ..collector import collector_paused
from ..errors import InputError
from ..findings import Finding, Related, Severity
from ..graph import Graph
from ..span import SourceText, Span
from ._parse import Entry, fast_graph, parse_source
from .files import decode_utf8, open_input


class BlockKind(IntEnum):
    TOKENS = 0
    GRAPH = 1
    ALIGNMENT = 2
    DOCUMENT = 3


#: the heading comment of each block after the first, as the format writes it
HEADINGS: dict[BlockKind, str] = {
    BlockKind.GRAPH: "# sentence level graph:",
    BlockKind.ALIGNMENT: "# alignment:",
    BlockKind.DOCUMENT: "# document level annotation:",
}
_HEADING_OF = {
    re.sub(r"\s+", "", text.lower()): kind for kind, text in HEADINGS.items()
}
#: the headings as the format writes them: found without normalising them
_HEADING_AS_WRITTEN = {text: kind for kind, text in HEADINGS.items()}
_META_RE = re.compile(r"#\s*meta-info\b")
_SNT_RE = re.compile(r"#\s*::\s*snt([0-9]+)(?=\s|$)")
#: an interlinear row: ``Words:``, ``Word Gloss (en):``, ``Translation(English):``
_ROW_RE = re.compile(r"([A-Za-z][A-Za-z ]*?)\s*(?:\(([^()]*)\))?\s*:(?=\s|$)")
_ALIGNMENT_RE = re.compile(r"(\S+?):(?=\s|$|[-0-9])\s*(.*?)\s*$")
_RANGE_RE = re.compile(r"(-?[0-9]+)-(-?[0-9]+)$")
_NODE_RE = re.compile(r"\(\s*([^\s()/:\"]+)\s*(?:/\s*([^\s()/:\"]*))?")
_DOC_TOKEN_RE = re.compile(
    r'\s*(?:(\()|(\))|(/)|(:[^\s()/"]*)|("[^"\n]*")|([^\s()/:"]+))'
)

#: row headers of the ÚFAL format (``xx`` = a language code)
STANDARD_ROWS = frozenset(
    {
        "Index",
        "Words",
        "Word Gloss",
        "Part of Speech",
        "Morphemes",
        "Morpheme Gloss",
        "Morpheme Category",
        "Sentence",
        "Sentence Gloss",
    }
)
#: rows whose header takes a language code in parentheses
LANGUAGE_ROWS = frozenset({"Word Gloss", "Morpheme Gloss", "Sentence Gloss"})
#: older headers, read but reported (UMR 1.0/2.0 files, UMR 3.0 releases)
OLD_ROWS = frozenset(
    {
        "tx",
        "mb",
        "ge",
        "ps",
        "Translation",
        "Morphemes",
        "Words",
        "Morpheme Gloss",
        "Word Gloss",
        "Sentence",
    }
)


class Note(IntEnum):
    """Layout deviations the reader tolerates and the validator reports."""

    MISSING_HEADING = 1  # a block found by an empty line, not its heading
    NO_EMPTY_LINE = 2  # a heading right after the previous block's content
    EXTRA_EMPTY_LINE = 3  # more empty lines than the format has
    EMPTY_LINE_IN_BLOCK = 4  # content goes on after an empty line inside a block
    MISPLACED_COMMENT = 5  # a comment line after content inside a block
    INVALID_LINE = 6  # a line that belongs to no kind of its block
    REPEATED_BLOCK = 7  # a heading of a block the sentence already has
    MISSING_BLOCK = 8  # a sentence without one of the four blocks
    MISSING_SENTENCE_END = 9  # fewer than two empty lines after the sentence


@dataclass(frozen=True, slots=True)
class LayoutNote:
    """A layout deviation at ``start:end`` of the sentence's source."""

    note: Note
    start: int
    end: int
    detail: str = ""


class Word(NamedTuple):
    """One whitespace-separated item of a row, at ``start:end``."""

    text: str
    start: int
    end: int


@dataclass(slots=True, init=False)
class Row:
    """An interlinear row: ``Words:``, ``Index:``, a gloss row, or tokens on
    the ``# :: sntN`` line (header ``snt``).

    ``__init__`` is written out: the one ``dataclass`` would make runs as
    interpreted code even in the compiled build (one a row).
    """

    header: str
    language: str | None
    start: int  # of the header
    end: int  # of the line
    #: the text after the header and where it starts; cut into :attr:`items`
    #: when they are first asked for (scoring asks for one row, or none)
    rest: str = field(repr=False)
    rest_start: int = field(repr=False)
    _items: list[Word] | None = field(default=None, repr=False, compare=False)

    def __init__(
        self,
        header: str,
        language: str | None,
        start: int,
        end: int,
        rest: str,
        rest_start: int,
        _items: list[Word] | None = None,
    ) -> None:
        self.header = header
        self.language = language
        self.start = start
        self.end = end
        self.rest = rest
        self.rest_start = rest_start
        self._items = _items

    @property
    def items(self) -> list[Word]:
        """The row's whitespace-separated items, each placed."""
        if self._items is None:
            self._items = _split_items(self.rest, self.rest_start)
        return self._items

    def texts(self) -> list[str]:
        """The texts of :attr:`items`, without placing them (what a
        comparison of tokens asks; the items are cut as ``str.split`` cuts)."""
        if self._items is None:
            return self.rest.split()
        return [item.text for item in self._items]

    @property
    def name(self) -> str:
        """The header as written: ``Word Gloss (en)``."""
        return (
            self.header if self.language is None else f"{self.header} ({self.language})"
        )


@dataclass(slots=True, init=False)
class AlignmentLine:
    """``variable: a-b, c-d``; ``ranges`` is empty when ``error`` says why.

    ``__init__`` is written out: the one ``dataclass`` would make runs as
    interpreted code even in the compiled build (one a line).
    """

    variable: str
    start: int  # of the variable
    end: int  # of the line's text
    ranges: list[tuple[int, int]]
    #: offsets of each range text, in order
    range_offsets: list[tuple[int, int]]
    error: str | None = None

    def __init__(
        self,
        variable: str,
        start: int,
        end: int,
        ranges: list[tuple[int, int]],
        range_offsets: list[tuple[int, int]],
        error: str | None = None,
    ) -> None:
        self.variable = variable
        self.start = start
        self.end = end
        self.ranges = ranges
        self.range_offsets = range_offsets
        self.error = error


@dataclass(frozen=True, slots=True)
class DocTriple:
    """``(source :relation target)`` in group ``group`` (``:temporal``...)."""

    group: str
    source: str
    relation: str
    target: str
    #: (start, end) of the source, the relation and the target
    places: tuple[tuple[int, int], tuple[int, int], tuple[int, int]]
    group_place: tuple[int, int]


@dataclass(slots=True, init=False)
class DocumentBlock:
    """The document-level block: ``(s<N>s0 / sentence GROUP*)``.

    ``__init__`` is written out: the one ``dataclass`` would make runs as
    interpreted code even in the compiled build (one a sentence).
    """

    variable: str | None = None
    variable_place: tuple[int, int] | None = None
    concept: str | None = None
    concept_place: tuple[int, int] | None = None
    triples: list[DocTriple] = field(default_factory=list)
    #: every group as written (name, place), unknown ones included
    groups: list[tuple[str, tuple[int, int]]] = field(default_factory=list)

    def __init__(
        self,
        variable: str | None = None,
        variable_place: tuple[int, int] | None = None,
        concept: str | None = None,
        concept_place: tuple[int, int] | None = None,
        triples: list[DocTriple] | None = None,
        groups: list[tuple[str, tuple[int, int]]] | None = None,
    ) -> None:
        self.variable = variable
        self.variable_place = variable_place
        self.concept = concept
        self.concept_place = concept_place
        self.triples = [] if triples is None else triples
        self.groups = [] if groups is None else groups


@dataclass(slots=True)
class Block:
    """Where a block is: its heading (if any) and its content lines."""

    kind: BlockKind
    heading: tuple[int, int] | None
    start: int  # first content line (or the heading's end when empty)
    end: int  # end of the last content line


@dataclass(slots=True, eq=False, init=False)
class UmrSentence:
    """One sentence of a UMR file with all four blocks, each item placed.

    ``__init__`` is written out: the one ``dataclass`` would make runs as
    interpreted code even in the compiled build (one a sentence).
    """

    source: SourceText
    index: int  # 0-based position in the file
    start: int
    end: int
    number: int | None = None  # N of ``# :: sntN``
    #: every ``# :: sntN`` line's (N, start, end)
    number_places: list[tuple[int, int, int]] = field(default_factory=list)
    metadata: dict[str, str] = field(default_factory=dict)
    metadata_places: dict[str, tuple[int, int]] = field(default_factory=dict)
    rows: list[Row] = field(default_factory=list)
    graph: Graph | None = None
    alignments: list[AlignmentLine] = field(default_factory=list)
    document: DocumentBlock = field(default_factory=DocumentBlock)
    #: (kind, heading place, start, end) of each block, in file order: the
    #: :class:`Block` items of :attr:`blocks` are made when first asked for
    block_places: list[tuple[BlockKind, tuple[int, int] | None, int, int]] = field(
        default_factory=list, repr=False
    )
    _blocks: dict[BlockKind, Block] | None = field(default=None, repr=False)
    #: variable -> concept of a graph that could not be read (found by pattern)
    fallback_nodes: dict[str, str] = field(default_factory=dict)
    notes: list[LayoutNote] = field(default_factory=list)
    #: reading errors (graph and document-block syntax, bad alignment lines)
    errors: list[Finding] = field(default_factory=list)

    def __init__(  # the fields, as dataclass would take them
        self,
        source: SourceText,
        index: int,
        start: int,
        end: int,
        number: int | None = None,
        number_places: list[tuple[int, int, int]] | None = None,
        metadata: dict[str, str] | None = None,
        metadata_places: dict[str, tuple[int, int]] | None = None,
        rows: list[Row] | None = None,
        graph: Graph | None = None,
        alignments: list[AlignmentLine] | None = None,
        document: DocumentBlock | None = None,
        block_places: list[tuple[BlockKind, tuple[int, int] | None, int, int]]
        | None = None,
        _blocks: dict[BlockKind, Block] | None = None,
        fallback_nodes: dict[str, str] | None = None,
        notes: list[LayoutNote] | None = None,
        errors: list[Finding] | None = None,
    ) -> None:
        self.source = source
        self.index = index
        self.start = start
        self.end = end
        self.number = number
        self.number_places = [] if number_places is None else number_places
        self.metadata = {} if metadata is None else metadata
        self.metadata_places = {} if metadata_places is None else metadata_places
        self.rows = [] if rows is None else rows
        self.graph = graph
        self.alignments = [] if alignments is None else alignments
        self.document = DocumentBlock() if document is None else document
        self.block_places = [] if block_places is None else block_places
        self._blocks = _blocks
        self.fallback_nodes = {} if fallback_nodes is None else fallback_nodes
        self.notes = [] if notes is None else notes
        self.errors = [] if errors is None else errors

    @property
    def blocks(self) -> dict[BlockKind, Block]:
        """Where each block is, by kind (scoring never asks)."""
        if self._blocks is None:
            self._blocks = {
                kind: Block(kind, heading, start, end)
                for kind, heading, start, end in self.block_places
            }
        return self._blocks

    @property
    def words(self) -> list[Word]:
        """The tokens: the ``Words`` row, else tokens on the id line."""
        row = self.token_row()
        return row.items if row is not None else []

    def word_texts(self) -> list[str]:
        """The texts of :attr:`words`, without placing them."""
        row = self.token_row()
        return row.texts() if row is not None else []

    def token_row(self) -> Row | None:
        """The row of the tokens: ``Words``, else ``tx``, else the id line's."""
        for name in ("Words", "tx", "snt"):
            for row in self.rows:
                if row.header == name:
                    return row
        return None

    @property
    def pairing_number(self) -> int:
        """The number a sentence pairs by: N of ``# :: sntN``, else its
        position (1-based)."""
        return self.number if self.number is not None else self.index + 1

    @property
    def label(self) -> str:
        return f"snt{self.number}" if self.number is not None else f"#{self.index + 1}"

    @property
    def span(self) -> Span:
        return Span(self.source, self.start, self.end)

    def span_of(self, start: int, end: int) -> Span:
        return Span(self.source, start, end)

    @property
    def text(self) -> str:
        return self.source.text[self.start : self.end]

    def text_of(self, start: int, end: int) -> str:
        return self.source.text[start:end]

    def __repr__(self) -> str:
        return f"UmrSentence({self.label!r}, line {self.span.line})"


@dataclass(slots=True, eq=False)
class UmrDocument:
    """The sentences of one UMR file, in file order."""

    path: str
    sentences: list[UmrSentence]

    def __iter__(self) -> Iterator[UmrSentence]:
        return iter(self.sentences)

    def __len__(self) -> int:
        return len(self.sentences)

    @property
    def errors(self) -> list[Finding]:
        return [e for s in self.sentences for e in s.errors]


# -- recognising UMR text --------------------------------------------------------

UMR_SUFFIXES = (".umr",)
_UMR_SIGN_RE = re.compile(
    r"^#\s*(?:sentence level graph|alignment|document level annotation):", re.M
)


def looks_like_umr(text: str) -> bool:
    """True when ``text`` has UMR block headings (UMR content in a ``.txt``)."""
    return _UMR_SIGN_RE.search(text) is not None


def is_umr_path(path: str | Path, head: str | None = None) -> bool:
    """A ``.umr`` file, or one whose first 64 KiB (``head``) hold UMR headings."""
    if str(path).lower().endswith(UMR_SUFFIXES):
        return True
    if head is None:
        try:
            with open_input(str(path)) as handle:
                head = handle.read(1 << 16).decode("utf-8", errors="replace")
        except (InputError, OSError):
            return False
    return looks_like_umr(head)


# -- cutting lines into sentences ---------------------------------------------------


_HEADER_LINE_RE = re.compile(r"#(?:#{9,}\s*$|\s*meta-info\b|\s*::\s*snt[0-9]+(?=\s|$))")


#: the end of a run of graph (or document-level) lines: a line end not
#: followed by a line that opens with "(" or ":" after spaces or tabs (the
#: literal "\n" first: the pattern engine scans for it, a line at a time)
_RUN_END_RE = re.compile(r"\n(?![ \t]*[(:])")


class _Layout(NamedTuple):
    """A sentence's blocks as :func:`_cut` found them (offsets in its text)."""

    #: (kind, heading place, content lines' (start, end)), in file order; in
    #: a graph or document-level block, a line that opens with "(" or ":" and
    #: those after it that do too (after spaces or tabs) are one (start, end)
    blocks: list[tuple[BlockKind, tuple[int, int] | None, list[tuple[int, int]]]]
    #: the layout notes of the lines (those of the whole sentence follow)
    notes: list[LayoutNote]
    #: comment lines of the token block: (stripped text, start, end)
    headers: list[tuple[str, int, int]]


def _layout(
    blocks: list[tuple[BlockKind, tuple[int, int] | None, list[tuple[int, int]]]],
    notes: list[LayoutNote],
    headers: list[tuple[str, int, int]],
) -> _Layout:
    """A :class:`_Layout` made as a plain tuple is (a named tuple's own
    ``__new__`` is Python code: a call of it each sentence)."""
    layout: _Layout = tuple.__new__(_Layout, (blocks, notes, headers))
    return layout


def _cut(  # noqa: C901 -- one loop, state in locals
    pieces: Iterable[str], cut: bool = True
) -> Iterator[tuple[int, str, _Layout]]:
    """The text of each sentence of a stream of pieces of text (each of
    whole lines, the last line of the last one with or without its
    ``\\n``: a line each, or a whole file), with the file line the sentence
    starts on and its blocks.

    Sentences: one starts at its header lines once the current one has a
    body (a heading or a non-comment line), at a sentence level graph
    heading the current one already passed, or at content after two empty
    lines that follows a document-level block's content (``cut=False``:
    the lines are one sentence). Blocks (see the module): each block's
    heading and content lines, the layout notes and the header lines
    (offsets in the sentence's text), for :meth:`_SentenceReader.read`.
    One loop with its state in local variables: it sees every line of
    every file, and cuts sentences and blocks in the same pass; lines are
    found with ``str.find`` in each piece, and a sentence's text is a slice
    of its piece (joined only when it spans pieces).
    """
    # the cut: the sentence's text in the pieces before this one, its count
    # of lines, and what decides where the next starts
    carried: list[str] = []
    lines = 0
    first_line = 1
    has_body = False  # a heading or a non-comment line seen
    section = BlockKind.TOKENS
    seen: set[BlockKind] = set()
    document_content = False
    blanks = 0
    # the blocks of the current sentence: (kind, heading place, content lines)
    offset = 0  # in the sentence's text
    kind_now = BlockKind.TOKENS
    heading: tuple[int, int] | None = None
    content: list[tuple[int, int]] = []
    blocks: list[tuple[BlockKind, tuple[int, int] | None, list[tuple[int, int]]]] = []
    cut_kinds = 0  # a bit for the kind of each block in blocks
    notes: list[LayoutNote] = []
    headers: list[tuple[str, int, int]] = []
    in_comments = True  # only comment lines so far in this block
    comments_seen = False  # comment lines (other than the heading) in this block
    is_header = _HEADER_LINE_RE.match
    run_end = _RUN_END_RE.search
    heading_of = _HEADING_OF
    heading_as_written = _HEADING_AS_WRITTEN
    # enum members are slow attributes
    tokens_kind, graph_kind, document = (
        BlockKind.TOKENS,
        BlockKind.GRAPH,
        BlockKind.DOCUMENT,
    )
    for text in pieces:
        size = len(text)
        begin = 0  # where the sentence starts in this piece
        position = 0
        while position < size:
            line_start = position
            newline = text.find("\n", position)
            position = newline + 1 if newline >= 0 else size
            lead = text[line_start]  # one character: no new string
            if lead == "\n":
                lines += 1  # an empty line
                offset += 1
                blanks += 1
                continue
            if lead.isspace():
                # the line is cut to see whether it has anything else
                raw = text[line_start:position]
                stripped = raw.strip()
                if not stripped:
                    lines += 1
                    offset += len(raw)
                    blanks += 1
                    continue
                lead = stripped[0]
                first_column = raw.find(lead)
            else:
                first_column = 0
            comment = lead == "#"
            if not (comment or blanks):
                # most lines: content right after content (or a heading), in
                # the sentence and the block of the line before; no string
                # is cut of them
                lines += 1
                start = offset
                offset += position - line_start
                # the line's end, before its "\n" and the "\r"s before that
                last = position - 1 if newline >= 0 else position
                while last > line_start and text[last - 1] == "\r":
                    last -= 1
                end = start + last - line_start
                has_body = True
                if section is document:
                    document_content = True
                in_comments = False
                first = start + first_column
                if (
                    (kind_now is graph_kind or kind_now is document)
                    and lead in "(:"
                    and newline >= 0
                ):
                    # the lines that follow this one and open with "(" or ":"
                    # too (after spaces or tabs): the block readers check no
                    # more of them, so they join its range in one step (no
                    # step per line of a graph)
                    run = run_end(text, position - 1)
                    if run is not None and run.start() >= position:
                        last = run.start()  # the "\n" of the run's last line
                        lines += text.count("\n", position, last + 1)
                        offset += last + 1 - position
                        end = offset - 1
                        while text[last - 1] == "\r":  # as rstrip("\r\n") above
                            last -= 1
                            end -= 1
                        position = run.end()
                content.append((first, end))
                continue
            raw = text[line_start:position]
            stripped = raw.strip()
            kind = (
                heading_as_written.get(stripped)
                or heading_of.get("".join(stripped.lower().split()))
                if comment and stripped[-1] == ":"
                else None
            )
            if comment:
                # a sentence without header lines starts at its graph heading
                starts = (
                    (has_body if is_header(stripped) else False)
                    if kind is None
                    else kind is graph_kind and kind in seen
                )
            else:
                starts = blanks >= 2 and document_content
            if starts and cut and lines:
                blocks.append((kind_now, heading, content))
                carried.append(text[begin:line_start])
                yield first_line, "".join(carried), _layout(blocks, notes, headers)
                first_line += lines
                carried, lines, begin = [], 0, line_start
                has_body, seen, document_content = False, set(), False
                section = tokens_kind
                offset = 0
                kind_now, heading, content, blocks = tokens_kind, None, [], []
                cut_kinds = 0
                notes, headers = [], []
                in_comments, comments_seen = True, False
                blanks = 0
            lines += 1
            # the line in its block
            start = offset
            offset += len(raw)
            end = offset - 1 if raw[-1] == "\n" else offset
            if "\r" in raw:
                end = start + len(raw.rstrip("\r\n"))
            # the first character that is not white space opens the stripped line
            first = start + raw.find(stripped[0])
            if kind is not None:
                has_body = True
                section = kind
                seen.add(kind)
                blocks.append((kind_now, heading, content))
                cut_kinds |= 1 << kind_now
                if cut_kinds & (1 << kind):
                    notes.append(
                        LayoutNote(Note.REPEATED_BLOCK, first, end, HEADINGS[kind])
                    )
                elif blanks == 0 and (content or heading):
                    notes.append(
                        LayoutNote(Note.NO_EMPTY_LINE, first, end, HEADINGS[kind])
                    )
                elif blanks > 1:
                    notes.append(LayoutNote(Note.EXTRA_EMPTY_LINE, first, end))
                kind_now, heading, content, blanks = kind, (first, end), [], 0
                in_comments, comments_seen = True, False
                continue
            if blanks and content:
                # content after an empty line inside a block with content:
                # the next block without its heading, or an empty line in a block
                if kind_now < document and not comment:
                    following = BlockKind(kind_now + 1)
                    blocks.append((kind_now, heading, content))
                    cut_kinds |= 1 << kind_now
                    notes.append(
                        LayoutNote(
                            Note.MISSING_HEADING, first, end, HEADINGS[following]
                        )
                    )
                    if blanks > 1:
                        notes.append(LayoutNote(Note.EXTRA_EMPTY_LINE, first, end))
                    kind_now, heading, content = following, None, []
                    in_comments, comments_seen = True, False
                elif not comment:
                    notes.append(LayoutNote(Note.EMPTY_LINE_IN_BLOCK, first, end))
            elif blanks and (heading is not None or comments_seen):
                notes.append(LayoutNote(Note.EMPTY_LINE_IN_BLOCK, first, end))
            blanks = 0
            if comment:
                comments_seen = True
                if kind_now is tokens_kind:
                    headers.append((stripped, first, end))
                if not in_comments:
                    notes.append(LayoutNote(Note.MISPLACED_COMMENT, first, end))
                continue
            has_body = True
            if section is document:
                document_content = True
            in_comments = False
            content.append((first, end))
        if begin < size:
            carried.append(text[begin:])
    sentence = "".join(carried)
    if not cut or (lines and sentence.strip()):
        blocks.append((kind_now, heading, content))
        yield first_line, sentence, _layout(blocks, notes, headers)


# -- parsing one sentence ------------------------------------------------------------


_SPACES_RE = re.compile(r"\s+")
_META_FIELD_RE = re.compile(r"::\s*([^:=\s]+)\s*=\s*((?:(?!::).)*?)\s*(?=::|$)")
_COMMA_PART_RE = re.compile(r"[^,]+")


_new_tuple = tuple.__new__


def _plain_meta_fields(body: str) -> list[tuple[str, int, int]] | None:
    """The fields of ``body`` (`` :: key = value :: key = value``), each
    (key, value start, value end), when all are plainly written: what
    :data:`_META_FIELD_RE` finds there, without a regex (each sentence of a
    release has such a line); None for anything else."""
    if not body.isascii() or ":::" in body:
        return None
    fields = []
    pieces = body.split("::")
    offset = len(pieces[0]) + 2
    for piece in pieces[1:]:
        key_text, equals, value_text = piece.partition("=")
        key = key_text.strip()
        if not equals or not key or ":" in key or len(key.split()) != 1:
            return None
        value_start = offset + len(piece) - len(value_text.lstrip())
        fields.append((key, value_start, value_start + len(value_text.strip())))
        offset += len(piece) + 2
    return fields


#: the kinds of block, in order (iterating an enum is slow)
_BLOCK_KINDS = tuple(BlockKind)


def _split_items(text: str, offset: int) -> list[Word]:
    """Whitespace-separated items of ``text`` (offsets + ``offset``)."""
    # str.split and the white space of \\S agree; an item is found from the
    # end of the one before (only white space lies between)
    items: list[Word] = []
    find = text.find
    position = 0
    for item in text.split():
        position = find(item, position)
        end = position + len(item)
        items.append(_new_tuple(Word, (item, position + offset, end + offset)))
        position = end
    return items


def _plain_number(stripped: str) -> int | None:
    """N of a header line that is ``# :: sntN`` and nothing else (most
    are), as :data:`_SNT_RE` reads it (then the line has no tokens); None
    for any other line, left to the pattern."""
    if not stripped.startswith("# :: snt"):
        return None
    digits = stripped[8:]
    return int(digits) if digits.isdigit() and digits.isascii() else None


def _plain_alignment(line: str, start: int, end: int) -> AlignmentLine | None:
    """``line`` (at ``start:end``) read as :data:`_ALIGNMENT_RE` and the
    range pattern read it, when it is plainly written: ASCII, a variable of
    letters and digits, a colon, one range of two numbers (``s1p: 3-3``,
    most lines of a release); None for anything else, read by the patterns.
    """
    colon = line.find(":")
    variable = line[:colon]
    if colon <= 0 or not line.isascii() or not variable.isalnum():
        return None
    # the colon's first is the one the pattern stops at (no ":" before it),
    # when a blank, a digit, "-" or the end follows it
    rest = line[colon + 1 :]
    if rest and not (rest[0] == " " or rest[0] == "-" or rest[0].isdigit()):
        return None
    body = rest.strip()  # the pattern's \s and str.strip agree
    dash = body.find("-", 1)
    low, high = body[:dash], body[dash + 1 :]
    if dash < 0 or not low.isdigit() or not high.isdigit():
        return None  # no range, several, negative numbers, an error
    body_start = end - len(rest.lstrip())
    return AlignmentLine(
        variable,
        start,
        end,
        [(int(low), int(high))],
        [(body_start, body_start + len(body))],
    )


class _SentenceReader:
    def __init__(self, source: SourceText, index: int) -> None:
        self.source = source
        self.text = source.text
        self.sentence = UmrSentence(source, index, 0, len(source.text))

    def error(self, code: str, message: str, start: int, end: int) -> None:
        self.sentence.errors.append(
            Finding(code, message, Severity.ERROR, Span(self.source, start, end))
        )

    def note(self, note: Note, start: int, end: int, detail: str = "") -> None:
        self.sentence.notes.append(LayoutNote(note, start, end, detail))

    def read(self, layout: _Layout | None = None) -> UmrSentence:  # noqa: C901 -- the blocks in order
        """Read the sentence; ``layout``: its blocks when the caller cut
        them already (:func:`_cut`)."""
        if layout is None:
            layout = next(_cut((self.text,), cut=False))[2]
        sentence = self.sentence
        text = self.text
        blocks = layout.blocks
        sentence.notes = layout.notes
        for stripped, first, end in layout.headers:
            self.header_line(stripped, first, end)
        sentence.start = 0
        end = len(text)
        while end and text[end - 1].isspace():  # as len(text.rstrip()), no copy
            end -= 1
        sentence.end = end
        ending = text[sentence.end :].replace("\r", "")
        if ending.count("\n") < 3:
            self.note(Note.MISSING_SENTENCE_END, sentence.end, sentence.end)
        elif ending.count("\n") > 3:
            self.note(Note.EXTRA_EMPTY_LINE, sentence.end, sentence.end)
        present = 0  # a bit for each kind of block read
        places = sentence.block_places
        for kind, place, content in blocks:
            if present & (1 << kind):
                continue  # a repeated block: noted above, its content read no further
            present |= 1 << kind
            block_start = content[0][0] if content else (place[1] if place else 0)
            block_end = content[-1][1] if content else block_start
            places.append((kind, place, block_start, block_end))
            if kind is BlockKind.TOKENS:
                self.token_lines(content)
            elif kind is BlockKind.GRAPH:
                self.graph_block(content)
            elif kind is BlockKind.ALIGNMENT:
                self.alignment_block(content)
            else:
                self.document_block(content)
        for kind in _BLOCK_KINDS:
            if not present & (1 << kind):
                at = sentence.end
                self.note(Note.MISSING_BLOCK, at, at, HEADINGS.get(kind, "token block"))
        return sentence

    # -- token block --

    def header_line(self, stripped: str, start: int, end: int) -> None:
        if stripped[1:2] == "#":
            return  # a rule of '#': no number, no metadata
        sentence = self.sentence
        number = _plain_number(stripped)
        if number is not None:
            sentence.number_places.append((number, start, end))
            if sentence.number is None:
                sentence.number = number
            return
        line = self.text[start:end]
        match = _SNT_RE.match(stripped)
        if match:
            number = int(match.group(1))
            sentence.number_places.append((number, start, end))
            if sentence.number is None:
                sentence.number = number
            rest = line[match.end() :]
            if rest.strip():
                sentence.rows.append(
                    Row("snt", None, start, end, rest, start + match.end())
                )
            return
        if _META_RE.match(stripped):
            self.meta_line(line, start)

    def meta_line(self, line: str, start: int) -> None:
        """The fields of a ``# meta-info`` line at ``start``."""
        sentence = self.sentence
        body = line.split("meta-info", 1)[1]
        base = start + line.index("meta-info") + len("meta-info")
        fields = _plain_meta_fields(body)
        if fields is not None:
            for key, value_start, value_end in fields:
                sentence.metadata[key] = body[value_start:value_end]
                sentence.metadata_places[key] = (
                    base + value_start,
                    base + value_end,
                )
            return
        for m in _META_FIELD_RE.finditer(body):
            sentence.metadata[m.group(1)] = m.group(2)
            sentence.metadata_places[m.group(1)] = (
                base + m.start(2),
                base + m.end(2),
            )

    def token_lines(self, content: list[tuple[int, int]]) -> None:
        rows = self.sentence.rows
        for start, end in content:
            line = self.text[start:end]
            colon = line.find(":")
            header = line[:colon]
            if (
                colon > 0
                and header.isalpha()
                and header.isascii()
                and (colon + 1 == len(line) or line[colon + 1].isspace())
            ):
                # ``Words: ...``: what the pattern finds, without it
                rows.append(
                    Row(header, None, start, end, line[colon + 1 :], start + colon + 1)
                )
                continue
            match = _ROW_RE.match(line)
            if match is None:
                self.note(Note.INVALID_LINE, start, end, "token block")
                continue
            header = match.group(1)  # letters and spaces
            if "  " in header:
                header = _SPACES_RE.sub(" ", header)
            self.sentence.rows.append(
                Row(
                    header,
                    match.group(2),
                    start,
                    end,
                    line[match.end() :],
                    start + match.end(),
                )
            )

    # -- sentence graph --

    def graph_block(self, content: list[tuple[int, int]]) -> None:
        if not content:
            return
        text = self.text
        region_start = text.rfind("\n", 0, content[0][0]) + 1
        # each line's first character (a range of several lines: its first
        # line's; the others open with "(" or ":", :func:`_cut` saw)
        for start, end in content:
            if text[start] not in "(:":
                self.note(Note.INVALID_LINE, start, end, "sentence level graph")
        block_end = content[-1][1]
        if (
            len(content) == 1
            and content[0][0] == region_start
            and text[region_start] == "("
            and text.find("\n(", region_start, block_end) < 0
        ):
            # one run of graph lines, only its first opening with "(" (at
            # the line start): what parse_source would read as one block
            # and one entry, read without them when the fast path can
            graph = fast_graph(self.source, region_start, block_end)
            if graph is not None:
                self.keep_graph(graph)
                return
        entries, orphans = parse_source(self.source, region_start, block_end)
        if not orphans and len(entries) == 1:
            graph = entries[0].graph
            if graph is not None and not entries[0].errors:
                # the common case: one graph, read
                self.keep_graph(graph)
                return
        self.graph_entries(entries, orphans, text[region_start:block_end])

    def keep_graph(self, graph: Graph) -> None:
        """The sentence's graph, read whole; offsets not yet found (the fast
        path's) are found when asked by this module's :func:`_offsets`."""
        if graph.offsets_factory is not None:
            graph.offsets_factory = partial(
                _offsets, graph.source.text, graph.start, graph.end
            )
        self.sentence.graph = graph

    def graph_entries(
        self, entries: list[Entry], orphans: list[Finding], region: str
    ) -> None:
        """The graphs and errors of a block that is not one graph read."""
        for finding in orphans:
            self.sentence.errors.append(_graph_code(finding))
        if any(entry.graph is None for entry in entries):
            # the graph cannot be read: its nodes still are, for the other blocks
            self.sentence.fallback_nodes = dict(_NODE_RE.findall(region))
        _cheap_offsets(entries)
        graphs = [entry for entry in entries if entry.graph is not None or entry.errors]
        for number, entry in enumerate(graphs):
            for finding in entry.errors:
                self.sentence.errors.append(_graph_code(finding))
            if number == 0:
                self.sentence.graph = entry.graph
            else:
                self.error(
                    "U207",
                    "a second graph in the sentence level block",
                    entry.start,
                    entry.start + 1,
                )

    # -- alignment --

    def alignment_block(self, content: list[tuple[int, int]]) -> None:
        text = self.text
        alignments = self.sentence.alignments
        for start, end in content:
            line = text[start:end]
            plain = _plain_alignment(line, start, end)
            if plain is not None:
                alignments.append(plain)
                continue
            match = _ALIGNMENT_RE.match(line)
            if match is None or match.group(1).startswith((":", "(")):
                self.note(Note.INVALID_LINE, start, end, "alignment")
                continue
            variable = match.group(1)
            aligned = AlignmentLine(variable, start, end, [], [])
            body_start = start + match.start(2)
            body = match.group(2)
            if not body:
                aligned.error = "no token range after the colon"
            for part in _COMMA_PART_RE.finditer(body):
                piece = part.group().strip()
                piece_start = (
                    body_start
                    + part.start()
                    + (len(part.group()) - len(part.group().lstrip()))
                )
                range_match = _RANGE_RE.match(piece)
                if range_match is None:
                    aligned.error = f"{piece!r} is not a token range such as 3-3 or 2-4"
                    aligned.ranges, aligned.range_offsets = [], []
                    break
                aligned.ranges.append(
                    (int(range_match.group(1)), int(range_match.group(2)))
                )
                aligned.range_offsets.append((piece_start, piece_start + len(piece)))
            if body.rstrip().endswith(","):
                aligned.error = "a comma without a range after it"
                aligned.ranges, aligned.range_offsets = [], []
            self.sentence.alignments.append(aligned)

    # -- document level --

    def document_block(self, content: list[tuple[int, int]]) -> None:
        if not content:
            return
        for start, end in content:
            if self.text[start] not in "(:":
                self.note(Note.INVALID_LINE, start, end, "document level annotation")
        _DocumentParser(self, content[0][0], content[-1][1]).run()


#: the tokens of a graph as text (comments, strings, brackets, roles, symbols)
_OFFSET_TOKEN_RE = re.compile(
    r'\s*("(?:[^"\\\n]|\\.)*"|#[^\n]*|[()/]|:[^\s"()/:~]*|[^\s"()/:~]+)'
)


def _cheap_offsets(entries: list[Entry]) -> None:
    """Give the graphs the fast path read :func:`_offsets` as their factory
    (which holds the graph's text and place, not the graph: no reference
    cycle, so a graph is freed as soon as its sentence is)."""
    for entry in entries:
        graph = entry.graph
        if graph is not None and graph.offsets_factory is not None:
            graph.offsets_factory = partial(
                _offsets, graph.source.text, graph.start, graph.end
            )


def _offsets(
    text: str, graph_start: int, graph_end: int
) -> list[tuple[int, int, int, int]]:
    """The offsets of a graph the fast path read (at ``graph_start:graph_end``
    of ``text``), in one pass over its tokens.

    The AMR reader would run its full parser for them; a graph the fast path
    accepted is well formed, so its triples follow its tokens: a node's
    instance triple comes right after the edge into it, every other triple
    at its role, in text order. The tokens come as text (no match objects);
    each is found from the end of the one before, as only white space (or a
    character no token starts with) lies between. Tests check the result
    against the full parser's on the whole English release.
    """
    find = text.find
    offsets: list[tuple[int, int, int, int]] = []
    position = graph_start
    role: tuple[int, int] | None = None
    variable = (0, 0)
    node = 0  # tokens of a node's opening seen: 1 '(', 2 variable, 3 '/'
    for token in _OFFSET_TOKEN_RE.findall(text, graph_start, graph_end):
        start = find(token, position)
        position = end = start + len(token)
        first = token[0]
        if first == "#":
            continue  # a comment
        if node:
            if node == 1:
                variable = (start, end)
            elif node == 3:  # the concept
                if role is not None:
                    offsets.append((*role, *variable))
                    role = None
                offsets.append((*variable, start, end))
                node = 0
                continue
            node += 1
            continue
        if first == "(":
            node = 1
        elif first == ":":
            role = (start, end)
        elif role is not None and first not in ")/":
            offsets.append((*role, start, end))
            role = None
    return offsets


#: a string, or a role token: in a graph the fast path read (which holds no
#: comment) every colon outside a string opens a role token, as it does for
#: :data:`_OFFSET_TOKEN_RE`
_ROLE_OR_STRING_RE = re.compile(r'"(?:[^"\\\n]|\\.)*"|:[^\s"()/:~]*')


def fast_role_places(graph: Graph) -> list[tuple[int, int]] | None:
    """(start, end) of each role token of ``graph``, in text order (that of
    its non-instance triples), when the fast path read it (None otherwise:
    then :attr:`Graph.offsets` has them).

    Cheaper than :func:`_offsets` when only roles are asked for: one pattern
    finds the strings and the roles, nothing else. Tests check them against
    the full parser's on the English release and on odd texts the fast
    path accepts (``s1b:z``, escaped quotes, alignments).
    """
    if graph.offsets_factory is None:
        return None
    text = graph.source.text
    return [
        match.span()
        for match in _ROLE_OR_STRING_RE.finditer(text, graph.start, graph.end)
        if text[match.start()] == ":"
    ]


def _graph_code(finding: Finding) -> Finding:
    """A reader finding of the sentence graph under its UMR code (E001 -> U201)."""
    code = "U2" + finding.code[2:] if finding.code.startswith("E0") else finding.code
    return Finding(
        code, finding.message, finding.severity, finding.span, finding.related
    )


class _DocumentParser:
    """``(VAR / sentence (:GROUP (TRIPLE+))*)``; errors go on after a bad triple."""

    def __init__(self, reader: _SentenceReader, start: int, end: int) -> None:
        self.reader = reader
        self.block = reader.sentence.document
        text = reader.text
        #: kind group, start, end
        self.tokens: list[tuple[int, int, int]] = (
            _doc_tokens(text, start, end)
            or _doc_tokens_by_pattern(text, start, end)
        )
        self.i = 0
        self.text = text
        self.end = end
        self.failed = False

    def fail(self, message: str, at: int | None = None) -> None:
        if at is None:
            token = self.tokens[self.i] if self.i < len(self.tokens) else None
            start, end = (token[1], token[2]) if token else (self.end, self.end)
        else:
            start, end = at, at + 1
        self.reader.error("U401", message, start, end)
        self.failed = True

    def take(self, kind: int) -> tuple[int, int] | None:
        if self.i < len(self.tokens) and self.tokens[self.i][0] == kind:
            token = self.tokens[self.i]
            self.i += 1
            return token[1], token[2]
        return None

    def word(self, place: tuple[int, int]) -> str:
        return self.text[place[0] : place[1]]

    def run(self) -> None:  # noqa: C901 -- one loop over the groups
        open_paren = self.take(_LP)
        if open_paren is None:
            self.fail("the document level block should open with '('")
            return
        variable = self.take(_SYM)
        if variable is None:
            self.fail("expected the sentence variable (s<N>s0) after '('")
            return
        self.block.variable, self.block.variable_place = self.word(variable), variable
        if self.take(_SL) is None:
            self.fail("expected '/' after the sentence variable")
            return
        concept = self.take(_SYM)
        if concept is None:
            self.fail("expected the concept 'sentence' after '/'")
            return
        self.block.concept, self.block.concept_place = self.word(concept), concept
        while self.i < len(self.tokens):
            if self.take(_RP) is not None:
                if self.i >= len(self.tokens):
                    return
                if not self.failed:
                    self.fail("text after the closing ')' of the document level graph")
                if self.tokens[self.i][0] != _ROLE:
                    return
                continue  # more groups after a ')' too many: read them too
            group = self.take(_ROLE)
            if group is None:
                self.fail("expected a group (:temporal, :modal, :coref) or ')'")
                return
            self.block.groups.append((self.word(group), group))
            if not self.group(self.word(group), group):
                return
        # the '(' is named by the finding's related place, not in its text: a
        # message stays true when the editor moves the sentence
        self.fail("the document level graph's '(' is not closed", open_paren[0])
        self.reader.sentence.errors[-1] = _at_end(
            self.reader.sentence.errors[-1], self.end
        )

    def group(self, name: str, place: tuple[int, int]) -> bool:
        """Read ``( TRIPLE+ )``; False when the block cannot be read further."""
        group_open = self.take(_LP)
        if group_open is None:
            self.fail(f"expected '(' opening the triples of {name}")
            return False
        count = 0
        while True:
            if self.take(_RP) is not None:
                if count == 0:
                    self.fail(f"{name} has no triple", group_open[0])
                return True
            triple_open = self.take(_LP)
            if triple_open is None:
                if self.i >= len(self.tokens):
                    self.fail(f"'(' of {name} is not closed", group_open[0])
                    self.reader.sentence.errors[-1] = _at_end(
                        self.reader.sentence.errors[-1], self.end
                    )
                    return False
                if self.tokens[self.i][0] not in (_SYM, _STR):
                    self.fail(f"expected '(' opening a triple of {name} or ')'")
                    return False
                stray = self.word(self.tokens[self.i][1:])
                self.fail(
                    f"'{stray}' between the triples of {name}: skipped, the "
                    "triples after it are read (expected '(' or ')')"
                )
                self.skip_words()
                continue
            source, relation, target = (
                self.take(_SYM),
                self.take(_ROLE),
                self.take(_SYM),
            )
            if source is None or relation is None or target is None:
                self.fail("a triple is (node :relation node)")
                self.skip_triple()
                continue
            if self.take(_RP) is None:
                self.fail("expected ')' closing the triple")
                self.skip_triple()
                continue
            count += 1
            self.block.triples.append(
                DocTriple(
                    name,
                    self.word(source),
                    self.word(relation),
                    self.word(target),
                    (source, relation, target),
                    place,
                )
            )

    def skip_words(self) -> None:
        """Skip words between triples (an annotator's note after a triple:
        ``(s27p3 :same-entity s28p2) interviewer``), so that the triples
        after them are still read."""
        while self.i < len(self.tokens) and self.tokens[self.i][0] in (_SYM, _STR):
            self.i += 1

    def skip_triple(self) -> None:
        """Skip to after the next ')' so the following triples are still read."""
        while self.i < len(self.tokens):
            kind = self.tokens[self.i][0]
            if kind == _LP:
                return
            self.i += 1
            if kind == _RP:
                return


_LP, _RP, _SL, _ROLE, _STR, _SYM = 1, 2, 3, 4, 5, 6


def _doc_tokens_by_pattern(
    text: str, start: int, end: int
) -> list[tuple[int, int, int]]:
    """The tokens of ``text[start:end]`` as :data:`_DOC_TOKEN_RE` finds them
    (kind group, start, end), up to where it finds none."""
    tokens: list[tuple[int, int, int]] = []
    position = start
    while position < end:
        match = _DOC_TOKEN_RE.match(text, position, end)
        if match is None:
            break  # only white space is left
        group = match.lastindex or 0
        tokens.append((group, *match.span(group)))
        position = match.end()
    return tokens


def _doc_tokens(  # noqa: C901 -- one pass over the chunks
    text: str, start: int, end: int
) -> list[tuple[int, int, int]]:
    """What :func:`_doc_tokens_by_pattern` finds, when the block has no
    string and each whitespace-separated chunk is ``(``s, one role, symbol
    or ``/``, then ``)``s (a document-level block is written so); an empty
    list for anything else (a block has at least one token), without a
    match object a token. A chunk is found from the end of the one before."""
    block = text[start:end]
    if '"' in block:
        return []  # a string may hold white space: the pattern cuts it
    tokens: list[tuple[int, int, int]] = []
    find = block.find
    position = 0
    for chunk in block.split():
        position = find(chunk, position)
        at = start + position
        position += len(chunk)
        size = len(chunk)
        head = 0
        while head < size and chunk[head] == "(":
            tokens.append((_LP, at + head, at + head + 1))
            head += 1
        tail = size
        while tail > head and chunk[tail - 1] == ")":
            tail -= 1
        if tail > head:
            core = chunk[head:tail] if head or tail < size else chunk
            if core == "/":
                kind = _SL
            elif "(" in core or ")" in core or "/" in core:
                return []
            elif core[0] == ":":
                kind = _ROLE
            elif ":" in core:
                return []
            else:
                kind = _SYM
            tokens.append((kind, at + head, at + tail))
        while tail < size:
            tokens.append((_RP, at + tail, at + tail + 1))
            tail += 1
    return tokens


def _at_end(finding: Finding, end: int) -> Finding:
    """A finding placed at the end of its block, the '(' it names related."""
    related = (Related(finding.span, "this '(' is not closed"),)
    return Finding(
        finding.code,
        finding.message,
        finding.severity,
        Span(finding.span.source, end, end),
        related,
    )


def read_sentence(source: SourceText, index: int) -> UmrSentence:
    """One sentence's text (a piece of a file, with its line numbers)."""
    return _SentenceReader(source, index).read()


# -- files -------------------------------------------------------------------------


def iter_umr_lines(lines: Iterable[str], path: str) -> Iterator[UmrSentence]:
    """The sentences of a stream of lines (each with its ``\\n``), or of
    pieces of text of whole lines (a whole file: one piece)."""
    for index, (first, piece, layout) in enumerate(_cut(lines)):
        yield _SentenceReader(SourceText(piece, path, first), index).read(layout)


def iter_umr_pieces(lines: Iterable[str], path: str) -> Iterator[SourceText]:
    """The text of each sentence of a stream of lines (or of pieces of
    whole lines), unread (pieces that :func:`read_sentence` reads; an editor
    re-reads only the changed ones)."""
    for first, piece, _ in _cut(lines):
        yield SourceText(piece, path, first)


def read_umr_string(text: str, path: str = "<string>") -> UmrDocument:
    """Read UMR text (one document) into a :class:`UmrDocument`."""
    if text.startswith("\ufeff"):
        text = text[1:]
    return UmrDocument(path, list(iter_umr_lines((text,), path)))


def split_lines(text: str) -> list[str]:
    """``text`` cut after each ``\\n`` (only there: a form feed or a lone CR
    inside a line is not a line end, as for :class:`~amrcheck.span.SourceText`)."""
    if not any(character in text for character in _OTHER_LINE_BREAKS):
        # no character but '\n' ends a line for str.splitlines: it cuts alike
        return text.splitlines(keepends=True)
    lines = text.split("\n")
    last = lines.pop()
    result = [line + "\n" for line in lines]
    if last:
        result.append(last)
    return result


#: the characters other than ``\\n`` that end a line for :meth:`str.splitlines`
#: (one search for each costs less than a pattern of them all)
_OTHER_LINE_BREAKS = "\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"


#: bytes read at a time by :func:`iter_umr_file`
READ_BYTES = 1 << 16


def iter_umr_file(path: str | Path) -> Iterator[UmrSentence]:
    """The sentences of a UMR file, read a piece at a time (bounded memory).

    Raises:
        InputError: the file is missing, unreadable or not UTF-8 (with
            ``line:col``, when the reader gets there).
        RefusedInputError: not a regular file, or endless.
    """
    name = str(path)
    return iter_umr_lines(_file_pieces(name), name)


def _file_pieces(name: str) -> Iterator[str]:
    """The text of the file, a piece of whole lines at a time (the last
    piece ends with the file), without a byte order mark."""
    with open_input(name) as handle:
        pending = b""
        lines_before = 0
        #: the bytes decoded last, whose lines are counted only when another
        #: piece follows (a file of one piece is not counted at all)
        uncounted = b""
        first = True
        while True:
            try:
                data = handle.read(READ_BYTES)
            except OSError as exc:
                raise InputError(exc.strerror or str(exc), name) from None
            pending += data
            # at the end of the file, the rest: its last line need not end
            cut = pending.rfind(b"\n") + 1 if data else len(pending)
            if cut:
                lines_before += uncounted.count(b"\n")
                uncounted = pending[:cut]
                text = decode_utf8(uncounted, name, lines_before)
                pending = pending[cut:]
                if first and text.startswith("\ufeff"):
                    text = text[1:]
                first = False
                if text:
                    yield text
            if not data:
                return


def read_umr(path: str | Path) -> UmrDocument:
    """Read a whole UMR file (see :func:`iter_umr_file` for the errors)."""
    with collector_paused(promote=True):  # many objects, no garbage: no scans
        return UmrDocument(str(path), list(iter_umr_file(path)))
