"""Training AMRSim: contrastive tension and the supervised stage, on tiny real runs."""

from __future__ import annotations

import random

import pytest

from amrcheck import get_metric
from amrcheck.canonical import canonicalize
from amrcheck.reading.corpus import decode, read_corpus
from amrcheck.standardize import standardize
from tests.conftest import shared_path

pytest.importorskip(
    "torch", reason="the learned extra: pip install 'amrcheck[learned]'"
)

import torch  # noqa: E402

from amrcheck.learned.checkpoint import load_checkpoint, save_checkpoint  # noqa: E402
from amrcheck.learned.settings import SupervisedSettings, TensionSettings  # noqa: E402
from amrcheck.training.amrsim import (  # noqa: E402
    DevSet,
    bamboo_train_pairs,
    swap_roles,
    train_supervised,
    train_tension,
)


@pytest.fixture(scope="module")
def graphs():
    corpus = read_corpus(shared_path("little_prince/amr-bank-struct-v3.0.txt"))
    return [e.graph for e in corpus][:24]


@pytest.fixture(scope="module")
def dev(graphs):
    pairs = list(zip(graphs[:6], graphs[6:12], strict=False))
    return DevSet(
        {"toy": pairs, "toy.role": pairs[:4]},
        {"toy": [0.1, 0.9, 0.4, 0.3, 0.8, 0.5]},
    )


TINY = TensionSettings(
    steps=4, anchors=2, negatives=1, structural=1, evaluate_every=2, checkpoint_every=2
)


def test_swap_roles_exchanges_two_arguments_of_one_predicate() -> None:
    graph = canonicalize(
        standardize(decode("(p / play-01 :ARG0 (b / band) :location (s / stage))"))
    )
    swapped = swap_roles(graph, random.Random(0))
    assert swapped is not None
    before = {(graph.instances[t][1], r) for _, r, t in graph.relations}
    after = {(swapped.instances[t][1], r) for _, r, t in swapped.relations}
    assert before == {("band", "arg0"), ("stage", "location")}
    assert after == {("stage", "arg0"), ("band", "location")}
    assert (
        swap_roles(canonicalize(standardize(decode("(b / boy)"))), random.Random(0))
        is None
    )


@pytest.mark.slow
def test_tension_reports_dev_values_and_writes_loadable_weights(
    graphs, dev, tmp_path
) -> None:
    reports = []
    state = tmp_path / "state"
    result = train_tension(graphs, TINY, dev, state, None, lambda *r: reports.append(r))
    assert [step for step, _ in reports] == [2, 4]
    assert set(reports[0][1]) == {"toy", "toy.role"}
    assert all(-100 <= v <= 100 for _, values in reports for v in values.values())
    path = tmp_path / "weights.safetensors"
    save_checkpoint(path, result.checkpoint)
    loaded = load_checkpoint(path)
    assert loaded.training["stage"] == "contrastive tension"
    metric = get_metric("amrsim", weights=str(path))
    assert 0.0 <= metric.score(graphs[0], graphs[1]).f1 <= 1.0
    assert metric.score(graphs[0], graphs[0]).f1 == 1.0


@pytest.mark.slow
def test_an_interrupted_run_resumes_where_it_stopped(graphs, tmp_path) -> None:
    straight = train_tension(graphs, TINY, None, tmp_path / "straight")

    def stop_at_three(step: int, total: int, loss: float) -> None:
        if step == 3:
            raise KeyboardInterrupt

    state = tmp_path / "resumed"
    with pytest.raises(KeyboardInterrupt):
        train_tension(graphs, TINY, None, state, stop_at_three)
    resumed = train_tension(graphs, TINY, None, state)
    assert resumed.resumed_from == 2 and resumed.steps == 4
    # same draws and schedule; the optimiser's moments come back slightly
    # off, so the weights are close, not identical (amrcheck.training.amrsim)
    for name, tensor in straight.checkpoint.parameters.items():
        assert torch.allclose(tensor, resumed.checkpoint.parameters[name], atol=1e-3)


@pytest.mark.slow
def test_a_run_with_other_settings_is_not_resumed(graphs, tmp_path) -> None:
    state = tmp_path / "state"
    train_tension(graphs, TINY, None, state)
    other = TensionSettings(steps=4, anchors=2, negatives=1, seed=1)
    with pytest.raises(ValueError, match="other settings"):
        train_tension(graphs, other, None, state)


@pytest.mark.slow
def test_supervised_stage_moves_the_cosines_towards_the_scores(
    graphs, tmp_path
) -> None:
    start = train_tension(graphs, TINY, None, None).checkpoint
    pairs = list(zip(graphs[:8], graphs[8:16], strict=False))
    targets = [1.0, 0.0] * 4
    settings = SupervisedSettings(epochs=3, batch_size=4, learning_rate=3e-3)
    result = train_supervised(start, pairs, targets, settings, None, tmp_path / "sup")
    assert result.steps == 6
    assert result.checkpoint.training["supervised"]["pairs"] == 8
    changed = [
        not torch.equal(tensor, start.parameters[name])
        for name, tensor in result.checkpoint.parameters.items()
    ]
    assert any(changed)


def test_bamboo_train_pairs_leave_out_dummies_and_broken_graphs() -> None:
    pairs, targets = bamboo_train_pairs([shared_path("bamboo_train/sick")])
    lines = shared_path("bamboo_train/sick/train.y").read_text().split()
    # pair 0 is the header row, the last pair the "Empty line" dummy
    assert len(pairs) == len(targets) == len(lines) - 2
    assert targets[0] == float(lines[1])
