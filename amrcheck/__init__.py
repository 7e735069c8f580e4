"""amrcheck: AMR similarity metrics, diffs and validation, with source spans.

The public API: read AMR files (:func:`read_corpus`), check them
(:func:`validate`), score graph pairs with any registered metric
(:func:`get_metric`), pair the graphs of two files (:func:`pair_graphs`) and
diff two versions of a file (:func:`diff_corpora`).
"""

from __future__ import annotations

import importlib
import sys
from types import ModuleType
from typing import TYPE_CHECKING, Any

from .__about__ import __version__

# first: with AMRCHECK_PURE_PYTHON=1, the modules below load from their .py
# sources even in a compiled build (see setup.py)
from . import _sources  # noqa: F401  (isort: skip)


class _Package(ModuleType):
    """This package's module: ``amrcheck.standardize`` stays the function,
    loaded on first use like the other names, although importing the
    submodule of the same name sets the package's attribute to the module
    (Python's import system does; ``sys.modules`` still holds the module).
    """

    def __setattr__(self, name: str, value: Any) -> None:
        if name == "standardize" and isinstance(value, ModuleType):
            return
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package

if TYPE_CHECKING:
    from .errors import (
        AmrError,
        ConfigError,
        DecodeError,
        InputError,
        InputTooLargeError,
        MetricError,
        RefusedInputError,
    )
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
    from .pairing.graphs import (
        Gap,
        GraphPair,
        Matching,
        PairingError,
        match_entries,
        pair_corpora,
        pair_graphs,
    )
    from .reading import Entry
    from .reading.corpus import Corpus, decode, read_corpus, read_string
    from .span import SourceText, Span
    from .standardize import StandardGraph, Standardization, standardize
    from .validation.validate import validate
    from .workflows.diff import Change, CorpusDiff, GraphDiff, diff_corpora

# Names are loaded on first use (PEP 562), so that importing one module
# (``amrcheck.reading.corpus``) or one metric does not import the whole
# engine: every command and the language server start faster (``amrcheck
# --version`` loads neither the standardiser nor penman, which it needs).
_EXPORTS: dict[str, str] = {
    "Entry": ".reading",
    "Corpus": ".reading.corpus",
    "decode": ".reading.corpus",
    "read_corpus": ".reading.corpus",
    "read_string": ".reading.corpus",
    "Change": ".workflows.diff",
    "CorpusDiff": ".workflows.diff",
    "GraphDiff": ".workflows.diff",
    "diff_corpora": ".workflows.diff",
    "AmrError": ".errors",
    "ConfigError": ".errors",
    "DecodeError": ".errors",
    "InputError": ".errors",
    "InputTooLargeError": ".errors",
    "RefusedInputError": ".errors",
    "MetricError": ".errors",
    "Finding": ".findings",
    "Severity": ".findings",
    "Graph": ".graph",
    "TripleKind": ".graph",
    "CorpusScore": ".metrics",
    "Explanation": ".metrics",
    "Metric": ".metrics",
    "Score": ".metrics",
    "TripleRef": ".metrics",
    "get_metric": ".metrics",
    "metric_names": ".metrics",
    "Gap": ".pairing.graphs",
    "GraphPair": ".pairing.graphs",
    "Matching": ".pairing.graphs",
    "PairingError": ".pairing.graphs",
    "match_entries": ".pairing.graphs",
    "pair_corpora": ".pairing.graphs",
    "pair_graphs": ".pairing.graphs",
    "SourceText": ".span",
    "Span": ".span",
    "StandardGraph": ".standardize",
    "Standardization": ".standardize",
    "standardize": ".standardize",
    # not a submodule's name: importing ``amrcheck.validation.validate``
    # never hides it (it sets ``amrcheck.validation``)
    "validate": ".validation.validate",
}


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module, __name__), name)
    globals()[name] = value
    return value


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
    "Gap",
    "GraphPair",
    "InputError",
    "InputTooLargeError",
    "Matching",
    "Metric",
    "MetricError",
    "PairingError",
    "RefusedInputError",
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
