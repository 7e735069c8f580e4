"""Hover text: the token under the cursor, its PropBank frame and its reference match.

Builds Markdown from engine answers only: :func:`amrcheck.reading.locate.token_at`
says what is under the cursor, :mod:`amrcheck.validation.propbank` describes frames,
the cached :class:`~amr_lsp.compare.GraphComparison` gives the alignment.
"""

from __future__ import annotations

from amrcheck import Graph, TripleKind
from amrcheck.reading.locate import TokenAt, TokenRole
from amrcheck.reading.tokens import FRAME_ARGUMENT_RE
from amrcheck.validation.propbank import FrameInventory

from .analysis import Analysis
from .compare import GraphComparison, TripleId
from .graph_report import GraphReport

#: lines of triples listed for one node before "… and N more"
NODE_TRIPLES = 12
#: said under the alignment when the time budget stopped its search
ALIGNMENT_CUT = (
    "The alignment search was cut by the time budget (`amrcheck.timeBudget`):"
    " this is the best alignment found, not proven optimal."
)
#: said when only the lens metric's search was stopped (the diff's aligner,
#: which finishes with the ILP, proved its alignment)
SCORE_CUT = (
    "The score's search was cut by the time budget (`amrcheck.timeBudget`):"
    " its score is a lower bound."
)


def hover_markdown(
    token: TokenAt, analysis: Analysis, frames: FrameInventory
) -> str | None:
    """The hover text for ``token`` (None when there is nothing to say)."""
    report = analysis.report_for(token.entry)
    comparison = report.comparison if report is not None else None
    if token.role in (TokenRole.VARIABLE, TokenRole.REFERENCE, TokenRole.CONCEPT):
        variable = token.graph.triples[token.index][0]
        if token.role is TokenRole.REFERENCE:
            variable = token.graph.triples[token.index][2]
        parts = [_node_header(token.graph, variable)]
        concept = token.graph.variables().get(variable)
        if concept is not None:
            parts.extend(_frame_lines(concept, frames))
        parts.extend(_alignment_lines(token.graph, variable, analysis, report))
        return "\n\n".join(parts)
    parts = []
    if token.role is TokenRole.ROLE:
        parts.append(_role_text(token, frames))
    if comparison is not None:
        parts.append(_triple_status(token.graph, token.index, comparison))
    return "\n\n".join(parts) if parts else None


def _node_header(graph: Graph, variable: str) -> str:
    concept = graph.variables().get(variable, "?")
    return f"**({variable} / {concept})**"


def _frame_lines(concept: str, frames: FrameInventory) -> list[str]:
    frame = frames.get(concept)
    if frame is None:
        return []
    name = f" — *{frame.name}*" if frame.name else ""
    arguments = "\n".join(
        f"- `:{a.label}` {a.description}" for a in frame.arguments
    ) or "- (no numbered arguments)"
    return [f"PropBank `{concept}`{name}", arguments]


def _role_text(token: TokenAt, frames: FrameInventory) -> str:
    source, role, target = token.graph.triples[token.index]
    match = FRAME_ARGUMENT_RE.fullmatch(role)
    if match is None:
        return f"`{role}`"
    label, inverted = match.groups()
    node = target if inverted else source
    concept = token.graph.variables().get(node)
    frame = frames.get(concept) if concept is not None else None
    if frame is None:
        return f"`{role}` (the concept `{concept}` has no PropBank frame)"
    argument = frame.argument(label)
    name = f" ({frame.name})" if frame.name else ""
    if argument is None:
        return f"`{role}`: `{concept}`{name} has no {label}: {frame.describe()}"
    return f"`{role}` of `{concept}`{name}: **{argument.description}**"


