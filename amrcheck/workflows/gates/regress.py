"""``amr-regress``: a file against its reference, baseline and ``HEAD`` version."""

from __future__ import annotations

from pathlib import Path

from ...errors import ConfigError
from ...reading.corpus import read_string
from ...reading.umr import is_umr_path
from ...reading.umr_corpus import umr_corpus_from_string
from ...validation.filecheck import plural
from ..baseline import Baseline, FileBaseline, comparable_settings, read_baseline
from ..config import Config, HeadRule, ReferenceRule
from .comparison import (
    Comparison,
    _display,
    _empty_report,
    _graph_place,
    _metric_settings,
    _pairing_failures,
    _read,
    _unscorable_lines,
    _worst_first,
    compare,
    graph_report,
    graph_reports,
    low_graphs_failure,
    position_failures,
)
from .failures import (
    EPSILON,
    FlaggedGraph,
    GateFailure,
)
from .head import HeadReader


class RegressGate:
    """``amr-regress``: the reference and ``HEAD`` rules, one file at a time.

    Raises:
        ConfigError: the configuration sets up no rule for this gate.
    """

    def __init__(self, config: Config) -> None:
        if not config.references and not config.heads:
            raise ConfigError(
                f"{config.source} sets up no [[tool.amrcheck.regress.reference]] "
                "or [[tool.amrcheck.regress.head]] rule (see docs/hooks.md)"
            )
        self.config = config
        self.metric = config.make_metric()
        self.head = HeadReader()
        self._baseline: Baseline | None = None
        self._baseline_read = False

    def close(self) -> None:
        """End the ``git`` process that reads ``HEAD`` versions, if one started."""
        self.head.close()

    @property
    def baseline(self) -> Baseline | None:
        if not self._baseline_read:
            self._baseline = read_baseline(
                Path(_display(self.config, self.config.baseline))
            )
            self._baseline_read = True
        return self._baseline

    def check(self, path: str) -> list[GateFailure]:
        """Every failure of every rule whose ``files`` pattern matches ``path``."""
        relative = self.config.relative(path)
        if relative is None:
            return []
        failures: list[GateFailure] = []
        for rule in self.config.references:
            values = rule.files.match(relative)
            if values is not None:
                reference = rule.reference.format(values)
                failures += self.against_reference(rule, path, relative, reference)
        for head_rule in self.config.heads:
            if head_rule.files.match(relative) is not None:
                failures += self.against_head(head_rule, path)
        return failures

    def against_reference(
        self, rule: ReferenceRule, path: str, relative: str, reference: str
    ) -> list[GateFailure]:
        """``min-f1``, ``max-drop`` and ``min-graph-f1`` against ``reference``."""
        name = self.metric.name
        candidate = _read(path)
        if isinstance(candidate, str):
            return [GateFailure(path, "input", f"cannot read {candidate}")]
        gold = _read(_display(self.config, reference))
        if isinstance(gold, str):
            return [
                GateFailure(
                    path,
                    "reference",
                    f"cannot read its reference {_display(self.config, reference)} "
                    f"({rule.where}): {gold}",
                )
            ]
        result = compare(self.metric, gold, candidate)
        failures = _pairing_failures(result, path, f"not in {gold.path}")
        recorded = self._recorded(rule, path, relative, reference, failures)
        reports = graph_reports(
            result,
            f"missing from {path}",
            f"not in {gold.path}",
            recorded.graphs if recorded else None,
        )
        worse = [
            r
            for r in reports
            if r.before is not None and r.f1 is not None and r.f1 < r.before - EPSILON
        ]
        total = result.total.f1 if result.total is not None else 0.0
        count = _graph_count(result, f"against {gold.path}")
        if rule.min_f1 is not None and total < rule.min_f1 - EPSILON:
            below = [r for r in reports if r.f1 is not None and r.f1 < rule.min_f1]
            failures.append(
                GateFailure(
                    path,
                    "min-f1",
                    f"{name} F1 {total:.4f} is below {rule.min_f1:g} ({count})",
                    name,
                    _worst_first(worse or below),
                )
            )
        if rule.max_drop is not None and recorded is not None:
            drop = recorded.f1 - total
            if drop > rule.max_drop + EPSILON:
                failures.append(
                    GateFailure(
                        path,
                        "max-drop",
                        f"{name} F1 {total:.4f} is {drop:.4f} below the baseline "
                        f"{recorded.f1:.4f} ({self.config.baseline}); at most "
                        f"{rule.max_drop:g} allowed ({count})",
                        name,
                        _worst_first(worse),
                    )
                )
        if rule.min_graph_f1 is not None:
            low = low_graphs_failure(
                path, reports, rule.min_graph_f1, name, f" against {gold.path}"
            )
            failures += [low] if low is not None else []
        return failures

    def _recorded(
        self,
        rule: ReferenceRule,
        path: str,
        relative: str,
        reference: str,
        failures: list[GateFailure],
    ) -> FileBaseline | None:
        """The baseline entry for ``relative`` if it is comparable.

        When ``max-drop`` is set and the entry is missing or stale, a
        failure saying how to record it is appended to ``failures``.
        """
        baseline = self.baseline
        file = self.config.baseline
        update = f"run `amrcheck baseline {path}` and commit {file}"
        settings = comparable_settings(_metric_settings(self.metric))
        problem = None
        entry = None if baseline is None else baseline.files.get(relative)
        if baseline is None:
            problem = f"there is no baseline file {file}; {update}"
        elif entry is None:
            problem = f"{file} has no score for this file; {update}"
        elif baseline.metric != self.metric.name or baseline.settings != settings:
            problem = (
                f"{file} was recorded with {baseline.metric} {baseline.settings}, "
                f"but {self.config.source} asks for {self.metric.name} {settings}; "
                f"run `amrcheck baseline` (all files) and commit {file}"
            )
            entry = None
        elif entry.reference != reference:
            problem = (
                f"{self.config.baseline} scored this file against {entry.reference}, "
                f"but {rule.where} now names {reference}; {update}"
            )
            entry = None
        if problem is not None and rule.max_drop is not None:
            failures.append(GateFailure(path, "max-drop", problem))
        return entry

    def against_head(self, rule: HeadRule, path: str) -> list[GateFailure]:
        """``max-changed-graphs`` and ``min-f1-vs-head`` of ``path`` vs its HEAD."""
        text = self.head.read(path)
        if text is None:
            return []  # a new file: nothing to compare with
        candidate = _read(path)
        if isinstance(candidate, str):
            return [GateFailure(path, "input", f"cannot read {candidate}")]
        name = self.metric.name
        read_head = umr_corpus_from_string if is_umr_path(path) else read_string
        result = compare(self.metric, read_head(text, f"HEAD:{path}"), candidate)
        changed = _changed_graphs(result)
        added = sum(pair.reference is None for pair in result.pairs)
        failures = position_failures(result, path)
        removed = sum(r.remark == "removed since HEAD" for r in changed)
        limit = rule.max_changed_graphs
        if limit is not None and len(changed) > limit:
            counted = f"{plural(len(changed), 'graph')} changed since HEAD"
            if removed:
                counted += f" ({removed} of them removed)"
            if added:
                counted += f"; {plural(added, 'new graph')} not counted"
            failures.append(
                GateFailure(
                    path,
                    "max-changed-graphs",
                    f"{counted}; at most {limit} allowed",
                    name,
                    _worst_first(changed),
                )
            )
        total = result.total.f1 if result.total is not None else 1.0
        if rule.min_f1_vs_head is not None and total < rule.min_f1_vs_head - EPSILON:
            failures.append(
                GateFailure(
                    path,
                    "min-f1-vs-head",
                    f"{name} F1 {total:.4f} against HEAD is below "
                    f"{rule.min_f1_vs_head:g} "
                    f"({_graph_count(result, 'compared')})",
                    name,
                    _worst_first(changed),
                )
            )
        broken = _unscorable_lines(result)
        broken = [line for line in broken if not line.startswith("HEAD:")]
        if broken:
            failures.append(
                GateFailure(
                    path,
                    "syntax",
                    f"{plural(len(broken), 'graph')} cannot be compared with HEAD",
                    details=tuple(broken),
                )
            )
        return failures


