"""Pair, then score each pair or count it as an empty graph: the one loop.

Layer: engine, above :mod:`.graphs` (the pairing rule) and the metrics.
Every score of two files counts their pairs this way: ``amrcheck score``
(:mod:`amrcheck.workflows.evaluate`, whose streamed pairs always have
their reference graph: there the rule is
:func:`amrcheck.metrics.score_pairs`'s, without this loop), the hooks'
gates (:mod:`amrcheck.workflows.gates`), the HTML reports
(:mod:`amrcheck.render.reports`) and the editor's document score and
lenses (``amr_lsp``):

* both graphs can be read: the pair is scored as written;
* the candidate graph cannot be read, or is not there: it counts as an
  **empty graph** against the reference graph
  (:meth:`amrcheck.metrics.Metric.score_missing`: F1 0), so that breaking
  or deleting a graph never raises a score; ``skip_unreadable`` leaves
  such pairs out instead;
* the reference graph cannot be read, or there is none (a graph only the
  candidate has): not scored (it cannot be judged);
* between two annotators (``peers``) neither file is the reference: a
  graph that cannot be read on either side counts as an empty graph
  against the other side's (two unreadable graphs: ``empty(i, None)``),
  and a sentence only one annotator has is not scored.

:func:`score_or_empty` is the loop over pairs in any form (files streamed
in batches call it per batch); :func:`score_rows` calls it on the rows
of two read files (:func:`.graphs.match_entries`).

Example:
    >>> from amrcheck.reading.corpus import read_string
    >>> from amrcheck.metrics import get_metric
    >>> from amrcheck.pairing.graphs import match_entries
    >>> ref = read_string("# ::id 1\\n(a / b)\\n\\n# ::id 2\\n(c / d)\\n", "ref.amr")
    >>> cand = read_string("# ::id 2\\n(c / e\\n\\n# ::id 1\\n(a / b)\\n", "sys.amr")
    >>> smatch = get_metric("smatch")
    >>> rows = score_rows(
    ...     match_entries([ref, cand]),
    ...     lambda whole: [smatch.score(*whole_graphs(row)) for row in whole],
    ...     lambda row, graph: smatch.score_missing(graph),
    ... )
    >>> [(row.key, row.how, round(row.result.f1, 2)) for row in rows]
    [('1', 'scored', 1.0), ('2', 'empty', 0.0)]
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, Literal, TypeVar

from ..graph import Graph
from ..reading import Entry
from .graphs import EntryRow, Matching

#: how a pair counts: scored as written, as an empty graph, or not at all
How = Literal["scored", "empty", "not scored"]

P = TypeVar("P")  # a pair as the caller holds it
S = TypeVar("S")  # what scoring a pair as written gives
E = TypeVar("E")  # what counting a pair as an empty graph gives


def score_or_empty(
    pairs: Sequence[P],
    graphs: Callable[[P], tuple[Graph | None, Graph | None]],
    score: Callable[[Sequence[P]], Sequence[S]],
    empty: Callable[[P, Graph | None], E],
    *,
    peers: bool = False,
    skip_unreadable: bool = False,
) -> list[tuple[How, S | E | None]]:
    """How each pair counts and its result: each pair whose two graphs can
    be read is scored; each other one counts as an empty graph, or not at
    all, by the rules of this module.

    Args:
        pairs: the pairs, in any form; ``graphs(pair)`` gives its
            (candidate, reference) graphs, None where absent or unreadable.
        score: the results of the pairs with both graphs, in their order
            (called once, with all of them: a metric may score a batch at
            once).
        empty: a pair counted as an empty graph against the graph there
            (the reference's; between ``peers`` the one readable side's,
            or None when neither can be read).
        peers: the two files are two annotators' (neither is the reference).
        skip_unreadable: leave out a pair whose candidate cannot be read
            or is absent, instead of counting it as an empty graph.
    """
    sides = [graphs(pair) for pair in pairs]
    whole = [
        pair for pair, (c, r) in zip(pairs, sides, strict=True)
        if c is not None and r is not None
    ]
    scored = iter(score(whole))
    found: list[tuple[How, S | E | None]] = []
    for pair, (candidate, reference) in zip(pairs, sides, strict=True):
        if candidate is not None and reference is not None:
            found.append(("scored", next(scored)))
        elif peers:
            present = reference if reference is not None else candidate
            found.append(("empty", empty(pair, present)))
        elif reference is not None and not skip_unreadable:
            found.append(("empty", empty(pair, reference)))
        else:
            found.append(("not scored", None))
    return found


def row_graphs(row: EntryRow) -> tuple[Graph | None, Graph | None]:
    """(candidate, reference) graphs of a row of two files, reference first
    (None: absent or unreadable)."""
    reference, candidate = row.entries
    return (
        candidate.graph if candidate is not None else None,
        reference.graph if reference is not None else None,
    )


def whole_graphs(row: EntryRow) -> tuple[Graph, Graph]:
    """(candidate, reference) graphs of a row that has both."""
    candidate, reference = row_graphs(row)
    assert candidate is not None and reference is not None
    return candidate, reference


@dataclass(slots=True)
class ScoredRow(Generic[S, E]):
    """One row of two paired files (reference first), and how it counts.

    ``key`` is the row's ``::id``, or ``#n`` by position; an entry is None
    where its file has no graph for the row.
    """

    key: str
    reference: Entry | None
    candidate: Entry | None
    how: How
    result: S | E | None

    @property
    def counted(self) -> bool:
        """Whether the row is in the scores (as written or as an empty graph)."""
        return self.how != "not scored"


def score_rows(
    matching: Matching,
    score: Callable[[Sequence[EntryRow]], Sequence[S]],
    empty: Callable[[EntryRow, Graph | None], E],
    *,
    peers: bool = False,
    skip_unreadable: bool = False,
) -> list[ScoredRow[S, E]]:
    """Every row of two files' ``matching`` (reference first), scored or
    counted as an empty graph by :func:`score_or_empty`.

    ``score`` gets the rows with both graphs (:func:`whole_graphs`),
    ``empty`` a row and the graph it is counted against. Between
    ``peers``, a row that only one file has is not scored.
    """
    paired = [
        row for row in matching.rows
        if row.entries[0] is not None and (row.entries[1] is not None or not peers)
    ]
    counted = iter(score_or_empty(
        paired, row_graphs, score, empty, peers=peers, skip_unreadable=skip_unreadable
    ))
    found: list[ScoredRow[S, E]] = []
    for row in matching.rows:
        reference, candidate = row.entries
        how, result = (
            next(counted)
            if reference is not None and (candidate is not None or not peers)
            else ("not scored", None)
        )
        found.append(ScoredRow(row.key, reference, candidate, how, result))
    return found
