"""The reader's fast path gives exactly what the full parser gives."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import amrcheck.reading._parse as parse
from amrcheck.reading.corpus import read_corpus, read_string

from ..conftest import SHARED_AMR_FILES, shared_path


def _snapshot(path: Path | None = None, text: str | None = None) -> list[object]:
    corpus = read_corpus(path) if path is not None else read_string(text or "")
    out: list[object] = []
    for entry in corpus:
        g = entry.graph
        out.append(
            (
                entry.start,
                entry.end,
                entry.metadata,
                entry.metadata_offsets,
                entry.comments,
                [str(e) for e in entry.errors],
            )
        )
        if g is not None:
            out.append(
                (
                    g.top,
                    g.triples,
                    list(map(int, g.kinds)),
                    g.offsets,
                    g.start,
                    g.end,
                    sorted(g.alignments.items()),
                )
            )
    return out


def _assert_full_parser_agrees(
    path: Path | None = None, text: str | None = None
) -> None:
    """The fast path read ``path`` or ``text`` as the full parser reads it."""
    fast = _snapshot(path, text)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(parse._EntryParser, "fast_block", lambda *args: False)
        assert _snapshot(path, text) == fast


@pytest.mark.parametrize(
    "path", SHARED_AMR_FILES, ids=lambda p: f"{p.parent.name}/{p.name}"
)
def test_fast_path_equals_full_parser(path: Path) -> None:
    _assert_full_parser_agrees(path)


@pytest.mark.parametrize(
    "text",
    [
        '(a / b~e.1 :ARG0~e.2 (c / d) :op1 "x y"~e.3)',
        "(a / b :ARG0 (c / d\n(e / f)",  # a "(" at column 1 inside a graph
        "(a / b # comment\n :ARG0 c)",
        "(a / b :ARG0)",
        "(a / b :ARG0 (c / d)) extra",
        "(a :ARG0 b)",
        '(a / b :ARG0 (c / "q"))',
        "# ::id x ::date y\n# note\n(a / b :ARG0~e.1 c~e.2 :ARG1 a)",
        "(a / b) (c / d)",  # two graphs on one line
        "(a / b :ARG0 :ARG1 c)",
        "(a / b :ARG0 c ~ )",
        '(a / b :op1 "never closed)',
        '(a / b :op1 "x\n(y" :op2 z)',
        "(a / b :)",
        "(a / b :ARG0 (c / d)",
        "(a / b))",
        "(a / b\r\n   :ARG0 (c / d))\r\n",
        "   (a / b)",
        "(a / b :ARG0 (/ d))",
        "(a / b :ARG0 (c d))",
        # where cutting at blanks and parens alone would not cut as the
        # token regex does (the split tokenizer must notice and step back)
        '(a / b :op1 "x:y" :op2 "u/v")',
        "(a / b :ARG0 c:d)",
        "(a / b :ARG0:ARG1 c)",
        "(a/b :ARG0 (c/ d))",
        "(a / b :op1 x/y)",
        '(a / b :op1 "x y" :op2 "z")',
        '(a / b :op1 "x\\"y")',
        '(a / b :op1 q" :op2 "r)',
        '(a / "x:y/z" :quant 2)',
        '(a / b :op1 "")',
        '(a / b :op1 "(x)")',
        '(a / b :op1 x"y"z)',
        # white space alone cuts: "(" glued to the variable after it, ")" to
        # the token before them, anywhere else the regex's cut differs
        "(a / b :ARG0(c / d))",
        "(a / b :op1 x(y))",
        "(a / b :op1 x)y)",
        "(a / b :op1 )x)",
        "( a / b)",
        "(a / b )",
        "(a / b :ARG0 (c / d) )",
        "((a / b))",
        "(a / b :ARG0 c))",
        "(a / b :ARG0 (c / d)))",
        "(a / b :ARG0 (c))",
        "(a / b :ARG0 (c / ))",
        '(a / b :op1 "x)")',
        '(a / "x(" :op1 c)',
        "(a / b\n   :ARG0 (c / d\n      :ARG1 e))\n",
    ],
)
def test_fast_path_edge_cases(text: str) -> None:
    _assert_full_parser_agrees(text=text)


_PIECES = [
    "(",
    ")",
    "/",
    " ",
    "\n",
    ":ARG0",
    ":",
    "a",
    "b",
    "c",
    '"',
    '"x y"',
    "x:y",
    "a/b",
    "~e.1",
    "~",
    "\\",
    '""',
    "-",
]


# glued (""): pieces side by side, so parentheses, colons, slashes and
# quotes sit inside and at the ends of what white space alone would cut as
# one token
@pytest.mark.parametrize("joiner", [" ", ""], ids=["spaced", "glued"])
@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.lists(st.sampled_from(_PIECES), max_size=30))
def test_fast_path_equals_full_parser_on_token_soup(
    joiner: str, pieces: list[str]
) -> None:
    _assert_full_parser_agrees(text="(a / b " + joiner.join(pieces))


def test_fast_path_reads_plain_corpora_without_offsets() -> None:
    corpus = read_corpus(shared_path("bamboo/sts/main/src.dev.amr"))
    lazy = [e for e in corpus if e.graph is not None and e.graph._offsets is None]
    # all but graphs with a "#" inside a string (two URLs) take the fast path
    assert len(lazy) == len(corpus) - 2
    graph = lazy[0].graph
    assert graph is not None
    assert graph.role_span(0).text == graph.top  # offsets appear on demand
    assert graph._offsets is not None
