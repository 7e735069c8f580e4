"""The gates behind ``amr-regress`` and ``amr-iaa``: scores against thresholds, as data.

Layer: engine, above reading, the metrics and :mod:`amrcheck.workflows.config`.
One module per part: ``failures`` (the records and their rendering),
``comparison`` (two files paired and scored), ``head`` (the git reader),
``layers`` (a UMR file's alignment and document-level layers),
``regress`` and ``iaa`` (the gates), ``record`` (a new baseline); every
public name is importable from here. A gate looks at one file at a time
(the files a commit touches) and returns :class:`GateFailure` records;
front ends render them with :func:`render_failures`. Nothing here writes
a user file except :func:`record_baseline`'s caller, on request.

* :class:`RegressGate`: a file against its configured reference (``min-f1``,
  ``max-drop`` vs the committed baseline, ``min-graph-f1``), and a file
  against its own ``HEAD`` version (``max-changed-graphs``,
  ``min-f1-vs-head``), read with one ``git cat-file --batch`` process.
* :class:`IaaGate`: files annotated by several annotators
  (``min-graph-f1``, ``min-mean-f1``).
* On UMR files both also gate the layers the sentence graph leaves out
  (:mod:`.layers`): ``min-layer-f1`` per layer, and a sentence whose
  alignment or document-level triples changed counts in
  ``max-changed-graphs``.

Graphs are paired by ``::id`` when every graph of both files has a
distinct one, else by position
(:func:`amrcheck.pairing.graphs.match_entries`). Metrics take
``score(candidate, reference)``: the checked file is the candidate; the
gold file, the ``HEAD`` version, or the first annotator's file is the
reference. A checked graph that cannot be read, or that is missing,
counts as an empty graph (:meth:`amrcheck.metrics.Metric.score_missing`:
F1 0) in every score a gate compares, so that breaking a graph can never
help a file pass; a reference graph that cannot be read is not scored.
Between annotators (:class:`IaaGate`) an unreadable graph on either side
counts as empty, and a sentence only one annotator has is not scored.
These rules are :func:`amrcheck.pairing.scoring.score_rows`', the loop
``amrcheck score``, the reports and the editor count pairs with.

Example:
    >>> from amrcheck.reading.corpus import read_string
    >>> from amrcheck.metrics import get_metric
    >>> old = read_string("# ::id a\\n(w / want-01 :ARG0 (b / boy))\\n", "HEAD:x.amr")
    >>> new = read_string("# ::id a\\n(w / want-01 :ARG1 (b / boy))\\n", "x.amr")
    >>> result = compare(get_metric("smatch"), old, new)
    >>> round(result.scores["a"].f1, 2)
    0.75
    >>> report = graph_report(result, result.pairs[0], "removed", "added")
    >>> for note in report.notes: print(note)
    HEAD:x.amr:2:14: removed: (w :ARG0 b)
    x.amr:2:14: added: (w :ARG1 b)
"""

from __future__ import annotations

from .comparison import (
    CUT_REMARK,
    Comparison,
    EntryPair,
    compare,
    graph_report,
    graph_reports,
    pair_entries,
    position_failures,
)
from .failures import (
    DEFAULT_SHOW,
    EPSILON,
    FlaggedGraph,
    GateFailure,
    TripleNote,
    render_failures,
    written,
)
from .head import HeadReader
from .iaa import IaaGate
from .layers import CHANGED_LAYERS, changed_remark, layer_changes, layer_failures
from .record import candidate_files, record_baseline
from .regress import RegressGate

__all__ = [
    "CHANGED_LAYERS",
    "CUT_REMARK",
    "Comparison",
    "DEFAULT_SHOW",
    "EPSILON",
    "EntryPair",
    "FlaggedGraph",
    "GateFailure",
    "HeadReader",
    "IaaGate",
    "RegressGate",
    "TripleNote",
    "candidate_files",
    "changed_remark",
    "compare",
    "graph_report",
    "graph_reports",
    "layer_changes",
    "layer_failures",
    "pair_entries",
    "position_failures",
    "record_baseline",
    "render_failures",
    "written",
]
