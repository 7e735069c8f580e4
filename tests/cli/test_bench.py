"""``amrcheck bench``: BAMBOO parity through the CLI, RARE, principles, speed, plots."""

from __future__ import annotations

import builtins
import csv
import importlib.util
import json
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import amrcheck.cli.bench  # noqa: F401  (registers the commands on `app`)
from amrcheck.cli import app
from tests.broken import BROKEN, CANDIDATE, REFERENCE, break_graph, little_bamboo
from tests.conftest import SHARED_DATA, data_path, shared_path

runner = CliRunner()
BAMBOO = SHARED_DATA / "bamboo"
TABLE = SHARED_DATA / "reference_scores" / "bamboo_dev" / "bamboo_dev_table.tsv"
GUIDELINES = shared_path("amr_guidelines/guidelines_examples.amr")
SMALL = ["--task", "sts.role_confusion,sick.main"]


def run(*args: str | Path):
    return runner.invoke(app, ["bench", *map(str, args)])


def reference_row(column: str) -> dict[str, float]:
    with TABLE.open(newline="") as handle:
        rows = {r["metric"]: r for r in csv.DictReader(handle, delimiter="\t")}
    return {k: float(v) for k, v in rows[column].items() if k != "metric"}


def bamboo_json(*args: str) -> dict[str, Any]:
    result = run("bamboo", "--data", BAMBOO, "--json", *args)
    assert result.exit_code == 0, result.output
    report: dict[str, Any] = json.loads(result.stdout)
    return report


@pytest.mark.slow
def test_bamboo_rematch_full_dev_table_equals_the_reference() -> None:
    report = bamboo_json("-m", "rematch", "--compat", "reference", "--jobs", "2")
    assert report["version"] == 1 and report["split"] == "dev"
    (row,) = report["results"]
    expected = reference_row("rematch")
    assert list(row["tasks"]) == list(expected)[:12]
    for task, value in row["tasks"].items():
        assert value == pytest.approx(expected[task], abs=1e-9), task
    assert row["amean"] == pytest.approx(expected["AMEAN"], abs=1e-9)


def test_with_reference_adds_the_reference_amean_issue_24() -> None:
    report = bamboo_json("-m", "wlk,smatch,wlmatch-v1", "--with-reference", *SMALL)
    rows = {row["metric"]: row for row in report["results"]}
    (alone,) = bamboo_json("-m", "wlk", "--compat", "reference", *SMALL)["results"]
    assert rows["wlk"]["amean_reference"] == alone["amean"]
    assert rows["wlk"]["amean_reference"] != rows["wlk"]["amean"]
    assert "amean_reference" in rows["smatch"]  # smatch 1.0.4
    assert "amean_reference" not in rows["wlmatch-v1"]  # it has no other


def test_compat_reference_is_refused_by_a_metric_without_one_issue_24() -> None:
    result = run(
        "bamboo", "--data", BAMBOO, "-m", "wlmatch-v1", "--compat", "reference"
    )
    assert result.exit_code == 2
    assert "--compat does not apply to wlmatch-v1" in result.output


@pytest.mark.parametrize(
    ("options", "column"),
    [
        (["--compat", "smatch-1.0.4", "--exact"], "smatch104_ilp_f1"),
        (
            ["--compat", "raw", "--root", "concept", "--exact"],
            "smatchpp_ilp_rootconcept_f1",
        ),
    ],
)
def test_bamboo_smatch_settings_reproduce_reference_columns(
    options: list[str], column: str
) -> None:
    (row,) = bamboo_json("-m", "smatch", *options, *SMALL)["results"]
    expected = reference_row(column)
    assert set(row["tasks"]) == {"sts.role_confusion", "sick.main"}
    for task, value in row["tasks"].items():
        assert value == pytest.approx(expected[task], abs=1e-9), task
    assert row["settings"]["exact"] is True


def test_bamboo_text_table_and_task_errors() -> None:
    result = run(
        "bamboo", "--data", BAMBOO, "-m", "rematch", "--task", "sick.role_confusion"
    )
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[1].split() == ["metric", "SICK(role)", "AMEAN"]
    assert lines[2].split() == ["rematch", "92.00", "92.00"]
    assert "AMEAN over 1 of 12 subtasks" in result.stdout
    assert run("bamboo", "--data", BAMBOO, "--task", "sick.nope").exit_code == 2
    missing = run("bamboo", "--data", "/nonexistent", "-m", "rematch")
    assert missing.exit_code == 2 and "BAMBOO file not found" in missing.stderr


