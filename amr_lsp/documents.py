"""The parsed state of one document version: the only place the server reads text.

Everything else in the server asks this module for a document's
:class:`ParsedDocument` (its engine :class:`~amrcheck.Corpus` and the
:class:`~amr_lsp.convert.LineIndex` of the same text). A new version is
read with the engine's incremental reader (:func:`amrcheck.reading.incremental.reparse`:
only the blocks around the edit are parsed again); the first version of
a document is read whole.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

from lsprotocol import types

from amrcheck import Corpus, Entry, Span, read_string
from amrcheck.reading.incremental import reparse
from amrcheck.reading.locate import TokenAt, entry_at, token_at

from .convert import LineIndex


@dataclass(frozen=True, slots=True, eq=False)
class ParsedDocument:
    """One version of one document, read by the engine."""

    uri: str
    version: int | None
    corpus: Corpus
    lines: LineIndex

    @property
    def text(self) -> str:
        """The engine's text (offsets of spans index this)."""
        return self.corpus.source.text

    def offset(self, position: types.Position) -> int:
        return self.lines.offset(position)

    def range(self, span: Span) -> types.Range:
        return self.lines.range(span.start, span.end)

    def token_at(self, position: types.Position) -> TokenAt | None:
        return token_at(self.corpus, self.offset(position))

    def entry_at(self, position: types.Position) -> Entry | None:
        return entry_at(self.corpus, self.offset(position))

    def entries_touching(self, where: types.Range) -> list[Entry]:
        """The entries (header and graph) that ``where`` overlaps; for an
        empty range, the entry it is in (or at an edge of)."""
        start, end = self.offset(where.start), self.offset(where.end)
        if start == end:
            return [e for e in self.corpus.entries if e.start <= start <= e.end]
        return [e for e in self.corpus.entries if e.start < end and start < e.end]


class DocumentStore:
    """The latest parsed version of each open document.

    Parsing runs in the server's engine thread; the lock guards only the
    table, so the event loop never waits for a parse to look something up.
    """

    def __init__(self) -> None:
        self._parsed: dict[str, ParsedDocument] = {}
        self._lock = threading.Lock()

    def parse(
        self, uri: str, version: int | None, text: str, encoding: str = "utf-16"
    ) -> ParsedDocument:
        """The parsed document for ``version``, parsing only if not yet done."""
        with self._lock:
            known = self._parsed.get(uri)
        if (
            known is not None
            and known.version == version
            and known.lines.text == text  # a reopened document restarts at 1
        ):
            return known
        corpus = (
            reparse(known.corpus, text) if known is not None
            else read_string(text, uri)  # spans print as the document's URI
        )
        parsed = ParsedDocument(
            uri,
            version,
            corpus,
            LineIndex(text, encoding, bom=text.startswith("\ufeff")),
        )
        with self._lock:
            self._parsed[uri] = parsed
        return parsed

    def get(self, uri: str) -> ParsedDocument | None:
        with self._lock:
            return self._parsed.get(uri)

    def forget(self, uri: str) -> None:
        with self._lock:
            self._parsed.pop(uri, None)
