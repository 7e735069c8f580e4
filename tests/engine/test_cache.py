"""In-memory caches bounded by bytes (:mod:`amrcheck.cache`)."""

from __future__ import annotations

import sys

from amrcheck.cache import ByteBoundedLru, approximate_size
from amrcheck.span import SourceText


def test_the_least_recently_used_go_first_until_the_budget_fits() -> None:
    table = ByteBoundedLru[str, int](max_bytes=100)
    for key, size in [("a", 40), ("b", 40)]:
        table.put(key, len(key), size)
    assert table.get("a") == 1  # "a" is now the most recently used
    table.put("c", 3, 40)
    assert ("a" in table, "b" in table, "c" in table) == (True, False, True)
    assert table.bytes == 80 and len(table) == 2
    table.put("a", 4, 90)  # replacing an entry counts its new size only
    assert table.get("a") == 4 and "c" not in table and table.bytes == 90


def test_a_value_larger_than_the_budget_is_not_kept() -> None:
    table = ByteBoundedLru[str, str](max_bytes=10)
    table.put("small", "x", 5)
    table.put("huge", "y", 11)
    assert "huge" not in table and table.get("small") == "x"
    assert table.stats() == {"entries": 1, "bytes": 5, "maxBytes": 10}


def test_drop_removes_entries_and_their_bytes() -> None:
    table = ByteBoundedLru[tuple[str, int], str](max_bytes=100)
    for version in range(4):
        table.put(("doc", version), "view", 10)
    table.drop(lambda key: key[1] < 3)
    assert len(table) == 1 and table.bytes == 10 and ("doc", 3) in table


def test_approximate_size_counts_shared_objects_once_and_keeps_out_types() -> None:
    word = "x" * 1000
    pair = [word, word]
    assert approximate_size(pair) == sys.getsizeof(pair) + sys.getsizeof(word)
    source = SourceText("y" * 100_000)
    held = (source, "z")
    assert approximate_size(held) > 100_000
    assert approximate_size(held, keep_out=(SourceText,)) < 1_000
