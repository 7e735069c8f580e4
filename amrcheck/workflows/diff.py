"""What changed between two versions of an annotation file, graph by graph.

Layer: engine, above pairing and the metrics; returns plain data (no
graphs, no spans), so results cross process boundaries cheaply and any
front end can render them.

For each graph (paired by ``::id``, else by position:
:func:`amrcheck.pairing.graphs.match_entries`):

* ``added`` / ``removed``: only the new / only the old file has it;
* ``unchanged``: the two graphs have the same triples up to variable
  names — layout, indentation, variable names, the order of edges, the
  direction an edge is written in (``:ARG0-of``), metadata and comments
  may all differ. Triples are compared after the shared strict
  standardisation (:mod:`amrcheck.standardize`: case-insensitive, quotes
  ignored, inverse roles inverted, sets) under the optimal smatch
  alignment (exact mode), so "unchanged" is never a search artefact;
* ``changed``: anything else. The changes are the triples the alignment
  leaves unmatched: ``removed`` (old triples, with old line numbers),
  ``added`` (new triples, new line numbers) and ``relabel`` (a node's
  concept, or an attribute value of an aligned node and role, replaced:
  one old and one new triple). Variable renames are never changes.
  With ``motifs=True`` the rematch motifs that differ are listed too.

A graph with a syntax error in either version cannot be aligned: it is
``unchanged`` when its text is the same in both files (whitespace aside),
else ``changed`` without triple changes; its ``errors`` say where.

The corpus score (NEW against OLD) counts a new version that cannot be
read, and a removed graph, as an **empty graph**
(:meth:`amrcheck.metrics.Metric.score_missing`: F1 0), so that breaking
or deleting a graph never raises it; ``skip_unreadable=True`` leaves
them out instead. A pair whose OLD graph cannot be read is left out (it
cannot be judged). Added graphs have no reference and are not scored.

Files are streamed (:class:`amrcheck.pairing.streaming.RowStream`), so the graphs
held at once do not grow with the files; each :class:`GraphDiff` keeps
text and line:col numbers, never spans, so it holds no chunk alive.

Example:
    >>> from amrcheck.reading.corpus import read_string
    >>> old = read_string("# ::id 1\\n(w / want-01 :ARG0 (b / boy))\\n", "old.amr")
    >>> new = read_string(
    ...     "# ::id 1\\n(x / want-01 :polarity - :ARG0 (y / girl))\\n", "new.amr")
    >>> result = diff_corpora(old, new)
    >>> graph = result.graphs[0]
    >>> graph.status, round(graph.score.f1, 4)
    ('changed', 0.6667)
    >>> for change in graph.changes:
    ...     print(change)
    ~ old.amr:2:21 (b / boy) -> new.amr:2:33 (y / girl)
    + new.amr:2:14 (x :polarity -)
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, Literal

from ..execution import Jobs, Progress, run_batches
from ..graph import Graph, TripleKind
from ..metrics import (
    BUDGET_OPTIONS,
    Metric,
    Score,
    TripleRef,
    expect_pairs,
    get_metric,
)
from ..metrics.smatch import Smatch, standard_triples
from ..pairing.graphs import PairBy, metric_settings
from ..pairing.streaming import Lineup, Row, RowOrder, RowStream, Sheet
from ..reading.corpus import CHUNK_BYTES, Corpus, graph_count

Status = Literal["added", "removed", "changed", "unchanged"]
STATUSES: tuple[str, ...] = ("added", "removed", "changed", "unchanged")


@dataclass(frozen=True, slots=True)
class Located:
    """A written triple (or motif) and where it is: ``path:line:column``."""

    text: str
    path: str
    line: int
    column: int
    #: (source, role, target) as written, role with its colon; None for motifs
    triple: tuple[str, str, str] | None = None

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.column} {self.text}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "text": self.text,
            "triple": list(self.triple) if self.triple else None,
            "line": self.line,
            "column": self.column,
        }


@dataclass(frozen=True, slots=True)
class Change:
    """One difference: ``removed`` (old only), ``added`` (new only) or ``relabel``."""

    kind: Literal["removed", "added", "relabel"]
    old: Located | None = None
    new: Located | None = None

    @property
    def sign(self) -> str:
        return {"removed": "-", "added": "+", "relabel": "~"}[self.kind]

    def __str__(self) -> str:
        if self.kind == "relabel":
            return f"~ {self.old} -> {self.new}"
        return f"{self.sign} {self.old or self.new}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "change": self.kind,
            "old": self.old.to_dict() if self.old else None,
            "new": self.new.to_dict() if self.new else None,
        }


@dataclass(slots=True)
class GraphDiff:
    """The comparison of one graph's two versions."""

    id: str
    status: Status
    old: tuple[int, int] | None = None  # line, column of the graph in OLD
    new: tuple[int, int] | None = None
    #: the chosen metric's score of new against old: None for added graphs
    #: and where the old graph cannot be read (or with ``skip_unreadable``)
    score: Score | None = None
    #: ``score`` is an empty graph's: the new graph cannot be read, or removed
    counted_empty: bool = False
    #: the corpus score leaves this pair out: the old graph cannot be read,
    #: or the new one cannot be read (or was removed) and ``skip_unreadable``
    left_out: bool = False
    changes: list[Change] = field(default_factory=list)
    #: rematch motif differences (with ``motifs=True``)
    motifs: list[Change] = field(default_factory=list)
    #: the graph text differs although the triples do not
    layout_changed: bool = False
    #: metadata key -> (old value, new value); None = key absent
    metadata: dict[str, tuple[str | None, str | None]] = field(default_factory=dict)
    comments_changed: bool = False
    #: syntax errors of either version, ``file:line:col: CODE message``
    errors: list[str] = field(default_factory=list)

    @property
    def counts(self) -> dict[str, int]:
        """How many changes of each kind (``removed``, ``added``, ``relabel``)."""
        counts = {"removed": 0, "added": 0, "relabel": 0}
        for change in self.changes:
            counts[change.kind] += 1
        return counts

    @property
    def change_counts(self) -> ChangeCounts:
        """:attr:`counts` in the words every front end uses (old = reference)."""
        counts = self.counts
        return ChangeCounts(counts["removed"], counts["added"], counts["relabel"])

    @property
    def header_changed(self) -> bool:
        return bool(self.metadata) or self.comments_changed

    @property
    def scoring_note(self) -> str:
        """How the corpus score counts a graph that has no score of its own
        ("" for one scored as written, or not scored: added)."""
        if self.counted_empty:
            gone = "removed" if self.status == "removed" else "unreadable"
            return f"{gone}: counted as an empty graph"
        return "left out of the score" if self.left_out else ""


