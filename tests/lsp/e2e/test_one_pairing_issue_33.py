"""One pairing rule and one scoring loop (issue 33): the editor's document
score and each graph's score, ``amrcheck score --json`` (and its per-pair
rows), ``amrcheck diff --json``'s summary and the ``amr-regress`` hook give
the same numbers and the same pairs.

The files are real Little Prince graphs, built in a temp dir: ids
reordered (with a graph deleted and one broken), ids missing from some
graphs (paired by position), and an id repeated in both files (paired by
position). Before, the server paired each graph by its own id when it had
one, else by position: on such files it paired graphs the command line
does not.
"""

from __future__ import annotations

import csv
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from lsprotocol import types

from amrcheck.hooks.regress import main as regress
from tests.conftest import REPO

from .conftest import open_document

LITTLE_PRINCE = (
    REPO.parent / "shared" / "data" / "little_prince" / "amr-bank-struct-v3.0.txt"
)
GRAPHS = 12
HOOK_CONFIG = """\
[[regress.reference]]
files = "annotations/{doc}.amr"
reference = "gold/{doc}.amr"
min-f1 = 1.0
min-graph-f1 = 1.0
"""
HOOK_GRAPH = re.compile(r"^(\S+):(\d+):\d+: graph (\S+): smatch F1 (\d\.\d{4})")
HOOK_TOTAL = re.compile(r"min-f1: smatch F1 (\d\.\d{4}) is below")


def little_prince() -> list[tuple[list[str], list[str]]]:
    """The first graphs of Little Prince: (header lines, graph lines) each."""
    blocks = [
        b for b in LITTLE_PRINCE.read_text(encoding="utf-8").split("\n\n")
        if "# ::id " in b
    ][: GRAPHS + 1]
    split = []
    for block in blocks:
        lines = block.strip().splitlines()
        split.append(
            ([x for x in lines if x.startswith("#")],
             [x for x in lines if not x.startswith("#")])
        )
    return split


