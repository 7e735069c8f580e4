"""One layout for both graphs of a pair: aligned nodes in the same places.

Layer: render. Two graphs laid out one by one share nothing: a node
moved, added or relabelled reshuffles the whole drawing, and the eye
cannot find what changed. Here the *union* of the pair is laid out once
by ``dot`` — every reference node and edge, and the candidate's own
(unaligned) ones, an aligned node or matched edge once for both sides —
and each side is then drawn by ``neato -n2`` at the union's places, on
the union's frame. Aligned nodes therefore stand in the same place in
both drawings; what only one side has fills a place the other leaves
empty; only the changed parts differ.

The union keeps each author's order of children: a node's out-edges are
the reference's in its order, with the candidate's own edges merged in
after the edge they follow in the candidate's text (``ordering=out``).

Which node is which comes from the pair's explanation: the node links (a
1:1 alignment, or the heaviest links of an n:m one, one partner per
node) and the triple rows that pair a candidate triple with a reference
triple (their edges, and the constants of attribute triples).

Example:
    >>> from amrcheck.reading.corpus import decode
    >>> from amrcheck.metrics import get_metric
    >>> from amrcheck.render.compare import pair_view
    >>> view = pair_view(decode('(a / and :op1 (x / x) :op2 (z / z))'),
    ...                  decode('(a / and :op1 (x / x) :op2 (y / y))'),
    ...                  get_metric('smatch'))
    >>> drawing = pair_drawing(view, "r-", "c-")
    >>> sorted(drawing.partner.items())  # nodes, and edges between partners
    [('e:1', 'e:1'), ('e:3', 'e:3'), ('v:a', 'v:a'), ('v:x', 'v:x'), ('v:z', 'v:y')]
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .compare import Link, PairView, Side, TripleRow
from .drawing import (
    _GRAPH,
    Placement,
    _attrs,
    edge_looks,
    node_looks,
    quote,
    scene_dot,
)
from .layout import LayoutError, graphviz_program, lay_out, positions

Progress = Callable[[int], None]

#: the font size of node labels (drawing._GRAPH), and a label's markup
_FONT_SIZE = 11
_TAG_RE = re.compile(r"<[^>]*>")
_SIZE_RE = re.compile(r'point-size="([\d.]+)"')
#: room around the union's frame: a side's own label may be a little wider
#: than the union's guess, and must not move the frame
_MARGIN = 10.0


@dataclass(slots=True)
class PairDrawing:
    """Both sides of a pair, their element ids' prefixes, and which
    candidate element (scene key) stands for which reference element."""

    reference: Side
    candidate: Side
    reference_prefix: str
    candidate_prefix: str
    #: candidate scene key -> reference scene key (nodes and edges), 1:1
    partner: dict[str, str] = field(default_factory=dict)

    def union_dot(self) -> str:
        """The union graph as DOT, each element named by its union id."""
        nodes, edges = self._union()
        lines = [f"digraph {quote('union')} {{\n{_GRAPH}"]
        for name, look in nodes.items():
            lines.append(f"{quote(name)} [{_attrs(look)}];\n")
        for name, (source, target, look) in edges.items():
            lines.append(
                f"{quote(source)} -> {quote(target)} "
                f"[id={quote(name)} {_attrs(look)}];\n"
            )
        lines.append("}\n")
        return "".join(lines)

    def placed_dots(self, layout: dict[str, Any]) -> tuple[str, str]:
        """The reference's and the candidate's DOT at the places of ``layout``
        (``dot -Tjson0`` of :meth:`union_dot`)."""
        places: dict[str, dict[str, str]] = {}
        for item in layout.get("objects", []):
            if "pos" in item:
                places[item["name"]] = {
                    "pos": item["pos"], "width": item["width"],
                    "height": item["height"],
                }
        for item in layout.get("edges", []):
            if "pos" in item:
                look = {"pos": item["pos"]}
                for label in ("lp", "xlp"):
                    if label in item:
                        look[label] = item[label]
                places[item["id"]] = look
        left, bottom, right, top = (float(v) for v in layout["bb"].split(","))
        left, bottom, right, top = (
            left - _MARGIN, bottom - _MARGIN, right + _MARGIN, top + _MARGIN
        )
        drawn = []
        for side, letter in ((self.reference, "r"), (self.candidate, "c")):
            ids = self._ids(letter)
            nodes = {
                n.key: places[ids[n.key]] for n in side.scene.nodes
                if ids[n.key] in places
            }
            edges = {
                e.key: places[ids[e.key]] for e in side.scene.edges
                if ids[e.key] in places
            }
            prefix = self.reference_prefix if letter == "r" else self.candidate_prefix
            placement = Placement(nodes, edges, (left, bottom, right, top))
            drawn.append(scene_dot(side, prefix, placement=placement))
        return drawn[0], drawn[1]

    # -- the union --------------------------------------------------------

    def _ids(self, letter: str) -> dict[str, str]:
        """Scene key of one side -> union id (a candidate element with a
        reference partner takes the partner's)."""
        if letter == "r":
            scene = self.reference.scene
            return {
                key: f"r{key}"
                for key in [n.key for n in scene.nodes] + [e.key for e in scene.edges]
            }
        scene = self.candidate.scene
        return {
            key: f"r{self.partner[key]}" if key in self.partner else f"c{key}"
            for key in [n.key for n in scene.nodes] + [e.key for e in scene.edges]
        }

    def _union(
        self,
    ) -> tuple[dict[str, dict[str, str]], dict[str, tuple[str, str, dict[str, str]]]]:
        ref_ids, cand_ids = self._ids("r"), self._ids("c")
        nodes: dict[str, dict[str, str]] = {}
        for node, look in node_looks(self.reference, ""):
            nodes[ref_ids[node.key]] = {"id": ref_ids[node.key], **_shape(look)}
        for node, look in node_looks(self.candidate, ""):
            name = cand_ids[node.key]
            known = nodes.get(name)
            # a shared node is as wide as the wider of its two labels
            if known is None or _width(look) > _width(known):
                nodes[name] = {"id": name, **_shape(look)}
        edges: dict[str, tuple[str, str, dict[str, str]]] = {}
        order: dict[str, list[str]] = {}
        for edge, look in edge_looks(self.reference, ""):
            name = ref_ids[edge.key]
            source = ref_ids[edge.source]
            edges[name] = (source, ref_ids[edge.target], _edge_shape(look))
            order.setdefault(source, []).append(name)
        cursor: dict[str, int] = {}
        for edge, look in edge_looks(self.candidate, ""):
            name, source = cand_ids[edge.key], cand_ids[edge.source]
            out = order.setdefault(source, [])
            if name in edges:
                cursor[source] = out.index(name) + 1
                continue
            edges[name] = (source, cand_ids[edge.target], _edge_shape(look))
            at = cursor.get(source, 0)
            out.insert(at, name)
            cursor[source] = at + 1
        # the DOT lists each node's out-edges in the merged order
        ordered = {name: edges[name] for source in order for name in order[source]}
        return nodes, ordered


def _shape(look: dict[str, str]) -> dict[str, str]:
    """What sizes a node (its label and border), not what colours it."""
    return {k: v for k, v in look.items() if k in ("label", "peripheries", "style")}


def _edge_shape(look: dict[str, str]) -> dict[str, str]:
    return {k: v for k, v in look.items() if k in ("label", "xlabel", "constraint")}


def _width(look: dict[str, str]) -> float:
    """A label's width in points, roughly (its text without markup, at its
    font size), to pick the wider of two."""
    label = look.get("label", "")
    width, line, size, at = 0.0, 0.0, float(_FONT_SIZE), 0
    for tag in _TAG_RE.finditer(label + "<br/>"):
        line += len(html.unescape(label[at:tag.start()])) * size * 0.6
        at = tag.end()
        found = _SIZE_RE.search(tag.group(0))
        if found:
            size = float(found.group(1))
        elif tag.group(0).startswith("</font"):
            size = float(_FONT_SIZE)
        elif tag.group(0).startswith("<br"):
            width, line = max(width, line), 0.0
    return width


def pair_drawing(
    view: PairView, reference_prefix: str, candidate_prefix: str
) -> PairDrawing:
    """The drawing of ``view``'s two sides on one layout."""
    drawing = PairDrawing(
        view.reference, view.candidate, reference_prefix, candidate_prefix
    )
    drawing.partner = _partners(
        view.reference, view.candidate, view.links, view.triples
    )
    return drawing


def _partners(
    reference: Side, candidate: Side, links: Sequence[Link], rows: Sequence[TripleRow]
) -> dict[str, str]:
    """Candidate scene key -> reference scene key, one partner each: nodes
    from the links (heaviest first) and the rows, then edges."""
    ref_nodes = {n.key for n in reference.scene.nodes}
    cand_nodes = {n.key for n in candidate.scene.nodes}
    partner: dict[str, str] = {}
    taken: set[str] = set()

    def pair(c: str, r: str) -> None:
        if c not in partner and r not in taken:
            partner[c] = r
            taken.add(r)

    heaviest = sorted(links, key=lambda k: -k.weight)
    linked = [(k.candidate, k.reference) for k in heaviest]
    written = [
        (c, r) for row in rows
        for c, r in zip(row.candidate_keys, row.reference_keys, strict=False)
    ]
    for c, r in linked + written:
        if c in cand_nodes and r in ref_nodes:
            pair(c, r)
    for c, r in _shared_edges(reference, candidate, written, partner):
        pair(c, r)
    return partner


def _shared_edges(
    reference: Side,
    candidate: Side,
    written: list[tuple[str, str]],
    partner: dict[str, str],
) -> list[tuple[str, str]]:
    """The pairs of edges a triple row pairs whose ends are partners too."""
    ref_edges = {e.key: e for e in reference.scene.edges}
    cand_edges = {e.key: e for e in candidate.scene.edges}
    found = []
    for c, r in written:
        a, b = cand_edges.get(c), ref_edges.get(r)
        if (
            a is not None and b is not None
            and partner.get(a.source) == b.source
            and partner.get(a.target) == b.target
        ):
            found.append((c, r))
    return found


def lay_out_pairs(
    drawings: Sequence[PairDrawing],
    jobs: int = 1,
    progress: Progress | None = None,
    titles: Callable[[str], str | None] | None = None,
) -> list[tuple[str, str]]:
    """Each pair's (reference SVG, candidate SVG), on one layout per pair.

    ``dot`` lays out the unions (a batch of pairs per process), ``neato
    -n2`` draws the sides at their places; ``progress`` counts pairs.
    """
    if not drawings:
        return []
    for program in ("dot", "neato"):  # missing: said at once, not per pair
        graphviz_program(program)
    unions = [d.union_dot() for d in drawings]
    try:
        layouts: list[dict[str, Any] | None] = list(positions(unions, jobs))
    except LayoutError:
        # one graph can fail a whole batch: each on its own, and a pair
        # whose union dot cannot lay out is drawn side by side unshared
        layouts = [_position(union) for union in unions]
    placed: list[str] = []
    unshared: list[str] = []
    for drawing, layout in zip(drawings, layouts, strict=True):
        if layout is None:
            unshared += [
                scene_dot(drawing.reference, drawing.reference_prefix),
                scene_dot(drawing.candidate, drawing.candidate_prefix),
            ]
        else:
            placed.extend(drawing.placed_dots(layout))

    def sides_done(count: int) -> None:
        if progress is not None:
            progress(count // 2)

    drawn = iter(
        lay_out(placed, jobs, sides_done, titles, placed=True) if placed else []
    )
    alone = iter(lay_out(unshared, jobs, sides_done, titles) if unshared else [])
    return [
        (next(alone), next(alone)) if layout is None else (next(drawn), next(drawn))
        for layout in layouts
    ]


def _position(union: str) -> dict[str, Any] | None:
    try:
        return positions([union])[0]
    except LayoutError:
        return None
