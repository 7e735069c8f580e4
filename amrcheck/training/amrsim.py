"""Training AMRSim: contrastive tension on unlabelled graphs, optionally supervised.

Layer: training (torch; no front-end imports), above the model in
:mod:`amrcheck.learned` and the BAMBOO loader in
:mod:`amrcheck.benchmarks`. What is trained: low-rank updates (LoRA) of
the encoder's upper ``lora_layers`` layers and the GNN adapter (its
convolutions and the projection, which starts at zero, as the updates do,
so that training starts from the encoder itself). The embeddings of the
added relation tokens stay at their start (the mean embedding of their
name's subwords): with them fixed, the input of the encoder's frozen
lower layers depends on the graph alone, so their output is computed
once per graph window and kept (:class:`LowerStates`); a step runs the
upper layers, the adapter and their gradients only.

**Contrastive tension** (CT; Carlsson et al. 2021, as AMRSim §3.2.1 uses
it): two networks start identical. Each step takes ``anchors`` graphs; each
anchor, through network A, is paired with itself through network B (a
positive) and with ``negatives`` other graphs through B (negatives); the
loss is the binary cross-entropy of the dot products of the embeddings
against 1 / 0. The model kept is network B. Beyond the paper, with
``structural`` each anchor also meets, as one more negative, a copy of
itself with the targets of two relations swapped (:func:`swap_roles`):
the same words in another structure, which only the graph side of the
model can tell apart (who did what to whom).

**Supervised stage** (beyond the paper, optional): from a trained model,
the cosine of each pair's embeddings is fitted to human scores (mean
squared error), as sentence encoders are fine-tuned on STS, plus a role
term: each pair's cosine must beat, by ``role_margin``, the cosine of the
pair whose candidate has two roles swapped (hinge, weight
``role_weight``), the comparison BAMBOO's role-confusion subtasks make.

Both are seeded (the pairs drawn, the dropout, the adapter's start): the
same command gives the same weights, bit for bit. They write a checkpoint
every ``checkpoint_every`` steps from which an interrupted run resumes
where it stopped, with the same draws and schedule; its weights come out
close to, not bit-identical with, an uninterrupted run's (the restored
optimiser moments differ slightly from the uninterrupted run's: a
difference not tracked down yet). Every ``evaluate_every`` steps the
model is scored on the dev pairs, if given (reported only), and on the
held-out pairs (reported, and chosen on): Pearson correlations, or
pairwise accuracy for role comparisons.
"""

from __future__ import annotations

import pickle
import random
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field, replace
from itertools import combinations
from pathlib import Path
from typing import Any

import numpy as np
import torch
import torch.nn.functional as F  # noqa: N812 (torch's own convention)

from ..benchmarks.bamboo import load_bamboo
from ..canonical import canonicalize
from ..errors import InputError
from ..graph import Graph
from ..learned.backbone import encoder_files, encoder_shape, load_backbone
from ..learned.checkpoint import (
    Checkpoint,
    NetSettings,
    load_checkpoint,
    save_checkpoint,
    trained_parameters,
)
from ..learned.encoder import build_net, make_batch
from ..learned.graph_tokens import TokenGraph, linearize, tokenize
from ..learned.model import ADAPTED_PRODUCTS, AMRSimNet, LowRank
from ..learned.settings import SupervisedSettings, TensionSettings, resolve_precision
from ..learned.vocabulary import EncoderVocabulary, default_relations
from ..reading.corpus import read_corpus
from ..reading.files import open_input, read_input_text
from ..standardize import StandardGraph, standardize

#: called after each step with (steps done, steps in all, last loss)
StepProgress = Callable[[int, int, float], None]
#: called after each evaluation with (step, {subtask: value})
EvaluationReport = Callable[[int, dict[str, float]], None]


@dataclass(slots=True)
class DevSet:
    """Pairs to evaluate on as training goes: one list per subtask name.

    A subtask either has human ``scores`` (Pearson × 100) or, when they are
    empty, is a role-confusion list (pairwise accuracy × 100: pair 2i+1
    must outscore pair 2i).
    """

    pairs: dict[str, list[tuple[Graph | StandardGraph, Graph | StandardGraph]]]
    scores: dict[str, list[float]] = field(default_factory=dict)
    #: each graph's token graph, once made (by ``id`` of the graph, held here)
    prepared: dict[int, TokenGraph] = field(default_factory=dict)

    def tokens_of(self, graph: Graph | StandardGraph, tokens: _Tokens) -> TokenGraph:
        found = self.prepared.get(id(graph))
        if found is None:
            canonical = (
                tokens.canonical(graph)
                if isinstance(graph, Graph)
                else canonicalize(graph)
            )
            found = self.prepared[id(graph)] = tokens.of(canonical)
        return found


