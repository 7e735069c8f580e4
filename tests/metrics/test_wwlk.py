"""WWLK and WWLKθ: semantics, n:m explanation, principles I–IV, training.

All on the 400-word GloVe extract in tests/data/vectors (no glove extra
needed; labels outside it get their seeded stand-in vectors). POT is
needed (it comes with the glove extra).
"""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
from functools import lru_cache
from pathlib import Path

import numpy as np
import pytest

from amrcheck.errors import MetricError  # noqa: E402
from amrcheck.graph import Graph  # noqa: E402
from amrcheck.metrics import get_metric  # noqa: E402
from amrcheck.metrics.wwlk import (  # noqa: E402
    DEFAULT_WEIGHTS,
    WEIGHT_RANGE,
    WWLK,
    WWLKTheta,
    default_edge_weight,
    load_weights,
    save_weights,
    transport,
)
from amrcheck.reading.corpus import decode, read_corpus  # noqa: E402
from amrcheck.training.wwlk_theta import SPSASettings, train_wwlk  # noqa: E402

from ..conftest import REPO, data_path  # noqa: E402
from ..reference import bamboo_files  # noqa: E402
from .test_principles_issue4 import graphs, unrelated_pairs  # noqa: E402

MINI = str(data_path("vectors/glove-mini.50d.txt"))
WANT = "(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-02 :ARG0 b))"


@lru_cache(maxsize=None)
def metric(**options: object) -> WWLK:
    return WWLK(vectors=MINI, **options)


def test_node_vectors_follow_the_update_rule() -> None:
    """x¹ = ½(x⁰ + mean of w·x⁰ over neighbours heard both ways), per node."""
    wwlk = metric(iterations=1)
    nodes, rows = wwlk.embed(decode(WANT))
    assert nodes.wl.labels == ["want-01", "boy", "go-02"]
    x = np.array([wwlk.concepts.vector_or_fallback(lab) for lab in nodes.wl.labels])
    w0, w1 = wwlk.edge_weight(":arg0"), wwlk.edge_weight(":arg1")
    heard = [
        (w0 * x[1] + w1 * x[2]) / 2,  # want: boy (:arg0), go (:arg1)
        (w0 * x[0] + w0 * x[2]) / 2,  # boy: want and go, both :arg0
        (w1 * x[0] + w0 * x[1]) / 2,  # go: want (:arg1), boy (:arg0)
    ]
    expected = np.hstack([x, (x + np.array(heard)) / 2])
    expected /= np.linalg.norm(expected, axis=1, keepdims=True)
    assert np.allclose(rows, expected)


def test_parallel_edges_multiply_their_weights() -> None:
    wwlk = metric(iterations=1, update="add")
    nodes, rows = wwlk.embed(decode("(c / cat :ARG0 (d / dog) :ARG1 d)"))
    x = np.array([wwlk.concepts.vector_or_fallback(lab) for lab in nodes.wl.labels])
    w = wwlk.edge_weight(":arg0") * wwlk.edge_weight(":arg1")
    expected = np.hstack([x, x + w * x[::-1]])  # each hears the other once
    expected /= np.linalg.norm(expected, axis=1, keepdims=True)
    assert np.allclose(rows, expected)


def test_score_is_one_minus_the_earth_movers_distance() -> None:
    """Equal node counts: the EMD is the best one-to-one assignment's mean cost."""
    wwlk = metric()
    a = decode(WANT)
    b = decode("(l / like-01 :ARG0 (g / girl) :ARG1 (d / dance-01 :ARG0 g))")
    _, rows_a = wwlk.embed(a)
    _, rows_b = wwlk.embed(b)
    cost = np.linalg.norm(rows_a[:, None] - rows_b[None], axis=2)
    best = min(
        np.mean([cost[i, j] for i, j in enumerate(p)])
        for p in itertools.permutations(range(3))
    )
    assert wwlk.score(a, b).f1 == pytest.approx(1 - best, abs=1e-12)


