"""The local backend: worker processes on this machine (``--jobs N``).

Layer: engine utility, metric-agnostic, no front-end imports; reached
through :mod:`amrcheck.execution` (``run_map``, ``run_batches``,
``run_work``), never called directly by the workflows.

Where the ``fork`` start method exists, workers inherit what they run
from the parent (the function, the items of a map), so only chunk
bounds, batches and results cross process boundaries; elsewhere both
must pickle. Workers ignore SIGINT (so they print no tracebacks of
their own) and are terminated when the parent's ``KeyboardInterrupt``
propagates. :meth:`Processes.batches` takes batches from a generator
only as fast as the workers finish them; :meth:`Processes.work` lets
each forked worker make its own share of the batches (files read by
path), so nothing but results crosses between processes and the reading
itself runs on every core.
"""

from __future__ import annotations

import os
import signal
import threading
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from itertools import chain
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from multiprocessing.pool import AsyncResult, Pool

    from ._run import Progress, run_work

T = TypeVar("T")
R = TypeVar("R")

#: what the workers of the running pool inherit when forked (see :func:`_workers`):
#: a map's (function, items), a batch run's function, a sharded run's
#: (function, work, workers, channel, stop)
_INHERITED: Any = None


def default_jobs() -> int:
    """The number of CPUs this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def can_fork() -> bool:
    """Whether this platform can fork worker processes."""
    # multiprocessing (~4 ms to import) only where processes are started:
    # a one-job run never loads it
    import multiprocessing

    return "fork" in multiprocessing.get_all_start_methods()


def _ignore_sigint() -> None:
    # the parent handles Ctrl-C and terminates the pool
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@contextmanager
def _sigint_held() -> Iterator[None]:
    """Hold Ctrl-C while workers are forked (or a cluster starts).

    A KeyboardInterrupt raised during a fork is raised inside an at-fork
    hook, where Python prints and drops it, so the run would go on.
    Blocking SIGINT is not enough: it blocks it for this thread only, and
    the process has others (numpy's BLAS, a Dask event loop), any of which
    may receive a Ctrl-C, while Python still runs the handler here, at the
    next instruction, wherever that is. So the block also notes a Ctrl-C
    instead of raising it, and raises it once the block is over, where the
    caller stops its workers. Outside the main thread (where no handler
    can be set, nor runs) it only blocks.
    """
    held = None
    if hasattr(signal, "pthread_sigmask"):  # not on Windows
        held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    noted: list[int] = []
    previous = None
    if threading.current_thread() is threading.main_thread():
        previous = signal.signal(signal.SIGINT, lambda number, _: noted.append(number))
    try:
        yield
    finally:
        if held is not None:
            signal.pthread_sigmask(signal.SIG_SETMASK, held)  # a held one is noted now
        if previous is not None:
            signal.signal(signal.SIGINT, previous)
    if noted and previous is not None:
        if callable(previous):
            previous(signal.SIGINT, None)  # Python's own raises KeyboardInterrupt
        elif previous == signal.SIG_DFL:
            raise KeyboardInterrupt


@contextmanager
def _workers(jobs: int, fork: bool, inherited: Any = None) -> Iterator[Pool]:
    """A pool of ``jobs`` workers that ignore Ctrl-C and inherit ``inherited``.

    Ctrl-C is held while the workers are forked (:func:`_sigint_held`).
    Leaving the block closes the pool (its tasks finish); an exception
    terminates it.
    """
    global _INHERITED
    _INHERITED = inherited
    import multiprocessing

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


def _run_batch(batch: Sequence[Any]) -> list[Any]:
    assert _INHERITED is not None, "worker started without a task"
    return [_INHERITED(item) for item in batch]


def _run_shipped_batch(function: Callable[[T], R], batch: Sequence[T]) -> list[R]:
    return [function(item) for item in batch]


def _collect(task: tuple[int, AsyncResult[list[R]]], report: Progress) -> list[R]:
    size, result = task
    results = result.get()
    report(size)
    return results


# what a sharded worker sends: results of a batch, its work's summary, an error
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
        from multiprocessing.connection import wait

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
    import multiprocessing

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


class Processes:
    """Run here (one job) or in ``jobs`` forked worker processes.

    Args:
        jobs: processes; 1 runs in this process, 0 or less means one per
            CPU (:func:`default_jobs`).
    """

    def __init__(self, jobs: int = 1) -> None:
        self.jobs = default_jobs() if jobs <= 0 else jobs

    @property
    def workers(self) -> int:
        return self.jobs

    def __repr__(self) -> str:
        return f"Processes({self.jobs})"

    def map(
        self,
        function: Callable[[T], R],
        items: Sequence[T],
        progress: Progress,
        chunk_size: int,
    ) -> list[R]:
        """``[function(x) for x in items]``; forked workers inherit the items."""
        count = len(items)
        bounds = [(s, min(s + chunk_size, count)) for s in range(0, count, chunk_size)]
        results: list[R] = []
        if self.jobs == 1 or len(bounds) <= 1:
            for item in items:
                results.append(function(item))
                progress(1)
            return results
        if not can_fork():  # ship the chunks (function and items must pickle)
            chunks = (items[start:end] for start, end in bounds)
            for chunk in self.batches(function, chunks, progress, None):
                results.extend(chunk)
            return results
        with _workers(min(self.jobs, len(bounds)), True, (function, items)) as pool:
            for (start, end), chunk in zip(
                bounds, pool.imap(_run_chunk, bounds), strict=True
            ):
                results.extend(chunk)
                progress(end - start)
        return results

    def batches(
        self,
        function: Callable[[T], R],
        batches: Iterable[Sequence[T]],
        progress: Progress,
        in_flight: int | None,
    ) -> Iterator[list[R]]:
        """Each batch's results in batch order, batches taken as workers free up."""
        if self.jobs == 1:
            for batch in batches:
                results = [function(item) for item in batch]
                progress(len(batch))
                yield results
            return
        limit = in_flight or 2 * self.jobs
        work = iter(batches)
        first = next(work, None)
        if first is None:
            return  # no work, no processes
        forking = can_fork()
        pending: deque[tuple[int, AsyncResult[list[R]]]] = deque()
        # forked workers inherit the function; only batches are pickled
        with _workers(self.jobs, forking, function if forking else None) as pool:
            for batch in chain([first], work):
                task = (
                    pool.apply_async(_run_batch, (batch,))
                    if forking
                    else pool.apply_async(_run_shipped_batch, (function, batch))
                )
                pending.append((len(batch), task))
                if len(pending) >= limit:
                    yield _collect(pending.popleft(), progress)
            while pending:
                yield _collect(pending.popleft(), progress)

    def work(self, run: run_work[T, R]) -> Iterator[list[R]]:
        """The batches of ``run``: here with one job, else each worker its share.

        Where processes cannot be forked, ``work(0, 1)`` runs here and its
        batches are shipped to the workers.
        """
        if self.jobs == 1:
            return self._here(run)
        if not can_fork():
            return self._shipped(run)
        return self._sharded(run)

    def _here(self, run: run_work[T, R]) -> Iterator[list[R]]:
        for batch in run.batches_here():
            results = run.function(batch)
            run.report(len(results))
            yield results

    def _shipped(self, run: run_work[T, R]) -> Iterator[list[R]]:
        # each batch as the one item of a batch, so the function gets it whole
        wrapped = ([batch] for batch in run.batches_here())
        for (results,) in self.batches(run.function, wrapped, _ignore, None):
            run.report(len(results))
            yield results

    def _sharded(self, run: run_work[T, R]) -> Iterator[list[R]]:
        import multiprocessing

        context = multiprocessing.get_context("fork")
        channel, stop = _Channel(context), context.Event()
        run.summaries = [None] * self.jobs
        inherited = (run.function, run.work, self.jobs, channel, stop)
        with _forked(self.jobs, inherited) as processes:
            running = dict(enumerate(processes))
            while running:
                kind, value = channel.receive(list(running.values()))
                if kind == _RESULTS:
                    if not run.gave_up:
                        run.report(len(value))
                        yield value
                elif kind == _DONE:
                    shard, summary = value
                    run.summaries[shard] = summary
                    del running[shard]
                    if (
                        not run.gave_up
                        and run.give_up is not None
                        and run.give_up(summary)
                    ):
                        # the others' work is of no use now: they stop after
                        # their batch; their messages are read (a worker
                        # blocked on a full pipe could not stop) and dropped
                        run.gave_up = True
                        stop.set()
                else:
                    raise value


def _ignore(done: int) -> None:
    pass
