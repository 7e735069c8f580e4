"""One document version, checked and compared: what the server publishes.

:func:`analyze` runs in the server's engine thread (never on the event
loop): it reads the document (:mod:`amr_lsp.documents`), validates it,
finds and reads its reference (:mod:`amr_lsp.references`), scores each
graph against its partner (:mod:`amr_lsp.compare`, cached) and turns the
results into LSP diagnostics. Code lenses, inlay hints and the document
score are built from the :class:`Analysis` on request.
"""

from __future__ import annotations

import time
from bisect import bisect_left
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lsprotocol import types

from amrcheck import Corpus, Entry, Finding, Graph, Score, validate
from amrcheck.validation.validate import GraphFindingsCache

from .compare import Comparer, GraphComparison, TripleId
from .config import Settings
from .convert import (
    DIFF_SOURCE,
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
    pair_entries,
)

#: how many missing triples a diagnostic message lists (all are in relatedInformation)
MESSAGE_TRIPLES = 5


@dataclass(slots=True)
class GraphReport:
    """One entry of the document and how it compares with its reference graph."""

    entry: Entry
    comparison: GraphComparison | None = None
    #: why there is no comparison (None when there is one)
    note: str | None = None


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
            "problem": self.reference.problem if self.reference else None,
            "graphs": len(self.graphs),
            "compared": len(compared),
            "f1": score.f1 if score else None,
            "precision": score.precision if score else None,
            "recall": score.recall if score else None,
            "missing": sum(len(c.missing) for c in compared),
            "extra": sum(len(c.extra) for c in compared),
        }


def analyze(
    parsed: ParsedDocument,
    settings: Settings,
    comparer: Comparer,
    references: ReferenceStore,
    root: Path | None,
    findings_cache: GraphFindingsCache | None = None,
) -> Analysis:
    """Validate and compare one parsed document version.

    ``findings_cache`` keeps the validator's findings of unchanged graphs
    from one version to the next (only edited graphs are checked again).
    """
    timings: dict[str, float] = {}
    clock = time.perf_counter()
    diagnostics: dict[str, list[types.Diagnostic]] = {
        VALIDATION_SOURCE: [], DIFF_SOURCE: []
    }
    corpus = parsed.corpus
    findings = (
        validate(corpus, cache=findings_cache) if settings.features.validation
        else []
    )
    diagnostics[VALIDATION_SOURCE] = [lsp_diagnostic(f, parsed.lines) for f in findings]
    timings["validate"] = time.perf_counter() - clock

    clock = time.perf_counter()
    document = uri_to_path(parsed.uri)
    choice = choose_reference(corpus, document, root, settings.references)
    reference = references.get(choice, document) if choice is not None else None
    graphs = [GraphReport(entry) for entry in corpus.entries]
    if reference is not None and reference.corpus is not None:
        _compare_all(graphs, corpus, reference, comparer)
    elif choice is None:
        for report in graphs:
            report.note = "no reference file configured"
    else:
        for report in graphs:
            report.note = "reference unavailable"
    timings["compare"] = time.perf_counter() - clock

    clock = time.perf_counter()
    if reference is not None and reference.problem is not None:
        diagnostics[DIFF_SOURCE].append(_reference_problem(parsed, choice, reference))
    if settings.features.diff and reference is not None and reference.lines is not None:
        for report in graphs:
            comparison, graph = report.comparison, report.entry.graph
            # most graphs match their reference: nothing to say, nothing to build
            if comparison is None or graph is None or not (
                comparison.extra or comparison.missing
            ):
                continue
            diagnostics[DIFF_SOURCE].extend(
                diff_diagnostics(graph, comparison, parsed.lines, reference)
            )
    timings["diagnostics"] = time.perf_counter() - clock

    compared = [g.comparison.score for g in graphs if g.comparison is not None]
    return Analysis(
        parsed=parsed,
        settings=settings,
        choice=choice,
        reference=reference,
        reference_name=_display_name(choice.path, document, root) if choice else None,
        graphs=graphs,
        findings=findings,
        diagnostics=diagnostics,
        document_score=comparer.aggregate(compared) if compared else None,
        timings=timings,
    )


def _compare_all(
    graphs: list[GraphReport],
    corpus: Corpus,
    reference: LoadedReference,
    comparer: Comparer,
) -> None:
    assert reference.corpus is not None
    partners = pair_entries(corpus, reference.corpus)
    for report, partner in zip(graphs, partners, strict=True):
        entry = report.entry
        if partner is None:
            report.note = f"no reference graph for {entry.label}"
        elif entry.graph is None:
            report.note = "graph has errors"
        elif partner.graph is None:
            report.note = f"reference graph {partner.label} has errors"
        else:
            report.comparison = comparer.compare(
                entry.graph, partner, reference.generation
            )


def _display_name(path: Path, document: Path | None, root: Path | None) -> str:
    for base in (root, document.parent if document else None):
        if base is not None:
            try:
                return path.relative_to(base).as_posix()
            except ValueError:
                continue
    return str(path)


