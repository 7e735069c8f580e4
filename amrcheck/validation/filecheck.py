"""Validate whole files and summarise: what ``amrcheck check`` and ``amr-check`` share.

Layer: engine, above reading and validation. One :class:`FileResult` per
file: its graphs, the findings that survive the ``select``/``ignore``
filters, or why the file could not be read. Front ends render the
results; :func:`summary` is the one-line summary both print.

Example:
    >>> from pathlib import Path
    >>> results = [check_file(Path("no/such.amr"), [], [])]
    >>> results[0].problem
    'no/such.amr: No such file or directory'
    >>> summary(results)
    'Found 0 errors and 0 warnings (1 file, 0 graphs; 1 unreadable).'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..errors import InputError
from ..findings import Finding
from ..reading.corpus import read_corpus
from .rules import select_findings
from .validate import validate


@dataclass
class FileResult:
    """The outcome of checking one file."""

    path: str
    graphs: int = 0
    findings: list[Finding] = field(default_factory=list)
    problem: str | None = None  # why the file could not be read

    @property
    def errors(self) -> int:
        return sum(f.is_error for f in self.findings)

    @property
    def warnings(self) -> int:
        return len(self.findings) - self.errors

    def fails(self, fail_on: str = "error") -> bool:
        """Unreadable, or has an error (or a warning, with ``fail_on="warning"``)."""
        strict = fail_on == "warning" and self.warnings > 0
        return self.problem is not None or self.errors > 0 or strict


def check_file(path: Path, select: list[str], ignore: list[str]) -> FileResult:
    """Read and validate ``path``; keep the findings ``select``/``ignore`` allow."""
    result = FileResult(str(path))
    try:
        corpus = read_corpus(path)
    except InputError as exc:
        result.problem = str(exc)
        return result
    result.graphs = len(corpus)
    result.findings = select_findings(validate(corpus), select, ignore)
    return result


def plural(count: int, word: str) -> str:
    """``1 file``, ``1,562 graphs``."""
    return f"{count:,} {word}{'' if count == 1 else 's'}"


def summary(results: list[FileResult]) -> str:
    """One line: how many errors and warnings in how many files and graphs."""
    errors = sum(r.errors for r in results)
    warnings = sum(r.warnings for r in results)
    graphs = sum(r.graphs for r in results)
    unreadable = sum(r.problem is not None for r in results)
    where = f"{plural(len(results), 'file')}, {plural(graphs, 'graph')}"
    if unreadable:
        where += f"; {unreadable:,} unreadable"
    if not errors and not warnings and not unreadable:
        return f"No problems found ({where})."
    return (
        f"Found {plural(errors, 'error')} and {plural(warnings, 'warning')} ({where})."
    )
