"""Two graphs and a metric's explanation, as what a drawing colours and links.

Layer: render, on top of the metrics (and of the diff's relabel rule,
:func:`amrcheck.workflows.diff.relabels`). :func:`pair_view` scores a
pair with ``explain=True`` and reads the explanation into a
:class:`PairView`:

* every node and edge of each side gets a status: ``matched``,
  ``missing`` (only the reference has it), ``extra`` (only the
  candidate has it) or ``relabelled`` (an aligned node whose concept,
  or a constant whose value, differs from its partner's);
* **links** join aligned nodes: the 1:1 ``alignment`` of smatch and
  s2match (weight 1), or the n:m alignment a metric lists in its units
  (WWLK's node flows, weighted by mass; any unit with ``candidate`` and
  ``reference`` triples, or with ``node`` and ``closest`` ones and a
  ``side``, as a learned metric's soft alignment);
* the triples, each with its place (``file:line:col``), and the metric's
  own units (motifs, n-grams, WL features, flows) with theirs.

A metric without any alignment (rematch, SemBleu, SEMA, WLK) cannot say
which node is which; its units are listed, and the colours and links come
from ``fallback`` (smatch, the alignment the text diff and the editor's
diagnostics use), so the drawing still shows what differs.

Example:
    >>> from amrcheck.reading.corpus import decode
    >>> from amrcheck.metrics import get_metric
    >>> view = pair_view(decode('(w / want-01 :ARG0 (g / girl))'),
    ...                  decode('(w / want-01 :ARG0 (b / boy))'),
    ...                  get_metric('smatch'))
    >>> sorted(view.candidate.nodes.items()), view.reference.partners
    ([('v:g', 'relabelled'), ('v:w', 'matched')], {'v:b': 'girl'})
    >>> [(link.candidate, link.reference) for link in view.links]
    [('v:w', 'v:w'), ('v:g', 'v:b')]
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, Literal

from ..graph import Graph, TripleKind
from ..metrics import Explanation, Metric, Score, TripleRef
from ..standardize import normalize_label
from ..workflows.diff import Located, locate, relabels
from .scene import Scene, graph_scene, variable_key

Status = Literal["matched", "missing", "extra", "relabelled"]
SideName = Literal["candidate", "reference"]
#: the order triple rows are listed in: differences first
STATUS_ORDER: dict[str, int] = {
    "relabelled": 0, "missing": 1, "extra": 2, "matched": 3,
}


@dataclass(frozen=True, slots=True)
class Link:
    """An aligned pair of nodes (scene keys) and the alignment's weight."""

    candidate: str
    reference: str
    #: 1 for a 1:1 alignment; a flow's mass or a similarity for n:m ones
    weight: float = 1.0


@dataclass(slots=True)
class Side:
    """One graph of the pair and the status of each of its elements."""

    scene: Scene
    #: node key -> status (nodes not listed are not scored, e.g. no explanation)
    nodes: dict[str, Status] = field(default_factory=dict)
    #: edge key -> status
    edges: dict[str, Status] = field(default_factory=dict)
    #: relabelled node key -> its partner's label
    partners: dict[str, str] = field(default_factory=dict)
    #: node key -> a line drawn under its label (a UMR node's aligned words)
    notes: dict[str, str] = field(default_factory=dict)

    @property
    def graph(self) -> Graph:
        return self.scene.graph


@dataclass(frozen=True, slots=True)
class TripleRow:
    """One triple (or a relabelled pair) with its places and drawn elements."""

    status: Status
    candidate: Located | None
    reference: Located | None
    #: scene keys the row draws on each side (the node, or edge and constant)
    candidate_keys: tuple[str, ...] = ()
    reference_keys: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class UnitRow:
    """One unit of the metric (motif, n-gram, feature, flow) and its places."""

    #: the explanation's list it comes from: ``matched``, ``missing``,
    #: ``extra``, or a metric's own (``flows``, ``concepts`` ...)
    group: str
    text: str
    places: tuple[Located, ...] = ()


@dataclass(slots=True)
class PairView:
    """Everything a drawing of a scored pair shows."""

    metric: str
    #: the metric's score (without its explanation)
    score: Score
    candidate: Side
    reference: Side
    links: list[Link]
    triples: list[TripleRow]
    units: list[UnitRow]
    #: the metric whose alignment colours the drawing (``metric``, or the
    #: fallback's name when ``metric`` has no alignment)
    explained_by: str
    #: what a unit is (``motif``, ``node flow`` ...), from the explanation
    unit: str | None = None


