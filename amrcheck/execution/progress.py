"""Retired: the runners now live in :mod:`amrcheck.execution` (one layer, two backends).

Importing a name from here still works and warns with a DeprecationWarning.
"""

from __future__ import annotations

import warnings
from typing import Any

_MOVED = ("Progress", "Work", "run_batches", "run_map", "run_work", "stripe")


def __getattr__(name: str) -> Any:
    if name not in _MOVED:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    warnings.warn(
        f"amrcheck.execution.progress.{name} moved to amrcheck.execution.{name}",
        DeprecationWarning,
        stacklevel=2,
    )
    from .. import execution

    return getattr(execution, name)
