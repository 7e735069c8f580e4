"""Whether this install has the compiled alignment search, and getting it there.

Layer: metrics, beside :mod:`._align`, which asks it. numba compiles the
search (:func:`._search.compiled`) the first time an install uses it, about
20 s, and caches the machine code (beside ``_search.py``, or where
``NUMBA_CACHE_DIR`` says); later processes load it in about 0.5 s. No run
waits for that compilation — a first run of 5,000 pairs or an editor's
keystroke used to stall 12–19 s on it — so:

* :func:`ready` tells, without importing numba, whether loading would find
  the code cached: a mark in the user cache folder (:mod:`amrcheck.cache`),
  written only once a process has loaded every entry point from numba's
  cache. The mark is per install: its name is a key of what that cache
  depends on (Python, numba's install, this host, this amrcheck's version
  and ``_search.py``'s path, size and time, numba's settings), so two
  installs (two checkouts, two virtual environments) on one machine each
  have their own and never rewrite each other's. It names numba's cache
  folder and numba's version, and numba's index of every entry point must
  still be there, written by that version (an install that shares the
  source file with another numba rewrites the index);
* :func:`prepare_in_background` starts ``python -m
  amrcheck.metrics._search_cache``, detached and at low priority: it
  compiles the search into numba's cache, then loads it in a fresh process,
  which writes the mark (:func:`record`). A lock file keeps it to one at a
  time per key; a lock older than :data:`STALE_LOCK_S` is taken over. A
  preparation that fails leaves its lock, so that the runs of the next
  :data:`STALE_LOCK_S` seconds neither try again nor say so again.
"""

from __future__ import annotations

import importlib.util
import os
import pickle
import platform
import subprocess
import sys
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..__about__ import __version__
from ..cache import cache_dir, write_atomically

#: entry points whose cached code makes the search ready (see ``_align``)
ENTRY_POINTS = ("build_triple_problem", "search", "mapping_value")
#: this module's name, also when run as ``python -m``
_MODULE = "amrcheck.metrics._search_cache"
#: seconds after which a preparation's lock is taken to be left by a dead one
STALE_LOCK_S = 900.0


def _stamp(path: str | None) -> str:
    if path is None:
        return "-"
    try:
        status = os.stat(path)
    except OSError:
        return f"{path}:missing"
    return f"{path}:{status.st_size}:{status.st_mtime_ns}"


def cache_key() -> str:
    """What numba's cache of the search depends on, hashed."""
    import hashlib  # (~2 ms: a compiled build never asks)

    numba = importlib.util.find_spec("numba")
    search_file = Path(__file__).with_name("_search.py")
    parts = [
        f"amrcheck {__version__}",
        sys.version,
        platform.node(),
        platform.machine(),
        _stamp(None if numba is None else numba.origin),
        _stamp(str(search_file)),
        *(f"{k}={v}" for k, v in sorted(os.environ.items()) if k.startswith("NUMBA_")),
    ]
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()[:20]


def _mark() -> Path:
    return cache_dir() / f"search-{cache_key()}.ready"


def _lock() -> Path:
    return cache_dir() / f"search-{cache_key()}.lock"


def ready() -> bool:
    """Whether loading the compiled search would find it in numba's cache."""
    try:
        folder, version = _mark().read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError, ValueError):
        return False
    numba_cache = Path(folder)
    python = f"py{sys.version_info.major}{sys.version_info.minor}"
    for name in ENTRY_POINTS:
        indexes = list(numba_cache.glob(f"_search.{name}-*.{python}.nbi"))
        if not indexes or not all(_index_version(i) == version for i in indexes):
            return False
    return True


class _TextOnly(pickle.Unpickler):
    """Unpickles plain values only (numba's index opens with its version)."""

    def find_class(self, module: str, name: str) -> Any:
        raise pickle.UnpicklingError(f"{module}.{name} is not a plain value")


def _index_version(index: Path) -> str | None:
    """The numba version that wrote an index of numba's cache (its first value)."""
    try:
        with index.open("rb") as stream:
            version = _TextOnly(stream).load()
    except (OSError, pickle.UnpicklingError, EOFError, ValueError):
        return None
    return version if isinstance(version, str) else None


def record(compiled: Mapping[str, Any]) -> bool:
    """Write the mark if every entry point of ``compiled`` came from numba's
    cache in this process (a process that compiled them proves nothing
    about the cache: it may not have been writable). Returns whether written.
    """
    import numba

    stats = [compiled[name].stats for name in ENTRY_POINTS]
    if any(s.cache_misses or not s.cache_hits for s in stats):
        return False
    mark = f"{stats[0].cache_path}\n{numba.__version__}\n".encode()
    return write_atomically(_mark(), lambda stream: stream.write(mark))


def _take_lock() -> bool:
    """Create the lock file; False if a live preparation holds it."""
    lock = _lock()
    try:
        lock.parent.mkdir(parents=True, exist_ok=True)
        if lock.exists() and time.time() - lock.stat().st_mtime > STALE_LOCK_S:
            lock.unlink(missing_ok=True)
        handle = os.open(lock, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
    except OSError:
        return False
    os.close(handle)
    return True


def prepare_in_background() -> bool:
    """Start compiling the search in a detached, low-priority process.

    Returns False when one is already under way (or the cache folder cannot
    be written: then every run keeps the plain search).
    """
    if not _take_lock():
        return False
    try:
        subprocess.Popen(
            [sys.executable, "-m", _MODULE],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,  # outlives the run, and its Ctrl-C
        )
    except OSError:
        _lock().unlink(missing_ok=True)
        return False
    return True


def _prepare() -> int:
    """Compile the search here, then load it in a fresh process, which
    writes the mark if it came from the cache. The lock is released once
    the search is ready; a failure keeps it (see the module docstring).
    Where mypyc compiled the search there is nothing of numba's to prepare."""
    from . import _search
    from ._align import use_compiled

    if _search.PACKED:
        return 0

    try:
        os.nice(10)  # the user's own run comes first
    except OSError:
        pass
    use_compiled(wait=True)
    check = [sys.executable, "-c", f"import {_MODULE} as c; c._check()"]
    status = subprocess.run(check, check=False).returncode
    if status == 0:
        _lock().unlink(missing_ok=True)
    return status


def _check() -> None:
    """Load the compiled search; :func:`._align.use_compiled` records it."""
    from ._align import use_compiled

    use_compiled(wait=True)
    raise SystemExit(0 if ready() else 1)


if __name__ == "__main__":
    raise SystemExit(_prepare())
