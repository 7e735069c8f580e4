"""Reading AMR files into a :class:`Corpus` of :class:`Entry` objects."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from ._parse import Entry, parse_source
from .errors import DecodeError, InputError
from .findings import Finding
from .graph import Graph
from .span import SourceText


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
    if "\r" in text:
        text = _LONE_CR_RE.sub("\n", text)
    return text


def read_text(path: str | Path) -> str:
    """Read a file as UTF-8; undecodable bytes raise InputError with a place."""
    name = str(path)
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise InputError(exc.strerror or str(exc), name) from None
    try:
        return normalize_text(data.decode("utf-8"))
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise InputError(
            f"{line}:{column}: not valid UTF-8 (byte 0x{data[exc.start]:02x})",
            name,
        ) from None


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


def read_corpus(path: str | Path) -> Corpus:
    """Read an AMR file. Malformed graphs become entries that carry errors.

    Raises:
        InputError: the file is missing, unreadable or not UTF-8.
    """
    source = SourceText(read_text(path), str(path))
    entries, orphans = parse_source(source)
    return Corpus(source, entries, orphans)


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
