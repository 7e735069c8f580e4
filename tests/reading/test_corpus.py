"""Reading corpora: spans, the penman oracle, and no graph ever lost."""

from __future__ import annotations

import logging
import re
from pathlib import Path

import penman
import pytest

from amrcheck import (
    DecodeError,
    InputError,
    SourceText,
    TripleKind,
    decode,
    read_corpus,
)
from amrcheck.reading.corpus import (
    CHUNK_BYTES,
    Chunk,
    Corpus,
    count_graph_lines,
    read_chunks,
    read_graph,
    read_string,
)

from ..conftest import SHARED_AMR_FILES, data_path, shared_path

_ALIGNMENT = re.compile(r"~(?:[a-zA-Z]\.?)?[0-9]+(?:,[0-9]+)*$")

#: the two side-by-side "X  NOT:  Y" layouts left in the guideline examples
GUIDELINE_MALFORMED_LINES = [547, 553]


def penman_triples(tree: penman.Tree) -> list[tuple[str, str, str]]:
    """Triples as written, in text order, from penman's tree (the oracle)."""
    triples: list[tuple[str, str, str]] = []

    def visit(node: penman.tree.Node) -> None:
        var, branches = node
        for role, target in branches:
            role = _ALIGNMENT.sub("", role)
            if role == "/":
                triples.append((var, ":instance", _ALIGNMENT.sub("", target)))
            elif isinstance(target, tuple):
                triples.append((var, role, target[0]))
                visit(target)
            else:
                triples.append((var, role, _ALIGNMENT.sub("", target)))

    visit(tree.node)
    return triples


@pytest.mark.parametrize(
    "path", SHARED_AMR_FILES, ids=lambda p: str(Path(p).relative_to(p.parents[2]))
)
def test_spans_point_at_their_source_text(path: Path) -> None:
    corpus = read_corpus(path)
    text = corpus.source.text
    assert corpus.entries
    for entry in corpus:
        for key, (start, end) in entry.metadata_offsets.items():
            assert text[start:end] == entry.metadata[key]
        graph = entry.graph
        if graph is None:
            continue
        assert text[graph.start] == "(" and text[graph.end - 1] == ")"
        assert entry.start <= graph.start < graph.end <= entry.end
        for i, (source, role, target) in enumerate(graph.triples):
            role_text = graph.role_span(i).text
            target_text = graph.target_span(i).text
            if graph.kinds[i] is TripleKind.INSTANCE:
                assert (role_text, target_text) == (source, target)
                assert graph.definition_span(source) is not None
            else:
                assert (role_text, target_text) == (role, target)
        for variable in graph.variables():
            for i in graph.reference_indices(variable):
                assert graph.target_span(i).text == variable


@pytest.mark.parametrize(
    "path", SHARED_AMR_FILES, ids=lambda p: str(Path(p).relative_to(p.parents[2]))
)
def test_graphs_equal_penman_decoding(path: Path) -> None:
    corpus = read_corpus(path)
    ours = [e for e in corpus if e.graph is not None]
    if "guidelines" in path.name:
        # penman stops at the first malformed block; compare every block alone.
        logging.disable(logging.WARNING)
        try:
            trees = [penman.parse(e.graph.text) for e in ours]  # type: ignore[union-attr]
        finally:
            logging.disable(logging.NOTSET)
        lines = sorted(f.span.line for f in corpus.errors)
        assert lines == GUIDELINE_MALFORMED_LINES
    else:
        trees = list(penman.iterparse(path.read_text(encoding="utf-8-sig")))
        assert not corpus.errors
    assert len(ours) == len(trees)
    for entry, tree in zip(ours, trees, strict=True):
        assert entry.graph is not None
        assert entry.graph.triples == penman_triples(tree), entry.label


def test_stray_token_between_graphs_loses_nothing() -> None:
    path = data_path("stray_token.amr")
    corpus = read_corpus(path)
    assert [e.id for e in corpus] == ["g1", "g2", "g3"]
    assert all(e.graph is not None for e in corpus)
    errors = corpus.errors
    assert len(errors) == 1
    assert (errors[0].code, errors[0].span.line, errors[0].span.column) == (
        "E006", 8, 1,
    )
    # penman alone silently drops every graph after the stray token
    logging.disable(logging.WARNING)
    try:
        assert len(penman.loads(path.read_text())) == 1
    finally:
        logging.disable(logging.NOTSET)


