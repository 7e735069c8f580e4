"""Files cut into parts for separate processes: the same entries, pairs, messages."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

import amrcheck.pairing.parts
from amrcheck.metrics import get_metric
from amrcheck.pairing.graphs import PairBy, PairingError
from amrcheck.pairing.parts import PartReport, merge_parts, pair_part, plan_parts
from amrcheck.pairing.streaming import PairStream
from amrcheck.reading.corpus import Chunk, FilePart, read_chunks, split_file
from amrcheck.workflows.evaluate import Evaluation, evaluate
from tests.conftest import shared_path
from tests.pairing.test_streaming import CASES, graphs

LITTLE_PRINCE = "little_prince/amr-bank-struct-v3.0.txt"
GUIDELINES = "amr_guidelines/guidelines_examples.amr"


def entry_facts(chunks: Iterator[Chunk]) -> list[tuple[object, ...]]:
    facts = []
    for chunk in chunks:
        for entry in chunk.corpus:
            graph = entry.graph
            facts.append(
                (
                    entry.index,
                    entry.id,
                    entry.metadata,
                    [str(f) for f in entry.errors],
                    None if graph is None else (graph.triples, str(graph.span)),
                    None if graph is None else chunk.place(graph),
                )
            )
    return facts


@pytest.mark.parametrize("parts", [2, 3, 7])
@pytest.mark.parametrize("corpus", [LITTLE_PRINCE, GUIDELINES, "crlf+bom"])
def test_parts_read_as_the_whole_file(corpus: str, parts: int, tmp_path: Path) -> None:
    if corpus == "crlf+bom":
        text = shared_path(LITTLE_PRINCE).read_text(encoding="utf-8")
        path = tmp_path / "crlf.amr"
        path.write_bytes(b"\xef\xbb\xbf" + text.replace("\n", "\r\n").encode())
    else:
        path = shared_path(corpus)
    whole = entry_facts(read_chunks(path, 4096))
    graph_lines = path.read_bytes().count(b"\n(")
    ordinals = [graph_lines * k // parts for k in range(parts)]
    cut = split_file(path, ordinals)
    assert cut is not None and [p.first_entry for p in cut] == ordinals
    assert cut[0].start == 0 and cut[-1].end == path.stat().st_size
    assert all(a.end == b.start for a, b in zip(cut, cut[1:], strict=False))
    read = [entry_facts(read_chunks(path, 4096, part)) for part in cut]
    # all but the entry numbers are the whole file's
    assert [f[1:] for facts in read for f in facts] == [f[1:] for f in whole]
    counted = [sum(len(facts) for facts in read[:k]) for k in range(parts)]
    if corpus != GUIDELINES:  # a graph line per entry: the estimate is right
        assert [p.first_entry for p in cut] == counted
        assert [f[0] for facts in read for f in facts] == [f[0] for f in whole]


def test_files_with_lone_carriage_returns_are_not_cut(tmp_path: Path) -> None:
    path = tmp_path / "cr.amr"
    path.write_bytes(graphs(*"abcdef").replace("\n", "\r").encode())
    assert split_file(path, [0, 3]) is None


def test_a_cut_needs_a_blank_line_before_the_graph(tmp_path: Path) -> None:
    path = tmp_path / "dense.amr"
    path.write_text("(a / b)\n(c / d)\n(e / f)\n(g / h)\n")
    assert split_file(path, [0, 2]) is None


def outcome(report: Evaluation | str) -> object:
    if isinstance(report, str):
        return report
    pairings = {
        path: (p.by, p.note, p.unpaired, p.errors, p.gaps)
        for path, p in report.pairings.items()
    }
    results = [(r.ids, [s.f1 for s in r.corpus.pairs]) for r in report.results]
    return pairings, results


def scored(ref: Path, cand: Path, by: PairBy, jobs: int, strict: bool) -> object:
    metric = get_metric("smatch")
    try:
        report = evaluate(ref, [cand], [metric], by=by, jobs=jobs, strict=strict)
    except PairingError as error:
        return str(error)
    return outcome(report)


def repeated(text: str, times: int) -> str:
    """The blocks of ``text`` ``times`` over, ids made unique per copy."""
    blocks = [b for b in text.strip().split("\n\n") if b.strip()]
    copies = []
    for n in range(times):
        copies += [b.replace("# ::id ", f"# ::id {n}-") for b in blocks]
    return "\n\n".join(copies) + "\n"


@pytest.mark.parametrize("strict", [False, True])
@pytest.mark.parametrize("by", ["auto", "id", "position"])
@pytest.mark.parametrize("case", list(CASES))
def test_two_jobs_reading_parts_give_what_one_job_gives(
    case: str, by: PairBy, strict: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(amrcheck.pairing.parts, "MIN_GRAPHS_PER_PART", 1)
    ref_text, cand_text = CASES[case]
    ref, cand = tmp_path / "ref.amr", tmp_path / "cand.amr"
    ref.write_text(repeated(ref_text, 3))
    cand.write_text(repeated(cand_text, 3))
    one = scored(ref, cand, by, 1, strict)
    assert scored(ref, cand, by, 2, strict) == one


def read_part(
    ref: Path, cand: Path, part: Sequence[FilePart], by: PairBy, entries: int | None
) -> tuple[list[tuple[int, str]], PartReport]:
    reading = pair_part(str(ref), [str(cand)], part, by, entries=entries)
    pairs: list[tuple[int, str]] = []
    while True:
        try:
            pairs += [(pair.index, pair.id) for _, pair in next(reading)]
        except StopIteration as end:
            return pairs, end.value


@pytest.mark.parametrize(
    "case, fits",
    [
        ("same order", True),
        ("syntax error and empty graph", False),  # ids in another order
        ("shuffled", False),
    ],
)
def test_parts_pair_alone_only_where_the_ids_agree(
    case: str, fits: bool, tmp_path: Path
) -> None:
    ref_text, cand_text = CASES[case]
    ref, cand = tmp_path / "ref.amr", tmp_path / "cand.amr"
    ref.write_text(repeated(ref_text, 4))
    cand.write_text(repeated(cand_text, 4))
    count = ref.read_bytes().count(b"\n(") + ref.read_bytes().startswith(b"(")
    plan = plan_parts(str(ref), [str(cand)], 2, count, least=1)
    assert plan is not None
    entries = plan[1][0].first_entry
    reads = [read_part(ref, cand, plan[0], "auto", entries)]
    reads.append(read_part(ref, cand, plan[1], "auto", None))
    merged = merge_parts(str(ref), [str(cand)], [r for _, r in reads])
    assert (merged is not None) == fits
    if merged is None:
        return
    stream = PairStream(ref, [cand])
    whole = [(p.index, p.id) for batch in stream.in_step(3) for _, p in batch]
    assert [pair for pairs, _ in reads for pair in pairs] == whole
    (report,) = stream.close().values()
    assert merged[str(cand)] == report


def test_an_entry_without_a_graph_line_moves_the_cut_and_is_caught(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Entries are estimated by graph lines: a header without a graph throws
    the count off, and the part before the cut reports it (the files are
    then read whole)."""
    monkeypatch.setattr(amrcheck.pairing.parts, "MIN_GRAPHS_PER_PART", 1)
    text = graphs("a", "b", "c", "d", "e", "f", empty="b")
    ref, cand = tmp_path / "ref.amr", tmp_path / "cand.amr"
    ref.write_text(text)
    cand.write_text(text)
    count = text.count("\n(") + text.startswith("(")
    plan = plan_parts(str(ref), [str(cand)], 2, count, least=1)
    assert plan is not None
    _, report = read_part(ref, cand, plan[0], "position", plan[1][0].first_entry)
    assert not report.fits
    one, two = (scored(ref, cand, "position", jobs, False) for jobs in (1, 2))
    assert two == one
