"""The Dask distributed backend: the workers of a cluster (``--cluster``).

Layer: engine utility, metric-agnostic, no front-end imports; reached
through :mod:`amrcheck.execution` like the local backend, and imported
only when a cluster is asked for (``distributed`` takes a second to
import).

``local`` or ``local:N`` starts a ``LocalCluster`` of N single-threaded
worker processes on 127.0.0.1 (the metrics hold the GIL, so threads
would not run side by side); ``tcp://host:port`` uses a running
scheduler. Work is shipped in batches: per-item tasks would cost the
scheduler more than the items themselves. The function of a run is sent
to every worker once (``scatter``), not with every batch, so a function
that carries data (an index) costs one transfer per worker. Results are
collected in batch order, with a bounded number of batches in flight, so
the order and the numbers are those of a serial run.
"""

from __future__ import annotations

import logging
import pickle
import signal
import tempfile
import warnings
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from typing import TYPE_CHECKING, Any, TypeVar

from ..__about__ import __version__
from ..errors import ClusterError
from ._local import _sigint_held, default_jobs

if TYPE_CHECKING:
    from ._run import Progress, run_work

T = TypeVar("T")
R = TypeVar("R")

#: seconds to wait for a scheduler to answer, and for its first worker
CONNECT_TIMEOUT = 5.0

#: what ``--cluster`` accepts, for error messages
FORMS = "local, local:N or tcp://HOST:PORT"


def _apply(function: Callable[[Any], Any], batch: bytes) -> list[Any]:
    return [function(item) for item in pickle.loads(batch)]


def _worker_version() -> str:
    return __version__


def dask_setup(worker: Any) -> None:
    """Run by each worker process of a local cluster as it starts (a preload).

    The terminal's Ctrl-C reaches the whole process group; the command
    stops the cluster itself, so its workers ignore it rather than print
    tracebacks of their own. Their log lines are not ours to print either:
    a worker still beating while the cluster stops logs the scheduler's
    absence as an error, and a worker's real failure reaches the command
    as an exception (the function's own error, or ``KilledWorker``).
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    logging.getLogger("distributed").setLevel(logging.CRITICAL)


class DaskCluster:
    """The workers of a Dask cluster, through a connected ``Client``.

    Made by :func:`connect`, which also closes it.
    """

    # distributed's Client and Future are untyped: Any keeps mypy strict here
    def __init__(self, client: Any, address: str) -> None:
        self.client = client
        self.address = address

    @property
    def workers(self) -> int:
        threads: dict[str, int] = self.client.nthreads()
        return max(1, sum(threads.values()))

    def __repr__(self) -> str:
        return f"DaskCluster({self.address!r}, workers={self.workers})"

    def map(
        self,
        function: Callable[[T], R],
        items: Sequence[T],
        progress: Progress,
        chunk_size: int,
    ) -> list[R]:
        """``[function(x) for x in items]``, the items shipped in chunks."""
        chunks = (items[s : s + chunk_size] for s in range(0, len(items), chunk_size))
        results: list[R] = []
        for chunk in self.batches(function, chunks, progress, None):
            results.extend(chunk)
        return results

    def batches(
        self,
        function: Callable[[T], R],
        batches: Iterable[Sequence[T]],
        progress: Progress,
        in_flight: int | None,
    ) -> Iterator[list[R]]:
        """Each batch's results in batch order; a few batches per worker in flight."""
        limit = in_flight or 2 * self.workers
        work = iter(batches)
        first = next(work, None)
        if first is None:
            return
        client = self.client
        # once per run and worker, not once per batch
        shipped = client.scatter(function, broadcast=True, hash=False)
        pending: deque[tuple[int, Any]] = deque()
        try:
            for batch in _chain(first, work):
                # pickled here: left as objects, a batch would be walked
                # item by item (dataclasses included) in search of futures
                packed = pickle.dumps(batch, pickle.HIGHEST_PROTOCOL)
                task = client.submit(_apply, shipped, packed, pure=False)
                pending.append((len(batch), task))
                if len(pending) >= limit:
                    yield self._collect(pending.popleft(), progress)
            while pending:
                yield self._collect(pending.popleft(), progress)
        finally:
            # Ctrl-C, an error or a caller that stops early: drop the rest
            if pending:
                client.cancel([task for _, task in pending])
            shipped.release()

    def _collect(self, task: tuple[int, Any], progress: Progress) -> list[R]:
        size, future = task
        try:
            results: list[R] = future.result()
        except Exception as error:
            if type(error).__name__ == "KilledWorker":
                raise ClusterError(
                    f"a Dask worker of {self.address} died while working "
                    "(out of memory, or killed); the run is stopped"
                ) from None
            raise  # the function's own error, as raised in the worker
        progress(size)
        return results

    def work(self, run: run_work[T, R]) -> Iterator[list[R]]:
        """The batches of ``run``, made here and shipped, in batch order.

        Workers of a cluster may not see this machine's files, so the
        work is not split into shards that read files by path.
        """
        wrapped = ([batch] for batch in run.batches_here())
        for (results,) in self.batches(run.function, wrapped, _ignore, None):
            run.report(len(results))
            yield results


