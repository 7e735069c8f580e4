"""The AMRSim network: a pretrained encoder, added relation tokens, a GNN adapter.

Layer: engine (torch). Shou & Lin 2023, §3.2.2, on a BERT-family sentence
encoder (the packaged all-MiniLM-L6-v2, see :mod:`.backbone`):

* **input**: the token graph of :mod:`.graph_tokens`. A token's embedding
  is its word embedding (or, for a relation, the trained embedding of its
  added token) plus the position embedding of ``1 +`` its unit's distance
  to the root, plus its token type's; then the encoder's layer norm;
* **transformer**: the encoder's own layers, over each window of the
  graph (``[CLS]`` window ``[SEP]``); written out here rather than called
  through ``transformers`` so that every matrix product runs on blocks of
  :data:`BLOCK_ROWS` rows (below);
* **GNN adapter** after the last layer, on the graph's tokens:
  ``z = h + W · [g₁; …; g_k]`` with ``g₀ = LN(h)`` and
  ``g_t = ELU(GraphConv_t(g_{t−1}))``, a k-layer 1-GNN (Morris et al. 2019,
  the paper's "k-GNN"; k = 4 is its best) whose convolution hears a token's
  in- and out-neighbours through separate weights, so edge direction
  counts. ``W`` starts at zero: before training the model is the encoder
  with graph positions;
* **pooling**: the mean of ``z`` over the graph's tokens (``[CLS]`` and
  ``[SEP]`` left out), which is the graph's embedding; a unit's contextual
  embedding is the mean over its own tokens;
* **low-rank adapters** (LoRA, Hu et al. 2021), for fine-tuning the upper
  layers: a trained ``(alpha / rank) · up · down`` beside the frozen
  weight of each of a layer's six products (query, key, value, attention
  output, intermediate, output), ``up`` starting at zero.
  :meth:`Backbone.merge_low_rank` folds them into the weights, so a
  trained model runs exactly as fast as the encoder it came from.

Bit-for-bit reproducibility: a float32 matrix product on the CPU gives a
row different last bits depending on how many rows the product has (the
BLAS picks its kernel by shape), so a graph would embed differently
depending on what else is in its batch. Every linear map here multiplies,
in eval mode, fixed blocks of :data:`BLOCK_ROWS` rows (the last one
padded), where a row's result depends on that row alone; attention,
layer norms and activations are computed per row or per window already.
A graph therefore gets the same embedding whatever batch, batch size or
thread count it is embedded with (tested).
"""

from __future__ import annotations

from dataclasses import dataclass

import torch
import torch.nn.functional as F  # noqa: N812 (torch's own convention)
from torch import Tensor, nn

#: rows per block of every matrix product (see the module docstring)
BLOCK_ROWS = 128


def blocked_linear(x: Tensor, weight: Tensor, bias: Tensor | None) -> Tensor:
    """``F.linear(x, weight, bias)`` computed on fixed blocks of rows."""
    rows = x.reshape(-1, x.shape[-1])
    count = rows.shape[0]
    padding = -count % BLOCK_ROWS
    if padding:
        rows = F.pad(rows, (0, 0, 0, padding))
    out = torch.cat([F.linear(block, weight, bias) for block in rows.split(BLOCK_ROWS)])
    return out[:count].reshape(*x.shape[:-1], weight.shape[0])


class BlockedLinear(nn.Linear):
    """A linear layer whose products run on blocks of :data:`BLOCK_ROWS` rows
    in eval mode (scores); in training mode, one plain product (faster, and
    a training step need not be reproducible bit for bit across batches)."""

    def forward(self, x: Tensor) -> Tensor:
        if self.training:
            return F.linear(x, self.weight, self.bias)
        return blocked_linear(x, self.weight, self.bias)


@dataclass(frozen=True, slots=True)
class EncoderShape:
    """The sizes of a BERT-family encoder (from its ``config.json``)."""

    vocab_size: int
    hidden_size: int
    num_hidden_layers: int
    num_attention_heads: int
    intermediate_size: int
    max_position_embeddings: int
    type_vocab_size: int
    layer_norm_eps: float


