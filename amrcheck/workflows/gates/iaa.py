"""``amr-iaa``: agreement between the annotators' versions of a file."""

from __future__ import annotations

from collections.abc import Iterator

from ...errors import ConfigError
from ...validation.filecheck import plural
from ..config import Config, IaaGroup
from .comparison import (
    _display,
    _graph_place,
    _read_document,
    _unscorable_lines,
    _worst_first,
    compare,
    graph_reports,
    low_graphs_failure,
    position_failures,
)
from .failures import (
    EPSILON,
    GateFailure,
)
from .layers import min_layer_f1_failures


class IaaGate:
    """``amr-iaa``: agreement between the annotators' versions of a file.

    A file matching one pattern of a group is compared with the files the
    other patterns name (those that exist); each pair is compared once per
    run, the earlier pattern's file as the reference.
    """

    def __init__(self, config: Config) -> None:
        if not config.iaa:
            raise ConfigError(
                f"{config.source} sets up no [[tool.amrcheck.iaa]] group "
                "(see docs/hooks.md)"
            )
        self.config = config
        self.metric = config.make_metric()
        self._done: set[tuple[str, str]] = set()

    def check(self, path: str) -> list[GateFailure]:
        relative = self.config.relative(path)
        if relative is None:
            return []
        failures: list[GateFailure] = []
        for group in self.config.iaa:
            failures += self._check_group(group, relative)
        return failures

    def _partners(self, group: IaaGroup, relative: str) -> Iterator[tuple[str, str]]:
        for index, pattern in enumerate(group.files):
            values = pattern.match(relative)
            if values is None:
                continue
            names = [other.format(values) for other in group.files]
            for other_index, other in enumerate(names):
                # exists(), not is_file(): a FIFO or a device there is refused
                # when read, not skipped as if the annotation were not there yet
                if other_index == index or not self.config.resolve(other).exists():
                    continue
                yield (other, relative) if other_index < index else (relative, other)

    def _check_group(self, group: IaaGroup, relative: str) -> list[GateFailure]:
        failures = []
        for first, second in self._partners(group, relative):
            if (first, second) in self._done:
                continue
            self._done.add((first, second))
            failures += self.agreement(group, first, second)
        return failures

    def agreement(self, group: IaaGroup, first: str, second: str) -> list[GateFailure]:
        """``min-graph-f1``, ``min-mean-f1`` and ``min-layer-f1`` between two
        annotators' files."""
        a, b = _display(self.config, first), _display(self.config, second)
        path = f"{a} vs {b}"
        read = []
        for file in (a, b):
            one = _read_document(file)
            if isinstance(one, str):
                return [GateFailure(path, "input", f"cannot read {one}")]
            read.append(one)
        (reference, reference_layers), (candidate, candidate_layers) = read
        name = self.metric.name
        result = compare(self.metric, reference, candidate, peers=True)
        reports = graph_reports(result, f"only in {a}", f"only in {b}")
        details = [
            f"{_graph_place(entry)}: graph {pair.label} is only in {entry.source.path}"
            " (not compared)"
            for pair in result.unpaired
            for entry in (pair.reference, pair.candidate)
            if entry is not None
        ]
        details += _unscorable_lines(result)
        failures = position_failures(result, path)
        if group.min_graph_f1 is not None:
            low = low_graphs_failure(
                path, reports, group.min_graph_f1, name, details=tuple(details)
            )
            failures += [low] if low is not None else []
        mean = result.mean_f1()
        if (
            group.min_mean_f1 is not None
            and mean is not None
            and mean < group.min_mean_f1 - EPSILON
        ):
            disagreeing = [
                r for r in reports if r.f1 is not None and r.f1 < 1 - EPSILON
            ]
            failures.append(
                GateFailure(
                    path,
                    "min-mean-f1",
                    f"mean {name} F1 {mean:.4f} over "
                    f"{plural(len(reports), 'graph')} is below "
                    f"{group.min_mean_f1:g}",
                    name,
                    _worst_first(disagreeing),
                    () if failures else tuple(details),
                )
            )
        if group.min_layer_f1:
            failures += min_layer_f1_failures(
                path,
                group.where,
                f"{a} and {b}",
                reference_layers,
                candidate_layers,
                group.min_layer_f1,
                interval=True,
            )
        return failures
