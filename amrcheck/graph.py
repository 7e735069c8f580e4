"""The graph layer: an AMR graph as triples that remember where they came from.

A :class:`Graph` holds the triples *as written* — roles keep their ``-of``,
constants keep their quotes, ISI alignments are split off — in the order of
the PENMAN text, the same order penman's decoder produces. Every triple has
the offsets of its role token and its target token; for an instance triple
the "role" token is the variable being defined and the target is the
concept. Standardisation for scoring (inversion, case folding, root
policies) is a separate step: :mod:`amrcheck.standardize`.

Offsets may be computed lazily: the reader's fast path builds the triples
without them and leaves a factory that finds them when a span is first
asked for (scoring alone never asks, explanations and validation do).
Text order questions ("is this variable defined before this use?") are
answered from triple indices, which are in text order, not from offsets.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import IntEnum

from .span import SourceText, Span
from .types import INSTANCE, Offsets, Triple, Variable


class TripleKind(IntEnum):
    INSTANCE = 0
    RELATION = 1  # target is a variable of the graph
    ATTRIBUTE = 2  # target is a constant


@dataclass(slots=True, eq=False, init=False)
class Graph:
    """One decoded AMR graph with source offsets for every triple.

    ``__init__`` is written out: the one ``dataclass`` would make runs as
    interpreted code even in the compiled build (~0.2 µs a graph more).
    """

    source: SourceText
    top: Variable
    triples: list[Triple]
    kinds: list[TripleKind]
    start: int
    end: int
    #: (triple index, "role" or "target") -> alignment text such as "~e.3"
    alignments: dict[tuple[int, str], str] = field(default_factory=dict)
    _offsets: list[Offsets] | None = None
    offsets_factory: Callable[[], list[Offsets]] | None = None

    def __init__(
        self,
        source: SourceText,
        top: Variable,
        triples: list[Triple],
        kinds: list[TripleKind],
        start: int,
        end: int,
        alignments: dict[tuple[int, str], str] | None = None,
        _offsets: list[Offsets] | None = None,
        offsets_factory: Callable[[], list[Offsets]] | None = None,
    ) -> None:
        self.source = source
        self.top = top
        self.triples = triples
        self.kinds = kinds
        self.start = start
        self.end = end
        self.alignments = {} if alignments is None else alignments
        self._offsets = _offsets
        self.offsets_factory = offsets_factory

    @property
    def offsets(self) -> list[Offsets]:
        """Per triple: (role start, role end, target start, target end)."""
        if self._offsets is None:
            assert self.offsets_factory is not None, "graph without offsets"
            self._offsets = self.offsets_factory()
            self.offsets_factory = None
        return self._offsets

    @property
    def span(self) -> Span:
        return Span(self.source, self.start, self.end)

    @property
    def text(self) -> str:
        return self.source.text[self.start:self.end]

    def written(self, index: int) -> str:
        """Triple ``index`` as the annotator wrote it, before any
        standardisation: ``(b / boy)``, ``(w :ARG0-of b)``; ``root w`` for
        the synthetic TOP triple (``index`` < 0).

        Example:
            >>> from amrcheck.reading.corpus import read_string
            >>> graph = read_string("(w / want-01 :ARG0-of (b / boy))")[0].graph
            >>> [graph.written(i) for i in (-1, 0, 1, 2)]
            ['root w', '(w / want-01)', '(w :ARG0-of b)', '(b / boy)']
        """
        if index < 0:
            return f"root {self.top}"
        source, role, target = self.triples[index]
        if self.kinds[index] is TripleKind.INSTANCE:
            return f"({source} / {target})"
        return f"({source} {role} {target})"

    def role_span(self, index: int) -> Span:
        o = self.offsets[index]
        return Span(self.source, o[0], o[1])

    def target_span(self, index: int) -> Span:
        o = self.offsets[index]
        return Span(self.source, o[2], o[3])

    def triple_span(self, index: int) -> Span:
        """From the role (or defined variable) to the end of the target."""
        o = self.offsets[index]
        return Span(self.source, o[0], max(o[1], o[3]))

    def variables(self) -> dict[Variable, str]:
        """Each variable's concept (the first definition wins)."""
        concepts: dict[Variable, str] = {}
        for (var, _, concept), kind in zip(self.triples, self.kinds, strict=True):
            if kind is TripleKind.INSTANCE and var not in concepts:
                concepts[var] = concept
        return concepts

    def definition_index(self, variable: Variable) -> int | None:
        """Index of the instance triple that first defines ``variable``."""
        for i, (var, role, _) in enumerate(self.triples):
            if role == INSTANCE and var == variable:
                return i
        return None

    def definition_span(self, variable: Variable) -> Span | None:
        """Where ``variable`` is defined (its first definition)."""
        index = self.definition_index(variable)
        return None if index is None else self.role_span(index)

    def defines_target(self, index: int) -> bool:
        """Whether relation ``index`` is the edge that opens its target's node.

        The reader appends a node's instance triple right after the edge
        that leads into it, so this is a look at the next triple.
        """
        following = index + 1
        return (
            following < len(self.triples)
            and self.kinds[following] is TripleKind.INSTANCE
            and self.triples[following][0] == self.triples[index][2]
        )

    def reference_indices(self, variable: Variable) -> list[int]:
        """Triples whose target re-enters ``variable`` (not its definition)."""
        return [
            i
            for i, ((_, _, target), kind) in enumerate(
                zip(self.triples, self.kinds, strict=True)
            )
            if kind is TripleKind.RELATION
            and target == variable
            and not self.defines_target(i)
        ]

    def __repr__(self) -> str:
        return f"Graph(top={self.top!r}, {len(self.triples)} triples)"