#: the products of a layer that low-rank adapters can adapt
ADAPTED_PRODUCTS: tuple[str, ...] = (
    "query",
    "key",
    "value",
    "attention_output",
    "intermediate",
    "output",
)


class LowRank(nn.Module):
    """The trained low-rank update ``(alpha / rank) · up · down`` of a product."""

    def __init__(self, inputs: int, outputs: int, rank: int, alpha: float) -> None:
        super().__init__()
        self.scale = alpha / rank
        self.down = nn.Parameter(torch.empty(rank, inputs))
        self.up = nn.Parameter(torch.zeros(outputs, rank))
        nn.init.kaiming_uniform_(self.down, a=5**0.5)

    def forward(self, x: Tensor) -> Tensor:
        # in the input's precision (the float32 parameters get float32 grads)
        low = F.linear(F.linear(x, self.down.to(x.dtype)), self.up.to(x.dtype))
        return low * self.scale

    def delta(self) -> Tensor:
        """The update as a full matrix (outputs × inputs)."""
        return (self.up @ self.down) * self.scale


class _Layer(nn.Module):
    """One transformer layer of the encoder (post-norm, as BERT's)."""

    low_rank: nn.ModuleDict | None

    def __init__(self, shape: EncoderShape) -> None:
        super().__init__()
        hidden, eps = shape.hidden_size, shape.layer_norm_eps
        self.heads = shape.num_attention_heads
        self.query = BlockedLinear(hidden, hidden)
        self.key = BlockedLinear(hidden, hidden)
        self.value = BlockedLinear(hidden, hidden)
        self.attention_output = BlockedLinear(hidden, hidden)
        self.attention_norm = nn.LayerNorm(hidden, eps=eps)
        self.intermediate = BlockedLinear(hidden, shape.intermediate_size)
        self.output = BlockedLinear(shape.intermediate_size, hidden)
        self.output_norm = nn.LayerNorm(hidden, eps=eps)
        self.low_rank = None

    def add_low_rank(self, rank: int, alpha: float) -> None:
        """Give each adapted product a low-rank update (starting at zero)."""
        updates = {}
        for name in ADAPTED_PRODUCTS:
            product: BlockedLinear = getattr(self, name)
            updates[name] = LowRank(
                product.in_features, product.out_features, rank, alpha
            )
        self.low_rank = nn.ModuleDict(updates)

    def merge_low_rank(self) -> None:
        """Fold the low-rank updates into the weights and drop them."""
        if self.low_rank is None:
            return
        with torch.no_grad():
            for name, update in self.low_rank.items():
                product: BlockedLinear = getattr(self, name)
                assert isinstance(update, LowRank)
                merged = product.weight.float() + update.delta().float()
                product.weight.copy_(merged.to(product.weight.dtype))
        self.low_rank = None

    def _product(self, name: str, x: Tensor) -> Tensor:
        out: Tensor = getattr(self, name)(x)
        if self.low_rank is not None:
            out = out + self.low_rank[name](x)
        return out

    def forward(self, x: Tensor, mask: Tensor) -> Tensor:
        batch, length, hidden = x.shape

        def heads(name: str) -> Tensor:
            split = self._product(name, x).view(batch, length, self.heads, -1)
            return split.transpose(1, 2)

        attended = F.scaled_dot_product_attention(
            heads("query"), heads("key"), heads("value"), attn_mask=mask
        )
        attended = attended.transpose(1, 2).reshape(batch, length, hidden)
        x = self.attention_norm(x + self._product("attention_output", attended))
        inner = F.gelu(self._product("intermediate", x))
        return self.output_norm(x + self._product("output", inner))


