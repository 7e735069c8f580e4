"""Every option of every registered metric is usable from the command line."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import amrcheck.cli.score  # noqa: F401 (registers the command)
from amrcheck.cli import app
from amrcheck.learned.checkpoint import SHIPPED_WEIGHTS
from amrcheck.metrics import (
    ALIASES,
    Metric,
    OptionSpec,
    get_metric,
    metric_names,
    option_specs,
)
from amrcheck.metrics.sembleu import SemBleu
from amrcheck.metrics.wwlk import DEFAULT_WEIGHTS
from amrcheck.pairing.graphs import pair_corpora, score_corpus
from amrcheck.reading.corpus import read_corpus

from ..conftest import data_path, shared_path

runner = CliRunner()
GOLD = shared_path("multi_annotator_toy/comptest_gold.txt")
SYSTEM = shared_path("multi_annotator_toy/comptest_sys.txt")
VECTORS = data_path("vectors/glove-mini.50d.txt")
#: a real file for each option that names one
FILES = {
    ("amrsim", "weights"): SHIPPED_WEIGHTS,
    ("wwlk-theta", "weights"): DEFAULT_WEIGHTS,
}
#: options that take effect only with another: that one is given too
COMPANIONS = {("sema", "uncapped"): ["sema.compat=reference"]}
#: values the metric refuses, rightly (the shipped wwlk-theta weights were
#: trained with K = 2 and average updates): the message says why
REFUSED = {
    ("wwlk-theta", "iterations"): "weights were trained with iterations=2, not 3",
    ("wwlk-theta", "update"): "weights were trained with update=average, not add",
}
METRICS = [name for name in metric_names() if name not in ALIASES]
OPTIONS = [(name, spec) for name in METRICS for spec in option_specs(name)]


def other_value(metric: str, spec: OptionSpec) -> tuple[str, Any]:
    """A value of ``spec`` other than its default: (as written, as parsed)."""
    if spec.kind == "vectors":
        return str(VECTORS), str(VECTORS)
    if spec.kind == "path":
        path = FILES[metric, spec.name]
        return str(path), str(path)
    if spec.type.startswith("one of "):
        choices = spec.type.removeprefix("one of ").split(", or none")[0].split("|")
        choice = next(c for c in choices if c != spec.default)
        return choice, choice
    if spec.type.startswith("bool"):
        return ("false", False) if spec.default else ("true", True)
    if spec.type == "int":
        return str(spec.default + 1), spec.default + 1
    if spec.type in ("float", "float, or none"):
        return str(spec.default / 2), spec.default / 2
    if spec.type.startswith("floats"):
        return "0.5, 0.3, 0.2", (0.5, 0.3, 0.2)
    raise AssertionError(f"no test value for {metric} {spec.name}: {spec.type}")


def score_json(*args: str) -> dict[str, Any]:
    result = runner.invoke(app, ["score", str(GOLD), str(SYSTEM), "--json", *args])
    assert result.exit_code == 0, result.output
    report: dict[str, Any] = json.loads(result.stdout)
    return report


def test_every_metric_has_typed_options() -> None:
    assert len(METRICS) >= 10 and len(OPTIONS) >= 40
    assert all(not spec.type.startswith("text") for _, spec in OPTIONS), [
        (m, s.name) for m, s in OPTIONS if s.type.startswith("text")
    ]


@pytest.mark.parametrize(
    ("metric", "spec"), OPTIONS, ids=[f"{m}.{s.name}" for m, s in OPTIONS]
)
def test_every_option_of_every_metric_passes_through_the_cli(
    metric: str, spec: OptionSpec
) -> None:
    written, parsed = other_value(metric, spec)
    assert spec.parse(written) == parsed
    listed = runner.invoke(app, ["score", "--list-options", metric])
    assert listed.exit_code == 0, listed.output
    assert any(line.split()[:1] == [spec.name] and spec.type in line
               for line in listed.stdout.splitlines())
    args = ["-m", metric, "-o", f"{metric}.{spec.name}={written}"]
    for companion in COMPANIONS.get((metric, spec.name), []):
        args += ["-o", companion]
    if (metric, spec.name) in REFUSED:
        refused = runner.invoke(app, ["score", str(GOLD), str(SYSTEM), *args])
        assert refused.exit_code == 2
        assert REFUSED[metric, spec.name] in refused.stderr
        return
    result = score_json(*args)["results"][0]
    # the same score as the metric built in Python with the typed values
    typed = {spec.name: parsed}
    for companion in COMPANIONS.get((metric, spec.name), []):
        key, _, value = companion.partition("=")
        typed[key.split(".")[1]] = value
    expected = engine_f1(get_metric(metric, **typed))
    assert result["micro"]["f1"] == pytest.approx(expected, abs=1e-12)
    shown = result["settings"].get(spec.name)
    if isinstance(parsed, str):  # a path's settings may say more about it
        assert shown is None or Path(parsed).name in str(shown)
    elif shown is not None:
        assert (tuple(shown) if isinstance(parsed, tuple) else shown) == parsed


def engine_f1(metric: Metric) -> float:
    pairs = pair_corpora(read_corpus(GOLD), read_corpus(SYSTEM))
    return score_corpus(metric, pairs).micro.f1


@pytest.mark.parametrize(
    ("option", "message"),
    [
        ("sembleu.weights=0.5,x", "option weights='0.5,x': expected a float"),
        ("smatch.restarts=many", "option restarts='many': expected an int"),
        ("smatch.exact=maybe", "option exact='maybe': expected true or false"),
        ("smatch.root=leaf", "option root='leaf': expected one of variable, concept"),
        ("amrsim.weights=/nonexistent.safetensors", "expected a path to a file"),
    ],
)
def test_a_wrong_value_names_the_option_the_value_and_the_type(
    option: str, message: str
) -> None:
    metric = option.split(".")[0]
    args = ["score", str(GOLD), str(SYSTEM), "-m", metric, "-o", option]
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    assert message in result.stderr and "Traceback" not in result.output


def test_sembleus_own_default_weights_from_the_cli_equal_the_api() -> None:
    theirs = (0.34, 0.33, 0.33)  # SemBleu's own eval.py, n = 3
    result = score_json("-m", "sembleu", "-o", "weights=0.34,0.33,0.33")["results"][0]
    assert tuple(result["settings"]["weights"]) == theirs
    assert result["micro"]["f1"] == engine_f1(SemBleu(weights=theirs))
    uniform = score_json("-m", "sembleu")["results"][0]["micro"]["f1"]
    assert result["micro"]["f1"] != uniform
