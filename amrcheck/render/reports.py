"""The HTML reports: a file's graphs, a diff of two versions, candidates scored.

Layer: render, on top of the workflows (diff, evaluate) whose results it
draws. Each report is one self-contained page (:mod:`.html`): a summary
table, then one section per graph (pair) with the drawings coloured by
the metric's explanation (:mod:`.compare`), the triples with their
places and the metric's units. Graphs that do not parse are shown as
their text with their errors (``file:line:col: CODE message``), never
dropped. The files are read whole here (a report holds every drawing
anyway), whereas the workflows stream them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass

from ..metrics import Metric, Score, get_metric
from ..metrics.smatch import search_note
from ..pairing.graphs import EntryRow, Gap, PairBy, gap_report, match_entries
from ..pairing.scoring import ScoredRow, score_rows
from ..reading import Entry
from ..reading.corpus import Corpus
from ..span import Span
from ..workflows.diff import (
    Change,
    CorpusDiff,
    GraphDiff,
    diff_aligner,
    metadata_change_text,
)
from ..workflows.evaluate import Evaluation
from .compare import PairView, Side, Status, TripleRow, pair_view, single_view
from .drawing import scene_dot, text_dot, tooltips
from .html import (
    Cell,
    Figure,
    Section,
    Summary,
    SummaryRow,
    number,
    page,
    shown_path,
)
from .layout import ImageFormat, picture
from .union import pair_drawing
from .words import AlignedWords, WordTable, alignment_differences, mark_words

Progress = Callable[[int], None]

#: the line a page of UMR graphs says under its title
WORDS_NOTE = (
    "UMR: each node shows the words it is aligned to (positions: words), or "
    "'unaligned (0-0)'; the sentence's words stand under each drawing; hover "
    "a node to light its words, or a word to light its nodes"
)


# --- pieces shared by the reports ----------------------------------------------


@dataclass(slots=True)
class _Builder:
    """Sections and tooltips of a page under construction."""

    tooltips: dict[str, str]
    sections: list[Section]

    def next_id(self) -> str:
        return f"g{len(self.sections) + 1}"

    def figure(
        self,
        side: Side,
        sid: str,
        letter: str,
        caption: str,
        words: AlignedWords | None = None,
    ) -> Figure:
        prefix = f"{sid}-{letter}-"
        mark_words(side, words)
        self.tooltips.update(tooltips(side, prefix))
        name = "candidate" if letter == "c" else "reference"
        return Figure(
            caption, dot=scene_dot(side, prefix), side=name,
            words=None if words is None else words.chips(),
        )


def _where(entry: Entry) -> str:
    """``file:line:col`` of an entry's graph, the file as reports show it."""
    span = Span(entry.source, entry.graph_start, entry.end)
    return f"{shown_path(span.path)}:{span.line}:{span.column}"


def _unparsed(entry: Entry, caption: str, side: str) -> Figure:
    errors = [str(e) for e in entry.errors] or [f"{_where(entry)}: the graph is empty"]
    return Figure(caption, text=entry.text, errors=errors, side=side)


def _score_text(metric: str, score: Score | None) -> str:
    if score is None:
        return ""
    text = f"{metric} {score.f1:.4f}"
    if score.precision is not None and score.recall is not None:
        text += f" · P {score.precision:.4f} R {score.recall:.4f}"
    return text


def _searched(score: Score, pairs: int) -> str:
    """``; N/M pairs proven optimal, K cut by the time budget`` (smatch's)."""
    note = search_note(score.counts, pairs)
    return "" if note is None else f"; {note}"


def _counts(rows: Sequence[TripleRow]) -> dict[str, int]:
    counts = {"missing": 0, "extra": 0, "relabelled": 0}
    for row in rows:
        if row.status in counts:
            counts[row.status] += 1
    return counts


