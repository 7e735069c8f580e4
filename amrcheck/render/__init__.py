"""Drawing AMR graphs: pictures, HTML reports, and the data editors draw from.

Layer: render, on top of the graph layer, the metrics and the workflows.
Layout is Graphviz's (``dot``, a system program); nothing here places
nodes by hand.

* :func:`graph_scene` — a graph's nodes and edges as written, with places;
* :func:`pair_view` — two graphs and a metric's explanation: the status
  of every element (matched, missing, extra, relabelled), the links
  between aligned nodes (1:1 or n:m), the triples and units with places;
* :func:`scene_dot`, :func:`lay_out`, :func:`picture` — DOT, and Graphviz
  to SVG or PNG (:class:`LayoutError` when Graphviz is missing);
* :func:`pair_drawing`, :func:`lay_out_pairs` — both graphs of a pair on
  one layout, aligned nodes in the same places;
* :func:`graphs_report`, :func:`diff_report`, :func:`score_report`,
  :func:`graphs_picture` — the files ``amrcheck render``, ``diff --html``
  and ``score --html`` write;
* :func:`read_with_words` — a UMR file's words and alignments, which the
  score report draws under each graph and on each node.
"""

from __future__ import annotations

from .compare import (
    Link,
    PairView,
    Side,
    TripleRow,
    UnitRow,
    pair_view,
    single_view,
)
from .drawing import PALETTE, scene_dot, status_legend, text_dot, tooltips
from .html import expanded
from .layout import INSTALL_HINT, LayoutError, lay_out, picture
from .reports import (
    MAX_PICTURE_GRAPHS,
    chosen_entries,
    diff_report,
    graphs_picture,
    graphs_report,
    score_report,
)
from .scene import Scene, SceneEdge, SceneNode, graph_scene
from .union import PairDrawing, lay_out_pairs, pair_drawing
from .words import (
    AlignedWords,
    WordChip,
    aligned_words,
    mark_words,
    read_with_words,
)

__all__ = [
    "AlignedWords",
    "INSTALL_HINT",
    "LayoutError",
    "Link",
    "MAX_PICTURE_GRAPHS",
    "PALETTE",
    "PairDrawing",
    "PairView",
    "Scene",
    "SceneEdge",
    "SceneNode",
    "Side",
    "TripleRow",
    "UnitRow",
    "WordChip",
    "aligned_words",
    "chosen_entries",
    "diff_report",
    "expanded",
    "graph_scene",
    "graphs_picture",
    "graphs_report",
    "lay_out",
    "lay_out_pairs",
    "mark_words",
    "pair_drawing",
    "pair_view",
    "picture",
    "read_with_words",
    "scene_dot",
    "score_report",
    "single_view",
    "status_legend",
    "text_dot",
    "tooltips",
]
