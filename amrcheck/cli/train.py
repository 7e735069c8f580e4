"""``amrcheck train wwlk``: fit WWLKθ's edge-label weights to human scores.

Thin: read the pair files and scores, build WWLK, call
:func:`amrcheck.workflows.training.train_wwlk`, write the weights file that
``--metric wwlk-theta -o weights=PATH`` loads. Progress bar on stderr
(none with ``--quiet`` or when stderr is not a terminal).
"""

from __future__ import annotations

import math
from enum import Enum
from pathlib import Path
from typing import Annotated, Optional

import typer

from ..errors import InputError
from ..graph import Graph
from ..metrics.wwlk import WWLK, save_weights
from ..pairing.graphs import pair_corpora
from ..reading.corpus import read_corpus
from ..reading.files import read_input_text
from ..workflows.training import SPSASettings, train_wwlk
from . import app
from ._common import fail, guarded, progress_bar

train_app = typer.Typer(
    help="Learn metric parameters from human scores.", no_args_is_help=True
)
app.add_typer(train_app, name="train")


DEFAULTS = SPSASettings()


class UpdateChoice(str, Enum):
    AVERAGE = "average"
    ADD = "add"


def read_pairs(
    files: tuple[Path, Path], scores: Path
) -> tuple[list[tuple[Graph, Graph]], list[float]]:
    """Graph pairs of two files and their scores; ``nan`` lines drop a pair.

    Raises:
        InputError: unpairable files, or scores that are not one number per pair.
    """
    first, second = (read_corpus(path) for path in files)
    pairs = pair_corpora(first, second)
    lines = read_input_text(scores).split()
    if len(lines) != len(pairs):
        raise InputError(
            f"{len(lines)} scores for {len(pairs)} graph pairs", str(scores)
        )
    kept: list[tuple[Graph, Graph]] = []
    targets: list[float] = []
    for number, (pair, line) in enumerate(zip(pairs, lines, strict=True), start=1):
        try:
            value = float(line)
        except ValueError:
            raise InputError(
                f"score {number}: {line!r} is not a number", str(scores)
            ) from None
        if not math.isnan(value):
            kept.append((pair.reference, pair.candidate))
            targets.append(value)
    return kept, targets


@train_app.command("wwlk")
def wwlk(
    pairs: Annotated[
        tuple[Path, Path],
        typer.Option(help="Two AMR files; their n-th graphs form pair n."),
    ],
    scores: Annotated[
        Path, typer.Option(help="One human score per pair and line (nan: leave out).")
    ],
    out: Annotated[Path, typer.Option(help="Where to write the weights (JSON).")],
    dev_pairs: Annotated[
        Optional[tuple[Path, Path]],  # noqa: UP007 (typer needs Optional here)
        typer.Option(help="Pairs that choose the best weights (default: --pairs)."),
    ] = None,
    dev_scores: Annotated[
        Optional[Path], typer.Option(help="Scores of --dev-pairs.")  # noqa: UP007
    ] = None,
    vectors: Annotated[
        Optional[Path],  # noqa: UP007
        typer.Option(help="GloVe/word2vec text file (default: GloVe 6B 50d)."),
    ] = None,
    iterations: Annotated[int, typer.Option(help="WL iterations K.")] = 2,
    update: Annotated[
        UpdateChoice, typer.Option(help="Node update: ½(x + mean) or x + mean.")
    ] = UpdateChoice.AVERAGE,
    seed: Annotated[int, typer.Option(help="Seed of start weights and SPSA.")] = 0,
    steps: Annotated[int, typer.Option(help="SPSA steps.")] = DEFAULTS.steps,
    batch_size: Annotated[
        int, typer.Option(help="Pairs per step.")
    ] = DEFAULTS.batch_size,
    learning_rate: Annotated[
        float, typer.Option(help="Initial step size a.")
    ] = DEFAULTS.learning_rate,
    evaluate_every: Annotated[
        int, typer.Option(help="Steps between dev evaluations.")
    ] = DEFAULTS.evaluate_every,
    quiet: Annotated[
        bool, typer.Option("--quiet", "-q", help="No progress bar, no summary.")
    ] = False,
) -> None:
    """Train WWLKθ edge-label weights (SPSA, maximising Pearson with --scores)."""
    with guarded("train"):
        train, targets = read_pairs(pairs, scores)
        dev, dev_targets = (
            read_pairs(dev_pairs, dev_scores)
            if dev_pairs is not None and dev_scores is not None
            else (None, None)
        )
        metric = WWLK(
            iterations=iterations,
            update=update.value,
            seed=seed,
            vectors=None if vectors is None else str(vectors),
        )
        try:
            settings = SPSASettings(
                steps=steps,
                batch_size=batch_size,
                learning_rate=learning_rate,
                evaluate_every=evaluate_every,
                seed=seed,
            )
            with progress_bar("train wwlk", steps, quiet) as done:
                result = train_wwlk(
                    metric,
                    train,
                    targets,
                    dev,
                    dev_targets,
                    settings,
                    progress=None if done is None else lambda *_: done(1),
                )
        except ValueError as exc:  # settings or data the trainer cannot use
            raise fail("train", str(exc)) from None
        options = metric.settings()
        save_weights(
            out,
            result.weights,
            {k: options[k] for k in ("iterations", "update", "seed", "vectors")},
            {
                "pairs": len(train),
                "dev_pairs": len(dev) if dev is not None else len(train),
                **result.summary(),
            },
        )
    if not quiet:
        typer.echo(
            f"dev Pearson {result.start:.4f} -> {result.best:.4f}; "
            f"{len(result.weights)} edge-label weights written to {out}"
        )
