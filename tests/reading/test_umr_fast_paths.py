"""The UMR reader's fast paths (a plain graph block read without entries,
plain alignment lines, document-level tokens cut by white space, plain
``# :: sntN`` lines) give what the general paths give: every item, place,
note and error, on the English release and on odd texts made for them."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

import pytest

from amrcheck.reading import umr as umr_module
from amrcheck.reading.umr import UmrDocument, UmrSentence, read_umr, read_umr_string
from tests.conftest import SHARED_DATA

ENGLISH = SHARED_DATA / "umr" / "english"

#: alignment lines: plain ones and those the patterns must read
ALIGNMENT_LINES = [
    "s1p: 3-3",
    "s1p:3-3",
    "s1p: -1--1",
    "s1p: 3-3,",
    "s1p: 3-3, 4-4",
    "s1p:  3-3  ",
    "s1p :3-3",
    "s1p: 3 - 3",
    "s1p: \u0663-\u0663",
    "s1p: 3-3\r",
    "s1p:x",
    "s1p:",
    "s1p: 0-0\t",
    "a:b: 1-1",
    "s1p: 00-01",
    "s1p: 3-",
    "s1p: -3",
    "s1p:-1-2",
    "s1p: 3-3-3",
    "s1p:\x1c3-3",
    "s1p\u00e9: 1-1",
    "(s1p: 1-1",
    ":s1p: 1-1",
    "s1_p: 1-1",
    "s1p: 1-1 2-2",
    "s1p: 1--1",
    "s1p: 12-3",
    "s1p:\t1-1",
    "s1p:1-1x",
    "s1p: \u00a01-1",
    "s1p: 1-1\u00a0",
]
#: document-level blocks: plain ones and those the pattern must cut
DOCUMENT_BLOCKS = [
    "(s1s0 / sentence)",
    "(s1s0/sentence)",
    "(s1s0 / sentence :temporal((a :before b)))",
    "(s1s0 / sentence\n    :temporal ((a :before b)\n        (c :after d)))",
    "(s1s0 / sentence :temporal ((a:x :before b)))",
    "(s1s0 / sentence :temporal ((a :be/fore b)))",
    '(s1s0 / sentence :coref ((a :same-entity "b c")))',
    "(s1s0 / sentence :modal ((root :modal author)) extra)",
    "(s1s0 / sentence :temporal ((a :before b)) interviewer (c :x d)))",
    "(s1s0 / sentence :temporal (",
    "(s1s0 / sentence :temporal ((a :before b) note (c :after d)))",
    "(s1s0 / sentence :temporal ((a ::before b)))",
    "(s1s0 / sentence :temporal ((a : b)))",
    "(s1s0 / / sentence)",
    "((s1s0 / sentence))",
    "(s1s0 / sentence :x)(",
    "(s1s0 / sentence :temporal ((a :before b)))\n:modal ((x :y z))",
    "(s1s0 / sentence\u00a0:temporal ((a\u2003:before b)))",
    "(s1s0 / sentence :temporal ((a :before b)))))",
    "(s1s0 / sentence :temporal ((a :bef(ore b)))",
    "( s1s0 / sentence )",
]
#: sentence-level graphs: one plain run of lines, and what is not
GRAPHS = [
    "(s1p / publication-91\n    :ARG1 (s1l / landslide-01))",
    "(s1p / p\n(s1q / q))",
    "(s1p / p)\n(s1q / q)",
    "(s1p / p :ARG0 (s1q / q~e.2))",
    "(s1p / p\n  # c\n  :ARG0 (s1q / q))",
    "  (s1p / p)",
    '(s1p / p :op1 "a b")',
    "(s1p / p\n\t:ARG0 s1q)",
    "(s1p / p))",
    "(s1p / p",
    "(s1p / p :ARG0 (s1p / q))",
    "(s1p/p)",
    "(s1p / p\r\n    :ARG0 (s1q / q))\r",
]
HEADERS = [
    "# :: snt1",
    "# :: snt01",
    "# :: snt1 Dogs bark",
    "#:: snt1",
    "# :: snt\u0661",
    "# :: snt1\t",
]


def _sentence_text(
    number: int, header: str, graph: str, alignment: str, document: str
) -> str:
    return (
        f"{header.replace('1', str(number), 1)}\nIndex: 1 2\nWords: a b\n\n"
        f"# sentence level graph:\n{graph}\n\n"
        f"# alignment:\ns{number}p: 1-1\n{alignment}\n\n"
        f"# document level annotation:\n{document}\n\n\n"
    )


ODD_TEXT = "".join(
    _sentence_text(
        i + 1,
        HEADERS[i % len(HEADERS)],
        GRAPHS[i % len(GRAPHS)],
        ALIGNMENT_LINES[i % len(ALIGNMENT_LINES)],
        DOCUMENT_BLOCKS[i % len(DOCUMENT_BLOCKS)],
    )
    for i in range(max(len(ALIGNMENT_LINES), len(DOCUMENT_BLOCKS), len(GRAPHS)))
)


def _everything(sentence: UmrSentence) -> tuple[Any, ...]:
    """All a sentence holds, each item with its place (graph offsets asked for)."""
    graph = sentence.graph
    document = sentence.document
    return (
        sentence.source.text,
        sentence.source.first_line,
        sentence.start,
        sentence.end,
        sentence.number,
        sentence.number_places,
        sentence.metadata,
        sentence.metadata_places,
        [
            (r.name, r.start, r.end, r.rest, r.rest_start, r.items)
            for r in sentence.rows
        ],
        None
        if graph is None
        else (
            graph.top,
            graph.triples,
            graph.kinds,
            graph.start,
            graph.end,
            graph.alignments,
            graph.offsets,
        ),
        [
            (a.variable, a.start, a.end, a.ranges, a.range_offsets, a.error)
            for a in sentence.alignments
        ],
        (
            document.variable,
            document.variable_place,
            document.concept,
            document.concept_place,
            document.triples,
            document.groups,
        ),
        sentence.block_places,
        sentence.fallback_nodes,
        sentence.notes,
        [
            (
                e.code,
                e.message,
                e.span.start,
                e.span.end,
                [(r.span.start, r.message) for r in e.related],
            )
            for e in sentence.errors
        ],
    )


def _general_paths(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make the reader take its general paths only."""
    monkeypatch.setattr(umr_module, "fast_graph", lambda *_: None)
    monkeypatch.setattr(umr_module, "_plain_alignment", lambda *_: None)
    monkeypatch.setattr(umr_module, "_doc_tokens", lambda *_: [])
    monkeypatch.setattr(umr_module, "_plain_number", lambda _: None)


