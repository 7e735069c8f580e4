"""What ``amrcheck score`` adds for UMR files: the document-level layers."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rich.console import Console

from ..workflows.umr_score import DocumentScore, document_dict, score_umr_files
from ._common import table

#: the layers printed, in order, with their labels
_LAYERS = (
    ("sentences", "sentence graphs (smatch)"),
    ("temporal", "temporal"),
    ("modal", "modal"),
    ("coref", "coref"),
    ("document", "document level"),
    ("overall", "overall"),
)


def umr_scores(reference: Path, candidates: list[Path]) -> dict[str, DocumentScore]:
    return score_umr_files(reference, candidates)


def umr_json(scores: dict[str, DocumentScore]) -> dict[str, Any]:
    return {path: document_dict(score) for path, score in scores.items()}


def render_umr(out: Console, scores: dict[str, DocumentScore]) -> None:
    for path, score in scores.items():
        layers = document_dict(score)
        grid = table(out, "layer", "P", "R", "F1", "correct/cand", "found/ref",
                     title=f"UMR layers: {path}")
        for name, label in _LAYERS:
            layer = layers[name]
            grid.add_row(
                label, f"{layer['precision']:.4f}", f"{layer['recall']:.4f}",
                f"{layer['f1']:.4f}", f"{layer['correct']}/{layer['candidate']}",
                f"{layer['found']}/{layer['reference']}",
            )
        out.print(grid)
        for name in ("temporal", "modal", "coref"):
            for kind in ("missing", "extra"):
                for item in layers[name][kind]:
                    out.print(f"{item['where']}: {name} {kind}: {item['triple']}")