@dataclass(slots=True)
class TrainingResult:
    checkpoint: Checkpoint
    history: list[tuple[int, dict[str, float]]]
    steps: int
    resumed_from: int
    #: the lower states computed, for a next stage with the same lower layers
    lower: LowerStates | None = None


def swap_roles(graph: StandardGraph, rng: random.Random) -> StandardGraph | None:
    """``graph`` with the targets of two relations of different roles swapped.

    Relations of one source are preferred (a predicate's arguments
    exchanged: the role confusion a parser makes); failing that, any two.
    None when no two relations differ in both role and target.
    """
    relations = graph.relations
    by_source: dict[int, list[int]] = {}
    for number, (source, _, _) in enumerate(relations):
        by_source.setdefault(source, []).append(number)

    def swappable(i: int, j: int) -> bool:
        return relations[i][1] != relations[j][1] and relations[i][2] != relations[j][2]

    siblings = [
        (i, j)
        for numbers in by_source.values()
        for i, j in combinations(numbers, 2)
        if swappable(i, j)
    ]
    choices = siblings or [
        (i, j) for i, j in combinations(range(len(relations)), 2) if swappable(i, j)
    ]
    if not choices:
        return None
    i, j = rng.choice(choices)
    swapped = list(relations)
    (si, ri, ti), (sj, rj, tj) = relations[i], relations[j]
    swapped[i], swapped[j] = (si, ri, tj), (sj, rj, ti)
    return replace(graph, relations=swapped)


def initial_checkpoint(settings: NetSettings, seed: int) -> Checkpoint:
    """Untrained parameters: relation tokens start as the mean embedding of
    their name's subwords, the adapter's convolutions and the low-rank
    updates' ``down`` at random (seeded), the adapter's projection and the
    updates' ``up`` at zero."""
    torch.manual_seed(seed)
    files = encoder_files()
    net = AMRSimNet(
        encoder_shape(files),
        len(settings.relations),
        gnn_layers=settings.gnn_layers,
        adapter_size=settings.adapter_size,
    )
    load_backbone(net.backbone, files)
    if settings.lora_rank:
        net.backbone.add_low_rank(
            settings.lora_layers, settings.lora_rank, settings.lora_alpha
        )
    vocabulary = EncoderVocabulary(files.tokenizer, settings.relations)
    with torch.no_grad():
        for k, role in enumerate(settings.relations):
            ids = torch.tensor(vocabulary.words(role.replace("-", " ")))
            net.relation_embeddings.weight[k] = net.backbone.word_embeddings(ids).mean(
                0
            )
    return Checkpoint(settings, trained_parameters(net))


class _Tokens:
    """Graphs as token graphs (canonical, tokenized once) for training."""

    def __init__(self, vocabulary: EncoderVocabulary, max_length: int) -> None:
        self.vocabulary = vocabulary
        self.max_length = max_length

    def canonical(self, graph: Graph) -> StandardGraph:
        return canonicalize(standardize(graph))

    def of(self, canonical: StandardGraph) -> TokenGraph:
        return tokenize(linearize(canonical), self.vocabulary, self.max_length)


#: computes graph embeddings (rows of a tensor) of token graphs
Embedder = Callable[[Sequence[TokenGraph]], torch.Tensor]


def _embed(
    net: AMRSimNet,
    tokens: Sequence[TokenGraph],
    vocabulary: EncoderVocabulary,
    device: torch.device,
) -> torch.Tensor:
    batch = make_batch(tokens, vocabulary, net.shape.max_position_embeddings)
    return net(batch.to(device))[1]


