"""Where a missing ``)`` belongs: the graph's indentation says (E001).

A ``)`` left out of a PENMAN graph does not stop the parser where it is
missing: each later ``)`` closes one node too deep, the graph runs on to
the end of its block, and the edges after the gap hang under the wrong
nodes. Closing the graph at its end would keep that wrong tree. The
indentation still shows the tree the author meant: PENMAN writers (the
AMR Editor among them) start each role on a line indented deeper than the
line of its node's ``(``.

The rule (the offside rule, as for Python's blocks): **a role that starts
a line belongs to the innermost node left open at the end of the nearest
earlier line that is indented less.** When that node is still open but
nodes opened after it are too, their ``)`` are missing: each goes right
after the last token before the role's line. Nodes still open when the
graph ends close after its last token. :func:`closing_places` applies it.

A quick fix may insert the ``)`` only where nothing else fits the
indentation as well (:func:`certain_closers`): the repaired graph must
read the same with the ``)`` at any other place that keeps the tree
consistent with the indentation (every line-starting role under the node
the rule names, a node's line-starting roles all indented alike).
Several roles on one line leave the place open: in ``:ARG0 (i / i
:ARG1 (b / boy)`` the ``)`` may belong after ``i`` or after ``boy)``, and
no indentation tells which.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations_with_replacement
from math import comb

#: (kind, start, end), as the reader's tokenizer makes them
Token = tuple[str, int, int]

#: the most insertion places :func:`certain_closers` tries before giving up
MAX_TRIES = 2000

_TAB_WIDTH = 8


@dataclass(frozen=True, slots=True)
class Closer:
    """A missing ``)``: the offset it belongs at, and its ``(``."""

    at: int
    opening: int


def _indent(text: str, token_start: int) -> int:
    line_start = text.rfind("\n", 0, token_start) + 1
    return len(text[line_start:token_start].expandtabs(_TAB_WIDTH))


class _Lines:
    """The lines of a graph read so far: each one's indentation and the
    innermost ``(`` open at its end."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.done: list[tuple[int, int | None]] = []
        self.start = -1  # where the current line starts
        self.indent = 0  # the current line's indentation

    def enter(self, token_start: int, stack: list[int]) -> bool:
        """Note the next token; True when it is the first of a line after
        the graph's first line (the line before it is then done)."""
        begin = self.text.rfind("\n", 0, token_start) + 1
        if begin == self.start:
            return False
        if self.start >= 0:
            self.done.append((self.indent, stack[-1] if stack else None))
        self.start, self.indent = begin, _indent(self.text, token_start)
        return bool(self.done)

    def offside_parent(self) -> int | None:
        """The ``(`` left innermost open at the end of the nearest earlier
        line indented less than this one (None: no such line, or nothing
        open there)."""
        for line_indent, open_at_end in reversed(self.done):
            if line_indent < self.indent:
                return open_at_end
        return None

    def closed_before(self, innermost: int) -> None:
        """``)`` were inserted at the end of the last line: ``innermost`` is
        the ``(`` now open there."""
        self.done[-1] = (self.done[-1][0], innermost)


def _step(stack: list[int], kind: str, start: int) -> bool:
    """Open or close a node on ``stack``; False for a ``)`` with none open."""
    if kind == "LPAREN":
        stack.append(start)
    elif kind == "RPAREN":
        if not stack:
            return False
        stack.pop()
    return True


def _solid(tokens: Sequence[Token]) -> list[Token]:
    return [token for token in tokens if token[0] != "COMMENT"]


def closing_places(text: str, tokens: Sequence[Token]) -> list[Closer] | None:
    """Where the indentation puts each missing ``)`` of one graph.

    Args:
        text: the source text the tokens index.
        tokens: the graph's tokens, from its first ``(`` to its last
            token (comments may be among them).

    Returns:
        One :class:`Closer` per ``(`` left open, in text order; empty when
        nothing is missing; None when the indentation contradicts the
        parentheses (a role indented under a node already closed, or no
        shallower line to hang it on) and so names no place.

    Example:
        >>> from amrcheck.reading._parse import tokenize
        >>> text = "(a / b\\n   :ARG0 (c / d\\n   :ARG1 (e / f))"
        >>> [(c.at, c.opening) for c in closing_places(text, tokenize(text))]
        [(22, 16)]
        >>> text[:22] + ")" + text[22:]
        '(a / b\\n   :ARG0 (c / d)\\n   :ARG1 (e / f))'
    """
    stack: list[int] = []  # offsets of the open "("
    closers: list[Closer] = []
    lines = _Lines(text)
    last_end = -1  # end of the last token read
    solid = _solid(tokens)
    for index, (kind, start, end) in enumerate(solid):
        if lines.enter(start, stack) and kind == "ROLE":
            parent = lines.offside_parent()
            if parent is None or parent not in stack:
                return None
            while stack[-1] != parent:
                closers.append(Closer(last_end, stack.pop()))
            lines.closed_before(parent)
        if not _step(stack, kind, start) or not stack and index + 1 < len(solid):
            return None  # a ")" too many, or one that ends the graph early
        last_end = end
    closers.extend(Closer(last_end, opening) for opening in reversed(stack))
    return closers


# -- the quick fix's check ------------------------------------------------------

#: token kinds after which a node or a role target is complete
_VALUES = frozenset({"SYMBOL", "STRING"})


def _insertion_points(tokens: Sequence[Token]) -> list[int]:
    """Offsets after which a ``)`` keeps the graph readable: after a
    concept, a role's target or a ``)`` (and after its alignment, never
    between the two)."""
    points = []
    previous = ""  # kind of the last token that is no comment
    before_previous = ""
    solid = [t for t in tokens if t[0] != "COMMENT"]
    for index, (kind, _, end) in enumerate(solid):
        following = solid[index + 1][0] if index + 1 < len(solid) else ""
        complete = kind == "RPAREN" or (
            kind in _VALUES and previous in ("SLASH", "ROLE")
        ) or (kind == "ALIGNMENT" and (
            previous == "RPAREN" or previous in _VALUES
            and before_previous in ("SLASH", "ROLE")
        ))
        if complete and following != "ALIGNMENT":
            points.append(end)
        before_previous, previous = previous, kind
    return points


def _tree(
    text: str, tokens: Sequence[Token], inserts: Counter[int]
) -> dict[int, int] | None:
    """Each role's node (role offset -> its node's ``(`` offset) once a
    ``)`` is inserted after each token that ends at an offset of
    ``inserts`` (as often as counted); None unless that makes one closed
    tree laid out as the indentation says (see the module docstring)."""
    stack: list[int] = []
    parents: dict[int, int] = {}
    lines = _Lines(text)
    #: "(" offset -> indentation of its line-starting roles
    role_indent: dict[int, int] = {}
    solid = _solid(tokens)
    for index, (kind, start, end) in enumerate(solid):
        starts_line = lines.enter(start, stack)
        if kind == "ROLE":
            if not stack:
                return None
            parent = parents[start] = stack[-1]
            if starts_line and (
                lines.offside_parent() != parent
                or role_indent.setdefault(parent, lines.indent) != lines.indent
            ):
                return None
        elif not _step(stack, kind, start):
            return None
        inserted = inserts.get(end, 0)
        if inserted:
            if inserted > len(stack):
                return None
            del stack[-inserted:]
        if not stack and index + 1 < len(solid):
            return None  # the top closed before the graph's last token
    return None if stack else parents


def certain_closers(text: str, tokens: Sequence[Token]) -> list[int] | None:
    """The offsets to insert the missing ``)`` at, when only those places
    fit the indentation; None when the indentation leaves a choice (or
    contradicts the parentheses, or there are too many places to try).

    Example:
        >>> from amrcheck.reading._parse import tokenize
        >>> text = "(a / b\\n   :ARG0 (c / d\\n   :ARG1 (e / f))"
        >>> certain_closers(text, tokenize(text))
        [22]
        >>> one_line = "(a / b :ARG0 (c / d :ARG1 (e / f))"
        >>> certain_closers(one_line, tokenize(one_line)) is None  # after d? f)?
        True
    """
    places = closing_places(text, tokens)
    if not places:
        return None
    chosen = Counter(closer.at for closer in places)
    tree = _tree(text, tokens, chosen)
    if tree is None:
        return None
    points = _insertion_points(tokens)
    if not chosen.keys() <= set(points):
        return None  # e.g. after a role whose target is missing
    missing = len(places)
    if comb(len(points) + missing - 1, missing) > MAX_TRIES:
        return None
    for option in combinations_with_replacement(points, missing):
        inserts = Counter(option)
        if inserts == chosen:
            continue
        other = _tree(text, tokens, inserts)
        if other is not None and other != tree:
            return None
    return sorted(chosen.elements())
