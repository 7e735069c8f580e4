"""Project configuration for the gates: ``[tool.amrcheck]`` or ``.amrcheck.toml``.

Layer: engine (no front-end imports). Reads TOML with :mod:`tomllib`,
checks every key and value, and returns frozen dataclasses. Every mistake
raises :class:`~amrcheck.errors.ConfigError` with the file and the key:
``pyproject.toml: tool.amrcheck.regress.reference[1].min-f1: expected a
number from 0 to 1, got 'high'``. ``docs/hooks.md`` documents the keys.

Where the configuration comes from: the first directory, from the current
one upwards (stopping at the repository root, the directory holding
``.git``), that has ``.amrcheck.toml`` (keys at the top level) or a
``pyproject.toml`` with a ``[tool.amrcheck]`` table. ``.amrcheck.toml``
wins when both exist. Paths in the configuration are relative to the
directory of the file that holds it.

Keys are written in kebab-case (``min-f1``); snake_case (``min_f1``) is
accepted as the same key.

Example:
    >>> pattern = PathPattern.parse("annotator1/{doc}.amr")
    >>> pattern.match("annotator1/ch01.amr")
    {'doc': 'ch01'}
    >>> PathPattern.parse("annotator2/{doc}.amr").format({'doc': 'ch01'})
    'annotator2/ch01.amr'
    >>> PathPattern.parse("parses/**/*.amr").match("parses/a/b/x.amr")
    {}
"""

from __future__ import annotations

import difflib
import os
import re
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

if sys.version_info >= (3, 11):
    import tomllib
else:  # the same parser, released separately before 3.11
    import tomli as tomllib

from ..errors import ConfigError, InputError, MetricError
from ..metrics import Metric, get_metric
from ..reading.files import read_input, read_input_text
from ..validation.rules import check_patterns
from ..validation.umr import UmrOptions
from .umr_agreement import LAYERS

CONFIG_FILE = ".amrcheck.toml"
PYPROJECT = "pyproject.toml"
DEFAULT_BASELINE = ".amrcheck-baseline.json"
DEFAULT_METRIC = "smatch"

FailOn = Literal["error", "warning"]

_PLACEHOLDER_RE = re.compile(r"\{([^{}]*)\}")
_PATTERN_TOKEN_RE = re.compile(r"\{[^{}]*\}|\*\*/|\*|\?|[^{}*?]+|[{}]")


@dataclass(frozen=True)
class PathPattern:
    """A path pattern relative to the configuration's directory.

    ``{name}`` matches one or more characters within a path segment and
    can be reused in another pattern (a template) to name the matching
    file there; ``*`` matches within a segment, ``**/`` any number of
    directories, ``?`` one character. Paths use ``/`` on every platform.
    """

    text: str
    regex: re.Pattern[str] = field(compare=False, repr=False)
    fields: tuple[str, ...]
    has_wildcards: bool

    @classmethod
    def parse(cls, text: str) -> PathPattern:
        """Compile ``text``.

        Raises:
            ValueError: an empty pattern or a malformed ``{placeholder}``.
        """
        if not text.strip():
            raise ValueError("empty path pattern")
        parts: list[str] = []
        fields: list[str] = []
        wildcards = False
        for token in _PATTERN_TOKEN_RE.findall(text):
            if token.startswith("{") and token.endswith("}") and len(token) > 1:
                name = token[1:-1]
                if not name.isidentifier():
                    raise ValueError(
                        f"placeholder {token} in {text!r} must be a name such "
                        "as {doc}"
                    )
                if name in fields:
                    parts.append(f"(?P={name})")
                else:
                    fields.append(name)
                    parts.append(f"(?P<{name}>[^/]+)")
            elif token in ("{", "}"):
                raise ValueError(f"unbalanced brace in {text!r}")
            elif token == "**/":
                wildcards = True
                parts.append("(?:.*/)?")
            elif token == "*":
                wildcards = True
                parts.append("[^/]*")
            elif token == "?":
                wildcards = True
                parts.append("[^/]")
            else:
                parts.append(re.escape(token))
        return cls(text, re.compile("".join(parts)), tuple(fields), wildcards)

    def match(self, path: str) -> dict[str, str] | None:
        """The placeholder values when ``path`` (``/``-separated) matches."""
        found = self.regex.fullmatch(path)
        return None if found is None else found.groupdict()

    def format(self, values: Mapping[str, str]) -> str:
        """The path this pattern names for ``values`` (no wildcards allowed)."""
        return _PLACEHOLDER_RE.sub(lambda m: values[m.group(1)], self.text)

    def glob(self) -> str:
        """A :meth:`pathlib.Path.glob` pattern for candidate files."""
        return _PLACEHOLDER_RE.sub("*", self.text)


