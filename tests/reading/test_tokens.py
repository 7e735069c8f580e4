"""The token patterns of :mod:`amrcheck.reading.tokens` agree with the reader.

The editor's scanners (completion, rename) read unfinished text with these
patterns, the reader reads whole graphs; on a real corpus both must see
the same variables, concepts and roles.
"""

from __future__ import annotations

from amrcheck import TripleKind, read_corpus
from amrcheck.reading.tokens import (
    BRACKET_SCAN_RE,
    FRAME_ARGUMENT_RE,
    NODE_HEAD_RE,
    NUMBER_RE,
    PARTIAL_TOKEN_RE,
    VARIABLE_NAME_RE,
)
from tests.conftest import shared_path

LITTLE_PRINCE = shared_path("little_prince/amr-bank-struct-v3.0.txt")


def test_node_heads_are_the_graphs_variables() -> None:
    corpus = read_corpus(LITTLE_PRINCE)
    for entry in corpus.entries[:200]:
        assert entry.graph is not None
        text = corpus.source.text[entry.graph_start : entry.end]
        heads = {m.group(1): m.group(2) for m in NODE_HEAD_RE.finditer(text)}
        assert heads == entry.graph.variables(), entry.id


def test_every_variable_is_a_legal_name_and_no_number_is() -> None:
    corpus = read_corpus(LITTLE_PRINCE)
    for entry in corpus.entries[:200]:
        assert entry.graph is not None
        for variable in entry.graph.variables():
            assert VARIABLE_NAME_RE.fullmatch(variable), (entry.id, variable)
        for index, (_, _, target) in enumerate(entry.graph.triples):
            if entry.graph.kinds[index] is TripleKind.ATTRIBUTE and NUMBER_RE.fullmatch(
                target
            ):
                assert not VARIABLE_NAME_RE.fullmatch(target)


def test_frame_arguments_and_their_inverses() -> None:
    plain = FRAME_ARGUMENT_RE.fullmatch(":ARG0")
    inverted = FRAME_ARGUMENT_RE.fullmatch(":ARG1-of")
    assert plain is not None and plain.groups() == ("ARG0", None)
    assert inverted is not None and inverted.groups() == ("ARG1", "-of")
    assert FRAME_ARGUMENT_RE.fullmatch(":op1") is None


def test_the_scanner_skips_parentheses_in_strings_and_comments() -> None:
    text = '(n / name :op1 "a (b" # ) here\n :op2 "c'
    brackets = [m.group() for m in BRACKET_SCAN_RE.finditer(text) if m.group() in "()"]
    assert brackets == ["("]
    typed = PARTIAL_TOKEN_RE.search("(w / wa")
    assert typed is not None and typed.group() == "wa"