def test_crlf_bom_unicode_comments_and_alignments() -> None:
    corpus = read_corpus(data_path("crlf_bom_unicode.amr"))
    assert not corpus.errors
    first, second = corpus
    assert first.metadata == {
        "id": "ü1",
        "date": "2024-01-01",
        "annotator": "Zoë",
        "snt": "Zoë mag Café.",
    }
    graph = first.graph
    assert graph is not None
    assert graph.triples == [
        ("m", ":instance", "mögen-01"),
        ("m", ":ARG0", "p"),
        ("p", ":instance", "person"),
        ("p", ":name", "n"),
        ("n", ":instance", "name"),
        ("n", ":op1", '"Zoë"'),
        ("m", ":ARG1", "c"),
        ("c", ":instance", "café"),
    ]
    assert graph.alignments == {
        (0, "target"): "~e.1",
        (1, "role"): "~e.0",
        (5, "target"): "~e.0",
        (7, "target"): "~e.2",
    }
    # comments (file header, reviewer note, inside the graph) are not graph text
    assert "comment" not in " ".join(t for triple in graph.triples for t in triple)
    concept = graph.target_span(7)
    assert (concept.line, concept.column, concept.text) == (10, 15, "café")
    assert second.graph is not None
    assert second.graph.triples[1] == ("x", ":value", '"a \\"quoted\\" word"')
    assert second.graph.kinds[1] is TripleKind.ATTRIBUTE


def test_blocks_without_blank_lines_and_trailing_metadata() -> None:
    text = "# ::id a\n(a / b)\n# ::id c\n(c / d)\n\n# ::id e\n"
    corpus = read_string(text)
    assert [e.id for e in corpus] == ["a", "c", "e"]
    assert corpus[2].graph is None
    assert [f.code for f in corpus[2].errors] == ["E007"]


def test_missing_paren_does_not_swallow_the_next_graph() -> None:
    text = "(a / b\n   :ARG0 (c / d)\n(e / f)\n"
    corpus = read_string(text)
    assert len(corpus) == 2
    assert corpus[0].graph is None and corpus[1].graph is not None
    (error,) = corpus[0].errors
    # where the parser ran out (issue 22), the "(" left open as related
    assert (error.code, error.span.line, error.span.column) == ("E001", 2, 17)
    assert error.span.start == error.span.end
    [(related, message)] = [(r.span, r.message) for r in error.related]
    assert (related.line, related.column, related.text) == (1, 1, "(")
    assert message == "this '(' is not closed"


def test_unclosed_parens_are_related_innermost_first_issue_22() -> None:
    text = "(a / b\n   :ARG0 (c / d\n      :mod e)\n   # a comment\n\n(f / g)\n"
    corpus = read_string(text)
    (error,) = corpus[0].errors
    # after "e)", not after the comment, nor at the next graph
    assert (error.span.line, error.span.column) == (3, 14)
    assert error.message == "unbalanced parentheses: 1 '(' not closed"
    assert [(r.span.line, r.span.column) for r in error.related] == [(1, 1)]
    (error,) = read_string("(a / b :ARG0 (c / d :mod (e / f").errors
    assert (error.span.line, error.span.column) == (1, 32)
    assert [r.span.column for r in error.related] == [26, 14, 1]


@pytest.mark.parametrize(
    ("text", "code", "line", "column"),
    [
        ("(a / b :ARG0 (c / d)", "E001", 1, 21),
        ("(a / b))", "E002", 1, 8),
        ('(a / b :op1 "Paris)', "E003", 1, 13),
        ('(a / b :ARG0 ("c / d))', "E003", 1, 15),  # where a variable belongs
        ('("a / b)', "E003", 1, 2),
        ('("a" / b)', "E006", 1, 2),  # a string, ended, is no variable
        ("(a :ARG0 (c / d))", "E004", 1, 2),
        ("(a / :ARG0 (c / d))", "E004", 1, 4),
        ("(a / b :ARG0)", "E005", 1, 8),
        ("(a / b c)", "E006", 1, 8),
        ("# ::id x\n# ::snt nothing follows\n", "E007", 2, 1),
    ],
)
def test_syntax_errors_have_codes_and_places(
    text: str, code: str, line: int, column: int
) -> None:
    corpus = read_string(text)
    assert len(corpus) == 1
    (error,) = corpus.errors
    assert (error.code, error.span.line, error.span.column) == (code, line, column)


def test_deeply_nested_graph_reads_without_recursion() -> None:
    depth = 20_000
    text = "".join(f"(n{i} / c :ARG0 " for i in range(depth)) + "(x / y)" + ")" * depth
    graph = decode(text)
    assert len(graph.triples) == 2 * depth + 1


def test_decode_raises_with_location() -> None:
    with pytest.raises(DecodeError) as caught:
        decode("(a / b\n  :ARG0 (c / ))")
    assert caught.value.span is not None
    assert (caught.value.span.line, caught.value.span.column) == (2, 12)
    assert "<string>:2:12" in str(caught.value)


def test_unreadable_files_raise_input_error(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="missing.amr"):
        read_corpus(tmp_path / "missing.amr")
    bad = tmp_path / "latin1.amr"
    bad.write_bytes("(a / b)\n(c / caf\xe9)\n".encode("latin-1"))
    with pytest.raises(InputError, match=r"latin1.amr: 2:9: not valid UTF-8"):
        read_corpus(bad)


def _chunked(path: Path, chunk_bytes: int) -> list[Chunk]:
    return list(read_chunks(path, chunk_bytes))


