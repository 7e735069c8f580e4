"""amrcheck: AMR similarity metrics, diffs and validation, with source spans.

The public API: read AMR files (:func:`read_corpus`), check them
(:func:`validate`), and score graph pairs with any registered metric
(:func:`get_metric`).
"""

from __future__ import annotations

from .__about__ import __version__
from ._parse import Entry
from .corpus import Corpus, decode, read_corpus, read_string
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
from .span import SourceText, Span
from .standardize import StandardGraph, Standardization, standardize
from .validate import validate

__all__ = [
    "AmrError",
    "ConfigError",
    "Corpus",
    "CorpusScore",
    "DecodeError",
    "Entry",
    "Explanation",
    "Finding",
    "Graph",
    "InputError",
    "Metric",
    "MetricError",
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
    "get_metric",
    "metric_names",
    "read_corpus",
    "read_string",
    "standardize",
    "validate",
]
