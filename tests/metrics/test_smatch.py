"""smatch: semantics, both root policies, explanation, seeding, exact mode."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from itertools import permutations
from pathlib import Path

import pytest

from amrcheck.errors import MetricError
from amrcheck.metrics import get_metric, metric_options
from amrcheck.metrics._align import AlignmentProblem, hill_climb, solve_exact
from amrcheck.metrics.smatch import Smatch
from amrcheck.pairing.graphs import pair_corpora, score_corpus
from amrcheck.reading.corpus import decode, read_corpus
from tests.conftest import data_path

from ..bamboo import subtask
from ..conftest import SHARED_AMR_FILES, SHARED_DATA
from .problems import problem_from_weights

SPIT = "(xv0 / spit-01 :ARG0 (xv1 / man))"
SPEAK = "(xv0 / speak-01 :ARG0 (xv1 / man))"


def test_worked_example_of_both_root_policies() -> None:
    """SUMMARY.md, sts.main pair 19: 3/4 under root=variable, 2/4 under root=concept."""
    variable = Smatch().score(decode(SPIT), decode(SPEAK))
    concept = Smatch(root="concept").score(decode(SPIT), decode(SPEAK))
    assert (variable.f1, variable.counts["matched"]) == (0.75, 3)
    assert (concept.f1, concept.counts["matched"]) == (0.5, 2)
    tgt, src, rows = subtask("sts.main")
    assert tgt[19].graph is not None and src[19].graph is not None
    assert Smatch().score(tgt[19].graph, src[19].graph).f1 == 0.75
    assert Smatch(root="concept").score(tgt[19].graph, src[19].graph).f1 == 0.5


def test_precision_is_relative_to_the_candidate() -> None:
    score = Smatch().score(decode("(a / b)"), decode("(a / b :ARG0 (c / d))"))
    assert score.counts == {
        "matched": 2,
        "candidate": 2,
        "reference": 4,
        "upper_bound": 2,
        "optimal": 1,
        "cut": 0,
    }
    assert (score.precision, score.recall) == (1.0, 0.5)


def test_duplicates_count_once_by_default_and_multiply_in_compat() -> None:
    """sick.main pair 415: smatch 1.0.4 scores 1.05; strict never exceeds 1."""
    tgt, src, _ = subtask("sick.main")
    cand, ref = tgt[415].graph, src[415].graph
    assert cand is not None and ref is not None
    assert Smatch(compat="smatch-1.0.4").score(cand, ref).f1 == pytest.approx(1.05)
    assert Smatch().score(cand, ref).f1 <= 1.0


@pytest.mark.slow
def test_self_score_is_one_for_every_graph_of_the_shared_data() -> None:
    metric = Smatch()
    malformed, below, graphs = 0, [], 0
    for path in SHARED_AMR_FILES:
        for entry in read_corpus(path):
            if entry.errors:  # the guidelines' two "(a / x)  NOT:  (b / y)" blocks
                malformed += 1
                assert path.name == "guidelines_examples.amr"
            if entry.graph is None:  # not a graph at all: nothing to score
                continue
            graphs += 1
            score = metric.score(entry.graph, entry.graph)
            if score.f1 != 1.0 or not score.info["optimal"]:
                below.append((path.name, entry.index))
    assert malformed == 2
    assert graphs > 19000
    assert below == []


def test_little_prince_self_check_where_smatch_104_r0_fails() -> None:
    corpus = read_corpus(SHARED_DATA / "little_prince" / "amr-bank-struct-v3.0.txt")
    hard = {e.id: e.graph for e in corpus if e.id in ("lpp_1943.25", "lpp_1943.54")}
    for graph in hard.values():
        assert graph is not None
        assert Smatch(restarts=0).score(graph, graph).f1 == 1.0


def test_explanation_aligns_variables_and_points_at_source() -> None:
    cand = decode("(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-02 :ARG0 b))")
    ref = decode("(x / want-01 :ARG0 (y / girl) :ARG1 (z / go-02 :ARG0 y))")
    score = Smatch().score(cand, ref, explain=True)
    explanation = score.explanation
    assert explanation is not None
    assert explanation.alignment == {"w": "x", "b": "y", "g": "z"}
    assert [str(t) for t in explanation.extra] == ["(b :instance boy)"]
    assert [str(t) for t in explanation.missing] == ["(y :instance girl)"]
    assert len(explanation.matched) == score.counts["matched"] == 6
    extra = explanation.extra[0]
    assert (extra.span.line, extra.span.column, extra.span.text) == (1, 21, "b / boy")
    top_cand, top_ref = next(
        pair for pair in explanation.matched if pair[0].triple[1] == "TOP"
    )
    assert top_cand.index == -1 and top_cand.span.text == "w"
    assert ref.text[top_ref.span.start - ref.start :].startswith("x")
    relation = next(c for c, r in explanation.matched if c.triple == ("g", "arg0", "b"))
    assert relation.span.text == ":ARG0 b"


def test_exact_mode_reports_bounds_and_optimality() -> None:
    tgt, src, rows = subtask("sts.main")
    metric = Smatch(compat="smatch-1.0.4", exact=True)
    for i in (268, 630, 657):
        cand, ref = tgt[i].graph, src[i].graph
        assert cand is not None and ref is not None
        score = metric.score(cand, ref)
        assert score.info["optimal"] is True
        assert score.counts["matched"] == score.counts["upper_bound"]
        assert score.counts["matched"] == int(rows[i]["smatch104_ilp_match"])


def test_exact_mode_time_limit_keeps_a_valid_bound() -> None:
    tgt, src, _ = subtask("para.reify")
    metric = Smatch(restarts=0, exact=True, time_limit=1e-3)
    for i in range(40):
        cand, ref = tgt[i].graph, src[i].graph
        assert cand is not None and ref is not None
        score = metric.score(cand, ref)
        assert score.counts["matched"] <= score.counts["upper_bound"]
        assert score.info["optimal"] == (
            score.counts["matched"] == score.counts["upper_bound"]
        )


def _scores(subtask_id: str, jobs: int = 1, **options: object) -> list[float]:
    tgt, src, _ = subtask(subtask_id)
    result = score_corpus(Smatch(**options), pair_corpora(src, tgt), jobs=jobs)
    return [s.f1 for s in result.pairs]


def test_same_seed_same_scores_in_another_process_and_hash_seed() -> None:
    tgt_path = SHARED_DATA / "bamboo" / "sts" / "role_confusion" / "tgt.dev.amr"
    src_path = SHARED_DATA / "bamboo" / "sts" / "role_confusion" / "src.dev.amr"
    code = (
        "import json, sys\n"
        "from amrcheck.reading.corpus import read_corpus\n"
        "from amrcheck.metrics.smatch import Smatch\n"
        "from amrcheck.pairing.graphs import pair_corpora, score_corpus\n"
        f"ref, cand = read_corpus({str(src_path)!r}), read_corpus({str(tgt_path)!r})\n"
        "pairs = pair_corpora(ref, cand)\n"
        "r = score_corpus(Smatch(compat='smatch-1.0.4', seed=7, restarts=2), pairs)\n"
        "print(json.dumps([s.f1 for s in r.pairs]))\n"
    )
    runs = [
        json.loads(
            subprocess.run(
                [sys.executable, "-c", code],
                capture_output=True,
                text=True,
                check=True,
                env={**os.environ, "PYTHONHASHSEED": seed},
            ).stdout
        )
        for seed in ("1", "987")
    ]
    here = _scores("sts.role_confusion", compat="smatch-1.0.4", seed=7, restarts=2)
    assert runs[0] == runs[1] == here


def test_jobs_give_identical_scores() -> None:
    assert _scores("sick.role_confusion", jobs=2) == _scores(
        "sick.role_confusion", jobs=1
    )


def test_options_are_typed_and_validated() -> None:
    assert metric_options("smatch", {"root": "concept", "time_limit": "2.5"}) == {
        "root": "concept",
        "time_limit": 2.5,
    }
    with pytest.raises(MetricError, match="options: compat, exact"):
        metric_options("smatch", {"restart": "3"})
    with pytest.raises(MetricError, match="root"):
        get_metric("smatch", root="top")
    with pytest.raises(MetricError, match="restarts"):
        get_metric("smatch", restarts=-1)
    metric = get_metric("smatch", seed=3)
    assert isinstance(metric, Smatch) and metric.options.seed == 3
    assert Smatch.from_options(metric.options).options == metric.options


def test_settings_state_the_root_policy() -> None:
    settings = Smatch(root="concept").settings()
    assert settings["root"] == "concept"
    assert "root=concept" in settings["standardization"]


# -- the alignment core, against brute force --------------------------------


def _brute_force(problem: AlignmentProblem) -> float:
    best = 0.0
    targets = list(range(problem.n2)) + [-1] * problem.n1
    for choice in set(permutations(targets, problem.n1)):
        best = max(best, problem.value(list(choice)))
    return best


@pytest.mark.parametrize("seed", range(30))
def test_search_and_ilp_agree_with_brute_force_on_small_problems(seed: int) -> None:
    import random

    rng = random.Random(seed)
    n1, n2 = rng.randint(1, 4), rng.randint(1, 4)
    unary = {p: rng.randint(1, 2) for p in range(n1 * n2) if rng.random() < 0.4}
    pairwise: dict[int, dict[int, float]] = {}
    for p in range(n1 * n2):
        for q in range(p + 1, n1 * n2):
            if p // n2 != q // n2 and p % n2 != q % n2 and rng.random() < 0.3:
                pairwise.setdefault(p, {})[q] = pairwise.setdefault(q, {})[p] = 1
    problem = problem_from_weights(n1, n2, unary, pairwise)
    optimum = _brute_force(problem)
    found = hill_climb(problem, restarts=2, seed=seed)
    assert found.value == problem.value(found.mapping) <= optimum <= found.upper_bound
    mapped = [j for j in found.mapping if j >= 0]
    assert len(mapped) == len(set(mapped))
    exact = solve_exact(problem, found, time_limit=10)
    assert exact.value == optimum == exact.upper_bound and exact.optimal


def test_module_doctest_example_matches_style_guide() -> None:
    assert Smatch().score(decode("(a / b)"), decode("(a / b)")).f1 == 1.0
    assert Path(Smatch.__module__.replace(".", "/") + ".py").name == "smatch.py"


def test_label_table_starts_over_without_changing_scores(monkeypatch) -> None:
    """A long-lived metric meets new labels with every pair; its label ids
    start over past a bound, and no score depends on them."""
    from amrcheck import read_corpus
    from amrcheck.metrics.smatch import LabelIds

    graphs = [e.graph for e in read_corpus(data_path("lsp/gold/lpp.amr")) if e.graph]
    pairs = [(a, b) for a in graphs for b in graphs]
    expected = [get_metric("smatch").score(a, b).f1 for a, b in pairs]
    monkeypatch.setattr(LabelIds, "MAX_LABELS", 8)
    metric = get_metric("smatch")
    assert [metric.score(a, b).f1 for a, b in pairs] == expected
    assert len(metric._ids) <= 8 + 2 * max(len(g.triples) for g in graphs)


def test_scoring_a_small_file_loads_neither_numpy_nor_numba(tmp_path: Path) -> None:
    # start-up is most of a small job's time: the command's own path (reading,
    # standardising, the plain search) needs neither library (issue 34)
    code = (
        "import sys\n"
        "from amrcheck.cli import main\n"
        "sys.argv = ['amrcheck', 'score', sys.argv[1], sys.argv[1], '-q']\n"
        "try:\n"
        "    main()\n"
        "except SystemExit as done:\n"
        "    assert not done.code, done.code\n"
        "print(sorted(m for m in ('numpy', 'numba', 'scipy') if m in sys.modules))\n"
    )
    path = SHARED_DATA / "bamboo" / "sts" / "role_confusion" / "tgt.dev.amr"
    done = subprocess.run(
        [sys.executable, "-c", code, str(path)],
        capture_output=True, text=True, check=True, cwd=tmp_path,
        env={**os.environ, "AMRCHECK_CACHE_DIR": str(tmp_path / "cache")},
    )
    assert done.stdout.splitlines()[-1] == "[]", done.stdout + done.stderr
