"""amrcheck: AMR similarity metrics, diffs and validation, with source spans.

The public API: read AMR files (:func:`read_corpus`), check them
(:func:`validate`), score graph pairs with any registered metric
(:func:`get_metric`), pair the graphs of two files (:func:`pair_graphs`) and
diff two versions of a file (:func:`diff_corpora`).
"""

from __future__ import annotations

from .__about__ import __version__
from ._parse import Entry
from .corpus import Corpus, decode, read_corpus, read_string
from .diff import Change, CorpusDiff, GraphDiff, diff_corpora
from .errors import AmrError, ConfigError, DecodeError, InputError, MetricError
from .findings import Finding, Severity
from .graph import Graph, TripleKind
from .metrics import (
    CorpusScore,
    Explanation,
    Metric,
    Score,
    TripleRef,
    get_metric,
    metric_names,
)
from .pairing import (
    GraphPair,
    Matching,
    PairingError,
    match_entries,
    pair_corpora,
    pair_graphs,
)
from .span import SourceText, Span
from .standardize import StandardGraph, Standardization, standardize
from .validate import validate

__all__ = [
    "AmrError",
    "Change",
    "ConfigError",
    "Corpus",
    "CorpusDiff",
    "CorpusScore",
    "DecodeError",
    "Entry",
    "Explanation",
    "Finding",
    "Graph",
    "GraphDiff",
    "GraphPair",
    "InputError",
    "Matching",
    "Metric",
    "MetricError",
    "PairingError",
    "Score",
    "Severity",
    "SourceText",
    "Span",
    "StandardGraph",
    "Standardization",
    "TripleKind",
    "TripleRef",
    "__version__",
    "decode",
    "diff_corpora",
    "get_metric",
    "match_entries",
    "metric_names",
    "pair_corpora",
    "pair_graphs",
    "read_corpus",
    "read_string",
    "standardize",
    "validate",
]