@dataclass(slots=True)
class CorpusDiff:
    """Every graph's diff, in file order, and the corpus score of the pairs."""

    old_path: str
    new_path: str
    #: how the graphs were paired (``by``, ``note``) and the files' errors
    matching: Lineup
    metric: str
    settings: dict[str, Any]
    graphs: list[GraphDiff]
    #: the metric's corpus (micro) score over the graphs of OLD (removed
    #: and unreadable new graphs counted as empty graphs)
    total: Score | None = None
    #: whether unreadable and removed graphs were left out of ``total``
    skip_unreadable: bool = False

    @property
    def counted_empty(self) -> int:
        """Graphs counted as empty graphs in :attr:`total`."""
        return sum(graph.counted_empty for graph in self.graphs)

    @property
    def left_out(self) -> int:
        """Pairs of OLD's graphs that :attr:`total` leaves out."""
        return sum(graph.left_out for graph in self.graphs)

    def scoring_gaps(self) -> list[str]:
        """Each graph that :attr:`total` counts as an empty graph or leaves
        out, with its place: its first syntax error, or where a removed
        graph was in OLD."""
        lines = []
        for graph in self.graphs:
            if not graph.scoring_note:
                continue
            note = f"graph {graph.id}: {graph.scoring_note}"
            if graph.errors:
                lines.append(f"{graph.errors[0]} ({note})")
            else:
                line, column = graph.old or (1, 1)
                place = f"{self.old_path}:{line}:{column}"
                lines.append(f"{place}: {note}")
        return lines

    @property
    def summary(self) -> dict[str, int]:
        counts = {status: 0 for status in STATUSES}
        for graph in self.graphs:
            counts[graph.status] += 1
        counts["metadata_only"] = sum(
            g.status == "unchanged" and g.header_changed for g in self.graphs
        )
        return counts

    @property
    def differs(self) -> bool:
        """Whether a graph was added, removed or changed (``diff``'s exit 1)."""
        return any(graph.status != "unchanged" for graph in self.graphs)


