"""What sits at a source offset: the entry, and the graph token under it.

Editors ask "what is under the cursor?"; this answers in engine terms (an
entry, a triple index, which part of the triple) so that front ends only
convert positions.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass
from enum import Enum

from ..graph import Graph, TripleKind
from ..span import Span
from ._parse import Entry
from .corpus import Corpus


class TokenRole(str, Enum):
    VARIABLE = "variable"  # a variable where it is defined: ``(v / ...``
    REFERENCE = "reference"  # a re-entrant use of a variable: ``:ARG0 v``
    CONCEPT = "concept"
    ROLE = "role"
    CONSTANT = "constant"


@dataclass(frozen=True, slots=True)
class TokenAt:
    """The graph token under an offset."""

    entry: Entry
    graph: Graph
    index: int  # triple index in graph.triples
    role: TokenRole
    span: Span

    @property
    def text(self) -> str:
        return self.span.text

    @property
    def variable(self) -> str | None:
        """The variable this token is or refers to, if any."""
        source, _, target = self.graph.triples[self.index]
        if self.role is TokenRole.VARIABLE:
            return source
        if self.role is TokenRole.REFERENCE:
            return target
        return None


def entry_at(corpus: Corpus, offset: int) -> Entry | None:
    """The entry whose text contains ``offset`` (end inclusive), if any."""
    entries = corpus.entries
    starts = [entry.start for entry in entries]
    index = bisect_right(starts, offset) - 1
    if index < 0:
        return None
    entry = entries[index]
    return entry if offset <= entry.end else None


def token_at(corpus: Corpus, offset: int) -> TokenAt | None:
    """The graph token whose span contains ``offset`` (end inclusive).

    Example:
        >>> from amrcheck import read_string
        >>> corpus = read_string("(w / want-01 :ARG0 (b / boy) :ARG1 b)")
        >>> hit = token_at(corpus, 35)
        >>> hit.role.value, hit.text, hit.variable
        ('reference', 'b', 'b')
    """
    entry = entry_at(corpus, offset)
    if entry is None or entry.graph is None:
        return None
    graph = entry.graph
    for i, offsets in enumerate(graph.offsets):
        role_start, role_end, target_start, target_end = offsets
        kind = graph.kinds[i]
        if role_start <= offset <= role_end:
            part = TokenRole.VARIABLE if kind is TripleKind.INSTANCE else TokenRole.ROLE
            span = Span(graph.source, role_start, role_end)
            return TokenAt(entry, graph, i, part, span)
        if target_start <= offset <= target_end:
            if kind is TripleKind.INSTANCE:
                part = TokenRole.CONCEPT
            elif kind is TripleKind.ATTRIBUTE:
                part = TokenRole.CONSTANT
            elif graph.defines_target(i):
                continue  # the child's definition: its instance triple answers
            else:
                part = TokenRole.REFERENCE
            return TokenAt(
                entry, graph, i, part, Span(graph.source, target_start, target_end)
            )
    return None


def variable_occurrences(graph: Graph, variable: str) -> list[Span]:
    """The definition of ``variable`` first, then every re-entrant use."""
    spans: list[Span] = []
    definition = graph.definition_span(variable)
    if definition is not None:
        spans.append(definition)
    spans.extend(graph.target_span(i) for i in graph.reference_indices(variable))
    return spans
