"""Benchmarks that score metrics against human judgements (engine side, no CLI)."""

from __future__ import annotations

from .bamboo import (
    BambooResult,
    BambooSubtask,
    evaluate_bamboo,
    load_bamboo,
    score_bamboo,
)

__all__ = [
    "BambooResult",
    "BambooSubtask",
    "evaluate_bamboo",
    "load_bamboo",
    "score_bamboo",
]
