"""One document version, checked and compared: what the server publishes.

:func:`analyze` runs in the server's engine thread (never on the event
loop): it reads the document (:mod:`amr_lsp.documents`), validates it,
finds and reads its reference (:mod:`amr_lsp.references`), pairs the
graphs as every front end does (:mod:`amrcheck.pairing.scoring`), scores
each graph against its partner (:mod:`amr_lsp.compare`, cached) and turns
the results into LSP diagnostics (:mod:`amr_lsp.diff_diagnostics`). Code
lenses (:mod:`amr_lsp.lenses`), inlay hints and the document score are built
from the :class:`Analysis` on request.

The document score is honest (issue 21): a graph that cannot be read
(mid-typing, say) counts as an empty graph against its reference graph,
and so does a reference graph that the document lacks (by ``::id``, or
past its end by position): breaking or deleting a graph never raises it. The engine's
:meth:`~amrcheck.metrics.Metric.score_missing` scores both. The lens of
a broken graph keeps the score it had before the edit, marked as such.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from lsprotocol import types

from amrcheck import (
    Corpus,
    Entry,
    Finding,
    Graph,
    PairingError,
    Score,
    Span,
    validate,
)
from amrcheck.pairing.graphs import EntryRow, how_paired, match_entries
from amrcheck.pairing.scoring import ScoredRow, score_rows
from amrcheck.validation.validate import GraphFindingsCache
from amrcheck.workflows.umr_score import DocumentScore, document_dict

from .compare import Comparer, GraphComparison
from .config import Settings
from .convert import (
    DIFF_SOURCE,
    SCORE_SOURCE,
    VALIDATION_SOURCE,
    lsp_diagnostic,
    uri_to_path,
)
from .diff_diagnostics import (
    display_name,
    document_diff_diagnostics,
    pairing_problem,
    reference_problem,
)
from .documents import ParsedDocument
from .graph_report import GraphReport, low_score_diagnostics
from .references import (
    REFERENCE_KEY,
    LoadedReference,
    ReferenceChoice,
    ReferenceStore,
    choose_reference,
)


@dataclass(slots=True)
class Analysis:
    """Everything published for one document version."""

    parsed: ParsedDocument
    settings: Settings
    choice: ReferenceChoice | None
    reference: LoadedReference | None
    #: how the reference is named in lenses (relative to the root if possible)
    reference_name: str | None
    graphs: list[GraphReport]
    #: the validator's findings (code actions look their fixes up here)
    findings: list[Finding]
    #: diagnostics by ``Diagnostic.source``
    diagnostics: dict[str, list[types.Diagnostic]]
    document_score: Score | None
    #: phase -> seconds, for logs and the bench
    timings: dict[str, float] = field(default_factory=dict)
    #: reference graphs that no graph of the document pairs with, each
    #: counted as an empty graph in the document score
    absent: list[Entry] = field(default_factory=list)
    #: how the graphs were paired with the reference's, as the command
    #: line says it (None: not paired)
    paired_by: str | None = None
    #: a UMR document's document-level layers against its reference
    #: (None: not UMR, or its reference is not)
    umr: DocumentScore | None = None

    @property
    def version(self) -> int | None:
        return self.parsed.version

    def report_for(self, entry: Entry) -> GraphReport | None:
        if entry.index < len(self.graphs):
            report = self.graphs[entry.index]
            if report.entry.start == entry.start:
                return report
        return None

    def score_summary(self) -> dict[str, Any]:
        """The document score as JSON (``amr/documentScore``, the command)."""
        compared = [g.comparison for g in self.graphs if g.comparison is not None]
        score = self.document_score
        return {
            "uri": self.parsed.uri,
            "version": self.parsed.version,
            "metric": self.settings.metric,
            "reference": str(self.reference.path) if self.reference else None,
            "paired_by": self.paired_by,
            "problem": self.reference.problem if self.reference else None,
            "graphs": len(self.graphs),
            "compared": len(compared),
            "f1": score.f1 if score else None,
            "precision": score.precision if score else None,
            "recall": score.recall if score else None,
            # counted as every front end counts them (ChangeCounts)
            "missing": sum(c.counts.missing for c in compared),
            "extra": sum(c.counts.extra for c in compared),
            "relabelled": sum(c.counts.relabelled for c in compared),
            # graphs whose search the time budget stopped: their scores,
            # and so the document's, are lower bounds
            "cut": sum(c.score_cut for c in compared),
            # counted as empty graphs (F1 0) in the score above, each with why
            "counted_empty": [
                {
                    "graph": g.entry.label,
                    "where": _where(g.entry, uri_to_path(self.parsed.uri)),
                    "why": "unreadable",
                }
                for g in self.graphs
                if g.empty is not None
            ]
            + [
                {
                    "graph": entry.label,
                    "where": _where(entry, None),
                    "why": "not in this document",
                }
                for entry in self.absent
            ],
            # as ``amrcheck score --json`` gives them under ``umr``
            **({} if self.umr is None else {"umr": document_dict(self.umr)}),
        }


def _where(entry: Entry, path: Path | None) -> str:
    """``path:line:col`` of an entry (``path``: its file, if its source is
    named by a URI): of its first error if its graph cannot be read, else of
    its graph."""
    offset = entry.graph_start
    if entry.graph is None and entry.errors:
        offset = entry.errors[0].span.start
    line, column = entry.source.line_column(offset)
    return f"{path or entry.source.path}:{line}:{column}"


def analyze(
    parsed: ParsedDocument,
    settings: Settings,
    comparer: Comparer,
    references: ReferenceStore,
    root: Path | None,
    findings_cache: GraphFindingsCache | None = None,
    previous: Analysis | None = None,
) -> Analysis:
    """Validate and compare one parsed document version.

    ``findings_cache`` keeps the validator's findings of unchanged graphs
    from one version to the next (only edited graphs are checked again);
    ``previous`` (the analysis of an earlier version) gives each unchanged
    graph its comparison (the comparer's cache holds only what fits its
    budget) and a graph that no longer parses the score it had
    (:attr:`GraphReport.stale`).
    """
    timings: dict[str, float] = {}
    clock = time.perf_counter()
    diagnostics: dict[str, list[types.Diagnostic]] = {
        VALIDATION_SOURCE: [], DIFF_SOURCE: [], SCORE_SOURCE: []
    }
    corpus = parsed.corpus
    findings = (
        validate(corpus, cache=findings_cache) if settings.features.validation
        else []
    )
    diagnostics[VALIDATION_SOURCE] = [
        lsp_diagnostic(f, parsed.lines, parsed.uri) for f in findings
    ]
    timings["validate"] = time.perf_counter() - clock
    choice = choose_reference(
        corpus, uri_to_path(parsed.uri), root, settings.references
    )
    header = (
        corpus.entries[0].metadata_span(REFERENCE_KEY)
        if choice is not None and choice.origin == "header" and corpus.entries
        else None
    )
    return compare_document(
        parsed, settings, comparer, references, root, choice, header,
        findings, diagnostics, timings, previous,
    )


def compare_document(
    parsed: ParsedDocument,
    settings: Settings,
    comparer: Comparer,
    references: ReferenceStore,
    root: Path | None,
    choice: ReferenceChoice | None,
    header: Span | None,
    findings: list[Finding],
    diagnostics: dict[str, list[types.Diagnostic]],
    timings: dict[str, float],
    previous: Analysis | None = None,
    differences: bool = True,
    umr: bool = False,
) -> Analysis:
    """Compare ``parsed``'s graphs with the reference ``choice`` (named on
    the line ``header``, if by a header) and make its analysis, with the
    validator's ``findings`` and ``diagnostics`` already made (and the diff
    diagnostics, if ``differences`` and the settings ask for them).
    ``umr``: the document is UMR, and a reference that is not is a problem."""
    clock = time.perf_counter()
    corpus = parsed.corpus
    document = uri_to_path(parsed.uri)
    reference = references.get(choice, document) if choice is not None else None
    if umr and reference is not None and reference.corpus is not None and (
        reference.umr is None
    ):
        reference = replace(
            reference, corpus=None, lines=None,
            problem=f"reference file {reference.path} is not a UMR file: a UMR "
            "document is scored against a UMR file (docs/umr.md)",
        )
    graphs = [GraphReport(entry) for entry in corpus.entries]
    paired = _Paired()
    if reference is not None and reference.corpus is not None:
        paired = _compare_all(
            graphs, corpus, reference, comparer,
            _earlier_comparisons(previous, settings, reference),
        )
        _keep_stale(graphs, previous, reference)
    elif choice is None:
        for report in graphs:
            report.note = "no reference file configured"
    else:
        for report in graphs:
            report.note = "reference unavailable"
    timings["compare"] = time.perf_counter() - clock

    clock = time.perf_counter()
    name = display_name(choice.path, document, root) if choice else None
    if reference is not None and reference.problem is not None:
        diagnostics[DIFF_SOURCE].append(
            reference_problem(parsed, choice, header, reference)
        )
    if paired.problem is not None:
        diagnostics[DIFF_SOURCE].append(pairing_problem(parsed, paired.problem))
    if (
        differences and settings.features.diff
        and reference is not None and reference.lines is not None
    ):
        diagnostics[DIFF_SOURCE].extend(
            document_diff_diagnostics(
                graphs, settings, parsed, reference, name or "", root
            )
        )
    diagnostics[SCORE_SOURCE] = low_score_diagnostics(
        graphs, settings, parsed.lines
    )
    timings["diagnostics"] = time.perf_counter() - clock

    counted = [
        score
        for g in graphs
        if (score := g.comparison.score if g.comparison else g.empty) is not None
    ]
    if reference is not None and paired.absent:
        counted += [
            comparer.missing(entry, reference.generation) for entry in paired.absent
        ]
    return Analysis(
        parsed=parsed,
        settings=settings,
        choice=choice,
        reference=reference,
        reference_name=name,
        graphs=graphs,
        findings=findings,
        diagnostics=diagnostics,
        document_score=comparer.aggregate(counted) if counted else None,
        timings=timings,
        absent=paired.absent,
        paired_by=paired.paired_by,
    )


def _earlier_comparisons(
    previous: Analysis | None, settings: Settings, reference: LoadedReference
) -> dict[tuple[str, int], GraphComparison]:
    """``previous``'s comparisons by (graph text, reference entry's id()),
    where they were made with the same metric against the same read of the
    same reference."""
    if (
        previous is None
        or previous.reference is not reference
        or (previous.settings.metric, previous.settings.metric_options)
        != (settings.metric, settings.metric_options)
    ):
        return {}
    return {
        (report.entry.graph.text, id(report.comparison.reference)): report.comparison
        for report in previous.graphs
        if report.comparison is not None and report.entry.graph is not None
    }


@dataclass(slots=True)
class _Paired:
    """What pairing the document with its reference gave besides each graph's report."""

    #: reference graphs that no graph of the document pairs with, each
    #: counted as an empty graph in the document score
    absent: list[Entry] = field(default_factory=list)
    #: how the graphs were paired (:func:`amrcheck.pairing.graphs.how_paired`)
    paired_by: str | None = None
    #: why the graphs cannot be paired at all (None: they are)
    problem: str | None = None