# --- rendering written triples ---------------------------------------------


def locate(ref: TripleRef) -> Located:
    """A triple reference as text in its own file's variables, with its place."""
    span = ref.span
    if ref.index < 0:  # the synthetic TOP triple
        return Located(str(ref), span.path, span.line, span.column)
    text = ref.graph.written(ref.index)
    triple = ref.graph.triples[ref.index]
    return Located(text, span.path, span.line, span.column, triple)


# --- one graph ---------------------------------------------------------------

@cache
def diff_aligner(time_budget: float | None = None) -> Smatch:
    """The alignment every diff uses: strict triples, proven optimal.

    ``time_budget``: seconds per pair where a front end sets its own (the
    editor's), for the search and then for the ILP, as ``--time-budget``
    with ``--exact`` (the ILP's own default, 30 s, kept a large graph's
    alignment running for seconds past a budget of 0.01 s, and with it
    every document queued behind it in the editor); None keeps smatch's
    defaults.
    Made on first use: making it loads the compiled search (0.3 s), which
    importing this module should not cost.
    """
    if time_budget is None:
        return Smatch(exact=True)
    return Smatch(exact=True, **dict.fromkeys(BUDGET_OPTIONS, time_budget))


def load_exact_solver() -> None:
    """Load the ILP solver that :func:`diff_aligner` falls back on where its
    search proves nothing (scipy.optimize with HiGHS: about 26 MiB and
    0.2 s), which otherwise comes with the first such pair.

    For a long-lived process (the language server), at its start: that
    pair comes at an edit, which would wait for the import, and the
    memory would seem to grow over the session (issue 20's measure: the
    editor read 95.6 MiB, then 121.1 MiB after 2,000 edits).
    """
    importlib.import_module("scipy.optimize")


Slot = tuple[str | None, str]  # (node in the old graph's variables, role)


def _slots(
    refs: list[TripleRef], alignment: dict[str, str | None] | None
) -> dict[Slot, list[TripleRef]]:
    """Instance and attribute triples by (node, role); new nodes mapped to old."""
    found: dict[Slot, list[TripleRef]] = {}
    for ref in refs:
        if ref.index < 0 or ref.graph.kinds[ref.index] is TripleKind.RELATION:
            continue  # relations and TOP are never relabelled
        source, role, _ = ref.triple
        node = source if alignment is None else alignment.get(source)
        if node is not None:
            found.setdefault((node, role), []).append(ref)
    return found


def relabels(
    missing: list[TripleRef],
    extra: list[TripleRef],
    alignment: dict[str, str | None],
) -> list[tuple[TripleRef, TripleRef]]:
    """(reference triple, candidate triple) pairs that replace one another.

    An instance or attribute triple of the candidate (``extra``) relabels
    one of the reference (``missing``) when its node is aligned to that
    triple's node and the role is the same (a node's concept, or an
    attribute's value), and neither side has another such triple.
    """
    olds = _slots(missing, None)
    pairs = []
    for key, news in _slots(extra, alignment).items():
        candidates = olds.get(key, [])
        if len(candidates) == 1 and len(news) == 1:  # an unambiguous replacement
            pairs.append((candidates[0], news[0]))
    return pairs


