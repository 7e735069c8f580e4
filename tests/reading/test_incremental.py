"""Incremental re-reading gives exactly what a full read gives."""

from __future__ import annotations

import os
import random

import pytest

from amrcheck import Corpus, read_corpus, read_string
from amrcheck.reading.incremental import reparse

from ..conftest import data_path, shared_path

CASES = int(os.environ.get("AMRCHECK_INCREMENTAL_CASES", "400"))
SNIPPETS = ["(", ")", "\n", "\n\n", "#", "# ::id x\n", " :ARG0 ", "(z / zebra)",
            '"', "x", "/", "\n(q / quick)\n", " ", "~e.1", ":"]


def snapshot(corpus: Corpus) -> list[object]:
    rows: list[object] = [str(f) for f in corpus.findings]
    for entry in corpus:
        rows.append((entry.index, entry.start, entry.end, entry.metadata,
                     entry.metadata_offsets, entry.comments,
                     [(str(f), f.span.start, f.span.end) for f in entry.errors]))
        graph = entry.graph
        if graph is not None:
            rows.append((graph.top, graph.triples, graph.offsets, graph.start,
                         graph.end, sorted(graph.alignments.items())))
    return rows


def random_edit(text: str, rng: random.Random) -> str:
    start = rng.randrange(len(text) + 1)
    end = min(len(text), start + rng.choice([0, 0, 1, 2, 5, 40]))
    insert = "".join(rng.choice(SNIPPETS) for _ in range(rng.choice([0, 1, 1, 2])))
    if rng.random() < 0.1:  # paste a chunk of the text elsewhere
        a = rng.randrange(len(text))
        insert = text[a:a + rng.randrange(200)]
    return text[:start] + insert + text[end:]


def base_text() -> str:
    little_prince = shared_path("little_prince/amr-bank-struct-v3.0.txt").read_text()
    excerpt = "\n\n".join(little_prince.split("\n\n")[:25])
    return excerpt + "\n\n" + data_path("stray_token.amr").read_text()


def test_random_edits_match_a_full_read() -> None:
    rng = random.Random(7)
    text = base_text()
    corpus = read_string(text, "doc.amr")
    for case in range(CASES):
        text = random_edit(text, rng)
        if case % 50 == 0:  # now and then start over from clean text
            text = base_text()
        corpus = reparse(corpus, text)
        assert snapshot(corpus) == snapshot(read_string(text, "doc.amr")), case
        assert corpus.source.text == text


@pytest.mark.parametrize("where", ["start", "middle", "end"])
def test_one_character_edit_reads_only_its_block(where: str) -> None:
    corpus = read_corpus(shared_path("little_prince/amr-bank-struct-v3.0.txt"))
    entry = {"start": corpus[0], "middle": corpus[700], "end": corpus[-1]}[where]
    assert entry.graph is not None
    offset = entry.graph.target_span(0).end  # after the top concept
    text = corpus.source.text
    new = reparse(corpus, text[:offset] + "x" + text[offset:])
    # untouched graphs keep lazy offsets: nothing re-read them
    untouched = [e for e in new if e.index != entry.index]
    assert sum(e.graph._offsets is None for e in untouched if e.graph) > 1500
    assert snapshot(new) == snapshot(read_string(new.source.text, corpus.path))
