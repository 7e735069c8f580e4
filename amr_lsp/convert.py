"""Conversions between engine values and LSP values: every ``lsp_*`` lives here.

Indexing convention (stated once, used everywhere in the server):

* **Engine offsets** are code-point indices into the text the engine read:
  the editor buffer with a leading BOM dropped (nothing else changes:
  CRLF is kept and a lone CR becomes ``\\n``, same length). A
  :class:`LineIndex` built with ``bom=True`` adds the dropped BOM back, so
  callers always pass engine offsets.
* **LSP positions** are 0-based ``(line, character)``; ``character``
  counts code units of the negotiated position encoding: UTF-16 by default
  (``"😋"`` is 2 units), or UTF-8 / UTF-32 if the client asked for them.
  Lines end at ``\\n``, ``\\r\\n`` or ``\\r`` (the LSP's three line ends).
* **Ranges** are half-open, like engine :class:`~amrcheck.span.Span` s.
* A position past the end of its line means the end of the line, and a
  line past the last means the end of the text (the LSP's clamping rule).

Why not pygls's ``document.offset_at_position`` /
``client_position_at_offset``: each call re-splits the whole buffer
(O(document)), and one publication for a 1,562-graph file converts
thousands of positions. :class:`LineIndex` splits once per document
version; ``tests/lsp/test_convert.py`` checks it agrees with pygls.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from pathlib import Path
from urllib.parse import unquote, urlparse

from lsprotocol import types

from amrcheck import Finding, Severity, Span
from amrcheck.reading.layout import TextEdit

#: LSP position encodings the server can speak (pygls negotiates one)
ENCODINGS = ("utf-16", "utf-8", "utf-32")

_LINE_END_RE = re.compile(r"\r\n?|\n")


def lf_line_starts(text: str) -> list[int]:
    """The offset where each line of ``text`` starts, lines ending at LF only
    (the engine's lines; faster than a regex)."""
    starts = [0]
    find = text.find
    pos = find("\n")
    while pos != -1:
        starts.append(pos + 1)
        pos = find("\n", pos + 1)
    return starts


class LineIndex:
    """Line starts of one text version: engine offset <-> LSP position."""

    __slots__ = ("text", "encoding", "shift", "_starts", "_ascii")

    def __init__(self, text: str, encoding: str = "utf-16", bom: bool = False) -> None:
        """``text`` is the buffer as the client sent it (BOM included)."""
        if encoding not in ENCODINGS:
            raise ValueError(f"unknown position encoding {encoding!r}")
        self.text = text
        self.encoding = encoding
        self.shift = 1 if bom else 0
        if "\r" in text:
            starts = [0] + [m.end() for m in _LINE_END_RE.finditer(text)]
        else:  # the common case, several times faster than the regex
            starts = lf_line_starts(text)
        self._starts = starts
        self._ascii = text.isascii()

    @property
    def line_starts(self) -> list[int]:
        """Buffer offset of each line's start (do not change the list)."""
        return self._starts

    def _line_bounds(self, line: int) -> tuple[int, int]:
        """Buffer offsets of a line's first character and of its line end."""
        start = self._starts[line]
        if line + 1 < len(self._starts):
            end = self._starts[line + 1] - 1
            if self.text[end] == "\n" and end > start and self.text[end - 1] == "\r":
                end -= 1
        else:
            end = len(self.text)
        return start, end

    def _units(self, chars: str) -> int:
        if self.encoding == "utf-16":
            return len(chars.encode("utf-16-le")) // 2
        if self.encoding == "utf-8":
            return len(chars.encode("utf-8"))
        return len(chars)

    def position(self, offset: int) -> types.Position:
        """The LSP position of an engine offset."""
        line, character = self.line_character(offset)
        return types.Position(line=line, character=character)

    def line_character(self, offset: int) -> tuple[int, int]:
        """:meth:`position` as a plain pair (no LSP object built)."""
        offset = min(max(offset + self.shift, 0), len(self.text))
        line = bisect_right(self._starts, offset) - 1
        start, end = self._line_bounds(line)
        column = min(offset, end) - start
        if self._ascii or self.encoding == "utf-32":
            return line, column
        return line, self._units(self.text[start:start + column])

    def offset(self, position: types.Position) -> int:
        """The engine offset of an LSP position (clamped to the text)."""
        if position.line >= len(self._starts):
            return len(self.text) - self.shift
        start, end = self._line_bounds(max(position.line, 0))
        units = max(position.character, 0)
        if self._ascii or self.encoding == "utf-32":
            buffer_offset = min(start + units, end)
        else:
            buffer_offset = start
            seen = 0
            while buffer_offset < end and seen < units:
                seen += self._units(self.text[buffer_offset])
                buffer_offset += 1
        return max(buffer_offset - self.shift, 0)

    def range(self, start: int, end: int) -> types.Range:
        return types.Range(start=self.position(start), end=self.position(end))

    def line_range(self, offset: int) -> types.Range:
        """From ``offset`` to the end of its line (a graph's "opening line")."""
        position = self.position(offset)
        _, end = self._line_bounds(position.line)
        return types.Range(start=position, end=self.position(end - self.shift))


# -- URIs ---------------------------------------------------------------------


def uri_to_path(uri: str) -> Path | None:
    """The file system path of a ``file:`` URI; None for other schemes."""
    parsed = urlparse(uri)
    if parsed.scheme != "file":
        return None
    return Path(unquote(parsed.path))


def path_to_uri(path: str | Path) -> str:
    return Path(path).absolute().as_uri()


# -- engine values -> LSP values ----------------------------------------------

_SEVERITIES = {
    Severity.ERROR: types.DiagnosticSeverity.Error,
    Severity.WARNING: types.DiagnosticSeverity.Warning,
    Severity.INFO: types.DiagnosticSeverity.Information,
}

#: ``Diagnostic.source`` of the validator's findings (same codes as ``amrcheck check``)
VALIDATION_SOURCE = "amrcheck"
#: ``Diagnostic.source`` of the comparison with the reference file
DIFF_SOURCE = "amrcheck-diff"
#: ``Diagnostic.source`` of the scores below ``lowScoreThreshold``
SCORE_SOURCE = "amrcheck-score"


def lsp_severity(severity: Severity) -> types.DiagnosticSeverity:
    return _SEVERITIES[severity]


def lsp_range(span: Span, lines: LineIndex) -> types.Range:
    return lines.range(span.start, span.end)


def lsp_location(span: Span, uri: str, lines: LineIndex) -> types.Location:
    return types.Location(uri=uri, range=lsp_range(span, lines))


def lsp_diagnostic(
    finding: Finding, lines: LineIndex, uri: str | None = None
) -> types.Diagnostic:
    """A validator finding as a diagnostic (code and message as ``amrcheck check``).

    With the document's ``uri``, the finding's related places (in the same
    document) become ``relatedInformation``.
    """
    related = None
    if uri is not None and finding.related:
        related = [
            types.DiagnosticRelatedInformation(
                location=lsp_location(r.span, uri, lines), message=r.message
            )
            for r in finding.related
        ]
    return types.Diagnostic(
        range=lsp_range(finding.span, lines),
        message=finding.message,
        severity=lsp_severity(finding.severity),
        code=finding.code,
        source=VALIDATION_SOURCE,
        related_information=related,
    )


def lsp_text_edit(edit: TextEdit, lines: LineIndex) -> types.TextEdit:
    return types.TextEdit(
        range=lines.range(edit.start, edit.end), new_text=edit.new_text
    )


def lsp_markdown(text: str) -> types.MarkupContent:
    return types.MarkupContent(kind=types.MarkupKind.Markdown, value=text)