@pytest.mark.slow
def test_bamboo_all_is_a_leaderboard_of_every_metric_issue_16(
    tmp_path: Path,
) -> None:
    """--metric all: every registered metric (aliases once), best first,
    the best value of each column marked; --plot draws the leaderboard."""
    from amrcheck.metrics import ALIASES, metric_names

    tasks = ["--task", "sick.main,para.role_confusion"]
    report = bamboo_json("-m", "all", *tasks)
    names = [row["metric"] for row in report["results"]]
    assert sorted(names) == sorted(n for n in metric_names() if n not in ALIASES)
    ameans = [row["amean"] for row in report["results"]]
    assert ameans == sorted(ameans, reverse=True)
    chart = tmp_path / "leaderboard.png"
    plot = [] if importlib.util.find_spec("matplotlib") is None else ["--plot", chart]
    result = run("bamboo", "--data", BAMBOO, "-m", "all", *tasks, *plot)
    assert result.exit_code == 0, result.output
    rows = {
        line.split()[0]: line.split()[1:4]
        for line in result.stdout.splitlines()
        if line.split() and line.split()[0] in names
    }
    for column in range(3):
        values = {n: float(cells[column].rstrip("*")) for n, cells in rows.items()}
        marked = {name for name, cells in rows.items() if cells[column].endswith("*")}
        assert marked == {n for n, v in values.items() if v == max(values.values())}
    assert "* best in its column" in result.stdout
    if plot:
        assert chart.read_bytes()[:4] == b"\x89PNG"