def pair_view(
    candidate: Graph,
    reference: Graph,
    metric: Metric,
    fallback: Metric | None = None,
) -> PairView:
    """Score ``candidate`` against ``reference`` and read the explanation.

    ``fallback`` (normally smatch) colours and links the drawing when
    ``metric``'s explanation has no alignment.
    """
    score = metric.score(candidate, reference, explain=True)
    explanation = score.explanation or Explanation()
    cand = Side(graph_scene(candidate))
    ref = Side(graph_scene(reference))
    drawn, explained_by = explanation, metric.name
    links = _links(explanation, cand.scene, ref.scene)
    if not links and fallback is not None:
        shown = fallback.score(candidate, reference, explain=True).explanation
        if shown is not None:
            drawn, explained_by = shown, fallback.name
            links = _links(drawn, cand.scene, ref.scene)
    triples = _triple_rows(drawn, cand, ref)
    _mark_relabelled(drawn, links, cand, ref)
    stripped = dataclasses.replace(score, explanation=None)
    unit = explanation.details.get("unit")
    return PairView(
        metric.name,
        stripped,
        cand,
        ref,
        links,
        triples,
        list(_unit_rows(explanation)),
        explained_by,
        unit if isinstance(unit, str) else None,
    )


def single_view(graph: Graph, status: Status | None = None) -> Side:
    """One graph alone: every element ``status`` (an added graph is all
    ``extra``, a removed one all ``missing``), or unscored (None)."""
    side = Side(graph_scene(graph))
    if status is not None:
        side.nodes = {node.key: status for node in side.scene.nodes}
        side.edges = {edge.key: status for edge in side.scene.edges}
    return side


# --- links ---------------------------------------------------------------------


def _links(explanation: Explanation, cand: Scene, ref: Scene) -> list[Link]:
    """The n:m alignment listed in the units if any, else the 1:1 alignment."""
    found: dict[tuple[str, str], float] = {}
    for items in explanation.units.values():
        for item in items:
            pair = _unit_link(item, cand, ref)
            if pair is not None:
                key = pair[0], pair[1]
                found[key] = max(found.get(key, 0.0), pair[2])
    if not found:
        cand_nodes = {node.key for node in cand.nodes}
        ref_nodes = {node.key for node in ref.nodes}
        for variable, partner in explanation.alignment.items():
            if partner is None:
                continue
            key = variable_key(variable), variable_key(partner)
            if key[0] in cand_nodes and key[1] in ref_nodes:
                found[key] = 1.0
    return [Link(c, r, weight) for (c, r), weight in found.items()]


def _unit_link(item: Any, cand: Scene, ref: Scene) -> tuple[str, str, float] | None:
    """(candidate node, reference node, weight) when a unit aligns two nodes."""
    a, b = getattr(item, "candidate", None), getattr(item, "reference", None)
    if isinstance(a, TripleRef) and isinstance(b, TripleRef):
        weight = getattr(item, "mass", getattr(item, "similarity", 1.0))
    else:
        a, b = getattr(item, "node", None), getattr(item, "closest", None)
        if not (isinstance(a, TripleRef) and isinstance(b, TripleRef)):
            return None
        if getattr(item, "side", "candidate") == "reference":
            a, b = b, a
        weight = getattr(item, "cosine", 1.0)
    c, r = cand.node_key(a.index), ref.node_key(b.index)
    if c is None or r is None or a.graph is not cand.graph:
        return None
    return c, r, float(weight)


# --- statuses and triple rows ------------------------------------------------


def _keys(scene: Scene, ref: TripleRef | None) -> tuple[str, ...]:
    if ref is None or ref.index < 0:
        return ()
    node, edge = scene.node_key(ref.index), scene.edge_key(ref.index)
    if scene.graph.kinds[ref.index] is TripleKind.INSTANCE:
        return (node,) if node else ()
    return tuple(k for k in (edge, node) if k)


