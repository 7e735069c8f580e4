"""Reading UMR files: every sentence, every block, every place."""

from __future__ import annotations

import re
import tracemalloc
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from amrcheck.errors import InputError
from amrcheck.reading import umr as umr_module
from amrcheck.reading.umr import (
    BlockKind,
    Note,
    is_umr_path,
    iter_umr_file,
    read_umr,
    read_umr_string,
)
from tests.conftest import SHARED_DATA, TEST_DATA
from tests.fresh import cyclic_garbage

ENGLISH = SHARED_DATA / "umr" / "english"
LAYOUTS = TEST_DATA / "umr" / "layouts"
VALID = TEST_DATA / "umr" / "valid.umr"
_SNT_HEADER = re.compile(rb"^# :: snt[0-9]+", re.M)


def _header_count(path: Path) -> int:
    """An independent count: the ``# :: sntN`` lines of the file, by bytes."""
    return len(_SNT_HEADER.findall(path.read_bytes()))


@pytest.mark.slow
def test_every_english_sentence_is_read_none_lost() -> None:
    files = sorted(ENGLISH.glob("*.umr"))
    assert len(files) == 584
    total = 0
    for path in files:
        sentences = list(iter_umr_file(path))
        assert len(sentences) == _header_count(path), path
        # each sentence is the one its header names, in file order
        assert [s.number for s in sentences] == [
            int(m.group(1))
            for m in re.finditer(rb"^# :: snt([0-9]+)", path.read_bytes(), re.M)
        ]
        total += len(sentences)
        for sentence in sentences:
            assert set(sentence.blocks) == set(BlockKind), (path, sentence.label)
            # only sentences left out of the release or empty have no words
            if not sentence.words:
                assert sentence.graph is not None, (path, sentence.label)
                assert sentence.metadata.get("type") == "not_in_release" or (
                    sentence.graph.triples[0][2] == "umr-empty"
                ), (path, sentence.label)
    assert total == 31_534


def test_the_release_layouts_are_read_as_meant() -> None:
    # english_umr-0001: two empty lines between blocks; sentence 1 has all blocks
    first = read_umr(ENGLISH / "english_umr-0001.umr").sentences[0]
    assert [w.text for w in first.words][:3] == ["200", "dead", ","]
    assert first.graph is not None and first.graph.top == "s1p"
    assert ("s1l", [(9, 9)]) in [(a.variable, a.ranges) for a in first.alignments]
    assert first.document.variable == "s1s0"
    assert ("document-creation-time", ":before", "s1l") in [
        (t.source, t.relation, t.target) for t in first.document.triples
    ]
    assert Note.EXTRA_EMPTY_LINE in {n.note for n in first.notes}
    # english_umr-0047: blocks without any empty line between them
    empty = read_umr(ENGLISH / "english_umr-0047.umr").sentences[0]
    assert empty.graph is not None and empty.graph.top == "s1u"
    assert set(empty.blocks) == set(BlockKind)
    assert Note.NO_EMPTY_LINE in {n.note for n in empty.notes}


def test_words_english_and_tokens_on_the_id_line() -> None:
    doc = read_umr(LAYOUTS / "words_english.umr")
    assert len(doc) == 2
    first, second = doc
    assert [w.text for w in first.words] == ["Mary", "left", "."]
    assert [r.name for r in first.rows] == ["Words (English)", "Translation (English)"]
    assert [w.text for w in second.words] == ["She", "came", "back", "."]
    assert second.rows[0].header == "snt"
    assert [(t.source, t.target) for t in second.document.triples] == [
        ("s1l", "s2c"),
        ("s1p", "s2p"),
    ]


def test_umr_1_0_samples_are_read() -> None:
    path = SHARED_DATA / "umr" / "ancast_samples" / "umr_gold.txt"
    doc = read_umr(path)
    assert len(doc) == _header_count(path)
    assert all(s.graph is not None and s.words for s in doc)
    assert is_umr_path(path)