def test_transport_is_pot_emd_bit_for_bit() -> None:
    """The direct network-simplex call gives exactly what ``ot.emd`` gives
    (flow, and the EMD summed from it), on real node sets of every size
    pairing and on ties (equal rows, equal sizes)."""
    from ot import emd
    from scipy.spatial.distance import cdist

    wwlk = metric()
    rows = [wwlk.embed(g)[1] for g in graphs()[:60]]
    rng = np.random.default_rng(5)
    ties = rng.normal(size=(4, 150)).round(1)
    cases = [*zip(rows[::2], rows[1::2], strict=True), (ties, ties[::-1].copy())]
    for a, b in cases:
        distance, flow, cost = transport(a, b)
        swap = (len(a), a.tobytes()) > (len(b), b.tobytes())
        x, y = (b, a) if swap else (a, b)
        expected_cost = cdist(x, y)
        expected = emd(
            np.full(len(x), 1 / len(x)), np.full(len(y), 1 / len(y)), expected_cost
        )
        if swap:
            expected, expected_cost = expected.T, expected_cost.T
        assert np.array_equal(flow, expected) and np.array_equal(cost, expected_cost)
        assert distance == float(np.sum(expected * expected_cost))


def test_a_graph_without_edges_hears_nothing() -> None:
    """One node, no neighbours: each iteration only halves x (``average``)."""
    wwlk = metric(iterations=2)
    nodes, rows = wwlk.embed(decode("(b / boy)"))
    x = wwlk.concepts.vector_or_fallback("boy")
    expected = np.hstack([x, x / 2, x / 4])
    assert np.allclose(rows[0], expected / np.linalg.norm(expected))
    assert len(nodes.listeners) == len(nodes.speakers) == 0
    assert wwlk.score(decode("(b / boy)"), decode("(b / boy)")).f1 == 1.0


def test_edge_weights_are_seeded_per_label() -> None:
    low, high = WEIGHT_RANGE
    weights = [default_edge_weight(f":arg{k}") for k in range(40)]
    assert all(low <= w <= high for w in weights)
    # like the reference's lowest-entropy draws: mostly near the two ends
    middle = (low + high) / 2
    assert sum(abs(w - middle) > 0.05 for w in weights) >= 35
    assert default_edge_weight(":arg0") == default_edge_weight(":arg0", seed=0)
    assert default_edge_weight(":arg0") != default_edge_weight(":arg0", seed=1)


def test_explanation_is_an_n_to_m_alignment_with_spans() -> None:
    wwlk = metric()
    a = decode(WANT)
    b = decode(
        '(w / want-01 :ARG0 (g / girl :name (n / name :op1 "Ann"))'
        " :ARG1 (s / sleep-01))"
    )
    explanation = wwlk.score(a, b, explain=True).explanation
    assert explanation is not None
    flows = explanation.units["flows"]
    assert sum(f.mass for f in flows) == pytest.approx(1.0)
    out: dict[str, float] = {}
    into: dict[str, float] = {}
    for f in flows:
        out[f.candidate_label] = out.get(f.candidate_label, 0.0) + f.mass
        into[f.reference_label] = into.get(f.reference_label, 0.0) + f.mass
        assert f.cost >= 0 and f.candidate.graph is a and f.reference.graph is b
    assert all(m == pytest.approx(1 / 3) for m in out.values())  # 3 candidate nodes
    assert all(m == pytest.approx(1 / 5) for m in into.values())  # 5 reference nodes
    assert len(flows) > 3  # n:m, not 1:1
    assert explanation.alignment["w"] == "w"
    ann = next(f for f in flows if f.reference_label == "ann")
    assert ann.reference.span.text == ':op1 "Ann"'
    want = next(f for f in flows if f.candidate_label == "want-01")
    assert want.candidate.span.text.startswith("w / want-01")
    assert str(want).startswith("want-01 -> want-01: mass 0.")


# --- principles I-IV on the shared corpora -------------------------------------


