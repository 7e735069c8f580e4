"""Work that each worker process makes on its own: results, summaries, errors."""

from __future__ import annotations

import os
import pickle
from collections.abc import Generator, Sequence

import pytest

from amrcheck.errors import InputError
from amrcheck.execution import run_work, stripe
from amrcheck.pairing.graphs import PairingError


def squares(batch: Sequence[int]) -> list[int]:
    return [x * x for x in batch]


def numbers(shard: int, shards: int) -> Generator[list[int], None, str]:
    batches = iter([list(range(k, k + 3)) for k in range(0, 30, 3)])
    yield from stripe(batches, shard, shards)
    return f"shard {shard} of {shards}"


@pytest.mark.parametrize("jobs", [1, 2, 3])
def test_every_batch_is_done_once_by_some_worker(jobs: int) -> None:
    done: list[int] = []
    run = run_work(squares, numbers, jobs, progress=done.append)
    results = sorted(x for batch in run for x in batch)
    assert results == [x * x for x in range(30)]
    assert sum(done) == 30 and run.summaries == [
        f"shard {k} of {jobs}" for k in range(jobs)
    ]


def failing(shard: int, shards: int) -> Generator[list[int], None, None]:
    yield [shard]
    if shard == shards - 1:
        raise PairingError(["ref.amr:3:1: ::id 'x' is not in sys.amr", "another"])


@pytest.mark.parametrize("jobs", [1, 2])
def test_an_error_in_a_workers_work_is_raised_here_intact(jobs: int) -> None:
    with pytest.raises(PairingError) as caught:
        for _ in run_work(squares, failing, jobs):
            pass
    problems = ["ref.amr:3:1: ::id 'x' is not in sys.amr", "another"]
    assert caught.value.problems == problems


def endless(shard: int, shards: int) -> Generator[list[int], None, bool]:
    if shard == 0:
        yield [1]
        return False  # gives up at once
    while True:  # would never end: the run must stop it
        yield [2]


def test_a_summary_that_gives_up_stops_every_worker() -> None:
    run = run_work(squares, endless, 2, give_up=lambda fits: not fits)
    for _ in run:
        pass
    assert run.gave_up and run.summaries[0] is False



def dying(shard: int, shards: int) -> Generator[list[int], None, None]:
    yield [shard]
    if shard == 1:
        os._exit(3)  # as if killed: no error, no summary
    yield [shard]


def test_a_worker_that_dies_is_an_error_not_a_hang() -> None:
    with pytest.raises(RuntimeError, match="worker process died .exit code 3"):
        for _ in run_work(squares, dying, 2):
            pass


def test_input_errors_cross_processes_as_they_were_made() -> None:
    error = InputError("4:2: not valid UTF-8 (byte 0xff)", "sys.amr")
    copy = pickle.loads(pickle.dumps(error))
    assert (type(copy), str(copy), copy.path) == (InputError, str(error), "sys.amr")
    pairing = pickle.loads(pickle.dumps(PairingError(["a", "b"])))
    assert pairing.problems == ["a", "b"] and str(pairing) == "a\nb"