def _view_section(
    builder: _Builder,
    view: PairView,
    title: str,
    status: str,
    captions: tuple[str, str],
    sentence: str | None,
    words: tuple[AlignedWords | None, AlignedWords | None] = (None, None),
) -> Section:
    """A drawn pair; ``words``: the reference's and the candidate's UMR
    words and alignments (None: not UMR)."""
    sid = builder.next_id()
    mark_words(view.reference, words[0])
    mark_words(view.candidate, words[1])
    drawing = pair_drawing(view, f"{sid}-r-", f"{sid}-c-")
    for side, prefix in ((view.reference, drawing.reference_prefix),
                         (view.candidate, drawing.candidate_prefix)):
        builder.tooltips.update(tooltips(side, prefix))
    figures = [
        Figure(captions[0], side="reference",
               words=None if words[0] is None else words[0].chips()),
        Figure(captions[1], side="candidate",
               words=None if words[1] is None else words[1].chips()),
    ]
    explained = (
        "" if view.explained_by == view.metric
        else f" (drawn with {view.explained_by}'s alignment)"
    )
    section = Section(
        sid, title, status, figures,
        headline=_score_text(view.metric, view.score) + explained,
        sentence=sentence, links=view.links, triples=view.triples,
        units=view.units, unit=view.unit, drawing=drawing,
    )
    builder.sections.append(section)
    return section


# --- amrcheck render FILE -o OUT.html -------------------------------------------


def graphs_report(
    corpus: Corpus,
    entries: Sequence[Entry] | None = None,
    jobs: int = 1,
    progress: Progress | None = None,
    words: WordTable | None = None,
) -> str:
    """Every graph of ``corpus`` (or ``entries`` of it) drawn, as one page;
    a UMR file's graphs with their ``words`` (:func:`~.words.read_with_words`)."""
    chosen = list(corpus.entries if entries is None else entries)
    builder = _Builder({}, [])
    rows = []
    for entry in chosen:
        sid = builder.next_id()
        place = _where(entry)
        own = (words or {}).get(entry.index)
        sentence = entry.metadata.get("snt") or (own.sentence if own else None)
        if entry.graph is None:
            figure = _unparsed(entry, place, "candidate")
            status, nodes = "error", None
        else:
            side = single_view(entry.graph)
            figure = builder.figure(side, sid, "c", place, own)
            figure.errors = [str(e) for e in entry.errors]
            status = "error" if entry.errors else "ok"
            nodes = len(side.scene.nodes)
        builder.sections.append(
            Section(sid, entry.label, status, [figure], sentence=sentence)
        )
        rows.append(
            SummaryRow(
                [
                    Cell(entry.label),
                    Cell(status),
                    number(nodes, 0) if nodes is not None else Cell("-", ""),
                    Cell(str(len(entry.errors)), len(entry.errors)),
                    Cell(sentence or ""),
                ],
                status,
                sid,
            )
        )
    errors = sum(row.status == "error" for row in rows)
    path = shown_path(corpus.path)
    facts = [f"{path}: {len(chosen)} graphs, {errors} with errors"]
    if words:
        facts.append(WORDS_NOTE)
    summary = Summary(["id", "status", "nodes", "errors", "sentence"], rows,
                      ["ok", "error"])
    kind = "UMR sentence graphs" if words else "AMR graphs"
    return page(f"{kind}: {path}", facts, summary, builder.sections,
                builder.tooltips, jobs, progress)


# --- amrcheck diff OLD NEW --html REPORT ---------------------------------------


def _change_rows(changes: Sequence[Change]) -> list[TripleRow]:
    return [
        TripleRow(
            "missing" if c.kind == "removed" else "extra" if c.kind == "added"
            else "relabelled",
            c.new, c.old,
        )
        for c in changes
    ]


