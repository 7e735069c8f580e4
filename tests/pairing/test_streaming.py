"""Pairing files in chunks: the pairs and messages of pair_graphs, few graphs held."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest

from amrcheck.errors import InputError
from amrcheck.metrics import Score, get_metric
from amrcheck.pairing.graphs import (
    GraphPair,
    PairBy,
    PairingError,
    match_entries,
    pair_graphs,
    score_corpus,
)
from amrcheck.pairing.streaming import PairStream, RowStream
from amrcheck.reading.corpus import Corpus, read_corpus, read_string
from amrcheck.workflows.evaluate import evaluate
from tests.conftest import shared_path
from tests.graph_census import SICK, GraphCensus, repeat_corpus


def graphs(*ids: str | None, broken: str = "", empty: str = "") -> str:
    """One small graph per id (None: no ``::id`` line); ``broken``/``empty``: ids."""
    blocks = []
    for n, key in enumerate(ids):
        header = "" if key is None else f"# ::id {key}\n"
        if key is not None and key == broken:
            body = f"(x{n} / broken :ARG0 (y / y)\n"
        elif key is not None and key == empty:
            body = ""
        else:
            body = f"(x{n} / c{key} :ARG0 (y{n} / y{n % 3}))\n"
        blocks.append(header + body)
    return "\n".join(blocks)


ABCD = ("a", "b", "c", "d")
CASES = {
    "same order": (graphs(*ABCD), graphs(*ABCD)),
    "shuffled": (graphs(*ABCD), graphs("c", "a", "d", "b")),
    "half shuffled": (graphs(*ABCD, "e"), graphs("a", "b", "d", "c", "e")),
    "no id at the end": (graphs(*ABCD), graphs("b", "a", "c", None)),
    "repeated id": (graphs("a", "b", "a", "c"), graphs("b", "a", "c", "d")),
    "syntax error and empty graph": (
        graphs(*ABCD, broken="b", empty="d"),
        graphs("c", "a", "d", "b", broken="c"),
    ),
    "errors by position": (
        graphs(None, "b", "c", broken="b"),
        graphs("x", "b", None, empty="x"),
    ),
    "ids only one file has": (graphs(*ABCD), graphs("d", "e", "a", "f")),
    "unreadable in step": (graphs(*ABCD, broken="c"), graphs(*ABCD, broken="a")),
    "a graph the candidate lacks": (graphs(*ABCD), graphs("a", "c", "d")),
    "different lengths": (graphs(*ABCD), graphs("a", "b", None)),
    "longer candidate": (graphs("a", None), graphs("a", "b", "c")),
    "empty candidate": (graphs("a"), ""),
}


def expected(ref: str, cand: str, by: PairBy) -> object:
    """What pair_graphs says: the error, or (report fields, pairs)."""
    try:
        pairing = pair_graphs(
            read_string(ref, "ref.amr"), read_string(cand, "cand.amr"), by
        )
    except PairingError as error:
        return str(error)
    if pairing.unpaired:
        return "\n".join(pairing.unpaired)
    fields = (
        pairing.matching.by,
        pairing.matching.note,
        pairing.errors,
        pairing.gaps,
    )
    return fields, [_pair(p) for p in pairing.pairs]


def _pair(pair: GraphPair) -> tuple[object, ...]:
    cand, ref = pair.candidate, pair.reference
    if cand is None:  # cannot be read, or absent: scored as an empty graph
        return pair.id, None, ref.triples, None, str(ref.span)
    return pair.id, cand.triples, ref.triples, str(cand.span), str(ref.span)


def streamed(
    ref: Corpus | Path, cand: Corpus | Path, by: PairBy, chunk_bytes: int
) -> object:
    stream = PairStream(ref, [cand], by, chunk_bytes)
    try:
        pairs = [p for batch in stream.in_step(2) for _, p in batch]
        (report,) = stream.close().values()
    except PairingError as error:
        return str(error)
    pairs += [p for batch in stream.waiting(2) for _, p in batch]
    pairs.sort(key=lambda p: p.index)
    fields = (report.by, report.note, report.errors, report.gaps)
    return fields, [_pair(p) for p in pairs]


@pytest.mark.parametrize("by", ["auto", "id", "position"])
@pytest.mark.parametrize("case", list(CASES))
def test_streamed_files_pair_as_pair_graphs_does(
    case: str, by: PairBy, tmp_path: Path
) -> None:
    ref_text, cand_text = CASES[case]
    ref, cand = tmp_path / "ref.amr", tmp_path / "cand.amr"
    ref.write_text(ref_text)
    cand.write_text(cand_text)
    # file names as pair_graphs saw them, so that the messages compare
    want = expected(ref_text, cand_text, by)
    got = streamed(ref, cand, by, chunk_bytes=8)
    assert str(got).replace(str(tmp_path) + "/", "") == str(want)
    in_memory = streamed(
        read_string(ref_text, "ref.amr"), read_string(cand_text, "cand.amr"), by, 8
    )
    assert in_memory == want


def test_the_same_candidate_twice_is_an_error() -> None:
    ref = read_string(graphs("a"), "ref.amr")
    with pytest.raises(InputError, match="a candidate file is given twice"):
        PairStream(ref, [ref, ref])


class _Probe:
    """smatch that counts the live graphs as it scores."""

    name = "smatch"

    def __init__(self, census: GraphCensus) -> None:
        self.metric = get_metric("smatch")
        self.score = census.wrap(self.metric.score)

    def aggregate(self, pairs: Sequence[Score]) -> Score:
        return self.metric.aggregate(pairs)


@pytest.mark.slow
@pytest.mark.parametrize("shuffle", [False, True], ids=["in step", "read again"])
def test_graphs_held_do_not_grow_with_the_files(tmp_path: Path, shuffle: bool) -> None:
    ref, cand = tmp_path / "ref.amr", tmp_path / "cand.amr"
    most = []
    for times in (4, 16):  # 200 and 800 pairs
        repeat_corpus(shared_path(f"{SICK}/src.dev.amr"), ref, times)
        # reversed, every pair waits and is read again from its place
        repeat_corpus(shared_path(f"{SICK}/tgt.dev.amr"), cand, times, shuffle)
        census = GraphCensus()
        probe = _Probe(census)
        report = evaluate(ref, [cand], [probe], chunk_pairs=16, chunk_bytes=2048)  # type: ignore[list-item]
        assert report.results[0].corpus.n_pairs == 50 * times
        most.append(census.held)
    # every graph at once would be 400 and 1,600
    assert most[1] < 150 and most[1] <= most[0] + 30, most


def test_scores_equal_the_whole_file_path_for_any_jobs(tmp_path: Path) -> None:
    ref, cand = tmp_path / "ref.amr", tmp_path / "cand.amr"
    ref.write_text(shared_path(f"{SICK}/src.dev.amr").read_text())
    blocks = shared_path(f"{SICK}/tgt.dev.amr").read_text().strip().split("\n\n")
    cand.write_text("\n\n".join(blocks[10:] + blocks[:10]) + "\n")  # half waits
    metrics = [get_metric("smatch"), get_metric("rematch")]
    pairing = pair_graphs(read_string(ref.read_text()), read_string(cand.read_text()))
    whole = [score_corpus(m, pairing.pairs).pairs for m in metrics]
    for jobs in (1, 2):
        report = evaluate(
            ref, [cand], metrics, jobs=jobs, chunk_pairs=7, chunk_bytes=999
        )
        assert [r.corpus.pairs for r in report.results] == whole
        assert report.results[0].ids == [p.id for p in pairing.pairs]


def test_files_that_will_not_pair_fail_before_any_scoring(tmp_path: Path) -> None:
    ref, cand = tmp_path / "ref.amr", tmp_path / "cand.amr"
    ref.write_text(graphs("a", "b", "c", None))
    cand.write_text(graphs("a", "b", "c"))
    census = GraphCensus()
    with pytest.raises(PairingError, match="ref.amr has 4 graphs but .*cand.amr has 3"):
        evaluate(ref, [cand], [_Probe(census)], chunk_pairs=1, chunk_bytes=8)  # type: ignore[list-item]
    assert census.calls == 0


@pytest.mark.parametrize("skip", [False, True], ids=["empty", "skip"])
@pytest.mark.parametrize("compare", [False, True])
def test_aspects_sum_over_the_pairs_scored(
    tmp_path: Path, compare: bool, skip: bool
) -> None:
    from amrcheck.metrics.aspects import (
        aggregate_aspects,
        aspect_scores,
        aspect_scores_missing,
    )

    blocks = shared_path(f"{SICK}/src.dev.amr").read_text().strip().split("\n\n")
    ref, good, bad = (tmp_path / f"{n}.amr" for n in ("ref", "good", "bad"))
    ref.write_text("\n\n".join(blocks[:12]) + "\n")
    good.write_text("\n\n".join(blocks[1:12] + blocks[:1]) + "\n")  # one waits
    broken = blocks[:5] + [blocks[5].replace(")", "", 1)] + blocks[6:12]
    bad.write_text("\n\n".join(broken) + "\n")
    smatch = get_metric("smatch")
    report = evaluate(
        ref,
        [good, bad],
        [smatch],
        compare=compare,
        aspects=True,
        skip_unreadable=skip,
    )
    pairing = pair_graphs(read_corpus(ref), read_corpus(good))
    skipped = set(report.skipped.get(str(bad), []))
    assert len(skipped) == skip
    common = skipped if compare else set()
    pairs = [p for p in pairing.pairs if p.id not in common]
    expected = aggregate_aspects(
        [aspect_scores(smatch, p.candidate, p.reference) for p in pairs]  # type: ignore[arg-type]
    )
    assert report.results[0].aspects == expected
    # the broken graph counts as an empty graph in the aspects too
    bad_pairs = pair_graphs(read_corpus(ref), read_corpus(bad)).pairs
    expected = aggregate_aspects(
        [
            aspect_scores_missing(smatch, p.reference)
            if p.candidate is None
            else aspect_scores(smatch, p.candidate, p.reference)
            for p in bad_pairs
            if p.id not in skipped
        ]
    )
    assert report.results[1].aspects == expected
    assert (expected["concepts"].f1 < report.results[0].aspects["concepts"].f1) != skip


# --- rows of several files (diff, agreement) --------------------------------

THIRD = graphs("d", "c", "b", "a")  # a third annotator, ids in another order


def _entry_facts(entry: object) -> tuple[object, ...]:
    """What diff and agreement use of an entry or a sheet, the same for both."""
    if entry is None:
        return (None,)
    graph = getattr(entry, "graph", None)
    triples = None if graph is None else graph.triples
    errors = getattr(entry, "errors", [])
    return getattr(entry, "id", None), triples, [str(e) for e in errors]


def expected_rows(texts: Sequence[str], by: PairBy) -> object:
    names = [f"f{n}.amr" for n in range(len(texts))]
    corpora = [read_string(t, name) for t, name in zip(texts, names, strict=True)]
    try:
        matching = match_entries(corpora, by)
    except PairingError as error:
        return str(error)
    rows = [
        (row.key, [_entry_facts(e) for e in row.entries])
        + tuple(
            corpus.source.line_column(e.graph_start) if e is not None else None
            for corpus, e in zip(corpora, row.entries, strict=True)
        )
        for row in matching.rows
    ]
    errors = [str(f) for corpus in corpora for f in corpus.errors]
    return matching.by, matching.note, errors, rows


def streamed_rows(
    files: Sequence[Corpus | Path], by: PairBy, chunk_bytes: int
) -> object:
    stream = RowStream(files, by, chunk_bytes)
    try:
        found = [row for batch in stream.in_step(2) for row in batch]
        lineup = stream.close()
    except PairingError as error:
        return str(error)
    found += [row for batch in stream.waiting(2) for row in batch]
    rows = [
        (key, [_entry_facts(s) for s in sheets])
        + tuple(None if s is None else (s.line, s.column) for s in sheets)
        for _, key, sheets in sorted(found, key=lambda row: row[0])
    ]
    return lineup.by, lineup.note, lineup.errors, rows


@pytest.mark.parametrize("by", ["auto", "id", "position"])
@pytest.mark.parametrize("three", [False, True], ids=["two files", "three files"])
@pytest.mark.parametrize("case", list(CASES))
def test_streamed_rows_are_those_of_match_entries(
    case: str, three: bool, by: PairBy, tmp_path: Path
) -> None:
    texts = [*CASES[case], THIRD] if three else list(CASES[case])
    paths = [tmp_path / f"f{n}.amr" for n in range(len(texts))]
    for path, text in zip(paths, texts, strict=True):
        path.write_text(text)
    want = expected_rows(texts, by)
    got = streamed_rows(paths, by, chunk_bytes=8)
    assert str(got).replace(str(tmp_path) + "/", "") == str(want)
    corpora = [read_string(t, p.name) for t, p in zip(texts, paths, strict=True)]
    assert streamed_rows(corpora, by, chunk_bytes=8) == want


def test_rows_that_wait_hold_no_graph_until_read_again(tmp_path: Path) -> None:
    old, new = tmp_path / "old.amr", tmp_path / "new.amr"
    old.write_text(graphs(*ABCD))
    new.write_text(graphs("b", "a", "c", "d"))
    stream = RowStream([old, new], chunk_bytes=8)
    assert [key for batch in stream.in_step(9) for _, key, _ in batch] == ["c", "d"]
    waiting = [s for held in stream.held for s in held.values()]
    assert len(waiting) == 4 and all(s.graph is None for s in waiting)
    stream.close()
    rows = [row for batch in stream.waiting(9) for row in batch]
    assert [(order, key) for order, key, _ in rows] == [((0, 0), "a"), ((0, 1), "b")]
    assert all(s is not None and s.graph is not None for _, _, ss in rows for s in ss)
    assert stream.held == [{}, {}]  # each sheet let go once handed out
