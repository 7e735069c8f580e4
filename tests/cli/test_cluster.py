"""``--cluster``: score, diff and iaa on Dask give what ``--jobs 1`` gives.

Real clusters only, on 127.0.0.1: a ``LocalCluster`` that the command
starts (``--cluster local:2``), and a ``dask scheduler`` with ``dask
worker`` processes started here (``--cluster tcp://...``). Every process
is bounded by a timeout and stopped at the end.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.broken import METRICS, REFERENCE, broken_candidate, metric_options
from tests.cli.terminal import PATIENCE_S, Terminal
from tests.conftest import shared_path

pytestmark = pytest.mark.e2e

STS = "bamboo/sts/main"
REF, CAND = shared_path(f"{STS}/src.dev.amr"), shared_path(f"{STS}/tgt.dev.amr")
AMRCHECK = [sys.executable, "-c", "from amrcheck.cli import main; main()"]
TOY = [shared_path(f"multi_annotator_toy/comptest_annot{k}.txt") for k in (1, 3, 4)]


def amrcheck(
    *args: str | Path, timeout: float = 300
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*AMRCHECK, *map(str, args)],
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def _stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=20)


@pytest.fixture(scope="module")
def scheduler(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A real ``dask scheduler`` and two ``dask worker`` processes on 127.0.0.1."""
    folder = tmp_path_factory.mktemp("dask")
    address_file = folder / "scheduler.json"
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
    scheduler = subprocess.Popen(
        [
            sys.executable, "-m", "distributed.cli.dask_scheduler",
            "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
            "--scheduler-file", str(address_file),
        ],
        cwd=folder,
        **quiet,
    )
    processes = [scheduler]
    try:
        deadline = time.monotonic() + 60
        while not address_file.exists() or not address_file.read_text().strip():
            assert time.monotonic() < deadline, "the scheduler did not start"
            assert scheduler.poll() is None, "the scheduler exited"
            time.sleep(0.2)
        address = json.loads(address_file.read_text())["address"]
        for k in range(2):
            processes.append(
                subprocess.Popen(
                    [
                        sys.executable, "-m", "distributed.cli.dask_worker",
                        address, "--nthreads", "1", "--host", "127.0.0.1",
                        "--no-dashboard", "--no-nanny",
                        "--local-directory", str(folder / f"worker{k}"),
                    ],
                    cwd=folder,
                    **quiet,
                )
            )
        # both workers have joined before a command asks (a command waits
        # only CONNECT_TIMEOUT seconds for a first one; a busy machine
        # starts a worker more slowly than that)
        from distributed import Client

        with Client(address, timeout=f"{PATIENCE_S}s") as client:  # type: ignore[no-untyped-call]
            client.wait_for_workers(2, timeout=PATIENCE_S)
        yield address
    finally:
        for process in reversed(processes):
            _stop(process)


def _json(result: subprocess.CompletedProcess[str]) -> object:
    assert result.returncode in (0, 1), result.stderr
    return json.loads(result.stdout)


@pytest.mark.slow
def test_score_diff_iaa_on_a_running_scheduler_equal_one_process(
    scheduler: str, tmp_path: Path
) -> None:
    assert scheduler.startswith("tcp://127.0.0.1:")
    serial, spread = tmp_path / "serial.tsv", tmp_path / "spread.tsv"
    one = amrcheck("score", REF, CAND, "-m", "smatch,wlk", "--json",
                   "--per-pair", serial)
    many = amrcheck("score", REF, CAND, "-m", "smatch,wlk", "--json",
                    "--per-pair", spread, "--cluster", scheduler)
    assert _json(many) == _json(one)
    assert spread.read_text() == serial.read_text()
    assert amrcheck("diff", REF, CAND, "--json", "--cluster", scheduler).stdout == (
        amrcheck("diff", REF, CAND, "--json").stdout
    )
    assert _json(amrcheck("iaa", *TOY, "--json", "--cluster", scheduler)) == _json(
        amrcheck("iaa", *TOY, "--json")
    )


@pytest.mark.slow
def test_score_on_a_local_cluster_equals_one_process(tmp_path: Path) -> None:
    serial, spread = tmp_path / "serial.tsv", tmp_path / "spread.tsv"
    one = amrcheck("score", REF, CAND, "--per-pair", serial, "-q")
    many = amrcheck("score", REF, CAND, "--per-pair", spread, "-q",
                    "--cluster", "local:2")
    assert many.returncode == 0, many.stderr
    assert many.stdout == one.stdout and spread.read_text() == serial.read_text()


