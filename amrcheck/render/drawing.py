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

from collections.abc import Sequence
from html import escape

from .compare import Side, Status

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
#: what each status means, for legends
STATUS_LEGEND: dict[str, str] = {
    "matched": "in both graphs",
    "missing": "only in the reference (old)",
    "extra": "only in the candidate (new)",
    "relabelled": "aligned, other concept or value",
}
_FONT = "Helvetica"
_MONO = "Courier"
_SMALL = 9
_GRAPH = (
    f'graph [rankdir=TB nodesep=0.25 ranksep=0.4 bgcolor="transparent" '
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


def scene_dot(side: Side, prefix: str, title: str | None = None) -> str:
    """One graph as DOT; element ids are ``prefix`` + scene key.

    ``title`` (an id and sentence, for standalone pictures) is drawn
    above the graph.
    """
    scene = side.scene
    lines = [_open(prefix, title)]
    names: dict[str, str] = {}
    for number, node in enumerate(scene.nodes):
        name = names[node.key] = f"n{number}"
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
        look["label"] = Html(label)
        if node.root:
            look["peripheries"] = "2"
        look = {"id": prefix + node.key, "class": classes, **look}
        lines.append(f"{name} [{_attrs(look)}];\n")
    for edge in scene.edges:
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
        source, target = names[edge.source], names[edge.target]
        lines.append(f"{source} -> {target} [{_attrs(look)}];\n")
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
        found[prefix + node.key] = text
        if places:
            found[prefix + node.key] += f"  {node.span.line}:{node.span.column}"
    for edge in side.scene.edges:
        source, role, target = graph.triples[edge.triple]
        found[prefix + edge.key] = f"({source} {role} {target})"
        if places:
            found[prefix + edge.key] += f"  {edge.span.line}:{edge.span.column}"
    return found