def test_self_score_is_one() -> None:
    """Every third graph of the shared corpora (a third keeps CI fast), and
    separately decoded copies of the first 300."""
    wwlk = metric()
    assert all(wwlk.score(g, g).f1 == 1.0 for g in graphs()[::3])
    assert all(wwlk.score(g, decode(g.text)).f1 == 1.0 for g in graphs()[:300])


@pytest.mark.slow
def test_range_and_exact_symmetry() -> None:
    """1 − EMD lies in [−1, 1] (principle I does not hold: below 0 happens)."""
    wwlk = metric()
    below = 0
    for a, b in unrelated_pairs():
        forward, backward = wwlk.score(a, b).f1, wwlk.score(b, a).f1
        assert forward == backward
        assert -1.0 <= forward <= 1.0
        below += forward < 0
    assert below > 0


def test_pairs_scored_together_score_as_alone_bit_for_bit() -> None:
    """score_pairs embeds a batch's graphs as one sparse block matrix; a
    graph's rows must not depend on what else is in the batch."""
    wwlk = metric()
    pairs = unrelated_pairs()[:300]
    alone = [wwlk.score(a, b).f1 for a, b in pairs]
    assert [s.f1 for s in wwlk.score_pairs(pairs)] == alone
    assert [s.f1 for s in wwlk.score_pairs(pairs[::-1])] == alone[::-1]
    mixed = [pair for k, pair in enumerate(pairs) if k % 3]
    assert [s.f1 for s in wwlk.score_pairs(mixed)] == [
        f1 for k, f1 in enumerate(alone) if k % 3
    ]


_DIGEST = """
import hashlib, json, sys
from amrcheck.reading.corpus import read_corpus
from amrcheck.metrics import get_metric
tgt, src = read_corpus(sys.argv[1]), read_corpus(sys.argv[2])
digest = hashlib.sha256()
for name, options in json.loads(sys.argv[3]):
    metric = get_metric(name, **options)
    for a, b in list(zip(tgt, src))[:120]:
        score = metric.score(a.graph, b.graph, explain=True)
        digest.update(repr(score.f1).encode())
        units = score.explanation.units
        for unit in units.get("flows", units.get("concepts", [])):
            digest.update(str(unit).encode())
print(digest.hexdigest())
"""


