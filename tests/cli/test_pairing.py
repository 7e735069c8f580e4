"""How every pairing command pairs, and says so (issue 35)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

import amrcheck.cli.diff
import amrcheck.cli.iaa
import amrcheck.cli.score  # noqa: F401 (registers the commands)
from amrcheck.cli import app

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