@dataclass(frozen=True, slots=True)
class ChangeCounts:
    """How many triples of a pair differ, counted the one way that every
    front end shows (issue 29: the editor said "3 missing, 2 extra" where
    ``diff`` said ``(-1 +2 ~1)``).

    ``missing``: reference triples without a partner; ``extra``: candidate
    triples without one; ``relabelled``: the (missing, extra) pairs that
    replace one another (:func:`relabels`), counted once and not again as
    missing or extra. In ``diff`` the old version is the reference:
    removed triples are missing, added ones extra.

    Example:
        >>> counts = ChangeCounts(missing=1, extra=2, relabelled=1)
        >>> str(counts), counts.compact(), counts.total
        ('1 missing, 2 extra, 1 relabelled', '-1 +2 ~1', 4)
    """

    missing: int = 0
    extra: int = 0
    relabelled: int = 0

    #: what the signs of :meth:`compact` stand for
    LEGEND = "-missing +extra ~relabelled"

    @classmethod
    def of(
        cls,
        missing: list[TripleRef],
        extra: list[TripleRef],
        alignment: dict[str, str | None],
    ) -> ChangeCounts:
        """The counts of an explanation's unmatched triples under its alignment."""
        pairs = len(relabels(missing, extra, alignment))
        return cls(len(missing) - pairs, len(extra) - pairs, pairs)

    @property
    def total(self) -> int:
        """Differences: a relabelling is one."""
        return self.missing + self.extra + self.relabelled

    def __str__(self) -> str:
        return (
            f"{self.missing} missing, {self.extra} extra, "
            f"{self.relabelled} relabelled"
        )

    def compact(self) -> str:
        """``-1 +2 ~1``, the kinds that occur (see :attr:`LEGEND`)."""
        return " ".join(
            f"{sign}{count}"
            for sign, count in (
                ("-", self.missing), ("+", self.extra), ("~", self.relabelled)
            )
            if count
        )


def triple_changes(
    old: Graph, new: Graph, aligner: Smatch | None = None
) -> list[Change]:
    """The triples that differ between two graphs under the optimal alignment.

    Empty when the graphs are the same up to variable names. Relabels
    pair a removed and an added triple on aligned nodes with the same
    role (an instance's concept, or an attribute's value).
    """
    aligner = aligner if aligner is not None else diff_aligner()
    explanation = aligner.score(new, old, explain=True).explanation
    assert explanation is not None
    removed, added = explanation.missing, explanation.extra
    relabelled = {
        id(after): before
        for before, after in relabels(removed, added, explanation.alignment)
    }
    paired_old = {id(ref) for ref in relabelled.values()}
    changes = [
        Change("removed", old=locate(ref))
        for ref in removed
        if id(ref) not in paired_old
    ]
    for ref in added:
        previous = relabelled.get(id(ref))
        if previous is not None:
            changes.append(Change("relabel", old=locate(previous), new=locate(ref)))
        else:
            changes.append(Change("added", new=locate(ref)))
    return sorted(changes, key=_order)


def _order(change: Change) -> tuple[int, int, int]:
    place = change.old or change.new
    assert place is not None
    # old-file places first (removals, relabels), then new-file additions
    return (0 if change.old else 1, place.line, place.column)


def motif_changes(old: Graph, new: Graph) -> list[Change]:
    """The rematch motifs of one version only, placed at their first source."""
    score = get_metric("rematch").score(new, old, explain=True)
    assert score.explanation is not None
    units = score.explanation.units
    changes = []
    for kind, key in (("removed", "missing"), ("added", "extra")):
        for motif in units.get(key, []):
            first = min(motif.sources, key=lambda ref: ref.span.start)
            span = first.span
            place = Located(str(motif), span.path, span.line, span.column)
            changes.append(
                Change("removed", old=place)
                if kind == "removed"
                else Change("added", new=place)
            )
    return sorted(changes, key=_order)


