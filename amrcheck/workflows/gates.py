"""The gates behind ``amr-regress`` and ``amr-iaa``: scores against thresholds, as data.

Layer: engine, above reading, the metrics and :mod:`amrcheck.workflows.config`.
A gate looks at one file at a time (the files a commit touches) and
returns :class:`GateFailure` records; front ends render them with
:func:`render_failures`. Nothing here writes a user file except
:func:`record_baseline`'s caller, on request.

* :class:`RegressGate`: a file against its configured reference (``min-f1``,
  ``max-drop`` vs the committed baseline, ``min-graph-f1``), and a file
  against its own ``HEAD`` version (``max-changed-graphs``,
  ``min-f1-vs-head``), read with one ``git cat-file --batch`` process.
* :class:`IaaGate`: files annotated by several annotators
  (``min-graph-f1``, ``min-mean-f1``).

Graphs are paired by ``::id`` when every graph of both files has a
distinct one, else by position
(:func:`amrcheck.pairing.graphs.match_entries`). Metrics take
``score(candidate, reference)``: the checked file is the candidate; the
gold file, the ``HEAD`` version, or the first annotator's file is the
reference. A checked graph that cannot be read, or that is missing,
counts as an empty graph (:meth:`amrcheck.metrics.Metric.score_missing`:
F1 0) in every score a gate compares, so that breaking a graph can never
help a file pass; a reference graph that cannot be read is not scored.
Between annotators (:class:`IaaGate`) an unreadable graph on either side
counts as empty, and a sentence only one annotator has is not scored.
These rules are :func:`amrcheck.pairing.scoring.score_rows`', the loop
``amrcheck score``, the reports and the editor count pairs with.

Example:
    >>> from amrcheck.reading.corpus import read_string
    >>> from amrcheck.metrics import get_metric
    >>> old = read_string("# ::id a\\n(w / want-01 :ARG0 (b / boy))\\n", "HEAD:x.amr")
    >>> new = read_string("# ::id a\\n(w / want-01 :ARG1 (b / boy))\\n", "x.amr")
    >>> result = compare(get_metric("smatch"), old, new)
    >>> round(result.scores["a"].f1, 2)
    0.75
    >>> report = graph_report(result, result.pairs[0], "removed", "added")
    >>> for note in report.notes: print(note)
    HEAD:x.amr:2:14: removed: (w :ARG0 b)
    x.amr:2:14: added: (w :ARG1 b)
"""

from __future__ import annotations

import os
import subprocess
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType

from ..errors import ConfigError, InputError, RefusedInputError
from ..graph import Graph
from ..metrics import Metric, Score, TripleRef
from ..pairing.graphs import (
    EntryRow,
    Matching,
    PairingError,
    how_paired,
    match_entries,
    unreadable,
)
from ..pairing.scoring import score_rows, whole_graphs
from ..reading import Entry
from ..reading.corpus import Corpus, read_corpus, read_string
from ..reading.umr import is_umr_path
from ..reading.umr_corpus import read_umr_corpus, umr_corpus_from_string
from ..span import Span
from ..validation.filecheck import plural
from .baseline import Baseline, FileBaseline, comparable_settings, read_baseline
from .config import Config, HeadRule, IaaGroup, ReferenceRule

#: how many graphs a failure lists by default
DEFAULT_SHOW = 10
#: scores are compared with this tolerance: the baseline keeps 6 decimals
EPSILON = 1e-6


@dataclass(frozen=True, slots=True)
class TripleNote:
    """One triple that differs, where it is written, and how it differs."""

    ref: TripleRef
    note: str  # "missing from parser/a.amr", "added since HEAD", ...

    def __str__(self) -> str:
        return f"{self.ref.span}: {self.note}: {written(self.ref)}"


def written(ref: TripleRef) -> str:
    """A triple as the file writes it (``:ARG0-of``, not the standardised ``:arg0``).

    The synthetic TOP triple has no text of its own: it reads ``root w``
    (or ``root (w / want-01)`` under the ``concept`` root policy).
    """
    if ref.index < 0:
        source, _, target = ref.triple
        # the root policy decides the TOP triple's target: "top" or the concept
        return f"root {source}" if target == "top" else f"root ({source} / {target})"
    return ref.graph.written(ref.index)


