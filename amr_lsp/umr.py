"""UMR documents in the language server: read, validated and indexed per version.

The engine reads a UMR file sentence by sentence
(:func:`~amrcheck.reading.umr.iter_umr_pieces`,
:func:`~amrcheck.reading.umr.read_sentence`) and validates it in file order
(:class:`~amrcheck.validation.umr.UmrValidator`, whose findings for one
sentence depend on what earlier sentences defined). An edit changes one
sentence, so :class:`UmrCache` keeps, per sentence text and position:

* its reading (a sentence moved by lines added or removed above keeps it:
  its source's first line is changed, and every span on it moves);
* its validation, keyed on what the validator knew before it about the
  names the sentence uses (its variables, references, alignment and
  document-level nodes, its number). A sentence whose text and whose
  earlier context are unchanged is not validated again: the validator's
  state is advanced with the writes its check made last time (recorded
  by :class:`_Journal`), and its findings and their diagnostics (as
  JSON) are reused; when the sentence moved, the diagnostics' lines and
  the detached places of its writes move too (:func:`_moved`).

The document-wide checks (:meth:`UmrValidator.finish`) run on every
version. Offsets here are engine offsets into the whole document (see
:mod:`amr_lsp.convert`); a span of a sentence (or a detached span) is
placed with its source's first line.
"""

from __future__ import annotations

import json
import re
from bisect import bisect_right
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from lsprotocol import types

from amrcheck import Finding, Span
from amrcheck.reading.umr import (
    UmrSentence,
    is_umr_path,
    iter_umr_pieces,
    looks_like_umr,
    read_sentence,
    split_lines,
)
from amrcheck.span import SourceText
from amrcheck.validation.umr import UmrOptions, UmrValidator

from .convert import (
    VALIDATION_SOURCE,
    LineIndex,
    lf_line_starts,
    lsp_severity,
    uri_to_path,
)

#: the language id of UMR documents (the VS Code extension's ``umr`` language)
LANGUAGE_ID = "umr"
_NAME_RE = re.compile(r'[^\s()/:"]+')


def is_umr_document(uri: str, language_id: str | None, text: str) -> bool:
    """A ``umr`` document, a ``.umr`` path, or text with UMR block headings."""
    if language_id == LANGUAGE_ID:
        return True
    path = uri_to_path(uri)
    if path is not None and is_umr_path(path, head=""):
        return True
    return looks_like_umr(text[: 1 << 16])


# -- recording the validator's writes ----------------------------------------------


class _Journal:
    """The writes to a validator's document state during one sentence's check."""

    def __init__(self) -> None:
        self.writes: list[tuple[str, Any, Any]] = []


class _RecordingDict(dict[Any, Any]):
    def __init__(self, name: str, journal: list[_Journal]) -> None:
        super().__init__()
        self.name, self.journal = name, journal

    def __setitem__(self, key: Any, value: Any) -> None:
        self.journal[0].writes.append((self.name, key, value))
        super().__setitem__(key, value)

    def setdefault(self, key: Any, default: Any = None) -> Any:
        if key not in self:
            self.journal[0].writes.append((self.name, key, default))
        return super().setdefault(key, default)


class _RecordingSet(set[Any]):
    def __init__(self, name: str, journal: list[_Journal]) -> None:
        super().__init__()
        self.name, self.journal = name, journal

    def add(self, item: Any) -> None:
        self.journal[0].writes.append((self.name, item, None))
        super().add(item)


_DICTS = ("nodes", "numbers", "wiki")
_SETS = ("events", "entities")
_LISTS = ("pending", "temporal", "coref")


def _recording_validator(options: UmrOptions) -> tuple[UmrValidator, list[_Journal]]:
    validator = UmrValidator(options)
    journal = [_Journal()]
    for name in _DICTS:
        setattr(validator, name, _RecordingDict(name, journal))
    for name in _SETS:
        setattr(validator, name, _RecordingSet(name, journal))
    return validator, journal


