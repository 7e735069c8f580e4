"""Re-reading an edited text: only the blocks around the edit are parsed again.

Editors send a new version of a document on every keystroke; re-reading a
1,500-graph file each time would cost a tenth of a second. :func:`reparse`
finds what changed between the previous text and the new one (common
prefix and suffix), widens that to *fresh-start* block boundaries and
parses only the region between them; every entry outside it is carried
over onto the new text (shifted when it lies after the edit).

A fresh-start boundary is a line, after a blank line, whose first
character is ``#`` or a column-1 ``(``. The reader never joins such a
block to the text before it (see :mod:`amrcheck.reading._parse`), so a parse that
starts there gives exactly what a full parse gives from there on. The
tests compare both on random edits of real files.
"""

from __future__ import annotations

import re
from functools import partial

from ..graph import Graph
from ..span import SourceText
from ._parse import Entry, _graph_offsets, parse_source
from .corpus import Corpus, normalize_text

# a line end followed by one or more blank lines: end() is the next line's start
_BLANK_RUN_RE = re.compile(r"\n(?:[^\S\n]*\n)+")
_CHUNK = 4096


def reparse(previous: Corpus, text: str) -> Corpus:
    """The corpus of ``text``, re-reading only what differs from ``previous``.

    Equal to ``read_string(text, previous.path)``, entry for entry.

    Example:
        >>> from amrcheck import read_string
        >>> old = read_string("(a / b)\\n\\n(c / d)\\n\\n(e / f)\\n")
        >>> new = reparse(old, "(a / b)\\n\\n(c / dog)\\n\\n(e / f)\\n")
        >>> [entry.graph.triples[0][2] for entry in new]
        ['b', 'dog', 'f']
    """
    text = normalize_text(text)
    old_text = previous.source.text
    source = SourceText(text, previous.path)
    prefix = _common_prefix(old_text, text)
    room = min(len(old_text), len(text)) - prefix  # the suffix may not overlap it
    suffix = _common_suffix(old_text, text, room)
    old_end = len(old_text) - suffix  # the edit is old_text[prefix:old_end]
    delta = len(text) - len(old_text)
    start = _fresh_start_before(old_text, prefix)
    stop = _fresh_start_after(old_text, old_end)  # in the old text
    before = [e for e in previous.entries if e.end <= start]
    after = [e for e in previous.entries if e.start >= stop]
    region_end = len(text) if stop >= len(old_text) else stop + delta
    region, orphans = parse_source(source, start, region_end, first_index=len(before))
    entries = [_rebased(e, source, 0, e.index) for e in before]
    entries.extend(region)
    first_after = len(entries)
    entries.extend(
        _rebased(e, source, delta, first_after + k) for k, e in enumerate(after)
    )
    findings = [f.shifted(source, 0) for f in previous.findings if f.span.end <= start]
    findings.extend(orphans)
    findings.extend(
        f.shifted(source, delta) for f in previous.findings if f.span.start >= stop
    )
    return Corpus(source, entries, findings)


def _common_prefix(a: str, b: str) -> int:
    """Length of the common prefix, compared a chunk at a time in C."""
    limit = min(len(a), len(b))
    n = 0
    while n + _CHUNK <= limit and a[n:n + _CHUNK] == b[n:n + _CHUNK]:
        n += _CHUNK
    while n < limit and a[n] == b[n]:
        n += 1
    return n


def _common_suffix(a: str, b: str, limit: int) -> int:
    """Length of the common suffix, at most ``limit``."""
    n = 0
    la, lb = len(a), len(b)
    while n + _CHUNK <= limit and (
        a[la - n - _CHUNK:la - n] == b[lb - n - _CHUNK:lb - n]
    ):
        n += _CHUNK
    while n < limit and a[la - n - 1] == b[lb - n - 1]:
        n += 1
    return n


def _fresh_start_before(text: str, offset: int) -> int:
    """The last fresh-start boundary strictly before ``offset`` (else 0).

    "Strictly": the boundary's first character must be unchanged text, or
    the edit could turn it into a continuation line.
    """
    window = _CHUNK
    while True:
        low = max(0, offset - window)
        starts = [m.end() for m in _BLANK_RUN_RE.finditer(text, low, offset)]
        for start in reversed(starts):
            if start < offset and text[start] in "#(":
                return start
        if low == 0:
            return 0
        window *= 4


def _fresh_start_after(text: str, offset: int) -> int:
    """The first fresh-start boundary after a blank line that begins at or
    after ``offset`` (so that blank line is unchanged text); ``len(text)``
    when there is none."""
    for match in _BLANK_RUN_RE.finditer(text, offset):
        start = match.end()
        if start < len(text) and text[start] in "#(":
            return start
    return len(text)


def _rebased(entry: Entry, source: SourceText, delta: int, index: int) -> Entry:
    """``entry`` on the new text, ``delta`` characters further on.

    Built field by field rather than with ``dataclasses.replace``: this runs
    for every entry of the file on every edit, and ``replace`` costs three
    times as much.
    """
    graph = entry.graph
    if delta:
        metadata_offsets = {
            key: (start + delta, end + delta)
            for key, (start, end) in entry.metadata_offsets.items()
        }
        comments = [(start + delta, end + delta) for start, end in entry.comments]
    else:
        metadata_offsets = dict(entry.metadata_offsets)
        comments = list(entry.comments)
    return Entry(
        source=source,
        index=index,
        start=entry.start + delta,
        end=entry.end + delta,
        metadata=dict(entry.metadata),
        metadata_offsets=metadata_offsets,
        comments=comments,
        graph=None if graph is None else _rebased_graph(graph, source, delta),
        errors=(
            [finding.shifted(source, delta) for finding in entry.errors]
            if entry.errors else []
        ),
    )


def _rebased_graph(graph: Graph, source: SourceText, delta: int) -> Graph:
    start, end = graph.start + delta, graph.end + delta
    known = graph._offsets
    if known is None:
        offsets, factory = None, partial(_graph_offsets, source, start, end)
    elif delta:
        offsets, factory = [
            (a + delta, b + delta, c + delta, d + delta) for a, b, c, d in known
        ], None
    else:
        offsets, factory = list(known), None
    return Graph(
        source=source,
        top=graph.top,
        triples=graph.triples,
        kinds=graph.kinds,
        start=start,
        end=end,
        alignments=graph.alignments,
        _offsets=offsets,
        offsets_factory=factory,
    )

