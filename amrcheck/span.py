"""Source text and spans: where a piece of a graph came from.

Offsets are code-point indices into :attr:`SourceText.text` (the decoded
file with a leading UTF-8 BOM removed and newlines normalised to ``\\n``).
Lines and columns are 1-based and count code points, as compilers print
them (``path:line:col``). Front ends that need other units (the language
server's UTF-16 positions) convert from offsets.

A :class:`SourceText` may hold one piece of a file (files too large to
hold at once are read piece by piece): ``first_line`` is then the file
line its text starts on, so lines stay those of the file while offsets
count from the piece's start.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass
from itertools import accumulate


class SourceText:
    """The text of one file (or editor buffer, or piece of a file) and its lines.

    ``first_line`` is the 1-based line of the file that ``text`` starts on
    (1 unless the text is a piece that starts further on, at a line start).
    """

    __slots__ = ("path", "text", "first_line", "_line_starts")

    def __init__(self, text: str, path: str = "<string>", first_line: int = 1) -> None:
        self.path = path
        self.text = text
        self.first_line = first_line
        self._line_starts: list[int] | None = None

    def __reduce__(self) -> tuple[type[SourceText], tuple[str, str, int]]:
        # compiled, the class has no argument-free constructor for pickle's
        # default (the line table is made again where it is asked for)
        return SourceText, (self.text, self.path, self.first_line)

    def line_starts(self) -> list[int]:
        if self._line_starts is None:
            # each line starts one past the end of the one before: the
            # lengths of the lines, each + 1, summed up (all in C)
            lines = self.text.split("\n")
            lines.pop()
            self._line_starts = list(
                accumulate(map((1).__add__, map(len, lines)), initial=0)
            )
        return self._line_starts

    def line_column(self, offset: int) -> tuple[int, int]:
        """1-based (line, column) of a code-point offset."""
        starts = self.line_starts()
        index = bisect_right(starts, offset) - 1
        return index + self.first_line, offset - starts[index] + 1

    def offset(self, line: int, column: int) -> int:
        """Code-point offset of a 1-based (line, column)."""
        return self.line_starts()[line - self.first_line] + column - 1

    def line_text(self, line: int) -> str:
        starts = self.line_starts()
        index = line - self.first_line
        start = starts[index]
        end = starts[index + 1] - 1 if index + 1 < len(starts) else len(self.text)
        return self.text[start:end].rstrip("\r")

    def span(self, start: int, end: int) -> Span:
        return Span(self, start, end)

    def __repr__(self) -> str:
        return f"SourceText({self.path!r}, {len(self.text)} chars)"


@dataclass(frozen=True, slots=True)
class Span:
    """A half-open range ``[start, end)`` of offsets in a :class:`SourceText`."""

    source: SourceText
    start: int
    end: int

    def __reduce__(self) -> tuple[type[Span], tuple[SourceText, int, int]]:
        # compiled, pickle's default would set the frozen fields one by one
        return Span, (self.source, self.start, self.end)

    @property
    def path(self) -> str:
        return self.source.path

    @property
    def line(self) -> int:
        return self.source.line_column(self.start)[0]

    @property
    def column(self) -> int:
        return self.source.line_column(self.start)[1]

    @property
    def end_line(self) -> int:
        return self.source.line_column(self.end)[0]

    @property
    def end_column(self) -> int:
        return self.source.line_column(self.end)[1]

    @property
    def text(self) -> str:
        return self.source.text[self.start:self.end]

    def caret_line(self) -> str:
        """The source line with a caret under the span's start, for CLIs."""
        line, column = self.source.line_column(self.start)
        source_line = self.source.line_text(line)
        width = max(1, min(self.end, self.start + len(source_line)) - self.start)
        if self.end_line != line:
            width = max(1, len(source_line) - column + 1)
        return f"{source_line}\n{' ' * (column - 1)}{'^' * width}"

    def __str__(self) -> str:
        # line_column inlined: a UMR release check prints ~700,000 places
        source = self.source
        starts = source._line_starts or source.line_starts()
        index = bisect_right(starts, self.start) - 1
        line, column = index + source.first_line, self.start - starts[index] + 1
        return f"{source.path}:{line}:{column}"

    def detached(self) -> Span:
        """The same place on a copy of only the lines it covers.

        A span keeps its whole source text alive; a detached one keeps a
        few lines, so the findings of a file read in chunks do not hold
        the file. Lines, columns and text are those of this span.

        Example:
            >>> span = SourceText("a\\nbc d\\ne\\n", "f.amr").span(4, 6)
            >>> small = span.detached()
            >>> str(small), small.text, small.source.text
            ('f.amr:2:3', ' d', 'bc d')
        """
        text = self.source.text
        begin = text.rfind("\n", 0, self.start) + 1
        finish = text.find("\n", self.end)
        piece = text[begin : len(text) if finish < 0 else finish]
        line = self.source.line_column(begin)[0]
        return Span(SourceText(piece, self.path, line), self.start - begin,
                    self.end - begin)