@dataclass(slots=True, eq=False)
class ReadSentence:
    """One sentence read, and every name its text holds (what its check may
    look up in the validator's document state)."""

    sentence: UmrSentence
    names: frozenset[str]
    numbers: tuple[int, ...]


@dataclass(slots=True)
class _Checked:
    findings: list[Finding]
    #: the check's writes to each dict or set of the validator's state
    writes: dict[str, Any]
    appended: dict[str, list[Any]]
    crlf_seen: bool
    #: the sentence's first line when checked
    first_line: int
    #: every finding is placed in the sentence itself (so it moves with it)
    movable: bool
    #: the findings' diagnostics as JSON objects (joined with ","), made once
    diagnostics_json: str | None = None


def _grouped(writes: list[tuple[str, Any, Any]]) -> dict[str, Any]:
    grouped: dict[str, Any] = {}
    for name, key, value in writes:
        if name in _SETS:
            grouped.setdefault(name, set()).add(key)
        else:
            grouped.setdefault(name, {})[key] = value
    return grouped


def _context(validator: UmrValidator, read: ReadSentence) -> tuple[Any, ...]:
    """What the validator's check of ``read`` can see of earlier sentences."""
    nodes = validator.nodes
    names = read.names
    # not ``nodes.keys() & names``: that copies every key of the document;
    # the order of ``names`` is the same for the same reading (part of the key)
    known = filter(nodes.__contains__, names)
    numbers = validator.numbers
    return (
        validator.position,
        validator.crlf_seen,
        tuple((n, nodes[n].sentence, nodes[n].concept) for n in known),
        frozenset(validator.events & names),
        frozenset(validator.entities & names),
        tuple((n, str(numbers[n]) if n in numbers else None) for n in read.numbers),
    )


class UmrCache:
    """Readings and validations of the sentences of the last versions of a document."""

    def __init__(self) -> None:
        self.options = UmrOptions()
        self._pieces: list[SourceText] = []
        self._path = ""
        self._reads: dict[tuple[str, int], ReadSentence] = {}
        self._checks: dict[tuple[ReadSentence, tuple[Any, ...]], _Checked] = {}
        self.stats = {"read": 0, "checked": 0}

    def pieces(self, body: str, path: str) -> list[SourceText]:
        """The sentences' texts of ``body``, re-split only around the change
        since the last version: the unchanged sentences before it are kept,
        and splitting stops where a sentence starts that was unchanged after it."""
        old = self._pieces if self._path == path else []
        starts, lengths = [], []
        offset = 0
        for piece in old:
            starts.append(offset)
            lengths.append(len(piece.text))
            offset += len(piece.text)
        kept = 0  # leading pieces still in the text
        while kept < len(old) and body.startswith(old[kept].text, starts[kept]):
            kept += 1
        # the last one kept may end differently: its end depends on the next line
        redo = max(kept - 1, 0)
        shift = len(body) - offset
        tail: dict[int, int] = {}  # new start of an unchanged later piece -> index
        for index in range(len(old) - 1, redo, -1):
            start = starts[index] + shift
            if start <= (starts[redo] if old else 0) or not body.startswith(
                old[index].text, start
            ):
                break
            tail[start] = index
        result = old[:redo]
        begin = starts[redo] if old else 0
        first_line = old[redo].first_line if old else 1
        resumed = None
        position = begin
        for piece in iter_umr_pieces(split_lines(body[begin:]), path):
            if position in tail:
                resumed = tail[position]
                break
            piece.first_line += first_line - 1
            result.append(piece)
            position += len(piece.text)
        if resumed is not None:
            line_shift = result[-1].first_line + result[-1].text.count("\n") - (
                old[resumed].first_line
            ) if result else 1 - old[resumed].first_line
            for piece in old[resumed:]:
                if line_shift:
                    piece = SourceText(piece.text, path, piece.first_line + line_shift)
                result.append(piece)
        self._pieces, self._path = result, path
        return result

    def read(self, pieces: list[SourceText]) -> list[ReadSentence]:
        fresh: dict[tuple[str, int], ReadSentence] = {}
        result = []
        for index, source in enumerate(pieces):
            key = (source.text, index)
            known = self._reads.get(key) or fresh.get(key)
            if known is not None:
                # lines added or removed above move the sentence (and every
                # span on its text); an analysis of the previous version
                # still being answered from sees it moved too
                known.sentence.source.first_line = source.first_line
            if known is None:
                sentence = read_sentence(source, index)
                numbers = tuple(n for n, _, _ in sentence.number_places)
                known = ReadSentence(
                    sentence, frozenset(_NAME_RE.findall(source.text)), numbers
                )
                self.stats["read"] += 1
            fresh[key] = known
            result.append(known)
        self._reads = fresh
        return result

    def validate(
        self, reads: list[ReadSentence], options: UmrOptions
    ) -> tuple[list[_Checked], list[Finding]]:
        """Each sentence's check and the document-wide findings."""
        if options != self.options:
            self.options, self._checks = options, {}
        validator, journal = _recording_validator(options)
        fresh: dict[tuple[ReadSentence, tuple[Any, ...]], _Checked] = {}
        checked = []
        for read in reads:
            key = (read, _context(validator, read))
            known = self._checks.get(key) or fresh.get(key)
            line = read.sentence.source.first_line
            if known is not None and known.first_line != line:
                known = _moved(known, read.sentence, line) if known.movable else None
            if known is None:
                known = self._check(validator, journal, read)
                self.stats["checked"] += 1
            else:
                _replay(validator, known)
            fresh[key] = known
            checked.append(known)
        self._checks = fresh
        return checked, validator.finish()

    @staticmethod
    def _check(
        validator: UmrValidator, journal: list[_Journal], read: ReadSentence
    ) -> _Checked:
        journal[0] = _Journal()
        sizes = {name: len(getattr(validator, name)) for name in _LISTS}
        findings = validator.check(read.sentence)
        appended = {
            name: getattr(validator, name)[sizes[name]:] for name in _LISTS
        }
        own = read.sentence.source
        movable = all(
            f.span.source is own and all(r.span.source is own for r in f.related)
            for f in findings
        )
        return _Checked(
            findings, _grouped(journal[0].writes), appended, validator.crlf_seen,
            own.first_line, movable,
        )