def _compare_all(
    graphs: list[GraphReport],
    corpus: Corpus,
    reference: LoadedReference,
    comparer: Comparer,
    earlier: dict[tuple[str, int], GraphComparison],
) -> _Paired:
    """Pair the document with its reference as every front end does
    (:func:`~amrcheck.pairing.graphs.match_entries`: by ``::id`` when
    every graph of both files has a distinct one, else by position), then
    compare each graph with its partner or count it as an empty graph
    (:func:`~amrcheck.pairing.scoring.score_rows`), reusing ``earlier``
    comparisons of unchanged graphs."""
    assert reference.corpus is not None
    generation = reference.generation
    try:
        matching = match_entries([reference.corpus, corpus])
    except PairingError as exc:
        problem = exc.problems[0]
        for report in graphs:
            report.note = "cannot be paired with the reference (see Problems)"
        return _Paired(problem=problem)

    def compare(whole: Sequence[EntryRow]) -> list[GraphComparison]:
        found = []
        for row in whole:
            partner, entry = row.entries
            assert partner is not None and entry is not None and entry.graph is not None
            found.append(
                earlier.get((entry.graph.text, id(partner)))
                or comparer.compare(entry.graph, partner, generation)
            )
        return found

    def empty(row: EntryRow, _: Graph | None) -> Score:
        partner = row.entries[0]
        assert partner is not None
        return comparer.missing(partner, generation)

    paired = _Paired(paired_by=how_paired(matching.by, matching.note))
    for row in score_rows(matching, compare, empty):
        _file_row(row, graphs, paired)
    return paired


