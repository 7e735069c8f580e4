"""One way to run a map, two backends: local processes and a real Dask cluster.

The cluster is a real ``LocalCluster`` of two worker processes on
127.0.0.1 (:func:`amrcheck.execution.connect`), shared by the tests of
this module; results must equal a serial run's, in order.
"""

from __future__ import annotations

import time
from collections.abc import Generator, Iterator, Sequence

import pytest

from amrcheck.errors import ClusterError
from amrcheck.execution import (
    DaskCluster,
    Processes,
    connect,
    local_processes,
    run_batches,
    run_map,
    run_work,
    stripe,
)
from amrcheck.metrics import get_metric
from amrcheck.pairing.graphs import PairingError, pair_corpora, score_corpus
from amrcheck.reading.corpus import read_corpus
from tests.conftest import fresh_python, shared_path

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def cluster() -> Iterator[DaskCluster]:
    with connect("local:2") as backend:
        yield backend


def cube(x: int) -> int:
    return x * x * x


def test_a_local_cluster_has_the_workers_asked_for(cluster: DaskCluster) -> None:
    assert cluster.workers == 2
    assert len(cluster.client.scheduler_info()["workers"]) == 2
    assert local_processes(cluster) == 0 and local_processes(3) == 3


@pytest.mark.parametrize("chunk_size", [1, 7, None])
def test_a_map_on_the_cluster_is_the_serial_map_in_order(
    cluster: DaskCluster, chunk_size: int | None
) -> None:
    items = list(range(-50, 53))
    done: list[int] = []
    results = run_map(cube, items, cluster, done.append, chunk_size)
    assert results == [cube(x) for x in items]
    assert sum(done) == len(items) and len(done) > 1


def test_batches_come_back_in_order_and_only_as_many_as_asked(
    cluster: DaskCluster,
) -> None:
    taken: list[int] = []

    def batches() -> Iterator[list[int]]:
        for start in range(0, 40, 4):
            taken.append(start)
            yield list(range(start, start + 4))

    run = run_batches(cube, batches(), cluster, in_flight=3)
    first = next(run)
    assert first == [cube(x) for x in range(4)]
    # a bounded window: the generator is not run far ahead of the results
    assert len(taken) <= 4
    rest = list(run)
    expected = [[cube(x) for x in range(s, s + 4)] for s in range(0, 40, 4)]
    assert [first, *rest] == expected


def numbers(shard: int, shards: int) -> Generator[list[int], None, str]:
    yield from stripe(iter([[k, k + 1, k + 2] for k in range(0, 30, 3)]), shard, shards)
    return f"shard {shard} of {shards}"


def squares(batch: Sequence[int]) -> list[int]:
    return [x * x for x in batch]


def test_work_is_made_here_and_shipped_in_batch_order(cluster: DaskCluster) -> None:
    done: list[int] = []
    run = run_work(squares, numbers, cluster, done.append)
    results = [x for batch in run for x in batch]
    assert results == [x * x for x in range(30)]  # in order, unlike local shards
    assert run.summaries == ["shard 0 of 1"] and sum(done) == 30


def refuse(x: int) -> int:
    if x == 5:
        raise PairingError(["ref.amr:3:1: ::id 'x' is not in sys.amr", "another"])
    return x


def test_an_error_raised_in_a_worker_is_raised_here_intact(
    cluster: DaskCluster,
) -> None:
    with pytest.raises(PairingError) as caught:
        run_map(refuse, list(range(10)), cluster, chunk_size=2)
    problems = ["ref.amr:3:1: ::id 'x' is not in sys.amr", "another"]
    assert caught.value.problems == problems
    # the cluster is still usable after a failed run
    assert run_map(cube, [1, 2], cluster) == [1, 8]


def test_metric_scores_on_the_cluster_equal_one_process(
    cluster: DaskCluster,
) -> None:
    pairs = pair_corpora(
        read_corpus(shared_path("bamboo/sick/main/src.dev.amr")),
        read_corpus(shared_path("bamboo/sick/main/tgt.dev.amr")),
    )[:120]
    for name in ("smatch", "wlk"):
        metric = get_metric(name)
        serial = score_corpus(metric, pairs, jobs=1)
        spread = score_corpus(metric, pairs, jobs=cluster)
        assert [s.f1 for s in spread.pairs] == [s.f1 for s in serial.pairs]
        assert spread.micro.f1 == serial.micro.f1


def test_an_unreachable_scheduler_fails_within_seconds_with_one_line() -> None:
    started = time.monotonic()
    with pytest.raises(ClusterError) as caught:
        with connect("tcp://127.0.0.1:9", timeout=2):
            pass
    assert time.monotonic() - started < 30  # a hang detector, not a speed test
    message = str(caught.value)
    assert "tcp://127.0.0.1:9" in message and "\n" not in message


@pytest.mark.parametrize(
    "address", ["local:0", "local:two", "127.0.0.1:8786", "cluster"]
)
def test_a_malformed_address_is_refused_with_the_forms(address: str) -> None:
    with pytest.raises(ClusterError, match="local:N|whole number"):
        with connect(address):
            pass


def test_local_processes_stay_the_backend_of_a_number() -> None:
    assert run_map(cube, [1, 2, 3], Processes(2), chunk_size=1) == [1, 8, 27]
    assert Processes(0).workers >= 1


def test_the_local_backend_does_not_import_dask() -> None:
    code = (
        "import sys\n"
        "from amrcheck.execution import run_map\n"
        "run_map(abs, [-1, 2], jobs=2)\n"
        "print('distributed' in sys.modules)\n"
    )
    assert fresh_python(code) == "False"
