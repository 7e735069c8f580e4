"""Re-layout of graph text with penman, keeping everything around it.

Only the graph text of an entry is rewritten (penman's layout); metadata,
comments and the blank lines between graphs stay exactly as they are.
A graph that has comment lines inside it, or a syntax error, is left
alone: penman's layout would drop the comments, and broken text has no
layout to give.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

import penman

from ._parse import Entry, tokenize
from .corpus import Corpus


@dataclass(frozen=True, slots=True)
class TextEdit:
    """Replace ``text[start:end]`` with ``new_text``."""

    start: int
    end: int
    new_text: str


def format_graph(text: str, indent: int = -1) -> str:
    """penman's layout of one graph's text (``indent=-1``: align under the concept).

    Example:
        >>> print(format_graph("(w / want-01 :ARG0 (b / boy) :ARG1 b)"))
        (w / want-01
           :ARG0 (b / boy)
           :ARG1 b)
    """
    # penman logs (not raises) on some oddities; the caller only passes
    # graphs our reader accepted, so those logs are noise here.
    logger = logging.getLogger("penman")
    previous = logger.disabled
    logger.disabled = True
    try:
        formatted: str = penman.format(penman.parse(text), indent=indent)
        return formatted
    finally:
        logger.disabled = previous


def format_entry(entry: Entry, indent: int = -1) -> TextEdit | None:
    """The edit that re-lays out ``entry``'s graph, or None if nothing changes."""
    graph = entry.graph
    if graph is None:
        return None
    if any(kind == "COMMENT" for kind, _, _ in tokenize(graph.source.text,
                                                        graph.start, graph.end)):
        return None
    new_text = format_graph(graph.text, indent)
    if new_text == graph.text:
        return None
    return TextEdit(graph.start, graph.end, new_text)


def format_corpus(corpus: Corpus, indent: int = -1) -> list[TextEdit]:
    """Edits for every entry whose layout changes, in file order."""
    edits = (format_entry(entry, indent) for entry in corpus)
    return [edit for edit in edits if edit is not None]


def apply_edits(text: str, edits: list[TextEdit]) -> str:
    """Apply non-overlapping edits (any order) to ``text``."""
    for edit in sorted(edits, key=lambda e: e.start, reverse=True):
        text = text[:edit.start] + edit.new_text + text[edit.end:]
    return text
