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

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from ..graph import TripleKind
from ..reading.umr import BlockKind, UmrSentence, iter_umr_file
from ..span import Span
from .umr_score import canonical

#: the layers a change is in, in report order
LAYERS = ("words", "graph", "alignment", "document")


@dataclass(frozen=True, slots=True)
class UmrChange:
    """One change: ``kind`` is ``+`` (added), ``-`` (removed), ``~`` (changed),
    or ``!`` (a sentence graph that cannot be read: its triples are not
    compared, and the change says why, at the error's place)."""

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
            "change": {
                "+": "added", "-": "removed", "~": "changed", "!": "unreadable"
            }[self.kind],
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
    #: the other interlinear rows (``Index``, ``Word Gloss (en)``,
    #: ``Morphemes``, ``Translation`` ...) by header: name as written, items
    #: (white space normalised) and place
    rows: dict[str, tuple[str, str, Place]]
    graph: dict[str, Place]
    #: each node's ranges as written, place and variable as written, by
    #: variable (the other version's name, when renamed)
    alignment: dict[str, tuple[str, Place, str]]
    #: each document-level triple by its canonical form (``:after`` for
    #: ``:before`` ...): its text as written and its place
    document: dict[str, tuple[str, Place]]
    #: why the graph cannot be read (None: it can), each error with its place
    graph_errors: list[tuple[str, Place]] | None = None
    #: the graph block's text, when the graph cannot be read
    graph_text: str = ""


def _place(span: Span) -> Place:
    return span.line, span.column


def summarize(
    sentence: UmrSentence, rename: Mapping[str, str | None] | None = None
) -> _Summary:
    """What is compared of ``sentence``; ``rename`` (variable -> the other
    version's name, None: no partner) keys its alignment and document-level
    triples by the other version's names, so that a renamed node is no change."""
    span = sentence.span_of

    def named(variable: str) -> str:
        return (rename.get(variable) or variable) if rename else variable

    words = sentence.words
    words_place = (
        _place(span(words[0].start, words[0].start))
        if words
        else (_place(sentence.span))
    )
    # the row the words come from (as UmrSentence.words picks it) is compared
    # as the words; tokens on the id line are no row of their own
    token_row = next(
        (r for name in ("Words", "tx") for r in sentence.rows if r.header == name),
        None,
    )
    rows: dict[str, tuple[str, str, Place]] = {}
    for row in sentence.rows:
        if row is not token_row and row.header != "snt":
            rows.setdefault(
                row.header,
                (
                    row.name,
                    " ".join(item.text for item in row.items),
                    _place(span(row.start, row.start)),
                ),
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
        named(line.variable): (
            ", ".join(f"{a}-{b}" for a, b in line.ranges)
            if line.error is None
            else sentence.text_of(line.start, line.end).split(":", 1)[-1].strip(),
            _place(span(line.start, line.end)),
            line.variable,
        )
        for line in reversed(sentence.alignments)  # the first line of a node wins
    }
    document = {
        f"{t.group} {canonical(t.relation, named(t.source), named(t.target))}": (
            f"{t.group} ({t.source} {t.relation} {t.target})",
            _place(span(*t.places[0])),
        )
        for t in reversed(sentence.document.triples)
    }
    return _Summary(
        sentence.label,
        _place(sentence.span),
        (" ".join(w.text for w in words), words_place),
        rows,
        graph,
        alignment,
        document,
        None if sentence.graph is not None else _graph_errors(sentence),
        "" if sentence.graph is not None else _graph_text(sentence),
    )


def _graph_text(sentence: UmrSentence) -> str:
    block = sentence.blocks.get(BlockKind.GRAPH)
    return "" if block is None else sentence.text_of(block.start, block.end)


def _graph_errors(sentence: UmrSentence) -> list[tuple[str, Place]]:
    """The errors of a sentence whose graph cannot be read: those in its
    graph block (all of them when none is placed there)."""
    block = sentence.blocks.get(BlockKind.GRAPH)
    errors = [
        e for e in sentence.errors
        if block is not None and block.start <= e.span.start <= block.end
    ] or sentence.errors
    found = [(f"{e.code} {e.message}", _place(e.span)) for e in errors]
    return found or [("the sentence has no graph", _place(sentence.span))]


