"""The server's UMR analysis: its caches give the validator's findings, edit
after edit."""

from __future__ import annotations

import json
import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pygls.protocol import default_converter

from amr_lsp.umr import UmrAnalysis, UmrCache, analyze_umr, is_umr_document
from amrcheck.reading.umr import iter_umr_pieces, read_umr_string, split_lines
from amrcheck.validation.umr import UmrOptions, validate_umr
from tests.conftest import data_path

UMR_FILE = data_path("umr") / "english_umr-0003.umr"
TEXT = UMR_FILE.read_text(encoding="utf-8")
URI = "file:///work/x.umr"


def findings_of(text: str) -> list[tuple[str, int, int, str]]:
    """What ``amrcheck check`` reports (code, line, column, message)."""
    return [
        (f.code, f.span.line, f.span.column, f.message)
        for f in validate_umr(read_umr_string(text, "/work/x.umr").sentences)
    ]


Found = list[tuple[str, int, int, str]]


CONVERTER = default_converter()


def analysed(cache: UmrCache, text: str, version: int) -> Found:
    """The findings of the cached analysis; its diagnostics (JSON, partly
    cached, partly moved) checked against the same findings converted anew."""
    analysis = analyze_umr(URI, version, text, "utf-16", cache, UmrOptions())
    published = json.loads(analysis.diagnostics_json(CONVERTER))["diagnostics"]
    fresh = UmrAnalysis(
        URI, version, analysis.lines, analysis.line_starts, analysis.reads,
        analysis.checked, analysis.document_findings, analysis.starts,
    )
    assert published == [
        CONVERTER.unstructure(fresh.diagnostic(f)) for f in analysis.findings
    ]
    return [(f.code, f.span.line, f.span.column, f.message) for f in analysis.findings]


EDITS = [
    ("\n", None),  # a line break: the sentences below move
    ("x", None),  # typing in a concept
    ("s1p", None),  # a reference (to another sentence's node, perhaps)
    ("\n\n\n# :: snt4\n", None),  # a new sentence header: sentences split
    ("", 1),  # a character deleted
    ("", 40),  # a stretch deleted, perhaps across sentences
]


@settings(max_examples=25, deadline=None)
@given(st.lists(st.tuples(st.integers(0, len(TEXT)), st.sampled_from(EDITS)),
                min_size=1, max_size=6))
@pytest.mark.slow
def test_cached_analysis_is_the_validators(edits: list) -> None:
    cache = UmrCache()
    text = TEXT
    assert analysed(cache, text, 1) == findings_of(text)
    for version, (where, (insert, delete)) in enumerate(edits, 2):
        at = min(where, len(text))
        text = text[:at] + insert + text[at + (delete or 0):]
        assert analysed(cache, text, version) == findings_of(text)
        fresh = iter_umr_pieces(split_lines(text), URI)
        pieces = [(p.text, p.first_line) for p in fresh]
        assert [(p.text, p.first_line) for p in cache.pieces(text, URI)] == pieces


def test_an_edit_in_a_graph_reads_and_checks_one_sentence() -> None:
    cache = UmrCache()
    analysed(cache, TEXT, 1)
    before = dict(cache.stats)
    at = TEXT.index("(s2b / businessman") + len("(s2b / business")
    analysed(cache, TEXT[:at] + "x" + TEXT[at:], 2)
    assert cache.stats["read"] - before["read"] == 1
    assert cache.stats["checked"] - before["checked"] == 1


def test_a_new_node_name_checks_the_sentences_that_use_it_again() -> None:
    """Sentence 2's document block names s1p: when s1p stops being a node of
    sentence 1, sentence 2 is checked again (U403), not taken from the cache."""
    cache = UmrCache()
    analysed(cache, TEXT, 1)
    text = TEXT.replace("(s1p / person", "(s1q / person", 1)
    found = analysed(cache, text, 2)
    assert found == findings_of(text)
    assert any(code == "U403" and "'s1p'" in message for code, _, _, message in found)


def test_diagnostics_json_is_the_converters() -> None:
    converter = default_converter()
    analysis = analyze_umr(URI, 3, TEXT, "utf-16", UmrCache(), UmrOptions())
    params = json.loads(analysis.diagnostics_json(converter))
    assert params["uri"] == URI and params["version"] == 3
    expected = [
        converter.unstructure(analysis.diagnostic(f)) for f in analysis.findings
    ]
    assert params["diagnostics"] == expected
    assert len(expected) == len(findings_of(TEXT))


def test_umr_documents_are_recognised() -> None:
    assert is_umr_document("untitled:1", "umr", "")
    assert is_umr_document("file:///a/b.umr", "plaintext", "")
    assert is_umr_document("file:///a/b.txt", "plaintext", "# alignment:\n")
    assert not is_umr_document("file:///a/b.amr", "amr", "(a / b)\n")


def test_random_typing_matches_the_validator() -> None:
    rng = random.Random(3)
    cache = UmrCache()
    spots = [m.end() for m in re.finditer(r"[a-z]", TEXT)]
    text = TEXT
    for version in range(2, 30):
        at = rng.choice(spots)
        text = TEXT[:at] + rng.choice(["x", ":", "(", ")", " ", "s2p"]) + TEXT[at:]
        assert analysed(cache, text, version) == findings_of(text)


def test_an_unclosed_document_block_moved_down_keeps_a_true_message() -> None:
    """A cached finding moves with its sentence: its message names no line
    (the '(' it means is its related place)."""
    unclosed = TEXT.replace(
        ":coref ((s2p :same-entity s3p)))", ":coref ((s2p :same-entity s3p))", 1
    )
    cache = UmrCache()
    found = analysed(cache, unclosed, 1)
    assert found == findings_of(unclosed)
    assert any(
        code == "U401" and "not closed" in message for code, _, _, message in found
    )
    moved = "\n\n" + unclosed
    assert analysed(cache, moved, 2) == findings_of(moved)