@dataclass(frozen=True)
class CheckConfig:
    """``[tool.amrcheck.check]``: what ``amr-check`` reports and fails on."""

    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    fail_on: FailOn = "error"

    def override(
        self,
        select: Sequence[str] | None = None,
        ignore: Sequence[str] | None = None,
        fail_on: FailOn | None = None,
    ) -> CheckConfig:
        """These settings with command-line options (when given) replacing them.

        ``select``/``ignore`` items may be comma-separated.

        Raises:
            ConfigError: an unknown rule code, naming the option.

        Example:
            >>> CheckConfig(ignore=("W",)).override(select=["E1,E2"])
            CheckConfig(select=('E1', 'E2'), ignore=('W',), fail_on='error')
        """
        values = {"select": self.select, "ignore": self.ignore}
        for option, given in (("select", select), ("ignore", ignore)):
            if given is None:
                continue
            raw = [part for text in given for part in text.split(",") if part]
            try:
                values[option] = tuple(check_patterns(raw))
            except ValueError as exc:
                raise ConfigError(f"--{option}: {exc}") from None
        return CheckConfig(values["select"], values["ignore"], fail_on or self.fail_on)


@dataclass(frozen=True)
class ReferenceRule:
    """``[[tool.amrcheck.regress.reference]]``: score files against a reference."""

    where: str  # "pyproject.toml: tool.amrcheck.regress.reference[1]"
    files: PathPattern
    reference: PathPattern
    min_f1: float | None = None
    max_drop: float | None = None
    min_graph_f1: float | None = None
    #: ``min-layer-f1``: a minimum F1 per UMR layer (alignment, temporal, modal, coref)
    min_layer_f1: Mapping[str, float] = field(default_factory=dict)


@dataclass(frozen=True)
class HeadRule:
    """``[[tool.amrcheck.regress.head]]``: compare files with their HEAD version."""

    where: str
    files: PathPattern
    max_changed_graphs: int | None = None
    min_f1_vs_head: float | None = None
    #: ``min-layer-f1``: a minimum F1 per UMR layer against the ``HEAD`` version
    min_layer_f1: Mapping[str, float] = field(default_factory=dict)


@dataclass(frozen=True)
class IaaGroup:
    """``[[tool.amrcheck.iaa]]``: files annotated twice (or more), one pattern each."""

    where: str
    files: tuple[PathPattern, ...]
    min_graph_f1: float | None = None
    min_mean_f1: float | None = None
    #: ``min-layer-f1``: a minimum F1 per UMR layer (alignment, temporal, modal, coref)
    min_layer_f1: Mapping[str, float] = field(default_factory=dict)


@dataclass(frozen=True)
class Config:
    """Everything the gates need; the defaults when there is no configuration."""

    #: the file read, or None when no configuration was found
    path: Path | None = None
    #: the directory that relative paths in the configuration start from
    root: Path = field(default_factory=Path.cwd)
    metric: str = DEFAULT_METRIC
    metric_options: Mapping[str, Any] = field(default_factory=dict)
    check: CheckConfig = field(default_factory=CheckConfig)
    baseline: str = DEFAULT_BASELINE
    references: tuple[ReferenceRule, ...] = ()
    heads: tuple[HeadRule, ...] = ()
    iaa: tuple[IaaGroup, ...] = ()
    #: ``[tool.amrcheck.umr]``: the relaxations of the UMR rules (docs/umr.md)
    umr: UmrOptions = field(default_factory=UmrOptions)

    @property
    def source(self) -> str:
        """How messages name the configuration."""
        if self.path is None:
            return "(no configuration file)"
        if self.path.name == PYPROJECT:
            return f"{_shown(self.path)} [tool.amrcheck]"
        return _shown(self.path)

    def make_metric(self) -> Metric:
        """The configured metric (its options were checked on loading)."""
        return get_metric(self.metric, **self.metric_options)

    def relative(self, path: str | os.PathLike[str]) -> str | None:
        """``path`` relative to :attr:`root` with ``/``, None when outside it."""
        relative = os.path.relpath(os.path.abspath(path), self.root)
        if relative == ".." or relative.startswith(".." + os.sep):
            return None
        return Path(relative).as_posix()

    def resolve(self, relative: str) -> Path:
        """A configured (root-relative) path as a path to open."""
        return self.root / relative