def test_every_item_keeps_its_place() -> None:
    sentence = read_umr(VALID).sentences[1]
    assert sentence.number == 2 and sentence.source.first_line == 31
    span = sentence.span_of
    words = sentence.words
    assert [(str(span(w.start, w.end)), w.text) for w in words[:2]] == [
        (f"{VALID}:35:8", "She"),
        (f"{VALID}:35:12", "bought"),
    ]
    line = sentence.alignments[2]
    assert str(span(line.start, line.end)) == f"{VALID}:49:1"
    assert str(span(*line.range_offsets[0])) == f"{VALID}:49:7"
    triple = sentence.document.triples[0]
    assert str(span(*triple.places[0])) == f"{VALID}:53:17"
    assert str(span(*triple.places[2])) == f"{VALID}:53:29"
    assert sentence.graph is not None
    assert str(sentence.graph.definition_span("s2b2")) == f"{VALID}:42:12"


def test_a_broken_sentence_keeps_its_error_and_reading_goes_on() -> None:
    text = VALID.read_text().replace(
        "    :aspect performance)\n", "    :aspect performance\n", 1
    )
    doc = read_umr_string(text, "broken.umr")
    assert len(doc) == 2
    broken, after = doc
    assert broken.graph is None
    assert [(e.code, e.span.line) for e in broken.errors] == [("U201", 15)]
    assert broken.alignments and broken.document.triples  # the other blocks are read
    assert after.graph is not None and not after.errors


def test_three_block_sentence() -> None:
    text = VALID.read_text().replace(
        "# alignment:\ns2b: 2-2\ns2p: 1-1\ns2b2: 3-4\n\n", ""
    )
    doc = read_umr_string(text, "three.umr")
    assert len(doc) == 2
    notes = [(n.note, n.detail) for n in doc.sentences[1].notes]
    assert (Note.MISSING_BLOCK, "# alignment:") in notes
    assert doc.sentences[1].document.triples