def _key(summary: _Summary, position: int) -> str:
    return summary.label if summary.label.startswith("snt") else f"#{position + 1}"


def diff_umr(old: Path, new: Path) -> Iterator[UmrChange]:
    """The changes from ``old`` to ``new``, in NEW's order (removed sentences last).

    Raises:
        InputError: either file cannot be read (not UTF-8 with its place).
    """
    yield from diff_sentences(
        iter_umr_file(old), iter_umr_file(new), str(old), str(new)
    )


def diff_sentences(
    old: Iterable[UmrSentence],
    new: Iterable[UmrSentence],
    old_path: str,
    new_path: str,
    rename: Mapping[str, str | None] | None = None,
) -> Iterator[UmrChange]:
    """The changes from the sentences ``old`` to ``new`` (see :func:`diff_umr`),
    for versions that are not both files (``amr-regress`` reads HEAD's from git).

    ``rename`` maps NEW's variables to OLD's (the node mapping of
    :func:`amrcheck.workflows.umr_score.node_mapping`): an alignment or
    document-level triple that differs only by a renamed node is then no
    change (a triple written with the new name is a ``~`` of the same
    relation). Without it variables are compared as written.
    """
    before: dict[str, _Summary] = {}
    for position, sentence in enumerate(old):
        summary = summarize(sentence)
        before.setdefault(_key(summary, position), summary)
    for position, sentence in enumerate(new):
        after = summarize(sentence, rename)
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
    yield from _row_changes(key, old.rows, new.rows, old_path, new_path)
    unreadable = [
        (summary.graph_errors, path)
        for summary, path in ((old, old_path), (new, new_path))
        if summary.graph_errors is not None
    ]
    if len(unreadable) == 2 and old.graph_text == new.graph_text:
        unreadable = []  # the same text, unreadable in both: no change
    for errors, path in unreadable:
        for text, place in errors:
            yield UmrChange(key, "graph", "!", f"cannot be read: {text}", path, *place)
    # a graph that cannot be read is not all removed: it is not compared
    if old.graph_errors is None and new.graph_errors is None:
        for text, place in new.graph.items():
            if text not in old.graph:
                yield UmrChange(key, "graph", "+", text, new_path, *place)
        for text, place in old.graph.items():
            if text not in new.graph:
                yield UmrChange(key, "graph", "-", text, old_path, *place)
    for relation, (text, place) in new.document.items():
        previous = old.document.get(relation)
        if previous is None:
            yield UmrChange(key, "document", "+", text, new_path, *place)
        elif previous[0] != text:  # written otherwise: (b :after a) for (a :before b)
            yield UmrChange(
                key, "document", "~",
                f"{previous[0]} -> {text} (the same relation)", new_path, *place,
            )
    for relation, (text, place) in old.document.items():
        if relation not in new.document:
            yield UmrChange(key, "document", "-", text, old_path, *place)
    for variable, (ranges, place, written) in new.alignment.items():
        before = old.alignment.get(variable)
        if before is None:
            yield UmrChange(
                key, "alignment", "+", f"{written}: {ranges}", new_path, *place
            )
        elif before[0] != ranges:
            yield UmrChange(
                key,
                "alignment",
                "~",
                f"{written}: {before[0]} -> {ranges}",
                new_path,
                *place,
            )
    for variable, (ranges, place, written) in old.alignment.items():
        if variable not in new.alignment:
            yield UmrChange(
                key, "alignment", "-", f"{written}: {ranges}", old_path, *place
            )


def _row_changes(
    key: str,
    old: dict[str, tuple[str, str, Place]],
    new: dict[str, tuple[str, str, Place]],
    old_path: str,
    new_path: str,
) -> Iterator[UmrChange]:
    """The interlinear rows besides the words (glosses, morphemes, the
    translation ...), in the ``words`` layer: each named, at its header."""
    for header, (name, items, place) in new.items():
        previous = old.get(header)
        if previous is None:
            yield UmrChange(key, "words", "+", f"{name}: {items!r}", new_path, *place)
        elif previous[1] != items:
            yield UmrChange(
                key, "words", "~", f"{name}: {previous[1]!r} -> {items!r}",
                new_path, *place,
            )
    for header, (name, items, place) in old.items():
        if header not in new:
            yield UmrChange(key, "words", "-", f"{name}: {items!r}", old_path, *place)
