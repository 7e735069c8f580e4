"""The ``amr/graph`` request: the graph under the cursor and its reference, as data.

Runs in the engine thread. The engine draws (:func:`amrcheck.render.pair_view`
reads the metric's explanation; Graphviz lays out); this module finds the
graph at the position, its partner in the reference (from the document's
:class:`~amr_lsp.analysis.Analysis`), and converts spans to LSP ranges.
The answer is plain JSON that any client can draw; with ``svg: true`` it
also carries both drawings, laid out by Graphviz (what the VS Code
webview shows). The shape is documented in ``docs/lsp.md``.

The explanation is that of the lens metric (``amrcheck.metric``); a metric
without an alignment (rematch, SemBleu, SEMA, WLK) lists its units, and
the colours and links come from smatch, as the diff diagnostics do.

In a UMR document (:class:`UmrSentences`) each side also carries its
sentence's words, and each concept node the words it is aligned to, drawn
under its label as the HTML reports draw them
(:func:`amrcheck.render.mark_words`).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from lsprotocol import types
from pygls.exceptions import JsonRpcException

from amrcheck import Entry, Finding
from amrcheck.cache import ByteBoundedLru, approximate_size
from amrcheck.reading.locate import entry_at
from amrcheck.reading.umr import UmrSentence
from amrcheck.render import (
    PALETTE,
    AlignedWords,
    LayoutError,
    PairView,
    Side,
    aligned_words,
    lay_out,
    lay_out_pairs,
    mark_words,
    pair_drawing,
    pair_view,
    scene_dot,
    single_view,
    status_legend,
    tooltips,
)
from amrcheck.span import SourceText
from amrcheck.workflows.diff import Located

from .analysis import Analysis
from .compare import Comparer
from .convert import LineIndex, lsp_range

#: the custom request (params: ``textDocument``, ``position``, ``svg``)
GRAPH_REQUEST = "amr/graph"
#: the two graphs of the view, as its legend names them
ROLES = ("the reference", "this file")


def legend() -> list[dict[str, Any]]:
    """What each status's colour means, in the view's roles, with the
    colours the drawings use (the engine's palette, as in the reports)."""
    return [
        {
            "status": status,
            "meaning": meaning,
            "color": PALETTE[status]["color"],
            "fill": PALETTE[status]["fillcolor"],
            "dashed": "dashed" in PALETTE[status].get("style", ""),
        }
        for status, meaning in status_legend(ROLES).items()
    ]

@dataclass(frozen=True, slots=True)
class UmrSentences:
    """A UMR document's sentences and its reference's, whose words and
    alignments the view shows (a UMR corpus's entry ``i`` is sentence ``i``)."""

    own: Sequence[UmrSentence]
    reference: Sequence[UmrSentence] = ()

    def words(self, entry: Entry, reference: bool = False) -> AlignedWords | None:
        sentences = self.reference if reference else self.own
        if 0 <= entry.index < len(sentences):
            return aligned_words(sentences[entry.index])
        return None


@dataclass(frozen=True, slots=True)
class GraphParams:
    uri: str
    position: types.Position
    svg: bool


def graph_params(params: Any) -> GraphParams:
    """The request's parameters (pygls hands unknown methods' params as
    named tuples), or an InvalidParams error."""
    try:
        uri = params.textDocument.uri
        position = types.Position(
            line=int(params.position.line), character=int(params.position.character)
        )
    except (AttributeError, TypeError, ValueError):
        raise JsonRpcException(
            "amr/graph expects {textDocument: {uri}, position: {line, character}}",
            code=types.ErrorCodes.InvalidParams,
        ) from None
    return GraphParams(str(uri), position, bool(getattr(params, "svg", False)))


class GraphViews:
    """Answers ``amr/graph``; keeps the last explanations and layouts.

    Explanations are kept per document version and graph (spans move with
    edits elsewhere), drawings per DOT text (the same picture is laid out
    once, wherever the graph moved); both tables are bounded in bytes.
    Views of a document's earlier versions are dropped when a newer one is
    made (their graphs point into texts the document no longer has).
    """

    def __init__(self, max_bytes: int = 8 << 20) -> None:
        self._views: ByteBoundedLru[tuple[Any, ...], PairView | Side] = (
            ByteBoundedLru(max_bytes // 2)
        )
        self._svgs: ByteBoundedLru[str, str] = ByteBoundedLru(max_bytes // 2)

    def _view(
        self, key: tuple[Any, ...], make: Callable[[], PairView | Side]
    ) -> PairView | Side:
        known = self._views.get(key)
        if known is None:
            uri, version = key[:2]
            self._views.drop(lambda k: k[0] == uri and k[1] != version)
            known = make()
            size = approximate_size(known, keep_out=(SourceText,))
            self._views.put(key, known, size)
        return known

    def stats(self) -> dict[str, dict[str, int]]:
        return {"views": self._views.stats(), "drawings": self._svgs.stats()}

    def answer(
        self,
        analysis: Analysis,
        comparer: Comparer,
        params: GraphParams,
        umr: UmrSentences | None = None,
    ) -> dict[str, Any] | None:
        parsed = analysis.parsed
        entry = _entry_near(analysis, parsed.offset(params.position))
        if entry is None:
            return None
        words = None if umr is None else umr.words(entry)
        report = analysis.report_for(entry)
        comparison = report.comparison if report is not None else None
        reference = analysis.reference
        key = (parsed.uri, parsed.version, entry.start, id(comparer))
        answer: dict[str, Any] = {
            "uri": parsed.uri,
            "version": parsed.version,
            "metric": comparer.metric_name,
            "note": report.note if report is not None else None,
            "reference": None,
            "explanation": None,
            "layoutProblem": None,
            "legend": None,
        }
        if entry.graph is None:
            answer["graph"] = _unparsed(entry, parsed.lines, words)
            return answer
        if comparison is None or reference is None or reference.lines is None:
            graph = entry.graph
            side = self._view(key, lambda: _marked(single_view(graph), words))
            assert isinstance(side, Side)
            answer["graph"] = _side(side, entry, parsed.lines, words)
            if params.svg:
                self._draw(answer, [(answer["graph"], side, "c-")])
            return answer
        partner = comparison.reference
        assert partner.graph is not None
        ref_graph, graph = partner.graph, entry.graph
        theirs = None if umr is None else umr.words(partner, reference=True)

        def make() -> PairView:
            view = pair_view(graph, ref_graph, comparer.metric, comparer.aligner)
            mark_words(view.candidate, words)
            mark_words(view.reference, theirs)
            return view

        view = self._view(
            (*key, reference.uri, reference.generation, partner.index), make
        )
        assert isinstance(view, PairView)
        answer["graph"] = _side(view.candidate, entry, parsed.lines, words)
        answer["reference"] = {
            "uri": reference.uri,
            **_side(view.reference, partner, reference.lines, theirs),
        }
        answer["explanation"] = _explanation(
            view, (entry.source, parsed.lines), (partner.source, reference.lines)
        )
        answer["legend"] = legend()
        if params.svg:
            self._draw_pair(answer, view)
        return answer

    def _draw(
        self, answer: dict[str, Any], sides: list[tuple[dict[str, Any], Side, str]]
    ) -> None:
        """Add ``svg`` to each side's JSON (one Graphviz run for what is new)."""
        sources = [scene_dot(side, prefix) for _, side, prefix in sides]
        drawn = {s: self._svgs.get(s) for s in sources}
        new = [s for s, svg in drawn.items() if svg is None]
        if new:
            tips: dict[str, str] = {}
            for _, side, prefix in sides:
                tips.update(tooltips(side, prefix, places=False))
            try:
                for source, svg in zip(new, lay_out(new, titles=tips.get), strict=True):
                    self._keep(source, svg)
                    drawn[source] = svg
            except LayoutError as exc:
                answer["layoutProblem"] = str(exc)
                return
        for (json, _, _), source in zip(sides, sources, strict=True):
            json["svg"] = drawn[source]

    def _draw_pair(self, answer: dict[str, Any], view: PairView) -> None:
        """Add ``svg`` to both sides: one layout for the pair, aligned nodes
        in the same places (kept per union DOT text)."""
        drawing = pair_drawing(view, "r-", "c-")
        union = drawing.union_dot()
        known = self._svgs.get(union)
        if known is None:
            tips = tooltips(view.candidate, "c-", places=False)
            tips.update(tooltips(view.reference, "r-", places=False))
            try:
                ((reference, graph),) = lay_out_pairs([drawing], titles=tips.get)
            except LayoutError as exc:
                answer["layoutProblem"] = str(exc)
                return
            # the two drawings in one string: a pair is kept or dropped whole
            known = reference + _SEPARATOR + graph
            self._keep(union, known)
        reference, graph = known.split(_SEPARATOR)
        answer["reference"]["svg"] = reference
        answer["graph"]["svg"] = graph

    def _keep(self, source: str, svg: str) -> None:
        self._svgs.put(source, svg, sys.getsizeof(source) + sys.getsizeof(svg))


#: between the two SVGs of a pair in the drawings' cache (never in an SVG)
_SEPARATOR = "\0"


def _entry_near(analysis: Analysis, offset: int) -> Entry | None:
    """The entry at ``offset``, else the last one before it (the cursor in
    the blank lines after a graph still shows that graph)."""
    corpus = analysis.parsed.corpus
    found = entry_at(corpus, offset)
    if found is not None:
        return found
    before = [entry for entry in corpus.entries if entry.start <= offset]
    return before[-1] if before else (corpus.entries[0] if corpus.entries else None)


def _error_text(error: Finding) -> str:
    """``25:38: E001 ...``: where in the graph's file, not the document's raw
    ``file:///...`` URI (issue 29)."""
    return f"{error.span.line}:{error.span.column}: {error.code} {error.message}"


def _marked(side: Side, words: AlignedWords | None) -> Side:
    mark_words(side, words)
    return side


def _words(words: AlignedWords | None) -> list[dict[str, Any]] | None:
    """A UMR sentence's words, each with the nodes aligned to it (None: AMR)."""
    if words is None:
        return None
    return [
        {
            "position": chip.position,
            "text": chip.text,
            "gloss": chip.gloss,
            "variables": list(chip.variables),
        }
        for chip in words.chips()
    ]


def _sentence(entry: Entry, words: AlignedWords | None) -> str | None:
    """``::snt`` of an AMR graph; the words of a UMR sentence."""
    return entry.metadata.get("snt") or (None if words is None else words.sentence)


def _unparsed(
    entry: Entry, lines: LineIndex, words: AlignedWords | None = None
) -> dict[str, Any]:
    return {
        "id": entry.label,
        "sentence": _sentence(entry, words),
        "words": _words(words),
        "range": lsp_range(entry.span, lines),
        "text": entry.text,
        "errors": [
            {"code": e.code, "message": _error_text(e),
             "range": lsp_range(e.span, lines)}
            for e in entry.errors
        ],
        "nodes": [],
        "edges": [],
    }


def _side(
    side: Side, entry: Entry, lines: LineIndex, words: AlignedWords | None = None
) -> dict[str, Any]:
    scene = side.scene
    return {
        "id": entry.label,
        "sentence": _sentence(entry, words),
        "words": _words(words),
        "range": lsp_range(entry.span, lines),
        "nodes": [
            {
                "id": node.key,
                "kind": node.kind,
                "label": node.label,
                "variable": node.variable,
                "root": node.root,
                "status": side.nodes.get(node.key),
                "partner": side.partners.get(node.key),
                # a UMR node's aligned words, as drawn under its label
                "aligned": side.notes.get(node.key),
                "range": lsp_range(node.span, lines),
            }
            for node in scene.nodes
        ],
        "edges": [
            {
                "id": edge.key,
                "source": edge.source,
                "target": edge.target,
                "role": edge.role,
                "status": side.edges.get(edge.key),
                "range": lsp_range(edge.span, lines),
            }
            for edge in scene.edges
        ],
        "errors": [
            {"code": e.code, "message": _error_text(e),
             "range": lsp_range(e.span, lines)}
            for e in entry.errors
        ],
    }


def _place(located: Located | None, source: SourceText, lines: LineIndex) -> Any:
    """A triple's text and where it starts (an empty range there)."""
    if located is None:
        return None
    offset = source.offset(located.line, located.column)
    return {"text": located.text, "range": lines.range(offset, offset)}


def _explanation(
    view: PairView,
    graph: tuple[SourceText, LineIndex],
    reference: tuple[SourceText, LineIndex],
) -> dict[str, Any]:
    score = view.score
    return {
        "metric": view.metric,
        "explainedBy": view.explained_by,
        "score": {
            "f1": score.f1, "precision": score.precision, "recall": score.recall
        },
        "links": [
            {
                "graph": link.candidate,
                "reference": link.reference,
                "weight": link.weight,
            }
            for link in view.links
        ],
        "triples": [
            {
                "status": row.status,
                "graph": _place(row.candidate, *graph),
                "reference": _place(row.reference, *reference),
                "graphElements": list(row.candidate_keys),
                "referenceElements": list(row.reference_keys),
            }
            for row in view.triples
        ],
        "unit": view.unit,
        "units": [
            {
                "group": unit.group,
                "text": unit.text,
                "places": [f"{p.path}:{p.line}:{p.column}" for p in unit.places],
            }
            for unit in view.units
        ],
    }