@pytest.mark.slow
def test_an_unreachable_scheduler_is_one_line_and_exit_2() -> None:
    started = time.monotonic()
    result = amrcheck("score", REF, CAND, "--cluster", "tcp://127.0.0.1:9", timeout=60)
    assert time.monotonic() - started < 60  # a hang detector, not a speed test
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.splitlines() == [
        "amrcheck score: error: cannot reach the Dask scheduler at "
        "tcp://127.0.0.1:9 within 5 s (Timed out trying to connect to "
        "tcp://127.0.0.1:9 after 5 s)"
    ]


def test_jobs_and_cluster_together_are_a_usage_error() -> None:
    result = amrcheck("diff", REF, CAND, "--jobs", "2", "--cluster", "local:2")
    assert result.returncode == 2
    assert result.stderr.strip() == (
        "amrcheck diff: error: give --jobs or --cluster, not both"
    )


@pytest.mark.slow
def test_ctrl_c_stops_a_local_cluster_cleanly(tmp_path: Path) -> None:
    # BAMBOO train sts eight times, about 46,000 pairs: far from done when
    # Ctrl-C comes, once the progress bar shows the cluster at work
    ref, cand = tmp_path / "ref.amr", tmp_path / "cand.amr"
    for name, copy in (("src", ref), ("tgt", cand)):
        text = shared_path(f"bamboo_train/sts/{name}.train.amr").read_text("utf-8")
        copy.write_text("\n\n".join([text.strip()] * 8) + "\n", "utf-8")
    terminal = Terminal(
        [*AMRCHECK, "score", str(ref), str(cand), "--cluster", "local:2", "--exact"],
        cwd=tmp_path,
    )
    try:
        terminal.wait_for_progress()  # the cluster is up and scoring
        terminal.ctrl_c()
        status, _ = terminal.wait()
        # no worker outlives the command (each ends once told; given time)
        deadline = time.monotonic() + PATIENCE_S
        while True:
            left = subprocess.run(
                ["pgrep", "-s", str(terminal.process.pid)],
                capture_output=True, text=True,
            ).stdout.split()
            if not left or time.monotonic() > deadline:
                break
            time.sleep(0.5)
    finally:
        terminal.close()
    assert status == 130, terminal.stderr
    assert terminal.text_lines() == ["amrcheck score: interrupted"], terminal.stderr
    assert left == []


@pytest.mark.slow
def test_a_broken_graph_counts_as_empty_on_a_cluster_issue_21(tmp_path: Path) -> None:
    """Every metric on a Dask cluster: the unreadable candidate graph is an
    empty graph there too (F1 0, its pair row present), as in one process."""
    ref, cand = tmp_path / "ref.amr", tmp_path / "cand.amr"
    ref.write_text(REFERENCE)
    cand.write_text(broken_candidate())
    options = [
        arg
        for name in METRICS
        for key, value in metric_options(name, tmp_path).items()
        for arg in ("-o", f"{name}.{key}={value}")
    ]
    args = ("score", ref, cand, "-m", ",".join(METRICS), *options, "--json")
    serial, spread = tmp_path / "serial.tsv", tmp_path / "spread.tsv"
    one = amrcheck(*args, "--per-pair", serial)
    many = amrcheck(*args, "--per-pair", spread, "--cluster", "local:2")
    assert one.returncode == many.returncode == 1, many.stderr
    assert _json(many) == _json(one)
    assert spread.read_text() == serial.read_text()
    report = json.loads(many.stdout)
    assert [r["metric"] for r in report["results"]] == METRICS
    assert all(r["counted_empty"] == 1 and r["pairs"] == 4 for r in report["results"])
    rows = [line.split("\t") for line in spread.read_text().splitlines()]
    header = rows[0]
    broken = [
        row for row in rows[1:] if row[header.index("id")] == "g0"
    ]
    assert len(broken) == len(METRICS)
    assert all(float(row[header.index("f1")]) == 0.0 for row in broken)
    assert all(row[header.index("graph")] == "unreadable" for row in broken)
    iaa = [amrcheck("iaa", ref, cand, "--json", *extra)
           for extra in ((), ("--cluster", "local:2"))]
    assert iaa[0].returncode == iaa[1].returncode == 1
    assert json.loads(iaa[1].stdout) == json.loads(iaa[0].stdout)