def digest_across_processes(metrics: list[tuple[str, dict[str, object]]]) -> set[str]:
    """Digests of scores + explanations in processes with different hash seeds."""
    tgt, src = (str(p) for p in bamboo_files("sick.main"))
    return {
        subprocess.run(
            [sys.executable, "-c", _DIGEST, tgt, src, json.dumps(metrics)],
            env=dict(os.environ, PYTHONHASHSEED=seed),
            cwd=REPO,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        for seed in ("0", "1", "12345")
    }


@pytest.mark.slow
def test_deterministic_across_processes_and_hash_seeds(tmp_path: Path) -> None:
    weights = tmp_path / "w.json"
    save_weights(weights, {":arg0": 0.9, ":arg1": -0.2}, {"iterations": 2}, {})
    digests = digest_across_processes(
        [
            ("wwlk", {"vectors": MINI}),
            ("wwlk-theta", {"vectors": MINI, "weights": str(weights)}),
        ]
    )
    assert len(digests) == 1


# --- WWLKθ ----------------------------------------------------------------------


def test_wwlk_theta_ships_weights_trained_on_bamboo_train_issue_16() -> None:
    """Without weights=, wwlk-theta loads the shipped file, which names how
    it was made, and its weights are the trained ones, not the seeded."""
    theta = get_metric("wwlk-theta", vectors=MINI)
    assert isinstance(theta, WWLKTheta) and theta.weights_path == DEFAULT_WEIGHTS
    weights, settings = load_weights(DEFAULT_WEIGHTS)
    assert settings["iterations"] == 2 and settings["update"] == "average"
    provenance = json.loads(DEFAULT_WEIGHTS.read_text(encoding="utf-8"))["provenance"]
    assert provenance["seed"] == 0 and "BAMBOO train" in provenance["data"]
    assert "amrcheck train wwlk" in provenance["command"]
    assert provenance["pairs"] == 5749 + 4500 + 3576  # sts, sick, para (no dummies)
    assert len(weights) > 50
    for label in (":arg0", ":arg1", ":mod"):
        assert theta.edge_weight(label) == weights[label]
        assert weights[label] != default_edge_weight(label)
    assert "BAMBOO train" in theta.settings()["weights"]


def test_wwlk_theta_checks_its_weights_file(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{}", encoding="utf-8")
    with pytest.raises(MetricError, match="not a WWLK weights file"):
        get_metric("wwlk-theta", vectors=MINI, weights=str(bad))
    trained = tmp_path / "k1.json"
    save_weights(trained, {":arg0": 0.5}, {"iterations": 1, "update": "average"}, {})
    with pytest.raises(MetricError, match="trained with iterations=1"):
        get_metric("wwlk-theta", vectors=MINI, weights=str(trained))
    assert isinstance(
        get_metric("wwlk-theta", vectors=MINI, weights=str(trained), iterations=1),
        WWLKTheta,
    )


def test_trained_weights_replace_the_seeded_ones(tmp_path: Path) -> None:
    path = tmp_path / "w.json"
    save_weights(path, {":arg0": 1.5}, {}, {})
    theta = WWLKTheta(vectors=MINI, weights=str(path))
    assert theta.edge_weight(":arg0") == 1.5
    assert theta.edge_weight(":arg1") == default_edge_weight(":arg1")
    a, b = (
        decode(WANT),
        decode("(w / want-01 :ARG0 (g / girl) :ARG1 (g2 / go-02 :ARG0 g))"),
    )
    assert theta.score(a, b).f1 != metric().score(a, b).f1


def _sts_pairs(count: int) -> tuple[list[tuple[Graph, Graph]], list[float]]:
    tgt, src = bamboo_files("sts.main")
    human = [float(x) for x in (tgt.parent.parent / "dev.y").read_text().split()]
    pairs = [
        (a.graph, b.graph)
        for a, b in zip(read_corpus(tgt), read_corpus(src), strict=True)
    ]
    return pairs[:count], human[:count]  # type: ignore[return-value]


def test_training_is_deterministic_and_keeps_the_best(tmp_path: Path) -> None:
    pairs, human = _sts_pairs(60)
    settings = SPSASettings(steps=30, evaluate_every=10, seed=7)
    seen: list[int] = []
    first = train_wwlk(
        metric(),
        pairs,
        human,
        settings=settings,
        progress=lambda k, n, b: seen.append(k),
    )
    second = train_wwlk(metric(), pairs, human, settings=settings)
    assert first.weights == second.weights and first.history == second.history
    assert seen == list(range(1, 31)) and len(first.history) == 3
    assert first.best >= first.start
    assert first.best == max([first.start, *(s for _, s in first.history)])
    assert ":arg0" in first.weights
    # the weights load back as wwlk-theta and reproduce the best dev Pearson
    path = tmp_path / "w.json"
    save_weights(
        path, first.weights, {"iterations": 2, "update": "average"}, first.summary()
    )
    assert load_weights(path)[0] == first.weights
    theta = WWLKTheta(vectors=MINI, weights=str(path))
    scores = np.array([theta.score(a, b).f1 for a, b in pairs])
    assert np.corrcoef(scores, human)[0, 1] == pytest.approx(first.best, abs=1e-9)


def test_options_are_checked() -> None:
    with pytest.raises(MetricError, match="update must be one of"):
        get_metric("wwlk", vectors=MINI, update="sum")
    with pytest.raises(MetricError, match="iterations"):
        get_metric("wwlk", vectors=MINI, iterations=-1)


def test_missing_pot_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ot", None)
    with pytest.raises(MetricError, match="POT"):
        WWLK(vectors=MINI)
