"""``amrcheck train wwlk``: weights file, loading back as wwlk-theta, errors."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

import amrcheck.cli.score  # noqa: E402,F401  (registers the command)
import amrcheck.cli.train  # noqa: E402,F401
from amrcheck.cli import app  # noqa: E402
from tests.conftest import data_path, shared_path  # noqa: E402

runner = CliRunner()
MINI = data_path("vectors/glove-mini.50d.txt")
SICK = "bamboo/sick/main"
A, B = shared_path(f"{SICK}/tgt.dev.amr"), shared_path(f"{SICK}/src.dev.amr")


def _scores(tmp_path: Path) -> Path:
    # BAMBOO's dev.y has a value for every pair (filler at dummies); nan drops pair 0
    values = shared_path("bamboo/sick/dev.y").read_text().split()
    path = tmp_path / "y.txt"
    path.write_text("\n".join(["nan", *values[1:]]) + "\n")
    return path


def train(
    tmp_path: Path, *extra: str, scores: Path | None = None
) -> tuple[int, str, Path]:
    """``amrcheck train wwlk`` on the test pairs (``scores``: the gold
    scores file, default the real ones), 12 steps."""
    out = tmp_path / "weights.json"
    result = runner.invoke(
        app,
        [
            "train",
            "wwlk",
            "--pairs",
            str(A),
            str(B),
            "--scores",
            str(scores or _scores(tmp_path)),
            "--out",
            str(out),
            "--vectors",
            str(MINI),
            "--steps",
            "12",
            "--evaluate-every",
            "6",
            *extra,
        ],
    )
    return result.exit_code, result.output, out


def test_trains_and_loads_back_as_wwlk_theta(tmp_path: Path) -> None:
    code, output, out = train(tmp_path)
    assert code == 0, output
    assert output.startswith("dev Pearson ") and str(out) in output
    document = json.loads(out.read_text())
    assert document["settings"]["iterations"] == 2
    assert (
        document["training"]["pairs"] == 501
        and len(document["training"]["history"]) == 2
    )
    assert ":arg0" in document["weights"]
    scored = runner.invoke(
        app,
        [
            "score",
            str(B),
            str(A),
            "-m",
            "wwlk-theta",
            "--vectors",
            str(MINI),
            "-o",
            f"weights={out}",
            "-q",
        ],
    )
    assert scored.exit_code == 0, scored.output


def test_same_seed_same_weights(tmp_path: Path) -> None:
    runs = []
    for name in ("a", "b"):
        folder = tmp_path / name
        folder.mkdir()
        runs.append(json.loads(train(folder)[2].read_text())["weights"])
    assert runs[0] == runs[1]


def test_errors_exit_2_without_traceback(tmp_path: Path) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text("0.5\n")
    code, output, out = train(tmp_path, scores=bad)
    assert code == 2 and not out.exists()
    assert "1 scores for 502 graph pairs" in output
    code, output, _ = train(tmp_path, "--batch-size", "1")
    assert code == 2 and "batch_size" in output
