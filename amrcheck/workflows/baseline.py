"""The committed baseline score file that ``amr-regress``'s ``max-drop`` compares with.

Layer: engine, plain data and JSON. The file (``.amrcheck-baseline.json``
by default) is written only by ``amrcheck baseline``, never by a hook.
It records, per checked file, the reference it was scored against, the
corpus (micro) F1 and each graph's F1, plus the metric and its settings:
scores recorded under other settings are not comparable, and the gate
says so instead of comparing them.

The JSON is stable (files sorted, graphs in file order, scores rounded
to 6 decimals), so a baseline update is a small, readable diff in review.

Example:
    >>> import tempfile, pathlib
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "b.json"
    >>> entry = FileBaseline("gold/a.amr", 0.75, {"a.1": 1.0, "a.2": 0.5})
    >>> write_baseline(Baseline("smatch", {"root": "variable"}, {"a.amr": entry}), path)
    >>> read_baseline(path).files["a.amr"].graphs["a.2"]
    0.5
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import ConfigError, InputError
from ..reading.files import read_input

#: bumped when the file's layout changes incompatibly
BASELINE_VERSION = 1
_DIGITS = 6


@dataclass(slots=True)
class FileBaseline:
    """One checked file's recorded scores (keys of ``graphs``: ``::id`` or ``#n``)."""

    reference: str
    f1: float
    graphs: dict[str, float] = field(default_factory=dict)
    #: how this run paired the graphs (:func:`amrcheck.pairing.graphs.how_paired`);
    #: not written: a baseline read back has ""
    how: str = ""


@dataclass(slots=True)
class Baseline:
    """The whole file: metric, settings, and the scores of each checked file."""

    metric: str
    settings: dict[str, Any]
    files: dict[str, FileBaseline] = field(default_factory=dict)


def comparable_settings(settings: dict[str, Any]) -> dict[str, Any]:
    """``settings`` as they read back from JSON (tuples become lists)."""
    loaded: dict[str, Any] = json.loads(json.dumps(settings, sort_keys=True))
    return loaded


def read_baseline(path: Path) -> Baseline | None:
    """The baseline at ``path``; None when there is no such file.

    Raises:
        ConfigError: the file exists but is not a baseline this version reads.
    """
    try:
        text = read_input(path).decode("utf-8", errors="replace")
    except InputError as exc:
        if not os.path.lexists(path):
            return None
        raise ConfigError(f"{path}: cannot read the baseline: {exc.message}") from None
    problem = "run `amrcheck baseline` to write it again"
    try:
        data = json.loads(text)
        if data.get("version") != BASELINE_VERSION:
            raise ConfigError(
                f"{path}: baseline version {data.get('version')!r}, expected "
                f"{BASELINE_VERSION}; {problem}"
            )
        files = {
            name: FileBaseline(
                reference=str(item["reference"]),
                f1=float(item["f1"]),
                graphs={str(k): float(v) for k, v in item["graphs"].items()},
            )
            for name, item in data["files"].items()
        }
        return Baseline(str(data["metric"]), dict(data["settings"]), files)
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        raise ConfigError(
            f"{path}: not a valid baseline file ({exc}); {problem}"
        ) from None


def write_baseline(baseline: Baseline, path: Path) -> None:
    """Write ``baseline`` as stable, reviewable JSON."""
    data = {
        "version": BASELINE_VERSION,
        "metric": baseline.metric,
        "settings": comparable_settings(baseline.settings),
        "files": {
            name: {
                "reference": item.reference,
                "f1": round(item.f1, _DIGITS),
                "graphs": {k: round(v, _DIGITS) for k, v in item.graphs.items()},
            }
            for name, item in sorted(baseline.files.items())
        },
    }
    text = json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    path.write_text(text, encoding="utf-8")
