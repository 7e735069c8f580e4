"""Bench (not a test): BAMBOO dev table of the graded metrics, beside smatch and WLK.

Rows: smatch and WLK (defaults); s2match with the paper's defaults (cutoff
0.5, diffsense 0.5) and with the leaderboard's (0.9, 0.95); WWLK with the
paper's update ½(x + mean) and with the reference code's x + mean; WWLKθ
trained by SPSA (reference schedule) on

* ``sts``: sts/main dev only, applied to all 12 subtasks: the sts rows are
  in-sample (sts reify/syno are rewrites of the same sentence pairs), the
  sick and para rows are out-of-sample;
* ``per task``: each task's main dev, applied to that task's subtasks —
  train = evaluation data everywhere, so optimistic.

BAMBOO's train splits are not in the shared data, hence dev for training.
Vectors: GloVe 6B 50d (the ``glove`` extra) unless ``--vectors``.

    python bench/bamboo_graded.py [--steps 12250] [--out /tmp/amrcheck-bench]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from amrcheck.benchmarks.bamboo import (  # noqa: E402
    SUBTASK_IDS,
    TASKS,
    BambooSubtask,
    evaluate_bamboo,
    load_bamboo,
    score_bamboo,
)
from amrcheck.metrics import get_metric  # noqa: E402
from amrcheck.metrics.wwlk import WWLK, WWLKTheta, save_weights  # noqa: E402
from amrcheck.reading.corpus import read_corpus  # noqa: E402
from amrcheck.training.wwlk_theta import SPSASettings, train_wwlk  # noqa: E402

BAMBOO = REPO.parent / "shared" / "data" / "bamboo"
HEADER = (
    "| metric | STS | SICK | PARA | STS(reify) | SICK(reify) | PARA(reify) "
    "| STS(syno) | SICK(syno) | PARA(syno) | STS(role) | SICK(role) | PARA(role) "
    "| AMEAN | s |"
)


def train(
    task: BambooSubtask, vectors: str | None, steps: int, out: Path
) -> tuple[Path, float, float]:
    """Train on one main subtask's scored pairs; the weights file and dev Pearson."""
    cand, ref = read_corpus(task.candidate_path), read_corpus(task.reference_path)
    pairs = [(cand[i].graph, ref[i].graph) for i in task.scored]
    metric = WWLK(vectors=vectors)
    result = train_wwlk(metric, pairs, task.human, settings=SPSASettings(steps=steps))  # type: ignore[arg-type]
    path = out / f"wwlk-theta-{task.task}.json"
    options = metric.settings()
    save_weights(
        path,
        result.weights,
        {k: options[k] for k in ("iterations", "update", "seed", "vectors")},
        {
            "pairs": len(pairs),
            "trained_on": f"BAMBOO {task.id} dev",
            **result.summary(),
        },
    )
    return path, result.start, result.best


def row(name: str, values: list[float], seconds: float) -> str:
    cells = " | ".join(f"{v:.2f}" for v in values)
    return f"| {name} | {cells} | {seconds:.0f} |"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bamboo", type=Path, default=BAMBOO)
    parser.add_argument("--vectors", default=None)
    parser.add_argument("--steps", type=int, default=SPSASettings().steps)
    parser.add_argument("--out", type=Path, default=Path("/tmp/amrcheck-bench"))
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    tasks = load_bamboo(args.bamboo)
    by_id = {t.id: t for t in tasks}
    graded = {"vectors": args.vectors}
    configs: list[tuple[str, dict[str, object]]] = [
        ("smatch", {}),
        ("wlk", {}),
        ("s2match", graded),
        ("s2match", {**graded, "cutoff": 0.9, "diffsense": 0.95}),
        ("wwlk", graded),
        ("wwlk", {**graded, "update": "add"}),
    ]
    table: dict[str, list[float]] = {}
    print(HEADER)
    print("|" + "---|" * 15)
    for name, options in configs:
        metric = get_metric(name, **options)
        start = time.perf_counter()
        predictions = score_bamboo(tasks, lambda a, b, m=metric: m.score(a, b).f1)
        label = name + "".join(
            f" {k}={v}" for k, v in options.items() if k != "vectors" and v is not None
        )
        table[label] = evaluate_bamboo(tasks, predictions).row()
        print(row(label, table[label], time.perf_counter() - start), flush=True)

    trained: dict[str, Path] = {}
    for task in TASKS:
        start = time.perf_counter()
        path, before, after = train(
            by_id[f"{task}.main"], args.vectors, args.steps, args.out
        )
        trained[task] = path
        print(
            f"<!-- trained on {task}.main dev: Pearson {before:.4f} -> {after:.4f}, "
            f"{time.perf_counter() - start:.0f} s, {path} -->",
            flush=True,
        )
    for label, weights_of in (
        ("wwlk-theta (sts)", lambda subtask: trained["sts"]),
        ("wwlk-theta (per task)", lambda subtask: trained[subtask.task]),
    ):
        start = time.perf_counter()
        predictions = {}
        metrics: dict[Path, WWLKTheta] = {}
        for subtask in tasks:
            path = weights_of(subtask)
            if path not in metrics:
                metrics[path] = WWLKTheta(vectors=args.vectors, weights=str(path))
            theta = metrics[path]
            predictions.update(
                score_bamboo([subtask], lambda a, b, m=theta: m.score(a, b).f1)
            )
        table[label] = evaluate_bamboo(tasks, predictions).row()
        print(row(label, table[label], time.perf_counter() - start), flush=True)
    (args.out / "bamboo_graded.json").write_text(
        json.dumps({"columns": [*SUBTASK_IDS, "AMEAN"], "rows": table}, indent=1)
    )


if __name__ == "__main__":
    main()
