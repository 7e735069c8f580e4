"""BAMBOO dev corpora and their reference rows, read once per test session."""

from __future__ import annotations

from functools import lru_cache

from amrcheck.reading.corpus import Corpus, read_corpus

from .reference import SUBTASK_IDS, bamboo_files, reference_rows


@lru_cache(maxsize=None)
def subtask(subtask_id: str) -> tuple[Corpus, Corpus, list[dict[str, str]]]:
    """(tgt = candidate, src = reference, reference rows) of a subtask."""
    tgt, src = bamboo_files(subtask_id)
    return read_corpus(tgt), read_corpus(src), reference_rows(subtask_id)


def all_pairs() -> list[tuple[str, int, Corpus, Corpus, dict[str, str]]]:
    """Every dev pair in BAMBOO order: (subtask, index, tgt, src, row)."""
    found = []
    for subtask_id in SUBTASK_IDS:
        tgt, src, rows = subtask(subtask_id)
        assert len(tgt) == len(src) == len(rows), subtask_id
        found += [(subtask_id, i, tgt, src, row) for i, row in enumerate(rows)]
    return found
