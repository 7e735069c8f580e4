"""Long runs over many items: worker processes, progress reports, clean interrupts.

Layer: engine utility, metric-agnostic, no front-end imports. Front ends
pass a ``progress`` callback (a bar, a log line, nothing) and get the
results in item order, identical for any ``jobs`` as long as the
function is deterministic per item (every metric seeds each pair on its
own).

Unlike :func:`amrcheck.parallel.parallel_map`, which hands back all
results at the end, :func:`run_map` reports each finished chunk, and a
Ctrl-C stops the workers at once: they ignore SIGINT (so they print no
tracebacks of their own) and are terminated when the parent's
``KeyboardInterrupt`` propagates.

Example:
    >>> done = []
    >>> run_map(abs, [-2, 1, -3], jobs=2, progress=done.append, chunk_size=1)
    [2, 1, 3]
    >>> sum(done)
    3
"""

from __future__ import annotations

import multiprocessing
import signal
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from .parallel import default_jobs, parallel_map

T = TypeVar("T")
R = TypeVar("R")

#: called with the number of items finished since the previous call
Progress = Callable[[int], None]

#: (function, items) of the running map, inherited by forked workers
_TASK: tuple[Callable[[Any], Any], Sequence[Any]] | None = None


def _ignore_sigint() -> None:
    # the parent handles Ctrl-C and terminates the pool
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _run_chunk(bounds: tuple[int, int]) -> list[Any]:
    assert _TASK is not None, "worker started without a task"
    function, items = _TASK
    return [function(items[i]) for i in range(*bounds)]


def run_map(
    function: Callable[[T], R],
    items: Sequence[T],
    jobs: int = 1,
    progress: Progress | None = None,
    chunk_size: int | None = None,
) -> list[R]:
    """``[function(x) for x in items]`` in ``jobs`` processes, reporting progress.

    Args:
        function: applied to every item (deterministic per item).
        items: the work, in order.
        jobs: processes; 1 runs here, 0 or less means one per CPU.
        progress: called after each item (serial) or chunk (parallel)
            with the number of items just finished.
        chunk_size: items per task; default about 16 chunks per process,
            small enough for a smooth progress bar.

    Returns:
        The results in item order.
    """
    global _TASK
    report = progress or (lambda done: None)
    jobs = default_jobs() if jobs <= 0 else jobs
    count = len(items)
    if chunk_size is None:
        chunk_size = max(1, -(-count // (jobs * 16)))
    bounds = [(s, min(s + chunk_size, count)) for s in range(0, count, chunk_size)]
    if jobs == 1 or len(bounds) <= 1:
        results = []
        for item in items:
            results.append(function(item))
            report(1)
        return results
    if "fork" not in multiprocessing.get_all_start_methods():
        # no fork: ship the chunks (function and items must pickle)
        shipped: list[R] = []
        for start, end in bounds:
            shipped += parallel_map(function, items[start:end], jobs=jobs)
            report(end - start)
        return shipped
    results = []
    _TASK = (function, items)
    pool = multiprocessing.get_context("fork").Pool(
        min(jobs, len(bounds)), initializer=_ignore_sigint
    )
    try:
        for (start, end), chunk in zip(
            bounds, pool.imap(_run_chunk, bounds), strict=True
        ):
            results.extend(chunk)
            report(end - start)
        pool.close()
    except BaseException:
        pool.terminate()
        raise
    finally:
        pool.join()
        _TASK = None
    return results
