"""What changed between two versions of a UMR file, layer by layer.

Layer: engine. Sentences are paired by their number (``# :: sntN``; by
position when a sentence has none). For each pair the sentence graph
(its triples, variables as written: UMR variables are stable names), the
alignment (each node's ranges), the document-level triples and the words
are compared; every change names the place of the item, in NEW for what
was added or changed and in OLD for what was removed. Scores are UMR II's.

The OLD file is kept as compact per-sentence summaries (text and place of
each item) and NEW is streamed, so memory grows with OLD's items, not with
its text.

Example:
    >>> from pathlib import Path
    >>> old = Path("tests/data/umr/valid.umr")
    >>> new = Path("tests/data/umr/probes/U307.umr")
    >>> for change in diff_umr(old, new):
    ...     print(change)
    tests/data/umr/probes/U307.umr:21:1: snt1 alignment ~ s1c: 3-3 -> 3-9
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from ..graph import TripleKind
from ..reading.umr import UmrSentence, iter_umr_file
from ..span import Span

#: the layers a change is in, in report order
LAYERS = ("words", "graph", "alignment", "document")


@dataclass(frozen=True, slots=True)
class UmrChange:
    """One change: ``kind`` is ``+`` (added), ``-`` (removed) or ``~`` (changed)."""

    sentence: str  # sntN, or #position
    layer: str  # "sentence", or one of LAYERS
    kind: str
    text: str
    path: str
    line: int
    column: int

    def __str__(self) -> str:
        place = f"{self.path}:{self.line}:{self.column}"
        return f"{place}: {self.sentence} {self.layer} {self.kind} {self.text}"

    def to_dict(self) -> dict[str, object]:
        return {
            "sentence": self.sentence,
            "layer": self.layer,
            "change": {"+": "added", "-": "removed", "~": "changed"}[self.kind],
            "text": self.text,
            "path": self.path,
            "line": self.line,
            "column": self.column,
        }


Place = tuple[int, int]  # line, column


@dataclass(slots=True)
class _Summary:
    """What is compared of one sentence, each item with its place."""

    label: str
    place: Place
    words: tuple[str, Place]
    graph: dict[str, Place]
    alignment: dict[str, tuple[str, Place]]
    document: dict[str, Place]


def _place(span: Span) -> Place:
    return span.line, span.column


def summarize(sentence: UmrSentence) -> _Summary:
    span = sentence.span_of
    words = sentence.words
    words_place = (
        _place(span(words[0].start, words[0].start))
        if words
        else (_place(sentence.span))
    )
    graph: dict[str, Place] = {}
    if sentence.graph is not None:
        g = sentence.graph
        for index, ((source, role, target), kind) in enumerate(
            zip(g.triples, g.kinds, strict=True)
        ):
            text = (
                f"({source} / {target})"
                if kind is TripleKind.INSTANCE
                else f"({source} {role} {target})"
            )
            graph.setdefault(text, _place(g.role_span(index)))
    alignment = {
        line.variable: (
            ", ".join(f"{a}-{b}" for a, b in line.ranges)
            if line.error is None
            else sentence.text_of(line.start, line.end).split(":", 1)[-1].strip(),
            _place(span(line.start, line.end)),
        )
        for line in reversed(sentence.alignments)  # the first line of a node wins
    }
    document = {
        f"{t.group} ({t.source} {t.relation} {t.target})": _place(span(*t.places[0]))
        for t in reversed(sentence.document.triples)
    }
    return _Summary(
        sentence.label,
        _place(sentence.span),
        (" ".join(w.text for w in words), words_place),
        graph,
        alignment,
        document,
    )


def _key(summary: _Summary, position: int) -> str:
    return summary.label if summary.label.startswith("snt") else f"#{position + 1}"


def diff_umr(old: Path, new: Path) -> Iterator[UmrChange]:
    """The changes from ``old`` to ``new``, in NEW's order (removed sentences last).

    Raises:
        InputError: either file cannot be read (not UTF-8 with its place).
    """
    old_path, new_path = str(old), str(new)
    before: dict[str, _Summary] = {}
    for position, sentence in enumerate(iter_umr_file(old)):
        summary = summarize(sentence)
        before.setdefault(_key(summary, position), summary)
    for position, sentence in enumerate(iter_umr_file(new)):
        after = summarize(sentence)
        key = _key(after, position)
        previous = before.pop(key, None)
        if previous is None:
            yield UmrChange(key, "sentence", "+", "added", new_path, *after.place)
            continue
        yield from _pair(key, previous, after, old_path, new_path)
    for key, summary in before.items():
        yield UmrChange(key, "sentence", "-", "removed", old_path, *summary.place)


def _pair(  # noqa: C901 -- one pass per layer
    key: str, old: _Summary, new: _Summary, old_path: str, new_path: str
) -> Iterator[UmrChange]:
    if old.words[0] != new.words[0]:
        yield UmrChange(
            key,
            "words",
            "~",
            f"{old.words[0]!r} -> {new.words[0]!r}",
            new_path,
            *new.words[1],
        )
    for layer, before, after in (
        ("graph", old.graph, new.graph),
        ("document", old.document, new.document),
    ):
        for text, place in after.items():
            if text not in before:
                yield UmrChange(key, layer, "+", text, new_path, *place)
        for text, place in before.items():
            if text not in after:
                yield UmrChange(key, layer, "-", text, old_path, *place)
    for variable, (ranges, place) in new.alignment.items():
        previous = old.alignment.get(variable)
        if previous is None:
            yield UmrChange(
                key, "alignment", "+", f"{variable}: {ranges}", new_path, *place
            )
        elif previous[0] != ranges:
            yield UmrChange(
                key,
                "alignment",
                "~",
                f"{variable}: {previous[0]} -> {ranges}",
                new_path,
                *place,
            )
    for variable, (ranges, place) in old.alignment.items():
        if variable not in new.alignment:
            yield UmrChange(
                key, "alignment", "-", f"{variable}: {ranges}", old_path, *place
            )
