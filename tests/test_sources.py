"""``AMRCHECK_PURE_PYTHON=1`` loads amrcheck from its ``.py`` sources.

In a checkout there is nothing compiled to skip, so this checks that the
finder is in place and harmless: modules come from source files, the
package's data folder (a namespace package) is still found, a metric that
reads it scores. Compiled against pure: tests/test_compiled.py.
"""

from __future__ import annotations

import os
import subprocess
import sys

from tests.conftest import REPO

_CHECK = """
import sys
from importlib.machinery import SourceFileLoader
from amrcheck import _sources
from amrcheck.metrics import get_metric
from amrcheck.reading.corpus import decode
print(_sources.SourcesFirst in sys.meta_path)
print(isinstance(sys.modules["amrcheck.reading.corpus"].__loader__, SourceFileLoader))
rematch = get_metric("rematch")  # reads amrcheck/data (a namespace package)
print(rematch.score(decode("(w / want-01 :ARG0 (b / boy))"), decode("(b / boy)")).f1)
"""


def _run(pure: str | None) -> list[str]:
    env = {k: v for k, v in os.environ.items() if k != "AMRCHECK_PURE_PYTHON"}
    env["PYTHONPATH"] = str(REPO)
    if pure is not None:
        env["AMRCHECK_PURE_PYTHON"] = pure
    done = subprocess.run(
        [sys.executable, "-c", _CHECK], capture_output=True, text=True, env=env,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


def test_the_variable_puts_the_sources_first_and_scores_alike() -> None:
    pure, default, off = _run("1"), _run(None), _run("0")
    assert pure[:2] == ["True", "True"]
    assert default[0] == off[0] == "False"
    assert pure[2] == default[2] == off[2] and 0.0 < float(pure[2]) < 1.0
