"""The server's settings: typed dataclasses with defaults, read from camelCase JSON.

Settings come from the client's ``initializationOptions`` and from
``workspace/configuration`` (section ``amrcheck``); the second overrides
the first key by key. Every setting and its default is documented in
``docs/lsp.md``. Reading never fails: a value of the wrong type, an
unknown key or an unknown metric is reported (the server shows the
messages with ``window/showMessage``) and that setting keeps its default.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, get_args, get_origin, get_type_hints

from amrcheck import MetricError, get_metric
from amrcheck.reading.layout import Style

#: the ``workspace/configuration`` section the server asks for
SECTION = "amrcheck"

#: how the differences from the reference are shown: one diagnostic per
#: graph listing them, or one per triple (each on its own text)
DiffDiagnostics = Literal["grouped", "per-triple"]


@dataclass(frozen=True)
class Features:
    """Which features are on."""

    #: the validator's findings (source ``amrcheck``)
    validation: bool = True
    #: differences from the reference file (source ``amrcheck-diff``)
    diff: bool = True
    #: a score lens above each graph
    code_lens: bool = True
    #: the same score as an inlay hint at the end of each graph's first line
    inlay_hints: bool = False
    #: the ``amr/documentScore`` notification after each analysis
    document_score: bool = True


@dataclass(frozen=True)
class Similar:
    """Similar annotations from an index made by ``amrcheck index``."""

    #: the index file (relative to the workspace root, or absolute); empty: off
    index: str = ""
    #: precedents shown per graph
    top: int = 5


@dataclass(frozen=True)
class Settings:
    """Everything the server can be told."""

    #: glob (relative to the workspace root) -> reference file template;
    #: ``{name}`` is the file name without extension, ``{filename}`` with it,
    #: ``{dir}`` the file's folder relative to the root
    references: dict[str, str] = field(default_factory=dict)
    #: metric of the score lens and document score (``amrcheck.metric_names()``)
    metric: str = "smatch"
    #: keyword options of that metric, e.g. ``{"root": "concept"}``
    metric_options: dict[str, Any] = field(default_factory=dict)
    #: delay after the last keystroke before re-checking, in milliseconds;
    #: none by default: changes that arrive while a check runs are merged
    #: anyway (see ``AmrLanguageServer.schedule``)
    debounce_ms: int = 0
    #: seconds of alignment search per graph pair (smatch-family metrics,
    #: and the diff's alignment): a larger graph is cut, keeps the best
    #: alignment found, and its score says it is not proven optimal
    time_budget: float = 1.0
    #: graphs scoring below it get a ``low-score`` warning (0: none)
    low_score_threshold: float = 0.8
    #: files or folders outside the workspace that a ``# ::reference``
    #: header may name (absolute or ``~/...``; symlinks are resolved)
    allowed_reference_paths: list[str] = field(default_factory=list)
    #: reference files larger than this (in MB, 10^6 bytes) are not read
    max_reference_megabytes: int = 50
    #: one diagnostic per graph (the differences in ``relatedInformation``),
    #: or the older one per triple, which underlines a much changed graph
    #: nearly line by line (issue 22)
    diff_diagnostics: DiffDiagnostics = "grouped"
    #: the layout formatting gives: the author's lines re-indented (never
    #: re-broken), or penman's layout of every graph (issue 22)
    format_style: Style = "keep-lines"
    features: Features = field(default_factory=Features)
    similar: Similar = field(default_factory=Similar)


def camel(name: str) -> str:
    """``metric_options`` -> ``metricOptions``."""
    head, *rest = name.split("_")
    return head + "".join(part.title() for part in rest)


def merge(base: dict[str, Any], override: dict[str, Any]) -> dict[str, Any]:
    """``override`` on top of ``base``, recursively for nested objects."""
    merged = dict(base)
    for key, value in override.items():
        if isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = merge(merged[key], value)
        else:
            merged[key] = value
    return merged


def _check_type(value: Any, hint: Any) -> bool:
    origin = get_origin(hint)
    if origin is Literal:
        return value in get_args(hint)
    if origin is dict:
        key_type, value_type = get_args(hint)
        return isinstance(value, dict) and all(
            isinstance(k, key_type) and (value_type is Any or isinstance(v, value_type))
            for k, v in value.items()
        )
    if origin is list:
        (item_type,) = get_args(hint)
        return isinstance(value, list) and all(isinstance(v, item_type) for v in value)
    if hint is bool:
        return isinstance(value, bool)
    if hint is int:  # JSON has no bool/int distinction worth trusting
        return isinstance(value, int) and not isinstance(value, bool)
    if hint is float:  # JSON writes 1.0 as 1
        return isinstance(value, int | float) and not isinstance(value, bool)
    return isinstance(value, hint)


def _structure(cls: type[Any], raw: Any, where: str, problems: list[str]) -> Any:
    """Build dataclass ``cls`` from camelCase ``raw``, defaulting what is wrong."""
    if not isinstance(raw, dict):
        problems.append(f"{where or 'settings'}: expected an object, got {raw!r}")
        return cls()
    hints = get_type_hints(cls)
    known = {camel(f.name): f for f in dataclasses.fields(cls)}
    values: dict[str, Any] = {}
    for key, value in raw.items():
        spec = known.get(key)
        path = f"{where}.{key}" if where else key
        if spec is None:
            problems.append(f"{path}: unknown setting (ignored)")
            continue
        hint = hints[spec.name]
        if dataclasses.is_dataclass(hint):
            values[spec.name] = _structure(hint, value, path, problems)  # type: ignore[arg-type]
        elif _check_type(value, hint):
            values[spec.name] = float(value) if hint is float else value
        else:
            problems.append(
                f"{path}: {value!r} is not a valid value{_choices(hint)} (default used)"
            )
    return cls(**values)


def _choices(hint: Any) -> str:
    """`` (one of 'a', 'b')`` for a setting with fixed choices, else nothing."""
    if get_origin(hint) is not Literal:
        return ""
    return " (one of " + ", ".join(repr(c) for c in get_args(hint)) + ")"


_TEMPLATE_FIELD_RE = re.compile(r"\{([^{}]*)\}")
TEMPLATE_FIELDS = ("name", "filename", "dir")


def _absolute(path: str) -> bool:
    return Path(path).expanduser().is_absolute()


#: settings that must lie in a range: field, client name, bounds, what is said
_RANGES: tuple[tuple[str, str, float, float, str], ...] = (
    ("debounce_ms", "debounceMs", 0, float("inf"), "must be >= 0"),
    ("low_score_threshold", "lowScoreThreshold", 0, 1, "must be between 0 and 1"),
    ("time_budget", "timeBudget", 0.01, 600, "must be between 0.01 and 600"),
    ("max_reference_megabytes", "maxReferenceMegabytes", 1, float("inf"),
     "must be >= 1"),
)


def _in_range(settings: Settings, problems: list[str]) -> Settings:
    """``settings`` with each value out of its range reset to its default."""
    defaults = Settings()
    for name, client_name, low, high, rule in _RANGES:
        if not low <= getattr(settings, name) <= high:
            problems.append(f"{client_name}: {rule} (default used)")
            settings = dataclasses.replace(settings, **{name: getattr(defaults, name)})
    return settings


def load_settings(raw: Any) -> tuple[Settings, list[str]]:
    """Settings from client JSON, plus a message per value that was not usable.

    Example:
        >>> settings, problems = load_settings({"metric": "nope", "debounceMs": 20})
        >>> settings.metric, settings.debounce_ms
        ('smatch', 20)
        >>> problems[0].split(";")[0]
        "metric: unknown metric 'nope'"
    """
    problems: list[str] = []
    if raw is None:
        raw = {}
    settings: Settings = _structure(Settings, raw, "", problems)
    defaults = Settings()
    try:
        get_metric(settings.metric, **settings.metric_options)
    except MetricError as exc:
        problems.append(f"metric: {exc} (using {defaults.metric} with default options)")
        settings = dataclasses.replace(
            settings, metric=defaults.metric, metric_options={}
        )
    references = dict(settings.references)
    for pattern, template in settings.references.items():
        unknown = [
            name for name in _TEMPLATE_FIELD_RE.findall(template)
            if name not in TEMPLATE_FIELDS
        ]
        if unknown:
            problems.append(
                f"references.{pattern}: unknown placeholder {{{unknown[0]}}} "
                f"(use {', '.join('{' + f + '}' for f in TEMPLATE_FIELDS)}); ignored"
            )
            del references[pattern]
    if settings.similar.top < 1:
        problems.append("similar.top: must be >= 1 (default used)")
        similar = Similar(settings.similar.index)
        settings = dataclasses.replace(settings, similar=similar)
    settings = _in_range(settings, problems)
    allowed = [p for p in settings.allowed_reference_paths if _absolute(p)]
    for path in settings.allowed_reference_paths:
        if not _absolute(path):
            problems.append(
                f"allowedReferencePaths: {path!r} is not an absolute path "
                "(or ~/...); ignored"
            )
    settings = dataclasses.replace(settings, allowed_reference_paths=allowed)
    return dataclasses.replace(settings, references=references), problems