def write(path: Path, graphs: list[tuple[list[str], list[str]]]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(
        "\n\n".join("\n".join(h + g) for h, g in graphs) + "\n", encoding="utf-8"
    )


def without_id(header: list[str]) -> list[str]:
    return [line for line in header if not line.startswith("# ::id ")]


def with_id(header: list[str], key: str) -> list[str]:
    return [f"# ::id {key}" if x.startswith("# ::id ") else x for x in header]


def broken(graph: list[str]) -> list[str]:
    return [graph[0].replace("(", "((", 1), *graph[1:]]


def cases() -> dict[str, tuple[list, list]]:
    """Reference and annotation graphs of each case."""
    lp = little_prince()
    gold = lp[:GRAPHS]
    # every other annotation graph is the next sentence's: real differences
    annotated = [
        (header, lp[i + 1][1] if i % 2 else graph)
        for i, (header, graph) in enumerate(gold)
    ]
    reordered = annotated[::-1]
    del reordered[3]  # absent: counts as an empty graph
    reordered[5] = (reordered[5][0], broken(reordered[5][1]))
    mixed = [
        (without_id(h) if i % 3 == 1 else h, broken(g) if i == 4 else g)
        for i, (h, g) in enumerate(annotated)
    ]
    # graph 3 takes graph 2's id, in both files
    twice = next(x.split()[2] for x in lp[1][0] if x.startswith("# ::id "))
    repeated_gold = [
        (with_id(h, twice) if i == 2 else h, g) for i, (h, g) in enumerate(gold)
    ]
    repeated = [
        (with_id(h, twice) if i == 2 else h, g) for i, (h, g) in enumerate(annotated)
    ]
    return {
        "reordered": (gold, reordered),
        "mixed": (gold, mixed),
        "repeated": (repeated_gold, repeated),
    }


def amrcheck(*args: str) -> str:
    found = subprocess.run(
        [sys.executable, "-c", "from amrcheck.cli import main; main()", *args],
        capture_output=True, text=True, timeout=300,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )
    assert found.returncode in (0, 1), found.stderr
    return found.stdout


def command_line(gold: Path, annotation: Path, folder: Path) -> dict:
    """``score --json --per-pair`` and ``diff --json``."""
    rows = folder / "pairs.tsv"
    score = json.loads(amrcheck(
        "score", str(gold), str(annotation), "--json", "--per-pair", str(rows)
    ))
    with rows.open(encoding="utf-8") as table:
        per_pair = [
            (r["id"], float(r["f1"])) for r in csv.DictReader(table, delimiter="\t")
        ]
    diff = json.loads(amrcheck("diff", str(gold), str(annotation), "--json"))
    return {"score": score, "per_pair": per_pair, "diff": diff}


def hook(
    folder: Path, monkeypatch, capsys
) -> tuple[float, list[tuple[str, int, str, float]]]:
    """``amr-regress`` on the annotation: its total and each graph it lists
    (file, line, key, F1), all graphs below 1 (``--show 0``)."""
    (folder / ".amrcheck.toml").write_text(HOOK_CONFIG, encoding="utf-8")
    monkeypatch.chdir(folder)
    assert regress(["--show", "0", "annotations/lp.amr"]) == 1
    lines = capsys.readouterr().out.splitlines()
    total = next(float(m[1]) for x in lines if (m := HOOK_TOTAL.search(x)))
    graphs = [
        (m[1], int(m[2]), m[3], float(m[4]))
        for x in lines if (m := HOOK_GRAPH.match(x))
    ]
    return total, graphs


@pytest.mark.skipif(not LITTLE_PRINCE.exists(), reason="../shared/data missing")
@pytest.mark.parametrize("case", ["reordered", "mixed", "repeated"])
async def test_every_front_end_pairs_and_scores_alike(
    case: str, start_client, tmp_path: Path, monkeypatch, capsys
) -> None:
    reference, annotated = cases()[case]
    gold, annotation = tmp_path / "gold" / "lp.amr", tmp_path / "annotations" / "lp.amr"
    write(gold, reference)
    write(annotation, annotated)
    cli = command_line(gold, annotation, tmp_path)
    score, diff = cli["score"], cli["diff"]
    by = "id" if case == "reordered" else "position"
    assert score["paired_by"] == diff["paired_by"] == by
    total = score["results"][0]["micro"]["f1"]
    assert diff["score"]["f1"] == pytest.approx(total, abs=1e-12)
    # diff's rows of the reference's graphs: key, F1, reference and annotation lines
    rows = [g for g in diff["graphs"] if g["status"] != "added"]
    assert [g["id"] for g in rows] == [key for key, _ in cli["per_pair"]]
    assert [g["score"]["f1"] for g in rows] == pytest.approx(
        [f1 for _, f1 in cli["per_pair"]], abs=1e-12
    )
    empty = {"reordered": 2, "mixed": 1, "repeated": 0}[case]
    assert sum(g["counted_empty"] for g in rows) == empty

    client = await start_client(
        options={"references": {"annotations/*.amr": "gold/{name}.amr"}},
        root=tmp_path,
    )
    uri = await open_document(client, annotation)
    document = await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command="amrcheck.documentScore", arguments=[uri])
    )
    graphs = await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command="amrcheck.graphScores", arguments=[uri])
    )
    assert document["f1"] == pytest.approx(total, abs=1e-12)
    said = "::id" if by == "id" else "position"
    assert document["paired_by"].startswith(f"graphs paired by {said}")
    # the same pairs: reference line -> (annotation line, F1), as diff has
    # them (an unreadable graph's place: its graph's text in diff, its
    # header in graphScores; compared by its reference graph only)
    assert all(g["reference"] is not None for g in graphs["graphs"])
    editor = {
        g["reference"]["line"] + 1: (
            (g["line"] + 1, g["score"]) if g["score"] is not None
            else (None, g["counted_as"])
        )
        for g in graphs["graphs"]
    }
    in_both = {
        g["old"]["line"]: (
            None if g["counted_empty"] else g["new"]["line"], g["score"]["f1"]
        )
        for g in rows if g["new"] is not None
    }
    assert sorted(editor) == sorted(in_both)
    for line, (place, f1) in in_both.items():
        assert editor[line][0] == place, line
        assert editor[line][1] == pytest.approx(f1, abs=1e-12), line
    # a reference graph the annotation lacks: counted as empty by all
    absent = [g["id"] for g in rows if g["new"] is None]
    assert [c["graph"] for c in document["counted_empty"]
            if c["why"] == "not in this document"] == absent

    total_hook, listed = hook(tmp_path, monkeypatch, capsys)
    assert total_hook == round(total, 4)
    # every graph below 1, with its key (#n where an id repeated in both
    # files names two rows) and place (the annotation's, or the reference's
    # for an absent graph)
    keys = [g["id"] for g in rows]
    labels = [k if keys.count(k) == 1 else f"#{n + 1}" for n, k in enumerate(keys)]
    expected = sorted(
        ("annotations/lp.amr", g["new"]["line"], label, round(g["score"]["f1"], 4))
        if g["new"] is not None
        else ("gold/lp.amr", g["old"]["line"], label, 0.0)
        for g, label in zip(rows, labels, strict=True)
        if g["score"]["f1"] < 1 - 1e-9
    )
    assert sorted(listed) == expected
