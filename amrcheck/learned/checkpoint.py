"""AMRSim's trained parameters on disk: one safetensors file with its settings.

Layer: engine (torch). The file holds only what differs from the
pretrained encoder — the added relation embeddings, the GNN adapter, the
low-rank updates of the upper layers (``lora_rank`` > 0) — and,
as metadata, the settings the network must be built with (relations,
adapter size, GNN layers, window length), the encoder it was trained on
and a summary of its training. The shipped file is
``amrcheck/learned/weights/amrsim.safetensors`` (:data:`SHIPPED_WEIGHTS`),
described by ``MODEL_CARD.md`` beside it.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import torch

from ..errors import InputError, MetricError
from ..reading.files import read_input
from .backbone import ENCODER_NAME, ENCODER_PACKAGE, ENCODER_VERSION
from .model import AMRSimNet

#: the ``format`` metadata of a weights file
WEIGHTS_FORMAT = "amrcheck-amrsim/1"
SHIPPED_WEIGHTS = Path(__file__).resolve().parent / "weights" / "amrsim.safetensors"


@dataclass(frozen=True, slots=True)
class NetSettings:
    """How the network is built; recorded in every weights file."""

    relations: tuple[str, ...]
    gnn_layers: int = 4
    adapter_size: int = 128
    max_length: int = 128
    #: low-rank updates: their rank (0: none), how many upper layers, alpha
    lora_rank: int = 0
    lora_layers: int = 0
    lora_alpha: float = 16.0

    def __post_init__(self) -> None:
        if self.gnn_layers < 1 or self.adapter_size < 1:
            raise ValueError("gnn_layers and adapter_size must be at least 1")
        if self.lora_rank < 0 or self.lora_layers < 0 or self.lora_alpha <= 0:
            raise ValueError("lora_rank and lora_layers must be 0 or more, alpha > 0")
        if not 3 <= self.max_length <= 512:
            raise ValueError("max_length must be between 3 and 512")


@dataclass(slots=True)
class Checkpoint:
    """Trained parameters, the settings they need and how they were made."""

    settings: NetSettings
    parameters: dict[str, torch.Tensor]
    training: dict[str, Any] = field(default_factory=dict)


def is_trained(name: str) -> bool:
    """Whether a parameter of :class:`AMRSimNet` is one AMRSim adds (kept in a
    weights file) rather than one of the pretrained encoder's."""
    return not name.startswith("backbone.") or ".low_rank." in name


def trained_parameters(net: AMRSimNet) -> dict[str, torch.Tensor]:
    """The parameters that differ from the pretrained encoder."""
    return {
        name: tensor.detach().float().contiguous().clone()
        for name, tensor in net.state_dict().items()
        if is_trained(name)
    }


def save_checkpoint(path: str | Path, checkpoint: Checkpoint) -> None:
    from safetensors.torch import save_file

    metadata = {
        "format": WEIGHTS_FORMAT,
        "settings": json.dumps(asdict(checkpoint.settings)),
        "encoder": json.dumps(
            {
                "name": ENCODER_NAME,
                "package": ENCODER_PACKAGE,
                "version": ENCODER_VERSION,
            }
        ),
        "training": json.dumps(checkpoint.training, sort_keys=True),
    }
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    save_file(checkpoint.parameters, str(path), metadata=metadata)


def load_checkpoint(path: str | Path) -> Checkpoint:
    """Read a weights file written by :func:`save_checkpoint`.

    Raises:
        MetricError: unreadable, or not an AMRSim weights file.
    """
    from safetensors import SafetensorError
    from safetensors.torch import load as load_tensors

    try:
        # like any input: a regular file, never past its size, at most
        # MAX_HELD_BYTES (the shipped file is 2.2 MB)
        data = read_input(path)
    except InputError as exc:
        raise MetricError(
            f"{path}: cannot read AMRSim weights: {exc.message}"
        ) from None
    try:
        metadata = _metadata(data)
        parameters = load_tensors(data)
    except (SafetensorError, ValueError) as exc:
        raise MetricError(f"{path}: cannot read AMRSim weights: {exc}") from None
    if metadata.get("format") != WEIGHTS_FORMAT:
        raise MetricError(f"{path}: not an AMRSim weights file ({WEIGHTS_FORMAT})")
    try:
        raw = json.loads(metadata["settings"])
        settings = NetSettings(**{**raw, "relations": tuple(raw["relations"])})
        training = json.loads(metadata.get("training", "{}"))
    except (KeyError, TypeError, ValueError) as exc:
        raise MetricError(f"{path}: bad settings in AMRSim weights: {exc}") from None
    return Checkpoint(settings, parameters, training)


def _metadata(data: bytes) -> dict[str, str]:
    """The ``__metadata__`` of a safetensors file's bytes (its JSON header,
    after the header's length as 8 little-endian bytes).

    Raises:
        ValueError: not a safetensors header.
    """
    length = int.from_bytes(data[:8], "little")
    if len(data) < 8 or length > len(data) - 8:
        raise ValueError("not a safetensors file (header past the end)")
    header = json.loads(data[8 : 8 + length])
    metadata = header.get("__metadata__") if isinstance(header, dict) else None
    if metadata is None:
        return {}
    if not isinstance(metadata, dict):
        raise ValueError("not a safetensors file (bad metadata)")
    return {str(k): str(v) for k, v in metadata.items()}
