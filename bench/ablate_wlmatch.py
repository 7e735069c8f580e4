"""What each agreement of wlmatch-v1 brings (issue 16): alone, and left out.

    python bench/ablate_wlmatch.py      # ~1 min on 2 cores

Scores every BAMBOO dev pair and the two RARE sets of
``bench/fit_wlmatch.py`` once, keeps the five agreements of each pair
(``Score.info["components"]``), and prints, as a Markdown table, BAMBOO
dev (the three main subtasks, the three role-confusion ones, AMEAN) and
RARE Spearman for each agreement alone and for the shipped weights with
one agreement left out (the others keep their weights). Nothing is
refitted: this is a description of the shipped metric, not a search.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
from scipy.stats import spearmanr

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from amrcheck.benchmarks.bamboo import load_bamboo  # noqa: E402
from amrcheck.metrics import wlmatch  # noqa: E402
from amrcheck.reading.corpus import read_corpus  # noqa: E402
from bench.fit_wlmatch import SHARED, components, rare_sets  # noqa: E402

SHOWN = ("sts.main", "sick.main", "para.main", "sts.role_confusion",
         "sick.role_confusion", "para.role_confusion")


def main() -> int:
    metric = wlmatch.WLMatch()
    shipped = np.array([metric.parameters.weights[c] for c in wlmatch.COMPONENTS])
    subtasks = load_bamboo(SHARED / "bamboo", "dev")
    dev = {}
    for task in subtasks:
        c, r = read_corpus(task.candidate_path), read_corpus(task.reference_path)
        pairs = [(a.graph, b.graph) for a, b in zip(c, r, strict=True)]
        dev[task.id] = components(metric, pairs)
    rare = rare_sets()
    rare_features = {n: components(metric, pairs) for n, (pairs, _) in rare.items()}

    def row(label: str, w: np.ndarray) -> str:
        values = {t.id: t.measure(list(dev[t.id] @ w)) for t in subtasks}
        amean = sum(values.values()) / len(values)
        ranks = [
            100 * spearmanr(rare_features[n] @ w, rare[n][1])[0] for n in rare
        ]
        cells = [f"{values[i]:.2f}" for i in SHOWN] + [f"{amean:.2f}"]
        cells += [f"{v:.2f}" for v in ranks]
        return f"| {label} | " + " | ".join(cells) + " |"

    print("| weights | STS | SICK | PARA | STS(role) | SICK(role) | PARA(role) "
          "| AMEAN (12) | RARE LP | RARE Bio |")
    print("|---|" + "---|" * 9)
    print(row("shipped", shipped))
    for k, name in enumerate(wlmatch.COMPONENTS):
        alone = np.zeros(len(shipped))
        alone[k] = 1.0
        print(row(f"{name} alone", alone))
    for k, name in enumerate(wlmatch.COMPONENTS):
        without = shipped.copy()
        without[k] = 0.0
        print(row(f"without {name}", without))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
