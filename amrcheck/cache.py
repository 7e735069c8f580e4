"""Caches: the user cache folder on disk, and in-memory tables bounded by bytes.

Converted word vectors (:mod:`amrcheck.embeddings`) and the mark that the
compiled alignment search is ready on this machine
(:mod:`amrcheck.metrics._search_cache`) live in ``$AMRCHECK_CACHE_DIR``,
else ``$XDG_CACHE_HOME/amrcheck``, else ``~/.cache/amrcheck``. The cache is
only an accelerator: where it cannot be written, the work is done again.

Long-lived processes (the language server) keep what they computed in
:class:`ByteBoundedLru` tables, bounded by an estimate of the memory they
hold (:func:`approximate_size`) rather than by a count of entries: an
entry count lets memory grow with the size of what is cached.
"""

from __future__ import annotations

import os
import sys
import tempfile
from collections import OrderedDict
from collections.abc import Callable, Hashable
from pathlib import Path
from typing import BinaryIO, Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


def cache_dir() -> Path:
    """The user cache folder (see the module docstring)."""
    explicit = os.environ.get("AMRCHECK_CACHE_DIR")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "amrcheck"


def write_atomically(path: Path, write: Callable[[BinaryIO], object]) -> bool:
    """Write through a temporary file and rename; False if not possible.

    Renaming makes concurrent first runs (several processes building the
    same cache) safe: readers see a whole file or none.
    """
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
        with os.fdopen(handle, "wb") as stream:
            write(stream)
        os.replace(temporary, path)
        return True
    except OSError:
        return False


def approximate_size(value: object, keep_out: tuple[type, ...] = ()) -> int:
    """Bytes held by ``value`` and everything it reaches, each object once.

    Follows containers, ``__dict__`` and ``__slots__``; objects of the
    ``keep_out`` types (things shared with the rest of the program, such as
    a reference document) are not counted or followed. An estimate for
    bounding caches by memory, not an exact account (the interpreter's own
    allocator overhead is left out).
    """
    seen: set[int] = set()
    total = 0
    pending = [value]
    while pending:
        item = pending.pop()
        if id(item) in seen or isinstance(item, keep_out):
            continue
        seen.add(id(item))
        total += sys.getsizeof(item)
        if isinstance(item, (str, bytes, int, float, bool)) or item is None:
            continue
        if isinstance(item, dict):
            pending.extend(item.keys())
            pending.extend(item.values())
        elif isinstance(item, (list, tuple, set, frozenset)):
            pending.extend(item)
        else:
            state = getattr(item, "__dict__", None)
            if state is not None:
                pending.append(state)
            for cls in type(item).__mro__:
                for name in cls.__dict__.get("__slots__", ()):
                    if hasattr(item, name):
                        pending.append(getattr(item, name))
    return total


class ByteBoundedLru(Generic[K, V]):
    """A least-recently-used table that holds at most ``max_bytes`` (estimated).

    Each value's size is given when it is put (``size``, e.g. from
    :func:`approximate_size`); the least recently used values are dropped
    until the total fits. A value larger than the whole budget is not kept.
    Not thread-safe: one user thread, or a lock around it.

    Example:
        >>> table = ByteBoundedLru[str, str](max_bytes=10)
        >>> table.put("a", "x", size=6); table.put("b", "y", size=6)
        >>> "a" in table, "b" in table, table.bytes
        (False, True, 6)
    """

    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self.bytes = 0
        self._items: OrderedDict[K, tuple[V, int]] = OrderedDict()

    def get(self, key: K) -> V | None:
        known = self._items.get(key)
        if known is None:
            return None
        self._items.move_to_end(key)
        return known[0]

    def put(self, key: K, value: V, size: int) -> None:
        old = self._items.pop(key, None)
        if old is not None:
            self.bytes -= old[1]
        if size > self.max_bytes:
            return
        self._items[key] = (value, size)
        self.bytes += size
        while self.bytes > self.max_bytes:
            _, (_, dropped) = self._items.popitem(last=False)
            self.bytes -= dropped

    def clear(self) -> None:
        self._items.clear()
        self.bytes = 0

    def drop(self, unwanted: Callable[[K], bool]) -> None:
        """Drop the entries whose key is ``unwanted``."""
        for key in [k for k in self._items if unwanted(k)]:
            self.bytes -= self._items.pop(key)[1]

    def __contains__(self, key: object) -> bool:
        return key in self._items

    def __len__(self) -> int:
        return len(self._items)

    def stats(self) -> dict[str, int]:
        """Entries and estimated bytes held, and the budget."""
        return {"entries": len(self), "bytes": self.bytes, "maxBytes": self.max_bytes}
