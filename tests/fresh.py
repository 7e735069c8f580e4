"""Running a short script in a fresh interpreter that imports this checkout:
for what a shared test process cannot measure (the cyclic collector's count,
with the test runner's own threads making garbage beside the test)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def fresh_interpreter(script: str, *arguments: str) -> str:
    """What ``script`` prints (stripped), run by this Python with this
    checkout first on ``PYTHONPATH``; a failing script fails the test with
    its error output."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        filter(None, [str(REPO), env.get("PYTHONPATH", "")])
    )
    done = subprocess.run(
        [sys.executable, "-c", script, *arguments],
        capture_output=True,
        text=True,
        env=env,
        cwd=REPO,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def cyclic_garbage(setup: str, work: str, *arguments: str) -> int:
    """What the cyclic collector finds after ``work`` (Python lines), run in a
    fresh interpreter after ``setup`` with the collector emptied and off:
    the reference cycles ``work`` left behind. Both see ``sys`` and
    ``arguments`` as ``sys.argv[1:]``."""
    script = (
        f"import gc, sys\n{setup}gc.collect()\ngc.disable()\n{work}"
        "print(gc.collect())\n"
    )
    return int(fresh_interpreter(script, *arguments))
