"""Charts for the benchmarks (matplotlib, the optional ``plot`` extra).

Layer: engine output, beside the benchmarks; imported only when a chart
is asked for. Without matplotlib every function raises
:class:`MissingExtraError`, whose message names the extra to install.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ..errors import AmrError


class MissingExtraError(AmrError):
    """An optional dependency is not installed."""


def _pyplot() -> Any:
    try:
        matplotlib = importlib.import_module("matplotlib")
    except ImportError:
        raise MissingExtraError(
            "charts need matplotlib, the optional 'plot' extra: "
            "pip install 'amrcheck[plot]'"
        ) from None
    matplotlib.use("Agg")  # files only, never a window
    return importlib.import_module("matplotlib.pyplot")


def bamboo_scatter(
    path: str | Path,
    metric: str,
    human: Mapping[str, Sequence[float]],
    predicted: Mapping[str, Sequence[float]],
    values: Mapping[str, float],
) -> None:
    """Metric score against human score, one panel per similarity subtask.

    ``human`` and ``predicted`` hold the scored pairs of each subtask id
    (same order); ``values`` the subtask's Pearson × 100.
    """
    plt = _pyplot()
    ids = list(human)
    columns = 3
    rows = -(-len(ids) // columns)
    figure, axes = plt.subplots(
        rows, columns, figsize=(4 * columns, 3.6 * rows), squeeze=False
    )
    for axis, task in zip(axes.flat, ids, strict=False):
        axis.scatter(human[task], predicted[task], s=4, alpha=0.4)
        axis.set_title(f"{task}  r×100 = {values[task]:.2f}", fontsize=10)
        axis.set_xlabel("human")
        axis.set_ylabel(metric)
    for axis in list(axes.flat)[len(ids) :]:
        axis.set_visible(False)
    figure.suptitle(f"BAMBOO: {metric} against human similarity")
    figure.tight_layout()
    figure.savefig(path, dpi=120)
    plt.close(figure)


def runtime_chart(
    path: str | Path, metric: str, sizes: Sequence[int], seconds: Sequence[float]
) -> None:
    """Seconds per pair against the pair's size (triples of both graphs)."""
    plt = _pyplot()
    figure, axis = plt.subplots(figsize=(6, 4))
    axis.scatter(sizes, [s * 1000 for s in seconds], s=6, alpha=0.5)
    axis.set_xlabel("triples in the pair")
    axis.set_ylabel("milliseconds per pair")
    axis.set_title(f"{metric}: runtime against graph size")
    figure.tight_layout()
    figure.savefig(path, dpi=120)
    plt.close(figure)


def bamboo_leaderboard(
    path: str | Path,
    metrics: Sequence[str],
    columns: Sequence[str],
    rows: Sequence[Sequence[float]],
) -> None:
    """The BAMBOO table as a chart: one row per metric, one column per
    subtask (and AMEAN), each cell coloured and labelled with its value,
    the best of each column framed."""
    plt = _pyplot()
    figure, axis = plt.subplots(
        figsize=(1.0 * len(columns) + 2.5, 0.45 * len(metrics) + 1.6)
    )
    # colour by rank within the column (the share of values below): the
    # subtasks differ too much in scale (PARA ~35, SICK(role) 100) for one
    # colour range
    ranks = [
        [sum(other < v for other in column) / max(1, len(column) - 1) for v in column]
        for column in zip(*rows, strict=True)
    ]
    axis.imshow(list(zip(*ranks, strict=True)), cmap="YlGn", aspect="auto", vmin=-0.3)
    for j, column in enumerate(zip(*rows, strict=True)):
        best = max(column)
        for i, value in enumerate(column):
            top = value == best
            axis.text(
                j,
                i,
                f"{value:.1f}",
                ha="center",
                va="center",
                fontsize=8,
                fontweight="bold" if top else "normal",
                color="white" if ranks[j][i] > 0.6 else "black",
            )
            if top:
                frame = plt.Rectangle(
                    (j - 0.5, i - 0.5), 1, 1, fill=False, edgecolor="black", lw=1.5
                )
                axis.add_patch(frame)
    axis.set_xticks(
        range(len(columns)), labels=list(columns), rotation=45, ha="right", fontsize=8
    )
    axis.set_yticks(range(len(metrics)), labels=list(metrics), fontsize=9)
    axis.set_title("BAMBOO leaderboard (Pearson × 100; role: accuracy × 100)")
    figure.tight_layout()
    figure.savefig(path, dpi=120)
    plt.close(figure)
