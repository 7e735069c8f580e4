"""Training AMRSim: contrastive tension on unlabelled graphs, optionally supervised.

Layer: training (torch; no front-end imports), above the model in
:mod:`amrcheck.learned` and the BAMBOO loader in
:mod:`amrcheck.benchmarks`. The pretrained encoder stays frozen; what is
trained is what AMRSim adds to it — the embeddings of the added relation
tokens and the GNN adapter (its convolutions and the
projection, which starts at zero so that training starts from the
encoder itself).

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
squared error), as sentence encoders are fine-tuned on STS.

Both are seeded (the pairs drawn, the dropout, the adapter's start): the
same command gives the same weights, bit for bit. They write a checkpoint
every ``checkpoint_every`` steps from which an interrupted run resumes
where it stopped, with the same draws and schedule; its weights come out
close to, not bit-identical with, an uninterrupted run's (the restored
optimiser moments differ slightly from the uninterrupted run's: a
difference not tracked down yet). Every ``evaluate_every`` steps the model is scored on
dev pairs and the Pearson correlations (role confusion: pairwise
accuracy) are reported.
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
from ..learned.model import AMRSimNet
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

    pairs: dict[str, list[tuple[Graph, Graph]]]
    scores: dict[str, list[float]] = field(default_factory=dict)


@dataclass(slots=True)
class TrainingResult:
    checkpoint: Checkpoint
    history: list[tuple[int, dict[str, float]]]
    steps: int
    resumed_from: int


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
    their name's subwords, the adapter's convolutions at random (seeded),
    its projection at zero."""
    torch.manual_seed(seed)
    files = encoder_files()
    net = AMRSimNet(
        encoder_shape(files),
        len(settings.relations),
        gnn_layers=settings.gnn_layers,
        adapter_size=settings.adapter_size,
    )
    load_backbone(net.backbone, files)
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


def _embed(
    net: AMRSimNet, tokens: Sequence[TokenGraph], vocabulary: EncoderVocabulary
) -> torch.Tensor:
    batch = make_batch(tokens, vocabulary, net.shape.max_position_embeddings)
    return net(batch)[1]


def evaluate(
    net: AMRSimNet,
    dev: DevSet,
    tokens: _Tokens,
    chunk: int = 256,
) -> dict[str, float]:
    """Dev values (× 100) of the network as it is now (eval mode inside)."""
    was_training = net.training
    net.eval()
    cache: dict[str, np.ndarray] = {}
    results: dict[str, float] = {}
    with torch.inference_mode():
        for name, pairs in dev.pairs.items():
            graphs = [g for pair in pairs for g in pair]
            todo = list(dict.fromkeys(g.text for g in graphs if g.text not in cache))
            by_text = {g.text: g for g in graphs}
            for first in range(0, len(todo), chunk):
                part = todo[first : first + chunk]
                prepared = [tokens.of(tokens.canonical(by_text[t])) for t in part]
                vectors = F.normalize(_embed(net, prepared, tokens.vocabulary), dim=-1)
                for text, row in zip(part, vectors.double().numpy(), strict=True):
                    cache[text] = row
            predicted = np.array(
                [float(cache[a.text] @ cache[b.text]) for a, b in pairs]
            )
            human = dev.scores.get(name)
            if human:
                results[name] = float(np.corrcoef(predicted, human)[0, 1]) * 100
            else:
                wins = predicted[1::2] > predicted[0::2]
                results[name] = float(wins.mean()) * 100
    net.train(was_training)
    return results


def _trainable(net: AMRSimNet) -> list[torch.nn.Parameter]:
    return [p for name, p in net.named_parameters() if not name.startswith("backbone.")]


def _freeze_backbone(net: AMRSimNet) -> None:
    net.backbone.requires_grad_(False)
    net.backbone.eval()