class Backbone(nn.Module):
    """The pretrained encoder: embeddings and transformer layers (no pooler)."""

    def __init__(self, shape: EncoderShape) -> None:
        super().__init__()
        hidden = shape.hidden_size
        self.word_embeddings = nn.Embedding(shape.vocab_size, hidden)
        self.position_embeddings = nn.Embedding(shape.max_position_embeddings, hidden)
        self.token_type_embeddings = nn.Embedding(shape.type_vocab_size, hidden)
        self.embedding_norm = nn.LayerNorm(hidden, eps=shape.layer_norm_eps)
        self.layers = nn.ModuleList(
            _Layer(shape) for _ in range(shape.num_hidden_layers)
        )

    def forward(
        self,
        words: Tensor,
        positions: Tensor,
        types: Tensor,
        padding: Tensor,
        layers: int | None = None,
    ) -> Tensor:
        """Hidden states (batch, length, hidden) of windows given as word
        embeddings; ``padding`` is True at padded places. ``layers``: run
        only the first so many layers (all by default)."""
        dtype = self.embedding_norm.weight.dtype
        x = (
            words.to(dtype)
            + self.position_embeddings(positions)
            + self.token_type_embeddings(types)
        )
        x = self.embedding_norm(x)
        return self.run(x, padding, 0, len(self.layers) if layers is None else layers)

    def run(self, x: Tensor, padding: Tensor, first: int, last: int) -> Tensor:
        """Layers ``first`` to ``last - 1`` on hidden states ``x``."""
        dtype = self.embedding_norm.weight.dtype
        # an additive mask, always given, so every batch takes one path
        mask = torch.zeros(padding.shape, dtype=dtype, device=x.device).masked_fill(
            padding, torch.finfo(dtype).min
        )[:, None, None, :]
        for layer in self.layers[first:last]:
            x = layer(x.to(dtype), mask)
        return x

    def add_low_rank(self, layers: int, rank: int, alpha: float) -> None:
        """Low-rank updates on the upper ``layers`` layers."""
        for layer in self.layers[len(self.layers) - layers :]:
            assert isinstance(layer, _Layer)
            layer.add_low_rank(rank, alpha)

    def merge_low_rank(self) -> None:
        for layer in self.layers:
            assert isinstance(layer, _Layer)
            layer.merge_low_rank()


#: backbone parameter -> name in a BERT checkpoint (``transformers`` naming)
def checkpoint_names(shape: EncoderShape) -> dict[str, str]:
    names = {
        "word_embeddings.weight": "embeddings.word_embeddings.weight",
        "position_embeddings.weight": "embeddings.position_embeddings.weight",
        "token_type_embeddings.weight": "embeddings.token_type_embeddings.weight",
        "embedding_norm.weight": "embeddings.LayerNorm.weight",
        "embedding_norm.bias": "embeddings.LayerNorm.bias",
    }
    parts = {
        "query": "attention.self.query",
        "key": "attention.self.key",
        "value": "attention.self.value",
        "attention_output": "attention.output.dense",
        "attention_norm": "attention.output.LayerNorm",
        "intermediate": "intermediate.dense",
        "output": "output.dense",
        "output_norm": "output.LayerNorm",
    }
    for layer in range(shape.num_hidden_layers):
        for ours, theirs in parts.items():
            for kind in ("weight", "bias"):
                names[f"layers.{layer}.{ours}.{kind}"] = (
                    f"encoder.layer.{layer}.{theirs}.{kind}"
                )
    return names


class GraphConv(nn.Module):
    """h' = W₀h + W_in Σ_{in-neighbours} h + W_out Σ_{out-neighbours} h."""

    def __init__(self, inputs: int, outputs: int) -> None:
        super().__init__()
        self.own = BlockedLinear(inputs, outputs)
        self.from_sources = BlockedLinear(inputs, outputs, bias=False)
        self.from_targets = BlockedLinear(inputs, outputs, bias=False)

    def forward(self, x: Tensor, sources: Tensor, targets: Tensor) -> Tensor:
        out = self.own(x)
        # summed in edge order, token by token: a graph's sums do not
        # depend on the other graphs of the batch
        out = out.index_add(0, targets, self.from_sources(x)[sources])
        return out.index_add(0, sources, self.from_targets(x)[targets])