def diff_report(
    result: CorpusDiff,
    old: Corpus,
    new: Corpus,
    metric: Metric,
    jobs: int = 1,
    progress: Progress | None = None,
    words: Mapping[str, WordTable] | None = None,
    layers: Mapping[str, Sequence[str]] | None = None,
) -> str:
    """The diff of two versions as a page: changed graphs drawn side by side.

    ``result`` is :func:`amrcheck.workflows.diff.diff_corpora` of ``old``
    and ``new`` with ``metric``; the drawings are coloured by ``metric``'s
    explanation of the new graph against the old (by the diff's own exact
    smatch alignment when ``metric`` has none). UMR files: ``words`` as in
    :func:`score_report`, and ``layers``, the changes of each sentence
    (``snt<N>``) in its other layers (words, alignment, document level),
    one line each: a sentence whose graph is unchanged but whose other
    layers changed is drawn too, with the status ``other layers``.
    """
    builder = _Builder({}, [])
    rows: list[SummaryRow] = []
    lineup = match_entries([old, new], result.matching.by).rows
    tables = words or {}
    pair_words = _PairWords(tables.get(old.path, {}), tables.get(new.path, {}))
    elsewhere = layers or {}
    for graph, row in zip(result.graphs, lineup, strict=True):
        before, after = row.entries
        sid = None
        others = list(elsewhere.get(graph.id, ()))
        status = (
            "other layers" if graph.status == "unchanged" and others else graph.status
        )
        if status != "unchanged" or graph.errors:
            section = _diff_section(
                builder, graph, before, after, metric, pair_words.of(before, after)
            )
            section.status = status
            section.notes += others
            sid = section.sid
        row_of = _diff_row(graph, result.metric, sid)
        row_of.status, row_of.cells[1] = status, Cell(status)
        rows.append(row_of)
        if progress is not None:
            progress(1)
    s = result.summary
    old_path, new_path = shown_path(result.old_path), shown_path(result.new_path)
    facts = [
        f"old: {old_path}   new: {new_path}   "
        f"paired by {result.matching.by}"
        + (f" ({result.matching.note})" if result.matching.note else ""),
        f"{len(result.graphs)} graphs: {s['changed']} changed, {s['added']} added, "
        f"{s['removed']} removed, {s['unchanged']} unchanged",
    ]
    if result.total is not None:
        facts.append(f"corpus score: {_score_text(result.metric, result.total)}")
    if result.counted_empty:
        facts.append(
            f"the score counts {result.counted_empty} graph(s) as empty graphs "
            "(F1 0: removed, or unreadable in new)"
        )
    if result.left_out:
        why = (
            "unreadable in old, or removed or unreadable in new (--skip-unreadable)"
            if result.skip_unreadable
            else "unreadable in old"
        )
        facts.append(f"the score leaves out {result.left_out} graph(s) ({why})")
    facts += result.scoring_gaps()
    facts.append(
        "settings: " + ", ".join(f"{k}={v}" for k, v in result.settings.items())
    )
    if any(tables.values()):
        facts.append(WORDS_NOTE)
    statuses = ["changed", "added", "removed", "unchanged"]
    if any(row.status == "other layers" for row in rows):
        statuses.insert(3, "other layers")
    summary = Summary(
        ["id", "status", result.metric, "P", "R", "−", "+", "~", "notes"],
        rows, statuses, same="unchanged",
    )
    return page(
        f"amrcheck diff: {old_path} → {new_path}", facts, summary,
        builder.sections, builder.tooltips, jobs, roles=("old", "new"),
    )


def _diff_row(graph: GraphDiff, metric: str, sid: str | None) -> SummaryRow:
    score, counts = graph.score, graph.counts
    notes = [f"::{key}" for key in graph.metadata]
    notes += ["comments"] if graph.comments_changed else []
    notes += ["layout"] if graph.layout_changed and graph.status == "unchanged" else []
    notes += [f"{len(graph.errors)} errors"] if graph.errors else []
    notes += [graph.scoring_note] if graph.scoring_note else []
    return SummaryRow(
        [
            Cell(graph.id),
            Cell(graph.status),
            number(score.f1 if score else None),
            number(score.precision if score else None),
            number(score.recall if score else None),
            Cell(str(counts["removed"]), counts["removed"]),
            Cell(str(counts["added"]), counts["added"]),
            Cell(str(counts["relabel"]), counts["relabel"]),
            Cell(", ".join(notes)),
        ],
        graph.status,
        sid,
    )


