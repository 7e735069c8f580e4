"""The graph layer: an AMR graph as triples that remember where they came from.

A :class:`Graph` holds the triples *as written* — roles keep their ``-of``,
constants keep their quotes, ISI alignments are split off — in the order of
the PENMAN text, the same order penman's decoder produces. Every triple has
the offsets of its role token and its target token; for an instance triple
the "role" token is the variable being defined and the target is the
concept. Standardisation for scoring (inversion, case folding, root
policies) is a separate step: :mod:`amrcheck.standardize`.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from enum import IntEnum

from .span import SourceText, Span
from .types import INSTANCE, Offsets, Triple, Variable


class TripleKind(IntEnum):
    INSTANCE = 0
    RELATION = 1  # target is a variable of the graph
    ATTRIBUTE = 2  # target is a constant


@dataclass(slots=True, eq=False)
class Graph:
    """One decoded AMR graph with source offsets for every triple."""

    source: SourceText
    top: Variable
    triples: list[Triple]
    kinds: list[TripleKind]
    offsets: list[Offsets]
    start: int
    end: int
    #: (triple index, "role" or "target") -> alignment text such as "~e.3"
    alignments: dict[tuple[int, str], str] = field(default_factory=dict)

    @property
    def span(self) -> Span:
        return Span(self.source, self.start, self.end)

    @property
    def text(self) -> str:
        return self.source.text[self.start:self.end]

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

    def instance_indices(self) -> Iterator[int]:
        return (i for i, k in enumerate(self.kinds) if k is TripleKind.INSTANCE)

    def variables(self) -> dict[Variable, str]:
        """Each variable's concept (the first definition wins)."""
        concepts: dict[Variable, str] = {}
        for (var, _, concept), kind in zip(self.triples, self.kinds):
            if kind is TripleKind.INSTANCE and var not in concepts:
                concepts[var] = concept
        return concepts

    def definition_span(self, variable: Variable) -> Span | None:
        """Where ``variable`` is defined (its first definition)."""
        for i, (var, role, _) in enumerate(self.triples):
            if role == INSTANCE and var == variable:
                return self.role_span(i)
        return None

    def reference_indices(self, variable: Variable) -> list[int]:
        """Triples whose target re-enters ``variable`` (not its definition)."""
        definition = self.definition_span(variable)
        start = definition.start if definition is not None else -1
        return [
            i
            for i, ((_, _, target), kind) in enumerate(
                zip(self.triples, self.kinds)
            )
            if kind is TripleKind.RELATION
            and target == variable
            and self.offsets[i][2] != start
        ]

    def __repr__(self) -> str:
        return f"Graph(top={self.top!r}, {len(self.triples)} triples)"