class _Loop:
    """What both stages do around their steps: progress, dev evaluations and
    resumable checkpoints.

    A checkpoint holds ``parts`` (modules, optimiser, schedule: anything
    with ``state_dict``), the Python and torch RNG states, the step, the
    dev history and the settings; a run with other settings is refused.
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
                state: dict[str, Any] = torch.load(handle, weights_only=True)
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
        dev: DevSet | None,
        tokens: _Tokens,
        progress: StepProgress | None,
        report: EvaluationReport | None,
    ) -> None:
        self.step += 1
        step, last = self.step, self.step == self.total
        if progress is not None:
            progress(step, self.total, loss)
        if dev is not None and (step % self.evaluate_every == 0 or last):
            values = evaluate(net, dev, tokens)
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


class _TensionDraw:
    """The pairs of one contrastive tension step."""

    def __init__(
        self, canonical: list[StandardGraph], tokens: _Tokens, settings: TensionSettings
    ) -> None:
        self.canonical = canonical
        self.prepared = [tokens.of(c) for c in canonical]
        self.tokens = tokens
        self.settings = settings
        self._swapped: dict[tuple[int, int], TokenGraph | None] = {}

    def swapped(self, index: int, draw: int) -> TokenGraph | None:
        if (index, draw) not in self._swapped:
            rng = random.Random(f"{self.settings.seed}:{index}:{draw}")
            other = swap_roles(self.canonical[index], rng)
            self._swapped[index, draw] = (
                None if other is None else self.tokens.of(canonicalize(other))
            )
        return self._swapped[index, draw]

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


def train_tension(
    graphs: Sequence[Graph],
    settings: TensionSettings,
    dev: DevSet | None = None,
    state_path: Path | None = None,
    progress: StepProgress | None = None,
    report: EvaluationReport | None = None,
) -> TrainingResult:
    """Contrastive tension on ``graphs`` (see the module docstring).

    ``state_path``: where the resumable training state is written (and read
    from, when it exists: the run resumes there).

    Raises:
        ValueError: fewer graphs than an anchor and its negatives need.
    """
    precision = resolve_precision(settings.precision)
    torch.set_num_threads(settings.threads)
    net_settings = NetSettings(
        relations=tuple(default_relations()),
        gnn_layers=settings.gnn_layers,
        adapter_size=settings.adapter_size,
        max_length=settings.max_length,
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
    first = build_net(start, precision, settings.dropout)
    second = build_net(start, precision, settings.dropout)
    second.backbone = first.backbone  # frozen and identical: share it
    for net in (first, second):
        net.train()
        _freeze_backbone(net)
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
    while loop.step < settings.steps:
        left, right, pairs, labels = draw(rng)
        left_vectors = _embed(first, left, vocabulary)
        right_vectors = _embed(second, right, vocabulary)
        index_left = torch.tensor([a for a, _ in pairs])
        index_right = torch.tensor([b for _, b in pairs])
        dots = (left_vectors[index_left] * right_vectors[index_right]).sum(-1)
        loss = F.binary_cross_entropy_with_logits(dots, torch.tensor(labels))
        _update(optimizer, schedule, loss)
        loop.after_step(loss.item(), second, dev, tokens, progress, report)
    training = {
        "stage": "contrastive tension",
        "graphs": len(canonical),
        "settings": asdict(settings),
        "precision": precision,
        "dev_history": loop.history,
    }
    return TrainingResult(
        Checkpoint(net_settings, trained_parameters(second), training),
        loop.history,
        loop.step,
        resumed,
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


def train_supervised(
    start: Checkpoint,
    pairs: Sequence[tuple[Graph, Graph]],
    targets: Sequence[float],
    settings: SupervisedSettings,
    dev: DevSet | None = None,
    state_path: Path | None = None,
    progress: StepProgress | None = None,
    report: EvaluationReport | None = None,
) -> TrainingResult:
    """Fit the cosine of each pair to its human score (mean squared error).

    Raises:
        ValueError: pairs and targets differ in number, or fewer than two.
    """
    if len(pairs) != len(targets) or len(pairs) < 2:
        raise ValueError("need as many scores as pairs, and at least two pairs")
    precision = resolve_precision(settings.precision)
    torch.set_num_threads(settings.threads)
    vocabulary = EncoderVocabulary(encoder_files().tokenizer, start.settings.relations)
    tokens = _Tokens(vocabulary, start.settings.max_length)
    prepared = [
        (tokens.of(tokens.canonical(a)), tokens.of(tokens.canonical(b)))
        for a, b in pairs
    ]
    net = build_net(start, precision, settings.dropout)
    net.train()
    _freeze_backbone(net)
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
    gold = torch.tensor(list(targets), dtype=torch.float32)
    while loop.step < total:
        within = loop.step % per_epoch
        if within == 0:  # a new pass (a resumed run restored its order)
            order = list(range(len(prepared)))
            rng.shuffle(order)
            loop.extra["order"] = order
        size = settings.batch_size
        chosen = loop.extra["order"][within * size : (within + 1) * size]
        left = _embed(net, [prepared[k][0] for k in chosen], vocabulary)
        right = _embed(net, [prepared[k][1] for k in chosen], vocabulary)
        cosine = F.cosine_similarity(left, right, dim=-1)
        loss = F.mse_loss(cosine, gold[chosen])
        _update(optimizer, schedule, loss)
        loop.after_step(loss.item(), net, dev, tokens, progress, report)
    training = {
        **start.training,
        "supervised": {
            "pairs": len(prepared),
            "settings": asdict(settings),
            "precision": precision,
            "dev_history": loop.history,
        },
    }
    return TrainingResult(
        Checkpoint(start.settings, trained_parameters(net), training),
        loop.history,
        loop.step,
        resumed,
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
        pairs = []
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


def bamboo_train_pairs(
    folders: Sequence[str | Path],
) -> tuple[list[tuple[Graph, Graph]], list[float]]:
    """(tgt, src) pairs and human scores of BAMBOO train folders
    (``<task>/{src,tgt}.train.amr``, ``train.y``).

    Dummy pairs (sick and para pair 0, the last pair of every file) and
    pairs with a graph that does not parse are left out.

    Raises:
        InputError: a file is missing or the scores do not line up.
    """
    pairs: list[tuple[Graph, Graph]] = []
    targets: list[float] = []
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
        first = 1 if folder.name in _HEADER_DUMMY else 0
        for i in range(first, len(scores) - 1):
            cand, ref = candidates[i].graph, sources[i].graph
            if cand is not None and ref is not None:
                pairs.append((cand, ref))
                targets.append(scores[i])
    return pairs, targets


__all__ = [
    "DevSet",
    "SupervisedSettings",
    "TensionSettings",
    "TrainingResult",
    "bamboo_dev_set",
    "bamboo_train_pairs",
    "evaluate",
    "load_checkpoint",
    "save_checkpoint",
    "swap_roles",
    "train_supervised",
    "train_tension",
]
