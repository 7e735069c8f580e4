"""Scores held in columns (:class:`ScoreColumns`) come back as they went in."""

from __future__ import annotations

import math
import pickle
from dataclasses import replace
from typing import Any, ClassVar

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from amrcheck.graph import Graph
from amrcheck.metrics import (
    Explanation,
    Metric,
    Score,
    ScoreColumns,
    corpus_score,
    get_metric,
)
from amrcheck.metrics._protocol import MeanOfPairs, count_column, micro_prf

_KEYS = ["matched", "candidate", "reference", "similarity", "pairs"]
_NUMBERS = st.one_of(
    st.floats(allow_nan=False), st.none(), st.integers(-5, 5), st.just(-0.0)
)
_VALUES = st.one_of(
    st.integers(-(2**40), 2**40),
    st.floats(allow_nan=False),
    st.booleans(),
    st.text(max_size=3),
)


@st.composite
def scores(draw: st.DrawFn) -> Score:
    # any values, of any types, whatever the annotations say: held as given
    counts: Any = draw(st.dictionaries(st.sampled_from(_KEYS), _VALUES, max_size=4))
    info = draw(st.dictionaries(st.sampled_from(["optimal", "method"]), _VALUES))
    explained = draw(st.booleans()) and draw(st.booleans())
    f1: Any = draw(_NUMBERS)
    return Score(
        f1,
        draw(_NUMBERS),
        draw(_NUMBERS),
        counts,
        Explanation() if explained else None,
        info,
    )


def _same(found: Score, score: Score) -> None:
    """Equal, and of the same types, with the keys in the same order."""
    assert found == score
    for name in ("f1", "precision", "recall"):
        assert type(getattr(found, name)) is type(getattr(score, name))
    for mine, theirs in ((found.counts, score.counts), (found.info, score.info)):
        assert list(mine.items()) == list(theirs.items())
        assert [type(v) for v in mine.values()] == [type(v) for v in theirs.values()]


# a loaded machine draws slowly: the health check would fail the test for it
@settings(suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(scores(), max_size=8), st.randoms())
def test_held_scores_come_back_as_they_went_in(
    added: list[Score], random: Any
) -> None:
    columns = ScoreColumns(added)
    assert len(columns) == len(added)
    for found, score in zip(columns, added, strict=True):
        _same(found, score)
    for index in range(-len(added), len(added)):
        _same(columns[index], added[index])
    assert columns[1:3] == added[1:3]
    assert columns.column(0) == [s.f1 for s in added]
    assert columns.column(1) == [s.precision for s in added]
    assert columns.column(2) == [s.recall for s in added]
    keys = list(dict.fromkeys(k for s in added for k in s.counts))
    assert columns.count_keys() == keys
    assert list(columns.rows(keys)) == [
        (s.precision, s.recall, s.f1, *map(s.counts.get, keys)) for s in added
    ]
    for key in _KEYS:
        assert columns.count_column(key, None) == [s.counts.get(key) for s in added]
    order = random.sample(range(len(added)), k=len(added) // 2)
    for found, at in zip(columns.taken(order), order, strict=True):
        _same(found, added[at])


def test_a_nan_is_held_apart_from_none() -> None:
    nan = float("nan")
    held = ScoreColumns([Score(nan, None, 0.5), Score(0.5, nan, None)])
    first, second = held
    assert math.isnan(first.f1) and first.precision is None and first.recall == 0.5
    assert second.f1 == 0.5 and second.recall is None
    assert second.precision is not None and math.isnan(second.precision)
    assert held.column(1)[0] is None and math.isnan(held.column(1)[1])


def test_an_explained_score_is_held_whole() -> None:
    score = Score(0.5, 0.5, 0.5, {"matched": 1}, Explanation(details={"x": 1}))
    assert ScoreColumns([score])[0] is score


class _Mean(MeanOfPairs):
    """A metric whose aggregate reads built scores (it says nothing of columns)."""

    name: ClassVar[str] = "mean"

    def score(self, candidate: Graph, reference: Graph, explain: bool = False) -> Score:
        return Score(1.0, counts={"similarity": 1.0, "pairs": 1.0})


def test_a_corpus_of_held_scores_has_the_figures_of_a_list_of_them() -> None:
    smatch, rematch = get_metric("smatch"), get_metric("rematch")
    mean: Metric = _Mean()
    pairs = [
        Score(0.5, 0.4, 2 / 3, {"matched": 2, "candidate": 5, "reference": 3}),
        Score(1.0, 1.0, 1.0, {"matched": 1, "candidate": 1, "reference": 1}),
        Score(0.0, None, 0.0, {"matched": 0, "candidate": 0, "reference": 4}),
    ]
    for metric in (smatch, rematch, mean):  # columns read as they are, or not
        held = corpus_score(metric, ScoreColumns(pairs), {"seed": 0})
        plain = corpus_score(metric, pairs, {"seed": 0})
        assert held.n_pairs == 3 and list(held.pair_scores()) == pairs
        assert (held.micro, held.macro_f1, held.macro_precision, held.macro_recall) == (
            plain.micro,
            plain.macro_f1,
            plain.macro_precision,
            plain.macro_recall,
        )
        for copied in (pickle.loads(pickle.dumps(held)), replace(held, metric="x")):
            assert copied.pairs == pairs and copied.micro == plain.micro
        assert type(held.pairs) is list and held.pairs == pairs  # read: built
        held.pairs.append(pairs[0])  # a list like any corpus score's
        assert held.n_pairs == 4 and len(held.pair_scores()) == 4
    assert micro_prf(ScoreColumns(pairs)) == micro_prf(pairs)
    for key in ("matched", "similarity"):
        assert count_column(ScoreColumns(pairs), key) == count_column(pairs, key)