def _diff_section(
    builder: _Builder,
    graph: GraphDiff,
    before: Entry | None,
    after: Entry | None,
    metric: Metric,
    words: tuple[AlignedWords | None, AlignedWords | None] = (None, None),
) -> Section:
    present = after or before
    sentence = present.metadata.get("snt") if present is not None else None
    shown = words[1] or words[0]
    if sentence is None and shown is not None:
        sentence = shown.sentence
    notes = [
        metadata_change_text(key, old, new)
        for key, (old, new) in graph.metadata.items()
    ]
    if graph.comments_changed:
        notes.append("comments changed")
    if graph.scoring_note:
        notes.append(f"{graph.scoring_note} in the corpus score")
    if (
        before is not None and after is not None
        and before.graph is not None and after.graph is not None
    ):
        view = pair_view(after.graph, before.graph, metric, diff_aligner())
        captions = (f"old · {_where(before)}", f"new · {_where(after)}")
        section = _view_section(
            builder, view, graph.id, graph.status, captions, sentence, words
        )
        section.notes = notes
        return section
    sid = builder.next_id()
    figures = []
    # a graph only one version has is all removed, or all added
    lonely = graph.status != "changed"
    sides: tuple[tuple[Entry | None, str, str, Status], ...] = (
        (before, "reference", "old", "missing"), (after, "candidate", "new", "extra")
    )
    for (entry, side, name, status), own in zip(sides, words, strict=True):
        if entry is None:
            continue
        caption = f"{name} · {_where(entry)}"
        if entry.graph is None:
            figures.append(_unparsed(entry, caption, side))
        else:
            drawn = single_view(entry.graph, status if lonely else None)
            figures.append(builder.figure(drawn, sid, side[0], caption, own))
    section = Section(
        sid, graph.id, graph.status, figures, notes=notes, sentence=sentence,
        triples=_change_rows(graph.changes),
    )
    builder.sections.append(section)
    return section


# --- amrcheck score REF CAND --html REPORT --------------------------------------


def score_report(
    evaluation: Evaluation,
    reference: Corpus,
    candidates: Sequence[Corpus],
    metrics: Sequence[Metric],
    by: PairBy = "auto",
    jobs: int = 1,
    progress: Progress | None = None,
    draw_all: bool = False,
    words: Mapping[str, WordTable] | None = None,
    notes: Sequence[str] = (),
) -> str:
    """Each candidate's pairs as a page, drawn with the first metric's explanation.

    ``evaluation`` is :func:`amrcheck.workflows.evaluate.evaluate` of the
    same files and metrics; its scores fill the table (one column per
    metric); the drawings show ``metrics[0]``'s explanation (smatch's
    alignment when that metric has none). Identical pairs are rows of
    the table only, unless ``draw_all``. ``words`` holds the UMR files'
    words and alignments (by corpus path, :func:`~.words.read_with_words`):
    their drawings show which node is aligned to which words. ``notes``
    are more lines for the header (a UMR file's document-level figures).
    """
    first = metrics[0]
    fallback = first if first.name == "smatch" else get_metric("smatch")
    builder = _Builder({}, [])
    rows: list[SummaryRow] = []
    several = len(candidates) > 1
    skip = evaluation.skip_unreadable
    tables = words or {}
    for candidate in candidates:
        pair_words = _PairWords(
            tables.get(reference.path, {}), tables.get(candidate.path, {})
        )
        scores = {
            result.metric: dict(zip(result.ids, result.corpus.pairs, strict=True))
            for result in evaluation.results
            if result.candidate == candidate.path
        }
        pairing = evaluation.pairings.get(candidate.path)
        gaps = {gap.key: gap for gap in (pairing.gaps if pairing else [])}
        for pair in _rows(reference, candidate, by, skip):
            row = _score_row(
                builder, pair, first, fallback, scores, metrics,
                _Gap(gaps.get(pair.key), skip), draw_all, pair_words,
            )
            if several:
                row.cells.insert(0, Cell(shown_path(candidate.path)))
            rows.append(row)
            if progress is not None:
                progress(1)
    names = [m.name for m in metrics]
    columns = ["id", "status", *names, "P", "R", "−", "+", "~"]
    facts = [
        f"reference: {shown_path(reference.path)}   candidates: "
        + ", ".join(shown_path(c.path) for c in candidates),
        *(
            f"{shown_path(r.candidate) if several else r.metric}: "
            f"{_score_text(r.metric, r.corpus.micro)} over {r.corpus.n_pairs} pairs"
            + _searched(r.corpus.micro, r.corpus.n_pairs)
            for r in evaluation.results
        ),
        *(
            line.strip()
            for path in evaluation.pairings
            for line in gap_report(
                path,
                evaluation.counted_empty.get(path, []),
                evaluation.left_out.get(path, []),
            )
        ),
    ]
    facts.extend(notes)
    if any(tables.values()):
        facts.append(WORDS_NOTE)
    statuses = ["different", "identical", "error"]
    if any(row.status == "realigned" for row in rows):
        statuses.insert(1, "realigned")
    summary = Summary(
        (["candidate"] if several else []) + columns, rows, statuses, same="identical",
    )
    return page(
        f"amrcheck score: {shown_path(reference.path)}", facts, summary,
        builder.sections, builder.tooltips, jobs, roles=("reference", "candidate"),
    )


