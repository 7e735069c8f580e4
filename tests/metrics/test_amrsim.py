"""AMRSim with the shipped model: principles I–IV, invariance, batching, explanation."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import warnings

import numpy as np
import penman
import pytest

from amrcheck import get_metric
from amrcheck.errors import MetricError
from amrcheck.reading.corpus import decode, read_corpus
from tests.conftest import REPO, shared_path
from tests.rewrite import REWRITES, rewrite

pytest.importorskip(
    "torch", reason="the learned extra: pip install 'amrcheck[learned]'"
)

from amrcheck.learned.checkpoint import SHIPPED_WEIGHTS, load_checkpoint  # noqa: E402
from amrcheck.learned.encoder import GraphEncoder, GraphTooLongWarning  # noqa: E402

# AMRSim's Table 4: A and B are one graph; C and D are others that a
# token-order (C) or root-distance-only (D) reading confuses with A
TABLE_4 = {
    "A": "(p / play-01 :ARG0 (g / group :consist-of (b / boy)) :ARG1 (s / soccer)"
    " :location (h / beach))",
    "B": "(p / play-01 :location (h / beach) :ARG0 (g / group :consist-of (b / boy))"
    " :ARG1 (s / soccer))",
    "C": "(p / play-01 :ARG0 (g / group :consist-of (b / boy :ARG1 (s / soccer"
    " :location (h / beach)))))",
    "D": "(p / play-01 :ARG0 (g / group) :ARG1 (s / soccer) :location (h / beach"
    " :consist-of (b / boy)))",
}


@pytest.fixture(scope="module")
def metric():
    return get_metric("amrsim")


@pytest.fixture(scope="module")
def sts_pairs():
    cand = read_corpus(shared_path("bamboo/sts/main/tgt.dev.amr"))
    ref = read_corpus(shared_path("bamboo/sts/main/src.dev.amr"))
    return [(c.graph, r.graph) for c, r in zip(cand, ref, strict=False)][:200]


def fresh_encoder() -> GraphEncoder:
    return GraphEncoder(load_checkpoint(SHIPPED_WEIGHTS), "auto")


def test_shipped_model_is_in_the_package_and_small() -> None:
    assert SHIPPED_WEIGHTS.is_file()
    assert SHIPPED_WEIGHTS.stat().st_size <= 20 * 2**20
    assert (SHIPPED_WEIGHTS.parent / "MODEL_CARD.md").is_file()


def test_table_4_isomorphic_graphs_score_one_and_others_less(metric) -> None:
    a, b, c, d = (decode(TABLE_4[k]) for k in "ABCD")
    assert metric.score(a, b).f1 == 1.0
    assert metric.score(a, c).f1 < 1.0
    assert metric.score(a, d).f1 < 1.0


@pytest.mark.parametrize(
    "name",
    ["little_prince/amr-bank-struct-v3.0.txt", "bio_amr/amr-release-dev-bio.txt"],
)
def test_every_writing_of_a_real_graph_scores_exactly_one(metric, name) -> None:
    rng = random.Random(15)
    entries = [e for e in read_corpus(shared_path(name)) if e.graph is not None][::25]
    for entry in entries:
        original = entry.graph
        copies = [decode(rewrite(original.text, how, rng)) for how in REWRITES]
        # penman's own re-layout of the graph, branches in another order
        layout = penman.layout.reconfigure(
            penman.decode(original.text), key=lambda role: role[::-1]
        )
        copies.append(decode(penman.format(layout)))
        for copy in copies:
            assert metric.score(copy, original).f1 == 1.0, entry.id
            assert metric.score(original, copy).f1 == 1.0, entry.id
        vectors = metric.encoder.vectors([original, *copies])
        assert all(np.array_equal(vectors[0], v) for v in vectors[1:])


def test_a_rerooted_graph_is_another_graph_but_close(metric) -> None:
    # re-rooting changes the focus (the TOP triple): no metric of the engine
    # calls that the same graph; the embedding moves only a little
    text = "(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-02 :ARG0 b))"
    rerooted = penman.encode(penman.decode(text), top="b")
    score = metric.score(decode(rerooted), decode(text)).f1
    assert 0.8 < score < 1.0


@pytest.mark.slow
def test_range_symmetry_and_self_score(metric, sts_pairs) -> None:
    for cand, ref in sts_pairs:
        forward = metric.score(cand, ref).f1
        assert 0.0 <= forward <= 1.0
        assert forward == metric.score(ref, cand).f1
        assert metric.score(cand, cand).f1 == 1.0


def test_score_pairs_equals_score(metric, sts_pairs) -> None:
    batch = [s.f1 for s in metric.score_pairs(sts_pairs)]
    assert batch == [metric.score(c, r).f1 for c, r in sts_pairs]


@pytest.mark.slow
def test_embeddings_do_not_depend_on_batch_or_order(sts_pairs) -> None:
    graphs = [g for pair in sts_pairs[:60] for g in pair]
    together = fresh_encoder().vectors(graphs)
    alone = [fresh_encoder().vectors([g])[0] for g in graphs[:12]]
    reversed_ = fresh_encoder().vectors(graphs[::-1])[::-1]
    for k, vector in enumerate(alone):
        assert np.array_equal(vector, together[k])
    assert all(np.array_equal(a, b) for a, b in zip(together, reversed_, strict=False))


def test_a_graph_is_embedded_once(sts_pairs) -> None:
    encoder = fresh_encoder()
    graphs = [g for pair in sts_pairs[:20] for g in pair]
    calls = []
    run = encoder._run
    encoder._run = lambda tokens: calls.append(len(tokens)) or run(tokens)
    encoder.vectors(graphs)
    encoder.vectors(graphs)
    encoder.vectors([decode(rewrite(graphs[0].text, "rename", random.Random(1)))])
    assert calls == [len({encoder.key(g) for g in graphs})]


def test_an_explained_score_runs_the_network_once_per_graph_and_scores_the_same(
    sts_pairs,
) -> None:
    """The node vectors' forward pass also gives the graph embedding (the
    editor's lens explains every pair it scores)."""
    plain = [s.f1 for s in get_metric("amrsim").score_pairs(sts_pairs[:40])]
    explaining = get_metric("amrsim")
    explaining.encoder = encoder = fresh_encoder()
    calls = []
    run = encoder._run
    encoder._run = lambda tokens: calls.append(len(tokens)) or run(tokens)
    explained = [explaining.score(c, r, explain=True) for c, r in sts_pairs[:40]]
    assert [s.f1 for s in explained] == plain
    assert all(s.explanation is not None for s in explained)
    graphs = {encoder.key(g) for pair in sts_pairs[:40] for g in pair}
    assert calls == [1] * len(graphs)


