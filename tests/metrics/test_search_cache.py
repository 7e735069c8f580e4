"""Issue 19: no run waits for numba to compile the search on a machine's first run."""

from __future__ import annotations

import importlib.metadata
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from amrcheck.metrics import _align, _search_cache, stay_plain
from amrcheck.metrics.smatch import Smatch
from amrcheck.reading.corpus import read_corpus

from ..conftest import REPO, shared_path

LITTLE_PRINCE = "little_prince/amr-bank-struct-v3.0.txt"


@pytest.fixture
def fresh_machine(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> list[str]:
    """A process as on a machine whose cache knows nothing yet; records the
    background preparations it would start (none is started)."""
    monkeypatch.setenv("AMRCHECK_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(_align, "_compiled", None)
    monkeypatch.setattr(_align, "_declined", False)
    monkeypatch.setattr(_align, "_plain_alignments", 0)
    started: list[str] = []

    def prepare() -> bool:
        started.append(_search_cache.cache_key())
        return True

    monkeypatch.setattr(_search_cache, "prepare_in_background", prepare)
    return started


def _pairs(count: int) -> list[tuple[object, object]]:
    graphs = [e.graph for e in read_corpus(shared_path(LITTLE_PRINCE)) if e.graph]
    return list(zip(graphs[:count], graphs[1 : count + 1], strict=True))


def test_a_first_run_keeps_the_plain_search_and_prepares_the_compiled_one(
    fresh_machine: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert not _search_cache.ready()
    assert _align.use_compiled() is False
    assert _align._compiled is None
    assert len(fresh_machine) == 1
    assert "prepared for this machine in the background" in capsys.readouterr().err
    # asked again (a second large job in the process): not started twice
    assert _align.use_compiled() is False
    assert len(fresh_machine) == 1 and capsys.readouterr().err == ""


def test_many_alignments_on_a_first_run_never_switch_mid_run(
    fresh_machine: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(_align, "SWITCH_AFTER", 3)
    metric = Smatch()
    plain = [metric.score(c, r).counts["matched"] for c, r in _pairs(8)]
    assert _align._compiled is None and len(fresh_machine) == 1
    monkeypatch.setattr(_search_cache, "ready", lambda: True)
    monkeypatch.setattr(_align, "_declined", False)
    compiled = [metric.score(c, r).counts["matched"] for c, r in _pairs(8)]
    assert _align._compiled is not None
    assert compiled == plain


def test_a_process_that_stays_plain_never_loads_the_compiled_search(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(_align, "_compiled", None)
    monkeypatch.setattr(_align, "_declined", False)
    monkeypatch.setattr(_align, "_plain_only", False)
    monkeypatch.setattr(_align, "SWITCH_AFTER", 2)
    monkeypatch.setattr(_search_cache, "ready", lambda: True)
    stay_plain()
    metric = Smatch()
    for candidate, reference in _pairs(5):
        metric.score(candidate, reference)
    assert _align.use_compiled() is False
    assert _align._compiled is None


def test_the_language_server_stays_plain(monkeypatch: pytest.MonkeyPatch) -> None:
    import amr_lsp.__main__ as entry

    monkeypatch.setattr(_align, "_plain_only", False)
    monkeypatch.setattr(entry, "start_server", lambda server, argv: None)
    assert entry.main([]) == 0
    assert _align._plain_only


def _environment(cache: Path) -> dict[str, str]:
    return {**os.environ, "AMRCHECK_CACHE_DIR": str(cache)}


@pytest.mark.slow
def test_preparing_marks_the_search_ready_once_it_loads_from_numbas_cache(
    tmp_path: Path,
) -> None:
    env = _environment(tmp_path)
    check = f"import {_search_cache._MODULE} as c; print(c.ready())"

    def ready() -> str:
        return subprocess.run(
            [sys.executable, "-c", check], env=env, capture_output=True, text=True
        ).stdout

    assert ready() == "False\n"
    subprocess.run(
        [sys.executable, "-m", _search_cache._MODULE], env=env, check=True, timeout=300
    )
    marks = list(tmp_path.glob("search-*.ready"))
    assert len(marks) == 1 and not list(tmp_path.glob("*.lock"))
    folder, version = marks[0].read_text().splitlines()
    assert Path(folder).is_dir()  # numba's cache folder, and numba's version
    assert version == importlib.metadata.version("numba")
    assert ready() == "True\n"
    # numba's index rewritten by another numba (an install sharing the
    # source file): what is cached is not this install's any more
    marks[0].write_text(f"{folder}\n0.0.1\n")
    assert ready() == "False\n"
    # a mark whose folder lost numba's code no longer counts
    marks[0].write_text(f"{tmp_path / 'emptied'}\n{version}\n")
    assert ready() == "False\n"


def test_a_live_preparation_is_not_started_twice_and_a_stale_lock_is_taken_over(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("AMRCHECK_CACHE_DIR", str(tmp_path))
    spawned: list[list[str]] = []
    monkeypatch.setattr(
        _search_cache.subprocess, "Popen", lambda command, **_: spawned.append(command)
    )
    assert _search_cache.prepare_in_background()
    assert not _search_cache.prepare_in_background()  # the first holds the lock
    lock = _search_cache._lock()
    old = time.time() - _search_cache.STALE_LOCK_S - 1
    os.utime(lock, (old, old))
    assert _search_cache.prepare_in_background()
    assert spawned == [[sys.executable, "-m", _search_cache._MODULE]] * 2


@pytest.mark.slow
def test_a_first_cli_run_of_large_work_says_so_and_scores_like_a_prepared_one(
    tmp_path: Path,
) -> None:
    # 1,501 pairs: large work, which asks for the compiled search at once
    folder = shared_path("bamboo/sts/main")
    amrcheck = Path(sys.executable).with_name("amrcheck")
    command = [
        str(amrcheck), "score", str(folder / "src.dev.amr"),
        str(folder / "tgt.dev.amr"), "--per-pair", "{out}", "-q",
    ]

    def run(cache: Path, out: Path) -> subprocess.CompletedProcess[str]:
        done = subprocess.run(
            [part.format(out=out) for part in command],
            env=_environment(cache), capture_output=True, text=True, cwd=REPO,
        )
        assert done.returncode == 0, done.stderr
        return done

    first = run(tmp_path / "fresh", tmp_path / "first.tsv")
    assert "prepared for this machine in the background" in first.stderr
    prepared = tmp_path / "prepared"
    subprocess.run(
        [sys.executable, "-m", _search_cache._MODULE],
        env=_environment(prepared), check=True, timeout=300,
    )
    later = run(prepared, tmp_path / "later.tsv")
    assert "prepared" not in later.stderr and "compiling" not in later.stderr
    assert (tmp_path / "first.tsv").read_text() == (tmp_path / "later.tsv").read_text()


def _another_install(root: Path) -> Path:
    """A copy of the package under ``root``: one more install on this machine."""
    shutil.copytree(
        REPO / "amrcheck", root / "amrcheck",
        ignore=shutil.ignore_patterns("__pycache__"),
    )
    return root


@pytest.mark.slow
@pytest.mark.e2e
def test_two_installs_each_say_once_that_they_prepare_the_search_issue_28_35(
    tmp_path: Path,
) -> None:
    # 3,000 pairs of small graphs: large work, which asks for the compiled
    # search at once, and more alignments than SWITCH_AFTER in each worker
    # (the workers of a cluster are fresh processes that ask on their own)
    ref, cand = tmp_path / "ref.amr", tmp_path / "cand.amr"
    revised = (REPO / "examples" / "annotations_v2.amr").read_text(encoding="utf-8")
    for text, target in (
        ((REPO / "examples" / "annotations_v1.amr").read_text(encoding="utf-8"), ref),
        (revised[: revised.index("# ::id ex.6")], cand),
    ):
        target.write_text(
            "".join(text.replace("# ::id ", f"# ::id {n}.") for n in range(600)),
            encoding="utf-8",
        )
    cache = tmp_path / "cache"  # the one user cache folder of this machine
    installs = [_another_install(tmp_path / name) for name in ("one", "two")]

    def environment(install: Path) -> dict[str, str]:
        env = dict(os.environ, AMRCHECK_CACHE_DIR=str(cache), PYTHONPATH=str(install))
        env.pop("NUMBA_CACHE_DIR", None)  # numba's cache beside each copy
        return env

    def notices(install: Path, *extra: str) -> list[str]:
        done = subprocess.run(
            [sys.executable, "-c", "from amrcheck.cli import main; main()",
             "score", str(ref), str(cand), "-q", *extra],
            env=environment(install), capture_output=True, text=True,
            cwd=tmp_path, timeout=900,
        )
        assert done.returncode == 0, done.stderr
        return [line for line in done.stderr.splitlines() if "alignment search" in line]

    def wait_until_ready(install: Path) -> None:
        """The background preparation that the first run started has made it."""
        check = f"import {_search_cache._MODULE} as c; print(c.ready())"
        deadline = time.monotonic() + 900
        while time.monotonic() < deadline:
            answer = subprocess.run(
                [sys.executable, "-c", check], env=environment(install),
                capture_output=True, text=True, check=True, cwd=tmp_path,
            ).stdout
            if answer == "True\n":
                return
            time.sleep(2)
        raise AssertionError(f"the search of {install} was never prepared")

    preparing = "the compiled alignment search is being prepared for this machine"
    first = notices(installs[0], "--jobs", "2")
    assert len(first) == 1 and preparing in first[0], first
    wait_until_ready(installs[0])
    second = notices(installs[1], "--cluster", "local:2")
    assert len(second) == 1 and preparing in second[0], second
    wait_until_ready(installs[1])
    assert len(list(cache.glob("search-*.ready"))) == 2
    # each install's mark stands beside the other's: neither says it again
    assert notices(installs[0], "--jobs", "2") == []
    assert notices(installs[1], "--cluster", "local:2") == []
    assert notices(installs[0]) == []
