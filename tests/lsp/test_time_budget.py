"""The editor's search budget (``amrcheck.timeBudget``, issue 35): a large
graph is scored in bounded time, cut and said so."""

from __future__ import annotations

from pathlib import Path

import pytest

from amr_lsp.compare import Comparer
from amr_lsp.config import Settings, load_settings
from amrcheck.reading.corpus import read_corpus

LARGE = Path(__file__).resolve().parents[1] / "data" / "large"


def test_the_setting_is_read_and_checked() -> None:
    settings, problems = load_settings({"timeBudget": 0.5})
    assert settings.time_budget == 0.5 and problems == []
    settings, problems = load_settings({"timeBudget": 0})
    assert settings.time_budget == Settings().time_budget == 1.0
    assert problems == ["timeBudget: must be between 0.01 and 600 (default used)"]


def test_the_budget_reaches_every_metric_that_searches() -> None:
    comparer = Comparer("smatch", {}, time_budget=0.25)
    assert comparer.metric.options.time_budget == 0.25  # type: ignore[attr-defined]
    # with ``exact``, the ILP's limit too, as ``--time-budget`` on the CLI;
    # and always for the diff's alignment, which is exact
    assert comparer.metric.options.time_limit == 0.25  # type: ignore[attr-defined]
    assert comparer.aligner.options.time_limit == 0.25  # type: ignore[attr-defined]
    # the metric's own option wins
    own = Comparer("smatch", {"time_budget": 2.0}, time_budget=0.25)
    assert own.metric.options.time_budget == 2.0  # type: ignore[attr-defined]
    # a metric that does not search takes none; its diff alignment does
    other = Comparer("sembleu", {}, time_budget=0.25)
    assert other.aligner.options.time_budget == 0.25  # type: ignore[attr-defined]


@pytest.mark.slow
def test_a_large_graph_is_cut_and_said_so() -> None:
    (reference,) = read_corpus(LARGE / "little_prince_40_joined.ref.amr")
    (candidate,) = read_corpus(LARGE / "little_prince_40_joined.cand.amr")
    assert candidate.graph is not None
    comparison = Comparer("smatch", {}, time_budget=1e-9).compare(
        candidate.graph, reference, 0
    )
    counts = comparison.score.counts
    assert counts["cut"] == 1 and counts["optimal"] == 0
    assert counts["matched"] <= counts["upper_bound"]
    # the diff's alignment (exact) is cut too: its ILP, not proven optimal
    # within the budget, no longer runs on for its own 30 s (7 s here)
    # while every other document waits behind it in the engine thread
    assert comparison.alignment_cut
