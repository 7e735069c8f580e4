"""Training WWLKθ: one weight per edge label, fitted to human scores by SPSA.

Layer: training (above the metrics; no front-end imports). The objective is
the Pearson correlation between WWLK scores and human similarity scores;
it is not differentiable in the weights (the EMD is a linear programme),
so the weights are fitted by simultaneous perturbation stochastic
approximation (SPSA, Spall 1992), as in the reference
(weisfeiler-leman-amr-metrics, ``black_box_optim.py``):

* each step draws a mini-batch of pairs and a random ±1 direction for all
  weights, scores the batch with the weights moved by ±cₖ along it, and
  estimates the gradient of 1 − Pearson from the two errors;
* the estimate is scaled by how often each label occurs in the batch
  (labels not in the batch do not move), clipped to ±``clip``, and
  applied with the step size aₖ = a / (k + A)^α; cₖ = c / k^γ;
* every ``evaluate_every`` steps the weights are scored on the dev pairs
  (the training pairs if none are given); the best weights seen win.

Defaults are the reference's: a = 0.75, A = 2, α = 0.5, γ = 0.05,
c = 0.01, batches of 16, clip 0.01, evaluation every 350 steps, 35
evaluations (12,250 steps). A batch whose scores or targets are constant
has no correlation: its error is 1 (the reference counts it as 0, i.e.
perfect). Given the same pairs, metric options and ``seed``, training is
deterministic.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field

import numpy as np

from ..graph import Graph
from ..metrics.wwlk import WWLK, NodeGraph, prepare, representations, transport
from .settings import SPSASettings as SPSASettings  # its home: no numpy there

#: called after each step with (steps done, steps in all, best dev Pearson so far)
TrainingProgress = Callable[[int, int, float], None]


@dataclass(slots=True)
class TrainingResult:
    """The best weights and how they were found."""

    weights: dict[str, float]
    #: dev Pearson of the untrained (seeded) weights
    start: float
    #: dev Pearson of the returned weights
    best: float
    #: (step, dev Pearson) at every evaluation
    history: list[tuple[int, float]] = field(default_factory=list)
    settings: SPSASettings = field(default_factory=SPSASettings)

    def summary(self) -> dict[str, object]:
        return {
            "dev_pearson_start": self.start,
            "dev_pearson_best": self.best,
            "history": [list(item) for item in self.history],
            "spsa": asdict(self.settings),
        }


def pearson(x: np.ndarray, y: np.ndarray) -> float:
    """Pearson's r; 0.0 when either side is constant.

    Example:
        >>> pearson(np.array([1.0, 2, 3]), np.array([2.0, 4, 7]))
        0.9933992677987828
    """
    dx, dy = x - x.mean(), y - y.mean()
    norm = float(np.sqrt((dx @ dx) * (dy @ dy)))
    return float(dx @ dy) / norm if norm > 0 else 0.0


class _Model:
    """Prepared graphs and a weight vector over their edge labels."""

    def __init__(self, metric: WWLK, graphs: Sequence[Graph]) -> None:
        self.metric = metric
        compat = metric.options.compat
        self.nodes: list[NodeGraph] = [
            prepare(g, metric.concepts, compat) for g in graphs
        ]
        labels = sorted(
            {lab for n in self.nodes for gl in n.group_labels for lab in gl}
        )
        self.labels = labels
        position = {label: k for k, label in enumerate(labels)}
        # per graph: label ids of its groups, flat, and where each group starts
        self.flat: list[np.ndarray] = []
        self.starts: list[np.ndarray] = []
        self.counts: list[Counter[int]] = []
        for nodes in self.nodes:
            ids = [position[lab] for gl in nodes.group_labels for lab in gl]
            sizes = [len(gl) for gl in nodes.group_labels]
            self.flat.append(np.array(ids, dtype=np.intp))
            self.starts.append(np.cumsum([0, *sizes[:-1]]).astype(np.intp))
            self.counts.append(Counter(ids))

    def initial(self) -> np.ndarray:
        return np.array([self.metric.edge_weight(label) for label in self.labels])

    def rows(self, graph: int, theta: np.ndarray) -> np.ndarray:
        nodes = self.nodes[graph]
        flat = self.flat[graph]
        weights = (
            np.multiply.reduceat(theta[flat], self.starts[graph])
            if len(flat)
            else np.zeros(0)
        )
        opts = self.metric.options
        return representations(nodes, weights, opts.iterations, opts.update)

    def gradient(
        self,
        pairs: Sequence[tuple[int, int]],
        theta: np.ndarray,
        perturbation: np.ndarray,
        targets: np.ndarray,
    ) -> np.ndarray:
        """SPSA's estimate of d(1 − r)/dθ on ``pairs``, weighted by label use.

        Labels absent from the batch get 0; the others share the estimate
        in proportion to how often their edges occur (the reference's
        "active parameters").
        """
        errors = [
            1.0 - pearson(self.predict(pairs, theta + sign * perturbation), targets)
            for sign in (1.0, -1.0)
        ]
        estimate = (errors[0] - errors[1]) / (2 * perturbation)
        usage = np.zeros_like(theta)
        for a, b in pairs:
            for counts in (self.counts[a], self.counts[b]):
                for label, count in counts.items():
                    usage[label] += count
        total = usage.sum()
        return estimate * usage / total if total > 0 else estimate

    def predict(
        self, pairs: Sequence[tuple[int, int]], theta: np.ndarray
    ) -> np.ndarray:
        return np.array(
            [
                1.0 - transport(self.rows(a, theta), self.rows(b, theta))[0]
                for a, b in pairs
            ]
        )


def train_wwlk(
    metric: WWLK,
    pairs: Sequence[tuple[Graph, Graph]],
    targets: Sequence[float],
    dev_pairs: Sequence[tuple[Graph, Graph]] | None = None,
    dev_targets: Sequence[float] | None = None,
    settings: SPSASettings | None = None,
    progress: TrainingProgress | None = None,
) -> TrainingResult:
    """Fit one weight per edge label of ``metric`` to ``targets`` by SPSA.

    Args:
        metric: the WWLK whose vectors, iterations, update and seeded
            start weights are used (a :class:`~.metrics.wwlk.WWLKTheta`
            starts from its trained weights).
        pairs, targets: training pairs and their human scores.
        dev_pairs, dev_targets: pairs for choosing the best weights
            (default: the training pairs).
        settings: SPSA hyper-parameters.
        progress: called after every step.

    Returns:
        The best weights for every edge label of the training and dev
        pairs, with the dev Pearson before and after.

    Raises:
        ValueError: pairs and targets differ in number, or fewer than two
            pairs.
    """
    settings = settings or SPSASettings()
    if dev_pairs is None or dev_targets is None:
        dev_pairs, dev_targets = pairs, targets
    for group, scores in ((pairs, targets), (dev_pairs, dev_targets)):
        if len(group) != len(scores) or len(group) < 2:
            raise ValueError("need as many scores as pairs, and at least two pairs")
    graphs = [g for pair in (*pairs, *dev_pairs) for g in pair]
    model = _Model(metric, graphs)
    train_index = [(2 * k, 2 * k + 1) for k in range(len(pairs))]
    offset = 2 * len(pairs)
    dev_index = [(offset + 2 * k, offset + 2 * k + 1) for k in range(len(dev_pairs))]
    y_train = np.asarray(targets, dtype=np.float64)
    y_dev = np.asarray(dev_targets, dtype=np.float64)

    rng = np.random.default_rng(settings.seed)
    theta = model.initial()
    best_theta = theta.copy()
    start = best = pearson(model.predict(dev_index, theta), y_dev)
    history: list[tuple[int, float]] = []
    for step in range(1, settings.steps + 1):
        batch = rng.integers(0, len(pairs), size=settings.batch_size)
        chosen = [train_index[k] for k in batch]
        direction = rng.choice(np.array([-1.0, 1.0]), size=theta.shape)
        c = settings.perturbation / step**settings.gamma
        gradient = model.gradient(chosen, theta, c * direction, y_train[batch])
        gradient = np.clip(gradient, -settings.clip, settings.clip)
        rate = settings.learning_rate / (step + settings.stability) ** settings.alpha
        theta = theta - rate * gradient
        if step % settings.evaluate_every == 0:
            score = pearson(model.predict(dev_index, theta), y_dev)
            history.append((step, score))
            if score > best:
                best, best_theta = score, theta.copy()
        if progress is not None:
            progress(step, settings.steps, best)
    weights = {
        label: float(w) for label, w in zip(model.labels, best_theta, strict=True)
    }
    return TrainingResult(weights, start, best, history, settings)