def _mark(side: Side, ref: TripleRef, status: Status) -> None:
    if ref.index < 0:
        return  # the TOP triple: listed, drawn by the root's double border
    node, edge = side.scene.node_key(ref.index), side.scene.edge_key(ref.index)
    if edge is not None:
        # a relabelled attribute keeps its edge: only the value changed
        side.edges[edge] = "matched" if status == "relabelled" else status
    if node is not None:
        side.nodes[node] = status


def _triple_rows(explanation: Explanation, cand: Side, ref: Side) -> list[TripleRow]:
    rows: list[TripleRow] = []
    pairs = relabels(explanation.missing, explanation.extra, explanation.alignment)
    paired = {id(r) for pair in pairs for r in pair}
    for before, after in pairs:
        rows.append(_row("relabelled", cand, ref, after, before))
    for c, r in explanation.matched:
        rows.append(_row("matched", cand, ref, c, r))
    for r in explanation.missing:
        if id(r) not in paired:
            rows.append(_row("missing", cand, ref, None, r))
    for c in explanation.extra:
        if id(c) not in paired:
            rows.append(_row("extra", cand, ref, c, None))
    rows.sort(key=_row_order)
    return rows


def _row(
    status: Status, cand: Side, ref: Side, c: TripleRef | None, r: TripleRef | None
) -> TripleRow:
    if c is not None:
        _mark(cand, c, status)
    if r is not None:
        _mark(ref, r, status)
    if status == "relabelled" and c is not None and r is not None:
        # each side's node (concept or constant) names the value it replaces
        for side, own, other in ((cand, c, r), (ref, r, c)):
            node = side.scene.node_key(own.index)
            if node is not None:
                side.partners[node] = other.graph.triples[other.index][2]
    return TripleRow(
        status,
        locate(c) if c is not None else None,
        locate(r) if r is not None else None,
        _keys(cand.scene, c),
        _keys(ref.scene, r),
    )


def _row_order(row: TripleRow) -> tuple[int, int, int, int]:
    place = row.reference or row.candidate
    assert place is not None
    # reference places first, as a diff lists the old file's first
    side = 0 if row.reference else 1
    return (STATUS_ORDER[row.status], side, place.line, place.column)


def _mark_relabelled(
    explanation: Explanation, links: list[Link], cand: Side, ref: Side
) -> None:
    """Aligned nodes whose labels differ: each names the other's label.

    The main partner of each candidate node is its ``alignment`` partner
    (or, without one, the link of most weight), so an n:m alignment marks
    one partner per node, not every node a flow touches.
    """
    main: dict[str, tuple[str, float]] = {}
    for link in links:
        known = main.get(link.candidate)
        if known is None or link.weight > known[1]:
            main[link.candidate] = (link.reference, link.weight)
    for variable, partner in explanation.alignment.items():
        key = variable_key(variable)
        if partner is not None and key in main:
            main[key] = (variable_key(partner), main[key][1])
    labels_c = {node.key: node.label for node in cand.scene.nodes}
    labels_r = {node.key: node.label for node in ref.scene.nodes}
    for c, (r, _) in main.items():
        a, b = labels_c.get(c), labels_r.get(r)
        if a is None or b is None or normalize_label(a) == normalize_label(b):
            continue
        cand.nodes[c] = ref.nodes[r] = "relabelled"
        cand.partners[c] = b
        ref.partners[r] = a


# --- the metric's own units ------------------------------------------------------


def _unit_rows(explanation: Explanation) -> Iterator[UnitRow]:
    for group, items in explanation.units.items():
        for item in items:
            yield UnitRow(group, _unit_text(item), tuple(map(locate, _refs_in(item))))


def _unit_text(item: Any) -> str:
    if isinstance(item, tuple):
        if all(isinstance(part, (str, int, float)) for part in item):
            text, *counts = item  # SemBleu: (n-gram, count)
            return f"{text} ×{counts[0]}" if counts else str(text)
        return str(item[0])  # a matched pair: the candidate's unit
    return str(item)


def _refs_in(item: Any) -> Iterable[TripleRef]:
    """Every triple a unit names (its fields, or a matched pair's parts)."""
    if isinstance(item, TripleRef):
        yield item
    elif isinstance(item, tuple):
        for part in item:
            yield from _refs_in(part)
    elif dataclasses.is_dataclass(item):
        for f in dataclasses.fields(item):
            value = getattr(item, f.name)
            if isinstance(value, (TripleRef, tuple)):
                yield from _refs_in(value)