def _metadata_changes(
    old: Sheet, new: Sheet
) -> dict[str, tuple[str | None, str | None]]:
    keys = list(old.metadata) + [k for k in new.metadata if k not in old.metadata]
    return {
        key: (old.metadata.get(key), new.metadata.get(key))
        for key in keys
        if old.metadata.get(key) != new.metadata.get(key)
    }


#: how a metadata value that one version does not have is written
ABSENT = "(none)"

MetadataChangeKind = Literal["added", "removed", "changed"]


def metadata_change_kind(before: str | None, after: str | None) -> MetadataChangeKind:
    """Whether a ``::key`` was added, removed or given another value."""
    if before is None:
        return "added"
    return "removed" if after is None else "changed"


def metadata_change_text(key: str, before: str | None, after: str | None) -> str:
    """One metadata change as people read it: ``::key: old → new``.

    A side without the key reads ``(none)``, an empty value ``(empty)``;
    values are shown as written, never quoted.

    Example:
        >>> metadata_change_text("save-date", "Thu Jun 7, 2012", "Mon Sep 18, 2017")
        '::save-date: Thu Jun 7, 2012 → Mon Sep 18, 2017'
        >>> metadata_change_text("zh", "第一章", None)
        '::zh: 第一章 → (none)'
    """

    def shown(value: str | None) -> str:
        if value is None:
            return ABSENT
        return value if value else "(empty)"

    return f"::{key}: {shown(before)} → {shown(after)}"


def metadata_summary(graph: GraphDiff) -> str:
    """A graph's metadata changes in one line, keys only: ``::zh removed,
    ::save-date changed`` ("" when none)."""
    return ", ".join(
        f"::{key} {metadata_change_kind(before, after)}"
        for key, (before, after) in graph.metadata.items()
    )


def metadata_counts(graphs: list[GraphDiff]) -> dict[tuple[str, str], int]:
    """``(key, kind) -> graphs`` over a run, most frequent first: the one
    count per key that replaces a line per graph."""
    counts: dict[tuple[str, str], int] = {}
    for graph in graphs:
        for key, (before, after) in graph.metadata.items():
            slot = (key, metadata_change_kind(before, after))
            counts[slot] = counts.get(slot, 0) + 1
    return dict(sorted(counts.items(), key=lambda item: (-item[1], item[0])))


def _place(sheet: Sheet | None) -> tuple[int, int] | None:
    return None if sheet is None else (sheet.line, sheet.column)


def _all_triples(graph: Graph, kind: Literal["removed", "added"]) -> list[Change]:
    standard = diff_aligner().standardize(graph)
    located = [locate(ref) for ref in standard_triples(standard)]
    if kind == "removed":
        found = [Change("removed", old=place) for place in located]
    else:
        found = [Change("added", new=place) for place in located]
    return sorted(found, key=_order)


class GraphDiffer:
    """Picklable ``row -> (order, GraphDiff)`` for worker processes.

    Rows are :class:`amrcheck.pairing.streaming.RowStream`'s, old file first.
    """

    def __init__(
        self, metric: Metric, motifs: bool = False, skip_unreadable: bool = False
    ) -> None:
        self.metric = metric
        self.motifs = motifs
        self.skip_unreadable = skip_unreadable

    def __call__(self, row: Row) -> tuple[RowOrder, GraphDiff]:
        order, key, (old, new) = row
        return order, self.compare(key, old, new)

    def compare(self, key: str, old: Sheet | None, new: Sheet | None) -> GraphDiff:
        result = GraphDiff(key, "unchanged", _place(old), _place(new))
        if old is None or new is None:
            present = old if old is not None else new
            assert present is not None
            result.status = "removed" if new is None else "added"
            result.errors = list(present.errors)
            if present.graph is not None:
                result.changes = _all_triples(
                    present.graph, "removed" if new is None else "added"
                )
            if new is None:  # the old graph is a reference without a candidate
                self._unscored(result, present.graph)
            return result
        result.metadata = _metadata_changes(old, new)
        result.comments_changed = old.comments != new.comments
        result.errors = old.errors + new.errors
        if old.graph is None or new.graph is None:
            broken = [s for s in (old, new) if s.graph is None and not s.errors]
            result.errors += [f"{s.where}: graph {key} is empty" for s in broken]
            result.status = "unchanged" if old.text == new.text else "changed"
            self._unscored(result, old.graph)
            return result
        result.changes = triple_changes(old.graph, new.graph)
        result.status = "changed" if result.changes else "unchanged"
        result.layout_changed = old.graph.text != new.graph.text
        result.score = self.metric.score(new.graph, old.graph)
        if self.motifs and result.changes:
            result.motifs = motif_changes(old.graph, new.graph)
        return result

    def _unscored(self, result: GraphDiff, old: Graph | None) -> None:
        """Score a pair whose new graph is missing or unreadable as an empty
        graph, or leave it out (the old graph unreadable, or asked to)."""
        if old is None or self.skip_unreadable:
            result.left_out = True
        else:
            result.score = self.metric.score_missing(old)
            result.counted_empty = True


