"""Validation: every problem in a corpus, as :class:`~amrcheck.findings.Finding` data.

This sits on the reading and graph layers and reports, never raises. It
collects the reader's syntax errors (E0xx) and adds the semantic rules of
:mod:`amrcheck.validation.rules`: structure (variables, ids, trees per block), roles
(penman's AMR model), PropBank frames (:mod:`amrcheck.validation.propbank`) and
suspicious values. Front ends (CLI, hook, language server) render the
list; none of them is imported here.

Why "disconnected" means "a second tree in one block": a PENMAN tree is
connected by construction (every node hangs under the top), so nodes can
only be cut off from a graph when a block of text holds more than one
tree, e.g. after a ``)`` closed the top too early, or when a blank line
between two graphs is missing. When a syntax error between the two trees
already explains the split, E104 stays silent (one finding per problem).

Re-validating an edited file: a graph's findings depend only on its text
(and the frame inventory), so a :class:`GraphFindingsCache` passed to
:func:`validate` keeps them per graph text and moves them to where the
graph now is; only new or changed graphs are checked again. File-level
rules (E104, E105, W101) look at several entries and are always re-run.
"""

from __future__ import annotations

import re
import sys
from bisect import bisect_left
from collections.abc import Iterator
from functools import lru_cache
from itertools import pairwise

from penman.models.amr import model as _amr_model

from ..cache import ByteBoundedLru, approximate_size
from ..findings import Finding
from ..graph import Graph, TripleKind
from ..reading import Entry
from ..reading.corpus import Corpus
from ..reading.tokens import (
    FRAME_ARGUMENT_RE,
    NUMBER_RE,
    NUMBERED_ROLE_RE,
    QUOTED_NUMBER_RE,
)
from ..span import SourceText, Span
from ..types import Role
from .propbank import FrameInventory, is_frame_concept, load_frames
from .rules import RULES

#: roles found in released gold corpora but missing from penman's AMR model
EXTRA_ROLES: dict[Role, str] = {
    ":compared-to": "Bio AMR 0.8 gold corpus (84 uses)",
}

#: pronoun concepts short enough to look like variables; ``(i2 / i)`` is "I"
PRONOUN_CONCEPTS = frozenset({"i", "you", "he", "she", "it", "we", "they"})

#: the values AMR gives ``:mode``
MODE_VALUES = frozenset({"imperative", "interrogative", "expressive"})

#: senses a W301 message names before it says how many more there are
_SENSES_SHOWN = 5
_BLANK_LINE_RE = re.compile(r"\n[^\S\n]*\n")


def validate(
    corpus: Corpus,
    frames: FrameInventory | None = None,
    *,
    cache: GraphFindingsCache | None = None,
    seen_ids: dict[str, int] | None = None,
) -> list[Finding]:
    """Every finding of a corpus, sorted by position then code.

    Args:
        corpus: a file read by :func:`~amrcheck.read_corpus` or
            :func:`~amrcheck.read_string`, or one chunk of a file read by
            :func:`~amrcheck.reading.corpus.read_chunks`.
        frames: the PropBank inventory; the bundled one by default.
        cache: graph-level findings of earlier calls (an editor re-checking
            each version of a file); the result is the same without it.
        seen_ids: for a file checked chunk by chunk: ``::id`` -> line of
            its first use in the chunks before this one (E105 spans
            chunks); this chunk's ids are added.

    Returns:
        The reader's syntax errors plus the findings of every rule.

    Example:
        >>> from amrcheck import read_string
        >>> corpus = read_string("# ::id 1\\n(w / want-01 :ARG0 (b / boy) :ARG1 b2)\\n")
        >>> [(f.code, str(f.span), f.span.text) for f in validate(corpus)]
        [('E102', '<string>:2:36', 'b2')]
    """
    inventory = load_frames() if frames is None else frames
    found = list(corpus.findings)
    for entry in corpus.entries:
        found.extend(entry.errors)
        if entry.graph is None:
            continue
        if cache is None:
            found.extend(validate_graph(entry.graph, inventory))
        else:
            found.extend(cache.findings(entry.graph, inventory))
    found.extend(_file_findings(corpus, seen_ids))
    found.sort(key=Finding.sort_key)
    return found


def validate_graph(graph: Graph, frames: FrameInventory | None = None) -> list[Finding]:
    """The findings of one decoded graph (rules E1xx-E2xx, W3xx-W4xx).

    Example:
        >>> from amrcheck import decode
        >>> [f.code for f in validate_graph(decode("(w / want-09 :op0 (w / wish))"))]
        ['W301', 'E203', 'E101']
    """
    inventory = load_frames() if frames is None else frames
    return _GraphChecker(graph, inventory).run()


