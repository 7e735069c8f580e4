"""The user cache folder: what amrcheck keeps between runs and can always rebuild.

Converted word vectors (:mod:`amrcheck.embeddings`) and the mark that the
compiled alignment search is ready on this machine
(:mod:`amrcheck.metrics._search_cache`) live in ``$AMRCHECK_CACHE_DIR``,
else ``$XDG_CACHE_HOME/amrcheck``, else ``~/.cache/amrcheck``. The cache is
only an accelerator: where it cannot be written, the work is done again.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO


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