def test_same_scores_in_another_process(metric, sts_pairs) -> None:
    here = [metric.score(c, r).f1 for c, r in sts_pairs[:30]]
    script = (
        "import json, sys\n"
        "from amrcheck import get_metric\n"
        "from amrcheck.reading.corpus import read_corpus\n"
        "c = read_corpus(sys.argv[1]); r = read_corpus(sys.argv[2])\n"
        "m = get_metric('amrsim')\n"
        "print(json.dumps([m.score(c[i].graph, r[i].graph).f1 for i in range(30)]))\n"
    )
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            script,
            str(shared_path("bamboo/sts/main/tgt.dev.amr")),
            str(shared_path("bamboo/sts/main/src.dev.amr")),
        ],
        capture_output=True,
        text=True,
        check=True,
        cwd=REPO,
    )
    assert json.loads(done.stdout) == here


def test_explanation_is_a_soft_alignment_of_every_node(metric) -> None:
    cand = decode('(w / want-01 :ARG0 (g / girl) :ARG1 (r / run-02 :ARG0 g) :mod "x")')
    ref = decode("(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-02 :ARG0 b))")
    explanation = metric.score(cand, ref, explain=True).explanation
    matches = explanation.units["closest"]
    candidate_side = [m for m in matches if m.side == "candidate"]
    reference_side = [m for m in matches if m.side == "reference"]
    assert len(candidate_side) == 4 and len(reference_side) == 3
    assert {m.node_label for m in candidate_side} == {"want-01", "girl", "run-02", "x"}
    assert all(-1.0 <= m.cosine <= 1.0 for m in matches)
    by_label = {m.node_label: m for m in candidate_side}
    assert by_label["want-01"].closest_label == "want-01"
    assert by_label["want-01"].cosine > 0.5
    assert by_label["girl"].closest_label == "boy"
    assert by_label["girl"].closest.triple == ("b", "instance", "boy")
    assert explanation.alignment["w"] == "w"
    assert set(explanation.alignment) == {"w", "g", "r"}


def test_a_long_graph_is_embedded_in_windows_with_a_warning(tmp_path) -> None:
    body = " ".join(f":op{i} (x{i} / thing-{i})" for i in range(1, 80))
    path = tmp_path / "long.amr"
    path.write_text(f"# ::id long\n(a / and {body})\n", encoding="utf-8")
    graph = read_corpus(path)[0].graph
    encoder = fresh_encoder()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        vector = encoder.vectors([graph])[0]
        encoder.vectors([graph])
    found = [w for w in caught if issubclass(w.category, GraphTooLongWarning)]
    assert len(found) == 1
    assert str(found[0].message).startswith(f"{path}:2:1: graph of ")
    assert np.isclose(np.linalg.norm(vector), 1.0)


def test_missing_extra_gives_one_line(monkeypatch) -> None:
    import importlib.util

    from amrcheck.learned import _extra

    real = importlib.util.find_spec
    monkeypatch.setattr(
        _extra.importlib.util,
        "find_spec",
        lambda name, *a: None if name == "torch" else real(name, *a),
    )
    with pytest.raises(MetricError) as error:
        _extra.require_learned()
    assert "pip install" in str(error.value) and "amrcheck[learned]" in str(error.value)
    assert "\n" not in str(error.value)


def test_bad_options_are_metric_errors() -> None:
    with pytest.raises(MetricError, match="precision"):
        get_metric("amrsim", precision="half")
    with pytest.raises(MetricError, match="no such AMRSim weights"):
        get_metric("amrsim", weights="/nonexistent/weights.safetensors")


def test_other_metrics_do_not_import_torch() -> None:
    script = (
        "import sys\n"
        "from amrcheck import get_metric\n"
        "from amrcheck.reading.corpus import decode\n"
        "g = decode('(b / boy)')\n"
        "for name in ('smatch', 'wlk', 'rematch', 'sembleu', 'sema'):\n"
        "    get_metric(name).score(g, g)\n"
        "import amrcheck.cli.train, amrcheck.metrics.amrsim\n"
        "print('torch' in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        check=True,
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )
    assert done.stdout.strip() == "False"