class GraphFindingsCache:
    """The graph-level findings of graphs already checked, by graph text.

    Identical graph text gives identical triples and identical offsets
    relative to the graph's start, hence the same findings shifted by the
    distance the graph moved. Moved findings are rebuilt on the new text
    (spans print the new line and column). E101 is the exception: its
    message names the line and column of the first definition, so a graph
    with an E101 that moved is checked again rather than moved.

    Not thread-safe: use one cache per thread (the language server runs
    all engine work in one thread). Holds at most ``max_bytes`` (estimated)
    of findings, the least recently used graphs are dropped first. Cached
    findings are kept on the graph's own text, not on the document's: a
    graph version that is gone from the document pins no old document.

    Example:
        >>> from amrcheck import read_string
        >>> from amrcheck.reading.incremental import reparse
        >>> cache = GraphFindingsCache()
        >>> old = read_string("# ::id 1\\n(a / and :op0 b)\\n\\n(m / mod-09)\\n")
        >>> [(f.code, f.span.line) for f in validate(old, cache=cache)]
        [('E203', 2), ('E102', 2), ('W101', 4), ('W301', 4)]
        >>> new = reparse(old, "\\n" + old.source.text)  # every graph moves a line down
        >>> [(f.code, f.span.line) for f in validate(new, cache=cache)]
        [('E203', 3), ('E102', 3), ('W101', 5), ('W301', 5)]
        >>> cache.checked  # graphs validated: both before the edit, none after
        2
    """

    def __init__(self, max_bytes: int = 8 << 20) -> None:
        # graph text -> (line of the graph's start when checked, findings
        # with offsets from the graph's start, on the graph's own text)
        self._known: ByteBoundedLru[str, tuple[int, list[Finding]]] = (
            ByteBoundedLru(max_bytes)
        )
        self._frames: FrameInventory | None = None
        #: how many graphs were validated (not served from the cache)
        self.checked = 0

    def findings(self, graph: Graph, frames: FrameInventory) -> list[Finding]:
        """:func:`validate_graph` of ``graph``, from the cache when possible."""
        if frames is not self._frames:
            self._known.clear()
            self._frames = frames
        source, start = graph.source, graph.start
        known = self._known.get(graph.text)
        if known is not None:
            line, kept = known
            if not kept:
                return []
            if all(f.code not in _POSITIONAL_MESSAGES for f in kept) or (
                line == source.line_column(start)[0]
            ):
                return [f.shifted(source, start) for f in kept]
        found = validate_graph(graph, frames)
        self.checked += 1
        own = SourceText(graph.text, source.path)
        kept = [f.shifted(own, -start) for f in found]
        size = sys.getsizeof(graph.text) + approximate_size(
            kept, keep_out=(SourceText,)
        )
        self._known.put(graph.text, (source.line_column(start)[0], kept), size)
        return found

    def stats(self) -> dict[str, int]:
        """Graphs held, their estimated bytes and the budget."""
        return self._known.stats()


#: codes whose message names a line or column (moved findings must be re-checked)
_POSITIONAL_MESSAGES = frozenset({"E101"})


def is_amr_role(role: Role) -> bool:
    """True if penman's AMR model (plus :data:`EXTRA_ROLES`) knows ``role``.

    Example:
        >>> is_amr_role(":ARG0-of"), is_amr_role(":foo"), is_amr_role(":compared-to")
        (True, False, True)
    """
    return _is_amr_role(role)


@lru_cache(maxsize=4096)
def _is_amr_role(role: Role) -> bool:
    base = role[:-3] if role.endswith("-of") else role
    return bool(_amr_model.has_role(role)) or base in EXTRA_ROLES


def role_problem(role: Role) -> tuple[str, str] | None:
    """``(code, message)`` when ``role`` is not a valid AMR role, else None.

    Example:
        >>> role_problem(":op0")
        ('E203', "malformed numbered role ':op0': :op indices start at 1")
        >>> role_problem(":ARG1-of") is None
        True
    """
    return _role_problem(role)


