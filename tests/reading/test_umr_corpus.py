"""A UMR file as a corpus of sentence graphs: the words each entry carries
for reports, and pairing that does not depend on them (issue 31)."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

import amrcheck.cli.iaa  # noqa: F401  (registers the command on `app`)
from amrcheck.cli import app
from amrcheck.pairing.graphs import match_entries, sentence_of
from amrcheck.pairing.streaming import RowStream
from amrcheck.reading.umr_corpus import read_umr_corpus, sentence_text

GOLD = Path(__file__).parents[1] / "data" / "umr" / "scoring" / "gold.umr"


def _retokenized(tmp_path: Path) -> Path:
    """``gold.umr`` with other words in both sentences."""
    text = GOLD.read_text(encoding="utf-8")
    changed = text.replace(
        "Words: Mary left Paris .", "Words: Mary has left Paris"
    ).replace("Words: She bought a  book .", "Words: She bought a book ,")
    assert changed != text
    path = tmp_path / "retokenized.umr"
    path.write_text(changed, encoding="utf-8")
    return path


def test_each_entry_carries_its_words() -> None:
    corpus, _ = read_umr_corpus(GOLD)
    assert [sentence_text(e.metadata) for e in corpus] == [
        "Mary left Paris .",
        "She bought a book .",
    ]


def test_words_leave_pairing_unchanged(tmp_path: Path) -> None:
    other = _retokenized(tmp_path)
    gold, _ = read_umr_corpus(GOLD)
    corpus, _ = read_umr_corpus(other)
    assert [sentence_text(e.metadata) for e in corpus] == [
        "Mary has left Paris",
        "She bought a book ,",
    ]
    # pairing compares ::snt and ::tok, which a UMR entry never has
    assert {sentence_of(e.metadata) for e in (*gold, *corpus)} == {(0, 0)}
    # by position (forced), words that differ are no warning: an AMR
    # ::snt that differs would be one
    by_position = match_entries([gold, corpus], by="position")
    assert [row.key for row in by_position.rows] == ["snt1", "snt2"]
    assert by_position.mismatches == []
    auto = match_entries([gold, corpus])
    assert (auto.by, [row.key for row in auto.rows]) == ("id", ["snt1", "snt2"])
    # the streamed pairing that iaa uses: the same rows, no warning
    stream = RowStream([gold, corpus], "position")
    rows = [key for batch in stream.in_step(64) for _, key, _ in batch]
    assert rows == ["snt1", "snt2"] and stream.close().mismatches == []


def test_iaa_by_position_warns_of_no_sentence_that_differs(tmp_path: Path) -> None:
    other = _retokenized(tmp_path)
    result = CliRunner().invoke(
        app, ["iaa", str(GOLD), str(other), "--pair-by", "position", "-q"]
    )
    assert result.exit_code == 0, result.output
    assert "different sentences" not in result.stderr
    assert "graphs paired by position" in result.stderr
    # and the report still shows each sentence's words
    assert "snt2  mean 1.0000  She bought a book ." in result.stdout