def test_plots_or_a_clear_error_naming_the_extra(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    chart = tmp_path / "runtime.png"
    args = ("speed", GUIDELINES, "-m", "rematch", "--plot", chart, "-q")
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        result = run(*args)
        assert result.exit_code == 2 and "pip install 'amrcheck[plot]'" in result.stderr
    else:
        result = run(*args)
        assert result.exit_code == 0, result.output
        assert chart.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        scatter = tmp_path / "bamboo.png"
        result = run(
            "bamboo",
            "--data",
            BAMBOO,
            "-m",
            "rematch",
            "--task",
            "sick.main",
            "--plot",
            scatter,
        )
        assert result.exit_code == 0 and scatter.read_bytes()[:4] == b"\x89PNG"
    # and without matplotlib, whatever is installed here
    real_import = builtins.__import__

    def no_matplotlib(name: str, *rest: Any, **kwargs: Any) -> Any:
        if name.startswith("matplotlib"):
            raise ImportError(name)
        return real_import(name, *rest, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_matplotlib)
    monkeypatch.delitem(__import__("sys").modules, "matplotlib", raising=False)
    result = run(*args)
    assert result.exit_code == 2
    assert "charts need matplotlib, the optional 'plot' extra" in result.stderr
    assert "Traceback" not in result.output


def test_rare_make_then_score(tmp_path: Path) -> None:
    folder = tmp_path / "rare"
    made = run(
        "rare", "make", GUIDELINES, "--out", folder, "--seed", "3", "--limit", "40"
    )
    assert made.exit_code == 0, made.output
    assert f"written to {folder} (seed 3)" in made.stdout
    assert {p.name for p in folder.iterdir()} == {
        "original.amr", "rewired.amr", "similarity.tsv",
    }  # fmt: skip
    again = tmp_path / "again"
    run("rare", "make", GUIDELINES, "--out", again, "--seed", "3", "--limit", "40")
    assert (again / "rewired.amr").read_text() == (folder / "rewired.amr").read_text()
    result = run("rare", folder, "-m", "smatch,rematch", "--json", "--jobs", "2")
    assert result.exit_code == 0, result.output
    rows = {r["metric"]: r for r in json.loads(result.stdout)["results"]}
    assert rows["smatch"]["pairs"] == rows["rematch"]["pairs"] > 40
    assert 80 < rows["smatch"]["spearman"] <= 100
    assert 80 < rows["rematch"]["spearman"] <= 100
    text = run("rare", "score", folder, "-m", "rematch")
    assert "Spearman ×100" in text.stdout
    assert run("rare", tmp_path / "nothing").exit_code == 2


def test_bamboo_and_rare_list_the_graphs_they_cannot_read_issue_21(
    tmp_path: Path,
) -> None:
    data = little_bamboo(
        tmp_path / "bamboo",
        tgt=break_graph(CANDIDATE, BROKEN),
        src=break_graph(REFERENCE, 2),
    )
    text = run("bamboo", "--data", data, "--task", "sick.main", "-m", "rematch")
    assert text.exit_code == 0, text.output
    tgt, src = (data / "sick" / "main" / f"{n}.dev.amr" for n in ("tgt", "src"))
    lines = text.stdout.splitlines()
    assert lines[-5:-1] == [
        "sick.main: 1 candidate graph unreadable or missing, counted as an empty "
        "graph (F1 0):",
        f"  {tgt}:2:47: graph g0: E001 unbalanced parentheses: 1 '(' not closed",
        "sick.main: 1 pair left out of the scores: the reference graph is unreadable:",
        f"  {src}:8:46: graph g2: E001 unbalanced parentheses: 1 '(' not closed",
    ]
    report = json.loads(
        run("bamboo", "--data", data, "--task", "sick.main", "--json").stdout
    )
    gaps = report["results"][0]["unreadable"]["sick.main"]
    assert [(g["id"], g["counted"]) for g in gaps] == [
        ("g0", "empty graph"),
        ("g2", "left out"),
    ]
    # RARE: a rewired graph that cannot be read scores 0, as in `score`
    folder = tmp_path / "rare"
    run("rare", "make", GUIDELINES, "--out", folder, "--limit", "10")
    rewired = folder / "rewired.amr"
    text = rewired.read_text()
    rewired.write_text(text.replace(")\n", "\n", 1))
    result = run("rare", folder, "-m", "smatch", "--json")
    assert result.exit_code == 0, result.output
    (row,) = json.loads(result.stdout)["results"]
    (gap,) = row["unreadable"]
    assert gap["counted"] == "empty graph" and gap["where"].startswith(f"{rewired}:")
    assert "counted as an empty graph (F1 0)" in run("rare", folder).stdout


#: far below what the joined book's search needs: its pair is always cut
SPENT = "0.000001"


def with_book(small: str, side: str) -> str:
    """The first three of ``small``'s graphs, then a whole book joined into
    one graph (``side``: cand or ref), as the fourth."""
    book = data_path(f"large/little_prince_40_joined.{side}.amr")
    first = "".join(graph + "\n\n" for graph in small.split("\n\n")[:3])
    return first + book.read_text(encoding="utf-8").strip() + "\n"


def test_bamboo_and_rare_take_a_time_budget_and_count_cut_pairs(
    tmp_path: Path,
) -> None:
    data = little_bamboo(
        tmp_path / "bamboo",
        tgt=with_book(CANDIDATE, "cand"),
        src=with_book(REFERENCE, "ref"),
    )
    args = ["bamboo", "--data", data, "--task", "sick.main", "--time-budget", SPENT]
    text = run(*args)
    assert text.exit_code == 0, text.output
    assert re.search(
        r"^smatch: \d+ pairs? cut by the time budget \(best alignment found kept, "
        r"not proven optimal\)$",
        text.stdout,
        re.M,
    )
    (row,) = json.loads(run(*args, "--json").stdout)["results"]
    assert row["cut"] >= 1
    # RARE: the book, rewired by hand, among small pairs
    folder = tmp_path / "rare"
    folder.mkdir()
    (folder / "original.amr").write_text(with_book(REFERENCE, "ref"))
    (folder / "rewired.amr").write_text(with_book(CANDIDATE, "cand"))
    (folder / "similarity.tsv").write_text(
        "id\tsource\tsimilarity\tswapped\tedges\n"
        + "".join(
            f"{key}\t{key}\t{truth}\t0\t3\n"
            for key, truth in (("g0", 0.7), ("g1", 0.3), ("g2", 0.6), ("doc", 0.8))
        )
    )
    result = run("rare", folder, "--time-budget", SPENT, "--json")
    assert result.exit_code == 0, result.output
    (row,) = json.loads(result.stdout)["results"]
    assert row["pairs"] == 4 and row["cut"] >= 1
    text = run("rare", folder, "--time-budget", SPENT)
    assert "cut by the time budget" in text.stdout
    unbounded = json.loads(run("rare", folder, "--time-budget", "0", "--json").stdout)
    assert unbounded["results"][0]["cut"] == 0


def test_the_leaderboard_counts_unreadable_graphs_with_every_metric_issue_21(
    tmp_path: Path,
) -> None:
    """``-m all`` and ``--with-reference``: every metric, and every reference
    twin, scores the unreadable tgt graph as an empty graph; the table lists
    each graph once, the JSON under every metric."""
    data = little_bamboo(
        tmp_path / "bamboo",
        tgt=break_graph(CANDIDATE, BROKEN),
        src=break_graph(REFERENCE, 2),
    )
    args = ("bamboo", "--data", data, "--task", "sick.main", "-m", "all")
    report = json.loads(run(*args, "--with-reference", "--json").stdout)
    results = report["results"]
    assert len(results) >= 9
    for row in results:
        gaps = row["unreadable"]["sick.main"]
        assert [(g["id"], g["counted"]) for g in gaps] == [
            ("g0", "empty graph"),
            ("g2", "left out"),
        ], row["metric"]
    assert any("amean_reference" in row for row in results)
    text = run(*args)
    assert text.exit_code == 0, text.output
    assert text.stdout.count("graph g0: E001") == 1
    assert (
        "sick.main: 1 candidate graph unreadable or missing, counted as an empty "
        "graph (F1 0):" in text.stdout
    )


@pytest.mark.skipif(
    importlib.util.find_spec("matplotlib") is None, reason="the plot extra"
)
def test_the_scatter_leaves_out_pairs_it_cannot_judge_issue_21(tmp_path: Path) -> None:
    data = little_bamboo(
        tmp_path / "bamboo",
        tgt=break_graph(CANDIDATE, BROKEN),
        src=break_graph(REFERENCE, 2),
    )
    for metrics in (["smatch"], ["smatch", "wlk"]):  # a scatter, a leaderboard
        plot = tmp_path / f"{len(metrics)}.png"
        result = run(
            "bamboo", "--data", data, "--task", "sick.main", "--plot", plot,
            *(arg for name in metrics for arg in ("-m", name)),
        )  # fmt: skip
        assert result.exit_code == 0, result.output
        assert plot.stat().st_size > 0


def test_principles_report_and_exit_status(tmp_path: Path) -> None:
    corpus = tmp_path / "few.amr"
    corpus.write_text("\n\n".join(GUIDELINES.read_text().split("\n\n")[:30]))
    result = run("principles", corpus, "-m", "smatch,sembleu", "--neighbours", "10")
    assert result.exit_code == 1  # sembleu is asymmetric by design
    out = result.stdout
    assert "  I   range [0, 1]    holds  (50 pairs)" in out
    assert "  IV  determinism     holds  (50 pairs)" in out
    assert "  III symmetry        does not hold  (10 pairs)" in out
    assert "a new interpreter (PYTHONHASHSEED=4242)" in out
    report = json.loads(
        run("principles", corpus, "-m", "rematch", "--neighbours", "5", "--json").stdout
    )
    (entry,) = report["results"]
    assert [p["code"] for p in entry["principles"]] == ["I", "II", "III", "IV"]
    assert all(p["holds"] for p in entry["principles"])
    ok = run("principles", corpus, "-m", "rematch", "--neighbours", "5")
    assert ok.exit_code == 0


@pytest.mark.slow
def test_principles_of_graded_metrics_and_the_alias_issue_16(tmp_path: Path) -> None:
    """The workers rebuild each metric from its options, not from the words
    its report prints (vectors described, an alias)."""
    pytest.importorskip("ot", reason="needs POT")
    corpus = tmp_path / "few.amr"
    corpus.write_text("\n\n".join(GUIDELINES.read_text().split("\n\n")[:20]))
    mini = str(Path(__file__).parents[1] / "data" / "vectors" / "glove-mini.50d.txt")
    result = run(
        "principles", corpus, "-m", "recommended", "-o", f"vectors={mini}",
        "--neighbours", "5", "--json",
    )
    assert result.exit_code == 0, result.output
    (entry,) = json.loads(result.stdout)["results"]
    assert entry["metric"] == "wlmatch-v1"
    assert entry["settings"]["alias"] == "recommended"
    assert all(p["holds"] for p in entry["principles"])


def test_speed_report() -> None:
    result = run("speed", GUIDELINES, "-m", "rematch", "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["pairs"] == len(report["timings"]) > 100
    assert report["slowest"]["ms"] >= report["median_ms"] > 0
    assert run("speed", GUIDELINES, "-m", "smatch,rematch").exit_code == 2


def test_bamboo_subtask_with_no_pair_to_judge_is_a_clear_error(tmp_path: Path) -> None:
    """Every reference graph broken: no pair is left for Pearson or for role
    confusion. That is said with the subtask and the file, exit 2, not a
    traceback and not a number."""
    broken = REFERENCE
    for index in range(len(REFERENCE.strip().split("\n\n"))):
        broken = break_graph(broken, index)
    folder = little_bamboo(tmp_path / "bamboo", src=broken)
    for task, message in (
        ("sts.main", "0 scored pair(s) with a human score"),
        ("sick.role_confusion", "no role-confusion comparison can be judged"),
    ):
        result = run("bamboo", "--data", folder, "-m", "rematch", "--task", task)
        assert result.exit_code == 2, result.output
        assert f"BAMBOO {task}: {message}" in result.stderr
        assert str(folder / task.replace(".", "/") / "tgt.dev.amr") in result.stderr
        assert "Traceback" not in result.output