#: rows per batch of work; with the reader's chunks and the batches in
#: flight (two per process), this bounds the graphs held at once
CHUNK_ROWS = 128


def diff_corpora(
    old: Corpus | str | Path,
    new: Corpus | str | Path,
    metric: Metric | None = None,
    motifs: bool = False,
    by: PairBy = "auto",
    jobs: Jobs = 1,
    progress: Progress | None = None,
    chunk_rows: int = CHUNK_ROWS,
    chunk_bytes: int = CHUNK_BYTES,
    skip_unreadable: bool = False,
) -> CorpusDiff:
    """Compare two versions of a file graph by graph.

    Files given by path are streamed (:class:`amrcheck.pairing.streaming.RowStream`):
    the graphs held at once are bounded by ``chunk_bytes`` and
    ``chunk_rows``, not by the files; what is kept per graph is its
    :class:`GraphDiff`, which holds no graph and no source text.

    Args:
        old: the earlier version (the reference of every score).
        new: the later version (the candidate).
        metric: scores each pair both versions have (default smatch).
        motifs: also list the rematch motifs that differ.
        by: how graphs are paired (see :func:`amrcheck.pairing.graphs.match_entries`).
        jobs: worker processes or a cluster (results do not depend on it).
        progress: called with the number of graphs finished.
        chunk_rows, chunk_bytes: graphs per batch of work, bytes read at a
            time from each file (results do not depend on them).
        skip_unreadable: leave removed graphs and new graphs that cannot be
            read out of the corpus score instead of counting them as empty
            graphs.

    Returns:
        One :class:`GraphDiff` per graph, in the order of the old file
        (graphs only the new file has come last), and the corpus score.

    Raises:
        PairingError: ``by="id"`` but a file cannot be paired by id.
        InputError: a file cannot be read.
    """
    metric = metric if metric is not None else get_metric("smatch")
    pairs = graph_count(old)
    for prepared in (metric, diff_aligner()):
        expect_pairs(prepared, pairs)
    differ = GraphDiffer(metric, motifs, skip_unreadable)
    stream = RowStream([old, new], by, chunk_bytes)
    found: list[tuple[RowOrder, GraphDiff]] = []

    def work(batches: Iterator[list[Row]]) -> None:
        for results in run_batches(differ, batches, jobs, progress):
            found.extend(results)

    work(stream.in_step(chunk_rows))
    lineup = stream.close()  # the pairing is known once every file was read
    work(stream.waiting(chunk_rows))
    graphs = [graph for _, graph in sorted(found, key=lambda item: item[0])]
    scores = [g.score for g in graphs if g.score is not None]
    old_path, new_path = lineup.paths
    return CorpusDiff(
        old_path,
        new_path,
        lineup,
        metric.name,
        metric_settings(metric),
        graphs,
        metric.aggregate(scores) if scores else None,
        skip_unreadable,
    )