class LowerStates:
    """The output of the encoder's frozen lower layers, per window, kept.

    A window's lower states depend only on its own tokens (ids, positions,
    types: the relation embeddings are frozen, the padding is masked), so
    they are computed once and looked up by those tokens; a training step
    runs only the upper layers (:meth:`embed`). Stored in the transformer's
    precision on the training device.
    """

    def __init__(
        self,
        net: AMRSimNet,
        layers: int,
        vocabulary: EncoderVocabulary,
        device: torch.device,
    ) -> None:
        self.net = net
        self.layers = layers
        self.vocabulary = vocabulary
        self.device = device
        self.rows: dict[bytes, torch.Tensor] = {}

    @staticmethod
    def _keys(
        ids: torch.Tensor,
        positions: torch.Tensor,
        types: torch.Tensor,
        lengths: list[int],
    ) -> list[bytes]:
        table = torch.stack([ids, positions, types], dim=1).numpy()
        return [table[r, :, :n].tobytes() for r, n in enumerate(lengths)]

    def _compute(
        self,
        window: tuple[torch.Tensor, ...],
        rows: list[int],
        keys: list[bytes],
        lengths: list[int],
    ) -> None:
        ids, positions, types, padding = (
            part[rows].to(self.device) for part in window[:4]
        )
        with torch.no_grad():
            out = self.net.backbone(
                self.net.word_embeddings(ids), positions, types, padding, self.layers
            )
        for k, r in enumerate(rows):
            self.rows[keys[r]] = out[k, : lengths[r]].clone()

    def fill(self, graphs: Sequence[TokenGraph], chunk: int = 256) -> None:
        """Compute the lower states of every window of ``graphs``."""
        for first in range(0, len(graphs), chunk):
            batch = make_batch(
                graphs[first : first + chunk],
                self.vocabulary,
                self.net.shape.max_position_embeddings,
            )
            for window in batch.windows:
                self._rows(window)

    def _rows(self, window: tuple[torch.Tensor, ...]) -> tuple[list[int], list[bytes]]:
        ids, positions, types, padding, _ = window
        lengths = (~padding).sum(1).tolist()
        keys = self._keys(ids, positions, types, lengths)
        missing = [r for r, key in enumerate(keys) if key not in self.rows]
        if missing:
            self._compute(window, missing, keys, lengths)
        return lengths, keys

    def embed(self, net: AMRSimNet, graphs: Sequence[TokenGraph]) -> torch.Tensor:
        """Graph embeddings by ``net``'s upper layers and adapter (with grad)."""
        batch = make_batch(graphs, self.vocabulary, net.shape.max_position_embeddings)
        hidden = net.shape.hidden_size
        states = torch.zeros(batch.tokens, hidden, device=self.device)
        total = len(net.backbone.layers)
        for window in batch.windows:
            lengths, keys = self._rows(window)
            padding, places = window[3].to(self.device), window[4].to(self.device)
            x = torch.nn.utils.rnn.pad_sequence(
                [self.rows[key] for key in keys], batch_first=True
            )
            x = F.pad(x, (0, 0, 0, padding.shape[1] - x.shape[1]))
            out = net.backbone.run(x, padding, self.layers, total)
            keep = places >= 0
            states = states.index_put((places[keep],), out[keep].float())
        return net.pooled(batch.to(self.device), states)


def evaluate(
    net: AMRSimNet,
    dev: DevSet,
    tokens: _Tokens,
    chunk: int = 256,
    embed: Embedder | None = None,
) -> dict[str, float]:
    """Dev values (× 100) of the network as it is now (eval mode inside).

    ``embed``: how token graphs are embedded (default: the whole network).
    """
    if embed is None:
        device = next(net.adapter.parameters()).device
        embed = lambda graphs: _embed(net, graphs, tokens.vocabulary, device)  # noqa: E731
    was_training = net.training
    net.eval()
    cache: dict[int, np.ndarray] = {}
    results: dict[str, float] = {}
    with torch.no_grad():
        for name, pairs in dev.pairs.items():
            graphs = [g for pair in pairs for g in pair]
            todo = list({id(g): g for g in graphs if id(g) not in cache}.values())
            for first in range(0, len(todo), chunk):
                part = todo[first : first + chunk]
                vectors = F.normalize(
                    embed([dev.tokens_of(g, tokens) for g in part]), dim=-1
                )
                for graph, row in zip(
                    part, vectors.double().cpu().numpy(), strict=True
                ):
                    cache[id(graph)] = row
            predicted = np.array([float(cache[id(a)] @ cache[id(b)]) for a, b in pairs])
            human = dev.scores.get(name)
            if human:
                results[name] = float(np.corrcoef(predicted, human)[0, 1]) * 100
            else:
                wins = predicted[1::2] > predicted[0::2]
                results[name] = float(wins.mean()) * 100
    net.train(was_training)
    return results


def _trainable(net: AMRSimNet) -> list[torch.nn.Parameter]:
    """The adapter and the low-rank updates (everything else is frozen)."""
    return [
        p
        for name, p in net.named_parameters()
        if name.startswith("adapter.") or ".low_rank." in name
    ]


def _prepare(net: AMRSimNet) -> None:
    """Freeze all but :func:`_trainable`; training mode (the adapter's dropout)."""
    net.requires_grad_(False)
    for parameter in _trainable(net):
        parameter.requires_grad_(True)
    net.train()


