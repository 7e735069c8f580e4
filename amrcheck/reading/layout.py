"""Layout of graph text: penman's, or the author's lines re-indented.

Two styles (:data:`STYLES`), both touching only the graph text of an
entry; metadata, comments and the blank lines between graphs stay
exactly as they are, and a graph with a syntax error is left alone
(broken text has no layout to give):

* ``"penman"``: penman's layout of the graph (:func:`format_entry`). A
  graph with comment lines inside it is left alone too: penman's layout
  would drop them.
* ``"keep-lines"``: every line break the author made is kept and no token
  changes; each line is only re-indented by its nesting depth
  (:func:`reindent_entry`), so a file laid out by hand keeps its layout.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

import penman

from ..graph import Graph
from ._parse import Entry, tokenize


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


#: the layout styles of :func:`layout_edits`
Style = Literal["keep-lines", "penman"]
STYLES: tuple[Style, ...] = ("keep-lines", "penman")


def _line_depths(graph: Graph) -> Iterable[tuple[int, int, int]]:
    """``(line start, first token, depth)`` of each line of ``graph`` but
    its first: the depth is how many ``(`` are open where the
    line's first token starts, one fewer if that token is a ``)`` (a line
    of closing parentheses sits at the depth of the line it closes)."""
    text = graph.source.text
    depth, previous_end = 0, graph.start
    for kind, start, end in tokenize(text, graph.start, graph.end):
        line_start = text.rfind("\n", previous_end, start) + 1
        if line_start:  # the token is the first of its line
            yield line_start, start, depth - 1 if kind == "RPAREN" else depth
        if kind == "LPAREN":
            depth += 1
        elif kind == "RPAREN":
            depth -= 1
        previous_end = end


def reindent_entry(entry: Entry, unit: str = "  ") -> list[TextEdit]:
    """Edits that indent each line of ``entry``'s graph by ``unit`` per
    level of nesting, and change nothing else: the author's line breaks,
    tokens and comments stay (none for a graph that does not parse).

    Example:
        >>> from amrcheck import read_string
        >>> text = "(w / want-01 :ARG0 (b / boy)\\n:ARG1 (g / go-02\\n :ARG0 b))"
        >>> [entry] = read_string(text)
        >>> print(apply_edits(text, reindent_entry(entry, "    ")))
        (w / want-01 :ARG0 (b / boy)
            :ARG1 (g / go-02
                :ARG0 b))
    """
    if entry.graph is None:
        return []
    return reindent_graph(entry.graph, unit)


def reindent_graph(graph: Graph, unit: str = "  ") -> list[TextEdit]:
    """:func:`reindent_entry` for a graph read by itself (a UMR sentence's)."""
    text = graph.source.text
    edits = []
    for line_start, first_token, depth in _line_depths(graph):
        indent = unit * max(depth, 0)
        if text[line_start:first_token] != indent:
            edits.append(TextEdit(line_start, first_token, indent))
    return edits


def layout_edits(
    entries: Iterable[Entry], style: Style = "keep-lines", unit: str = "  "
) -> list[TextEdit]:
    """The edits that lay ``entries`` out in ``style``, in file order:
    ``"keep-lines"`` (:func:`reindent_entry`, ``unit`` per level) or
    ``"penman"`` (:func:`format_entry`; ``unit`` is not used)."""
    if style == "penman":
        found = (format_entry(entry) for entry in entries)
        return [edit for edit in found if edit is not None]
    return [edit for entry in entries for edit in reindent_entry(entry, unit)]


def apply_edits(text: str, edits: list[TextEdit]) -> str:
    """Apply non-overlapping edits (any order) to ``text``."""
    for edit in sorted(edits, key=lambda e: e.start, reverse=True):
        text = text[:edit.start] + edit.new_text + text[edit.end:]
    return text
