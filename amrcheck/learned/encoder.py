"""Embedding graphs with AMRSim: batching, precision, threads and the per-graph cache.

Layer: engine (torch). :class:`GraphEncoder` turns graphs into unit-length
float64 vectors (the graph embeddings whose dot product is AMRSim's
cosine) and, for explanations, the contextual vector of every concept and
constant.

* **cache**: graphs are keyed by their canonical form
  (:mod:`amrcheck.canonical`), found from the graph's text (remembered
  too), so a graph met again — in any writing — is never embedded twice;
  the language server re-embeds only the graph being edited. Both caches
  are bounded (least recently used entries go first).
* **batches**: the graphs not yet known are embedded
  :data:`GRAPHS_PER_BATCH` at a time; their windows are grouped by length
  (rounded up to a multiple of 8) so that little is padding. The
  network's blocked products (:mod:`.model`) make a graph's embedding the
  same bit for bit whatever else is in its batch, so scores never depend
  on the order, the batch or ``--jobs``.
* **precision**: ``float32``, or ``bfloat16`` for the transformer on CPUs
  with native bfloat16 units (AVX512-BF16, AMX), about three times
  faster; ``auto`` (default) picks bfloat16 where the CPU has them. The
  adapter, the pooling and the cosine are float32 / float64 in both.
  Scores are reproducible for one precision; the two differ in about the
  third decimal.
* **threads**: torch's intra-op threads, set when the model is loaded.
  The BLAS splits a product between threads in a way that changes last
  bits, so the number is a fixed setting, not the CPU count: with it
  fixed, a graph's embedding is the same in every process, batch and
  order (tested). The default, :data:`THREADS`, is 1 because a worker
  forked by ``--jobs`` cannot use torch's thread pool once its parent has
  (it hangs); more cores are used through processes (``--jobs N``), which
  never change a score. A forked worker with more threads is refused with
  a :class:`~amrcheck.errors.MetricError` instead of hanging.
* **long graphs**: a graph with more tokens than the model reads at once
  (``max_length``, 128) is read in windows (:mod:`.graph_tokens`) and a
  :class:`GraphTooLongWarning` names it (file, line, column), once.
"""

from __future__ import annotations

import os
import threading
import warnings
from collections import OrderedDict
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Generic, TypeVar

import numpy as np
import torch

from ..canonical import canonicalize
from ..errors import MetricError
from ..graph import Graph
from ..standardize import StandardGraph, standardize
from .backbone import encoder_files, encoder_shape, load_backbone
from .checkpoint import SHIPPED_WEIGHTS, Checkpoint, is_trained, load_checkpoint
from .graph_tokens import TokenGraph, Unit, UnitKind, linearize, tokenize
from .model import AMRSimNet, LowRank, TokenBatch, mean_by
from .settings import resolve_precision
from .vocabulary import EncoderVocabulary

#: graphs embedded per forward pass (bounds the memory of one pass)
GRAPHS_PER_BATCH = 256
#: window rows per transformer call, times the window length (tokens)
TOKENS_PER_CALL = 8192
#: torch's intra-op threads unless told otherwise (see the module docstring)
THREADS = 1
#: graph vectors kept (3 KB each) and graphs whose node vectors are kept
VECTOR_CACHE = 200_000
NODE_CACHE = 512

#: a graph's canonical form (see :func:`amrcheck.canonical.canonical_key`)
GraphKey = Hashable


class GraphTooLongWarning(UserWarning):
    """A graph has more tokens than the model reads at once (read in windows)."""


def build_net(
    checkpoint: Checkpoint, precision: str, dropout: float = 0.0, merge: bool = True
) -> AMRSimNet:
    """The network with the pretrained encoder and ``checkpoint``'s parameters.

    ``precision`` (float32 or bfloat16) is the transformer's; the trained
    parts stay float32. Low-rank updates are folded into the encoder's
    weights (in float32, before any cast) unless ``merge`` is False
    (training goes on with them).
    """
    files = encoder_files()
    settings = checkpoint.settings
    net = AMRSimNet(
        encoder_shape(files),
        len(settings.relations),
        gnn_layers=settings.gnn_layers,
        adapter_size=settings.adapter_size,
        dropout=dropout,
    )
    load_backbone(net.backbone, files)
    if settings.lora_rank:
        net.backbone.add_low_rank(
            settings.lora_layers, settings.lora_rank, settings.lora_alpha
        )
    result = net.load_state_dict(checkpoint.parameters, strict=False)
    stray = [n for n in result.missing_keys if is_trained(n)]
    if stray or result.unexpected_keys:
        raise MetricError(
            "AMRSim weights do not fit the network: "
            f"missing {stray[:3]}, unexpected {result.unexpected_keys[:3]}"
        )
    if merge:
        net.backbone.merge_low_rank()
    if precision == "bfloat16":
        net.backbone.to(torch.bfloat16)
        for module in net.backbone.modules():  # the updates stay float32
            if isinstance(module, LowRank):
                module.float()
    return net


