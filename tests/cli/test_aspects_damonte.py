"""``score --aspects --compat damonte``: Damonte et al.'s definitions, said so."""

from __future__ import annotations

import json

from typer.testing import CliRunner

import amrcheck.cli.score  # noqa: F401 (the command registers on import)
from amrcheck.cli import app
from amrcheck.metrics.aspects import aggregate_aspects, aspect_scores
from amrcheck.metrics.smatch import Smatch
from amrcheck.reading.corpus import read_corpus
from tests.conftest import shared_path

runner = CliRunner()
GOLD = shared_path("multi_annotator_toy/comptest_gold.txt")
SYSTEM = shared_path("multi_annotator_toy/comptest_sys.txt")


def test_damonte_needs_aspects() -> None:
    result = runner.invoke(
        app, ["score", str(GOLD), str(SYSTEM), "--compat", "damonte"]
    )
    assert result.exit_code == 2
    assert "--compat damonte is the aspects' definitions" in result.output


def test_damonte_aspects_are_their_definitions_and_said_so() -> None:
    result = runner.invoke(
        app,
        ["score", str(GOLD), str(SYSTEM), "--aspects", "--compat", "damonte", "--json"],
    )
    assert result.exit_code == 0, result.output
    (found,) = json.loads(result.stdout)["results"]
    assert found["aspect_definitions"] == "damonte"
    assert found["settings"]["compat"] == "smatch-1.0.4"
    assert found["settings"]["root"] == "concept"
    # the same figures as the engine gives by those definitions
    metric = Smatch(compat="smatch-1.0.4", root="concept")
    pairs = [
        aspect_scores(metric, c.graph, r.graph, "damonte")
        for c, r in zip(read_corpus(SYSTEM), read_corpus(GOLD), strict=True)
        if c.graph is not None and r.graph is not None
    ]
    expected = aggregate_aspects(pairs, "damonte")
    for name, score in expected.items():
        assert found["aspects"][name]["f1"] == score.f1, name
    text = runner.invoke(
        app, ["score", str(GOLD), str(SYSTEM), "--aspects", "--compat", "damonte"]
    )
    assert "(Damonte et al.'s definitions)" in text.output
