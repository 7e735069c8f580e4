"""The rule table: every finding code amrcheck emits, its severity and meaning.

This module is plain data plus code-pattern matching; the checks live in
:mod:`amrcheck.validation.validate` (and the syntax checks in the reader). Codes are
stable: a code, once released, keeps its meaning and is never reused.

Code families (a code's prefix selects its family, e.g. ``--select E2``):

* ``E0xx`` syntax (reported by the reader),
* ``E1xx`` / ``W1xx`` graph and file structure (variables, ids, blocks),
* ``E2xx`` roles,
* ``W3xx`` PropBank frames (warnings only: the inventory changes between
  releases, so a frame we do not know is suspicious, not wrong),
* ``W4xx`` suspicious values.

``docs/rules.md`` documents the same table for people; a test keeps the
two in step.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from ..findings import Finding, Severity
from .umr_rules import UMR_RULES


@dataclass(frozen=True, slots=True)
class Rule:
    """One finding code: its default severity and a one-line summary."""

    code: str
    severity: Severity
    summary: str


_E = Severity.ERROR
_W = Severity.WARNING

#: every code amrcheck can report, in documentation order
RULES: dict[str, Rule] = {
    rule.code: rule
    for rule in (
        Rule("E001", _E, "unbalanced parentheses: '(' not closed"),
        Rule("E002", _E, "unbalanced parentheses: unexpected ')'"),
        Rule("E003", _E, "unterminated string"),
        Rule("E004", _E, "missing concept"),
        Rule("E005", _E, "missing role target"),
        Rule("E006", _E, "unexpected token"),
        Rule("E007", _E, "empty graph: metadata without a graph"),
        Rule("E101", _E, "duplicate variable definition"),
        Rule("E102", _E, "undefined variable"),
        Rule("E103", _E, "variable used as a concept"),
        Rule("E104", _E, "disconnected graph: a second tree in the same block"),
        Rule("E105", _E, "duplicate ::id in the file"),
        Rule("W101", _W, "missing ::id"),
        Rule("E201", _E, "role not in the AMR role inventory"),
        Rule("E202", _E, "doubly inverted role (-of-of)"),
        Rule("E203", _E, "malformed numbered role (:op0, :ARG, :opx, :snt01)"),
        Rule("W301", _W, "unknown PropBank frame"),
        Rule("W302", _W, "argument not defined for the frame"),
        Rule("W401", _W, ":polarity value other than '-'"),
        Rule("W402", _W, ":mod with a constant target"),
        Rule("W403", _W, "quoted number"),
        Rule("W404", _W, "unknown :mode value"),
    )
}

_PATTERN_RE = re.compile(r"[EWU][0-9]{0,3}")


def check_patterns(patterns: Iterable[str]) -> list[str]:
    """Normalise code patterns (``E``, ``W4``, ``E101``, ``U3``); reject unknown ones.

    A pattern is a code or a prefix of one, case-insensitive.

    Raises:
        ValueError: a pattern that matches no known code.

    Example:
        >>> check_patterns(["w", "E2"])
        ['W', 'E2']
    """
    result = []
    for raw in patterns:
        pattern = raw.strip().upper()
        if not _PATTERN_RE.fullmatch(pattern) or not any(
            code.startswith(pattern) for code in (*RULES, *UMR_RULES)
        ):
            raise ValueError(
                f"unknown rule code or prefix {raw!r} "
                "(codes look like E101, W4 or U3; see docs/rules.md)"
            )
        result.append(pattern)
    return result


def code_matches(code: str, patterns: Iterable[str]) -> bool:
    """True when ``code`` starts with any of the (normalised) ``patterns``."""
    return any(code.startswith(pattern) for pattern in patterns)


def select_findings(
    findings: Iterable[Finding],
    select: Iterable[str] = (),
    ignore: Iterable[str] = (),
) -> list[Finding]:
    """Keep findings whose code matches ``select`` (all if empty), minus ``ignore``.

    Patterns are normalised with :func:`check_patterns` first.

    Example:
        >>> from amrcheck import read_string, validate
        >>> found = validate(read_string("(a / alpha :polarity +)"))
        >>> [f.code for f in found]
        ['W101', 'W401']
        >>> [f.code for f in select_findings(found, ignore=["W1"])]
        ['W401']
    """
    chosen = check_patterns(select)
    dropped = check_patterns(ignore)
    return [
        f
        for f in findings
        if (not chosen or code_matches(f.code, chosen))
        and not code_matches(f.code, dropped)
    ]