def _alignment_lines(
    graph: Graph, variable: str, analysis: Analysis, report: GraphReport | None
) -> list[str]:
    if report is None:
        return []
    comparison = report.comparison
    if comparison is None:
        return [f"Reference: {report.note}."]
    reference = comparison.reference
    ref_graph = reference.graph
    assert ref_graph is not None
    aligned = comparison.alignment.get(variable)
    if aligned is None:
        lines = ["Not aligned to any reference node."]
    else:
        concept = ref_graph.variables().get(aligned, "?")
        definition = ref_graph.definition_span(aligned)
        where = ""
        if definition is not None and analysis.reference is not None:
            line, column = definition.line, definition.column
            where = (
                f" at [{analysis.reference_name}:{line}:{column}]"
                f"({analysis.reference.uri}#L{line})"
            )
        lines = [
            f"Aligned to reference node **({aligned} / {concept})**"
            f" in {reference.label}{where}."
        ]
    own = [
        i for i, (source, _, target) in enumerate(graph.triples)
        if source == variable
        or (graph.kinds[i] is TripleKind.RELATION and target == variable)
    ]
    missing = [
        m for m in comparison.unpaired_missing()
        if aligned is not None and m.index >= 0
        and aligned in (m.triple[0], m.triple[2])
    ]
    statuses = [_status_line(graph, i, comparison) for i in own] + [
        f"- ✗ missing `{ref_graph.written(m.index)}`" for m in missing
    ]
    if comparison.alignment_cut:
        lower = " Its score is a lower bound." if comparison.score_cut else ""
        lines.append(ALIGNMENT_CUT + lower)
    elif comparison.score_cut:
        lines.append(SCORE_CUT)
    lines.append(_count_line(own, missing, comparison))
    shown = statuses[:NODE_TRIPLES]
    if len(statuses) > NODE_TRIPLES:
        shown.append(f"- … and {len(statuses) - NODE_TRIPLES} more")
    lines.append("\n".join(shown))
    return lines


def _count_line(
    own: list[int], missing: list[TripleId], comparison: GraphComparison
) -> str:
    """``2 triples of this node: 1 match, 0 missing, 0 extra, 1 relabelled:``,
    one per bullet below it, so the count and the list agree (issue 22: "1
    of 3 triples match" sat above 6 bullets, the missing ones uncounted);
    missing, extra and relabelled as the lens and ``amrcheck diff`` count
    them (issue 29)."""
    kinds = [_status(i, comparison)[0] for i in own]
    counts = {
        "match": kinds.count("matched"),
        "missing": len(missing),
        "extra": kinds.count("extra"),
        "relabelled": kinds.count("relabelled"),
        "not scored": kinds.count("not scored"),
    }
    total = len(own) + len(missing)
    parts = [
        f"{count} {what}" for what, count in counts.items()
        if count or what != "not scored"
    ]
    unit = "triple" if total == 1 else "triples"
    return f"{total} {unit} of this node: {', '.join(parts)}:"


def _status(index: int, comparison: GraphComparison) -> tuple[str, str]:
    """A triple's status in the words the lens, the diff diagnostics and
    ``amrcheck diff`` use (matched, relabelled, extra; or not scored), and
    the reference triple it pairs with, as written ("" for none)."""
    status = comparison.status(index)
    if isinstance(status, TripleId):
        return "matched", _reference_written(comparison, status)
    before = comparison.relabelled_from(index)
    if before is not None:
        return "relabelled", _reference_written(comparison, before)
    return ("extra" if status is False else "not scored"), ""


#: a triple's status as a bullet of its node's hover
_BULLETS = {
    "matched": "- ✓ {text}",
    "relabelled": "- ~ relabelled {text}, reference `{partner}`",
    "extra": "- ✗ extra {text}",
    "not scored": "- · {text} (not scored)",
}
#: a triple's status as the hover of its role
_SENTENCES = {
    "matched": "✓ {text} matches reference `{partner}`",
    "relabelled": "~ relabelled: {text} relabels reference `{partner}`",
    "extra": "✗ extra: {text} is not in the reference",
    "not scored": "{text} is not scored",
}


def _status_line(graph: Graph, index: int, comparison: GraphComparison) -> str:
    kind, partner = _status(index, comparison)
    return _BULLETS[kind].format(text=f"`{graph.written(index)}`", partner=partner)


def _triple_status(graph: Graph, index: int, comparison: GraphComparison) -> str:
    kind, partner = _status(index, comparison)
    return _SENTENCES[kind].format(text=f"`{graph.written(index)}`", partner=partner)


def _reference_written(comparison: GraphComparison, triple: TripleId) -> str:
    ref_graph = comparison.reference.graph
    assert ref_graph is not None
    return ref_graph.written(triple.index)