_LINE_RE = re.compile(r'"line": ([0-9]+)')
#: state that holds no places: nothing to move (nodes keep sentence and concept)
_PLACELESS = frozenset({"nodes", *_SETS})


def _moved(checked: _Checked, sentence: UmrSentence, line: int) -> _Checked:
    """``checked`` for its sentence moved to ``line``: the findings are on the
    sentence's text (they moved with it); the detached places it left in the
    validator's state, and its diagnostics' lines, move here."""
    lines = line - checked.first_line
    own = sentence.source

    def move(value: Any) -> Any:
        if isinstance(value, Span):
            if value.source is own:
                return value
            source = value.source
            return Span(
                SourceText(source.text, source.path, source.first_line + lines),
                value.start, value.end,
            )
        if isinstance(value, tuple):
            return tuple(move(item) for item in value)
        return value

    writes = {
        name: written if name in _PLACELESS
        else {key: move(value) for key, value in written.items()}
        for name, written in checked.writes.items()
    }
    appended = {
        name: [move(item) for item in items]
        for name, items in checked.appended.items()
    }
    diagnostics = checked.diagnostics_json
    if diagnostics:
        diagnostics = _LINE_RE.sub(
            lambda m: f'"line": {int(m.group(1)) + lines}', diagnostics
        )
    return _Checked(
        checked.findings, writes, appended, checked.crlf_seen, line, True, diagnostics
    )


def _replay(validator: UmrValidator, checked: _Checked) -> None:
    """Advance ``validator`` past a sentence as its recorded check did."""
    for name, written in checked.writes.items():
        target = getattr(validator, name)
        if name in _SETS:
            set.update(target, written)
        else:
            dict.update(target, written)
    for name, items in checked.appended.items():
        getattr(validator, name).extend(items)
    validator.crlf_seen = checked.crlf_seen
    validator.position += 1