def _device(name: str) -> torch.device:
    """The training device: ``cpu`` or ``cuda`` (refused where there is none).

    Raises:
        ValueError: an unknown device, or cuda without a usable GPU.
    """
    if name not in ("cpu", "cuda"):
        raise ValueError(f"device must be cpu or cuda, not {name!r}")
    if name == "cuda" and not torch.cuda.is_available():
        raise ValueError(
            "--device cuda: no CUDA GPU is usable here (torch.cuda.is_available() "
            f"is False; torch {torch.__version__}, CUDA build {torch.version.cuda}); "
            "use --device cpu"
        )
    return torch.device(name)


class _Loop:
    """What both stages do around their steps: progress, evaluations, the
    choice of the best model on the held-out pairs, resumable checkpoints.

    A checkpoint holds ``parts`` (modules, optimiser, schedule: anything
    with ``state_dict``), the Python and torch RNG states, the step, the
    evaluation history, the best model so far and the settings; a run with
    other settings is refused.
    """

    def __init__(
        self,
        path: Path | None,
        settings: dict[str, Any],
        total: int,
        every: tuple[int, int],
        parts: dict[str, Any],
        rng: random.Random,
    ) -> None:
        self.path = path
        self.settings = settings
        self.total = total
        self.evaluate_every, self.checkpoint_every = every
        self.parts = parts
        self.rng = rng
        self.history: list[tuple[int, dict[str, float]]] = []
        self.step = 0
        self.extra: dict[str, Any] = {}

    def resume(self) -> int:
        """Restore the last checkpoint, if any; the step it was taken at."""
        if self.path is None or not self.path.exists():
            return 0
        try:
            # a regular file only; weights_only: tensors and plain data, so a
            # file left in the run's folder cannot run code when unpickled
            with open_input(self.path) as handle:
                state: dict[str, Any] = torch.load(
                    handle, weights_only=True, map_location="cpu"
                )
        except pickle.UnpicklingError as exc:
            raise InputError(
                f"not a training checkpoint of amrcheck ({exc})", str(self.path)
            ) from None
        if state.get("settings") != self.settings:
            raise ValueError(
                f"{self.path}: a run with other settings; remove it to start anew"
            )
        for name, part in self.parts.items():
            part.load_state_dict(state[name])
        self.rng.setstate(state["rng"])
        torch.set_rng_state(state["torch_rng"])
        self.history = state["history"]
        self.extra = state["extra"]
        self.step = int(state["step"])
        return self.step

    def after_step(
        self,
        loss: float,
        net: AMRSimNet,
        evaluations: tuple[DevSet | None, DevSet | None],
        measure: Callable[[DevSet], dict[str, float]],
        progress: StepProgress | None,
        report: EvaluationReport | None,
    ) -> None:
        self.step += 1
        step, last = self.step, self.step == self.total
        if progress is not None:
            progress(step, self.total, loss)
        dev, holdout = evaluations
        if (dev is not None or holdout is not None) and (
            step % self.evaluate_every == 0 or last
        ):
            values = measure(dev) if dev is not None else {}
            if holdout is not None:
                held = measure(holdout)
                values.update({f"holdout:{k}": v for k, v in held.items()})
                mean = float(np.mean(list(held.values())))
                best = self.extra.get("best")
                if best is None or mean > best["mean"]:
                    self.extra["best"] = {
                        "step": step,
                        "mean": mean,
                        "parameters": trained_parameters(net),
                    }
            self.history.append((step, values))
            if report is not None:
                report(step, values)
        if self.path is not None and (step % self.checkpoint_every == 0 or last):
            state = {name: part.state_dict() for name, part in self.parts.items()}
            state.update(
                settings=self.settings,
                step=step,
                rng=self.rng.getstate(),
                torch_rng=torch.get_rng_state(),
                history=self.history,
                extra=self.extra,
            )
            temporary = self.path.with_suffix(".tmp")
            self.path.parent.mkdir(parents=True, exist_ok=True)
            torch.save(state, temporary)
            temporary.replace(self.path)

    def kept(self, net: AMRSimNet) -> tuple[dict[str, torch.Tensor], dict[str, Any]]:
        """The parameters to keep (the best on the held-out pairs, if
        measured; else the last) and what to record about the choice."""
        best = self.extra.get("best")
        if best is None:
            return trained_parameters(net), {"kept_step": self.step}
        return dict(best["parameters"]), {
            "kept_step": best["step"],
            "holdout_mean": best["mean"],
        }


def _optimiser(
    parameters: list[torch.nn.Parameter], rate: float, decay: float, total: int
) -> tuple[torch.optim.Optimizer, torch.optim.lr_scheduler.LambdaLR]:
    """AdamW with a learning rate falling linearly to zero over ``total`` steps."""
    optimizer = torch.optim.AdamW(parameters, lr=rate, weight_decay=decay)
    schedule = torch.optim.lr_scheduler.LambdaLR(optimizer, lambda s: 1.0 - s / total)
    return optimizer, schedule