@dataclass(frozen=True, slots=True)
class FlaggedGraph:
    """A graph that fails or got worse, with the triples that differ."""

    label: str  # ::id, or #n (1-based position) when pairing by position
    where: str  # path:line:col of the graph in the checked file
    f1: float | None  # None: the graph could not be scored
    before: float | None = None  # its baseline score, when one is recorded
    notes: tuple[TripleNote, ...] = ()
    remark: str = ""  # "removed since HEAD", "syntax error", ...

    def lines(self, metric: str) -> list[str]:
        head = f"{self.where}: graph {self.label}"
        if self.f1 is not None:
            head += f": {metric} F1 {self.f1:.4f}"
        if self.before is not None:
            head += f" (baseline {self.before:.4f})"
        if self.remark:
            head += f": {self.remark}"
        return [head, *(f"  {note}" for note in self.notes)]


@dataclass(frozen=True, slots=True)
class GateFailure:
    """One threshold that one file does not meet.

    ``gate`` is the configuration key whose threshold failed (``min-f1``),
    so the message says what to change; ``graphs`` are the graphs to look
    at, worst first; ``details`` are extra lines (unpaired graphs ...).
    """

    path: str
    gate: str
    message: str
    metric: str = ""
    graphs: tuple[FlaggedGraph, ...] = ()
    details: tuple[str, ...] = ()

    def __str__(self) -> str:
        return f"{self.path}: {self.gate}: {self.message}"


def render_failures(
    failures: Iterable[GateFailure], show: int = DEFAULT_SHOW
) -> list[str]:
    """The lines a front end prints: each failure, then up to ``show`` graphs.

    ``show`` <= 0 lists every graph. A graph already listed for the same
    file is not listed again.
    """
    lines: list[str] = []
    listed: set[tuple[str, str]] = set()
    for failure in failures:
        lines.append(str(failure))
        lines.extend(f"  {detail}" for detail in failure.details)
        fresh = [g for g in failure.graphs if (failure.path, g.label) not in listed]
        shown = fresh if show <= 0 else fresh[:show]
        for graph in shown:
            listed.add((failure.path, graph.label))
            lines.extend(graph.lines(failure.metric))
        if len(shown) < len(fresh):
            more = plural(len(fresh) - len(shown), "more graph")
            lines.append(f"... and {more} (--show 0 lists all)")
        if len(fresh) < len(failure.graphs):
            repeated = plural(len(failure.graphs) - len(fresh), "graph")
            lines.append(f"({repeated} listed above)")
    return lines


# --- pairing and scoring ---------------------------------------------------


@dataclass(frozen=True, slots=True)
class EntryPair:
    """Two entries that hold the same sentence; one side is None if unpaired."""

    label: str
    reference: Entry | None
    candidate: Entry | None


def pair_entries(matching: Matching) -> list[EntryPair]:
    """The pairs of two files lined up by ``::id``, else by position.

    Reference order first, then candidate entries without a partner; the
    unpaired graphs stay in the list as data (see
    :func:`amrcheck.pairing.graphs.match_entries`). Each pair's label is
    its row's key, or ``#n`` (its position) where an ``::id`` repeated in
    both files gives several rows one key: scores and baselines are kept
    by label, and each pair must keep its own (issue 33).
    """
    keys = Counter(row.key for row in matching.rows)
    return [
        EntryPair(row.key if keys[row.key] == 1 else f"#{n + 1}", *row.entries)
        for n, row in enumerate(matching.rows)
    ]