@lru_cache(maxsize=4096)
def _role_problem(role: Role) -> tuple[str, str] | None:
    # ``:consist-of-of`` is fine: ``:consist-of`` is itself a role
    if role.endswith("-of-of") and (
        not _amr_model.has_role(role[:-3]) or _amr_model.is_role_inverted(role[:-3])
    ):
        return "E202", f"doubly inverted role {role!r}: drop one '-of'"
    base = role[:-3] if role.endswith("-of") else role
    numbered = NUMBERED_ROLE_RE.fullmatch(base)
    if numbered is not None:
        prefix, index = numbered.groups()
        if not index.isdigit():
            return "E203", f"malformed numbered role {role!r}: :{prefix} needs a number"
        if prefix != "ARG" and int(index) == 0:
            return (
                "E203",
                f"malformed numbered role {role!r}: :{prefix} indices start at 1",
            )
        if len(index) > 1 and index.startswith("0"):
            return "E203", f"malformed numbered role {role!r}: leading zero"
    if not _is_amr_role(role):
        return "E201", f"role {role!r} is not in the AMR role inventory"
    return None


def _finding(code: str, message: str, span: Span) -> Finding:
    return Finding(code, message, RULES[code].severity, span)


def _is_bare_constant(target: str) -> bool:
    """Numbers, ``+`` and ``-``: the unquoted constants AMR allows anywhere."""
    return target in ("-", "+") or NUMBER_RE.fullmatch(target) is not None


class _GraphChecker:
    """One pass over a graph's triples, in text order."""

    def __init__(self, graph: Graph, frames: FrameInventory) -> None:
        self.graph = graph
        self.frames = frames
        self.concepts = graph.variables()
        self.found: list[Finding] = []

    def add(self, code: str, message: str, span: Span) -> None:
        self.found.append(_finding(code, message, span))

    def run(self) -> list[Finding]:
        graph = self.graph
        defined: dict[str, int] = {}  # variable -> index of its definition
        for index, triple in enumerate(graph.triples):
            if graph.kinds[index] is TripleKind.INSTANCE:
                self.check_instance(index, triple[0], triple[2], defined)
            else:
                self.check_edge(index, triple[0], triple[1], triple[2])
        return self.found

    # -- nodes ----------------------------------------------------------------

    def check_instance(
        self, index: int, variable: str, concept: str, defined: dict[str, int]
    ) -> None:
        graph = self.graph
        first = defined.get(variable)
        if first is not None:
            where = graph.role_span(first)
            self.add(
                "E101",
                f"variable {variable!r} is already defined at "
                f"{where.line}:{where.column}",
                graph.role_span(index),
            )
        else:
            defined[variable] = index
        # ``(i / it) ... (i2 / i)`` is how AMR writes "it ... I": pronouns are
        # words, and ``(i / i)`` names a variable after its own concept
        other = self.concepts.get(concept)
        if (
            other is not None
            and concept != variable
            and other != concept
            and concept not in PRONOUN_CONCEPTS
        ):
            self.add(
                "E103",
                f"concept {concept!r} is a variable of this graph "
                f"(a {other}); to refer to it, write the role and {concept!r} "
                "without '(' and '/'",
                graph.target_span(index),
            )
        if is_frame_concept(concept) and concept not in self.frames:
            self.add("W301", self.unknown_frame_message(concept),
                     graph.target_span(index))

    def unknown_frame_message(self, concept: str) -> str:
        lemma = concept.rsplit("-", 1)[0]
        senses = self.frames.senses(lemma)
        shown = ", ".join(senses[:_SENSES_SHOWN])
        more = len(senses) - _SENSES_SHOWN
        if more > 0:
            shown += f", and {more} more"
        hint = f"; known: {shown}" if senses else ""
        return f"unknown PropBank frame {concept!r}{hint}"

    # -- edges ------------------------------------------------------------------

    def check_edge(self, index: int, source: str, role: str, target: str) -> None:
        graph = self.graph
        problem = _role_problem(role)
        if problem is not None:
            self.add(problem[0], problem[1], graph.role_span(index))
        is_attribute = graph.kinds[index] is TripleKind.ATTRIBUTE
        if (
            is_attribute
            and not target.startswith('"')
            and role != ":mode"
            and not _is_bare_constant(target)
        ):
            self.add(
                "E102",
                f"undefined variable {target!r} (constants are numbers, "
                "+ or -, or quoted strings)",
                graph.target_span(index),
            )
        self.check_frame_argument(index, source, role, target, is_attribute)
        self.check_value(index, source, role, target, is_attribute)

    def check_frame_argument(
        self, index: int, source: str, role: str, target: str, is_attribute: bool
    ) -> None:
        match = FRAME_ARGUMENT_RE.fullmatch(role)
        if match is None:
            return
        label, inverted = match.groups()
        if inverted and is_attribute:
            return  # no node to look the frame up on
        concept = self.concepts.get(target if inverted else source)
        if concept is None:
            return
        frame = self.frames.get(concept)
        if frame is None or frame.argument(label) is not None:
            return
        known = frame.describe() or "no numbered arguments"
        self.add(
            "W302",
            f"{concept} has no {label} ({known})",
            self.graph.role_span(index),
        )

    def check_value(
        self, index: int, source: str, role: str, target: str, is_attribute: bool
    ) -> None:
        span = self.graph.target_span  # spans are built only when needed
        if role == ":polarity" and target != "-":
            if is_attribute or self.concepts.get(target) != "amr-unknown":
                shown = target if is_attribute else f"a {self.concepts.get(target)}"
                self.add(
                    "W401",
                    f":polarity is {shown}; AMR uses '-' (or amr-unknown "
                    "for yes/no questions)",
                    span(index),
                )
        if not is_attribute:
            return
        # ``:mod 7`` (chapter 7) and ``:mod "1A"`` (figure 1A) are how the
        # guidelines number things; a sign is :polarity's value
        if role == ":mod" and target in ("-", "+"):
            self.add(
                "W402",
                f":mod {target}: a sign is a value of :polarity, not of :mod "
                f"(did you mean :polarity -?)",
                span(index),
            )
        # the AMR Editor quotes a value that starts with '-' (``:value "-1"``,
        # "last"): quoted negative numbers are its form, not a slip
        if (
            QUOTED_NUMBER_RE.fullmatch(target)
            and not target[1:].lstrip().startswith("-")
            and role != ":wiki"
            and self.concepts.get(source) != "name"
        ):
            self.add(
                "W403", f"quoted number {target}; numbers are unquoted", span(index)
            )
        if role == ":mode" and target.strip('"') not in MODE_VALUES:
            self.add(
                "W404",
                f"unknown :mode value {target}; expected one of "
                f"{', '.join(sorted(MODE_VALUES))}",
                span(index),
            )


