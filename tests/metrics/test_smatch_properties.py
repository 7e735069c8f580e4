"""Metric principles I-IV (SPEC §4) for smatch, as Hypothesis properties."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from amrcheck.graph import Graph
from amrcheck.metrics.smatch import Smatch
from amrcheck.reading.corpus import decode

CONCEPTS = ["want-01", "boy", "girl", "go-02", "and", "city", "name", "big"]
ROLES = [":ARG0", ":ARG1", ":ARG1-of", ":mod", ":op1", ":domain"]
CONSTANTS = ["-", "1", '"Paris"', "paris", "imperative"]


@st.composite
def amr_texts(draw: st.DrawFn, prefix: str = "v") -> str:
    """A random connected PENMAN graph with reentrancies and constants."""
    size = draw(st.integers(1, 6))
    concepts = [draw(st.sampled_from(CONCEPTS)) for _ in range(size)]
    parent = [-1] + [draw(st.integers(0, i - 1)) for i in range(1, size)]
    children: dict[int, list[str]] = {i: [] for i in range(size)}
    for child in range(1, size):
        children[parent[child]].append(f"{draw(st.sampled_from(ROLES))} @{child}")
    for _ in range(draw(st.integers(0, 2))):  # reentrancies
        a, b = draw(st.integers(0, size - 1)), draw(st.integers(0, size - 1))
        children[a].append(f"{draw(st.sampled_from(ROLES))} {prefix}{b}")
    for _ in range(draw(st.integers(0, 2))):
        node = draw(st.integers(0, size - 1))
        role = draw(st.sampled_from([":polarity", ":quant", ":wiki"]))
        children[node].append(f"{role} {draw(st.sampled_from(CONSTANTS))}")

    def render(node: int) -> str:
        parts = [f"({prefix}{node} / {concepts[node]}"]
        for edge in children[node]:
            role, target = edge.split(" ", 1)
            parts.append(
                f"{role} "
                f"{render(int(target[1:])) if target.startswith('@') else target}"
            )
        return " ".join(parts) + ")"

    return render(0)


def _graph(text: str) -> Graph:
    return decode(text)


DEFAULT, EXACT = Smatch(), Smatch(exact=True)


@settings(max_examples=150, deadline=None)
@given(amr_texts())
def test_self_score_is_exactly_one(text: str) -> None:
    graph = _graph(text)
    assert DEFAULT.score(graph, graph).f1 == 1.0


@settings(max_examples=150, deadline=None)
@given(amr_texts(), amr_texts())
def test_scores_are_in_the_unit_interval(a: str, b: str) -> None:
    for metric in (DEFAULT, Smatch(root="concept")):
        score = metric.score(_graph(a), _graph(b))
        assert 0.0 <= score.f1 <= 1.0
        assert score.counts["matched"] <= score.counts["upper_bound"]


@settings(max_examples=100, deadline=None)
@given(amr_texts(), amr_texts())
def test_invariant_under_variable_renaming(a: str, b: str) -> None:
    renamed = a.replace("(v", "(zz").replace(" v", " zz")
    assert renamed != a
    for metric in (DEFAULT, EXACT):
        assert (
            metric.score(_graph(renamed), _graph(b)).f1
            == metric.score(_graph(a), _graph(b)).f1
        )


@settings(max_examples=100, deadline=None)
@given(amr_texts(), amr_texts())
def test_f1_is_symmetric_at_the_optimum(a: str, b: str) -> None:
    forward = EXACT.score(_graph(a), _graph(b))
    backward = EXACT.score(_graph(b), _graph(a))
    assert forward.f1 == backward.f1
    assert (forward.precision, forward.recall) == (backward.recall, backward.precision)


@settings(max_examples=50, deadline=None)
@given(amr_texts(), amr_texts(), st.integers(0, 2**32))
def test_deterministic_for_a_seed(a: str, b: str, seed: int) -> None:
    first = Smatch(seed=seed).score(_graph(a), _graph(b))
    second = Smatch(seed=seed).score(_graph(a), _graph(b))
    assert (first.f1, first.counts) == (second.f1, second.counts)