@dataclass(frozen=True, slots=True)
class _PairWords:
    """The UMR words of a reference and a candidate file, by entry index."""

    reference: WordTable
    candidate: WordTable

    def of(
        self, ref: Entry | None, cand: Entry | None
    ) -> tuple[AlignedWords | None, AlignedWords | None]:
        return (
            None if ref is None else self.reference.get(ref.index),
            None if cand is None else self.candidate.get(cand.index),
        )


@dataclass(frozen=True, slots=True)
class _Gap:
    """A pair's :class:`~amrcheck.pairing.graphs.Gap` (None: none) and
    whether unreadable candidates were skipped."""

    gap: Gap | None
    skip: bool

    def note(self) -> str:
        """How the scores count the pair, for its headline."""
        if self.gap is None:
            return "not scored"
        if self.gap.counts_as_empty(self.skip):
            return "counted as an empty graph (F1 0): " + self.gap.why
        if self.gap.side == "reference":
            return "left out of the scores: the reference graph cannot be read"
        return "left out of the scores (--skip-unreadable): " + self.gap.why


def _rows(
    reference: Corpus, candidate: Corpus, by: PairBy, skip: bool
) -> Iterator[ScoredRow[EntryRow, None]]:
    """Every pair of the scores, and how the scores count it
    (:func:`~amrcheck.pairing.scoring.score_rows`; the scores themselves
    come from the evaluation): by id, a reference graph the candidate
    lacks is a pair too (without its candidate)."""
    matching = match_entries([reference, candidate], by)

    def as_row(whole: Sequence[EntryRow]) -> Sequence[EntryRow]:
        return whole  # drawn one at a time by _score_row

    rows = score_rows(matching, as_row, lambda row, graph: None, skip_unreadable=skip)
    for row in rows:
        if row.reference is not None and (
            row.candidate is not None or matching.by == "id"
        ):
            yield row


def _score_row(
    builder: _Builder,
    pair: ScoredRow[EntryRow, None],
    first: Metric,
    fallback: Metric,
    scores: dict[str, dict[str, Score]],
    metrics: Sequence[Metric],
    gap: _Gap,
    draw_all: bool,
    words: _PairWords,
) -> SummaryRow:
    key, ref, cand = pair.key, pair.reference, pair.candidate
    assert ref is not None
    shown_words = words.of(ref, cand)
    sentence = ref.metadata.get("snt") or (
        shown_words[0].sentence if shown_words[0] is not None else None
    )
    found = {name: table.get(key) for name, table in scores.items()}
    if pair.how != "scored":
        return _unscored_row(
            builder, key, ref, cand, found, metrics, gap, pair.how == "empty",
            shown_words, sentence,
        )
    assert cand is not None and cand.graph is not None and ref.graph is not None
    captions = (f"reference · {_where(ref)}", f"candidate · {_where(cand)}")
    view = pair_view(cand.graph, ref.graph, first, fallback)
    shown = found.get(first.name) or view.score
    identical = shown.f1 >= 1.0 - 1e-9
    status = "identical" if identical else "different"
    realigned = alignment_differences(
        [
            (link.candidate[2:], link.reference[2:]) for link in view.links
            if link.candidate.startswith("v:") and link.reference.startswith("v:")
        ],
        *shown_words,
    )
    if identical and realigned:
        status = "realigned"  # UMR: the same graphs, other words or alignments
    sid = None
    if draw_all or status != "identical":
        section = _view_section(
            builder, view, key, status, captions, sentence, shown_words
        )
        section.notes = realigned
        sid = section.sid
    counts = _counts(view.triples)
    cells = [Cell(key), Cell(status)]
    cells += [number(s.f1 if (s := found.get(m.name)) else None) for m in metrics]
    cells += [number(shown.precision), number(shown.recall)]
    cells += [
        Cell(str(counts[k]), counts[k]) for k in ("missing", "extra", "relabelled")
    ]
    return SummaryRow(cells, status, sid)


