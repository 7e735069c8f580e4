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


def _offside_parent(lines: list[tuple[int, int | None]], indent: int) -> int | None:
    """The ``(`` left innermost open at the end of the nearest earlier line
    indented less than ``indent`` (None: no such line, or nothing open)."""
    for line_indent, open_at_end in reversed(lines):
        if line_indent < indent:
            return open_at_end
    return None


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
    #: per line so far: its indentation, the innermost "(" open at its end
    lines: list[tuple[int, int | None]] = []
    line_start = -1
    indent = 0
    last_end = -1  # end of the last token that is no comment
    closed = False  # the top node was closed: nothing may follow
    for kind, start, end in tokens:
        if kind == "COMMENT":
            continue
        if closed:
            return None
        begin = text.rfind("\n", 0, start) + 1
        if begin != line_start:  # the first token of a line
            if line_start >= 0:
                lines.append((indent, stack[-1] if stack else None))
            line_start, indent = begin, _indent(text, start)
            if kind == "ROLE" and lines:
                parent = _offside_parent(lines, indent)
                if parent is None or parent not in stack:
                    return None
                while stack[-1] != parent:
                    closers.append(Closer(last_end, stack.pop()))
                lines[-1] = (lines[-1][0], parent)
        if kind == "LPAREN":
            stack.append(start)
        elif kind == "RPAREN":
            if not stack:
                return None
            stack.pop()
            closed = not stack
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
    lines: list[tuple[int, int | None]] = []
    #: "(" offset -> indentation of its line-starting roles
    role_indent: dict[int, int] = {}
    line_start = -1
    indent = 0
    closed = False
    for kind, start, end in tokens:
        if kind == "COMMENT":
            continue
        if closed:
            return None
        begin = text.rfind("\n", 0, start) + 1
        starts_line = begin != line_start
        if starts_line:
            if line_start >= 0:
                lines.append((indent, stack[-1] if stack else None))
            line_start, indent = begin, _indent(text, start)
        if kind == "LPAREN":
            stack.append(start)
        elif kind == "RPAREN":
            if not stack:
                return None
            stack.pop()
        elif kind == "ROLE":
            if not stack:
                return None
            parent = stack[-1]
            parents[start] = parent
            if starts_line and lines:
                if _offside_parent(lines, indent) != parent:
                    return None
                if role_indent.setdefault(parent, indent) != indent:
                    return None
        for _ in range(inserts.get(end, 0)):
            if not stack:
                return None
            stack.pop()
        closed = not stack
    return parents if closed else None


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
