"""Real Little Prince pairs that differ much: each graph against the next sentence's."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import shared_path

LITTLE_PRINCE = shared_path("little_prince/amr-bank-struct-v3.0.txt")


def shifted_pairs(folder: Path, graphs: int) -> tuple[Path, Path]:
    """gold/lp.amr: the first ``graphs`` graphs of the book; annotations/lp.amr:
    under each graph's header, the next sentence's graph (real annotations
    with relabels, missing and extra triples and other roots)."""
    blocks = [
        b for b in LITTLE_PRINCE.read_text(encoding="utf-8").split("\n\n")
        if "# ::id " in b
    ][: graphs + 1]
    gold, annotation = folder / "gold" / "lp.amr", folder / "annotations" / "lp.amr"
    gold.parent.mkdir()
    annotation.parent.mkdir()
    gold.write_text("\n\n".join(blocks[:graphs]) + "\n", encoding="utf-8")
    shifted = []
    for block, following in zip(blocks, blocks[1:], strict=False):
        header = [line for line in block.splitlines() if line.startswith("#")]
        body = [line for line in following.splitlines() if not line.startswith("#")]
        shifted.append("\n".join(header + body))
    annotation.write_text("\n\n".join(shifted) + "\n", encoding="utf-8")
    return gold, annotation
