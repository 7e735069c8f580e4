"""Fine-tuning AMRSim's encoder: low-rank updates, kept lower states, held out."""

from __future__ import annotations

import pytest

from amrcheck import get_metric
from amrcheck.reading.corpus import read_corpus
from tests.conftest import shared_path

pytest.importorskip(
    "torch", reason="the learned extra: pip install 'amrcheck[learned]'"
)

import torch  # noqa: E402

from amrcheck.learned.backbone import encoder_files  # noqa: E402
from amrcheck.learned.checkpoint import (  # noqa: E402
    Checkpoint,
    NetSettings,
    load_checkpoint,
    save_checkpoint,
    trained_parameters,
)
from amrcheck.learned.encoder import build_net, make_batch  # noqa: E402
from amrcheck.learned.settings import SupervisedSettings, TensionSettings  # noqa: E402
from amrcheck.learned.vocabulary import EncoderVocabulary, default_relations  # noqa: E402
from amrcheck.training.amrsim import (  # noqa: E402
    LowerStates,
    _device,
    _Tokens,
    initial_checkpoint,
    split_holdout,
    train_supervised,
    train_tension,
)


@pytest.fixture(scope="module")
def graphs():
    corpus = read_corpus(shared_path("little_prince/amr-bank-struct-v3.0.txt"))
    return [e.graph for e in corpus][:16]


@pytest.fixture(scope="module")
def adapted() -> Checkpoint:
    """Untrained parameters with low-rank updates made non-zero (so they count)."""
    settings = NetSettings(
        tuple(default_relations()), lora_rank=4, lora_layers=2, lora_alpha=8.0
    )
    start = initial_checkpoint(settings, seed=0)
    generator = torch.Generator().manual_seed(1)
    parameters = {
        name: torch.randn(t.shape, generator=generator) * 0.05
        if name.endswith(".up")
        else t
        for name, t in start.parameters.items()
    }
    return Checkpoint(settings, parameters)


@pytest.mark.slow
def test_kept_lower_states_and_merged_updates_embed_as_the_whole_network(
    graphs, adapted
) -> None:
    vocabulary = EncoderVocabulary(
        encoder_files().tokenizer, adapted.settings.relations
    )
    tokens = _Tokens(vocabulary, adapted.settings.max_length)
    prepared = [tokens.of(tokens.canonical(g)) for g in graphs]
    net = build_net(adapted, "float32", merge=False).eval()
    assert any(".low_rank." in name for name in trained_parameters(net))
    lower = LowerStates(net, 4, vocabulary, torch.device("cpu"))
    lower.fill(prepared[:8])  # the other eight are computed when first met
    with torch.no_grad():
        whole = net(make_batch(prepared, vocabulary, 512))[1]
        kept = lower.embed(net, prepared)
        merged = build_net(adapted, "float32").eval()
        assert not any(".low_rank." in name for name in merged.state_dict())
        folded = merged(make_batch(prepared, vocabulary, 512))[1]
        plain = build_net(
            Checkpoint(
                NetSettings(adapted.settings.relations),
                {n: t for n, t in adapted.parameters.items() if ".low_rank." not in n},
            ),
            "float32",
        ).eval()(make_batch(prepared, vocabulary, 512))[1]
    assert torch.allclose(kept, whole, atol=1e-4)
    assert torch.allclose(folded, whole, atol=1e-4)
    # the updates are not nothing: without them the embeddings differ
    assert not torch.allclose(plain, whole, atol=1e-3)


def test_holdout_is_a_seeded_disjoint_part_of_each_task(graphs) -> None:
    pairs = list(zip(graphs[:8], graphs[8:16], strict=True))
    tasks = {
        "toy": (pairs, [k / 8 for k in range(8)]),
        "other": (pairs[::-1], [0.5] * 8),
    }
    train, train_targets, holdout = split_holdout(tasks, 0.25, seed=0)
    again = split_holdout(tasks, 0.25, seed=0)[2]
    assert len(holdout.pairs["toy"]) == len(holdout.pairs["other"]) == 2
    assert len(train) == len(train_targets) == 12
    toy = holdout.pairs["toy"]
    assert {id(p) for p in toy}.isdisjoint(id(p) for p in train[:6])  # toy's kept
    assert holdout.scores["toy"] == [k / 8 for k in range(8) if pairs[k] in toy]
    assert again.pairs["toy"] == toy and again.pairs["other"] == holdout.pairs["other"]
    swaps = [pair[0] for pair in holdout.pairs["toy.roles"][0::2]]
    same = [pair[0] for pair in again.pairs["toy.roles"][0::2]]
    assert [g.relations for g in swaps] == [g.relations for g in same]
    roles = holdout.pairs["toy.roles"]
    # (swapped candidate, reference), (candidate, reference), pair by pair
    assert len(roles) == 4
    assert all(roles[2 * i][1] is roles[2 * i + 1][1] for i in range(2))
    assert [roles[1], roles[3]] == toy
    with pytest.raises(ValueError, match="between 0 and 1"):
        split_holdout(tasks, 1.5, seed=0)


def test_cuda_is_refused_clearly_where_there_is_none() -> None:
    if torch.cuda.is_available():
        assert _device("cuda").type == "cuda"
        return
    with pytest.raises(ValueError, match="no CUDA GPU is usable here"):
        _device("cuda")
    with pytest.raises(ValueError, match="cpu or cuda"):
        _device("tpu")


@pytest.mark.slow
def test_both_stages_train_the_updates_and_keep_the_best_held_out_model(
    graphs, tmp_path
) -> None:
    tasks = {"toy": (list(zip(graphs[:8], graphs[8:16], strict=True)), [0.9, 0.1] * 4)}
    pairs, targets, holdout = split_holdout(tasks, 0.25, seed=0)
    tension = TensionSettings(
        steps=2, anchors=2, negatives=1, evaluate_every=1, lora_rank=2, lora_layers=1
    )
    first = train_tension(graphs, tension, None, None, holdout=holdout).checkpoint
    assert first.settings.lora_rank == 2
    assert first.training["kept_step"] in (1, 2)
    settings = SupervisedSettings(
        epochs=2, batch_size=3, learning_rate=3e-3, evaluate_every=1
    )
    result = train_supervised(
        first, pairs, targets, settings, None, tmp_path / "sup", holdout=holdout
    )
    record = result.checkpoint.training["supervised"]
    history = [values for _, values in result.history]
    means = [sum(v.values()) / len(v) for v in history]
    assert record["holdout_mean"] == pytest.approx(max(means))
    assert set(history[0]) == {"holdout:toy", "holdout:toy.roles"}
    ups = [n for n in result.checkpoint.parameters if n.endswith(".low_rank.query.up")]
    assert ups == ["backbone.layers.5.low_rank.query.up"]
    path = tmp_path / "w.safetensors"
    save_checkpoint(path, result.checkpoint)
    assert load_checkpoint(path).settings.lora_layers == 1
    metric = get_metric("amrsim", weights=str(path))
    assert 0.0 <= metric.score(graphs[0], graphs[1]).f1 <= 1.0
    assert metric.score(graphs[0], graphs[0]).f1 == 1.0