def _update(
    optimizer: torch.optim.Optimizer,
    schedule: torch.optim.lr_scheduler.LambdaLR,
    loss: torch.Tensor,
) -> None:
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    schedule.step()


class _Swaps:
    """Role-swapped copies of graphs (:func:`swap_roles`), seeded, made once."""

    def __init__(
        self, canonical: Sequence[StandardGraph], tokens: _Tokens, seed: int
    ) -> None:
        self.canonical = canonical
        self.tokens = tokens
        self.seed = seed
        self._made: dict[tuple[int, int], TokenGraph | None] = {}

    def __call__(self, index: int, draw: int = 0) -> TokenGraph | None:
        if (index, draw) not in self._made:
            rng = random.Random(f"{self.seed}:{index}:{draw}")
            other = swap_roles(self.canonical[index], rng)
            self._made[index, draw] = (
                None if other is None else self.tokens.of(canonicalize(other))
            )
        return self._made[index, draw]


class _TensionDraw:
    """The pairs of one contrastive tension step."""

    def __init__(
        self, canonical: list[StandardGraph], tokens: _Tokens, settings: TensionSettings
    ) -> None:
        self.prepared = [tokens.of(c) for c in canonical]
        self.settings = settings
        self.swapped = _Swaps(canonical, tokens, settings.seed)

    def __call__(
        self, rng: random.Random
    ) -> tuple[list[TokenGraph], list[TokenGraph], list[tuple[int, int]], list[float]]:
        """Anchors (network A), partners (network B), pairs and labels."""
        settings, prepared = self.settings, self.prepared
        left: list[TokenGraph] = []
        right: list[TokenGraph] = []
        pairs: list[tuple[int, int]] = []
        labels: list[float] = []
        for a, anchor in enumerate(rng.sample(range(len(prepared)), settings.anchors)):
            left.append(prepared[anchor])
            others = [anchor]
            while len(others) < 1 + settings.negatives:
                pick = rng.randrange(len(prepared))
                if pick not in others:
                    others.append(pick)
            partners = [prepared[k] for k in others] + [
                swap
                for draw in range(settings.structural)
                if (swap := self.swapped(anchor, draw)) is not None
            ]
            for k, partner in enumerate(partners):
                pairs.append((a, len(right)))
                right.append(partner)
                labels.append(1.0 if k == 0 else 0.0)
        return left, right, pairs, labels


def _lower_layers(net: AMRSimNet, lora_layers: int) -> int:
    """How many lower layers are frozen (and their outputs kept)."""
    return max(0, len(net.backbone.layers) - lora_layers)


def train_tension(
    graphs: Sequence[Graph],
    settings: TensionSettings,
    dev: DevSet | None = None,
    state_path: Path | None = None,
    progress: StepProgress | None = None,
    report: EvaluationReport | None = None,
    holdout: DevSet | None = None,
    device: str = "cpu",
) -> TrainingResult:
    """Contrastive tension on ``graphs`` (see the module docstring).

    ``state_path``: where the resumable training state is written (and read
    from, when it exists: the run resumes there). ``dev`` is reported,
    ``holdout`` reported and chosen on.

    Raises:
        ValueError: fewer graphs than an anchor and its negatives need; a
            device that is not there.
    """
    where = _device(device)
    precision = resolve_precision(settings.precision)
    torch.set_num_threads(settings.threads)
    net_settings = NetSettings(
        relations=tuple(default_relations()),
        gnn_layers=settings.gnn_layers,
        adapter_size=settings.adapter_size,
        max_length=settings.max_length,
        lora_rank=settings.lora_rank,
        lora_layers=settings.lora_layers if settings.lora_rank else 0,
        lora_alpha=settings.lora_alpha,
    )
    vocabulary = EncoderVocabulary(encoder_files().tokenizer, net_settings.relations)
    tokens = _Tokens(vocabulary, settings.max_length)
    canonical = _unique_canonical(graphs, tokens)
    if len(canonical) <= settings.negatives:
        raise ValueError(
            f"{len(canonical)} distinct graphs: too few for {settings.negatives} "
            "negatives per anchor"
        )
    draw = _TensionDraw(canonical, tokens, settings)
    start = initial_checkpoint(net_settings, settings.seed)
    first = build_net(start, precision, settings.dropout, merge=False).to(where)
    second = build_net(start, precision, settings.dropout, merge=False).to(where)
    for net in (first, second):
        _prepare(net)
    lower = LowerStates(
        first, _lower_layers(first, net_settings.lora_layers), vocabulary, where
    )
    lower.fill(draw.prepared)
    optimizer, schedule = _optimiser(
        _trainable(first) + _trainable(second),
        settings.learning_rate,
        settings.weight_decay,
        settings.steps,
    )
    rng = random.Random(settings.seed)
    torch.manual_seed(settings.seed)
    loop = _Loop(
        state_path,
        asdict(settings),
        settings.steps,
        (settings.evaluate_every, settings.checkpoint_every),
        {
            "first": first,
            "second": second,
            "optimizer": optimizer,
            "schedule": schedule,
        },
        rng,
    )
    resumed = loop.resume()

    def measure(pairs: DevSet) -> dict[str, float]:
        return evaluate(second, pairs, tokens, embed=lambda g: lower.embed(second, g))

    while loop.step < settings.steps:
        left, right, pairs, labels = draw(rng)
        left_vectors = lower.embed(first, left)
        right_vectors = lower.embed(second, right)
        index_left = torch.tensor([a for a, _ in pairs], device=where)
        index_right = torch.tensor([b for _, b in pairs], device=where)
        dots = (left_vectors[index_left] * right_vectors[index_right]).sum(-1)
        loss = F.binary_cross_entropy_with_logits(
            dots, torch.tensor(labels, device=where)
        )
        _update(optimizer, schedule, loss)
        loop.after_step(loss.item(), second, (dev, holdout), measure, progress, report)
    parameters, kept = loop.kept(second)
    training = {
        "stage": "contrastive tension",
        "graphs": len(canonical),
        "settings": asdict(settings),
        "precision": precision,
        "device": device,
        "dev_history": loop.history,
        **kept,
    }
    return TrainingResult(
        Checkpoint(net_settings, parameters, training),
        loop.history,
        loop.step,
        resumed,
        lower,
    )


