"""Validate files and summarise: what ``amrcheck check`` and ``amr-check`` share.

Layer: engine, above reading and validation. One :class:`FileResult` per
file: its graphs, the findings that survive the ``select``/``ignore``
filters, or why the file could not be read. Front ends render the
results; :func:`summary` is the one-line summary both print.

A file is read in chunks (:func:`~amrcheck.reading.corpus.read_chunks`)
and each chunk validated on its own, so a file of any size is checked in
bounded memory: what is kept are the findings, each with a copy of only
its own lines (:meth:`~amrcheck.findings.Finding.detached`).

Example:
    >>> from pathlib import Path
    >>> results = [check_file(Path("no/such.amr"), [], [])]
    >>> results[0].problem
    'no/such.amr: No such file or directory'
    >>> summary(results)
    'Found 0 errors and 0 warnings (1 file, 0 graphs; 1 unreadable).'
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass, field
from operator import attrgetter
from pathlib import Path

from ..collector import collector_paused
from ..errors import InputError, RefusedInputError
from ..findings import Finding, Severity
from ..reading.corpus import read_chunks
from ..reading.umr import is_umr_path, iter_umr_file
from ..span import SourceText
from .rules import select_findings
from .umr import UmrOptions, UmrValidator
from .validate import validate


@dataclass
class FileResult:
    """The outcome of checking one file."""

    path: str
    graphs: int = 0
    findings: list[Finding] = field(default_factory=list)
    problem: str | None = None  # why the file could not be read
    #: the file was refused (not a regular file, too large, endless)
    refused: bool = False
    #: errors and warnings among the findings taken out (:meth:`take_findings`)
    taken_errors: int = 0
    taken_warnings: int = 0

    @property
    def errors(self) -> int:
        return self.taken_errors + sum(f.is_error for f in self.findings)

    @property
    def warnings(self) -> int:
        kept = len(self.findings) - sum(f.is_error for f in self.findings)
        return self.taken_warnings + kept

    def take_findings(self) -> list[Finding]:
        """The findings, taken out (a front end that prints them at once
        need not hold them all); the counts keep them."""
        taken, self.findings = self.findings, []
        errors = [f.severity for f in taken].count(Severity.ERROR)
        self.taken_errors += errors
        self.taken_warnings += len(taken) - errors
        return taken

    def fails(self, fail_on: str = "error") -> bool:
        """Unreadable, or has an error (or a warning, with ``fail_on="warning"``)."""
        strict = fail_on == "warning" and self.warnings > 0
        return self.problem is not None or self.errors > 0 or strict


def check_file(
    path: Path, select: list[str], ignore: list[str], umr: UmrOptions | None = None
) -> FileResult:
    """Read and validate ``path``; keep the findings ``select``/``ignore`` allow.

    A UMR file (``.umr``, or UMR block headings in its first lines) is
    checked by the UMR rules with the ``umr`` options. The findings are in
    file order (the order of :func:`ordered_findings`).
    """
    if is_umr_path(path):
        return check_umr_file(path, select, ignore, umr)
    result = FileResult(str(path))
    seen_ids: dict[str, int] = {}
    try:
        for chunk in read_chunks(path):
            corpus = chunk.corpus
            result.graphs += len(corpus)
            found = validate(corpus, seen_ids=seen_ids)
            result.findings += [
                f.detached() for f in select_findings(found, select, ignore)
            ]
    except InputError as exc:
        # as for a file read whole: no findings of the part before the error
        refused = isinstance(exc, RefusedInputError)
        return FileResult(str(path), problem=str(exc), refused=refused)
    return result


def check_umr_file(
    path: Path, select: list[str], ignore: list[str], options: UmrOptions | None = None
) -> FileResult:
    """:func:`check_file` for a UMR file, read sentence by sentence."""
    result = FileResult(str(path))
    validator = UmrValidator(options)
    # the findings are many small objects without reference cycles: the
    # cyclic collector would only re-scan them (most of the time of a
    # release's check); the survivors skip the young generations after
    with collector_paused(promote=True):
        return _check_umr(path, select, ignore, validator, result)


def _check_umr(
    path: Path, select: list[str], ignore: list[str], validator: UmrValidator,
    result: FileResult,
) -> FileResult:
    filtering = bool(select or ignore)
    found: list[Finding] = []
    try:
        for sentence in iter_umr_file(path):
            result.graphs += 1
            # a sentence's source is a piece of the file with that sentence
            # alone: its findings keep it, not the file (no detaching needed)
            checked = validator.check(sentence)
            if filtering:
                checked = select_findings(checked, select, ignore)
            # sentences follow each other in the file: sorting each one's
            # findings puts the file's in order, without sorting them all
            _sort_in_sentence(checked, sentence.source)
            found += checked
    except InputError as exc:
        refused = isinstance(exc, RefusedInputError)
        return FileResult(str(path), problem=str(exc), refused=refused)
    document = select_findings(validator.finish(), select, ignore)
    document.sort(key=_place)
    for finding in document:  # a few; after the findings at the same place
        found.insert(bisect_right(found, _place(finding), key=_place), finding)
    result.findings = found
    return result


def _sort_in_sentence(found: list[Finding], source: SourceText) -> None:
    """Sort one sentence's findings by place and code, as :func:`_place`
    would: within one source, offsets are in the order of (line, column)."""
    # (the keys made in C: a release check sorts ~700,000 findings)
    if list(map(_source_of, found)).count(source) == len(found):
        found.sort(key=_offset_and_code)
    else:
        found.sort(key=_place)


#: a source has no ``__eq__``: counting it in a list counts identical ones
_source_of = attrgetter("span.source")
_offset_and_code = attrgetter("span.start", "code")


def _place(finding: Finding) -> tuple[int, int, str]:
    line, column = finding.span.source.line_column(finding.span.start)
    return line, column, finding.code


def ordered_findings(results: list[FileResult]) -> list[Finding]:
    """Every finding of ``results``, by file path, then place in the file."""
    ordered = sorted(results, key=lambda result: result.path)
    return [finding for result in ordered for finding in result.findings]


def finding_lines(findings: list[Finding]) -> list[str]:
    """``str(finding)`` of each finding (``path:line:col: CODE message``),
    made without two method calls per finding: a UMR release check prints
    ~700,000 of them."""
    lines: list[str] = []
    add = lines.append
    source = None
    starts: list[int] = []
    path, first_line = "", 0
    for finding in findings:
        span = finding.span
        if span.source is not source:
            source = span.source
            starts = source.line_starts()
            path, first_line = source.path, source.first_line - 1
        start = span.start
        index = bisect_right(starts, start)
        add(
            f"{path}:{index + first_line}:{start - starts[index - 1] + 1}: "
            f"{finding.code} {finding.message}"
        )
    return lines


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
