"""Similar graphs: a nearest-neighbour index of AMR files, search and duplicates.

Layer: engine, above the metrics, the reader and :mod:`amrcheck.execution`.
``vectors`` gets per-graph vectors from a metric that has them (WLK
features, rematch motifs, a learned metric's embeddings); ``index``
builds a FAISS index of them, finds the graphs most similar to a query
and the near-duplicate pairs of a corpus; ``rerank`` orders hits by an
alignment metric that explains them. The CLI (``amrcheck index``,
``amrcheck search``) and the language server are thin shells over it.
"""

from __future__ import annotations

from .index import (
    Built,
    Duplicate,
    Hit,
    Index,
    IndexedGraph,
    build_index,
    read_queries,
)
from .rerank import Explained, rerank
from .vectors import Vectors, vectors_for

__all__ = [
    "Built",
    "Duplicate",
    "Explained",
    "Hit",
    "Index",
    "IndexedGraph",
    "Vectors",
    "build_index",
    "read_queries",
    "rerank",
    "vectors_for",
]
