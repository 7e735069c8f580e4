"""evaluate(): per-pair scores held compactly come back as the metric gave them."""

from __future__ import annotations

from pathlib import Path

import pytest

from amrcheck.metrics import Score, get_metric
from amrcheck.reading.corpus import read_corpus
from amrcheck.workflows.evaluate import evaluate

GRAPHS = {
    "1": ("(a / want-01 :ARG0 (b / boy))", "(a / want-01 :ARG0 (b / girl))"),
    "2": ("(c / dog)", "(c / cat)"),
    "3": ("(d / run-02 :ARG0 (e / he))", "(d / run-02 :ARG0 (e / he))"),
    "4": ("(f / sing-01)", "(f / sing-01 :ARG0 (g / she))"),
}


def _write(path: Path, ids: list[str], side: int, broken: str | None = None) -> Path:
    blocks = [
        f"# ::id {key}\n" + (GRAPHS[key][side] if key != broken else "(x / y")
        for key in ids
    ]
    path.write_text("\n\n".join(blocks) + "\n", encoding="utf-8")
    return path


def _expected(ref: Path, cand: Path, keys: list[str]) -> list[Score]:
    """Each pair scored alone, in the reference's order (a broken candidate
    graph as an empty graph)."""
    smatch = get_metric("smatch")
    refs = {e.id: e.graph for e in read_corpus(ref)}
    cands = {e.id: e.graph for e in read_corpus(cand)}
    found = []
    for key in keys:
        reference, candidate = refs[key], cands.get(key)
        assert reference is not None
        found.append(
            smatch.score_missing(reference)
            if candidate is None
            else smatch.score(candidate, reference)
        )
    return found


def test_pairs_in_another_order_score_in_the_references_order(tmp_path: Path) -> None:
    ref = _write(tmp_path / "ref.amr", ["1", "2", "3", "4"], 0)
    # ids in another order: the pairs come once the files are read, and a
    # broken graph counts as empty
    cand = _write(tmp_path / "sys.amr", ["3", "1", "4", "2"], 1, broken="4")
    report = evaluate(ref, [cand], [get_metric("smatch")], chunk_pairs=1)
    (result,) = report.results
    assert result.ids == ["1", "2", "3", "4"]
    assert result.corpus.n_pairs == 4
    expected = _expected(ref, cand, result.ids)
    assert list(result.corpus.pair_scores()) == expected
    assert type(result.corpus.pairs) is list and result.corpus.pairs == expected
    assert result.corpus.macro_f1 == sum(s.f1 for s in expected) / 4


def test_a_comparison_keeps_the_pairs_both_candidates_have(tmp_path: Path) -> None:
    ref = _write(tmp_path / "ref.amr", ["1", "2", "3", "4"], 0)
    a = _write(tmp_path / "a.amr", ["2", "1", "3", "4"], 1, broken="3")
    b = _write(tmp_path / "b.amr", ["1", "2", "3", "4"], 1)
    report = evaluate(
        ref, [a, b], [get_metric("smatch")], compare=True, skip_unreadable=True,
        resamples=50,
    )
    first, second = report.results
    assert first.ids == second.ids == ["1", "2", "4"]
    assert list(first.corpus.pair_scores()) == _expected(ref, a, first.ids)
    assert list(second.corpus.pair_scores()) == _expected(ref, b, second.ids)
    (comparison,) = report.comparisons
    assert comparison.pairs == 3
    assert comparison.test.f1_a == pytest.approx(first.corpus.micro.f1)
