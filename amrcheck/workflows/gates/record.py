"""A new baseline: each file a reference rule matches, scored against its reference."""

from __future__ import annotations

import os
from collections.abc import Iterable

from ...pairing.graphs import (
    how_paired,
)
from ..baseline import Baseline, FileBaseline, comparable_settings, read_baseline
from ..config import Config
from .comparison import (
    _display,
    _metric_settings,
    _pairing_failures,
    _read,
    compare,
)
from .failures import (
    GateFailure,
)


def record_baseline(
    config: Config, paths: Iterable[str] | None = None
) -> tuple[Baseline, list[GateFailure]]:
    """Score files against their references for a new baseline.

    ``paths`` default to every file under the configuration's root that a
    reference rule matches. Entries of the current baseline for other
    files are kept when the metric settings are unchanged. Nothing is
    written: the caller writes the baseline (:func:`write_baseline`) when
    the returned failures (unreadable files, unpaired graphs) are empty.
    """
    metric = config.make_metric()
    settings = _metric_settings(metric)
    current = read_baseline(config.resolve(config.baseline))
    files: dict[str, FileBaseline] = {}
    if (
        paths is not None
        and current is not None
        and current.metric == metric.name
        and current.settings == comparable_settings(settings)
    ):
        files.update(current.files)
    failures: list[GateFailure] = []
    for path in paths if paths is not None else candidate_files(config):
        relative = config.relative(path)
        matched = False
        for rule in config.references:
            values = rule.files.match(relative) if relative is not None else None
            if values is None:
                continue
            matched = True
            assert relative is not None
            reference = rule.reference.format(values)
            candidate = _read(path)
            gold = _read(_display(config, reference))
            if isinstance(candidate, str) or isinstance(gold, str):
                problem = candidate if isinstance(candidate, str) else gold
                failures.append(GateFailure(path, "input", f"cannot read {problem}"))
                break
            result = compare(metric, gold, candidate)
            problems = _pairing_failures(result, path, f"not in {gold.path}")
            if problems:
                failures += problems
                break
            total = result.total.f1 if result.total is not None else 0.0
            graphs = {label: score.f1 for label, score in result.scores.items()}
            assert result.matching is not None  # else a pairing failure above
            how = how_paired(result.matching.by, result.matching.note)
            files[relative] = FileBaseline(reference, total, graphs, how)
            break  # the first matching rule names the reference, as in check()
        if not matched:
            failures.append(
                GateFailure(
                    path,
                    "baseline",
                    f"matches no [[regress.reference]] rule of {config.source}",
                )
            )
    return Baseline(metric.name, settings, files), failures


def candidate_files(config: Config) -> list[str]:
    """Files under the configuration's root that a reference rule matches."""
    found: set[str] = set()
    for rule in config.references:
        for path in config.root.glob(rule.files.glob()):
            relative = config.relative(path)
            if relative is not None and path.is_file() and rule.files.match(relative):
                found.add(os.path.relpath(path))
    return sorted(found)