@dataclass(slots=True)
class Comparison:
    """Two files paired and scored; ``total`` aggregates the scored pairs.

    ``scores`` are the pairs whose graphs both parse (with explanations);
    ``empty`` the pairs whose checked graph cannot be read or is missing,
    scored as an empty graph. ``total`` counts both.
    """

    metric: Metric
    reference: Corpus
    candidate: Corpus
    pairs: list[EntryPair]
    #: how the files were lined up (None: they could not be, ``unpairable`` says why)
    matching: Matching | None = None
    unpairable: list[str] = field(default_factory=list)
    scores: dict[str, Score] = field(default_factory=dict)
    empty: dict[str, Score] = field(default_factory=dict)
    total: Score | None = None

    @property
    def counted(self) -> dict[str, Score]:
        """Every pair's score that the figures count, in the pairs' order."""
        found: dict[str, Score] = {}
        for pair in self.pairs:
            score = self.scores.get(pair.label, self.empty.get(pair.label))
            if score is not None:
                found[pair.label] = score
        return found

    @property
    def unpaired(self) -> list[EntryPair]:
        return [p for p in self.pairs if p.reference is None or p.candidate is None]

    @property
    def unscorable(self) -> list[EntryPair]:
        """Paired entries where either graph has a syntax error."""
        return [
            p
            for p in self.pairs
            if p.reference is not None
            and p.candidate is not None
            and (p.reference.graph is None or p.candidate.graph is None)
        ]

    def mean_f1(self) -> float | None:
        values = [score.f1 for score in self.counted.values()]
        return sum(values) / len(values) if values else None


def compare(
    metric: Metric, reference: Corpus, candidate: Corpus, peers: bool = False
) -> Comparison:
    """Pair two files and score them.

    Pairs are scored, or counted as empty graphs, by the one rule of
    :func:`amrcheck.pairing.scoring.score_rows`: a candidate graph that
    cannot be read, or that the candidate lacks, scores as an empty graph
    against its reference graph; with ``peers`` (two annotators) a graph
    that cannot be read on either side scores as empty, and a graph that
    only one file has is not scored. Files that cannot be lined up
    (:func:`~amrcheck.pairing.graphs.match_entries`: ids that differ by
    position) give no pairs and say why in ``unpairable``.
    """
    try:
        matching = match_entries([reference, candidate])
    except PairingError as exc:
        return Comparison(metric, reference, candidate, [], unpairable=exc.problems)
    result = Comparison(
        metric, reference, candidate, pair_entries(matching), matching
    )

    def score(whole: Sequence[EntryRow]) -> list[Score]:
        return [metric.score(*whole_graphs(row), explain=True) for row in whole]

    def empty(row: EntryRow, graph: Graph | None) -> Score:
        # between peers, two unreadable graphs agree on nothing
        return metric.score_missing(graph) if graph is not None else Score(0.0)

    rows = score_rows(matching, score, empty, peers=peers)
    for pair, row in zip(result.pairs, rows, strict=True):
        if row.how == "scored":
            assert isinstance(row.result, Score)
            result.scores[pair.label] = row.result
        elif row.how == "empty":
            assert isinstance(row.result, Score)
            result.empty[pair.label] = row.result
    if result.counted:
        result.total = metric.aggregate(list(result.counted.values()))
    return result


def _empty_report(
    comparison: Comparison, pair: EntryPair, before: float | None = None
) -> FlaggedGraph:
    """The report of a pair scored as an empty graph: F1 0 and why."""
    if pair.candidate is None:
        assert pair.reference is not None
        where, why = _graph_place(pair.reference), "missing"
    else:
        broken = pair.candidate if pair.candidate.graph is None else pair.reference
        assert broken is not None
        where, why = unreadable(broken)
        where = where if broken is pair.candidate else _graph_place(pair.candidate)
        why = f"cannot be read ({why})" if broken is pair.candidate else (
            f"{broken.source.path}'s graph cannot be read ({why})"
        )
    return FlaggedGraph(
        label=pair.label,
        where=where,
        f1=comparison.empty[pair.label].f1,
        before=before,
        remark=f"{why}: counted as an empty graph",
    )


def graph_reports(
    comparison: Comparison,
    missing: str,
    extra: str,
    before: dict[str, float] | None = None,
) -> list[FlaggedGraph]:
    """The report of every counted pair, in the pairs' order (see
    :func:`graph_report`); ``before`` holds baseline F1s by label."""
    known = before or {}
    return [
        graph_report(comparison, pair, missing, extra, known.get(pair.label))
        if pair.label in comparison.scores
        else _empty_report(comparison, pair, known.get(pair.label))
        for pair in comparison.pairs
        if pair.label in comparison.counted
    ]