def _ignore(done: int) -> None:
    pass


def _chain(first: T, rest: Iterator[T]) -> Iterator[T]:
    yield first
    yield from rest


def _local_workers(address: str) -> int:
    _, _, count = address.partition(":")
    if not count:
        return default_jobs()
    try:
        workers = int(count)
    except ValueError:
        workers = 0
    if workers < 1:
        raise ClusterError(
            f"--cluster {address}: the number of workers must be a whole "
            f"number of 1 or more (forms: {FORMS})"
        )
    return workers


@contextmanager
def connect(
    address: str, timeout: float = CONNECT_TIMEOUT
) -> Iterator[DaskCluster]:
    """A cluster backend for ``address``; closed (a local cluster stopped) after.

    Args:
        address: ``local`` (one worker per CPU), ``local:N`` (N workers)
            or the address of a running scheduler, ``tcp://host:port``.
        timeout: seconds to reach the scheduler and to see a worker.

    Raises:
        ClusterError: a malformed address; a scheduler that does not
            answer within ``timeout``, that has no worker, or whose
            workers run another version of amrcheck (or none).
    """
    address = address.strip()
    local = address == "local" or address.startswith("local:")
    if not local and "://" not in address:
        raise ClusterError(f"--cluster {address!r}: expected {FORMS}")
    workers = _local_workers(address) if local else 0
    try:
        from distributed import Client, LocalCluster
    except ImportError:  # pragma: no cover - the dask extra is not installed
        raise ClusterError(
            "--cluster needs Dask distributed: pip install 'amrcheck[dask]'"
        ) from None
    with ExitStack() as stack:
        # the client's own log lines (reconnects, closing streams) are not
        # ours to print: errors reach the caller as exceptions
        stack.enter_context(_quiet("distributed"))
        if local:
            scratch = stack.enter_context(
                tempfile.TemporaryDirectory(prefix="amrcheck-dask-")
            )
            # the workers run dask_setup below (Ctrl-C is ours to handle);
            # Ctrl-C is held while they start, or it would be lost then. The
            # scheduler's health endpoint takes another port when 8787 is
            # taken (another cluster, another user) and warns: not our news.
            with _sigint_held(), warnings.catch_warnings():
                warnings.filterwarnings("ignore", "Port .* is already in use")
                cluster = stack.enter_context(
                    LocalCluster(  # type: ignore[no-untyped-call]
                        n_workers=workers,
                        threads_per_worker=1,
                        processes=True,
                        host="127.0.0.1",
                        dashboard_address=None,
                        local_directory=scratch,
                        silence_logs=logging.CRITICAL,
                        preload=[__name__],
                    )
                )
            client = stack.enter_context(Client(cluster))  # type: ignore[no-untyped-call]
        else:
            client = stack.enter_context(_client(Client, address, timeout))
            _check_workers(client, address, timeout)
        yield DaskCluster(client, address)


@contextmanager
def _client(factory: Any, address: str, timeout: float) -> Iterator[Any]:
    try:
        client = factory(address, timeout=f"{timeout}s")
    except (OSError, TimeoutError, ValueError) as error:
        raise ClusterError(
            f"cannot reach the Dask scheduler at {address} within "
            f"{timeout:g} s ({_reason(error)})"
        ) from None
    try:
        yield client
    finally:
        client.close()


def _reason(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    return text[0] if text else type(error).__name__


def _check_workers(client: Any, address: str, timeout: float) -> None:
    """At least one worker, each running this version of amrcheck."""
    try:
        client.wait_for_workers(1, timeout=timeout)
    except TimeoutError:
        raise ClusterError(
            f"the Dask scheduler at {address} has no workers "
            f"(none joined within {timeout:g} s)"
        ) from None
    try:
        versions = client.run(_worker_version)
    except ImportError:
        raise ClusterError(
            f"the workers of {address} cannot import amrcheck: install "
            f"amrcheck {__version__} where they run"
        ) from None
    other = {worker: v for worker, v in versions.items() if v != __version__}
    if other:
        worker, version = sorted(other.items())[0]
        raise ClusterError(
            f"worker {worker} of {address} runs amrcheck {version}, this is "
            f"{__version__}: results could differ; install the same version"
        )


@contextmanager
def _quiet(name: str) -> Iterator[None]:
    logger = logging.getLogger(name)
    level = logger.level
    logger.setLevel(logging.CRITICAL)
    try:
        yield
    finally:
        logger.setLevel(level)
