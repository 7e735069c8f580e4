"""Retired: :func:`parallel_map` is :func:`amrcheck.execution.run_map`.

Importing a name from here still works and warns with a DeprecationWarning.
"""

from __future__ import annotations

import warnings
from typing import Any

_MOVED = {"parallel_map": "run_map", "default_jobs": "default_jobs"}


def __getattr__(name: str) -> Any:
    if name not in _MOVED:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    new = _MOVED[name]
    warnings.warn(
        f"amrcheck.execution.parallel.{name} moved to amrcheck.execution.{new}",
        DeprecationWarning,
        stacklevel=2,
    )
    from .. import execution

    return getattr(execution, new)
