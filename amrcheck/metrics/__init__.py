"""Metrics: one module per metric, all behind :class:`Metric`, found by name.

Each metric module defines a class with ``name``, a frozen ``Options``
dataclass (typed, documented defaults) and registers it with
:func:`register`. Front ends look metrics up with :func:`get_metric`.
"""

from __future__ import annotations

import dataclasses
import importlib
import typing
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..errors import MetricError
from ._protocol import (
    CorpusScore,
    Explanation,
    Metric,
    Score,
    ScoreColumns,
    TripleRef,
    corpus_score,
    count_keys,
    expect_pairs,
    micro_prf,
    prf,
    score_pairs,
)

#: the options a front end's time budget sets, to one figure: the search's
#: seconds per pair (``time_budget``) and the ILP's (``time_limit``, with
#: ``exact``), in the metrics that search (smatch, s2match)
BUDGET_OPTIONS = ("time_budget", "time_limit")

#: metric name -> factory taking keyword options
REGISTRY: dict[str, Callable[..., Metric]] = {}


def register(name: str) -> Callable[[Callable[..., Metric]], Callable[..., Metric]]:
    """Class decorator: make a metric available under ``name``."""

    def add(factory: Callable[..., Metric]) -> Callable[..., Metric]:
        REGISTRY[name] = factory
        return factory

    return add


#: built-in metric name -> its module (imported on first use, for its
#: @register side effect: scoring with one metric loads no other, and
#: rematch never imports numpy; only amrsim imports torch)
BUILTIN_METRICS: dict[str, str] = {
    "smatch": "smatch",
    "s2match": "s2match",
    "rematch": "rematch",
    "sembleu": "sembleu",
    "sema": "sema",
    "wlk": "wlk",
    "wwlk": "wwlk",
    "wwlk-theta": "wwlk",
    "wlmatch-v1": "wlmatch",
    "amrsim": "amrsim",
}

#: names that stand for another metric. ``recommended`` is the metric this
#: project recommends today; reports print the name it resolves to (and
#: ``alias=recommended`` in the settings), so results stay reproducible
#: when the recommendation moves on to a newer version
ALIASES: dict[str, str] = {"recommended": "wlmatch-v1"}


def stay_plain() -> None:
    """Keep this process on the plain alignment search for good: for a
    server that must never stop to load the compiled one (see
    :func:`._align.stay_plain`)."""
    from ._align import stay_plain as keep_plain

    keep_plain()


def metric_names() -> list[str]:
    """Registered names (sorted), then the aliases."""
    return sorted(REGISTRY.keys() | BUILTIN_METRICS.keys()) + sorted(ALIASES)


def resolve(name: str) -> str:
    """The registered name that ``name`` stands for (itself if no alias).

    Example:
        >>> resolve("recommended"), resolve("smatch")
        ('wlmatch-v1', 'smatch')
    """
    return ALIASES.get(name, name)


def metric_factory(name: str) -> Callable[..., Metric]:
    """The class (factory) registered as ``name``, its module loaded if needed.

    Raises:
        MetricError: unknown name (the message lists the valid ones).
    """
    name = resolve(name)
    if name not in REGISTRY and name in BUILTIN_METRICS:
        importlib.import_module(f"{__name__}.{BUILTIN_METRICS[name]}")
    try:
        return REGISTRY[name]
    except KeyError:
        valid = ", ".join(metric_names())
        raise MetricError(f"unknown metric {name!r}; choose one of: {valid}") from None


def get_metric(name: str, **options: Any) -> Metric:
    """The metric called ``name``, built with ``options``.

    Raises:
        MetricError: unknown name (the message lists the valid ones) or
            an option the metric does not have.
    """
    factory = metric_factory(name)
    try:
        metric = factory(**options)
    except (TypeError, ValueError) as exc:
        raise MetricError(f"metric {name!r}: {exc}") from None
    if name in ALIASES:
        metric.alias = name  # type: ignore[attr-defined]  # reports print it
    return metric


@dataclasses.dataclass(frozen=True, slots=True)
class OptionSpec:
    """One option of a metric as the command line takes it (``-o key=value``)."""

    name: str
    #: what a value must be: ``int``, ``float``, ``bool``, ``text``,
    #: ``path``, ``one of a|b``, ``floats, comma-separated`` (``or none``
    #: where None is allowed)
    type: str
    default: Any
    hint: Any = dataclasses.field(repr=False, compare=False)
    kind: str | None = dataclasses.field(default=None, repr=False, compare=False)

    def parse(self, text: str) -> Any:
        """``text`` as a value of this option.

        Raises:
            ValueError: it is not one (the message says what is expected).
        """
        value = _convert(text.strip(), self.hint)
        if self.kind == "path" and value is not None and not Path(value).is_file():
            raise ValueError(f"expected a path to a file; {value} is not a file")
        return value