def _reference_problem(
    parsed: ParsedDocument, choice: ReferenceChoice | None, reference: LoadedReference
) -> types.Diagnostic:
    """The reference cannot be used (or only partly): say so where it was chosen."""
    span = None
    if choice is not None and choice.origin == "header" and parsed.corpus.entries:
        span = parsed.corpus.entries[0].metadata_span(REFERENCE_KEY)
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


# -- diff diagnostics ---------------------------------------------------------


def written(graph: Graph, index: int) -> str:
    """A written triple as the annotator wrote it: ``(b / boy)``, ``(w :ARG0 b)``."""
    if index < 0:
        return f"root {graph.top}"
    source, role, target = graph.triples[index]
    if role == ":instance":
        return f"({source} / {target})"
    return f"({source} {role} {target})"


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


def diff_diagnostics(
    graph: Graph,
    comparison: GraphComparison,
    lines: LineIndex,
    reference: LoadedReference,
) -> list[types.Diagnostic]:
    """The differences of one graph from its reference graph, as diagnostics."""
    ref_graph = comparison.reference.graph
    assert ref_graph is not None and reference.lines is not None
    ref_lines = reference.lines
    ref_concepts = ref_graph.variables()
    found: list[types.Diagnostic] = []

    def ref_location(triple: TripleId) -> types.Location:
        start, end = triple_span_of(ref_graph, triple)
        return types.Location(uri=reference.uri, range=ref_lines.range(start, end))

    for extra in comparison.extra:
        start, end = triple_span_of(graph, extra)
        related = None
        severity = types.DiagnosticSeverity.Information
        if extra.index < 0:
            code = "diff-root"
            severity = types.DiagnosticSeverity.Hint
            message = (
                f"root differs: the reference's root is "
                f"({ref_graph.top} / {ref_concepts.get(ref_graph.top, '?')})"
            )
        elif graph.triples[extra.index][1] == ":instance":
            variable, _, concept = graph.triples[extra.index]
            aligned = comparison.alignment.get(variable)
            if aligned is not None:
                code = "diff-concept"
                message = (
                    f"concept {concept!r} is aligned to reference node "
                    f"({aligned} / {ref_concepts.get(aligned, '?')})"
                )
                definition = ref_graph.definition_span(aligned)
                if definition is not None:
                    related = [
                        types.DiagnosticRelatedInformation(
                            location=lsp_location(definition, reference.uri, ref_lines),
                            message=f"reference node ({aligned} / "
                                    f"{ref_concepts.get(aligned, '?')})",
                        )
                    ]
            else:
                code = "diff-extra"
                message = f"extra node {written(graph, extra.index)}: " \
                          "no reference node is aligned to it"
        else:
            code = "diff-extra"
            message = f"extra: {written(graph, extra.index)} is not in the reference"
        found.append(
            types.Diagnostic(
                range=lines.range(start, end),
                message=message,
                severity=severity,
                code=code,
                source=DIFF_SOURCE,
                related_information=related,
            )
        )
    if comparison.missing:
        listed = [written(ref_graph, m.index) for m in comparison.missing]
        more = len(listed) - MESSAGE_TRIPLES
        shown = ", ".join(listed[:MESSAGE_TRIPLES])
        if more > 0:
            shown += f", … (+{more})"
        count = len(listed)
        found.append(
            types.Diagnostic(
                range=lines.line_range(graph.start),
                message=f"{count} reference triple{'s' if count != 1 else ''} "
                        f"missing (vs {comparison.reference.label}): {shown}",
                severity=types.DiagnosticSeverity.Information,
                code="diff-missing",
                source=DIFF_SOURCE,
                related_information=[
                    types.DiagnosticRelatedInformation(
                        location=ref_location(missing), message=f"missing {text}"
                    )
                    for missing, text in zip(comparison.missing, listed, strict=True)
                ],
            )
        )
    return found


# -- lenses -------------------------------------------------------------------


def lens_title(analysis: Analysis, report: GraphReport) -> str:
    """``smatch 0.87 · P 0.90 R 0.84 · 3 missing, 2 extra vs gold/x.amr#id``."""
    metric = analysis.settings.metric
    comparison = report.comparison
    if comparison is None:
        return f"{metric} – · {report.note}"
    score = comparison.score
    title = f"{metric} {score.f1:.2f}"
    if score.precision is not None and score.recall is not None:
        title += f" · P {score.precision:.2f} R {score.recall:.2f}"
    title += f" · {len(comparison.missing)} missing, {len(comparison.extra)} extra"
    return f"{title} vs {analysis.reference_name}#{comparison.reference.label}"


def lens_anchor(analysis: Analysis, report: GraphReport) -> types.Range:
    """Where a graph's lens sits: the graph's first character (or its header's)."""
    offset = _lens_offset(report)
    return analysis.parsed.lines.range(offset, offset)


def _lens_offset(report: GraphReport) -> int:
    entry = report.entry
    return entry.graph.start if entry.graph is not None else entry.start


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
