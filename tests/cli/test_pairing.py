"""How every pairing command pairs, and says so (issue 35)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

import amrcheck.cli.diff
import amrcheck.cli.iaa
import amrcheck.cli.score  # noqa: F401 (registers the commands)
from amrcheck.cli import app
from amrcheck.pairing.graphs import where
from amrcheck.reading.corpus import read_corpus

from ..conftest import shared_path
from ..corpus_copies import shuffled_copy

runner = CliRunner()
BIO_DEV = shared_path("bio_amr/amr-release-dev-bio.txt")
LITTLE_PRINCE = shared_path("little_prince/amr-bank-struct-v3.0.txt")


@pytest.mark.parametrize("spelling", ["#::", "#\t::", "#  ::"])
def test_shuffled_bio_dev_with_ids_spelled_otherwise_scores_one(
    spelling: str, tmp_path: Path
) -> None:
    copy = shuffled_copy(BIO_DEV, tmp_path / "copy.txt", spelling)
    result = runner.invoke(app, ["score", str(BIO_DEV), str(copy), "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["paired_by"] == "id"
    assert report["results"][0]["pairs"] == 500
    assert report["results"][0]["micro"]["f1"] == 1.0


def test_shuffled_little_prince_spelled_hash_colons_scores_one(tmp_path: Path) -> None:
    copy = shuffled_copy(LITTLE_PRINCE, tmp_path / "lpp.txt", "#::", seed=5)
    result = runner.invoke(app, ["score", str(LITTLE_PRINCE), str(copy), "-q"])
    assert result.exit_code == 0, result.output
    assert result.stdout.strip() == "1.0000"


def invoke(*args: str | Path):
    return runner.invoke(app, [str(a) for a in args])


def test_score_says_it_paired_by_id(tmp_path: Path) -> None:
    copy = shuffled_copy(BIO_DEV, tmp_path / "copy.txt")
    result = invoke("score", BIO_DEV, copy)
    assert result.exit_code == 0, result.output
    assert "amrcheck score: graphs paired by ::id" in result.stderr


def first_graphs(source: Path, target: Path, count: int) -> Path:
    """The first ``count`` graphs of ``source`` (its header dropped)."""
    blocks = [b for b in source.read_text("utf-8").split("\n\n") if "\n(" in b]
    target.write_text("\n\n".join(blocks[:count]) + "\n", encoding="utf-8")
    return target


@pytest.mark.parametrize("command", ["score", "diff", "iaa"])
@pytest.mark.slow
def test_shuffled_copy_without_ids_warns_with_both_places(
    command: str, tmp_path: Path
) -> None:
    # the whole Bio dev file for score; its first 40 graphs for diff and iaa
    source = BIO_DEV if command == "score" else first_graphs(
        BIO_DEV, tmp_path / "bio40.txt", 40
    )
    graphs = 500 if command == "score" else 40
    copy = shuffled_copy(source, tmp_path / "noid.txt", drop_ids=True)
    metric = ["-m", "rematch"] if command == "score" else []
    result = invoke(command, source, copy, *metric)
    assert result.exit_code in (0, 1), result.output
    err = result.stderr
    assert (
        f"amrcheck {command}: graphs paired by position: {graphs} graphs have no "
        f"::id in {copy}" in err
    )
    warning = next(line for line in err.splitlines() if "warning:" in line)
    count = int(warning.split("warning: ")[1].split()[0])
    assert graphs - 10 <= count <= graphs and "different sentences" in warning
    first = next(line for line in err.splitlines() if "is paired by position" in line)
    # both places: the reference graph's and the candidate graph's
    assert re.fullmatch(
        rf"  {re.escape(str(source))}:\d+:1: graph #\d+ is paired by position with "
        rf"{re.escape(str(copy))}:\d+:1, but their sentences differ",
        first,
    )
    if command == "score":
        summary = f"{copy}: {count} pairs paired by position with different"
        assert summary in result.stdout
    as_json = json.loads(invoke(command, source, copy, *metric, "--json").stdout)
    pairing = (
        as_json["pairing"][str(copy)] if command == "score" else as_json["pairing"]
    )
    assert pairing["by"] == "position" and pairing["mismatched"] == count
    assert len(pairing["mismatches"]) == count
    assert first.strip().startswith(pairing["mismatches"][0]["places"][0] + ": ")
    if command == "score":
        assert as_json["results"][0]["mismatched"] == count


def test_the_same_files_in_the_same_order_pair_by_position_silently_ok(
    tmp_path: Path,
) -> None:
    copy = shuffled_copy(LITTLE_PRINCE, tmp_path / "lpp.txt", drop_ids=True, seed=None)
    result = invoke("score", LITTLE_PRINCE, copy, "-q", "-m", "rematch")
    assert result.exit_code == 0 and result.stdout.strip() == "1.0000"
    assert "graphs paired by position: 1562 graphs have no ::id" in result.stderr
    assert "warning" not in result.stderr


def test_ids_that_differ_by_position_are_an_error(tmp_path: Path) -> None:
    source = first_graphs(BIO_DEV, tmp_path / "bio40.txt", 40)
    copy = shuffled_copy(source, tmp_path / "copy.txt")
    text = copy.read_text("utf-8")
    # one graph without an id: pairing by id is out, by position the ids disagree
    broken = tmp_path / "one-id-lost.txt"
    at = text.index("# ::id ")
    broken.write_text(text[:at] + "# ::x " + text[at + len("# ::id "):], "utf-8")
    result = invoke("score", source, broken, "-m", "rematch")
    assert result.exit_code == 2
    # the first position where both graphs have an id, and they differ
    ref, cand = next(
        (a, b)
        for a, b in zip(read_corpus(source), read_corpus(broken), strict=True)
        if a.id is not None and b.id is not None and a.id != b.id
    )
    assert (
        f"{where(ref)}: ::id {ref.id!r} is paired by position with ::id {cand.id!r} "
        f"at {where(cand)}" in result.stderr
    )
    assert "--pair-by position" in result.stderr and "Traceback" not in result.output
    forced = invoke(
        "score", source, broken, "-m", "rematch", "--pair-by", "position", "--json"
    )
    assert forced.exit_code == 0, forced.output
    pairing = json.loads(forced.stdout)["pairing"][str(broken)]
    assert pairing["how"] == "graphs paired by position: --pair-by position"
    kinds = [m["what"] for m in pairing["mismatches"]]
    assert kinds.count("::id") == sum(
        a.id != b.id and b.id is not None
        for a, b in zip(read_corpus(source), read_corpus(broken), strict=True)
    ) > 30


def test_pair_by_id_refuses_files_without_ids(tmp_path: Path) -> None:
    copy = shuffled_copy(BIO_DEV, tmp_path / "noid.txt", drop_ids=True)
    result = invoke("score", BIO_DEV, copy, "--pair-by", "id")
    assert result.exit_code == 2
    assert f"500 graphs have no ::id in {copy}" in result.stderr
