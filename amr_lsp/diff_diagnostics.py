"""The diff diagnostics: how a graph differs from its reference graph.

One diagnostic per difference (``amrcheck.diffDiagnostics``
``"per-triple"``) or one per graph (``"grouped"``), each naming what is in
the reference at its place there; and the warnings that the reference
cannot be used or the graphs cannot be paired. Counted and worded as
``amrcheck diff`` counts them (missing / extra / relabelled:
:class:`~amrcheck.workflows.diff.ChangeCounts`).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from lsprotocol import types

from amrcheck import Entry, Graph, Span

from .compare import GraphComparison, TripleId
from .config import Settings
from .convert import DIFF_SOURCE, LineIndex, lsp_location, lsp_range, uri_to_path
from .documents import ParsedDocument
from .graph_report import GraphReport
from .references import LoadedReference, ReferenceChoice

#: how many missing triples a diagnostic message lists (all are in relatedInformation)
MESSAGE_TRIPLES = 5


def document_diff_diagnostics(
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
        display_name(document, None, root) if document is not None else parsed.uri
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


def display_name(path: Path, document: Path | None, root: Path | None) -> str:
    for base in (root, document.parent if document else None):
        if base is not None:
            try:
                return path.relative_to(base).as_posix()
            except ValueError:
                continue
    return str(path)


def reference_problem(
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


def pairing_problem(parsed: ParsedDocument, problem: str) -> types.Diagnostic:
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