def _file_row(
    row: ScoredRow[GraphComparison, Score], graphs: list[GraphReport], paired: _Paired
) -> None:
    """Put what a row of the pairing says on its graph's report, or among
    the reference graphs the document lacks."""
    partner, entry = row.reference, row.candidate
    if entry is None:
        if row.counted:
            assert partner is not None
            paired.absent.append(partner)
        return
    report = graphs[entry.index]
    report.partner = partner
    if partner is None:
        report.note = f"no reference graph for {entry.label}"
    elif partner.graph is None:
        report.note = f"reference graph {partner.label} has errors"
    elif row.how == "empty":
        assert isinstance(row.result, Score)
        report.note = "graph has errors"
        report.empty = row.result
    else:
        assert isinstance(row.result, GraphComparison)
        report.comparison = row.result


def _keep_stale(
    graphs: list[GraphReport], previous: Analysis | None, reference: LoadedReference
) -> None:
    """Give each graph that broke the comparison it had in ``previous`` (or
    that one's stale comparison, while it stays broken): the same graph is
    the one with the same ``::id``, else at the same place."""
    if previous is None or previous.reference is not reference:
        return
    before = {g.entry.id: g for g in previous.graphs if g.entry.id is not None}
    for index, report in enumerate(graphs):
        if report.empty is None:
            continue
        key = report.entry.id
        if key is not None:
            old = before.get(key)
        else:
            old = previous.graphs[index] if index < len(previous.graphs) else None
        if old is not None:
            report.stale = old.comparison or old.stale
