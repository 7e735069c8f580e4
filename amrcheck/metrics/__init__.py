"""Metrics: one module per metric, all behind :class:`Metric`, found by name.

Each metric module defines a class with ``name``, a frozen ``Options``
dataclass (typed, documented defaults) and registers it with
:func:`register`. Front ends look metrics up with :func:`get_metric`.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from ..errors import MetricError
from ._protocol import (
    CorpusScore,
    Explanation,
    Metric,
    Score,
    TripleRef,
    corpus_score,
    micro_prf,
    prf,
)

#: metric name -> factory taking keyword options
REGISTRY: dict[str, Callable[..., Metric]] = {}


def register(name: str) -> Callable[[Callable[..., Metric]], Callable[..., Metric]]:
    """Class decorator: make a metric available under ``name``."""

    def add(factory: Callable[..., Metric]) -> Callable[..., Metric]:
        REGISTRY[name] = factory
        return factory

    return add


#: built-in metric modules, imported for their @register side effect
BUILTIN_METRIC_MODULES: tuple[str, ...] = ()


def _load_builtin() -> None:
    for module in BUILTIN_METRIC_MODULES:
        importlib.import_module(f"{__name__}.{module}")


def metric_names() -> list[str]:
    _load_builtin()
    return sorted(REGISTRY)


def get_metric(name: str, **options: Any) -> Metric:
    """The metric called ``name``, built with ``options``.

    Raises:
        MetricError: unknown name (the message lists the valid ones) or
            an option the metric does not have.
    """
    _load_builtin()
    try:
        factory = REGISTRY[name]
    except KeyError:
        valid = ", ".join(sorted(REGISTRY))
        raise MetricError(f"unknown metric {name!r}; choose one of: {valid}") from None
    try:
        return factory(**options)
    except TypeError as exc:
        raise MetricError(f"metric {name!r}: {exc}") from None


__all__ = [
    "REGISTRY",
    "CorpusScore",
    "Explanation",
    "Metric",
    "Score",
    "TripleRef",
    "corpus_score",
    "get_metric",
    "metric_names",
    "micro_prf",
    "prf",
    "register",
]
