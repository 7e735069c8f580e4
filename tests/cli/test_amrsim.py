"""amrsim in the command line: score (--jobs), diff, bench, train, bad input."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO, shared_path

pytest.importorskip(
    "torch", reason="the learned extra: pip install 'amrcheck[learned]'"
)

SICK = "bamboo/sick/main"
REF, CAND = shared_path(f"{SICK}/src.dev.amr"), shared_path(f"{SICK}/tgt.dev.amr")
CLI = [sys.executable, "-c", "from amrcheck.cli import main; main()"]


def amrcheck(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*CLI, *map(str, args)], capture_output=True, text=True, cwd=REPO
    )


@pytest.mark.slow
def test_score_gives_the_same_pairs_with_any_jobs(tmp_path) -> None:
    one, two = tmp_path / "one.tsv", tmp_path / "two.tsv"
    first = amrcheck("score", REF, CAND, "-m", "amrsim", "--per-pair", one, "-q")
    second = amrcheck(
        "score", REF, CAND, "-m", "amrsim", "--per-pair", two, "-q", "--jobs", "2"
    )
    assert first.returncode == second.returncode == 0, first.stderr + second.stderr
    assert one.read_text() == two.read_text()
    assert first.stdout == second.stdout
    assert 0.0 < float(first.stdout.split()[-1]) < 1.0


@pytest.mark.slow
def test_threads_above_one_are_refused_in_forked_workers(tmp_path) -> None:
    done = amrcheck(
        "score", REF, CAND, "-m", "amrsim", "-o", "threads=2", "--jobs", "2", "-q"
    )
    assert done.returncode == 2
    assert "use threads=1 with --jobs" in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.slow
def test_unparseable_graphs_are_reported_and_skipped(tmp_path) -> None:
    text = CAND.read_text(encoding="utf-8")
    blocks = text.split("\n\n")
    blocks[3] = blocks[3].replace("(", "((", 1)
    broken = tmp_path / "cand.amr"
    broken.write_text("\n\n".join(blocks), encoding="utf-8")
    done = amrcheck("score", REF, broken, "-m", "amrsim", "--json")
    # issue 21: the broken graph counts as an empty graph (similarity 0), exit 1
    assert done.returncode == 1, done.stderr
    assert f"{broken}:" in done.stderr and "1 input error(s)" in done.stderr
    assert "Traceback" not in done.stderr
    (result,) = json.loads(done.stdout)["results"]
    assert result["counted_empty"] == 1 and result["left_out"] == 0


def test_missing_extra_is_one_line() -> None:
    script = (
        "import sys; sys.modules['torch'] = None\n"
        "from amrcheck.cli import main\n"
        "sys.argv = ['amrcheck', 'score', sys.argv[1], sys.argv[2], '-m', 'amrsim']\n"
        "main()\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, str(REF), str(CAND)],
        capture_output=True,
        text=True,
        cwd=REPO,
    )
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1
    assert "pip install" in lines[0] and "amrcheck[learned]" in lines[0]


@pytest.mark.slow
def test_diff_with_amrsim_scores_changed_graphs(tmp_path) -> None:
    old = shared_path("multi_annotator_toy/comptest_annot1.txt")
    new = shared_path("multi_annotator_toy/comptest_annot3.txt")
    done = amrcheck("diff", old, new, "--metric", "amrsim")
    assert done.returncode == 1, done.stderr
    assert "amrsim" in done.stdout


@pytest.mark.slow
def test_bench_principles_hold(tmp_path) -> None:
    corpus = tmp_path / "corpus.amr"
    corpus.write_text(
        "\n\n".join(CAND.read_text(encoding="utf-8").split("\n\n")[1:21]) + "\n",
        encoding="utf-8",
    )
    done = amrcheck("bench", "principles", corpus, "-m", "amrsim", "-q")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "amrsim" in done.stdout


@pytest.mark.slow
def test_bench_bamboo_role_confusion(tmp_path) -> None:
    done = amrcheck(
        "bench",
        "bamboo",
        "--data",
        shared_path("bamboo"),
        "-m",
        "amrsim",
        "--task",
        "sick.role_confusion",
        "-q",
    )
    assert done.returncode == 0, done.stderr
    assert "amrsim" in done.stdout


@pytest.mark.slow
def test_train_amrsim_reports_bad_graphs_and_writes_weights(tmp_path) -> None:
    graphs = tmp_path / "graphs.amr"
    good = shared_path("little_prince/amr-bank-struct-v3.0.txt").read_text("utf-8")
    blocks = good.split("\n\n")[:12]
    blocks[2] = blocks[2].replace("(", "((", 1)
    graphs.write_text("\n\n".join(blocks) + "\n", encoding="utf-8")
    out = tmp_path / "w.safetensors"
    done = amrcheck("train", "amrsim", graphs, "--out", out, "--steps", "2")
    assert done.returncode == 0, done.stderr
    assert f"{graphs}:" in done.stderr and "1 input error(s)" in done.stderr
    assert out.is_file() and (tmp_path / "w.state").is_file()
    score = amrcheck(
        "score", graphs, graphs, "-m", "amrsim", "-o", f"weights={out}", "-q"
    )
    # issue 21: the reference graph that cannot be read leaves its pair out
    assert score.returncode == 1, score.stderr
    assert "0 graphs counted as empty, 1 pair left out" in score.stderr
    assert score.stdout.split()[-1] == "1.0000"


@pytest.mark.slow
def test_train_amrsim_writes_the_tension_weights_too(tmp_path) -> None:
    graphs = shared_path("little_prince/amr-bank-struct-v3.0.txt")
    lines = graphs.read_text("utf-8").split("\n\n")[:10]
    small = tmp_path / "graphs.amr"
    small.write_text("\n\n".join(lines) + "\n", encoding="utf-8")
    out, tension = tmp_path / "w.safetensors", tmp_path / "ct.safetensors"
    done = amrcheck(
        "train", "amrsim", small, "--out", out, "--tension-out", tension,
        "--steps", "2", "--lora-rank", "2", "--lora-layers", "1", "-q",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert out.is_file() and tension.is_file()


def test_train_amrsim_refuses_cuda_clearly_without_a_gpu(tmp_path) -> None:
    torch = pytest.importorskip("torch")
    if torch.cuda.is_available():
        pytest.skip("a CUDA GPU is here: the refusal cannot be shown")
    done = amrcheck(
        "train", "amrsim", shared_path("amr_guidelines/guidelines_examples.amr"),
        "--out", tmp_path / "w.safetensors", "--steps", "1", "--device", "cuda",
    )  # fmt: skip
    assert done.returncode == 2, done.stderr
    assert "no CUDA GPU is usable here" in done.stderr and "--device cpu" in done.stderr
    assert "Traceback" not in done.stderr
    assert not (tmp_path / "w.safetensors").exists()