K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class _LRU(Generic[K, V]):
    """A bounded mapping that forgets the least recently used entries."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.items: OrderedDict[K, V] = OrderedDict()

    def get(self, key: K) -> V | None:
        value = self.items.get(key)
        if value is not None:
            self.items.move_to_end(key)
        return value

    def put(self, key: K, value: V) -> None:
        self.items[key] = value
        self.items.move_to_end(key)
        while len(self.items) > self.size:
            self.items.popitem(last=False)

    def __len__(self) -> int:
        return len(self.items)


@dataclass(frozen=True, slots=True)
class NodeVectors:
    """The contextual vectors of a graph's concepts and constants.

    ``units`` are the graph's concept and constant units (their ``origin``
    is a written triple of ``graph``), ``rows`` their unit-length float64
    vectors, in the same order.
    """

    graph: Graph
    units: list[Unit]
    rows: np.ndarray


def graph_key(canonical: StandardGraph) -> GraphKey:
    """The cache key of a canonical graph: its triples (equal ⇔ same graph)."""
    return (
        tuple(canonical.instances),
        tuple(canonical.attributes),
        tuple(canonical.relations),
    )


def make_batch(
    graphs: Sequence[TokenGraph], vocabulary: EncoderVocabulary, max_positions: int
) -> TokenBatch:
    """The flat batch of ``graphs`` (see :class:`~.model.TokenBatch`)."""
    offsets = np.cumsum([0, *(g.size for g in graphs)])
    # per window: ids, positions, types, places (as lists, framed)
    rows: dict[int, list[tuple[list[int], list[int], list[int], list[int]]]] = {}
    for number, graph in enumerate(graphs):
        base = int(offsets[number])
        last = max_positions - 1
        sep = min(graph.sep_position, last)
        for start, end in graph.windows:
            ids = [vocabulary.cls, *graph.ids[start:end], vocabulary.sep]
            positions = [0, *(min(p, last) for p in graph.positions[start:end]), sep]
            types = [0, *graph.types[start:end], 0]
            places = [-1, *range(base + start, base + end), -1]
            length = -(-len(ids) // 8) * 8
            rows.setdefault(length, []).append((ids, positions, types, places))
    windows = []
    for length in sorted(rows):
        group = rows[length]
        per_call = max(1, TOKENS_PER_CALL // length)
        for first in range(0, len(group), per_call):
            part = group[first : first + per_call]
            fillers = (vocabulary.pad, 0, 0, -1)  # ids, positions, types, places
            columns = [
                torch.tensor([w[k] + [fill] * (length - len(w[k])) for w in part])
                for k, fill in enumerate(fillers)
            ]
            padding = columns[3] < 0
            padding[:, 0] = False  # [CLS] is read, though it is no token
            ends = torch.tensor([len(w[0]) - 1 for w in part])
            padding[torch.arange(len(part)), ends] = False  # [SEP] likewise
            windows.append((columns[0], columns[1], columns[2], padding, columns[3]))
    sources = [
        base + a for g, base in zip(graphs, offsets, strict=False) for a, _ in g.edges
    ]
    targets = [
        base + b for g, base in zip(graphs, offsets, strict=False) for _, b in g.edges
    ]
    graph_of = np.repeat(np.arange(len(graphs)), [g.size for g in graphs])
    return TokenBatch(
        windows=windows,
        tokens=int(offsets[-1]),
        sources=torch.tensor(sources, dtype=torch.long),
        targets=torch.tensor(targets, dtype=torch.long),
        graph_of=torch.from_numpy(graph_of.astype(np.int64)),
        graphs=len(graphs),
    )


def _unit_rows(vectors: torch.Tensor) -> np.ndarray:
    """Float64 rows scaled to unit length (a zero row stays zero)."""
    rows = vectors.double().numpy()
    norms = np.sqrt(np.einsum("ij,ij->i", rows, rows))
    norms[norms == 0.0] = 1.0
    return rows / norms[:, None]


class GraphEncoder:
    """AMRSim's graph embeddings, cached per graph (see the module docstring)."""

    def __init__(
        self,
        checkpoint: Checkpoint,
        precision: str = "auto",
        threads: int = THREADS,
    ) -> None:
        self.checkpoint = checkpoint
        self.settings = checkpoint.settings
        self.precision = resolve_precision(precision)
        self.threads = threads
        torch.set_num_threads(threads)
        self._process = os.getpid()
        self.vocabulary = EncoderVocabulary(
            encoder_files().tokenizer, self.settings.relations
        )
        self.net = build_net(checkpoint, self.precision).eval()
        self._max_positions = self.net.shape.max_position_embeddings
        self._keys: _LRU[str, GraphKey] = _LRU(VECTOR_CACHE)
        self._vectors: _LRU[GraphKey, np.ndarray] = _LRU(VECTOR_CACHE)
        self._nodes: _LRU[GraphKey, np.ndarray] = _LRU(NODE_CACHE)
        self._warned: set[GraphKey] = set()
        # the language server embeds from worker threads
        self._lock = threading.RLock()

    def key(self, graph: Graph, canonical: StandardGraph | None = None) -> GraphKey:
        """The graph's cache key (its canonical form), found from its text;
        ``canonical``: the graph's canonical form where the caller has it."""
        text = graph.text
        with self._lock:
            key = self._keys.get(text)
            if key is None:
                if canonical is None:
                    canonical = canonicalize(standardize(graph))
                key = graph_key(canonical)
                self._keys.put(text, key)
            return key

    def vectors(self, graphs: Sequence[Graph]) -> list[np.ndarray]:
        """Each graph's embedding: a unit-length float64 vector."""
        keys = [self.key(graph) for graph in graphs]
        with self._lock:
            todo: dict[GraphKey, Graph] = {}
            for key, graph in zip(keys, graphs, strict=True):
                if key not in todo and self._vectors.get(key) is None:
                    todo[key] = graph
            pending = list(todo.items())
            for first in range(0, len(pending), GRAPHS_PER_BATCH):
                part = pending[first : first + GRAPHS_PER_BATCH]
                tokens = [self._tokens(graph, key) for key, graph in part]
                _, vectors = self._run(tokens)
                for (key, _), row in zip(part, _unit_rows(vectors), strict=True):
                    self._vectors.put(key, row)
            found = [self._vectors.get(key) for key in keys]
        assert all(v is not None for v in found)
        return found  # type: ignore[return-value]

    def nodes(self, graph: Graph) -> NodeVectors:
        """The contextual vector of each concept and constant of ``graph``."""
        canonical = canonicalize(standardize(graph))
        key = self.key(graph, canonical)
        with self._lock:
            tokens = self._tokens(graph, key, canonical)
            units = tokens.unit_graph.units
            chosen = [k for k, u in enumerate(units) if u.kind is not UnitKind.RELATION]
            rows = self._nodes.get(key)
            if rows is None:
                states, vectors = self._run([tokens])
                owner = torch.tensor(tokens.units, dtype=torch.long)
                per_unit = mean_by(states, owner, len(units))
                rows = _unit_rows(per_unit[chosen])
                self._nodes.put(key, rows)
                # the same forward pass gives the graph's embedding: an explained
                # score then runs the network once per graph, not twice (the
                # products are batch-independent, so the vector is the same)
                if self._vectors.get(key) is None:
                    self._vectors.put(key, _unit_rows(vectors)[0])
        return NodeVectors(graph, [units[k] for k in chosen], rows)

    def _tokens(
        self, graph: Graph, key: GraphKey, canonical: StandardGraph | None = None
    ) -> TokenGraph:
        if canonical is None:
            canonical = canonicalize(standardize(graph))
        tokens = tokenize(
            linearize(canonical), self.vocabulary, self.settings.max_length
        )
        if len(tokens.windows) > 1 and key not in self._warned:
            self._warned.add(key)
            warnings.warn(
                GraphTooLongWarning(
                    f"{graph.span}: graph of {tokens.size} tokens, more than amrsim "
                    f"reads at once ({self.settings.max_length - 2}); embedded in "
                    f"{len(tokens.windows)} windows"
                ),
                stacklevel=4,
            )
        return tokens

    def _run(self, tokens: Sequence[TokenGraph]) -> tuple[torch.Tensor, torch.Tensor]:
        if self.threads > 1 and os.getpid() != self._process:
            raise MetricError(
                f"amrsim with threads={self.threads} cannot run in a forked worker "
                "(torch's thread pool does not survive a fork): use threads=1 "
                "with --jobs"
            )
        if torch.get_num_threads() != self.threads:  # changed by someone else
            torch.set_num_threads(self.threads)
        batch = make_batch(tokens, self.vocabulary, self._max_positions)
        with torch.inference_mode():
            states, vectors = self.net(batch)
        return states, vectors


@lru_cache(maxsize=4)
def shared_encoder(weights: str | None, precision: str, threads: int) -> GraphEncoder:
    """One encoder per (weights file, precision, threads) in a process.

    Metric objects built with the same settings share its model and cache.
    """
    path = Path(weights) if weights is not None else SHIPPED_WEIGHTS
    if not path.is_file():
        raise MetricError(f"{path}: no such AMRSim weights file")
    return GraphEncoder(load_checkpoint(path), precision, threads)