#: a graph whose alignment search the time budget stopped (its F1 may be
#: below the optimum's): said beside its score
CUT_REMARK = (
    "alignment cut by the time budget, not proven optimal "
    "(metric-options time_budget)"
)


def _graph_place(entry: Entry) -> str:
    return str(Span(entry.source, entry.graph_start, entry.graph_start))


def graph_report(
    comparison: Comparison,
    pair: EntryPair,
    missing: str,
    extra: str,
    before: float | None = None,
) -> FlaggedGraph:
    """The report of a scored pair: its F1 and the triples that differ.

    ``missing`` and ``extra`` word the notes of reference-only and
    candidate-only triples.
    """
    assert pair.candidate is not None
    score = comparison.scores[pair.label]
    notes: list[TripleNote] = []
    if score.explanation is not None:
        for refs, note in (
            (score.explanation.missing, missing),
            (score.explanation.extra, extra),
        ):
            in_file_order = sorted(refs, key=lambda ref: ref.span.start)
            notes += [TripleNote(ref, note) for ref in in_file_order]
    return FlaggedGraph(
        label=pair.label,
        where=_graph_place(pair.candidate),
        f1=score.f1,
        before=before,
        notes=tuple(notes),
        remark=CUT_REMARK if score.counts.get("cut") else "",
    )


def _unscorable_lines(comparison: Comparison) -> list[str]:
    """The first syntax error of each graph that cannot be scored."""
    lines = []
    for pair in comparison.unscorable:
        for entry in (pair.reference, pair.candidate):
            if entry is not None and entry.graph is None:
                why = (
                    str(entry.errors[0])
                    if entry.errors
                    else f"{Span(entry.source, entry.start, entry.start)}: no graph"
                )
                lines.append(f"{why} (graph {pair.label})")
    return lines


def _worst_first(reports: list[FlaggedGraph]) -> tuple[FlaggedGraph, ...]:
    def key(report: FlaggedGraph) -> tuple[float, float]:
        f1 = report.f1 if report.f1 is not None else -1.0
        return (f1 - (report.before if report.before is not None else 1.0), f1)

    return tuple(sorted(reports, key=key))


def _read(path: str) -> Corpus | str:
    """The corpus at ``path``, or why it cannot be read.

    Raises:
        RefusedInputError: not a regular file, too large or endless: not
            AMR input at all, which stops the hook like a usage error.
    """
    try:
        if is_umr_path(path):  # UMR: its sentence graphs, by sentence number
            return read_umr_corpus(path)[0]
        return read_corpus(path)
    except RefusedInputError:
        raise
    except InputError as exc:
        return str(exc)


def _display(config: Config, relative: str) -> str:
    """A configured path as the user sees it: relative to the current directory."""
    return os.path.relpath(config.resolve(relative))


def _metric_settings(metric: Metric) -> dict[str, object]:
    describe = getattr(metric, "settings", None)
    return dict(describe()) if callable(describe) else {}


# --- regressions -------------------------------------------------------------