def _graph_count(result: Comparison, what: str) -> str:
    """``5 graphs against gold.amr`` (``, 1 of them counted as empty``)."""
    count = f"{plural(len(result.counted), 'graph')} {what}"
    if result.empty:
        count += f", {len(result.empty)} of them counted as empty graphs"
    return count


def _changed_graphs(result: Comparison) -> list[FlaggedGraph]:
    """Graphs edited (F1 below 1, or unscorable and different) or removed."""
    changed: list[FlaggedGraph] = []
    for pair in result.pairs:
        if pair.candidate is None:
            assert pair.reference is not None
            changed.append(
                FlaggedGraph(
                    pair.label,
                    _graph_place(pair.reference),
                    result.empty[pair.label].f1 if pair.label in result.empty else None,
                    remark="removed since HEAD",
                )
            )
        elif pair.reference is None:
            continue  # a new graph: not an edit
        elif pair.label in result.scores:
            report = graph_report(
                result, pair, "removed since HEAD", "added since HEAD"
            )
            if report.f1 is not None and report.f1 < 1 - EPSILON:
                changed.append(report)
        elif pair.label in result.empty:  # HEAD's graph parses, the new one not
            changed.append(_empty_report(result, pair))
        elif pair.reference.text != pair.candidate.text:
            changed.append(
                FlaggedGraph(
                    pair.label,
                    _graph_place(pair.candidate),
                    None,
                    remark="changed; cannot be scored (syntax error)",
                )
            )
    return changed
