"""Reference files: which one a document is compared with, loaded once per change.

A document's reference comes from its header (``# ::reference path`` in
the first entry's metadata, relative to the document's folder) or else
from the first ``references`` setting whose glob matches the document
(relative to the workspace root). Reference files are read with the
engine once and re-read when their modification time or size changes.

What may be read is decided first (:mod:`amr_lsp.workspace`: a header
may name only files of the workspace; the engine reads only regular
files within the size limit, without blocking); a refused reference is
never opened, and the refusal is the reference's problem, shown on the
header line.

A document's graphs are paired with the reference's by the engine's rule
(:func:`amrcheck.pairing.graphs.match_entries`, in :mod:`amr_lsp.analysis`).
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from dataclasses import dataclass
from fnmatch import fnmatchcase
from pathlib import Path

from amrcheck import Corpus, InputError, InputTooLargeError, read_corpus
from amrcheck.reading.corpus import normalize_text, read_text
from amrcheck.reading.umr import UmrDocument, is_umr_path
from amrcheck.reading.umr_corpus import corpus_of, document_of

from .convert import LineIndex, path_to_uri
from .workspace import SIZE_SETTING, ReadPolicy

#: the metadata key of a per-file reference
REFERENCE_KEY = "reference"


@dataclass(frozen=True, slots=True)
class ReferenceChoice:
    """Where a document's reference is, and what chose it."""

    path: Path
    #: "header" (``# ::reference``) or the settings glob that matched
    origin: str
    #: a header's path as written, made absolute but symlinks not resolved
    written: Path | None = None


def choose_reference(
    corpus: Corpus,
    document: Path | None,
    root: Path | None,
    mapping: dict[str, str],
) -> ReferenceChoice | None:
    """The reference of a document, or None if it has none.

    Example:
        >>> from amrcheck import read_string
        >>> doc = read_string("# ::reference ../gold/a.amr\\n# ::id 1\\n(a / b)\\n")
        >>> choose_reference(doc, Path("/w/ann/a.amr"), Path("/w"), {}).path
        PosixPath('/w/gold/a.amr')
        >>> mapping = {"ann/*.amr": "gold/{name}.gold.amr"}
        >>> choose_reference(read_string("(a / b)"), Path("/w/ann/x.amr"), Path("/w"),
        ...                  mapping).path
        PosixPath('/w/gold/x.gold.amr')
    """
    header = corpus.entries[0].metadata.get(REFERENCE_KEY, "") if corpus.entries else ""
    return choose_reference_for(header, document, root, mapping)


def choose_reference_for(
    header: str | None,
    document: Path | None,
    root: Path | None,
    mapping: dict[str, str],
) -> ReferenceChoice | None:
    """The reference of a document whose header names ``header`` (None or
    empty: none), else the first ``references`` setting that matches it.

    Example:
        >>> choose_reference_for("gold.umr", Path("/w/a/b.umr"), None, {}).path
        PosixPath('/w/a/gold.umr')
    """
    header = (header or "").strip()
    if header:
        base = document.parent if document is not None else Path.cwd()
        written = Path(os.path.normpath(base / header))
        return ReferenceChoice(_normal(written), "header", written)
    if document is None:
        return None
    base = root if root is not None else document.parent
    try:
        relative = document.relative_to(base).as_posix()
    except ValueError:
        relative = document.as_posix()
    for pattern, template in mapping.items():
        if fnmatchcase(relative, pattern) or fnmatchcase(document.as_posix(), pattern):
            folder = Path(relative).parent.as_posix()
            target = template.format(
                name=document.stem, filename=document.name, dir=folder
            )
            return ReferenceChoice(_normal(base / target), pattern)
    return None


def _normal(path: Path) -> Path:
    # resolve ".." without requiring the file to exist (it may be missing)
    return Path(*Path(path).absolute().parts).resolve(strict=False)


@dataclass(frozen=True, slots=True, eq=False)
class LoadedReference:
    """One read of a reference file (or why it could not be read)."""

    path: Path
    uri: str
    #: bumped on every re-read; part of the comparison cache key
    generation: int
    corpus: Corpus | None
    lines: LineIndex | None
    problem: str | None
    #: a UMR reference read as a document (its ``corpus``: the sentence graphs)
    umr: UmrDocument | None = None


