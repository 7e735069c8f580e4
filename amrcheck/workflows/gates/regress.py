"""``amr-regress``: a file against its reference, baseline and ``HEAD`` version."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from ...errors import ConfigError
from ...reading.corpus import read_string
from ...reading.umr_corpus import corpus_of, document_of
from ...validation.filecheck import plural
from ..baseline import Baseline, FileBaseline, comparable_settings, read_baseline
from ..config import Config, HeadRule, ReferenceRule
from ..umr_diff import UmrChange
from .comparison import (
    Comparison,
    _display,
    _empty_report,
    _graph_place,
    _metric_settings,
    _pairing_failures,
    _read_document,
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
from .layers import (
    CHANGED_LAYERS,
    changed_remark,
    layer_changes,
    min_layer_f1_failures,
)


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
        read = _read_document(path)
        if isinstance(read, str):
            return [GateFailure(path, "input", f"cannot read {read}")]
        candidate, candidate_layers = read
        read = _read_document(_display(self.config, reference))
        if isinstance(read, str):
            return [
                GateFailure(
                    path,
                    "reference",
                    f"cannot read its reference {_display(self.config, reference)} "
                    f"({rule.where}): {read}",
                )
            ]
        gold, gold_layers = read
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
        if rule.min_layer_f1:
            failures += min_layer_f1_failures(
                path,
                rule.where,
                f"{candidate.path} and {gold.path}",
                gold_layers,
                candidate_layers,
                rule.min_layer_f1,
                f" against {gold.path}",
            )
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
        """``max-changed-graphs``, ``min-f1-vs-head`` and (UMR files)
        ``min-layer-f1`` of ``path`` against its HEAD version."""
        text = self.head.read(path)
        if text is None:
            return []  # a new file: nothing to compare with
        read = _read_document(path)
        if isinstance(read, str):
            return [GateFailure(path, "input", f"cannot read {read}")]
        candidate, layers = read
        name = self.metric.name
        # a UMR file (layers read): HEAD's version is read as UMR too
        head_layers = None if layers is None else document_of(text, f"HEAD:{path}")
        head = (
            read_string(text, f"HEAD:{path}")
            if head_layers is None
            else corpus_of(head_layers, text)
        )
        result = compare(self.metric, head, candidate)
        changed = _changed_graphs(result)
        in_layers = ""
        if head_layers is not None and layers is not None:
            changes = layer_changes(head_layers, layers)
            changed = _with_layer_changes(result, changed, changes)
            in_layers = _layers_counted(changes)
        added = sum(pair.reference is None for pair in result.pairs)
        failures = position_failures(result, path)
        removed = sum(r.remark == "removed since HEAD" for r in changed)
        limit = rule.max_changed_graphs
        if limit is not None and len(changed) > limit:
            counted = f"{plural(len(changed), 'graph')} changed since HEAD"
            if removed:
                counted += f" ({removed} of them removed)"
            counted += in_layers
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
        if rule.min_layer_f1:
            failures += min_layer_f1_failures(
                path,
                rule.where,
                f"{path} and its HEAD version",
                head_layers,
                layers,
                rule.min_layer_f1,
                " against HEAD",
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


def _with_layer_changes(
    result: Comparison,
    changed: list[FlaggedGraph],
    changes: dict[str, list[UmrChange]],
) -> list[FlaggedGraph]:
    """``changed`` with the UMR sentences whose alignment or document-level
    triples changed: those already listed get the changes, the others are
    added (at their place, with their graph's F1)."""
    def lines(key: str) -> tuple[str, ...]:
        return tuple(str(change) for change in changes[key])

    found = []
    for report in changed:
        if report.label in changes:
            remark = changed_remark(changes[report.label])
            report = replace(
                report,
                remark=f"{report.remark}; {remark}" if report.remark else remark,
                changes=lines(report.label),
            )
        found.append(report)
    listed = {report.label for report in changed}
    pairs = {pair.label: pair for pair in result.pairs}
    for key, sentence_changes in changes.items():
        if key in listed:
            continue
        pair = pairs.get(key)
        first = sentence_changes[0]
        score = result.scores.get(key)
        found.append(
            FlaggedGraph(
                key,
                _graph_place(pair.candidate)
                if pair is not None and pair.candidate is not None
                else f"{first.path}:{first.line}:{first.column}",
                score.f1 if score is not None else None,
                remark=changed_remark(sentence_changes),
                changes=lines(key),
            )
        )
    return found


def _layers_counted(changes: dict[str, list[UmrChange]]) -> str:
    """`` (alignment changed in 1 graph; document-level triples changed in 2
    graphs)``, or ``""``."""
    counts = [
        (words, sum(any(c.layer == layer for c in found) for found in changes.values()))
        for layer, words in CHANGED_LAYERS.items()
    ]
    said = [
        f"{words} changed in {plural(count, 'graph')}"
        for words, count in counts
        if count
    ]
    return f" ({'; '.join(said)})" if said else ""


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
