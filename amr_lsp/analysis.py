"""One document version, checked and compared: what the server publishes.

:func:`analyze` runs in the server's engine thread (never on the event
loop): it reads the document (:mod:`amr_lsp.documents`), validates it,
finds and reads its reference (:mod:`amr_lsp.references`), pairs the
graphs as every front end does (:mod:`amrcheck.pairing.scoring`), scores
each graph against its partner (:mod:`amr_lsp.compare`, cached) and turns
the results into LSP diagnostics. Code lenses, inlay hints and the document
score are built from the :class:`Analysis` on request.

The document score is honest (issue 21): a graph that cannot be read
(mid-typing, say) counts as an empty graph against its reference graph,
and so does a reference graph that the document lacks (by ``::id``, or
past its end by position): breaking or deleting a graph never raises it. The engine's
:meth:`~amrcheck.metrics.Metric.score_missing` scores both. The lens of
a broken graph keeps the score it had before the edit, marked as such.
"""

from __future__ import annotations

import time
from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass, field
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

from .compare import Comparer, GraphComparison, TripleId
from .config import Settings
from .convert import (
    DIFF_SOURCE,
    SCORE_SOURCE,
    VALIDATION_SOURCE,
    LineIndex,
    lsp_diagnostic,
    lsp_location,
    lsp_range,
    uri_to_path,
)
from .documents import ParsedDocument
from .references import (
    REFERENCE_KEY,
    LoadedReference,
    ReferenceChoice,
    ReferenceStore,
    choose_reference,
)

#: how many missing triples a diagnostic message lists (all are in relatedInformation)
MESSAGE_TRIPLES = 5


