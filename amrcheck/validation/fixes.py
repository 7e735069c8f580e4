"""Quick fixes for the validator's fixable findings, as plain text edits.

Each fixer takes the corpus and one :class:`~amrcheck.Finding` and
returns a :class:`Fix` (a title and :class:`~amrcheck.reading.layout.TextEdit` s
in engine offsets), or None when it cannot help. Front ends only convert
the edits (the language server to a ``CodeAction``'s ``WorkspaceEdit``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from itertools import groupby
from pathlib import PurePosixPath
from urllib.parse import urlparse

from ..findings import Finding
from ..reading._parse import tokenize
from ..reading.closing import certain_closers
from ..reading.corpus import Corpus
from ..reading.layout import TextEdit
from ..reading.locate import entry_at


@dataclass(frozen=True, slots=True)
class Fix:
    title: str
    edits: list[TextEdit]


def fresh_variable(variable: str, used: set[str]) -> str:
    """``variable`` with the smallest number suffix not in ``used``.

    Example:
        >>> fresh_variable("b", {"b", "b2"})
        'b3'
    """
    base = variable.rstrip("0123456789") or variable
    number = 2
    while f"{base}{number}" in used:
        number += 1
    return f"{base}{number}"


def _duplicate_variable(corpus: Corpus, finding: Finding) -> Fix | None:
    entry = entry_at(corpus, finding.span.start)
    if entry is None or entry.graph is None:
        return None
    variable = finding.span.text
    new = fresh_variable(variable, set(entry.graph.variables()))
    edit = TextEdit(finding.span.start, finding.span.end, new)
    return Fix(f"Rename this '{variable}' to '{new}'", [edit])


def _close_parentheses(corpus: Corpus, finding: Finding) -> Fix | None:
    """Insert each missing ``)`` where the indentation says its subtree
    ended, and only when no other place fits it (a fix never changes the
    meaning silently: closing at the graph's end would re-attach every edge
    after the gap to the wrong node)."""
    entry = entry_at(corpus, finding.span.start)
    if entry is None or entry.graph is not None:
        return None
    text = corpus.source.text
    places = certain_closers(text, tokenize(text, entry.graph_start, entry.end))
    if places is None:
        return None
    edits = [
        TextEdit(at, at, ")" * sum(1 for _ in same)) for at, same in groupby(places)
    ]
    missing = len(places)
    plural = "es" if missing > 1 else "is"
    return Fix(f"Close {missing} parenthes{plural}", edits)


def _remove_parenthesis(corpus: Corpus, finding: Finding) -> Fix | None:
    if finding.span.text != ")":
        return None
    return Fix(
        "Remove the unmatched ')'",
        [TextEdit(finding.span.start, finding.span.end, "")],
    )


def _add_id(corpus: Corpus, finding: Finding) -> Fix | None:
    entry = entry_at(corpus, finding.span.start)
    if entry is None:
        return None
    path = corpus.path
    stem = PurePosixPath(urlparse(path).path if "://" in path else path).stem or "amr"
    taken = set(corpus.by_id())
    new_id = f"{stem}.{entry.index + 1}"
    suffix = 2
    while new_id in taken:
        new_id = f"{stem}.{entry.index + 1}-{suffix}"
        suffix += 1
    newline = "\r\n" if "\r\n" in corpus.source.text else "\n"
    edit = TextEdit(entry.start, entry.start, f"# ::id {new_id}{newline}")
    return Fix(f"Add '# ::id {new_id}'", [edit])


def _unquote_number(corpus: Corpus, finding: Finding) -> Fix | None:
    text = finding.span.text
    if not (text.startswith('"') and text.endswith('"')):
        return None
    number = text.strip('"').strip().replace(",", "")
    return Fix(f"Write {number} unquoted",
               [TextEdit(finding.span.start, finding.span.end, number)])


def _drop_inversion(corpus: Corpus, finding: Finding) -> Fix | None:
    role = finding.span.text
    if not role.endswith("-of-of"):
        return None
    return Fix(f"Write {role[:-3]}",
               [TextEdit(finding.span.start, finding.span.end, role[:-3])])


#: finding code -> fixer
FIXERS: dict[str, Callable[[Corpus, Finding], Fix | None]] = {
    "E001": _close_parentheses,
    "E002": _remove_parenthesis,
    "E101": _duplicate_variable,
    "E202": _drop_inversion,
    "W101": _add_id,
    "W403": _unquote_number,
}


def fix_for(corpus: Corpus, finding: Finding) -> Fix | None:
    fixer = FIXERS.get(finding.code)
    return fixer(corpus, finding) if fixer is not None else None
