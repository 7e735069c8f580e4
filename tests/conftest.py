"""Shared test helpers: where the real AMR data lives."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
TEST_DATA = REPO / "tests" / "data"
SHARED_DATA = Path(
    os.environ.get("AMRCHECK_SHARED_DATA", REPO.parent / "shared" / "data")
)

#: every AMR corpus file of the shared data (BAMBOO dev, gold corpora, toys)
SHARED_AMR_FILES = sorted(
    [
        *SHARED_DATA.glob("bamboo/*/*/*.amr"),
        *SHARED_DATA.glob("little_prince/*.txt"),
        *SHARED_DATA.glob("bio_amr/*.txt"),
        *SHARED_DATA.glob("amr_guidelines/*.amr"),
        *SHARED_DATA.glob("multi_annotator_toy/comptest_*.txt"),
    ]
)


def data_path(name: str) -> Path:
    """A fixture file under tests/data."""
    return TEST_DATA / name


def fresh_python(code: str) -> str:
    """What ``code`` prints when run by a fresh interpreter (the modules a
    test imports here are already loaded)."""
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    return result.stdout.strip()


def shared_path(name: str) -> Path:
    """A file under the shared data folder; fails loudly when it is missing."""
    path = SHARED_DATA / name
    if not path.exists():
        raise FileNotFoundError(
            f"{path} not found: the tests need ../shared/data beside the "
            "checkout (or AMRCHECK_SHARED_DATA pointing at it)"
        )
    return path


@pytest.fixture(scope="session")
def shared_amr_files() -> list[Path]:
    assert SHARED_AMR_FILES, f"no AMR files under {SHARED_DATA}"
    return SHARED_AMR_FILES


@pytest.fixture(scope="session", autouse=True)
def compiled_search_ready() -> None:
    """Large work in the tests runs the compiled search, as on a machine
    after its first run: get it ready once (where it is not, this compiles
    it, about 20 s). Tests of the first run use a cache folder of their own.
    """
    subprocess.run(
        [sys.executable, "-m", "amrcheck.metrics._search_cache"], check=True
    )