# --- reading ---------------------------------------------------------------


def _has_amrcheck_table(pyproject: Path) -> bool:
    try:
        text = read_input(pyproject).decode("utf-8", errors="replace")
    except InputError:
        return False
    try:
        return "amrcheck" in tomllib.loads(text).get("tool", {})
    except tomllib.TOMLDecodeError:
        # broken TOML that mentions our table: load_config reports the error
        return "[tool.amrcheck" in text


def find_config(start: Path | None = None) -> Path | None:
    """The configuration file for ``start`` (default: the current directory)."""
    directory = (start or Path.cwd()).resolve()
    for candidate in (directory, *directory.parents):
        if (candidate / CONFIG_FILE).is_file():
            return candidate / CONFIG_FILE
        pyproject = candidate / PYPROJECT
        if pyproject.is_file() and _has_amrcheck_table(pyproject):
            return pyproject
        if (candidate / ".git").exists():
            break
    return None


def load_config(path: str | os.PathLike[str] | None = None) -> Config:
    """Read and check the configuration at ``path``, or the one found from here.

    Without any configuration file, returns the defaults (no gates set up).

    Raises:
        ConfigError: unreadable file, invalid TOML, an unknown key or a
            bad value; the message names the file and the key.
    """
    if path is None:
        found = find_config()
        if found is None:
            return Config()
        file = found
    else:
        file = Path(path)
    try:
        text = read_input_text(file)  # never a FIFO or a device a repository ships
    except InputError as exc:
        raise ConfigError(
            f"{_shown(file)}: cannot read the configuration: {exc.message}"
        ) from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{_shown(file)}: invalid TOML: {exc}") from None
    prefix = ""
    if file.name == PYPROJECT:
        tool = data.get("tool", {})
        if not isinstance(tool, dict) or "amrcheck" not in tool:
            raise ConfigError(f"{_shown(file)}: has no [tool.amrcheck] table")
        data, prefix = tool["amrcheck"], "tool.amrcheck"
        if not isinstance(data, dict):
            raise ConfigError(f"{_shown(file)}: tool.amrcheck: expected a table")
    return _parse(_Table(data, _shown(file), prefix), file)


def _shown(file: Path) -> str:
    """How messages name ``file``: relative to the current directory if inside it."""
    relative = os.path.relpath(os.path.abspath(file))
    return relative if not relative.startswith("..") else str(file)


def _parse(top: _Table, file: Path) -> Config:
    metric = top.string("metric") or DEFAULT_METRIC
    options_table = top.table("metric-options")
    options = options_table.raw() if options_table is not None else {}
    try:
        get_metric(metric, **options)
    except MetricError as exc:
        key = "metric-options" if options else "metric"
        raise top.error(key, str(exc)) from None

    check = CheckConfig()
    check_table = top.table("check")
    if check_table is not None:
        fail_on = check_table.choice("fail-on", ("error", "warning")) or "error"
        check = CheckConfig(
            select=check_table.codes("select"),
            ignore=check_table.codes("ignore"),
            fail_on=fail_on,  # type: ignore[arg-type]  # checked by choice()
        )
        check_table.finish()

    baseline = DEFAULT_BASELINE
    references: list[ReferenceRule] = []
    heads: list[HeadRule] = []
    regress = top.table("regress")
    if regress is not None:
        baseline = regress.string("baseline") or DEFAULT_BASELINE
        references = [_reference_rule(t) for t in regress.tables("reference")]
        heads = [_head_rule(t) for t in regress.tables("head")]
        regress.finish()
    groups = [_iaa_group(t) for t in top.tables("iaa")]
    umr = UmrOptions()
    umr_table = top.table("umr")
    if umr_table is not None:
        umr = UmrOptions(**{
            name: flag
            for name in UmrOptions.names()
            if (flag := umr_table.flag(name.replace("_", "-"))) is not None
        })
        umr_table.finish()
    top.finish()
    return Config(
        path=file,
        root=file.resolve().parent,
        metric=metric,
        metric_options=options,
        check=check,
        baseline=baseline,
        references=tuple(references),
        heads=tuple(heads),
        iaa=tuple(groups),
        umr=umr,
    )


