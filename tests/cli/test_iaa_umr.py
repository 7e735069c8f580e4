"""``amrcheck iaa`` on UMR files: both queues name each place's file and show
each sentence's words, in the text report and in ``--json`` (issue 31)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

import amrcheck.cli.iaa  # noqa: F401  (registers the command on `app`)
from amrcheck.cli import app

DATA = Path(__file__).parents[1] / "data" / "umr"
SCORING = DATA / "scoring"
runner = CliRunner()


def run(*args: str | Path) -> Result:
    return runner.invoke(app, ["iaa", "--resamples", "50", *map(str, args)])


def test_the_graph_queue_names_files_and_shows_the_words() -> None:
    gold, concept, docrel = (
        SCORING / f"{n}.umr" for n in ("gold", "concept", "docrel")
    )
    result = run(gold, concept, docrel)
    assert result.exit_code == 0, result.output
    out = result.stdout
    queue = out[out.index("adjudication queue (lowest") :].splitlines()
    assert queue[1] == "snt2  mean 0.9333  She bought a book ."
    assert queue[2] == (
        f"  graphs: {gold}:38:1 (gold), {concept}:38:1 (concept), "
        f"{docrel}:38:1 (docrel)"
    )
    assert queue[3] == "  gold vs concept  F1 0.9000  (- gold only, + concept only)"
    assert queue[4] == (
        f"    ~ {gold}:42:12 -> {concept}:42:12  (s2b2 / book) -> (s2b2 / magazine)"
    )
    assert "snt1  mean 1.0000  Mary left Paris ." in queue
    # the layers' queue: the same sentence, with its words
    layers = out[out.index("UMR layers: adjudication queue") :].splitlines()
    assert layers[1] == "snt2  lowest 0.0000  She bought a book ."
    assert f"    {gold}:55:14: coref missing: (s1p :same-entity s2p)" in layers


def test_json_carries_files_places_and_words() -> None:
    gold, alignment = SCORING / "gold.umr", SCORING / "alignment.umr"
    concept = SCORING / "concept.umr"
    report = json.loads(run(gold, concept, alignment, "--json").stdout)
    sentence = report["sentences"][0]
    assert (sentence["id"], sentence["snt"]) == ("snt2", "She bought a book .")
    assert sentence["places"] == [
        {"annotator": name, "file": str(path), "line": 38, "column": 1}
        for name, path in (
            ("gold", gold), ("concept", concept), ("alignment", alignment),
        )  # fmt: skip
    ]
    (pair,) = [p for p in sentence["pairs"] if (p["a"], p["b"]) == ("gold", "concept")]
    (change,) = pair["changes"]
    assert change["change"] == "relabel"
    assert (change["old"]["file"], change["old"]["line"], change["old"]["column"]) == (
        str(gold), 42, 12,
    )  # fmt: skip
    assert (change["new"]["file"], change["new"]["text"]) == (
        str(concept), "(s2b2 / magazine)",
    )  # fmt: skip
    (queued,) = report["umr_queue"]
    assert (queued["id"], queued["snt"]) == ("snt2", "She bought a book .")
    (realigned,) = [
        d for d in queued["disagreements"]
        if (d["a"], d["b"], d["layer"]) == (str(gold), str(alignment), "alignment")
    ]  # fmt: skip
    assert realigned["places"] == [
        {"file": str(gold), "line": 49, "column": 1,
         "text": "s2b2: 3-4: alignment missing"},
        {"file": str(alignment), "line": 49, "column": 1,
         "text": "s2b2: 4-4: alignment extra"},
    ]  # fmt: skip
    # the lines are the places written out, as the text report prints them
    assert realigned["lines"] == [
        f"{p['file']}:{p['line']}:{p['column']}: {p['text']}"
        for p in realigned["places"]
    ]


def test_places_keep_the_paths_as_given(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(DATA)
    result = run("scoring/gold.umr", "scoring/concept.umr")
    assert result.exit_code == 0, result.output
    assert (
        "    ~ scoring/gold.umr:42:12 -> scoring/concept.umr:42:12  "
        "(s2b2 / book) -> (s2b2 / magazine)"
    ) in result.stdout.splitlines()
    report = json.loads(run("scoring/gold.umr", "scoring/concept.umr", "--json").stdout)
    (change,) = report["sentences"][0]["pairs"][0]["changes"]
    assert (change["old"]["file"], change["new"]["file"]) == (
        "scoring/gold.umr", "scoring/concept.umr",
    )  # fmt: skip


def test_words_of_other_languages_and_retokenized_sentences(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.chdir(DATA / "multilingual")
    out = run("czech.umr", "czech-edited.umr").stdout
    assert "snt2  mean 0.8750  Růst trápí vládu ." in out
    assert (
        "    ~ czech.umr:34:12 -> czech-edited.umr:34:12  "
        "(s2v / vláda) -> (s2v / parlament)"
    ) in out
    # a sentence the annotators tokenized otherwise: the first annotator's
    # words head both queues; the words layer says where each run differs
    text = (SCORING / "gold.umr").read_text(encoding="utf-8")
    retokenized = tmp_path / "words.umr"
    retokenized.write_text(
        text.replace("Words: She bought a  book .", "Words: She bought a book ,"),
        encoding="utf-8",
    )
    report = json.loads(run(SCORING / "gold.umr", retokenized, "--json").stdout)
    (queued,) = report["umr_queue"]
    assert queued["snt"] == "She bought a book ."
    (words,) = queued["disagreements"]
    assert words["places"] == [
        {"file": str(SCORING / "gold.umr"), "line": 35, "column": 27,
         "text": "words missing: '.'"},
        {"file": str(retokenized), "line": 35, "column": 26,
         "text": "words extra: ','"},
    ]  # fmt: skip
