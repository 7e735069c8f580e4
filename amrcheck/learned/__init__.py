"""Learned graph similarity: AMRSim (Shou & Lin 2023), trained and run here.

Layer: engine, below the metrics (it imports neither the metrics nor
the benchmarks). :mod:`.graph_tokens` (no torch) turns a
standard graph into the token graph the model reads; :mod:`.vocabulary`
maps its labels to the encoder's token ids; :mod:`.model` is the network
(a pretrained sentence encoder, a GNN adapter after its last layer, mean
pooling); :mod:`.encoder` embeds graphs with a per-graph cache;
:mod:`amrcheck.training.amrsim`, a layer above, trains it (contrastive
tension, then optionally a supervised stage). The shipped parameters
are in ``weights/`` with their model card. The metric itself is
:mod:`amrcheck.metrics.amrsim`.

Everything here but :mod:`.graph_tokens` needs the ``learned`` extra
(torch, the packaged encoder); :func:`require_learned` says what to
install when it is missing. Importing this package imports neither.
"""

from __future__ import annotations

from ._extra import LEARNED_EXTRA_HINT, require_learned

__all__ = ["LEARNED_EXTRA_HINT", "require_learned"]
