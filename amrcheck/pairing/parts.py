"""Pairing files cut into parts that separate processes read on their own.

Layer: engine, beside :mod:`amrcheck.pairing.streaming`. With several worker
processes, reading and parsing the files is a large share of the work
(as large as scoring, for cheap metrics); when every process read whole
files, that share would not shrink with more processes. Here each
process reads one part of every file and scores the pairs found there.

This holds only where a part pairs by itself as the whole files pair
(:func:`amrcheck.pairing.graphs.pair_graphs`): every part of every file holds
the same number of entries, and at each position the reference and the
candidates agree on the ``::id`` (by position: any ids). Files are cut
(:func:`plan_parts`) before the same graph-opening lines, which is an
estimate of where entries start; each process checks what it reads
(:func:`pair_part`) and :func:`merge_parts` the rest (ids unique across
parts). If anything does not hold, the caller reads the files whole
instead (:class:`amrcheck.pairing.streaming.PairStream`), so results never
depend on the cut: pairs, keys, order and messages are the same.

Example:
    >>> import tempfile, pathlib
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> text = "".join(f"# ::id {k}\\n(a / b{k})\\n\\n" for k in range(4))
    >>> for name in ("ref.amr", "sys.amr"):
    ...     _ = (folder / name).write_text(text)
    >>> ref, sys_ = str(folder / "ref.amr"), str(folder / "sys.amr")
    >>> plan = plan_parts(ref, [sys_], parts=2, graphs=4, least=1)
    >>> [[p.start for p in files] for files in plan]
    [[0, 0], [38, 38]]
    >>> def read(reading):  # a part's batches, and its report
    ...     batches = []
    ...     while True:
    ...         try:
    ...             batches.append(next(reading))
    ...         except StopIteration as end:
    ...             return batches, end.value
    >>> reads = [read(pair_part(ref, [sys_], files, entries=2)) for files in plan]
    >>> [[pair.id for batch in batches for _, pair in batch] for batches, _ in reads]
    [['0', '1'], ['2', '3']]
    >>> merge_parts(ref, [sys_], [report for _, report in reads])[sys_].by
    'id'
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from dataclasses import dataclass, field, replace
from itertools import zip_longest

from ..reading import Entry
from ..reading.corpus import CHUNK_BYTES, FilePart, split_file
from .graphs import Gap, GraphPair, PairBy
from .streaming import (
    Batch,
    Ledger,
    PairingReport,
    _Source,
    empty_graphs,
    pair_gap,
    step_key,
)

#: fewer graphs per process than this are not worth a cut
MIN_GRAPHS_PER_PART = 256


@dataclass(slots=True)
class PartReport:
    """What one process found in its part (``fits``: the part pairs alone)."""

    fits: bool = True
    #: the reference's ids in this part (when pairing by id), for the
    #: check that no id repeats across parts
    ids: list[str] = field(default_factory=list)
    #: syntax errors of each file (reference first), in file order
    errors: list[list[str]] = field(default_factory=list)
    #: per candidate: its pairs that cannot be scored as written
    gaps: list[list[Gap]] = field(default_factory=list)
    #: per candidate: (reference position, message) of graphs that are metadata only
    empties: list[list[tuple[int, str]]] = field(default_factory=list)

    def note_gap(
        self,
        number: int,
        position: int,
        key: str,
        local: int,
        ledgers: Sequence[Ledger],
    ) -> None:
        """Candidate ``number``'s pair at ``position`` has a graph that won't
        parse (``local``: its position in the part's ledgers)."""
        ref, cand = ledgers
        for message in empty_graphs(key, [(ref, local), (cand, local)]):
            self.empties[number].append((position, message))
        gap = pair_gap(key, ref, local, cand, local)
        assert gap is not None
        self.gaps[number].append(replace(gap, position=position))


def plan_parts(
    reference: str,
    candidates: Sequence[str],
    parts: int,
    graphs: int,
    least: int | None = None,
) -> list[list[FilePart]] | None:
    """Where to cut the files into ``parts``: per part, one range per file.

    ``graphs`` is the reference's number of graph-opening lines; each
    part gets about as many. None when a part would get fewer than
    ``least`` (default :data:`MIN_GRAPHS_PER_PART`) or the files cannot
    be cut (:func:`amrcheck.reading.corpus.split_file`).
    """
    least = MIN_GRAPHS_PER_PART if least is None else least
    if parts < 2 or graphs < parts * least:
        return None
    ordinals = [graphs * k // parts for k in range(parts)]
    files = [split_file(path, ordinals) for path in (reference, *candidates)]
    if any(cut is None for cut in files):
        return None
    return [[cut[k] for cut in files if cut is not None] for k in range(parts)]


def pair_part(
    reference: str,
    candidates: Sequence[str],
    part: Sequence[FilePart],
    by: PairBy = "auto",
    size: int = 128,
    chunk_bytes: int = CHUNK_BYTES,
    entries: int | None = None,
) -> Generator[Batch, None, PartReport]:
    """The pairs of one part, in batches of ``size``; returns what else was found.

    ``part`` has the reference's range first, then each candidate's;
    ``entries`` is how many entries each file's range must hold (None:
    the last part, where the files need only hold as many as each other).
    Reading stops at the first sign that the part does not pair alone.
    """
    sources = [
        _Source(path, chunk_bytes, piece)
        for path, piece in zip((reference, *candidates), part, strict=True)
    ]
    ref_ledger = sources[0].ledger
    first = part[0].first_entry
    report = PartReport(
        gaps=[[] for _ in candidates], empties=[[] for _ in candidates]
    )
    batch: Batch = []
    streams = [source.entries() for source in sources]
    for local, (ref, *cands) in enumerate(zip_longest(*streams)):
        position = first + local
        keys = _step_keys(ref, cands, position, by)
        if keys is None:
            report.fits = False
            return report
        assert ref is not None
        if by != "position":
            report.ids.append(keys[0])
        for number, (cand, key) in enumerate(zip(cands, keys, strict=True)):
            assert cand is not None
            if ref.graph is None or cand.graph is None:
                ledgers = (ref_ledger, sources[number + 1].ledger)
                report.note_gap(number, position, key, local, ledgers)
            if ref.graph is not None:  # an unreadable candidate scores as empty
                batch.append((number, GraphPair(position, key, cand.graph, ref.graph)))
        if len(batch) >= size:
            yield batch
            batch = []
    if batch:
        yield batch
    if entries is not None and any(len(s.ledger) != entries for s in sources):
        report.fits = False  # the cut was not where the estimate put it
    report.errors = [source.ledger.errors for source in sources]
    return report


def _step_keys(
    ref: Entry | None, cands: Sequence[Entry | None], position: int, by: PairBy
) -> list[str] | None:
    """Each candidate's key at ``position``; None when the part does not pair
    alone here: the files hold different numbers of entries, or the ids are
    missing or in another order, or pairing is by position (the whole
    files' sentences are compared: :func:`.graphs.position_mismatches`)."""
    if ref is None or any(cand is None for cand in cands) or by == "position":
        return None
    keys = [
        key
        for cand in cands
        if cand is not None and (key := step_key(ref, cand, position, False))
    ]
    return keys if len(keys) == len(cands) else None


def merge_parts(
    reference: str,
    candidates: Sequence[str],
    reports: Sequence[PartReport],
) -> dict[str, PairingReport] | None:
    """The pairing reports of the whole files (None: the parts do not pair alone)."""
    if not all(report.fits for report in reports):
        return None
    ids = [key for report in reports for key in report.ids]
    if len(set(ids)) != len(ids):  # a repeated id: only the whole files tell how
        return None
    ref_errors = [e for report in reports for e in report.errors[0]]
    merged: dict[str, PairingReport] = {}
    for number, path in enumerate(candidates):
        merged[path] = PairingReport(path, "id").finish(
            ref_errors + [e for report in reports for e in report.errors[number + 1]],
            [m for report in reports for m in report.empties[number]],
            [g for report in reports for g in report.gaps[number]],
        )
    return merged
