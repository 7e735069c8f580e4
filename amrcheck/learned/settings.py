"""Settings of the learned metric that front ends need without loading torch.

Layer: engine (no torch): the precision choice and the training
hyper-parameters, so that ``amrcheck train --help`` and option checks do
not import torch.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..errors import MetricError

PRECISIONS: tuple[str, ...] = ("auto", "float32", "bfloat16")


def native_bfloat16() -> bool:
    """Whether this CPU multiplies bfloat16 natively (Linux CPU flags)."""
    try:
        flags = Path("/proc/cpuinfo").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return False
    return " avx512_bf16" in flags or " amx_bf16" in flags


def resolve_precision(precision: str) -> str:
    """``float32`` or ``bfloat16``: ``auto`` is bfloat16 where the CPU has it.

    Raises:
        MetricError: not one of :data:`PRECISIONS`.
    """
    if precision not in PRECISIONS:
        raise MetricError(f"precision must be one of {', '.join(PRECISIONS)}")
    if precision == "auto":
        return "bfloat16" if native_bfloat16() else "float32"
    return precision


@dataclass(frozen=True, slots=True)
class StageSettings:
    """What both training stages have: optimiser, dropout, reports, seed, compute."""

    learning_rate: float = 1e-3
    weight_decay: float = 0.01
    dropout: float = 0.1
    evaluate_every: int = 250
    checkpoint_every: int = 250
    seed: int = 0
    precision: str = "auto"
    #: torch's threads (fixed: the number changes last bits). 1: on a
    #: loaded machine, two threads wait on each other at every product
    #: (measured: a step 15 times slower at load 6 on 2 cores)
    threads: int = 1
    #: low-rank updates (LoRA) of the encoder's upper layers: rank (0: none),
    #: how many upper layers, scale alpha / rank; the layers below are frozen
    #: and their outputs computed once per graph
    lora_rank: int = 8
    lora_layers: int = 2
    lora_alpha: float = 16.0

    def __post_init__(self) -> None:
        if self.evaluate_every < 1 or self.checkpoint_every < 1:
            raise ValueError("evaluate_every and checkpoint_every must be at least 1")
        if self.lora_rank < 0 or self.lora_layers < 0 or self.lora_alpha <= 0:
            raise ValueError("lora_rank and lora_layers must be 0 or more, alpha > 0")
        if self.threads < 1:
            raise ValueError("threads must be at least 1")
        if self.precision not in PRECISIONS:
            raise ValueError(f"precision must be one of {', '.join(PRECISIONS)}")


@dataclass(frozen=True, slots=True)
class TensionSettings(StageSettings):
    """Contrastive tension hyper-parameters (see :mod:`.training`).

    The paper's batch is 16 pairs: 4 anchors, each with 1 positive and 3
    negatives; its learning rate (1e-5) is for fine-tuning all of BERT,
    ours (1e-3) for the new parameters alone.
    """

    steps: int = 2000
    anchors: int = 4
    negatives: int = 3
    structural: int = 1
    gnn_layers: int = 4
    adapter_size: int = 128
    max_length: int = 128

    def __post_init__(self) -> None:
        StageSettings.__post_init__(self)
        if self.structural < 0:
            raise ValueError("structural must be 0 or more")
        if self.steps < 1 or self.anchors < 1 or self.negatives < 1:
            raise ValueError("steps, anchors and negatives must be at least 1")


@dataclass(frozen=True, slots=True)
class SupervisedSettings(StageSettings):
    """Supervised stage hyper-parameters: pairs per step, passes over the
    pairs, and the role term (each pair's cosine must beat, by
    ``role_margin``, the cosine of the pair with its candidate's roles
    swapped; weighted ``role_weight`` beside the squared error)."""

    epochs: int = 1
    batch_size: int = 16
    learning_rate: float = 5e-4
    role_margin: float = 0.05
    role_weight: float = 1.0

    def __post_init__(self) -> None:
        StageSettings.__post_init__(self)
        if self.epochs < 1 or self.batch_size < 2:
            raise ValueError("epochs >= 1 and batch_size >= 2")
        if self.role_margin < 0 or self.role_weight < 0:
            raise ValueError("role_margin and role_weight must be 0 or more")