@dataclass(slots=True)
class GraphReport:
    """One entry of the document and how it compares with its reference graph."""

    entry: Entry
    comparison: GraphComparison | None = None
    #: the reference graph it is paired with (None: none, or no pairing)
    partner: Entry | None = None
    #: why there is no comparison (None when there is one)
    note: str | None = None
    #: what a graph that cannot be read counts as in the document score:
    #: an empty graph's score against its reference graph
    empty: Score | None = None
    #: the comparison of the graph before it broke (shown, marked, on its lens)
    stale: GraphComparison | None = None


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
) -> Analysis:
    """Compare ``parsed``'s graphs with the reference ``choice`` (named on
    the line ``header``, if by a header) and make its analysis, with the
    validator's ``findings`` and ``diagnostics`` already made (and the diff
    diagnostics, if ``differences`` and the settings ask for them)."""
    clock = time.perf_counter()
    corpus = parsed.corpus
    document = uri_to_path(parsed.uri)
    reference = references.get(choice, document) if choice is not None else None
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
    name = _display_name(choice.path, document, root) if choice else None
    if reference is not None and reference.problem is not None:
        diagnostics[DIFF_SOURCE].append(
            _reference_problem(parsed, choice, header, reference)
        )
    if paired.problem is not None:
        diagnostics[DIFF_SOURCE].append(_pairing_problem(parsed, paired.problem))
    if (
        differences and settings.features.diff
        and reference is not None and reference.lines is not None
    ):
        diagnostics[DIFF_SOURCE].extend(
            _differences(graphs, settings, parsed, reference, name or "", root)
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


def _differences(
    graphs: list[GraphReport],
    settings: Settings,
    parsed: ParsedDocument,
    reference: LoadedReference,
    name: str,
    root: Path | None,
) -> list[types.Diagnostic]:
    """The diff diagnostics of every graph, in the form the settings ask for."""
    found: list[types.Diagnostic] = []
    document = uri_to_path(parsed.uri)
    own_name = (
        _display_name(document, None, root) if document is not None else parsed.uri
    )
    for report in graphs:
        comparison, graph = report.comparison, report.entry.graph
        # most graphs match their reference: nothing to say, nothing to build
        if comparison is None or graph is None or not comparison.counts.total:
            continue
        if settings.diff_diagnostics == "grouped":
            found.append(
                grouped_diff_diagnostic(
                    graph, comparison, parsed, reference, name, own_name
                )
            )
        else:
            found.extend(
                diff_diagnostics(graph, comparison, parsed.lines, reference, name)
            )
    return found


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


def _display_name(path: Path, document: Path | None, root: Path | None) -> str:
    for base in (root, document.parent if document else None):
        if base is not None:
            try:
                return path.relative_to(base).as_posix()
            except ValueError:
                continue
    return str(path)


def _reference_problem(
    parsed: ParsedDocument, choice: ReferenceChoice | None, span: Span | None,
    reference: LoadedReference,
) -> types.Diagnostic:
    """The reference cannot be used (or only partly): say so where it was
    chosen (``span``: the header line naming it)."""
    where = (
        lsp_range(span, parsed.lines) if span is not None
        else types.Range(start=types.Position(line=0, character=0),
                         end=types.Position(line=0, character=0))
    )
    origin = "" if choice is None else (
        " (from # ::reference)" if choice.origin == "header"
        else f" (from the references setting {choice.origin!r})"
    )
    return types.Diagnostic(
        range=where,
        message=f"{reference.problem}{origin}",
        severity=types.DiagnosticSeverity.Warning,
        code="reference",
        source=DIFF_SOURCE,
    )


def _pairing_problem(parsed: ParsedDocument, problem: str) -> types.Diagnostic:
    """The document's graphs cannot be paired with the reference's (ids that
    differ at the same position, when not every graph has a distinct id):
    said as ``amrcheck score`` and the hooks say it."""
    start = types.Position(line=0, character=0)
    return types.Diagnostic(
        range=types.Range(start=start, end=start),
        message=f"graphs cannot be paired with the reference: {problem}",
        severity=types.DiagnosticSeverity.Warning,
        code="pairing",
        source=DIFF_SOURCE,
    )


# -- diff diagnostics ---------------------------------------------------------


def triple_span_of(graph: Graph, triple: TripleId) -> tuple[int, int]:
    """Offsets to mark for a triple: concept, role..target, or the root variable."""
    if triple.index < 0:
        span = graph.definition_span(graph.top)
        if span is None:
            return graph.start, graph.start
        return span.start, span.end
    if graph.triples[triple.index][1] == ":instance":
        target = graph.target_span(triple.index)
        return target.start, target.end
    span = graph.triple_span(triple.index)
    return span.start, span.end


class _ReferencePlaces:
    """Places in one reference graph: as ``gold/x.amr:3:4`` and as links."""

    def __init__(self, entry: Entry, reference: LoadedReference, name: str) -> None:
        assert entry.graph is not None and reference.lines is not None
        self.graph, self.source, self.name = entry.graph, entry.source, name
        self.uri, self.lines = reference.uri, reference.lines
        self.concepts = entry.graph.variables()

    def place(self, offset: int) -> str:
        line, column = self.source.line_column(offset)
        return f"{self.name}:{line}:{column}"

    def location(self, triple: TripleId) -> types.Location:
        start, end = triple_span_of(self.graph, triple)
        return types.Location(uri=self.uri, range=self.lines.range(start, end))

    def node(
        self, variable: str
    ) -> tuple[str, list[types.DiagnosticRelatedInformation]]:
        """``(v / concept) at gold/x.amr:3:4`` and its link."""
        node = f"({variable} / {self.concepts.get(variable, '?')})"
        definition = self.graph.definition_span(variable)
        if definition is None:
            return node, []
        node += f" at {self.place(definition.start)}"
        return node, [
            types.DiagnosticRelatedInformation(
                location=lsp_location(definition, self.uri, self.lines),
                message=f"reference node {node}",
            )
        ]


@dataclass(frozen=True, slots=True)
class _ExtraTriple:
    """One triple of the graph that its reference graph lacks, described."""

    #: ``diff-root``, ``diff-concept`` or ``diff-extra``
    code: str
    #: the per-triple diagnostic's message
    message: str
    #: the same in a list of a graph's differences (``extra (m / beautiful):
    #: aligned to reference node (m / magnificent) at gold/x.amr:3:4``)
    item: str
    #: the reference node it is compared with, if any
    related: list[types.DiagnosticRelatedInformation]


def _describe_extra(
    graph: Graph, extra: TripleId, comparison: GraphComparison,
    places: _ReferencePlaces,
) -> _ExtraTriple:
    """What an extra triple is: another root, another concept (its node is
    aligned), an unaligned node, or a triple the reference lacks."""
    if extra.index < 0:
        node, related = places.node(places.graph.top)
        reason = f"the reference's root is {node}"
        return _ExtraTriple(
            "diff-root", f"root differs: {reason}",
            f"extra root {graph.top}: {reason}", related,
        )
    text = graph.written(extra.index)
    variable, role, concept = graph.triples[extra.index]
    if role != ":instance":
        return _ExtraTriple(
            "diff-extra", f"extra: {text} is not in the reference",
            f"extra {text}", [],
        )
    aligned = comparison.alignment.get(variable)
    if aligned is None:
        reason = "no reference node is aligned to it"
        return _ExtraTriple(
            "diff-extra", f"extra node {text}: {reason}", f"extra {text}: {reason}",
            [],
        )
    node, related = places.node(aligned)
    return _ExtraTriple(
        "diff-concept", f"concept {concept!r} is aligned to reference node {node}",
        f"extra {text}: aligned to reference node {node}", related,
    )


def _reference_item(places: _ReferencePlaces, triple: TripleId) -> str:
    """``(h / here) at gold/lpp.amr:44:18``: a reference triple and its place."""
    return (
        f"{places.graph.written(triple.index)} at "
        f"{places.place(triple_span_of(places.graph, triple)[0])}"
    )


def _relabelled_item(
    graph: Graph, reference: TripleId, candidate: TripleId, places: _ReferencePlaces
) -> str:
    """``relabelled (m / magnificent) at gold/x.amr:15:23 -> (m / beautiful)``."""
    return (
        f"relabelled {_reference_item(places, reference)} -> "
        f"{graph.written(candidate.index)}"
    )


def grouped_diff_diagnostic(
    graph: Graph,
    comparison: GraphComparison,
    parsed: ParsedDocument,
    reference: LoadedReference,
    name: str,
    own_name: str,
) -> types.Diagnostic:
    """All differences of one graph from its reference graph, as one
    diagnostic on the graph's opening line (``amrcheck.diffDiagnostics``
    ``"grouped"``): a much changed graph is no longer underlined nearly line
    by line (issue 22).

    Each difference is one ``relatedInformation`` entry: an extra triple
    or a relabelled one at its place in the graph, a missing one at its
    place in the reference, each named with its file's path in the
    workspace (``gold/lpp.amr:44:18``, ``annotations/lpp.amr:20:5``: VS
    Code shows only a file's name beside them, the same for a reference
    with the annotation's name; issue 29). The message
    counts them as the lens and ``amrcheck diff`` do
    (:class:`~amrcheck.workflows.diff.ChangeCounts`) and lists the first
    :data:`MESSAGE_TRIPLES`.
    """
    places = _ReferencePlaces(comparison.reference, reference, name)
    related = []

    def own(triple: TripleId, item: str) -> types.DiagnosticRelatedInformation:
        """``item`` at the triple's place in the annotation, named in it."""
        start, end = triple_span_of(graph, triple)
        line, column = graph.source.line_column(start)
        return types.DiagnosticRelatedInformation(
            location=types.Location(
                uri=parsed.uri, range=parsed.lines.range(start, end)
            ),
            message=f"{item} (at {own_name}:{line}:{column})",
        )

    for before, after in comparison.relabelled:
        related.append(own(after, _relabelled_item(graph, before, after, places)))
    for extra in comparison.unpaired_extra():
        related.append(
            own(extra, _describe_extra(graph, extra, comparison, places).item)
        )
    for missing in comparison.unpaired_missing():
        related.append(
            types.DiagnosticRelatedInformation(
                location=places.location(missing),
                message=f"missing {_reference_item(places, missing)}",
            )
        )
    items = [r.message for r in related]
    shown = "; ".join(items[:MESSAGE_TRIPLES])
    if len(items) > MESSAGE_TRIPLES:
        shown += f"; … (+{len(items) - MESSAGE_TRIPLES})"
    return types.Diagnostic(
        range=parsed.lines.line_range(graph.start),
        message=f"differs from {name}#{comparison.reference.label} "
                f"({comparison.counts}): {shown}",
        severity=types.DiagnosticSeverity.Information,
        code="diff",
        source=DIFF_SOURCE,
        related_information=related,
    )


def diff_diagnostics(
    graph: Graph,
    comparison: GraphComparison,
    lines: LineIndex,
    reference: LoadedReference,
    name: str,
) -> list[types.Diagnostic]:
    """The differences of one graph from its reference graph, one diagnostic
    per triple (``amrcheck.diffDiagnostics`` ``"per-triple"``).

    Ranges are on the graph's own text; whatever is in the reference is
    named with its place there (``gold/lpp.amr:131:25``, ``name`` being how
    the reference file is shown) and linked by ``relatedInformation``, so a
    reference line is never read as the annotation's (issue 22).
    """
    ref_graph = comparison.reference.graph
    assert ref_graph is not None
    places = _ReferencePlaces(comparison.reference, reference, name)
    found: list[types.Diagnostic] = []

    for before, after in comparison.relabelled:
        start, end = triple_span_of(graph, after)
        concept = graph.triples[after.index][1] == ":instance"
        node, related = places.node(places.graph.triples[before.index][0])
        found.append(
            types.Diagnostic(
                range=lines.range(start, end),
                message=(
                    f"concept {graph.triples[after.index][2]!r} relabels "
                    f"reference node {node}" if concept
                    else _relabelled_item(graph, before, after, places)
                ),
                severity=types.DiagnosticSeverity.Information,
                code="diff-concept" if concept else "diff-relabel",
                source=DIFF_SOURCE,
                related_information=related or None,
            )
        )
    for extra in comparison.unpaired_extra():
        start, end = triple_span_of(graph, extra)
        described = _describe_extra(graph, extra, comparison, places)
        found.append(
            types.Diagnostic(
                range=lines.range(start, end),
                message=described.message,
                severity=types.DiagnosticSeverity.Hint
                if described.code == "diff-root"
                else types.DiagnosticSeverity.Information,
                code=described.code,
                source=DIFF_SOURCE,
                related_information=described.related or None,
            )
        )
    unpaired = comparison.unpaired_missing()
    if unpaired:
        listed = [_reference_item(places, m) for m in unpaired]
        more = len(listed) - MESSAGE_TRIPLES
        shown = ", ".join(listed[:MESSAGE_TRIPLES])
        if more > 0:
            shown += f", … (+{more})"
        count = len(listed)
        found.append(
            types.Diagnostic(
                range=lines.line_range(graph.start),
                message=f"{count} reference triple{'s' if count != 1 else ''} "
                        f"missing (vs {name}#{comparison.reference.label}): "
                        f"{shown}",
                severity=types.DiagnosticSeverity.Information,
                code="diff-missing",
                source=DIFF_SOURCE,
                related_information=[
                    types.DiagnosticRelatedInformation(
                        location=places.location(missing), message=f"missing {text}"
                    )
                    for missing, text in zip(unpaired, listed, strict=True)
                ],
            )
        )
    return found


# -- scores at a glance -------------------------------------------------------


def is_low(report: GraphReport, settings: Settings) -> bool:
    """The graph was scored, below ``lowScoreThreshold``."""
    comparison = report.comparison
    return (
        comparison is not None
        and comparison.score.f1 < settings.low_score_threshold
    )


def low_score_diagnostics(
    graphs: list[GraphReport], settings: Settings, lines: LineIndex
) -> list[types.Diagnostic]:
    """A warning on the first line of each graph scoring below the threshold
    (``smatch 0.56 < 0.80``), so low scores stand out in the editor and in
    its problem list (issue 22)."""
    found = []
    for report in graphs:
        graph = report.entry.graph
        if graph is None or not is_low(report, settings):
            continue
        assert report.comparison is not None
        score, threshold = report.comparison.score.f1, settings.low_score_threshold
        shown = f"{score:.2f}"
        if float(shown) >= threshold:  # never "0.98 < 0.98"
            shown = f"{score:.4f}"
        found.append(
            types.Diagnostic(
                range=lines.line_range(graph.start),
                message=f"{settings.metric} {shown} < {threshold:.2f}",
                severity=types.DiagnosticSeverity.Warning,
                code="low-score",
                source=SCORE_SOURCE,
            )
        )
    return found


def score_text(analysis: Analysis, report: GraphReport) -> str | None:
    """``smatch 0.56`` (None: the graph has no score)."""
    if report.comparison is None:
        return None
    return f"{analysis.settings.metric} {report.comparison.score.f1:.2f}"


def next_low_score(analysis: Analysis, offset: int) -> GraphReport | None:
    """The first graph below the threshold that starts after ``offset``,
    else (wrapping around) the first one of the document."""
    low = [
        report for report in analysis.graphs
        if report.entry.graph is not None and is_low(report, analysis.settings)
    ]
    after = [r for r in low if _lens_offset(r) > offset]
    found = after or low
    return found[0] if found else None


# -- lenses -------------------------------------------------------------------


#: what a lens says of a score whose search the time budget stopped
CUT_NOTE = "at least: search cut by the time budget"


def lens_title(analysis: Analysis, report: GraphReport) -> str:
    """``smatch 0.87 · P 0.90 R 0.84 · 1 missing, 1 extra, 1 relabelled vs
    gold/x.amr#id``.

    The counts are in the lens metric's own units: triples for smatch and
    s2match, ``motifs: 9 shared, 2 missing, 0 extra`` for rematch, and so
    on (:attr:`GraphComparison.summary`). Triples are counted as
    ``amrcheck diff`` and the diff diagnostics count them
    (:attr:`GraphComparison.counts`).
    """
    metric = analysis.settings.metric
    comparison = report.comparison
    if report.empty is not None:
        counted = "counts as 0 in the document score"
        if report.stale is None:
            return f"{metric} – · {report.note}: {counted}"
        return (
            f"{metric} {report.stale.score.f1:.2f} (before this edit) · "
            f"{report.note}: {counted}"
        )
    if comparison is None:
        return f"{metric} – · {report.note}"
    score = comparison.score
    title = f"{metric} {score.f1:.2f}"
    if comparison.score_cut:
        title += f" ({CUT_NOTE})"
    if score.precision is not None and score.recall is not None:
        title += f" · P {score.precision:.2f} R {score.recall:.2f}"
    title += " · " + (
        comparison.summary if comparison.summary is not None
        else str(comparison.counts)
    )
    return f"{title} vs {analysis.reference_name}#{comparison.reference.label}"


def lens_anchor(analysis: Analysis, report: GraphReport) -> types.Range:
    """Where a graph's lens sits: the graph's first character, whether it
    parses or not."""
    offset = _lens_offset(report)
    return analysis.parsed.lines.range(offset, offset)


def _lens_offset(report: GraphReport) -> int:
    # a graph that does not parse gets its lens where its text starts, as a
    # parsed graph does, not above its ``# ::id`` (issue 22)
    return report.entry.graph_start


def unresolved_lenses(
    analysis: Analysis, previous: list[types.CodeLens] | None = None
) -> list[types.CodeLens]:
    """One lens per graph: its range and ``[uri, index]``, no title yet.

    The title comes with ``codeLens/resolve`` (:func:`lens_report`,
    :func:`lens_title`). A lens of ``previous`` (the lenses of an earlier
    version) that is still right is reused: after a keystroke that is
    nearly all of them.
    """
    lines, uri = analysis.parsed.lines, analysis.parsed.uri
    known = previous or []
    lenses = []
    for index, report in enumerate(analysis.graphs):
        line, character = lines.line_character(_lens_offset(report))
        if index < len(known):
            old = known[index]
            start = old.range.start
            if (
                start.line == line and start.character == character
                and old.data == [uri, index] and old.command is None
            ):
                lenses.append(old)
                continue
        position = types.Position(line=line, character=character)
        lenses.append(
            types.CodeLens(
                range=types.Range(start=position, end=position), data=[uri, index]
            )
        )
    return lenses


def lens_report(
    analysis: Analysis, index: int, anchor: types.Position
) -> GraphReport | None:
    """The graph of the lens ``index`` anchored at ``anchor`` (a resolve request).

    The lens may come from an earlier version of the document: the graph
    is the one whose lens is at ``anchor`` now (``index`` is where to look
    first), or None when no graph's lens is there any more.
    """
    graphs = analysis.graphs

    def anchored(i: int) -> bool:
        return 0 <= i < len(graphs) and lens_anchor(analysis, graphs[i]).start == anchor

    if anchored(index):
        return graphs[index]
    # graphs are in text order: the first one whose lens is at or after it
    first = bisect_left(graphs, analysis.parsed.offset(anchor), key=_lens_offset)
    return graphs[first] if anchored(first) else None
