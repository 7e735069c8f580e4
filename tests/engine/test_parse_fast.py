"""The reader's fast path gives exactly what the full parser gives."""

from __future__ import annotations

from pathlib import Path

import pytest

import amrcheck._parse as parse
from amrcheck.corpus import read_corpus, read_string

from ..conftest import SHARED_AMR_FILES


def _snapshot(path: Path | None = None, text: str | None = None) -> list[object]:
    corpus = read_corpus(path) if path is not None else read_string(text or "")
    out: list[object] = []
    for entry in corpus:
        g = entry.graph
        out.append(
            (entry.start, entry.end, entry.metadata, [str(e) for e in entry.errors])
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


@pytest.mark.parametrize(
    "path", SHARED_AMR_FILES, ids=lambda p: f"{p.parent.name}/{p.name}"
)
def test_fast_path_equals_full_parser(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fast = _snapshot(path)
    monkeypatch.setattr(parse, "_fast_graph", lambda *args: None)
    assert _snapshot(path) == fast


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
    ],
)
def test_fast_path_edge_cases(text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    fast = _snapshot(text=text)
    monkeypatch.setattr(parse, "_fast_graph", lambda *args: None)
    assert _snapshot(text=text) == fast