class GraphAdapter(nn.Module):
    """Layer norm → k GraphConv layers (ELU) → projection, added back."""

    def __init__(
        self, hidden: int, size: int, layers: int, eps: float, dropout: float
    ) -> None:
        super().__init__()
        self.norm = nn.LayerNorm(hidden, eps=eps)
        self.convolutions = nn.ModuleList(
            GraphConv(hidden if k == 0 else size, size) for k in range(layers)
        )
        self.dropout = nn.Dropout(dropout)
        self.projection = BlockedLinear(size * layers, hidden)
        nn.init.zeros_(self.projection.weight)
        nn.init.zeros_(self.projection.bias)

    def forward(self, h: Tensor, sources: Tensor, targets: Tensor) -> Tensor:
        x = self.norm(h)
        layers = []
        for convolution in self.convolutions:
            x = F.elu(convolution(x, sources, targets))
            layers.append(x)
        return h + self.dropout(self.projection(torch.cat(layers, dim=-1)))


@dataclass(slots=True)
class TokenBatch:
    """Several graphs' token graphs, flattened, ready for :class:`AMRSimNet`.

    ``windows`` are the transformer's inputs, one tuple per window length:
    (ids, positions, types, padding, places), where ``places`` gives, per
    window row and column, the flat token index it reads (-1 for
    ``[CLS]``, ``[SEP]`` and padding). ``sources``/``targets`` are the
    token edges in flat indices; ``graph_of`` is each token's graph.
    """

    windows: list[tuple[Tensor, Tensor, Tensor, Tensor, Tensor]]
    tokens: int
    sources: Tensor
    targets: Tensor
    graph_of: Tensor
    graphs: int

    def to(self, device: torch.device | str) -> TokenBatch:
        """The same batch with its tensors on ``device``."""
        return TokenBatch(
            windows=[
                tuple(part.to(device) for part in window)  # type: ignore[misc]
                for window in self.windows
            ],
            tokens=self.tokens,
            sources=self.sources.to(device),
            targets=self.targets.to(device),
            graph_of=self.graph_of.to(device),
            graphs=self.graphs,
        )


class AMRSimNet(nn.Module):
    """Backbone + relation embeddings + GNN adapter + mean pooling."""

    def __init__(
        self,
        shape: EncoderShape,
        relations: int,
        gnn_layers: int = 4,
        adapter_size: int = 128,
        dropout: float = 0.1,
    ) -> None:
        super().__init__()
        self.shape = shape
        self.backbone = Backbone(shape)
        self.relation_embeddings = nn.Embedding(relations, shape.hidden_size)
        self.adapter = GraphAdapter(
            shape.hidden_size, adapter_size, gnn_layers, shape.layer_norm_eps, dropout
        )

    def word_embeddings(self, ids: Tensor) -> Tensor:
        """Embeddings of encoder ids, the added relation ids included."""
        base = self.shape.vocab_size
        is_relation = ids >= base
        words = self.backbone.word_embeddings(ids.clamp(max=base - 1))
        relations = self.relation_embeddings((ids - base).clamp(min=0))
        return torch.where(is_relation[..., None], relations.to(words.dtype), words)

    def token_states(self, batch: TokenBatch) -> Tensor:
        """Every token's state after the transformer and the adapter (float32)."""
        hidden = self.shape.hidden_size
        states = torch.zeros(batch.tokens, hidden, device=batch.sources.device)
        for ids, positions, types, padding, places in batch.windows:
            out = self.backbone(self.word_embeddings(ids), positions, types, padding)
            keep = places >= 0
            states = states.index_put((places[keep],), out[keep].float())
        return self.adapter(states, batch.sources, batch.targets)

    def pooled(self, batch: TokenBatch, states: Tensor) -> Tensor:
        """Graph embeddings from transformer states (tokens × hidden, float32)."""
        return mean_by(
            self.adapter(states, batch.sources, batch.targets),
            batch.graph_of,
            batch.graphs,
        )

    def forward(self, batch: TokenBatch) -> tuple[Tensor, Tensor]:
        """(token states, graph embeddings): the mean token state per graph."""
        states = self.token_states(batch)
        return states, mean_by(states, batch.graph_of, batch.graphs)


def mean_by(rows: Tensor, group: Tensor, groups: int) -> Tensor:
    """The mean row of each group (rows summed in order, group by group)."""
    sums = torch.zeros(
        groups, rows.shape[1], dtype=rows.dtype, device=rows.device
    ).index_add(0, group, rows)
    counts = torch.bincount(group, minlength=groups).clamp(min=1)
    return sums / counts[:, None].to(rows.dtype)
