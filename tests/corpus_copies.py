"""Copies of a real corpus as other tools write them: graphs shuffled,
metadata spelled ``#::``, ids dropped (for the pairing tests)."""

from __future__ import annotations

import random
import re
from pathlib import Path

_ID_RE = re.compile(r"::id\s+\S+\s*")


def shuffled_copy(
    source: Path,
    target: Path,
    spelling: str = "# ::",
    drop_ids: bool = False,
    seed: int | None = 0,
) -> Path:
    """``source`` with its graphs in another order (a leading block without a
    graph, such as a release header, stays first), ``# ::`` written
    ``spelling`` and, with ``drop_ids``, every ``::id`` taken out. ``seed``
    None keeps the graphs in their order."""
    blocks = source.read_text("utf-8").strip().split("\n\n")
    head = [b for b in blocks[:1] if not any(x.startswith("(") for x in b.split("\n"))]
    graphs = blocks[len(head):]
    if seed is not None:
        random.Random(seed).shuffle(graphs)
    out = []
    for block in head + graphs:
        lines = []
        for line in block.split("\n"):
            if line.startswith("# ::"):
                line = spelling + line[len("# ::"):]
                if drop_ids:
                    line = _ID_RE.sub("", line)
                    if line.strip() == spelling.strip():
                        continue
            lines.append(line)
        out.append("\n".join(lines))
    target.write_text("\n\n".join(out) + "\n", encoding="utf-8")
    return target
