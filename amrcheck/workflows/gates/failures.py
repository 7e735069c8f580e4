"""Gate failures as data, and their rendering for a terminal or a hook log."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ...metrics import TripleRef
from ...validation.filecheck import plural

#: how many graphs a failure lists by default
DEFAULT_SHOW = 10
#: scores are compared with this tolerance: the baseline keeps 6 decimals
EPSILON = 1e-6


@dataclass(frozen=True, slots=True)
class TripleNote:
    """One triple that differs, where it is written, and how it differs."""

    ref: TripleRef
    note: str  # "missing from parser/a.amr", "added since HEAD", ...

    def __str__(self) -> str:
        return f"{self.ref.span}: {self.note}: {written(self.ref)}"


def written(ref: TripleRef) -> str:
    """A triple as the file writes it (``:ARG0-of``, not the standardised ``:arg0``).

    The synthetic TOP triple has no text of its own: it reads ``root w``
    (or ``root (w / want-01)`` under the ``concept`` root policy).
    """
    if ref.index < 0:
        source, _, target = ref.triple
        # the root policy decides the TOP triple's target: "top" or the concept
        return f"root {source}" if target == "top" else f"root ({source} / {target})"
    return ref.graph.written(ref.index)


@dataclass(frozen=True, slots=True)
class FlaggedGraph:
    """A graph that fails or got worse, with the triples that differ."""

    label: str  # ::id, or #n (1-based position) when pairing by position
    where: str  # path:line:col of the graph in the checked file
    f1: float | None  # None: the graph could not be scored
    before: float | None = None  # its baseline score, when one is recorded
    notes: tuple[TripleNote, ...] = ()
    remark: str = ""  # "removed since HEAD", "syntax error", ...
    #: other differences, one line each with its place: a UMR sentence's
    #: alignment and document-level triples
    changes: tuple[str, ...] = ()

    def lines(self, metric: str) -> list[str]:
        head = f"{self.where}: graph {self.label}"
        if self.f1 is not None:
            head += f": {metric} F1 {self.f1:.4f}"
        if self.before is not None:
            head += f" (baseline {self.before:.4f})"
        if self.remark:
            head += f": {self.remark}"
        return [head, *(f"  {line}" for line in (*self.notes, *self.changes))]


@dataclass(frozen=True, slots=True)
class GateFailure:
    """One threshold that one file does not meet.

    ``gate`` is the configuration key whose threshold failed (``min-f1``),
    so the message says what to change; ``graphs`` are the graphs to look
    at, worst first; ``details`` are extra lines (unpaired graphs ...).
    """

    path: str
    gate: str
    message: str
    metric: str = ""
    graphs: tuple[FlaggedGraph, ...] = ()
    details: tuple[str, ...] = ()

    def __str__(self) -> str:
        return f"{self.path}: {self.gate}: {self.message}"


def render_failures(
    failures: Iterable[GateFailure], show: int = DEFAULT_SHOW
) -> list[str]:
    """The lines a front end prints: each failure, then up to ``show`` graphs.

    ``show`` <= 0 lists every graph. A graph already listed for the same
    file with the same measure (``smatch``; a UMR layer: ``alignment``) is
    not listed again.
    """
    lines: list[str] = []
    listed: set[tuple[str, str, str]] = set()
    for failure in failures:
        lines.append(str(failure))
        lines.extend(f"  {detail}" for detail in failure.details)
        fresh = [
            g
            for g in failure.graphs
            if (failure.path, g.label, failure.metric) not in listed
        ]
        shown = fresh if show <= 0 else fresh[:show]
        for graph in shown:
            listed.add((failure.path, graph.label, failure.metric))
            lines.extend(graph.lines(failure.metric))
        if len(shown) < len(fresh):
            more = plural(len(fresh) - len(shown), "more graph")
            lines.append(f"... and {more} (--show 0 lists all)")
        if len(fresh) < len(failure.graphs):
            repeated = plural(len(failure.graphs) - len(fresh), "graph")
            lines.append(f"({repeated} listed above)")
    return lines