def _unscored_row(
    builder: _Builder,
    key: str,
    ref: Entry,
    cand: Entry | None,
    found: dict[str, Score | None],
    metrics: Sequence[Metric],
    gap: _Gap,
    counted: bool,
    words: tuple[AlignedWords | None, AlignedWords | None],
    sentence: str | None,
) -> SummaryRow:
    """A pair one of whose graphs cannot be read, or whose candidate is not
    there: both sides shown as they are, its scores as the scores count it
    (``counted``, an empty candidate: F1 0 and every reference triple
    missing; left out: ``-``)."""
    sid = builder.next_id()
    figures = []
    if ref.graph is None:
        figures.append(_unparsed(ref, f"reference · {_where(ref)}", "reference"))
    else:
        shown = single_view(ref.graph, "missing" if counted else None)
        figures.append(
            builder.figure(shown, sid, "r", f"reference · {_where(ref)}", words[0])
        )
    if cand is None:
        why = gap.gap.why if gap.gap is not None else "no candidate graph"
        figures.append(
            Figure("candidate · absent", text="", errors=[why], side="candidate")
        )
    elif cand.graph is None:
        figures.append(_unparsed(cand, f"candidate · {_where(cand)}", "candidate"))
    else:
        figures.append(
            builder.figure(
                single_view(cand.graph), sid, "c", f"candidate · {_where(cand)}",
                words[1],
            )
        )
    builder.sections.append(
        Section(
            sid, key, "error", figures, headline=gap.note(),
            sentence=sentence,
            notes=[str(gap.gap)] if gap.gap is not None else [],
        )
    )
    first = found.get(metrics[0].name)
    missing = (
        len(ref.graph.triples) if counted and ref.graph is not None else None
    )
    cells = [Cell(key), Cell("error")]
    cells += [number(s.f1 if (s := found.get(m.name)) else None) for m in metrics]
    cells += [
        number(first.precision if first else None),
        number(first.recall if first else None),
    ]
    cells += [Cell(str(missing), missing) if missing is not None else Cell("-", "")]
    cells += [Cell("-", "")] * 2
    return SummaryRow(cells, "error", sid)


# --- amrcheck render FILE -o OUT.svg|.png ----------------------------------------


def chosen_entries(
    corpus: Corpus, names: Sequence[str] | None
) -> tuple[list[Entry], list[str]]:
    """The entries named by ``::id`` or ``#N`` (N-th graph), in file order,
    and the names that match none; every entry when ``names`` is empty."""
    if not names:
        return list(corpus.entries), []
    wanted = set(names)

    def known(entry: Entry) -> set[str]:
        return {entry.label, f"#{entry.index + 1}"}

    entries = [entry for entry in corpus.entries if known(entry) & wanted]
    return entries, sorted(wanted.difference(*map(known, entries)))

#: graphs one SVG or PNG may hold (a picture of more is too tall to view;
#: the HTML page has no such limit)
MAX_PICTURE_GRAPHS = 100


def graphs_picture(
    entries: Sequence[Entry], fmt: ImageFormat, words: WordTable | None = None
) -> bytes:
    """``entries`` drawn as one SVG or PNG, one under the other, each titled
    (a UMR file's graphs with each node's aligned ``words``).

    A graph that does not parse is drawn as its text and its errors.
    """
    sources = []
    for position, entry in enumerate(entries):
        prefix = f"g{position + 1}-"
        title = entry.label
        own = (words or {}).get(entry.index)
        sentence = entry.metadata.get("snt") or (own.sentence if own else None)
        if sentence:
            title += f": {sentence if len(sentence) <= 90 else sentence[:89] + '…'}"
        if entry.graph is None:
            errors = [str(e) for e in entry.errors] or [f"{_where(entry)}: empty graph"]
            sources.append(text_dot(entry.text, errors, prefix, title))
        else:
            side = single_view(entry.graph)
            mark_words(side, own)
            sources.append(scene_dot(side, prefix, title))
    return picture(sources, fmt)
