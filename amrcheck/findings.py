"""Findings: problems in AMR text, returned as data (never raised)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any

from .span import SourceText, Span


class Severity(str, Enum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"


@dataclass(frozen=True, slots=True)
class Related:
    """Another place that explains a finding (an editor links to it)."""

    span: Span
    message: str


@dataclass(frozen=True, slots=True)
class Finding:
    """One problem at one place: a stable rule ``code``, a message, a span.

    ``related`` are the other places that explain it, e.g. the ``(`` that
    an E001 (placed where the parser ran out) leaves unclosed.
    """

    code: str
    message: str
    severity: Severity
    span: Span
    related: tuple[Related, ...] = ()

    @property
    def is_error(self) -> bool:
        return self.severity is Severity.ERROR

    def shifted(self, source: SourceText, delta: int) -> Finding:
        """This finding on ``source``, ``delta`` characters further on."""
        def move(span: Span) -> Span:
            return Span(source, span.start + delta, span.end + delta)

        related = tuple(Related(move(r.span), r.message) for r in self.related)
        return Finding(self.code, self.message, self.severity, move(self.span), related)

    def detached(self) -> Finding:
        """This finding on a copy of the lines it covers (:meth:`Span.detached`),
        its related places likewise."""
        related = tuple(Related(r.span.detached(), r.message) for r in self.related)
        return Finding(
            self.code, self.message, self.severity, self.span.detached(), related
        )

    def sort_key(self) -> tuple[str, int, str]:
        return (self.span.path, self.span.start, self.code)

    def __str__(self) -> str:
        return f"{self.span!s}: {self.code} {self.message}"

    def to_dict(self) -> dict[str, Any]:
        span = self.span
        return {
            "path": span.path,
            "line": span.line,
            "column": span.column,
            "end_line": span.end_line,
            "end_column": span.end_column,
            "code": self.code,
            "severity": self.severity.value,
            "message": self.message,
            **(
                {"related": [
                    {"line": r.span.line, "column": r.span.column, "message": r.message}
                    for r in self.related
                ]}
                if self.related else {}
            ),
        }