@pytest.mark.parametrize(
    "path",
    [
        data_path("stray_token.amr"),
        data_path("crlf_bom_unicode.amr"),
        data_path("three_graphs.amr"),
        # malformed graphs, graphs without blank lines between them
        shared_path("amr_guidelines/guidelines_examples.amr"),
        shared_path("little_prince/amr-bank-struct-v3.0.txt"),
        shared_path("multi_annotator_toy/comptest_annot2.txt"),
    ],
    ids=lambda p: p.name,
)
def test_chunks_read_what_the_whole_file_reads(path: Path) -> None:
    whole = read_corpus(path)
    chunks = _chunked(path, 512)
    pieces = [entry for chunk in chunks for entry in chunk.corpus]
    assert len(chunks) > 1 or len(path.read_bytes()) <= 512
    assert [(e.index, e.id, str(e.span), e.text) for e in pieces] == [
        (e.index, e.id, str(e.span), e.text) for e in whole
    ]
    for mine, theirs in zip(pieces, whole, strict=True):
        assert (mine.graph is None) == (theirs.graph is None)
        if mine.graph is not None and theirs.graph is not None:
            assert mine.graph.triples == theirs.graph.triples
            last = len(mine.graph.triples) - 1
            assert str(mine.graph.triple_span(last)) == str(
                theirs.graph.triple_span(last)
            )
    errors = [str(f) for chunk in chunks for f in chunk.corpus.errors]
    assert errors == [str(f) for f in whole.errors]


def test_a_graph_is_read_again_from_its_place(tmp_path: Path) -> None:
    path = tmp_path / "unicode.amr"
    text = "# ::id é\n(a / café)\n\n(b / bé :ARG0 (c / ç)) (d / dé)\n"
    path.write_text(text * 40, encoding="utf-8")
    chunks = _chunked(path, 64)
    assert len(chunks) > 10
    with path.open("rb") as handle:
        for chunk in chunks:
            for entry in chunk.corpus:
                assert entry.graph is not None
                again = read_graph(handle, str(path), chunk.place(entry.graph))
                assert again.triples == entry.graph.triples
                assert str(again.target_span(0)) == str(entry.graph.target_span(0))
                assert again.text == entry.graph.text


def test_undecodable_bytes_in_a_later_chunk_have_their_file_place(
    tmp_path: Path,
) -> None:
    bad = tmp_path / "late.amr"
    bad.write_bytes(b"(a / b)\n\n" * 200 + "(c / caf\xe9)\n".encode("latin-1"))
    chunks = read_chunks(bad, 64)
    with pytest.raises(InputError, match=r"late.amr: 401:9: not valid UTF-8"):
        list(chunks)
    with pytest.raises(InputError, match="missing.amr"):
        read_chunks(tmp_path / "missing.amr").__next__()


def test_a_graph_that_is_gone_is_an_input_error(tmp_path: Path) -> None:
    path = tmp_path / "changing.amr"
    path.write_text("(a / b)\n\n(c / d :ARG0 (e / f))\n")
    *_, chunk = read_chunks(path)
    graph = chunk.corpus.entries[-1].graph
    assert graph is not None
    place = chunk.place(graph)
    path.write_text("(a / b)\n\n(c / d")  # shortened since it was read
    with path.open("rb") as handle, pytest.raises(
        InputError, match=r"changing.amr: 3:1: the file changed while being read"
    ):
        read_graph(handle, str(path), place)


def test_graph_lines_are_counted_across_read_blocks(tmp_path: Path) -> None:
    path = tmp_path / "big.amr"
    # the count reads blocks of CHUNK_BYTES: the second "(" opens the
    # second block, its "\n" ends the first
    path.write_bytes(
        b"(a / b)\n" + b"#" * (CHUNK_BYTES - 9) + b"\n(c / d)\n  (e / f)\n"
    )
    assert count_graph_lines(path) == 2
    # a "(" that opens a block after no newline opens no graph line
    path.write_bytes(b"(a / b)\n" + b"#" * (CHUNK_BYTES - 8) + b"(c / d)\n(e / f)\n")
    assert count_graph_lines(path) == 2


def test_chunk_lines_and_columns_are_the_source_ones() -> None:
    source = SourceText("x\n\n(a / b)  (c / é\n  :ARG0 d)\n", "x.amr", first_line=7)
    chunk = Chunk(Corpus(source, []), 0)
    offsets = [0, 1, 2, 3, 11, 20, 5, 27, len(source.text)]  # one step back
    assert [chunk.line_column(o) for o in offsets] == [
        source.line_column(o) for o in offsets
    ]


def test_entry_is_exported_from_reading() -> None:
    import amrcheck
    from amrcheck.reading import Entry

    corpus = read_string("# ::id a\n(w / want-01)\n")
    assert amrcheck.Entry is Entry
    assert isinstance(corpus[0], Entry) and corpus[0].id == "a"