def _both(read: Callable[[], UmrDocument]) -> tuple[list[Any], list[Any]]:
    fast = [_everything(s) for s in read().sentences]
    with pytest.MonkeyPatch.context() as patch:
        _general_paths(patch)
        general = [_everything(s) for s in read().sentences]
    return fast, general


def test_odd_texts_read_alike_on_both_paths() -> None:
    fast, general = _both(lambda: read_umr_string(ODD_TEXT))
    assert len(fast) == max(len(ALIGNMENT_LINES), len(DOCUMENT_BLOCKS), len(GRAPHS))
    for number, (one, other) in enumerate(zip(fast, general, strict=True), 1):
        assert one == other, number
    # the odd texts have errors and notes for the paths to agree on
    assert any(sentence[-1] for sentence in fast) and any(
        sentence[-3] for sentence in fast
    )


def test_the_fast_paths_read_plain_text(monkeypatch: pytest.MonkeyPatch) -> None:
    """They are taken where the text is plain (else the test above proves nothing)."""
    text = _sentence_text(
        1, "# :: snt1", GRAPHS[0], ALIGNMENT_LINES[0], DOCUMENT_BLOCKS[3]
    )
    calls: list[str] = []
    for name in ("fast_graph", "_plain_alignment", "_doc_tokens", "_plain_number"):
        real = getattr(umr_module, name)

        def counted(*args: Any, _real: Any = real, _name: str = name) -> Any:
            result = _real(*args)
            if result:
                calls.append(_name)
            return result

        monkeypatch.setattr(umr_module, name, counted)
    sentence = read_umr_string(text).sentences[0]
    assert sentence.graph is not None and sentence.document.triples
    assert sorted(calls) == sorted(
        [
            "fast_graph",
            "_plain_alignment",
            "_plain_alignment",
            "_doc_tokens",
            "_plain_number",
        ]
    )


@pytest.mark.slow
@pytest.mark.parametrize("part", range(4))
def test_the_english_release_reads_alike_on_both_paths(part: int) -> None:
    files = sorted(ENGLISH.glob("*.umr"))
    assert len(files) == 584
    for path in files[part::4]:
        fast, general = _both(partial(read_umr, path))
        assert fast == general, path
