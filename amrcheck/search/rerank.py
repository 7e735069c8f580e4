"""Re-ranking index hits by an alignment metric, which explains each hit.

Layer: engine, above :mod:`amrcheck.search.index` and the metrics. The
index finds graphs that look alike by their vectors; an alignment metric
(smatch) then scores each against the query and says which triples the
precedent lacks (``missing``: the query's) and which it adds (``extra``),
each with its place.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..graph import Graph
from ..metrics import Metric, Score
from .index import Hit


@dataclass(frozen=True, slots=True)
class Explained:
    """A hit with the alignment metric's score of it against the query."""

    hit: Hit
    score: Score


def rerank(hits: Sequence[Hit], query: Graph, metric: Metric) -> list[Explained]:
    """``hits`` scored by ``metric`` (hit as candidate, query as reference),
    best first; ties keep the index's order.

    Raises:
        IndexFileError: a hit's file changed since it was indexed.
    """
    scored = [
        Explained(hit, metric.score(hit.graph.read(), query, explain=True))
        for hit in hits
    ]
    return sorted(scored, key=lambda e: (-e.score.f1, -e.hit.score, e.hit.number))