def _unique_canonical(graphs: Sequence[Graph], tokens: _Tokens) -> list[StandardGraph]:
    """The distinct graphs (by canonical form), in the order first met."""
    seen: dict[tuple[Any, ...], StandardGraph] = {}
    for graph in graphs:
        canonical = tokens.canonical(graph)
        key = (
            tuple(canonical.instances),
            tuple(canonical.attributes),
            tuple(canonical.relations),
        )
        seen.setdefault(key, canonical)
    return list(seen.values())


def _with_low_rank(start: Checkpoint, settings: SupervisedSettings) -> Checkpoint:
    """``start`` with fresh low-rank updates (seeded; zero to begin with)."""
    torch.manual_seed(settings.seed)
    shape = encoder_shape(encoder_files())
    hidden, inner = shape.hidden_size, shape.intermediate_size
    sizes = {
        "query": (hidden, hidden),
        "key": (hidden, hidden),
        "value": (hidden, hidden),
        "attention_output": (hidden, hidden),
        "intermediate": (hidden, inner),
        "output": (inner, hidden),
    }
    parameters = dict(start.parameters)
    layers = shape.num_hidden_layers
    for layer in range(max(0, layers - settings.lora_layers), layers):
        for name in ADAPTED_PRODUCTS:
            update = LowRank(*sizes[name], settings.lora_rank, settings.lora_alpha)
            prefix = f"backbone.layers.{layer}.low_rank.{name}"
            parameters[f"{prefix}.down"] = update.down.detach().clone()
            parameters[f"{prefix}.up"] = update.up.detach().clone()
    net_settings = replace(
        start.settings,
        lora_rank=settings.lora_rank,
        lora_layers=settings.lora_layers,
        lora_alpha=settings.lora_alpha,
    )
    return Checkpoint(net_settings, parameters, start.training)


