"""Run a function over many items in N processes, in chunks, results in order.

Layer: engine utility, metric-agnostic. Results are the same as a serial
run whatever ``jobs`` and ``chunk_size`` are, as long as ``function`` is
deterministic per item (the metrics seed each pair on its own, so they
are). Where the ``fork`` start method exists, workers inherit the items
and the function from the parent, so only chunk bounds and results cross
process boundaries (graphs are never pickled); elsewhere both must be
picklable.

Example:
    >>> parallel_map(abs, [-2, 1, -3], jobs=2, chunk_size=1)
    [2, 1, 3]
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")
R = TypeVar("R")

#: (function, items) of the running map, inherited by forked workers
_TASK: tuple[Callable[[Any], Any], Sequence[Any]] | None = None


def _run_inherited(bounds: tuple[int, int]) -> list[Any]:
    assert _TASK is not None, "worker started without a task"
    function, items = _TASK
    return [function(items[i]) for i in range(*bounds)]


def _run_shipped(function: Callable[[T], R], chunk: Sequence[T]) -> list[R]:
    return [function(item) for item in chunk]


def default_jobs() -> int:
    """The number of CPUs this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def parallel_map(
    function: Callable[[T], R],
    items: Sequence[T],
    jobs: int = 1,
    chunk_size: int | None = None,
) -> list[R]:
    """``[function(x) for x in items]`` using ``jobs`` processes.

    Args:
        function: applied to every item.
        items: the work, in order.
        jobs: processes to use; 1 (or a single chunk) runs in this process,
            0 or less means one per CPU.
        chunk_size: items per task; default splits the work into about
            four chunks per process.

    Returns:
        The results in item order.
    """
    global _TASK
    if jobs <= 0:
        jobs = default_jobs()
    count = len(items)
    if chunk_size is None:
        chunk_size = max(1, -(-count // (jobs * 4)))
    bounds = [(s, min(s + chunk_size, count)) for s in range(0, count, chunk_size)]
    if jobs == 1 or len(bounds) <= 1:
        return [function(item) for item in items]
    results: list[R] = []
    workers = min(jobs, len(bounds))
    if "fork" in multiprocessing.get_all_start_methods():
        _TASK = (function, items)
        try:
            context = multiprocessing.get_context("fork")
            with ProcessPoolExecutor(workers, mp_context=context) as pool:
                for chunk in pool.map(_run_inherited, bounds):
                    results.extend(chunk)
        finally:
            _TASK = None
        return results
    with ProcessPoolExecutor(workers) as pool:
        chunks = [items[s:e] for s, e in bounds]
        for chunk in pool.map(_run_shipped, [function] * len(chunks), chunks):
            results.extend(chunk)
    return results