def test_streamed_reading_gives_the_sentences_of_the_whole_text(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(umr_module, "READ_BYTES", 97)  # cut inside lines and characters
    text = VALID.read_text().replace("Mary", "Marié") * 3
    path = tmp_path / "doc.umr"
    path.write_text(text, encoding="utf-8")
    streamed = list(iter_umr_file(path))
    whole = read_umr_string(text, str(path)).sentences
    assert [s.text for s in streamed] == [s.text for s in whole]
    assert [s.source.first_line for s in streamed] == [
        s.source.first_line for s in whole
    ]


@pytest.mark.parametrize("ending", ["\n", ""])
def test_a_byte_order_mark_is_not_text_whether_or_not_the_file_ends_a_line(
    tmp_path: Path, ending: str
) -> None:
    text = "# :: snt1\tThe boy ." + ending  # no line end at all: one last piece
    path = tmp_path / "bom.umr"
    path.write_bytes(b"\xef\xbb\xbf" + text.encode())
    streamed = list(iter_umr_file(path))
    whole = read_umr_string(text, str(path)).sentences
    assert [s.text for s in streamed] == [s.text for s in whole]
    assert [f.code for s in streamed for f in s.errors] == [
        f.code for s in whole for f in s.errors
    ]
    assert streamed[0].text.startswith("# :: snt1")


@pytest.mark.slow
def test_a_large_file_is_read_in_bounded_memory(tmp_path: Path) -> None:
    """Reading's peak memory does not grow with the file: a file four times
    as long (about 15 MB against 3.7 MB) peaks where the shorter one does."""
    sentence = VALID.read_text()

    def peak_reading(copies: int) -> int:
        path = tmp_path / f"big{copies}.umr"
        with path.open("w", encoding="utf-8") as handle:
            for _ in range(copies):
                handle.write(sentence)
        tracemalloc.start()
        count = sum(1 for _ in iter_umr_file(path))
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        assert count == 2 * copies
        return peak

    short, long = peak_reading(3000), peak_reading(12000)
    assert long < 1.5 * short, (short, long)
    assert long < (12000 * len(sentence.encode())) / 8


def test_latin_1_bytes_are_one_located_error(tmp_path: Path) -> None:
    path = tmp_path / "latin.umr"
    path.write_bytes(VALID.read_bytes().replace(b"Paris", b"P\xe2ris"))
    with pytest.raises(InputError) as caught:
        list(iter_umr_file(path))
    assert str(caught.value) == f"{path}: 5:19: not valid UTF-8 (byte 0xe2)"


def test_a_bad_byte_in_a_later_piece_is_placed_on_its_file_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The lines of the pieces before count (a reader that counts a piece's
    lines only when another follows must still count them all)."""
    monkeypatch.setattr(umr_module, "READ_BYTES", 97)
    data = VALID.read_bytes() * 3
    bad = data.rindex(b"Paris") + 1  # its "a", in the last copy
    path = tmp_path / "late.umr"
    path.write_bytes(data[:bad] + b"\xe2" + data[bad + 1 :])
    line = data.count(b"\n", 0, bad) + 1
    column = bad - (data.rfind(b"\n", 0, bad) + 1) + 1
    assert line > 100  # many pieces before it
    with pytest.raises(InputError) as caught:
        list(iter_umr_file(path))
    assert str(caught.value) == f"{path}: {line}:{column}: not valid UTF-8 (byte 0xe2)"


def test_umr_content_in_txt_is_recognised() -> None:
    assert is_umr_path(LAYOUTS / "umr_content.txt")
    assert not is_umr_path(SHARED_DATA / "umr" / "ancast_samples" / "amr_gold.txt")


def test_fast_role_places_are_those_of_the_full_parser() -> None:
    from amrcheck.graph import TripleKind
    from amrcheck.reading._parse import _graph_offsets

    checked = 0
    for path in [*sorted(ENGLISH.glob("*.umr"))[::5], *LAYOUTS.glob("*.umr")]:
        for sentence in iter_umr_file(path):
            graph = sentence.graph
            if graph is None or graph.offsets_factory is None:
                assert graph is None or umr_module.fast_role_places(graph) is None
                continue
            expected = [
                (offsets[0], offsets[1])
                for offsets, kind in zip(
                    _graph_offsets(graph.source, graph.start, graph.end),
                    graph.kinds,
                    strict=True,
                )
                if kind is not TripleKind.INSTANCE
            ]
            assert umr_module.fast_role_places(graph) == expected, (path, sentence)
            checked += 1
    assert checked > 5000


@pytest.mark.parametrize(
    "graph",
    [
        '(s1e / emoticon\n    :value "( :" :mod (s1a / a))',
        "(s1a / a :mod s1b:z s1c)",
        '(s1a / a :op1 "a\\"b :c" :mod (s1b / b))',
        "(s1a / a~e.1 :ARG0~e.2 (s1b / b :quant 5~e.3))",
        '(s1a / a :op1 "x y :z" :mod(s1b / b))',
        "(s1a / a :mod (s1b / b):ARG1 s1a)",
        '(s1a / a :op1 "a\\\\" :op2 "b :c")',
    ],
)
def test_role_places_of_odd_graphs_are_those_of_the_full_parser(graph: str) -> None:
    from amrcheck.graph import TripleKind
    from amrcheck.reading._parse import _graph_offsets

    doc = read_umr_string(f"# :: snt1\nWords: x\n\n# sentence level graph:\n{graph}\n")
    read = doc.sentences[0].graph
    assert read is not None and read.offsets_factory is not None  # the fast path
    expected = [
        (offsets[0], offsets[1])
        for offsets, kind in zip(
            _graph_offsets(read.source, read.start, read.end), read.kinds, strict=True
        )
        if kind is not TripleKind.INSTANCE
    ]
    assert umr_module.fast_role_places(read) == expected


_META_PARTS = st.sampled_from(
    ["", " ", "::", " :: ", "sent_id", "a b", "k:", "=", " = ", "v", "\t", ":", "é"]
)


@given(
    st.text(alphabet=" \t:=ab#\x0b\u2028é", max_size=14)
    | st.lists(_META_PARTS, max_size=12).map("".join)
)
@settings(max_examples=1000, deadline=None)
def test_plain_metadata_fields_read_as_the_pattern_reads_them(body: str) -> None:
    fast = umr_module._plain_meta_fields(body)
    if fast is not None:
        expected = [
            (m.group(1), m.start(2), m.end(2))
            for m in umr_module._META_FIELD_RE.finditer(body)
        ]
        assert expected == fast


def test_cheap_offsets_are_those_of_the_full_parser() -> None:
    from amrcheck.reading._parse import _graph_offsets

    checked = 0
    for path in sorted(ENGLISH.glob("*.umr"))[::10]:
        for sentence in iter_umr_file(path):
            graph = sentence.graph
            if graph is None or graph.offsets_factory is None:
                continue
            expected = _graph_offsets(graph.source, graph.start, graph.end)
            assert graph.offsets == expected, (path, sentence.label)
            checked += 1
    assert checked > 2000


@given(st.lists(st.text(st.characters(codec="utf-8"), max_size=6)))
@settings(max_examples=200, deadline=None)
def test_a_rows_texts_are_its_items_texts(parts: list[str]) -> None:
    """``word_texts`` (no placing) gives the texts of ``words``, whatever the
    white space between the items; before and after the items are cut."""
    line = " ".join(parts).replace("\n", " ").replace("\r", " ")
    text = f"# :: snt1\nWords: {line}\n\n# sentence level graph:\n(s1x / x)\n\n\n"
    for cut_first in (False, True):
        sentence = read_umr_string(text).sentences[0]
        if cut_first:
            expected = [word.text for word in sentence.words]
            assert sentence.word_texts() == expected
        else:
            texts = sentence.word_texts()
            assert texts == [word.text for word in sentence.words]


def test_word_texts_on_the_release_and_the_id_line() -> None:
    for path in sorted(ENGLISH.glob("*.umr"))[::25]:
        for sentence in read_umr(path).sentences:
            assert sentence.word_texts() == [w.text for w in sentence.words]
    on_id_line = read_umr_string("# :: snt1 Dogs  bark\n\n(s1b / bark-01)\n\n\n")
    assert on_id_line.sentences[0].word_texts() == ["Dogs", "bark"]
    assert read_umr_string("(s1b / bark-01)\n\n\n").sentences[0].word_texts() == []


def _as_read(sentence: umr_module.UmrSentence) -> tuple[object, ...]:
    graph = sentence.graph
    return (
        sentence.number,
        sentence.number_places,
        sentence.metadata,
        [(row.name, row.start, row.end, row.texts()) for row in sentence.rows],
        None if graph is None else (graph.triples, graph.start, graph.end),
        [(a.variable, a.start, a.ranges, a.error) for a in sentence.alignments],
        sentence.document,
        sentence.blocks,
        sentence.notes,
        [(e.code, e.message, e.span.start, e.span.end) for e in sentence.errors],
    )


def test_a_piece_read_alone_is_read_as_in_its_file() -> None:
    """A sentence's text read alone (an editor re-reads one piece) gives
    what reading the whole file gave it: the one pass that cuts sentences
    and blocks and the pass over one sentence's lines find the same blocks,
    notes and items, odd layouts included."""
    paths = [*sorted(LAYOUTS.glob("*")), VALID, *sorted(ENGLISH.glob("*.umr"))[::10]]
    compared = 0
    for path in paths:
        text = path.read_text(encoding="utf-8")
        pieces = list(umr_module.iter_umr_pieces(umr_module.split_lines(text), "x"))
        sentences = read_umr_string(text, "x").sentences
        assert len(pieces) == len(sentences), path
        for index, (piece, sentence) in enumerate(zip(pieces, sentences, strict=True)):
            alone = umr_module.read_sentence(piece, index)
            assert _as_read(alone) == _as_read(sentence), (path, sentence.label)
            compared += 1
    assert compared > 1000


_GRAPH_LINES = st.sampled_from(
    [
        "(s1x / x",
        "  :ARG0 (s1y / y)",
        "\t:op1 1)",
        "x)",
        "  # a note",
        "",
        " ",
        "\r",
        "  )",
        "s1y: 1-1",
        "\u00a0:mod (s1z / z)",
        ":aspect state)",
    ]
)


@given(st.lists(_GRAPH_LINES, min_size=1, max_size=8))
@settings(max_examples=300, deadline=None)
def test_graph_lines_that_open_oddly_are_noted_each(lines: list[str]) -> None:
    """Every content line of the graph block that opens with neither '('
    nor ':' is one INVALID_LINE note, whatever else the block holds."""
    body = "\n".join(lines)
    text = f"# :: snt1\nWords: x\n\n# sentence level graph:\n(s1a / a\n{body})\n"
    sentence = read_umr_string(text).sentences[0]
    graph = sentence.blocks[BlockKind.GRAPH]
    noted = [
        (n.start, n.end)
        for n in sentence.notes
        if n.note is Note.INVALID_LINE and n.detail == "sentence level graph"
    ]
    expected = []
    offset = 0
    for line in text.split("\n"):
        start, offset = offset, offset + len(line) + 1
        stripped = line.strip()
        if graph.start <= start <= graph.end and stripped and stripped[0] != "#":
            if stripped[0] not in "(:":
                first = start + line.index(stripped[0])
                expected.append((first, start + len(line.rstrip("\r"))))
    assert noted == expected


@given(
    # no empty line: two would start a sentence (and one is a note of its own)
    st.lists(_GRAPH_LINES.filter(str.strip), min_size=1, max_size=8),
    st.sampled_from(["\n", "\r\n"]),
)
@settings(max_examples=300, deadline=None)
def test_document_lines_are_noted_and_placed_line_by_line(
    lines: list[str], newline: str
) -> None:
    """The document-level block as the graph block: each line that opens
    with neither '(' nor ':' is one INVALID_LINE note; the block ends where
    its last content line does (the reader takes runs of '(' / ':' lines in
    one step: the same notes and places as a walk line by line)."""
    body = newline.join(lines)
    text = newline.join(
        [
            "# :: snt1",
            "Words: x",
            "",
            "# sentence level graph:",
            "(s1a / a)",
            "",
            "# alignment:",
            "s1a: 1-1",
            "",
            "# document level annotation:",
            "(s1s0 / sentence",
            f"{body})",
            "",
            "",
        ]
    )
    sentence = read_umr_string(text).sentences[0]
    block = sentence.blocks[BlockKind.DOCUMENT]
    noted = [
        (n.start, n.end)
        for n in sentence.notes
        if n.note is Note.INVALID_LINE and n.detail == "document level annotation"
    ]
    expected, last_end = [], 0
    offset = 0
    heading = text.index("# document level annotation:")
    for line in text.split("\n"):
        start, offset = offset, offset + len(line) + 1
        stripped = line.strip()
        if start > heading and stripped and stripped[0] != "#":
            last_end = start + len(line.rstrip("\r"))
            if stripped[0] not in "(:":
                first = start + line.index(stripped[0])
                expected.append((first, last_end))
    assert noted == expected
    assert block.end == last_end


def _split_at_newlines(text: str) -> list[str]:
    """The reference cut: after each ``\\n`` and nowhere else."""
    lines = [line + "\n" for line in text.split("\n")]
    lines[-1] = lines[-1][:-1]
    return lines if lines[-1] else lines[:-1]


@given(st.text(alphabet="ab #\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029", max_size=30))
@settings(max_examples=500, deadline=None)
def test_lines_are_cut_at_newlines_only(text: str) -> None:
    """str.splitlines cuts for texts with no other line break, the slow cut
    for the others: either way after each '\\n' only."""
    assert umr_module.split_lines(text) == _split_at_newlines(text)


@given(
    st.sampled_from(["Words", "Index", "Wörds", "Word Gloss", "W1", "tx", ""]),
    st.sampled_from([":", " :", ":x", ": ", ":\t", "(en):", ": :"]),
    st.text(alphabet="ab :\t", max_size=8),
)
@settings(max_examples=500, deadline=None)
def test_a_row_is_read_as_its_pattern_reads_it(
    header: str, colon: str, rest: str
) -> None:
    """The short path for ``Words: ...`` gives the row the pattern gives."""
    line = f"{header}{colon}{rest}".rstrip()
    text = f"# :: snt1\n{line}\n\n# sentence level graph:\n(s1x / x)\n\n\n"
    sentence = read_umr_string(text).sentences[0]
    start = text.index("\n") + 1
    match = umr_module._ROW_RE.match(line) if line.strip() else None
    if match is None:
        assert sentence.rows == []
        return
    assert [
        (r.header, r.language, r.start, r.end, r.rest, r.rest_start)
        for r in sentence.rows
    ] == [
        (
            re.sub(r"\s+", " ", match.group(1)),
            match.group(2),
            start,
            start + len(line),
            line[match.end() :],
            start + match.end(),
        )
    ]


def test_a_document_read_leaves_no_reference_cycles() -> None:
    """A graph's offsets are made when first asked for by a factory that
    does not hold the graph: a document read and dropped is freed at once,
    the cyclic collector finds nothing of it. Counted in a fresh
    interpreter, where no other thread (the test runner's own) makes
    garbage meanwhile."""
    documents = sorted(ENGLISH.glob("*.umr"))[:20]
    setup = "from amrcheck.reading.umr import read_umr\n"
    work = "for path in sys.argv[1:]:\n    read_umr(path)\n"
    assert len(documents) == 20
    assert cyclic_garbage(setup, work, *map(str, documents)) == 0