def _reference_rule(table: _Table) -> ReferenceRule:
    files = table.pattern("files", required=True)
    reference = table.pattern("reference", required=True)
    assert files is not None and reference is not None
    table.template_of(files, reference, "reference")
    rule = ReferenceRule(
        where=table.location(),
        files=files,
        reference=reference,
        min_f1=table.fraction("min-f1"),
        max_drop=table.fraction("max-drop"),
        min_graph_f1=table.fraction("min-graph-f1"),
        min_layer_f1=table.layer_fractions("min-layer-f1"),
    )
    table.finish()
    if (
        rule.min_f1 is None
        and rule.max_drop is None
        and rule.min_graph_f1 is None
        and not rule.min_layer_f1
    ):
        raise table.error(
            None,
            "sets no threshold: add min-f1, max-drop, min-graph-f1 or min-layer-f1",
        )
    return rule


def _head_rule(table: _Table) -> HeadRule:
    files = table.pattern("files", required=True)
    assert files is not None
    rule = HeadRule(
        where=table.location(),
        files=files,
        max_changed_graphs=table.count("max-changed-graphs"),
        min_f1_vs_head=table.fraction("min-f1-vs-head"),
        min_layer_f1=table.layer_fractions("min-layer-f1"),
    )
    table.finish()
    if (
        rule.max_changed_graphs is None
        and rule.min_f1_vs_head is None
        and not rule.min_layer_f1
    ):
        raise table.error(
            None,
            "sets no threshold: add max-changed-graphs, min-f1-vs-head or "
            "min-layer-f1",
        )
    return rule


def _iaa_group(table: _Table) -> IaaGroup:
    texts = table.strings("files")
    if len(texts) < 2:
        raise table.error(
            "files",
            "expected at least two patterns, one per annotator, e.g. "
            '["annotator1/{doc}.amr", "annotator2/{doc}.amr"]',
        )
    patterns = [table.parse_pattern("files", text) for text in texts]
    for pattern in patterns:
        if pattern.has_wildcards or not pattern.fields:
            raise table.error(
                "files",
                f"{pattern.text!r}: each pattern needs a {{placeholder}} and no "
                "wildcards, so that the other annotators' files can be named",
            )
    for pattern in patterns[1:]:  # every pattern names the others' files
        table.template_of(patterns[0], pattern, "files")
        table.template_of(pattern, patterns[0], "files")
    group = IaaGroup(
        where=table.location(),
        files=tuple(patterns),
        min_graph_f1=table.fraction("min-graph-f1"),
        min_mean_f1=table.fraction("min-mean-f1"),
        min_layer_f1=table.layer_fractions("min-layer-f1"),
    )
    table.finish()
    if group.min_graph_f1 is None and group.min_mean_f1 is None and not (
        group.min_layer_f1
    ):
        raise table.error(
            None, "sets no threshold: add min-graph-f1, min-mean-f1 or min-layer-f1"
        )
    return group


