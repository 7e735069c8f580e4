"""Long runs over many items: worker processes, progress reports, clean interrupts.

Layer: engine utility, metric-agnostic, no front-end imports. Front ends
pass a ``progress`` callback (a bar, a log line, nothing) and get the
results in item order, identical for any ``jobs`` as long as the
function is deterministic per item (every metric seeds each pair on its
own).

Unlike :func:`amrcheck.execution.parallel.parallel_map`, which hands back all
results at the end, :func:`run_map` reports each finished chunk, and a
Ctrl-C stops the workers at once: they ignore SIGINT (so they print no
tracebacks of their own) and are terminated when the parent's
``KeyboardInterrupt`` propagates. :func:`run_batches` does the same for
work that is produced as it goes (a file read in chunks): it takes
batches from a generator only as fast as the workers finish them.
:func:`run_work` is for work that a process can produce on its own
(files read by path): each forked worker makes its own share of the
batches, so nothing but results crosses between processes and the
reading itself runs on every core.

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

import multiprocessing
import signal
from collections import deque
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from contextlib import contextmanager
from itertools import chain
from multiprocessing.connection import wait
from multiprocessing.pool import AsyncResult, Pool
from typing import Any, Generic, TypeVar

from .parallel import default_jobs, parallel_map

T = TypeVar("T")
R = TypeVar("R")
S = TypeVar("S")
V = TypeVar("V")

#: called with the number of items finished since the previous call
Progress = Callable[[int], None]

#: what the workers of the running pool inherit when forked (see :func:`_workers`):
#: run_map's (function, items), run_batches' function, run_work's
#: (function, work, workers, queue)
_INHERITED: Any = None


def _ignore_sigint() -> None:
    # the parent handles Ctrl-C and terminates the pool
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@contextmanager
def _sigint_held() -> Iterator[None]:
    """Hold Ctrl-C while workers are forked.

    A SIGINT that arrives during a fork is raised inside an at-fork hook,
    where Python prints and drops it, so the run would go on. Held, it is
    delivered when the block ends, where the caller stops its workers.
    """
    held = None
    if hasattr(signal, "pthread_sigmask"):  # not on Windows
        held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        if held is not None:
            signal.pthread_sigmask(signal.SIG_SETMASK, held)


@contextmanager
def _workers(jobs: int, fork: bool, inherited: Any = None) -> Iterator[Pool]:
    """A pool of ``jobs`` workers that ignore Ctrl-C and inherit ``inherited``.

    Ctrl-C is held while the workers are forked (:func:`_sigint_held`).
    Leaving the block closes the pool (its tasks finish); an exception
    terminates it.
    """
    global _INHERITED
    _INHERITED = inherited
    context = multiprocessing.get_context("fork" if fork else None)
    with _sigint_held():
        pool = context.Pool(jobs, initializer=_ignore_sigint)
    try:
        yield pool
    except BaseException:
        pool.terminate()
        raise
    else:
        pool.close()  # after a terminate, this does nothing
    finally:
        pool.join()
        _INHERITED = None


def _run_chunk(bounds: tuple[int, int]) -> list[Any]:
    assert _INHERITED is not None, "worker started without a task"
    function, items = _INHERITED
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
    with _workers(min(jobs, len(bounds)), True, (function, items)) as pool:
        for (start, end), chunk in zip(
            bounds, pool.imap(_run_chunk, bounds), strict=True
        ):
            results.extend(chunk)
            report(end - start)
    return results


def _run_batch(batch: Sequence[Any]) -> list[Any]:
    assert _INHERITED is not None, "worker started without a task"
    return [_INHERITED(item) for item in batch]


def _run_shipped_batch(function: Callable[[T], R], batch: Sequence[T]) -> list[R]:
    return [function(item) for item in batch]


def run_batches(
    function: Callable[[T], R],
    batches: Iterable[Sequence[T]],
    jobs: int = 1,
    progress: Progress | None = None,
    in_flight: int | None = None,
) -> Iterator[list[R]]:
    """``[function(x) for x in batch]`` for each batch, in order, as batches come.

    Args:
        function: applied to every item (deterministic per item).
        batches: the work; read only as far as needed to keep the workers
            busy, so a generator of batches is never run far ahead.
        jobs: processes; 1 runs here, 0 or less means one per CPU.
        progress: called with the number of items of each finished batch.
        in_flight: batches handed out and not yet collected (default two
            per process); this bounds the memory the work takes.

    Yields:
        Each batch's results, in batch order.
    """
    report = progress or (lambda done: None)
    jobs = default_jobs() if jobs <= 0 else jobs
    if jobs == 1:
        for batch in batches:
            results = [function(item) for item in batch]
            report(len(batch))
            yield results
        return
    limit = in_flight or 2 * jobs
    work = iter(batches)
    first = next(work, None)
    if first is None:
        return  # no work, no processes
    forking = "fork" in multiprocessing.get_all_start_methods()
    pending: deque[tuple[int, AsyncResult[list[R]]]] = deque()
    # forked workers inherit the function; only batches are pickled
    with _workers(jobs, forking, function if forking else None) as pool:
        for batch in chain([first], work):
            task = (
                pool.apply_async(_run_batch, (batch,))
                if forking
                else pool.apply_async(_run_shipped_batch, (function, batch))
            )
            pending.append((len(batch), task))
            if len(pending) >= limit:
                yield _collect(pending.popleft(), report)
        while pending:
            yield _collect(pending.popleft(), report)


def _collect(task: tuple[int, AsyncResult[list[R]]], report: Progress) -> list[R]:
    size, result = task
    results = result.get()
    report(size)
    return results


#: the batches of worker ``shard`` of ``shards`` and, at their end, a summary
Work = Callable[[int, int], Generator[Sequence[T], None, Any]]

# what a worker sends: results of a batch, its work's summary, an error
_RESULTS, _DONE, _FAILED = 0, 1, 2


def _run_shard(shard: int) -> None:
    """Do worker ``shard``'s batches, sending results and summary to the parent.

    Stops early, without a summary, once the parent sets ``stop``.
    """
    assert _INHERITED is not None, "worker started without a task"
    _ignore_sigint()
    function, work, workers, channel, stop = _INHERITED
    try:
        batches = work(shard, workers)
        while not stop.is_set():
            try:
                batch = next(batches)
            except StopIteration as end:
                channel.send((_DONE, (shard, end.value)))
                return
            channel.send((_RESULTS, function(batch)))
        channel.send((_DONE, (shard, None)))
    except Exception as error:  # raised again in the parent
        try:
            channel.send((_FAILED, error))
        except Exception:  # an error that does not pickle: its text, then
            channel.send((_FAILED, RuntimeError(f"{type(error).__name__}: {error}")))


class _Channel:
    """Messages from the workers to the parent over one pipe.

    ``send`` holds a lock so that messages of several workers never
    interleave; ``receive`` also watches the workers, so one that dies
    without a word (killed, out of memory) raises instead of hanging.
    """

    def __init__(self, context: Any) -> None:
        self._reader, self._writer = context.Pipe(duplex=False)
        self._lock = context.Lock()

    def send(self, message: Any) -> None:
        with self._lock:
            self._writer.send(message)

    def receive(self, processes: Sequence[Any]) -> Any:
        """The next message; ``processes``: the workers that still owe one."""
        while not self._reader.poll():
            sentinels = [p.sentinel for p in processes]
            ready = wait([self._reader, *sentinels])
            if self._reader in ready:
                break
            for process in processes:
                if process.sentinel in ready and not self._reader.poll():
                    process.join()  # it has ended: reap it to know its exit code
                    raise RuntimeError(
                        f"a worker process died (exit code {process.exitcode})"
                    )
        return self._reader.recv()


@contextmanager
def _forked(jobs: int, inherited: Any) -> Iterator[list[Any]]:
    """``jobs`` processes running :func:`_run_shard` with ``inherited``.

    Leaving the block waits for them; an exception terminates them first.
    """
    global _INHERITED
    _INHERITED = inherited
    context = multiprocessing.get_context("fork")
    processes = [
        context.Process(target=_run_shard, args=(shard,), daemon=True)
        for shard in range(jobs)
    ]
    try:
        with _sigint_held():
            for process in processes:
                process.start()
        yield processes
    except BaseException:
        for process in processes:
            if process.pid is not None:
                process.terminate()
        raise
    finally:
        for process in processes:
            if process.pid is not None:
                process.join()
        _INHERITED = None


def stripe(
    batches: Generator[S, None, V], shard: int, shards: int
) -> Generator[S, None, V]:
    """Every ``shards``-th of ``batches`` from number ``shard`` (0-based);
    returns what ``batches`` returns."""
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
    """``function`` over the batches of ``work``, in ``jobs`` processes.

    ``function`` takes a batch and returns a list of results, one per
    item (so a metric may score a batch together). ``work(shard,
    shards)`` is a generator function giving the batches of one of
    ``shards`` workers, which it makes on its own (it reads files by
    path, say), and returning a summary at its end. Iterate over the run
    for each batch's results, then read :attr:`summaries`.

    With one job, ``work(0, 1)`` runs here, in order. Where processes
    cannot be forked, ``work(0, 1)`` runs here and its batches are
    shipped to the workers (:func:`run_batches`). Otherwise each worker
    runs its own share, results come in any order of batches, an error
    raised by the work in a worker is raised here, and ``give_up`` (if
    given) may stop the run when a worker's summary comes: then
    :attr:`gave_up` is True and the results so far are all there is.
    """

    def __init__(
        self,
        function: Callable[[Sequence[T]], list[R]],
        work: Work[T],
        jobs: int = 1,
        progress: Progress | None = None,
        give_up: Callable[[Any], bool] | None = None,
    ) -> None:
        self.function = function
        self.work = work
        self.jobs = default_jobs() if jobs <= 0 else jobs
        self.report = progress or (lambda done: None)
        self.give_up = give_up
        #: what each worker's work returned (one, when run here)
        self.summaries: list[Any] = []
        self.gave_up = False

    def __iter__(self) -> Iterator[list[R]]:
        if self.jobs == 1:
            return self._here()
        if "fork" not in multiprocessing.get_all_start_methods():
            return self._shipped()
        return self._sharded()

    def _batches(self) -> Iterator[Sequence[T]]:
        self.summaries = [(yield from self.work(0, 1))]

    def _here(self) -> Iterator[list[R]]:
        for batch in self._batches():
            results = self.function(batch)
            self.report(len(results))
            yield results

    def _shipped(self) -> Iterator[list[R]]:
        # each batch as the one item of a batch, so the function gets it whole
        wrapped = ([batch] for batch in self._batches())
        for (results,) in run_batches(self.function, wrapped, self.jobs):
            self.report(len(results))
            yield results

    def _sharded(self) -> Iterator[list[R]]:
        context = multiprocessing.get_context("fork")
        channel, stop = _Channel(context), context.Event()
        self.summaries = [None] * self.jobs
        inherited = (self.function, self.work, self.jobs, channel, stop)
        with _forked(self.jobs, inherited) as processes:
            running = dict(enumerate(processes))
            while running:
                kind, value = channel.receive(list(running.values()))
                if kind == _RESULTS:
                    if not self.gave_up:
                        self.report(len(value))
                        yield value
                elif kind == _DONE:
                    shard, summary = value
                    self.summaries[shard] = summary
                    del running[shard]
                    if (
                        not self.gave_up
                        and self.give_up is not None
                        and self.give_up(summary)
                    ):
                        # the others' work is of no use now: they stop after
                        # their batch; their messages are read (a worker
                        # blocked on a full pipe could not stop) and dropped
                        self.gave_up = True
                        stop.set()
                else:
                    raise value