# -- rules over a whole file ----------------------------------------------------


def _file_findings(
    corpus: Corpus, seen_ids: dict[str, int] | None = None
) -> list[Finding]:
    found: list[Finding] = []
    split_off: set[int] = set()  # entry indices that got E104
    for previous, entry in _split_off_trees(corpus):
        split_off.add(entry.index)
        start = entry.graph.start if entry.graph is not None else entry.start
        line = corpus.source.line_column(previous.graph_start)[0]
        found.append(
            _finding(
                "E104",
                f"disconnected graph: this tree shares a block with the graph "
                f"at line {line} but is not part of it (a ')' too early, or "
                "a missing blank line?)",
                Span(entry.source, start, start + 1),
            )
        )
    first_seen: dict[str, int] = {}  # ::id -> offset of its first value
    earlier = seen_ids or {}  # ::id -> line, in the chunks before this one
    for entry in corpus.entries:
        # spans are built only for findings: this loop runs on every keystroke
        offsets = entry.metadata_offsets.get("id")
        if entry.id is None or offsets is None:
            # a split-off tree has no ::id of course; E104 already says why
            if entry.index not in split_off:
                found.append(
                    _finding(
                        "W101",
                        f"graph {entry.label} has no ::id",
                        Span(entry.source, entry.start, entry.start + 1),
                    )
                )
        elif entry.id in first_seen or entry.id in earlier:
            line = earlier.get(entry.id) or entry.source.line_column(
                first_seen[entry.id]
            )[0]
            found.append(
                _finding(
                    "E105",
                    f"duplicate ::id {entry.id!r} (first at line {line})",
                    Span(entry.source, *offsets),
                )
            )
        else:
            first_seen[entry.id] = offsets[0]
    if seen_ids is not None:
        for id_, offset in first_seen.items():
            seen_ids[id_] = corpus.source.line_column(offset)[0]
    return found


def _split_off_trees(corpus: Corpus) -> Iterator[tuple[Entry, Entry]]:
    """(graph, tree) pairs where the tree shares the graph's block (E104).

    Skipped: trees with ``::`` metadata of their own, and trees separated
    from the graph by a syntax error that already explains the split.
    """
    text = corpus.source.text
    entries = corpus.entries
    # E001 sits inside its own graph (where a ")" is missing): it explains no split
    error_starts = sorted(
        f.span.start
        for f in [*corpus.findings, *(e for entry in entries for e in entry.errors)]
        if f.code != "E001"
    )
    for previous, entry in pairwise(entries):
        if entry.metadata:
            continue
        between = text[previous.end:entry.start]
        if _BLANK_LINE_RE.search(between) or _has_offset_in(
            error_starts, previous.end, entry.start
        ):
            continue
        yield previous, entry


def _has_offset_in(sorted_offsets: list[int], start: int, end: int) -> bool:
    i = bisect_left(sorted_offsets, start)
    return i < len(sorted_offsets) and sorted_offsets[i] < end
