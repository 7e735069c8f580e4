"""``amrcheck train wwlk``: fit WWLKθ's edge-label weights to human scores.

Thin: read the pair files and scores, build WWLK, call
:func:`amrcheck.training.wwlk_theta.train_wwlk`, write the weights file that
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
from ..learned import require_learned
from ..learned.settings import SupervisedSettings, TensionSettings
from ..pairing.graphs import pair_corpora
from ..reading.corpus import read_corpus
from ..reading.files import read_input_text
from ..training.settings import SPSASettings
from . import app
from ._common import fail, guarded, progress_bar, report_input_errors

train_app = typer.Typer(
    help="Learn metric parameters from human scores.", no_args_is_help=True
)
app.add_typer(train_app, name="train")


DEFAULTS = SPSASettings()
TENSION = TensionSettings()
SUPERVISED = SupervisedSettings()


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
            assert pair.candidate is not None, "pair_corpora pairs whole pairs only"
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
        typer.Option(help="glove-6b-50d (default), minilm, or a GloVe/word2vec file."),
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
    # WWLK and its trainer load numpy: here, not for ``--help``
    from ..metrics.wwlk import WWLK, save_weights
    from ..training.wwlk_theta import train_wwlk

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


def _read_graphs(files: list[Path]) -> tuple[list[Graph], list[str]]:
    """Every graph of ``files``; the reading errors (``file:line:col: ...``)."""
    graphs: list[Graph] = []
    problems: list[str] = []
    for path in files:
        corpus = read_corpus(path)
        problems += [str(finding) for finding in corpus.errors]
        graphs += [entry.graph for entry in corpus if entry.graph is not None]
    return graphs, problems


@train_app.command("amrsim")
def amrsim(
    graphs: Annotated[
        list[Path],
        typer.Argument(help="AMR files of unlabelled graphs to train on."),
    ],
    out: Annotated[Path, typer.Option(help="Where to write the weights.")],
    dev: Annotated[
        Optional[Path],  # noqa: UP007
        typer.Option(help="A BAMBOO folder: dev correlations as training goes."),
    ] = None,
    tension_out: Annotated[
        Optional[Path],  # noqa: UP007
        typer.Option(help="Also write the weights after contrastive tension here."),
    ] = None,
    state: Annotated[
        Optional[Path],  # noqa: UP007
        typer.Option(
            help="Resumable training state (default: OUT with the suffix .state)."
        ),
    ] = None,
    steps: Annotated[int, typer.Option(help="Contrastive tension steps.")] = (
        TENSION.steps
    ),
    structural: Annotated[
        int,
        typer.Option(help="Role-swapped copies of each anchor added as negatives."),
    ] = TENSION.structural,
    learning_rate: Annotated[
        float, typer.Option(help="AdamW learning rate.")
    ] = TENSION.learning_rate,
    gnn_layers: Annotated[
        int, typer.Option(help="k, the GNN adapter's layers.")
    ] = TENSION.gnn_layers,
    evaluate_every: Annotated[
        int, typer.Option(help="Steps between dev evaluations.")
    ] = TENSION.evaluate_every,
    seed: Annotated[int, typer.Option(help="Seed of pairs, dropout, adapter.")] = 0,
    supervised: Annotated[
        Optional[list[Path]],  # noqa: UP007
        typer.Option(
            help="BAMBOO train folders (src/tgt.train.amr, train.y): --holdout of "
            "their pairs chooses the model kept; the rest trains a supervised "
            "stage after contrastive tension (none with --epochs 0; repeatable)."
        ),
    ] = None,
    start: Annotated[
        Optional[Path],  # noqa: UP007
        typer.Option(
            help="Skip contrastive tension: start the supervised stage "
            "from these weights."
        ),
    ] = None,
    epochs: Annotated[
        int, typer.Option(help="Supervised passes (0: contrastive tension only).")
    ] = 1,
    batch_size: Annotated[
        int, typer.Option(help="Supervised pairs per step.")
    ] = SUPERVISED.batch_size,
    supervised_learning_rate: Annotated[
        float, typer.Option(help="AdamW learning rate of the supervised stage.")
    ] = SUPERVISED.learning_rate,
    role_margin: Annotated[
        float,
        typer.Option(help="Margin by which a pair must beat its role-swapped pair."),
    ] = SUPERVISED.role_margin,
    role_weight: Annotated[
        float, typer.Option(help="Weight of the role term (0: none).")
    ] = SUPERVISED.role_weight,
    holdout: Annotated[
        float,
        typer.Option(help="Share of each --supervised task held out to choose on."),
    ] = 0.1,
    lora_rank: Annotated[
        int, typer.Option(help="Rank of the encoder's low-rank updates (0: none).")
    ] = TENSION.lora_rank,
    lora_layers: Annotated[
        int, typer.Option(help="Upper encoder layers that get low-rank updates.")
    ] = TENSION.lora_layers,
    device: Annotated[
        str, typer.Option(help="cpu, or cuda (a GPU; refused where there is none).")
    ] = "cpu",
    precision: Annotated[
        str, typer.Option(help="auto, float32 or bfloat16 (the transformer's).")
    ] = "auto",
    threads: Annotated[
        int, typer.Option(help="torch threads (fixed: the number changes last bits).")
    ] = TENSION.threads,
    quiet: Annotated[
        bool, typer.Option("--quiet", "-q", help="No progress bar, no summary.")
    ] = False,
) -> None:
    """Train AMRSim: contrastive tension on GRAPHS, then optionally supervised.

    Interrupted? Run the same command again: it resumes from --state.
    """
    with guarded("train"):
        require_learned()
        from ..training import amrsim as trainer

        train_graphs, problems = _read_graphs(graphs)
        report_input_errors("train", problems, strict=False)
        dev_set = trainer.bamboo_dev_set(dev) if dev is not None else None
        report = None if quiet else _print_dev
        state_path = state or out.with_suffix(".state")
        try:
            held_out = None
            if supervised:
                pairs, targets, held_out = trainer.split_holdout(
                    trainer.bamboo_train_tasks(supervised), holdout, seed
                )
            common = {
                "seed": seed,
                "precision": precision,
                "threads": threads,
                "evaluate_every": evaluate_every,
                "lora_rank": lora_rank,
                "lora_layers": lora_layers,
            }
            if start is None:
                settings = trainer.TensionSettings(
                    steps=steps,
                    structural=structural,
                    learning_rate=learning_rate,
                    gnn_layers=gnn_layers,
                    **common,  # type: ignore[arg-type]
                )
                with progress_bar("train amrsim", steps, quiet) as done:
                    result = trainer.train_tension(
                        train_graphs,
                        settings,
                        dev_set,
                        state_path,
                        None if done is None else lambda *_: done(1),
                        report,
                        held_out,
                        device,
                    )
                checkpoint, lower = result.checkpoint, result.lower
                if tension_out is not None:
                    trainer.save_checkpoint(tension_out, checkpoint)
            else:
                checkpoint, lower = trainer.load_checkpoint(start), None
            if supervised and epochs > 0:
                stage = trainer.SupervisedSettings(
                    epochs=epochs,
                    batch_size=batch_size,
                    learning_rate=supervised_learning_rate,
                    role_margin=role_margin,
                    role_weight=role_weight,
                    **common,  # type: ignore[arg-type]
                )
                total = -(-len(pairs) // stage.batch_size) * epochs
                with progress_bar("train amrsim (supervised)", total, quiet) as done:
                    result = trainer.train_supervised(
                        checkpoint,
                        pairs,
                        targets,
                        stage,
                        dev_set,
                        state_path.with_suffix(".supervised.state"),
                        None if done is None else lambda *_: done(1),
                        report,
                        held_out,
                        device,
                        lower,
                    )
                checkpoint = result.checkpoint
        except ValueError as exc:
            raise fail("train", str(exc)) from None
        trainer.save_checkpoint(out, checkpoint)
    if not quiet:
        typer.echo(f"amrsim weights written to {out}")


def _print_dev(step: int, values: dict[str, float]) -> None:
    shown = "  ".join(f"{name} {value:.2f}" for name, value in values.items())
    typer.echo(f"step {step}: {shown}", err=True)
