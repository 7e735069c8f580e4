"""Scenes as Graphviz DOT: shapes, labels and the colour of each status.

Layer: render. :func:`scene_dot` writes one graph (its :class:`Side`:
the scene and the status of each element) as a DOT ``digraph`` that
Graphviz lays out (:mod:`amrcheck.render.layout`); :func:`text_dot`
writes a graph that does not parse as its text and its errors, so that
it is shown, never dropped.

The colours live here, once, as DOT attributes: an SVG or PNG is
coloured by itself, without a style sheet, and every front end (the HTML
reports, the editor's webview) shows the same colours. Each element also
carries its status as an SVG class (``node missing``, ``edge extra``) and
an id (``prefix`` + scene key), which style sheets and scripts use for
highlighting.

Example:
    >>> from amrcheck.reading.corpus import decode
    >>> from amrcheck.render.compare import single_view
    >>> dot = scene_dot(single_view(decode('(b / boy)'), "extra"), "g1-")
    >>> print(dot.splitlines()[-2])  # doctest: +ELLIPSIS
    n0 [id="g1-v:b" class="extra root" color="#137333" ... peripheries="2"];
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from html import escape

from .compare import Side, Status
from .scene import SceneEdge, SceneNode

#: Graphviz attributes of nodes and edges per status (None: not scored)
PALETTE: dict[Status | None, dict[str, str]] = {
    None: {"color": "#5f6368", "fillcolor": "#ffffff", "fontcolor": "#202124"},
    "matched": {"color": "#5f6368", "fillcolor": "#f1f3f4", "fontcolor": "#202124"},
    "missing": {
        "color": "#c5221f", "fillcolor": "#fce8e6", "fontcolor": "#a50e0e",
        "style": "dashed", "penwidth": "2",
    },
    "extra": {
        "color": "#137333", "fillcolor": "#e6f4ea", "fontcolor": "#0d652d",
        "penwidth": "2",
    },
    "relabelled": {
        "color": "#b06000", "fillcolor": "#fef7e0", "fontcolor": "#7a4100",
        "penwidth": "2",
    },
}


def status_legend(roles: tuple[str, str]) -> dict[Status, str]:
    """What each status means, in the roles of the two graphs: ``("the old
    graph", "the new graph")`` for a diff, ``("the reference", "the
    candidate")`` for scores, ``("the reference", "this file")`` in an
    editor."""
    first, second = roles
    return {
        "matched": "in both graphs",
        "missing": f"only in {first}",
        "extra": f"only in {second}",
        "relabelled": "aligned, other concept or value",
    }

#: the colour of a node's note (its aligned words)
NOTE_COLOUR = "#1967d2"
_FONT = "Helvetica"
_MONO = "Courier"
_SMALL = 9
_GRAPH = (
    f'graph [rankdir=TB ordering=out nodesep=0.25 ranksep=0.4 bgcolor="transparent" '
    f'pad=0.08 fontname="{_FONT}" fontsize=12 labeljust=l];\n'
    f'node [fontname="{_FONT}" fontsize=11 shape=box height=0.3 margin="0.08,0.04"];\n'
    f'edge [fontname="{_FONT}" fontsize={_SMALL} arrowsize=0.7];\n'
)


class Html(str):
    """A Graphviz HTML-like label (written as ``<...>``, not quoted)."""


def quote(text: str) -> str:
    """A DOT double-quoted string (backslashes kept literally)."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _attrs(values: dict[str, str]) -> str:
    return " ".join(
        f"{key}=<{value}>" if isinstance(value, Html) else f"{key}={quote(value)}"
        for key, value in values.items()
    )


def _escape(text: str) -> str:
    return escape(text, quote=False)


def _styled(status: Status | None, style: str) -> dict[str, str]:
    look = dict(PALETTE[status])
    look["style"] = ",".join(s for s in (style, look.get("style", "")) if s)
    return look


@dataclass(frozen=True, slots=True)
class Placement:
    """Where a layout made elsewhere put each element (Graphviz attributes,
    keyed by scene key: ``pos``, ``width``, ``height`` of nodes; ``pos``
    and ``lp`` of edges) and the frame (``llx,lly,urx,ury``, points) the
    drawing spans. A placed scene is drawn by ``neato -n2``, which keeps
    every given place (:mod:`amrcheck.render.union`)."""

    nodes: Mapping[str, Mapping[str, str]]
    edges: Mapping[str, Mapping[str, str]]
    frame: tuple[float, float, float, float]


def node_looks(side: Side, prefix: str) -> list[tuple[SceneNode, dict[str, str]]]:
    """Each node of ``side`` and its Graphviz attributes (id, class, colours,
    label)."""
    looks = []
    for node in side.scene.nodes:
        status = side.nodes.get(node.key)
        classes = " ".join(
            c for c in (status or "plain", "root" if node.root else "") if c
        )
        if node.kind == "concept":
            look = _styled(status, "rounded,filled")
            # a no-break space: SVG viewers drop a leading plain one
            label = (
                f'<font color="#80868b" point-size="{_SMALL}">'
                f"{_escape(node.variable or '')}</font>&#160;{_escape(node.label)}"
            )
        else:
            look = _styled(status, "filled")
            label = _escape(node.label)
        partner = side.partners.get(node.key)
        if partner is not None:
            label += (
                f'<br/><font color="#b06000" point-size="{_SMALL}">'
                f"≠ {_escape(partner)}</font>"
            )
        note = side.notes.get(node.key)
        if note is not None:
            label += (
                f'<br/><font color="{NOTE_COLOUR}" point-size="{_SMALL}">'
                f"{_escape(note)}</font>"
            )
        look["label"] = Html(label)
        if node.root:
            look["peripheries"] = "2"
        looks.append((node, {"id": prefix + node.key, "class": classes, **look}))
    return looks


def edge_looks(side: Side, prefix: str) -> list[tuple[SceneEdge, dict[str, str]]]:
    """Each edge of ``side`` and its Graphviz attributes.

    A re-entrancy (a second edge into a node written elsewhere) does not
    rank its target: the drawing's tree is the one the author wrote, and
    with ``ordering=out`` each node's children stand left to right in the
    order they are written.
    """
    looks = []
    for edge in side.scene.edges:
        status = side.edges.get(edge.key)
        look = {
            "id": prefix + edge.key,
            "class": status or "plain",
            "label": edge.role,
            **{
                k: v for k, v in PALETTE[status].items()
                if k in ("color", "fontcolor", "style", "penwidth")
            },
        }
        if edge.reentrant:
            # an xlabel is placed after the layout: Graphviz 2.43 corrupts
            # its memory on a labelled edge that does not rank (constraint=false)
            look["xlabel"] = look.pop("label")
            look["constraint"] = "false"
        looks.append((edge, look))
    return looks


def scene_dot(
    side: Side,
    prefix: str,
    title: str | None = None,
    placement: Placement | None = None,
) -> str:
    """One graph as DOT; element ids are ``prefix`` + scene key.

    ``title`` (an id and sentence, for standalone pictures) is drawn
    above the graph. With a ``placement`` every element gets its place,
    and two invisible points span the frame, so that both drawings of a
    pair have the same size and their shared nodes the same places.
    """
    lines = [_open(prefix, title)]
    names: dict[str, str] = {}
    for number, (node, look) in enumerate(node_looks(side, prefix)):
        name = names[node.key] = f"n{number}"
        if placement is not None:
            look.update(placement.nodes.get(node.key, {}))
        lines.append(f"{name} [{_attrs(look)}];\n")
    for edge, look in edge_looks(side, prefix):
        if placement is not None:
            look.update(placement.edges.get(edge.key, {}))
        source, target = names[edge.source], names[edge.target]
        lines.append(f"{source} -> {target} [{_attrs(look)}];\n")
    if placement is not None:
        left, bottom, right, top = placement.frame
        for corner, (x, y) in enumerate(((left, bottom), (right, top))):
            lines.append(
                f'frame{corner} [shape=point style=invis width=0 height=0 '
                f'label="" pos="{x:g},{y:g}"];\n'
            )
    lines.append(_close(title))
    return "".join(lines)


def _open(prefix: str, title: str | None) -> str:
    # a title is the label of a cluster around the graph, not of the graph:
    # packing several graphs into one picture (gvpack) keeps cluster labels
    head = f"digraph {quote(prefix)} {{\n{_GRAPH}"
    if title:
        head += (
            f"subgraph cluster_title {{\nlabel={quote(title)}; labelloc=t; "
            'pencolor="transparent";\n'
        )
    return head


def _close(title: str | None) -> str:
    return "}\n}\n" if title else "}\n"


def text_dot(
    text: str, errors: Sequence[str], prefix: str, title: str | None = None
) -> str:
    """A graph that does not parse: its text and its errors, in one box."""
    rows = "".join(
        f"{_escape(line) or ' '}<br align=\"left\"/>"
        for line in text.rstrip("\n").split("\n")
    )
    problems = "".join(
        f'<font color="#a50e0e">{_escape(error)}</font><br align="left"/>'
        for error in errors
    )
    look = {
        "id": prefix + "text",
        "class": "unparsed",
        "shape": "box",
        "style": "filled,dashed",
        "color": "#c5221f",
        "fillcolor": "#fffafa",
        "fontname": _MONO,
        "fontsize": "10",
        "label": Html(rows + problems),
    }
    return f"{_open(prefix, title)}text [{_attrs(look)}];\n{_close(title)}"


def tooltips(side: Side, prefix: str, places: bool = True) -> dict[str, str]:
    """What each element's SVG ``<title>`` shows: ``w / want-01``,
    ``(w :ARG0 b)``, with ``line:col`` when ``places``. Keys are element
    ids (``prefix`` + scene key), as :func:`scene_dot` sets them."""
    graph = side.graph
    found: dict[str, str] = {}
    for node in side.scene.nodes:
        text = f"{node.variable} / {node.label}" if node.variable else node.label
        if places:
            text += f"  {node.span.line}:{node.span.column}"
        note = side.notes.get(node.key)
        found[prefix + node.key] = text if note is None else f"{text}  · {note}"
    for edge in side.scene.edges:
        source, role, target = graph.triples[edge.triple]
        found[prefix + edge.key] = f"({source} {role} {target})"
        if places:
            found[prefix + edge.key] += f"  {edge.span.line}:{edge.span.column}"
    return found
