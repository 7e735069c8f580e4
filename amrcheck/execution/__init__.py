"""Running long jobs: one way to run a map, on local processes or a Dask cluster.

Layer: engine, below the workflows; it knows nothing of AMR. The
workflows call :func:`run_map`, :func:`run_batches` or :func:`run_work`
with ``jobs``: a number of local processes (``--jobs``; forked workers,
:class:`Processes`) or a backend such as the cluster that
:func:`connect` opens (``--cluster local:N`` or ``tcp://host:8786``,
Dask distributed). Results are the same, in the same order, on every
backend; progress is reported as items finish; Ctrl-C stops the workers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ._local import Processes, can_fork, default_jobs
from ._run import (
    Backend,
    Jobs,
    Progress,
    Work,
    backend_of,
    local_processes,
    run_batches,
    run_map,
    run_work,
    stripe,
)

if TYPE_CHECKING:
    from ._dask import DaskCluster, connect


def __getattr__(name: str) -> Any:
    # the Dask backend imports distributed (about a second): only on use
    if name in ("DaskCluster", "connect"):
        from . import _dask

        return getattr(_dask, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "Backend",
    "DaskCluster",
    "Jobs",
    "Processes",
    "Progress",
    "Work",
    "backend_of",
    "can_fork",
    "connect",
    "default_jobs",
    "local_processes",
    "run_batches",
    "run_map",
    "run_work",
    "stripe",
]
