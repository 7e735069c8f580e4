"""Pausing Python's cyclic garbage collector around bulk work.

Layer: engine core (no amrcheck imports). Reading a file or comparing two
documents makes tens of thousands of small containers, few of them in
reference cycles: the collector would re-scan them again and again
(20-30 % of the time of reading and comparing a UMR file pair) and find
almost nothing to free. :func:`collector_paused` stops it for the block
and starts it again after (if it ran before); what a paused block leaves
in cycles is collected by the next collection. The AMR reader
(:func:`amrcheck.reading._parse.parse_source`), the UMR reader, the file
checker and the UMR comparisons pause it here.

Example:
    >>> import gc
    >>> running = gc.isenabled()
    >>> with collector_paused():
    ...     gc.isenabled()
    False
    >>> gc.isenabled() == running
    True
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_paused(promote: bool = False) -> Iterator[None]:
    """The cyclic collector off for the block.

    ``promote``: the block's survivors (a document just read) go straight
    to the oldest generation (freeze, then unfreeze: no scan), so the next
    young collections do not scan them all.
    """
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            if promote:
                gc.freeze()
                gc.unfreeze()
            gc.enable()