# -- one version of a document -------------------------------------------------------


@dataclass(slots=True, eq=False)
class UmrAnalysis:
    """One version of a UMR document: its sentences, findings and places."""

    uri: str
    version: int | None
    lines: LineIndex
    #: engine offset of each line start (engine text: the buffer without a BOM)
    line_starts: list[int]
    reads: list[ReadSentence]
    checked: list[Any]
    document_findings: list[Finding]
    #: engine offset where each sentence starts
    starts: list[int] = field(default_factory=list)

    @property
    def sentences(self) -> list[UmrSentence]:
        return [read.sentence for read in self.reads]

    @property
    def findings(self) -> Iterator[Finding]:
        for checked in self.checked:
            yield from checked.findings
        yield from self.document_findings

    # -- places --

    def offset_of(self, span: Span) -> tuple[int, int]:
        """The engine offsets of ``span`` in the document."""
        base = self.line_starts[span.source.first_line - 1]
        return base + span.start, base + span.end

    def local(self, sentence: UmrSentence, start: int, end: int) -> tuple[int, int]:
        base = self.line_starts[sentence.source.first_line - 1]
        return base + start, base + end

    def range_of(self, span: Span) -> types.Range:
        return self.lines.range(*self.offset_of(span))

    def local_range(self, sentence: UmrSentence, start: int, end: int) -> types.Range:
        return self.lines.range(*self.local(sentence, start, end))

    def sentence_at(self, offset: int) -> tuple[UmrSentence, int] | None:
        """The sentence holding engine ``offset`` and the offset within it."""
        index = bisect_right(self.starts, offset) - 1
        if index < 0:
            return None
        sentence = self.reads[index].sentence
        return sentence, offset - self.starts[index]

    # -- diagnostics --

    def diagnostic(self, finding: Finding) -> types.Diagnostic:
        related = [
            types.DiagnosticRelatedInformation(
                location=types.Location(uri=self.uri, range=self.range_of(r.span)),
                message=r.message,
            )
            for r in finding.related
        ] or None
        return types.Diagnostic(
            range=self.range_of(finding.span),
            message=finding.message,
            severity=lsp_severity(finding.severity),
            code=finding.code,
            source=VALIDATION_SOURCE,
            related_information=related,
        )

    def diagnostics_json(self, converter: Any) -> str:
        """``publishDiagnostics`` params as JSON: each sentence's part made
        once (a file of 9,000 findings takes ~0.2 s to serialise)."""
        parts = []
        for checked in self.checked:
            if checked.diagnostics_json is None:
                checked.diagnostics_json = ",".join(
                    json.dumps(converter.unstructure(self.diagnostic(f)))
                    for f in checked.findings
                )
            if checked.diagnostics_json:
                parts.append(checked.diagnostics_json)
        parts.extend(
            json.dumps(converter.unstructure(self.diagnostic(f)))
            for f in self.document_findings
        )
        return (
            f'{{"uri":{json.dumps(self.uri)},"version":{json.dumps(self.version)},'
            f'"diagnostics":[{",".join(parts)}]}}'
        )


def analyze_umr(
    uri: str, version: int | None, text: str, encoding: str, cache: UmrCache,
    options: UmrOptions,
) -> UmrAnalysis:
    """Read and validate one version of a UMR document (``text``: the buffer)."""
    lines = LineIndex(text, encoding, bom=text.startswith("\ufeff"))
    body = text[1:] if text.startswith("\ufeff") else text
    path = str(uri_to_path(uri) or uri)
    pieces = cache.pieces(body, path)
    reads = cache.read(pieces)
    checked, document_findings = cache.validate(reads, options)
    # the client's line ends are the engine's when there is no CR and no BOM
    same = lines.shift == 0 and "\r" not in text
    line_starts = lines.line_starts if same else lf_line_starts(body)
    starts = [line_starts[p.first_line - 1] for p in pieces]
    return UmrAnalysis(
        uri, version, lines, line_starts, reads, checked, document_findings, starts
    )