def train_supervised(
    start: Checkpoint,
    pairs: Sequence[tuple[Graph, Graph]],
    targets: Sequence[float],
    settings: SupervisedSettings,
    dev: DevSet | None = None,
    state_path: Path | None = None,
    progress: StepProgress | None = None,
    report: EvaluationReport | None = None,
    holdout: DevSet | None = None,
    device: str = "cpu",
    lower: LowerStates | None = None,
) -> TrainingResult:
    """Fit the cosine of each (candidate, reference) pair to its human score
    (mean squared error), plus the role term (see the module docstring).

    A start without low-rank updates gets them (``settings.lora_*``).
    ``lower``: the lower states of an earlier stage (same lower layers,
    same device), reused.

    Raises:
        ValueError: pairs and targets differ in number, or fewer than two;
            a device that is not there.
    """
    if len(pairs) != len(targets) or len(pairs) < 2:
        raise ValueError("need as many scores as pairs, and at least two pairs")
    where = _device(device)
    precision = resolve_precision(settings.precision)
    torch.set_num_threads(settings.threads)
    if not start.settings.lora_rank and settings.lora_rank:
        start = _with_low_rank(start, settings)
    vocabulary = EncoderVocabulary(encoder_files().tokenizer, start.settings.relations)
    tokens = _Tokens(vocabulary, start.settings.max_length)
    candidates = [tokens.canonical(a) for a, _ in pairs]
    prepared = [
        (tokens.of(c), tokens.of(tokens.canonical(b)))
        for c, (_, b) in zip(candidates, pairs, strict=True)
    ]
    swapped = _Swaps(candidates, tokens, settings.seed)
    net = build_net(start, precision, settings.dropout, merge=False).to(where)
    _prepare(net)
    frozen = _lower_layers(net, start.settings.lora_layers)
    if lower is None or lower.layers != frozen or lower.device != where:
        lower = LowerStates(net, frozen, vocabulary, where)
    lower.fill([g for pair in prepared for g in pair])
    per_epoch = -(-len(prepared) // settings.batch_size)
    total = per_epoch * settings.epochs
    optimizer, schedule = _optimiser(
        _trainable(net), settings.learning_rate, settings.weight_decay, total
    )
    rng = random.Random(settings.seed)
    torch.manual_seed(settings.seed)
    loop = _Loop(
        state_path,
        asdict(settings),
        total,
        (settings.evaluate_every, settings.checkpoint_every),
        {"net": net, "optimizer": optimizer, "schedule": schedule},
        rng,
    )
    resumed = loop.resume()

    def measure(pairs: DevSet) -> dict[str, float]:
        return evaluate(net, pairs, tokens, embed=lambda g: lower.embed(net, g))

    gold = torch.tensor(list(targets), dtype=torch.float32, device=where)
    while loop.step < total:
        within = loop.step % per_epoch
        if within == 0:  # a new pass (a resumed run restored its order)
            order = list(range(len(prepared)))
            rng.shuffle(order)
            loop.extra["order"] = order
        size = settings.batch_size
        chosen = loop.extra["order"][within * size : (within + 1) * size]
        with_swap = [k for k in chosen if swapped(k) is not None]
        graphs = [prepared[k][0] for k in chosen] + [prepared[k][1] for k in chosen]
        graphs += [g for k in with_swap if (g := swapped(k)) is not None]
        vectors = F.normalize(lower.embed(net, graphs), dim=-1)
        count = len(chosen)
        left, right = vectors[:count], vectors[count : 2 * count]
        cosine = (left * right).sum(-1)
        loss = F.mse_loss(cosine, gold[chosen])
        if with_swap and settings.role_weight:
            place = {k: n for n, k in enumerate(chosen)}
            rows = torch.tensor([place[k] for k in with_swap], device=where)
            confused = (vectors[2 * count :] * right[rows]).sum(-1)
            hinge = F.relu(settings.role_margin - (cosine[rows] - confused)).mean()
            loss = loss + settings.role_weight * hinge
        _update(optimizer, schedule, loss)
        loop.after_step(loss.item(), net, (dev, holdout), measure, progress, report)
    parameters, kept = loop.kept(net)
    training = {
        **start.training,
        "supervised": {
            "pairs": len(prepared),
            "settings": asdict(settings),
            "precision": precision,
            "device": device,
            "dev_history": loop.history,
            **kept,
        },
    }
    return TrainingResult(
        Checkpoint(start.settings, parameters, training),
        loop.history,
        loop.step,
        resumed,
        lower,
    )


#: the BAMBOO dev subtasks reported as training goes (the other six are
#: rewrites of the main pairs; ``amrcheck bench bamboo`` scores all twelve)
DEV_SUBTASKS: tuple[str, ...] = (
    "sts.main",
    "sick.main",
    "para.main",
    "sts.role_confusion",
    "sick.role_confusion",
    "para.role_confusion",
)


def bamboo_dev_set(root: str | Path, subtasks: Sequence[str] = DEV_SUBTASKS) -> DevSet:
    """The scored pairs of BAMBOO dev ``subtasks`` (dummies left out).

    Raises:
        InputError: a file is missing, or a graph does not parse.
    """
    dev = DevSet({})
    for task in load_bamboo(root):
        if task.id not in subtasks:
            continue
        candidates = read_corpus(task.candidate_path)
        references = read_corpus(task.reference_path)
        chosen = task.scored if task.human else range(len(candidates))
        pairs: list[tuple[Graph | StandardGraph, Graph | StandardGraph]] = []
        for i in chosen:
            cand, ref = candidates[i].graph, references[i].graph
            if cand is None or ref is None:
                raise InputError(f"pair {i} does not parse", str(task.candidate_path))
            pairs.append((cand, ref))
        dev.pairs[task.id] = pairs
        if task.human:
            dev.scores[task.id] = task.human
    return dev


#: BAMBOO tasks whose pair 0 is the header row of the original TSV
_HEADER_DUMMY = ("sick", "para")


def bamboo_train_tasks(
    folders: Sequence[str | Path],
) -> dict[str, tuple[list[tuple[Graph, Graph]], list[float]]]:
    """Per BAMBOO train folder (by its name: sts, sick, para), its
    (tgt, src) pairs and human scores (``<task>/{src,tgt}.train.amr``,
    ``train.y``, already in [0, 1]).

    Dummy pairs (sick and para pair 0, the last pair of every file) and
    pairs with a graph that does not parse are left out.

    Raises:
        InputError: a file is missing or the scores do not line up.
    """
    tasks: dict[str, tuple[list[tuple[Graph, Graph]], list[float]]] = {}
    for folder in map(Path, folders):
        sources = read_corpus(folder / "src.train.amr")
        candidates = read_corpus(folder / "tgt.train.amr")
        scores_path = folder / "train.y"
        try:
            scores = [float(x) for x in read_input_text(scores_path).split()]
        except InputError:
            raise
        except ValueError as exc:
            raise InputError(
                f"cannot read the scores: {exc}", str(scores_path)
            ) from None
        if not len(sources) == len(candidates) == len(scores):
            raise InputError(
                f"{len(sources)} / {len(candidates)} graphs for {len(scores)} scores",
                str(folder),
            )
        pairs, targets = tasks.setdefault(folder.name, ([], []))
        first = 1 if folder.name in _HEADER_DUMMY else 0
        for i in range(first, len(scores) - 1):
            cand, ref = candidates[i].graph, sources[i].graph
            if cand is not None and ref is not None:
                pairs.append((cand, ref))
                targets.append(scores[i])
    return tasks


def bamboo_train_pairs(
    folders: Sequence[str | Path],
) -> tuple[list[tuple[Graph, Graph]], list[float]]:
    """The pairs and scores of :func:`bamboo_train_tasks`, all tasks together."""
    pairs: list[tuple[Graph, Graph]] = []
    targets: list[float] = []
    for task_pairs, task_targets in bamboo_train_tasks(folders).values():
        pairs += task_pairs
        targets += task_targets
    return pairs, targets


def split_holdout(
    tasks: dict[str, tuple[list[tuple[Graph, Graph]], list[float]]],
    fraction: float,
    seed: int,
) -> tuple[list[tuple[Graph, Graph]], list[float], DevSet]:
    """Hold out ``fraction`` of each task's pairs (seeded) to choose models on.

    Returns the pairs and scores left to train on, and the held-out set:
    per task, the pairs with their scores (``<task>``: Pearson) and
    role comparisons (``<task>.roles``: each held-out pair against the pair
    whose candidate has two roles swapped, :func:`swap_roles`; accuracy).

    Raises:
        ValueError: ``fraction`` outside (0, 1), or a task too small to split.
    """
    if not 0.0 < fraction < 1.0:
        raise ValueError("the held-out fraction must be between 0 and 1")
    train_pairs: list[tuple[Graph, Graph]] = []
    train_targets: list[float] = []
    holdout = DevSet({})
    for name, (pairs, targets) in tasks.items():
        order = list(range(len(pairs)))
        random.Random(f"holdout:{seed}:{name}").shuffle(order)
        count = round(len(pairs) * fraction)
        if count < 2 or count >= len(pairs):
            raise ValueError(f"{name}: {len(pairs)} pairs, too few to hold out a part")
        held = sorted(order[:count])
        kept = set(order[count:])
        train_pairs += [p for k, p in enumerate(pairs) if k in kept]
        train_targets += [t for k, t in enumerate(targets) if k in kept]
        holdout.pairs[name] = [pairs[k] for k in held]
        holdout.scores[name] = [targets[k] for k in held]
        roles: list[tuple[Graph | StandardGraph, Graph | StandardGraph]] = []
        for k in held:
            candidate, reference = pairs[k]
            rng = random.Random(f"holdout:{seed}:{name}:{k}")
            swapped = swap_roles(canonicalize(standardize(candidate)), rng)
            if swapped is not None:
                roles += [(swapped, reference), (candidate, reference)]
        holdout.pairs[f"{name}.roles"] = roles
    return train_pairs, train_targets, holdout


__all__ = [
    "DevSet",
    "SupervisedSettings",
    "TensionSettings",
    "TrainingResult",
    "bamboo_dev_set",
    "bamboo_train_pairs",
    "bamboo_train_tasks",
    "split_holdout",
    "evaluate",
    "load_checkpoint",
    "save_checkpoint",
    "swap_roles",
    "train_supervised",
    "train_tension",
]