def option_specs(name: str) -> list[OptionSpec]:
    """Every option of metric ``name``, with its type and default, in order.

    Example:
        >>> [(o.name, o.type, o.default) for o in option_specs("sembleu")][:2]
        [('ngram', 'int', 3), ('weights', 'floats, comma-separated, or none', None)]
    """
    options_class = getattr(metric_factory(name), "Options", None)
    if options_class is None or not dataclasses.is_dataclass(options_class):
        return []
    hints = typing.get_type_hints(options_class)
    specs = []
    for field in dataclasses.fields(options_class):
        default = (
            field.default_factory()
            if field.default_factory is not dataclasses.MISSING
            else None if field.default is dataclasses.MISSING else field.default
        )
        kind = field.metadata.get("kind")
        hint = hints[field.name]
        specs.append(
            OptionSpec(field.name, _type_name(hint, kind), default, hint, kind)
        )
    return specs


def _type_name(hint: Any, kind: str | None = None) -> str:
    """How an option's type reads in listings and errors."""
    args = typing.get_args(hint)
    if args and type(None) in args:
        (inner,) = [a for a in args if a is not type(None)]
        return f"{_type_name(inner, kind)}, or none"
    if kind == "path":
        return "path"
    if kind == "vectors":
        return "path, or glove-6b-50d or minilm"
    if typing.get_origin(hint) is typing.Literal:
        return "one of " + "|".join(map(str, args))
    if typing.get_origin(hint) is tuple:
        return f"{_type_name(args[0])}s, comma-separated"
    return {bool: "bool", int: "int", float: "float"}.get(hint, "text")


def _convert(text: str, hint: Any) -> Any:
    """``text`` as a ``hint`` value (bool, int, float, str, Literal,
    tuple[X, ...], X | None)."""
    args = typing.get_args(hint)
    if typing.get_origin(hint) is typing.Literal:
        if text not in args:
            raise ValueError(f"expected one of {', '.join(map(str, args))}")
        return text
    if args and type(None) in args:  # Optional[X]
        if text.lower() in ("none", ""):
            return None
        (inner,) = [a for a in args if a is not type(None)]
        return _convert(text, inner)
    if typing.get_origin(hint) is tuple:  # "0.5,0.5", "(0.5, 0.5)", "0.5 0.5"
        items = text.strip("()[] ").replace(",", " ").split()
        if not items:
            raise ValueError(f"expected {_type_name(hint)}")
        return tuple(_convert(item, args[0]) for item in items)
    return _convert_scalar(text, hint)


def _convert_scalar(text: str, hint: Any) -> Any:
    """``text`` as a bool, int or float (``hint``), else as it is."""
    if hint is bool:
        if text.lower() in ("1", "true", "yes", "on"):
            return True
        if text.lower() in ("0", "false", "no", "off"):
            return False
        raise ValueError("expected true or false")
    if hint in (int, float):
        try:
            return hint(text)
        except ValueError:
            expected = "an int" if hint is int else "a float"
            raise ValueError(f"expected {expected}") from None
    return text


def metric_options(name: str, raw: dict[str, str]) -> dict[str, Any]:
    """Convert ``key=value`` strings to the typed options of metric ``name``.

    Uses the metric's ``Options`` dataclass (field names, types and
    metadata: :func:`option_specs`).

    Raises:
        MetricError: unknown metric, unknown option or a value of the
            wrong type (the message names the option, the value and what
            is expected, or lists the valid options).

    Example:
        >>> metric_options("smatch", {"restarts": "9", "exact": "yes"})
        {'restarts': 9, 'exact': True}
        >>> metric_options("sembleu", {"weights": "0.34,0.33,0.33"})
        {'weights': (0.34, 0.33, 0.33)}
        >>> metric_options("smatch", {"restarts": "many"})  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        amrcheck.errors.MetricError: metric 'smatch', option restarts='many': ...
    """
    specs = {spec.name: spec for spec in option_specs(name)}
    if not specs and not dataclasses.is_dataclass(
        getattr(metric_factory(name), "Options", None)
    ):
        return dict(raw)
    converted: dict[str, Any] = {}
    for key, text in raw.items():
        if key not in specs:
            valid = ", ".join(sorted(specs))
            raise MetricError(
                f"metric {name!r} has no option {key!r}; options: {valid}"
            )
        try:
            converted[key] = specs[key].parse(text)
        except ValueError as exc:
            raise MetricError(
                f"metric {name!r}, option {key}={text!r}: {exc}"
            ) from None
    return converted


__all__ = [
    "ALIASES",
    "REGISTRY",
    "CorpusScore",
    "Explanation",
    "Metric",
    "OptionSpec",
    "Score",
    "ScoreColumns",
    "TripleRef",
    "corpus_score",
    "count_keys",
    "expect_pairs",
    "get_metric",
    "metric_factory",
    "metric_names",
    "metric_options",
    "option_specs",
    "micro_prf",
    "prf",
    "register",
    "resolve",
    "score_pairs",
    "stay_plain",
]
