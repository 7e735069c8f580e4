"""Metadata as written: every spelling of ``::key`` found in public corpora reads alike.

The spellings: AMR releases (``# ::id x ::date ... ::annotator ... ::preferred``,
``# ::save-date ... ::file ...``), LDC alignment lines (``# ::alignments
... ::annotator ... ::date ...``), the VLSP Vietnamese files (``#::snt``,
no blank), tabs and extra blanks, ``::`` inside a sentence.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from amrcheck import read_string
from amrcheck.reading.corpus import read_chunks
from amrcheck.reading.incremental import reparse
from amrcheck.reading.metadata import is_metadata_line, metadata_dict

from ..conftest import shared_path

GRAPH = "(w / want-01 :ARG0 (b / boy))"

SPELLINGS = [
    # AMR 3.0 / Bio AMR / Little Prince
    (
        "# ::id lpp_1943.1 ::date 2012-06-07T17:06:02 ::annotator ISI-AMR-05"
        " ::preferred",
        {"id": "lpp_1943.1", "date": "2012-06-07T17:06:02",
         "annotator": "ISI-AMR-05", "preferred": ""},
    ),
    ("# ::save-date Thu Oct 29, 2015 ::file lpp_1943_1.txt",
     {"save-date": "Thu Oct 29, 2015", "file": "lpp_1943_1.txt"}),
    # the same written without a blank after '#'
    (
        "#::id lpp_1943.1 ::date 2012-06-07T17:06:02 ::annotator ISI-AMR-05"
        " ::preferred",
        {"id": "lpp_1943.1", "date": "2012-06-07T17:06:02",
         "annotator": "ISI-AMR-05", "preferred": ""},
    ),
    ("#::id a.1", {"id": "a.1"}),
    # VLSP Vietnamese AMR
    ("#::snt Tôi đi học .", {"snt": "Tôi đi học ."}),
    # tabs and extra blanks
    ("#\t::id\ta.1\t::date\t2015", {"id": "a.1", "date": "2015"}),
    ("#   ::id   a.1   ", {"id": "a.1"}),
    # a sentence with '::' in it runs to the end of the line
    ("# ::snt see http://x.org/a::b and ::c", {"snt": "see http://x.org/a::b and ::c"}),
    ("# ::tok a :: b", {"tok": "a :: b"}),
    # LDC alignment lines: several keys after the alignments
    (
        "# ::alignments 0-1|0 1-2|0.0 ::annotator Aligner v.03 ::date 2012-06-11T14:44",
        {"alignments": "0-1|0 1-2|0.0", "annotator": "Aligner v.03",
         "date": "2012-06-11T14:44"},
    ),
    # a value with '::' but no blank before it stays in the value
    ("# ::id x::y ::date z", {"id": "x::y", "date": "z"}),
]


@pytest.mark.parametrize(("line", "expected"), SPELLINGS)
def test_every_spelling_reads_alike_in_every_reader(
    line: str, expected: dict[str, str], tmp_path: Path
) -> None:
    assert is_metadata_line(line)
    assert metadata_dict(line) == expected
    text = f"{line}\n{GRAPH}\n"
    whole = read_string(text, "x.amr")
    assert whole[0].metadata == expected
    # each value's offsets point at the value as written
    for key, (start, end) in whole[0].metadata_offsets.items():
        assert text[start:end] == expected[key]
    path = tmp_path / "x.amr"
    path.write_text(text, encoding="utf-8")
    chunked = [entry for chunk in read_chunks(path) for entry in chunk.corpus]
    assert [entry.metadata for entry in chunked] == [expected]
    edited = reparse(read_string(f"# ::id old\n{GRAPH}\n", "x.amr"), text)
    assert edited[0].metadata == expected


@pytest.mark.parametrize(
    "line", ["# a comment", "# a comment :: not metadata", "#", "# :: no key"]
)
def test_plain_comments_are_not_metadata(line: str) -> None:
    assert not is_metadata_line(line)
    assert read_string(f"{line}\n{GRAPH}\n")[0].metadata == {}


def test_a_metadata_line_without_a_blank_still_starts_the_next_graph() -> None:
    corpus = read_string("#::id a\n(a / b\n#::id b\n(c / d)\n", "x.amr")
    assert [entry.id for entry in corpus] == ["a", "b"]
    assert corpus[0].errors[0].code == "E001" and corpus[1].graph is not None


def little_prince_rewritten() -> str:
    """Little Prince with its ``# ::`` lines written ``#::``, ``#\\t::``, ``#   ::``."""
    text = shared_path("little_prince/amr-bank-struct-v3.0.txt").read_text("utf-8")
    rng = random.Random(3)
    spellings = ["#::", "#\t::", "#   ::"]
    return "\n".join(
        rng.choice(spellings) + line[len("# ::"):] if line.startswith("# ::") else line
        for line in text.split("\n")
    )


def test_little_prince_with_every_spelling_reads_as_written() -> None:
    path = shared_path("little_prince/amr-bank-struct-v3.0.txt")
    original = read_string(path.read_text("utf-8"), "lpp.txt")
    rewritten = read_string(little_prince_rewritten(), "lpp-rewritten.txt")
    assert len(original) == len(rewritten) == 1562
    for a, b in zip(original, rewritten, strict=True):
        assert a.metadata == b.metadata and a.graph is not None
        assert b.graph is not None and a.graph.triples == b.graph.triples
    assert {"id", "date", "annotator", "preferred", "snt", "save-date", "file"} == set(
        original[0].metadata
    )
