"""The SPSA hyper-parameters of WWLKθ's training, without numpy.

Layer: training. :mod:`.wwlk_theta` trains with them (and exports them);
``amrcheck train`` shows their defaults in its help, which must not load
numpy (start-up time of ``amrcheck --help``).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class SPSASettings:
    """SPSA hyper-parameters (defaults: the reference's, :mod:`.wwlk_theta`)."""

    steps: int = 12_250
    batch_size: int = 16
    learning_rate: float = 0.75
    stability: float = 2.0
    alpha: float = 0.5
    gamma: float = 0.05
    perturbation: float = 0.01
    clip: float = 0.01
    evaluate_every: int = 350
    seed: int = 0

    def __post_init__(self) -> None:
        if self.steps < 1 or self.batch_size < 2 or self.evaluate_every < 1:
            raise ValueError("steps >= 1, batch_size >= 2, evaluate_every >= 1")