class HeadReader:
    """File contents at ``HEAD``, through one ``git cat-file --batch`` process.

    One process for the whole run keeps a 200-file commit fast; it starts
    on first use. Use as a context manager (or call :meth:`close`).
    """

    def __init__(self) -> None:
        self._process: subprocess.Popen[bytes] | None = None
        self._top: Path | None = None

    def _start(self) -> subprocess.Popen[bytes]:
        if self._process is None:
            try:
                top = subprocess.run(
                    ["git", "rev-parse", "--show-toplevel"],
                    capture_output=True,
                    text=True,
                    check=True,
                ).stdout.strip()
            except (OSError, subprocess.CalledProcessError) as exc:
                stderr = getattr(exc, "stderr", None) or str(exc)
                raise InputError(
                    f"comparing with HEAD needs a git repository: {stderr.strip()}"
                ) from None
            self._top = Path(top)
            self._process = subprocess.Popen(
                ["git", "cat-file", "--batch"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                cwd=top,
            )
        return self._process

    def read(self, path: str) -> str | None:
        """The text of ``path`` at ``HEAD``; None if it is new (or no commit yet)."""
        process = self._start()
        assert process.stdin is not None and process.stdout is not None
        assert self._top is not None
        name = Path(os.path.relpath(os.path.abspath(path), self._top)).as_posix()
        process.stdin.write(f"HEAD:{name}\n".encode())
        process.stdin.flush()
        header = process.stdout.readline().decode().split()
        if len(header) != 3 or header[1] != "blob":
            return None  # "<name> missing": a new file, or no HEAD commit yet
        data = process.stdout.read(int(header[2]))
        process.stdout.read(1)  # the newline after each object
        return data.decode("utf-8", errors="replace")

    def close(self) -> None:
        if self._process is not None:
            assert self._process.stdin is not None
            self._process.stdin.close()
            self._process.wait()
            self._process = None

    def __enter__(self) -> HeadReader:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()


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

    def __enter__(self) -> RegressGate:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
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
            low = [
                r
                for r in reports
                if r.f1 is not None and r.f1 < rule.min_graph_f1 - EPSILON
            ]
            if low:
                failures.append(
                    GateFailure(
                        path,
                        "min-graph-f1",
                        f"{len(low)} of {len(reports)} graphs have {name} F1 "
                        f"below {rule.min_graph_f1:g} against {gold.path}",
                        name,
                        _worst_first(low),
                    )
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


def position_failures(result: Comparison, path: str) -> list[GateFailure]:
    """Failures of a pairing that cannot be trusted: files that cannot be
    lined up, or graphs paired by position whose sentences differ (each
    with both places, and why the files were paired by position)."""
    if result.unpairable:
        return [
            GateFailure(path, "pairing", "the files cannot be paired",
                        details=tuple(result.unpairable))
        ]
    matching = result.matching
    if matching is None or not matching.mismatches:
        return []
    count = len(matching.mismatches)
    return [
        GateFailure(
            path,
            "pairing",
            f"{plural(count, 'pair')} paired by position with different sentences "
            f"({how_paired(matching.by, matching.note)}); give every graph its ::id",
            details=tuple(str(m) for m in matching.mismatches),
        )
    ]


def _pairing_failures(result: Comparison, path: str, extra: str) -> list[GateFailure]:
    """Failures for graphs without a partner and graphs that do not parse,
    and those of :func:`position_failures`."""
    failures = position_failures(result, path)
    unpaired = result.unpaired
    if unpaired:
        lines = []
        for pair in unpaired:
            if pair.candidate is None:
                assert pair.reference is not None
                lines.append(
                    f"{_graph_place(pair.reference)}: graph {pair.label} has no "
                    f"counterpart in {result.candidate.path}"
                )
            else:
                lines.append(
                    f"{_graph_place(pair.candidate)}: graph {pair.label}: {extra}"
                )
        failures.append(
            GateFailure(
                path,
                "pairing",
                f"{plural(len(unpaired), 'graph')} without a counterpart in the "
                "other file",
                details=tuple(lines),
            )
        )
    broken = _unscorable_lines(result)
    if broken:
        failures.append(
            GateFailure(
                path,
                "syntax",
                f"{plural(len(result.unscorable), 'graph')} cannot be scored",
                details=tuple(broken),
            )
        )
    return failures


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


# --- agreement ---------------------------------------------------------------


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
        """``min-graph-f1`` and ``min-mean-f1`` between two annotators' files."""
        a, b = _display(self.config, first), _display(self.config, second)
        path = f"{a} vs {b}"
        corpora = [_read(a), _read(b)]
        for corpus in corpora:
            if isinstance(corpus, str):
                return [GateFailure(path, "input", f"cannot read {corpus}")]
        reference, candidate = corpora
        assert isinstance(reference, Corpus) and isinstance(candidate, Corpus)
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
            low = [
                r
                for r in reports
                if r.f1 is not None and r.f1 < group.min_graph_f1 - EPSILON
            ]
            if low:
                failures.append(
                    GateFailure(
                        path,
                        "min-graph-f1",
                        f"{len(low)} of {len(reports)} graphs have {name} F1 below "
                        f"{group.min_graph_f1:g}",
                        name,
                        _worst_first(low),
                        tuple(details),
                    )
                )
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
        return failures
