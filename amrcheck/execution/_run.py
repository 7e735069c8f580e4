"""One way to run a long job: a map, batches as they come, or sharded work.

Layer: engine utility, metric-agnostic, no front-end imports. Every long
run of the engine (score, diff, iaa, the benchmarks, index building,
duplicate search) goes through :func:`run_map`, :func:`run_batches` or
:func:`run_work`, which hand the work to a backend:

* an ``int`` (``--jobs N``) or :class:`~amrcheck.execution._local.Processes`:
  this process, or forked worker processes on this machine;
* a :class:`~amrcheck.execution._dask.DaskCluster` (``--cluster``): the
  workers of a Dask distributed cluster, local or remote.

Whatever the backend, results come back in item (batch) order and are
the same as a serial run's, as long as the function is deterministic
per item (every metric seeds each pair on its own); ``progress`` is
called with the number of items finished as they finish; a
``KeyboardInterrupt`` in the caller stops the workers.

Example:
    >>> done = []
    >>> run_map(abs, [-2, 1, -3], jobs=2, progress=done.append, chunk_size=1)
    [2, 1, 3]
    >>> sum(done)
    3
    >>> list(run_batches(abs, iter([[-2, 1], [-3]]), jobs=2))
    [[2, 1], [3]]
    >>> def batches():
    ...     yield from [[-2, 1], [-3]]
    ...     return "read"
    >>> def work(shard, shards):
    ...     return stripe(batches(), shard, shards)
    >>> def absolute(batch):
    ...     return [abs(x) for x in batch]
    >>> run = run_work(absolute, work, jobs=2)
    >>> sorted(x for results in run for x in results), run.summaries
    ([1, 2, 3], ['read', 'read'])
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from typing import Any, Generic, Protocol, TypeAlias, TypeVar

from ._local import Processes

T = TypeVar("T")
R = TypeVar("R")
S = TypeVar("S")
V = TypeVar("V")

#: called with the number of items finished since the previous call
Progress = Callable[[int], None]

#: the batches of worker ``shard`` of ``shards`` and, at their end, a summary
Work = Callable[[int, int], Generator[Sequence[T], None, Any]]


class Backend(Protocol):
    """Where the work runs: what :class:`Processes` and ``DaskCluster`` provide."""

    @property
    def workers(self) -> int:
        """Tasks that run at once (sizes the chunks of a map)."""
        ...

    def map(
        self,
        function: Callable[[T], R],
        items: Sequence[T],
        progress: Progress,
        chunk_size: int,
    ) -> list[R]: ...

    def batches(
        self,
        function: Callable[[T], R],
        batches: Iterable[Sequence[T]],
        progress: Progress,
        in_flight: int | None,
    ) -> Iterator[list[R]]: ...

    def work(self, run: run_work[T, R]) -> Iterator[list[R]]: ...


#: processes on this machine (``--jobs``: 1 here, 0 one per CPU) or a backend
Jobs: TypeAlias = "int | Backend"


def backend_of(jobs: Jobs) -> Backend:
    """The backend that ``jobs`` stands for."""
    return Processes(jobs) if isinstance(jobs, int) else jobs


def local_processes(jobs: Jobs) -> int:
    """How many local processes ``jobs`` runs in; 0 for a cluster.

    For work that only local processes can do (forked workers reading
    their own part of a file by path).
    """
    backend = backend_of(jobs)
    return backend.jobs if isinstance(backend, Processes) else 0


def _silent(done: int) -> None:
    pass


def run_map(
    function: Callable[[T], R],
    items: Sequence[T],
    jobs: Jobs = 1,
    progress: Progress | None = None,
    chunk_size: int | None = None,
) -> list[R]:
    """``[function(x) for x in items]`` on a backend, reporting progress.

    Args:
        function: applied to every item (deterministic per item).
        items: the work, in order.
        jobs: processes (1 runs here, 0 or less one per CPU) or a backend.
        progress: called after each item (serial) or chunk (parallel)
            with the number of items just finished.
        chunk_size: items per task; default about 16 chunks per worker,
            small enough for a smooth progress bar.

    Returns:
        The results in item order.
    """
    backend = backend_of(jobs)
    if chunk_size is None:
        chunk_size = max(1, -(-len(items) // (backend.workers * 16)))
    return backend.map(function, items, progress or _silent, chunk_size)


def run_batches(
    function: Callable[[T], R],
    batches: Iterable[Sequence[T]],
    jobs: Jobs = 1,
    progress: Progress | None = None,
    in_flight: int | None = None,
) -> Iterator[list[R]]:
    """``[function(x) for x in batch]`` for each batch, in order, as batches come.

    Args:
        function: applied to every item (deterministic per item).
        batches: the work; read only as far as needed to keep the workers
            busy, so a generator of batches is never run far ahead.
        jobs: processes (1 runs here, 0 or less one per CPU) or a backend.
        progress: called with the number of items of each finished batch.
        in_flight: batches handed out and not yet collected (default two
            per worker); this bounds the memory the work takes.

    Yields:
        Each batch's results, in batch order.
    """
    return backend_of(jobs).batches(function, batches, progress or _silent, in_flight)


def stripe(
    batches: Generator[S, None, V], shard: int, shards: int
) -> Generator[S, None, V]:
    """Every ``shards``-th of ``batches`` from number ``shard`` (0-based);
    returns what ``batches`` returns."""
    if shards == 1:  # one worker: every batch, without a step of its own
        whole: V = yield from batches
        return whole
    number = 0
    while True:
        try:
            batch = next(batches)
        except StopIteration as end:
            value: V = end.value
            return value
        if number % shards == shard:
            yield batch
        number += 1


class run_work(Generic[T, R]):  # noqa: N801 (used like a function)
    """``function`` over the batches of ``work``, on a backend.

    ``function`` takes a batch and returns a list of results, one per
    item (so a metric may score a batch together). ``work(shard,
    shards)`` is a generator function giving the batches of one of
    ``shards`` workers, which it makes on its own (it reads files by
    path, say), and returning a summary at its end. Iterate over the run
    for each batch's results, then read :attr:`summaries`.

    With one job, ``work(0, 1)`` runs here, in order. On a cluster (or
    where processes cannot be forked), ``work(0, 1)`` runs here and its
    batches are shipped to the workers; results come in batch order.
    With forked local processes each worker runs its own share, results
    come in any order of batches, an error raised by the work in a
    worker is raised here, and ``give_up`` (if given) may stop the run
    when a worker's summary comes: then :attr:`gave_up` is True and the
    results so far are all there is.
    """

    def __init__(
        self,
        function: Callable[[Sequence[T]], list[R]],
        work: Work[T],
        jobs: Jobs = 1,
        progress: Progress | None = None,
        give_up: Callable[[Any], bool] | None = None,
    ) -> None:
        self.function = function
        self.work = work
        self.backend = backend_of(jobs)
        self.report = progress or _silent
        self.give_up = give_up
        #: what each worker's work returned (one, when made here)
        self.summaries: list[Any] = []
        self.gave_up = False

    def __iter__(self) -> Iterator[list[R]]:
        return self.backend.work(self)

    def batches_here(self) -> Iterator[Sequence[T]]:
        """All the batches, made in this process; then the one summary is known."""
        self.summaries = [(yield from self.work(0, 1))]
