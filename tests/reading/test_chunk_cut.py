"""Where the chunked reader may cut a file: the last blank line before a
line that opens with ``(`` or ``#``.

The cut is searched from the end of the data; it must be the end of the
last match of the pattern that defines it (``_CUT_RE``), found from the
given start.
"""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from amrcheck.reading.corpus import _CUT_RE, _last_cut, read_chunks, read_corpus

#: the bytes that decide a cut, and a few others
_PIECES = [
    b"\n", b" ", b"\t", b"\r", b"\x0b", b"\x0c", b"#", b"(", b")", b"a", b"\xc2\xa0"
]


def _by_pattern(data: bytes, start: int) -> int:
    """The cut as the pattern defines it: the end of its last match (0: none)."""
    cut = 0
    for match in _CUT_RE.finditer(data, start):
        cut = match.end()
    return cut


@settings(max_examples=1500, deadline=None, derandomize=True)
@given(st.lists(st.sampled_from(_PIECES), max_size=60), st.data())
def test_the_last_cut_is_the_pattern_s_last_match(
    pieces: list[bytes], draw: st.DataObject
) -> None:
    data = b"".join(pieces)
    start = draw.draw(st.integers(0, len(data)))
    assert _last_cut(data, start) == _by_pattern(data, start)
    assert _last_cut(bytearray(data), start) == _by_pattern(data, start)


def test_cuts_in_real_text() -> None:
    data = b"# ::id 1\n(a / b\n   :c (d / e))\n \t\n\n# ::id 2\n(f / g)\n\n(h / i)\n"
    assert _last_cut(data, 0) == data.index(b"(h")
    assert _last_cut(data, data.index(b"(h") - 1) == 0  # the blank line is before
    assert _last_cut(data, data.index(b"(f")) == data.index(b"(h")
    assert _last_cut(b"(a / b)\n(c / d)\n", 0) == 0  # no blank line


def test_chunks_give_the_whole_file_s_entries(tmp_path: Path) -> None:
    path = tmp_path / "g.amr"
    graphs = [f"# ::id {n}\n(a{n} / b\n   :c (d / e{n}))\n" for n in range(60)]
    path.write_text(" \n\t\n".join(graphs) + "\n\n\n(z / z)\n", encoding="utf-8")
    chunks = list(read_chunks(path, chunk_bytes=97))
    assert len(chunks) > 10
    whole = read_corpus(path)
    read = [(e.id, e.graph and e.graph.triples) for c in chunks for e in c.corpus]
    assert read == [(e.id, e.graph and e.graph.triples) for e in whole]
