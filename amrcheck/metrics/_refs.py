"""Pointing explanations at written triples (shared by the metric modules)."""

from __future__ import annotations

from ..graph import Graph
from ._protocol import TripleRef


def written_ref(graph: Graph, index: int) -> TripleRef:
    """The written triple ``index`` of ``graph``, role without its colon."""
    source, role, target = graph.triples[index]
    return TripleRef((source, role.lstrip(":"), target), index, graph)
