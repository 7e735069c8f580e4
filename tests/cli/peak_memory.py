"""Peak memory of one ``amrcheck`` process, and corpora made large by repetition."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Collection
from pathlib import Path

from tests.conftest import shared_path


def peak_rss_mib(*args: str | Path, exit_codes: Collection[int] = (0,)) -> float:
    """Peak RSS of one ``amrcheck ARGS`` process (its own, not earlier children's)."""
    child = subprocess.Popen(
        [sys.executable, "-c", "from amrcheck.cli import main; main()"]
        + [str(a) for a in args],
        stdout=subprocess.DEVNULL,
    )
    _, status, usage = os.wait4(child.pid, 0)
    assert os.waitstatus_to_exitcode(status) in exit_codes
    return usage.ru_maxrss / 1024  # KiB on Linux


def repeated(target: Path, times: int) -> Path:
    """SICK's reference graphs ``times`` over, ids made unique."""
    text = shared_path("bamboo/sick/role_confusion/src.dev.amr").read_text("utf-8")
    target.write_text(
        "".join(text.replace("# ::id ", f"# ::id {n}.") for n in range(times)),
        encoding="utf-8",
    )
    return target
