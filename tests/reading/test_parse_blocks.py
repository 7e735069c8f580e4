"""Where the reader cuts text into blocks: at lines of white space only.

A stray token shows the cut: in the block of a graph it is that entry's
error, in a block of its own it belongs to no entry. What counts as
white space is what ``str.isspace`` and the regex ``\\s`` say (Unicode
spaces included), on a line of its own, first, last or in between.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from amrcheck.findings import Finding
from amrcheck.reading._parse import parse_source
from amrcheck.span import SourceText

#: white space of every kind the reader may meet, and a few other characters
_LINE_CHARS = " \t\r\x0b\x0c\x1c\x85\u00a0\u2003\u2028\u3000x(#"
_BLANK_LINE = re.compile(r"[^\S\n]*")


def _stray_is_orphan(text: str) -> bool:
    """Whether the reader gives the stray ``?`` of ``text`` to no entry."""
    entries, orphans = parse_source(SourceText(text))
    at = text.index("?")

    def covers(finding: Finding) -> bool:
        return finding.code == "E006" and finding.span.start <= at < finding.span.end

    strays = [e for e in orphans if covers(e)]
    in_entries = [e for entry in entries for e in entry.errors if covers(e)]
    assert len(strays) + len(in_entries) == 1, (entries, orphans)
    return bool(strays)


@settings(max_examples=400, deadline=None, derandomize=True)
@given(line=st.text(alphabet=_LINE_CHARS, max_size=6), last=st.booleans())
def test_a_line_of_white_space_only_ends_a_block(line: str, last: bool) -> None:
    # the line between a graph and a stray token, or between the stray
    # token and the end of a text cut there (no newline after it)
    if last:
        text = f"(a / b)\n?\n{line}"
        assert not _stray_is_orphan(text)
        return
    text = f"(a / b)\n{line}\n?\n"
    blank = _BLANK_LINE.fullmatch(line) is not None
    if blank or "(" not in line and "#" not in line:
        assert _stray_is_orphan(text) == blank


@pytest.mark.parametrize(
    ("text", "orphan"),
    [
        ("(a / b)\n?", False),
        ("(a / b)\n\n?", True),
        ("(a / b)\n \t\n?", True),
        ("(a / b)\n\u00a0\u3000\n?", True),  # Unicode spaces: blank
        ("(a / b)\n\x0c\n?", True),
        ("(a / b)\n \u00a0x \n?", False),  # a character in between: not blank
        ("(a / b)\nx \n?", False),
        ("(a / b)\n x\n?", False),
        ("(a / b)\r\n\r\n?", True),
        ("\n\n  \n(a / b)\n  \n\n?\n\n", True),
    ],
)
def test_blank_lines(text: str, orphan: bool) -> None:
    assert _stray_is_orphan(text) == orphan


def test_a_region_ends_where_it_is_cut() -> None:
    text = "(a / b)\n? more\n\n(c / d)\n"
    source = SourceText(text)
    cut = text.index(" more")
    entries, orphans = parse_source(source, 0, cut)
    assert len(entries) == 1 and not orphans
    (error,) = entries[0].errors
    assert (error.span.start, error.span.end) == (8, cut)
