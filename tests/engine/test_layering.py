"""The engine imports nothing from the front ends (STYLE lesson 1)."""

from __future__ import annotations

import subprocess
import sys

FRONT_END_MODULES = ("typer", "rich", "pygls", "lsprotocol", "click", "argparse")


def test_engine_imports_no_front_end_library() -> None:
    code = (
        "import sys, amrcheck, amrcheck.metrics\n"
        "amrcheck.metric_names()\n"
        f"bad = [m for m in {FRONT_END_MODULES!r} if m in sys.modules]\n"
        "print(','.join(bad))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == ""