class ReferenceStore:
    """Reference files by path, re-read when they change on disk.

    Reading runs in the server's engine thread; the lock guards only the
    table (the event loop calls :meth:`forget` and sets :attr:`policy`).
    The last ``max_files`` files read are kept; missing and refused files
    are not (they cost a ``stat`` or nothing to tell again).
    """

    def __init__(self, encoding: str = "utf-16", max_files: int = 8) -> None:
        #: the client's position encoding (positions into reference files)
        self.encoding = encoding
        #: what may be read (set by the server as settings and folders change)
        self.policy = ReadPolicy()
        self._loaded: OrderedDict[Path, tuple[tuple[int, ...], LoadedReference]] = (
            OrderedDict()
        )
        self._max_files = max_files
        self._generation = 0
        self._lock = threading.Lock()

    def get(self, choice: ReferenceChoice, document: Path | None) -> LoadedReference:
        """The reference ``choice`` of ``document``, read if the policy allows."""
        policy, path = self.policy, choice.path
        if choice.origin == "header":
            refused = policy.header_refusal(path, document, choice.written)
            if refused is not None:  # not even looked at
                return self._unread(path, refused)
        stamp = _stamp(path, policy.max_bytes)
        if stamp is None:
            return self._unread(path, f"reference file {path} not found")
        with self._lock:
            known = self._loaded.get(path)
            if known is not None and known[0] == stamp:
                self._loaded.move_to_end(path)
                return known[1]
            self._generation += 1
            generation = self._generation
        loaded = _load(path, generation, self.encoding, policy.max_bytes)
        with self._lock:
            self._loaded[path] = (stamp, loaded)
            self._loaded.move_to_end(path)
            while len(self._loaded) > self._max_files:
                self._loaded.popitem(last=False)
        return loaded

    def forget(self, path: Path) -> None:
        with self._lock:
            self._loaded.pop(path, None)

    def _unread(self, path: Path, problem: str) -> LoadedReference:
        return LoadedReference(path, path_to_uri(path), 0, None, None, problem)


def _stamp(path: Path, max_bytes: int) -> tuple[int, ...] | None:
    """What identifies one version of the file under one size limit (None: missing).

    ``os.stat`` only: it never opens the file, so a FIFO cannot block it.
    """
    try:
        status = path.stat()
    except OSError:
        return None
    return (status.st_dev, status.st_ino, status.st_mode, status.st_mtime_ns,
            status.st_size, max_bytes)


def _load(
    path: Path, generation: int, encoding: str, max_bytes: int
) -> LoadedReference:
    uri = path_to_uri(path)
    umr: UmrDocument | None = None
    try:
        if is_umr_path(path, head=""):  # by its name: nothing opened to look
            # as ``amrcheck score`` reads it: the sentence graphs, ids snt<N>
            text = normalize_text(read_text(path, max_bytes=max_bytes))
            umr = document_of(text, str(path))
            corpus = corpus_of(umr, text)
        else:
            corpus = read_corpus(path, max_bytes=max_bytes)
    except InputError as exc:
        why = f"cannot read reference file {exc}"
        if isinstance(exc, InputTooLargeError):
            why += f" (setting {SIZE_SETTING})"
        return LoadedReference(path, uri, generation, None, None, why)
    lines = LineIndex(corpus.source.text, encoding)
    problem: str | None = None
    broken = [entry for entry in corpus if entry.graph is None]
    if len(broken) == len(corpus):
        problem = f"reference file {path} has no readable graph"
    elif broken:
        entry = broken[0]
        first = entry.errors[0].span if entry.errors else entry.span
        problem = (
            f"reference file {path}: {len(broken)} graph"
            f"{'s' if len(broken) > 1 else ''} with syntax errors (first at line "
            f"{first.line}) cannot be compared"
        )
    return LoadedReference(path, uri, generation, corpus, lines, problem, umr)

