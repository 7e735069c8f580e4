"""The ``::key value`` metadata of a ``#`` line: the one rule every reader uses.

Public corpora write metadata in several ways, all read alike here:

* AMR releases: ``# ::id x ::date 2012-06-11 ::annotator SDL-AMR-09 ::preferred``
  (several keys on one line, a key without a value);
* no blank after ``#`` (the VLSP Vietnamese files: ``#::snt ...``), extra
  blanks or tabs anywhere between ``#``, ``::key`` and the value;
* ``# ::snt`` (and ``::tok``, ``::lemmas``) runs to the end of the line,
  ``::`` inside the sentence included.

A line is metadata when ``::`` follows its ``#`` (blanks between
allowed); after the first key, ``::`` starts a new key only after a blank
(``http://x::y`` in a value stays in the value).

Example:
    >>> metadata_fields("#::id a.1 ::date 2015-06-08\\t::preferred")
    [('id', 6, 9), ('date', 17, 27), ('preferred', 39, 39)]
    >>> metadata_dict("# ::snt a :: b ::c")
    {'snt': 'a :: b ::c'}
    >>> metadata_dict("#\\t ::id x") == metadata_dict("# ::id   x ") == {"id": "x"}
    True
    >>> is_metadata_line("# a comment :: not metadata")
    False
"""

from __future__ import annotations

import re

#: keys whose value is the rest of the line, ``::`` included
REST_OF_LINE_KEYS = frozenset({"snt", "tok", "lemmas"})

_FIRST_KEY_RE = re.compile(r"#[^\S\n]*::(?=\S)")
_NEXT_KEY_RE = re.compile(r"(?<=\s)::(?=\S)")
_KEY_RE = re.compile(r"\S+")


def is_metadata_line(line: str) -> bool:
    """Whether a ``#`` line holds metadata: ``::key`` right after its ``#``."""
    return _FIRST_KEY_RE.match(line) is not None


def metadata_fields(line: str) -> list[tuple[str, int, int]]:
    """``(key, value start, value end)`` of each ``::key`` of ``line``, in order.

    Offsets are into ``line``; the value has no blanks around it (an empty
    value: start == end, right after the key). A key repeated on the line
    is listed each time; readers keep the first.
    """
    if line.startswith("# ::") and len(line) > 4 and not line[4].isspace():
        at = 4  # the usual form, told without the regex (a match object a line)
    else:
        first = _FIRST_KEY_RE.match(line)
        if first is None:
            return []
        at = first.end()
    if line.count("::") == 1:  # one key, the common case: no more regex
        words = line[at:].split(None, 1)
        if len(words) == 1:
            return [(words[0], len(line), len(line))]
        value = words[1].rstrip()
        start = len(line) - len(words[1])
        return [(words[0], start, start + len(value))]
    fields = []
    while True:
        key = _KEY_RE.match(line, at)
        assert key is not None  # the key regexes look ahead for a non-blank
        name = key.group()
        after = key.end()
        following = (
            None if name in REST_OF_LINE_KEYS else _NEXT_KEY_RE.search(line, after)
        )
        end = len(line) if following is None else following.start()
        value = line[after:end]
        start = after + len(value) - len(value.lstrip())
        stop = start + len(value.strip())
        fields.append((name, start, stop))
        if following is None:
            return fields
        at = following.end()


def metadata_dict(line: str) -> dict[str, str]:
    """The metadata of one line, key -> value (the first of a repeated key)."""
    found: dict[str, str] = {}
    for key, start, end in metadata_fields(line):
        found.setdefault(key, line[start:end])
    return found