class _Table:
    """A TOML table being checked: typed getters, then :meth:`finish`.

    Keys are normalised to kebab-case; messages use the spelling of the file.
    """

    def __init__(self, data: dict[str, Any], file: str, where: str) -> None:
        self.file = file
        self.where = where
        self.items: dict[str, tuple[str, Any]] = {}
        for key, value in data.items():
            canonical = key.replace("_", "-")
            if canonical in self.items:
                other = self.items[canonical][0]
                raise self.error(None, f"{other!r} and {key!r} are the same key")
            self.items[canonical] = (key, value)
        self.used: set[str] = set()

    def location(self, key: str | None = None) -> str:
        name = self.where
        if key is not None:
            spelled = self.items.get(key, (key, None))[0]
            name = f"{name}.{spelled}" if name else spelled
        return f"{self.file}: {name}" if name else self.file

    def error(self, key: str | None, message: str) -> ConfigError:
        return ConfigError(f"{self.location(key)}: {message}")

    def _get(self, key: str) -> Any:
        self.used.add(key)
        item = self.items.get(key)
        return None if item is None else item[1]

    def raw(self) -> dict[str, Any]:
        self.used.update(self.items)
        return {key: value for key, value in self.items.values()}

    def string(self, key: str) -> str | None:
        value = self._get(key)
        if value is not None and not isinstance(value, str):
            raise self.error(key, f"expected a string, got {value!r}")
        return value

    def flag(self, key: str) -> bool | None:
        value = self._get(key)
        if value is not None and not isinstance(value, bool):
            raise self.error(key, f"expected true or false, got {value!r}")
        return value

    def strings(self, key: str) -> list[str]:
        """A list of strings; one string is a one-item list."""
        value = self._get(key)
        if value is None:
            return []
        if isinstance(value, str):
            value = [value]
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise self.error(key, f"expected a list of strings, got {value!r}")
        return value

    def choice(self, key: str, choices: tuple[str, ...]) -> str | None:
        value = self.string(key)
        if value is not None and value not in choices:
            raise self.error(
                key, f"expected one of {', '.join(map(repr, choices))}, got {value!r}"
            )
        return value

    def codes(self, key: str) -> tuple[str, ...]:
        """Rule codes or prefixes; a list, or one comma-separated string."""
        raw = [part for text in self.strings(key) for part in text.split(",") if part]
        try:
            return tuple(check_patterns(raw))
        except ValueError as exc:
            raise self.error(key, str(exc)) from None

    def fraction(self, key: str) -> float | None:
        value = self._get(key)
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise self.error(key, f"expected a number from 0 to 1, got {value!r}")
        if not 0 <= value <= 1:
            raise self.error(key, f"expected a number from 0 to 1, got {value!r}")
        return float(value)

    def layer_fractions(self, key: str) -> dict[str, float]:
        """A table of UMR layers, each with a number from 0 to 1
        (``{alignment = 0.9, coref = 0.8}``); an unknown layer is a typo."""
        table = self.table(key)
        if table is None:
            return {}
        found = {
            layer: value
            for layer in LAYERS
            if (value := table.fraction(layer)) is not None
        }
        table.finish()
        if not found:
            raise self.error(key, f"names no layer: use {', '.join(LAYERS)}")
        return found

    def count(self, key: str) -> int | None:
        value = self._get(key)
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise self.error(key, f"expected a whole number >= 0, got {value!r}")
        return value

    def parse_pattern(self, key: str, text: str) -> PathPattern:
        try:
            return PathPattern.parse(text)
        except ValueError as exc:
            raise self.error(key, str(exc)) from None

    def pattern(self, key: str, required: bool = False) -> PathPattern | None:
        text = self.string(key)
        if text is None:
            if required:
                raise self.error(None, f"missing key {key!r}")
            return None
        return self.parse_pattern(key, text)

    def template_of(self, source: PathPattern, template: PathPattern, key: str) -> None:
        """Check that ``template`` can be filled from what ``source`` matches."""
        if template is not source and template.has_wildcards:
            raise self.error(
                key, f"{template.text!r} names one file per match: no wildcards"
            )
        unknown = sorted(set(template.fields) - set(source.fields))
        if unknown:
            raise self.error(
                key,
                f"{template.text!r} uses {{{unknown[0]}}}, which {source.text!r} "
                "does not define",
            )

    def table(self, key: str) -> _Table | None:
        value = self._get(key)
        if value is None:
            return None
        if not isinstance(value, dict):
            raise self.error(key, f"expected a table, got {value!r}")
        return _Table(value, self.file, self._child(key))

    def tables(self, key: str) -> list[_Table]:
        """An array of tables (``[[...]]``); one table is a one-item array."""
        value = self._get(key)
        if value is None:
            return []
        if isinstance(value, dict):
            return [_Table(value, self.file, self._child(key))]
        if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
            raise self.error(key, "expected an array of tables ([[...]])")
        return [
            _Table(item, self.file, f"{self._child(key)}[{number}]")
            for number, item in enumerate(value, 1)
        ]

    def _child(self, key: str) -> str:
        spelled = self.items[key][0]
        return f"{self.where}.{spelled}" if self.where else spelled

    def finish(self) -> None:
        """Reject keys that no getter asked for (typos), suggesting the near one."""
        for canonical, (spelled, _) in self.items.items():
            if canonical in self.used:
                continue
            close = difflib.get_close_matches(canonical, sorted(self.used), n=1)
            hint = (
                f"did you mean {close[0]!r}?"
                if close
                else f"valid keys: {', '.join(sorted(self.used))}"
            )
            raise self.error(None, f"unknown key {spelled!r} ({hint})")
