"""Counting live graphs while a streamed command runs (issue 6 memory tests).

Not a test module: the streaming tests of score, diff and iaa share it.
"""

from __future__ import annotations

import gc
import weakref
from collections.abc import Callable
from pathlib import Path
from typing import Any

#: a BAMBOO dev file pair of 50 graphs each, with ids
SICK = "bamboo/sick/role_confusion"


def repeat_corpus(
    source: Path, target: Path, times: int, shuffle: bool = False
) -> None:
    """``source`` ``times`` over, ids made unique; ``shuffle``: graphs reversed.

    Reversed, every pair waits for the end of the files and is read again.
    """
    text = source.read_text(encoding="utf-8")
    text = "".join(text.replace("# ::id ", f"# ::id {n}.") for n in range(times))
    blocks = text.strip().split("\n\n")
    target.write_text(
        "\n\n".join(reversed(blocks) if shuffle else blocks) + "\n", encoding="utf-8"
    )


def live_graphs() -> int:
    from amrcheck.graph import Graph

    # weak proxies (numba keeps some) are skipped by type: isinstance would
    # dereference them, and a dead one raises ReferenceError
    proxies = weakref.ProxyTypes
    return sum(
        type(o) not in proxies and isinstance(o, Graph) for o in gc.get_objects()
    )


class GraphCensus:
    """The most graphs alive beyond a baseline, sampled every 25th call of a probe."""

    def __init__(self) -> None:
        gc.collect()
        self.before = live_graphs()
        self.calls = 0
        self.most = 0

    def wrap(self, function: Callable[..., Any]) -> Callable[..., Any]:
        """``function``, counting live graphs as it is called."""

        def probe(*args: Any, **kwargs: Any) -> Any:
            self.calls += 1
            if self.calls % 25 == 0:
                self.most = max(self.most, live_graphs())
            return function(*args, **kwargs)

        return probe

    @property
    def held(self) -> int:
        return self.most - self.before
