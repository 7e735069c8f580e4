"""The reading layer: PENMAN text -> entries, with spans and without losses.

One pass of our own, because penman keeps no source positions in its
trees and stops at the first stray token between graphs (dropping every
later graph). penman stays the oracle: tests check that every graph we
decode has penman's triples.

How text is cut into entries:

* the text is split into *blocks*, runs of non-blank lines; a block that
  starts with a continuation line (not ``#`` and not ``(`` at column 1)
  joins an unclosed graph of the previous block;
* inside a block, ``#`` lines at depth 0 are the header of the next graph,
  and ``(`` at depth 0 opens a graph;
* a ``(`` at column 1 or a metadata line (``# ::``, ``#::``: see
  :mod:`.metadata`) at column 1 *inside* an open graph
  is taken as the start of the next entry (the open graph gets an
  "unbalanced parentheses" error), so a missing ``)`` never swallows the
  graph after it;
* anything else at depth 0 is a stray token: an error attached to the
  entry of its block (or, for a block without any graph or metadata, to
  the corpus), and reading goes on.

Syntax error codes (documented with all rule codes in the README):
E001 unclosed ``(``, E002 unexpected ``)``, E003 unterminated string,
E004 missing concept, E005 missing role target, E006 unexpected token,
E007 empty graph (metadata but no graph).
"""

from __future__ import annotations

import gc
import re
from dataclasses import dataclass, field, replace
from typing import Final

from ..collector import collector_paused
from ..findings import Finding, Related, Severity
from ..graph import Graph, TripleKind
from ..span import SourceText, Span
from ..types import INSTANCE, Offsets, Triple
from .closing import closing_places
from .metadata import is_metadata_line, metadata_fields
from .tokens import ALIGNMENT, ROLE, STRING, SYMBOL

# Both tokenizers below are built from the lexical classes of :mod:`.tokens`.
_TOKEN_CLASSES = (
    ("COMMENT", r"#[^\n]*"),
    ("STRING", STRING),
    ("UNTERMINATED", r'"[^\n]*'),
    ("LPAREN", r"\("),
    ("RPAREN", r"\)"),
    ("SLASH", "/"),
    ("ROLE", ROLE),
    ("SYMBOL", SYMBOL),
    ("ALIGNMENT", ALIGNMENT),
    ("UNEXPECTED", r"\S"),
)
# The full parser's tokens, kinds named; the white space before each token
# is skipped inside the regex engine (much faster than failing every
# alternative on every blank).
_TOKEN_RE = re.compile(
    r"\s*(?:" + "|".join(f"(?P<{kind}>{regex})" for kind, regex in _TOKEN_CLASSES) + ")"
)
_KIND_OF_GROUP: dict[int, str] = {
    index: name for name, index in _TOKEN_RE.groupindex.items()
}
# The fast path's tokens: the same classes, as plain strings (re.findall
# returns the one group: no match objects); what the fast path cannot
# handle falls to \S. Leading blanks are skipped inside the regex engine,
# as above (1.6x faster on indented graphs).
_FAST_TOKEN_RE = re.compile(
    r"\s*(" + "|".join((STRING, r"[()/]", ROLE, ALIGNMENT, SYMBOL, r"\S")) + ")"
)
_NOT_SYMBOL_START = frozenset('()/:"~')

Token = tuple[str, int, int]  # kind, start, end
_PendingRole = tuple[str, int, int, str]  # role, start, end, its alignment


@dataclass(slots=True, eq=False, init=False)
class Entry:
    """One graph of a file: its header (metadata, comments) and its graph.

    ``graph`` is None when the graph text has a syntax error; ``errors``
    then says why. The entry is kept either way: no graph is lost.
    ``__init__`` is written out: the one ``dataclass`` would make runs as
    interpreted code even in the compiled build.
    """

    source: SourceText
    index: int
    start: int
    end: int
    metadata: dict[str, str] = field(default_factory=dict)
    #: metadata key -> offsets of its value
    metadata_offsets: dict[str, tuple[int, int]] = field(default_factory=dict)
    #: offsets of every ``#`` line of the header (metadata included)
    comments: list[tuple[int, int]] = field(default_factory=list)
    graph: Graph | None = None
    errors: list[Finding] = field(default_factory=list)

    def __init__(
        self,
        source: SourceText,
        index: int,
        start: int,
        end: int,
        metadata: dict[str, str] | None = None,
        metadata_offsets: dict[str, tuple[int, int]] | None = None,
        comments: list[tuple[int, int]] | None = None,
        graph: Graph | None = None,
        errors: list[Finding] | None = None,
    ) -> None:
        self.source = source
        self.index = index
        self.start = start
        self.end = end
        self.metadata = {} if metadata is None else metadata
        self.metadata_offsets = {} if metadata_offsets is None else metadata_offsets
        self.comments = [] if comments is None else comments
        self.graph = graph
        self.errors = [] if errors is None else errors

    @property
    def id(self) -> str | None:
        return self.metadata.get("id")

    @property
    def text(self) -> str:
        """The raw block text: header lines and graph, as in the file."""
        return self.source.text[self.start : self.end]

    @property
    def span(self) -> Span:
        return Span(self.source, self.start, self.end)

    @property
    def graph_start(self) -> int:
        """Offset where the graph text starts, read or not: the first
        character after the header (the entry's end if nothing follows it)."""
        if self.graph is not None:
            return self.graph.start
        text = self.source.text
        offset = self.comments[-1][1] if self.comments else self.start
        while offset < self.end and text[offset].isspace():
            offset += 1
        return offset

    def metadata_span(self, key: str) -> Span | None:
        offsets = self.metadata_offsets.get(key)
        return None if offsets is None else Span(self.source, *offsets)

    @property
    def label(self) -> str:
        """``::id`` if present, else ``#<1-based position>``."""
        return self.id if self.id is not None else f"#{self.index + 1}"

    def __repr__(self) -> str:
        status = "ok" if self.graph is not None else f"{len(self.errors)} errors"
        return f"Entry({self.label!r}, line {self.span.line}, {status})"


def tokenize(text: str, start: int = 0, end: int | None = None) -> list[Token]:
    """Lex ``text[start:end]`` into (kind, start, end) tokens."""
    stop = len(text) if end is None else end
    kind_of = _KIND_OF_GROUP
    return [
        (kind_of[group], *m.span(group))
        for m in _TOKEN_RE.finditer(text, start, stop)
        for group in (m.lastindex or 0,)
    ]


def _at_line_start(text: str, offset: int) -> bool:
    return offset == 0 or text[offset - 1] == "\n"


class _EntryParser:
    """Cuts one source into entries; see the module docstring."""

    def __init__(self, source: SourceText, first_index: int = 0) -> None:
        self.source = source
        self.text = source.text
        self.entries: list[Entry] = []
        self.orphans: list[Finding] = []
        self.first_index = first_index  # Entry.index of the first entry
        #: the tokens of blocks for the full parser, kept while the next
        #: block may continue their graph
        self.pending: list[Token] | None = None
        self.depth = 0  # parentheses left open by ``pending``

    def error(self, code: str, message: str, start: int, end: int) -> Finding:
        return Finding(code, message, Severity.ERROR, Span(self.source, start, end))

    # -- blocks -------------------------------------------------------------

    def parse(
        self, start: int = 0, end: int | None = None
    ) -> tuple[list[Entry], list[Finding]]:
        """Entries of ``text[start:end]``; ``start`` must be a line start.

        The text is walked line by line (``str.find``); a line of white
        space only (as ``str.isspace`` and the regex ``\\s`` say) ends a
        block; its first and last characters decide most lines at once.
        """
        text = self.text
        stop = len(text) if end is None else end
        block = -1  # where the block being walked started (-1: none)
        opening = 0  # lines of that block that open with "("
        at = start
        while at < stop:
            newline = text.find("\n", at, stop)
            last = stop if newline < 0 else newline  # the line's end
            if last == at or (
                text[at].isspace()
                and text[last - 1].isspace()
                and text[at:last].isspace()
            ):
                if block >= 0:
                    self.read_block(block, at, opening)
                    block = -1
            else:
                if block < 0:
                    block, opening = at, 0
                if text[at] == "(":
                    opening += 1
            at = last + 1
        if block >= 0:
            self.read_block(block, stop, opening)
        if self.pending is not None:
            self.parse_block(self.pending)
            self.pending = None
        return self.entries, self.orphans

    def read_block(self, start: int, end: int, opening: int) -> None:
        """One block: a run of non-blank lines, ``text[start:end]``, of which
        ``opening`` open with ``(``."""
        text = self.text
        first = start
        while text[first] in " \t\r\f\v":
            first += 1
        char = text[first]
        continues = char != "#" and not (char == "(" and _at_line_start(text, first))
        if self.pending is not None and self.depth > 0 and continues:
            tokens = tokenize(text, start, end)
            self.pending.extend(tokens)
            self.depth = _depth(tokens, self.depth)
            return
        if self.pending is not None:
            self.parse_block(self.pending)
            self.pending = None
        if not continues and first == start and self.fast_block(start, end, opening):
            return
        tokens = tokenize(text, start, end)
        if tokens:
            self.pending = tokens
            self.depth = _depth(tokens, 0)

    def fast_block(self, start: int, end: int, opening: int) -> bool:
        """Read a plain block (header lines, then exactly one clean graph).

        ``opening`` lines of the block open with ``(``: more than the
        graph's first line may open the next graph (the full parser's rule);
        the line walk counted them (a search of the graph's text for
        ``"\n("`` cost ~0.6 µs a graph).

        Tokens are plain strings here (no match objects, no offsets), which
        makes this path several times faster than the full parser; the
        graph's offsets are found later, only if a span is asked for.
        Returns False, having changed nothing, for anything else.
        """
        text = self.text
        pos = start
        header: list[tuple[int, int]] = []  # becomes the entry's comments
        while text.startswith("#", pos):
            newline = text.find("\n", pos, end)
            if newline == -1:
                return False  # a header without a graph: the full parser says so
            header.append((pos, newline))
            pos = newline + 1
        if opening > 1 or not text.startswith("(", pos):
            return False  # more than the graph's first line may open a graph
        graph = fast_graph(self.source, pos, end)
        if graph is None:
            return False
        entry = self.new_entry(header, pos)
        entry.end = graph.end
        entry.graph = graph
        return True

    # -- entries ------------------------------------------------------------

    def parse_block(self, tokens: list[Token]) -> None:
        header: list[Token] = []
        strays: list[Finding] = []
        block_entries: list[Entry] = []
        i, n = 0, len(tokens)
        while i < n:
            kind, start, end = tokens[i]
            if kind == "COMMENT":
                header.append(tokens[i])
                i += 1
            elif kind == "LPAREN":
                entry = self.new_entry(_places(header), start)
                header = []
                i = self.parse_graph(entry, tokens, i)
                block_entries.append(entry)
                if strays and len(block_entries) == 1:
                    entry.errors[:0] = strays
                    strays = []
            else:
                j = i + 1
                while j < n and tokens[j][0] not in ("COMMENT", "LPAREN"):
                    j += 1
                stray = self.stray_error(tokens[i:j])
                if block_entries:
                    block_entries[-1].errors.append(stray)
                else:
                    strays.append(stray)
                i = j
        if any(self.is_metadata(t) for t in header):
            entry = self.new_entry(_places(header), tokens[-1][2])
            entry.end = header[-1][2]
            entry.errors.extend(strays)
            last = header[-1]
            entry.errors.append(
                self.error("E007", "empty graph: metadata without a graph", *last[1:])
            )
            strays = []
        elif header and block_entries:
            # trailing plain comments belong to the entry before them
            block_entries[-1].end = max(block_entries[-1].end, header[-1][2])
        self.orphans.extend(strays)

    def stray_error(self, tokens: list[Token]) -> Finding:
        start, end = tokens[0][1], tokens[-1][2]
        if tokens[0][0] == "RPAREN":
            return self.error(
                "E002", "unbalanced parentheses: unexpected ')'", start, start + 1
            )
        if tokens[0][0] == "UNTERMINATED":
            return self.error("E003", "unterminated string", start, end)
        snippet = self.text[start:end]
        if len(snippet) > 40:
            snippet = snippet[:37] + "..."
        return self.error(
            "E006", f"unexpected text outside a graph: {snippet!r}", start, end
        )

    def is_metadata(self, token: Token) -> bool:
        return is_metadata_line(self.text[token[1] : token[2]])

    def new_entry(self, comments: list[tuple[int, int]], graph_start: int) -> Entry:
        """A new entry whose header lines are ``comments`` (it keeps the list)."""
        start = comments[0][0] if comments else graph_start
        entry = Entry(
            self.source,
            self.first_index + len(self.entries),
            start,
            graph_start,
            comments=comments,
        )
        for line_start, line_end in comments:
            self.read_metadata(entry, line_start, line_end)  # none in a comment
        self.entries.append(entry)
        return entry

    def read_metadata(self, entry: Entry, start: int, end: int) -> None:
        """The metadata of header line ``text[start:end]`` into ``entry``."""
        line = self.text[start:end]
        for key, value_start, value_end in metadata_fields(line):
            if key not in entry.metadata:
                entry.metadata[key] = line[value_start:value_end]
                entry.metadata_offsets[key] = (start + value_start, start + value_end)

    # -- one graph ----------------------------------------------------------

    def parse_graph(self, entry: Entry, tokens: list[Token], i: int) -> int:
        """Parse the graph opening at ``tokens[i]``; return the next index."""
        graph_parse = _GraphParser(self, tokens, i)
        graph, next_index, error = graph_parse.run()
        entry.end = tokens[next_index - 1][2]
        if error is not None:
            entry.errors.append(error)
        else:
            entry.graph = graph
        return next_index


class _GraphParser:
    """Recursive descent over one graph's tokens, with an explicit stack."""

    def __init__(self, owner: _EntryParser, tokens: list[Token], i: int) -> None:
        self.owner = owner
        self.text = owner.text
        self.tokens = tokens
        self.first = i  # the graph's first token
        self.i = i
        self.triples: list[Triple] = []
        self.offsets: list[Offsets] = []
        self.alignments: dict[tuple[int, str], str] = {}

    def peek(self) -> Token | None:
        return self.tokens[self.i] if self.i < len(self.tokens) else None

    def breaks_graph(self, token: Token) -> bool:
        """A ``(`` or ``# ::`` at column 1 inside a graph starts a new entry."""
        kind, start, _ = token
        if not _at_line_start(self.text, start):
            return False
        return kind == "LPAREN" or (kind == "COMMENT" and self.owner.is_metadata(token))

    def fail(self, code: str, message: str, start: int, end: int) -> Finding:
        return self.owner.error(code, message, start, end)

    def unclosed(self, open_parens: list[int]) -> Finding:
        """E001 where the indentation says the first missing ``)`` belongs
        (:mod:`amrcheck.reading.closing`), its ``(`` related; where the
        indentation names no place, where the parser ran out: right after
        the graph's last token (comments aside), the ``(`` it left open
        related, the innermost first."""
        places = closing_places(self.text, self.tokens[self.first : self.i])
        if places:
            at = places[0].at
            openings = [closer.opening for closer in places]
        else:
            last = self.i - 1
            while last > 0 and self.tokens[last][0] == "COMMENT":
                last -= 1
            at = self.tokens[last][2]
            openings = list(reversed(open_parens))
        found = self.fail(
            "E001",
            f"unbalanced parentheses: {len(open_parens)} '(' not closed",
            at,
            at,
        )
        related = tuple(
            Related(Span(self.owner.source, start, start + 1), "this '(' is not closed")
            for start in openings
        )
        return replace(found, related=related)

    def run(  # noqa: C901 -- one flat dispatch loop over the token kinds
        self,
    ) -> tuple[Graph | None, int, Finding | None]:
        open_parens: list[int] = []  # offsets of unclosed "("
        stack: list[str] = []  # variables of the open nodes
        graph_start = self.tokens[self.i][1]
        pending_role: _PendingRole | None = None
        error: Finding | None = None
        text = self.text
        while error is None:
            token = self.peek()
            if token is None or (open_parens and self.breaks_graph(token)):
                error = self.unclosed(open_parens)
                break
            kind, start, end = token
            if kind == "COMMENT":
                self.i += 1
            elif kind == "LPAREN" and (not stack or pending_role is not None):
                self.i += 1
                open_parens.append(start)
                error = self.node(stack, pending_role, start)
                pending_role = None
            elif pending_role is not None:
                error = self.role_target(stack, pending_role, token)
                pending_role = None
            elif kind == "ROLE":
                self.i += 1
                alignment = ""
                nxt = self.peek()
                if nxt is not None and nxt[0] == "ALIGNMENT":
                    alignment = text[nxt[1] : nxt[2]]
                    self.i += 1
                pending_role = (text[start:end], start, end, alignment)
            elif kind == "RPAREN":
                self.i += 1
                open_parens.pop()
                stack.pop()
                if not stack:
                    break
            elif kind == "UNTERMINATED":
                error = self.fail("E003", "unterminated string", start, end)
            else:
                error = self.fail(
                    "E006",
                    f"unexpected {self.describe(token)}; expected a role or ')'",
                    start,
                    end,
                )
        if error is not None:
            self.skip_rest(len(open_parens))
            return None, self.i, error
        return self.build(graph_start), self.i, None

    def describe(self, token: Token) -> str:
        kind, start, end = token
        return {
            "LPAREN": "'('",
            "RPAREN": "')'",
            "SLASH": "'/'",
            "ROLE": f"role {self.text[start:end]!r}",
            "ALIGNMENT": f"alignment {self.text[start:end]!r}",
        }.get(kind, repr(self.text[start:end]))

    def skip_rest(self, depth: int) -> None:
        """After an error, skip to the end of this graph (or its block)."""
        while depth > 0:
            token = self.peek()
            if token is None or self.breaks_graph(token):
                return
            self.i += 1
            if token[0] == "LPAREN":
                depth += 1
            elif token[0] == "RPAREN":
                depth -= 1

    def node(
        self,
        stack: list[str],
        pending_role: _PendingRole | None,
        paren: int,
    ) -> Finding | None:
        """Parse ``var / concept`` after a ``(``; push the node."""
        text = self.text
        token = self.peek()
        if token is None or token[0] != "SYMBOL":
            if token is None:
                return self.fail("E006", "'(' without a variable", paren, paren + 1)
            if token[0] == "UNTERMINATED":  # a string runs on where a variable is
                return self.fail("E003", "unterminated string", token[1], token[2])
            return self.fail(
                "E006",
                f"unexpected {self.describe(token)}; expected a variable",
                token[1],
                token[2],
            )
        self.i += 1
        var_start, var_end = token[1], token[2]
        variable = text[var_start:var_end]
        if pending_role is not None:
            self.add_relation(stack[-1], pending_role, variable, var_start, var_end)
        slash = self.peek()
        if slash is None or slash[0] != "SLASH":
            if slash is not None and slash[0] not in ("RPAREN", "ROLE"):
                return self.fail(
                    "E006",
                    f"unexpected {self.describe(slash)}; expected '/'",
                    slash[1],
                    slash[2],
                )
            return self.fail(
                "E004",
                f"missing concept for variable {variable!r}",
                var_start,
                var_end,
            )
        self.i += 1
        concept = self.peek()
        if concept is None or concept[0] not in ("SYMBOL", "STRING"):
            if concept is not None and concept[0] == "UNTERMINATED":
                return self.fail("E003", "unterminated string", *concept[1:])
            return self.fail(
                "E004",
                f"missing concept after '/' for variable {variable!r}",
                slash[1],
                slash[2],
            )
        self.i += 1
        index = len(self.triples)
        self.triples.append((variable, INSTANCE, text[concept[1] : concept[2]]))
        self.offsets.append((var_start, var_end, concept[1], concept[2]))
        self.take_alignment(index, "target")
        stack.append(variable)
        return None

    def role_target(
        self,
        stack: list[str],
        pending_role: _PendingRole,
        token: Token,
    ) -> Finding | None:
        kind, start, end = token
        role, role_start, role_end, _ = pending_role
        if kind in ("SYMBOL", "STRING"):
            self.i += 1
            index = self.add_relation(
                stack[-1], pending_role, self.text[start:end], start, end
            )
            self.take_alignment(index, "target")
            return None
        if kind == "UNTERMINATED":
            return self.fail("E003", "unterminated string", start, end)
        if kind in ("ROLE", "RPAREN"):
            return self.fail(
                "E005", f"missing target for role {role!r}", role_start, role_end
            )
        return self.fail(
            "E006",
            f"unexpected {self.describe(token)}; expected the target of {role!r}",
            start,
            end,
        )

    def add_relation(
        self,
        source: str,
        pending_role: _PendingRole,
        target: str,
        start: int,
        end: int,
    ) -> int:
        role, role_start, role_end, alignment = pending_role
        index = len(self.triples)
        self.triples.append((source, role, target))
        self.offsets.append((role_start, role_end, start, end))
        if alignment:
            self.alignments[(index, "role")] = alignment
        return index

    def take_alignment(self, index: int, part: str) -> None:
        token = self.peek()
        if token is not None and token[0] == "ALIGNMENT":
            self.alignments[(index, part)] = self.text[token[1] : token[2]]
            self.i += 1

    def build(self, graph_start: int) -> Graph:
        return _build_graph(
            self.owner.source,
            self.triples,
            self.offsets,
            self.alignments,
            graph_start,
            self.tokens[self.i - 1][2],
        )


def _build_graph(
    source: SourceText,
    triples: list[Triple],
    offsets: list[Offsets] | None,
    alignments: dict[tuple[int, str], str],
    start: int,
    end: int,
    kinds: list[TripleKind] | None = None,
) -> Graph:
    """A Graph; without ``offsets`` they are found on first use."""
    if kinds is None:
        variables = {t[0] for t in triples if t[1] == INSTANCE}
        kinds = [
            TripleKind.INSTANCE
            if role == INSTANCE
            else TripleKind.RELATION
            if target in variables and not target.startswith('"')
            else TripleKind.ATTRIBUTE
            for _, role, target in triples
        ]
    return Graph(
        source=source,
        top=triples[0][0],
        triples=triples,
        kinds=kinds,
        start=start,
        end=end,
        alignments=alignments,
        _offsets=offsets,
        offsets_factory=None
        if offsets is not None
        else _GraphOffsets(source, start, end),
    )


def _graph_offsets(source: SourceText, start: int, end: int) -> list[Offsets]:
    """Offsets of a graph the fast path read: the full parser, run on its text."""
    parser = _GraphParser(_EntryParser(source), tokenize(source.text, start, end), 0)
    graph, _, error = parser.run()
    assert graph is not None and error is None, "fast path accepted a bad graph"
    return parser.offsets


class _GraphOffsets:
    """``_graph_offsets(source, start, end)`` when called: a fast-path graph's
    offsets factory. One small object a graph (compiled, its numbers held
    unboxed), where a ``partial`` made four: itself, its arguments and two
    numbers."""

    __slots__ = ("source", "start", "end")

    def __init__(self, source: SourceText, start: int, end: int) -> None:
        self.source = source
        self.start = start
        self.end = end

    def __call__(self) -> list[Offsets]:
        return _graph_offsets(self.source, self.start, self.end)

    def __reduce__(self) -> tuple[type[_GraphOffsets], tuple[SourceText, int, int]]:
        # graphs travel to worker processes; a compiled class pickles by its
        # constructor's arguments
        return _GraphOffsets, (self.source, self.start, self.end)


def _places(tokens: list[Token]) -> list[tuple[int, int]]:
    """(start, end) of each token."""
    return [(start, end) for _, start, end in tokens]


def _depth(tokens: list[Token], depth: int) -> int:
    """Open parentheses after ``tokens``, starting from ``depth``."""
    for kind, _, _ in tokens:
        if kind == "LPAREN":
            depth += 1
        elif kind == "RPAREN":
            depth = max(0, depth - 1)
    return depth


def _split_was_exact(
    body: str, triples: list[Triple], nodes: int, strings: int
) -> bool:
    """Whether white space alone cut ``body`` as the token regex would, for a
    graph of ``nodes`` nodes and ``strings`` quoted targets that
    :func:`_fast_triples` read from ``body.split()``.

    The two cuts differ only where a token holds ``(``, ``)``, ``:``,
    ``/`` or ``"`` that the regex would cut at (``a:b``, ``x/y``,
    ``a(b``, a string with a blank); the reader took exactly one ``(``
    and one ``)`` a node, one ``:`` a role, one ``/`` a node and two
    ``"`` a string, so counting those characters decides it (strings may
    hold ``:`` and ``/``, not parentheses). (Alignments and backslashes
    never come here.)
    """
    if body.count("(") != nodes or body.count(")") != nodes:
        return False
    colons, slashes = body.count(":"), body.count("/")
    if '"' in body:
        if body.count('"') != 2 * strings:
            return False
        for _, _, target in triples:
            if target[0] == '"':
                if target[-1] != '"':
                    return False
                colons -= target.count(":")
                slashes -= target.count("/")
    return colons == len(triples) - nodes and slashes == nodes


_AFTER_NOTHING: Final = 0
_AFTER_ROLE: Final = 1
_AFTER_TARGET: Final = 2


def _fast_triples(  # noqa: C901 -- one flat loop: the reader's hot path
    tokens: list[str], body: str | None
) -> tuple[list[Triple], list[TripleKind], dict[tuple[int, str], str]] | None:
    """Triples, their kinds and alignments of one clean graph, or None.

    ``tokens`` are ``body.split()`` (a ``(`` may be glued to the variable
    after it, ``)`` to the token before them; :func:`_split_was_exact`
    then checks the cut against ``body``) or the fast token regex's
    (``body`` None: nothing to check).

    Mirrors :class:`_GraphParser` on the texts it accepts (checked on every
    shared corpus by the tests); anything unusual (an error, a second
    graph, a stray token, a role named ``:instance``) returns None and the
    full parser takes over. Written for speed: one pass, no helper calls,
    an index into the list (compiled, a C loop; an iterator and ``next``
    would be calls into the interpreter).
    """
    triples: list[Triple] = []
    kinds: list[TripleKind] = []
    alignments: dict[tuple[int, str], str] = {}
    stack: list[str] = []
    variables: set[str] = set()
    targets: list[int] = []  # triples whose target may be a variable
    role = ""  # the role read and not yet given its target ("": none)
    parent = ""  # the variable of the innermost open node
    # what an alignment token read right now would align: the role just
    # read, the last triple's target, or nothing (an int: cheaper than
    # building the alignment key for every token)
    after = _AFTER_NOTHING
    not_symbol = _NOT_SYMBOL_START
    relation, instance = TripleKind.RELATION, TripleKind.INSTANCE
    attribute = TripleKind.ATTRIBUTE
    # a name of a module that is not compiled: a dict look-up at each use
    instance_role = INSTANCE
    nodes = strings = 0  # for the check of the cut
    count = len(tokens)
    i = 0
    while i < count:
        token = tokens[i]
        i += 1
        closing = 0  # the ")" that end this token
        if token[-1] == ")":  # a regex token ends so only if it is ")"
            core = token.rstrip(")")
            closing = len(token) - len(core)
            token = core
        # token[0] compared in place: a character code, no string object
        if not token:
            pass  # closing parentheses alone
        elif token[0] == ":":
            if role or not stack or token == instance_role:
                return None
            role = token
            after = _AFTER_ROLE
        elif token[0] == "(":
            if closing:
                return None  # "(x)": a node without a concept
            if len(token) > 1:
                variable = token[1:]
            elif i < count:
                variable = tokens[i]
                i += 1
            else:
                return None
            if i + 2 > count:
                return None  # the text ended inside a node
            concept = tokens[i + 1]
            if concept[-1] == ")":
                core = concept.rstrip(")")
                closing = len(concept) - len(core)
                concept = core
            if (
                tokens[i] != "/"
                or not concept
                or variable[0] in not_symbol
                or concept[0] in not_symbol
                and (concept[0] != '"' or len(concept) == 1)
            ):
                return None
            i += 2
            if role:
                triples.append((parent, role, variable))
                kinds.append(relation)
                role = ""
            elif stack:
                return None
            after = _AFTER_TARGET
            triples.append((variable, instance_role, concept))
            kinds.append(instance)
            stack.append(variable)
            parent = variable
            variables.add(variable)
            nodes += 1
            if concept[0] == '"':
                strings += 1
        elif token[0] == "~":
            if after == _AFTER_NOTHING or len(token) == 1:
                return None
            if after == _AFTER_ROLE:  # its triple is the next one
                alignments[(len(triples), "role")] = token
            else:
                alignments[(len(triples) - 1, "target")] = token
            after = _AFTER_NOTHING
        elif role and (
            token[0] not in not_symbol or token[0] == '"' and len(token) > 1
        ):
            after = _AFTER_TARGET
            if token[0] != '"':
                targets.append(len(triples))
            else:
                strings += 1
            triples.append((parent, role, token))
            kinds.append(attribute)
            role = ""
        else:
            return None
        while closing:
            closing -= 1
            if role or not stack:
                return None
            stack.pop()
            after = _AFTER_NOTHING
            if stack:
                parent = stack[-1]
                continue
            if i < count or closing:
                return None
            if body is not None and not _split_was_exact(body, triples, nodes, strings):
                return None
            for index in targets:
                if triples[index][2] in variables:
                    kinds[index] = relation
            return triples, kinds, alignments
    return None  # the top node was never closed


def fast_graph(source: SourceText, start: int, end: int) -> Graph | None:
    """The graph at ``start:end`` of ``source`` (it opens with ``(``; white
    space may follow it) when the fast path reads it: one clean graph, no
    comment; None, having made nothing, for anything else.

    :meth:`_EntryParser.fast_block` reads a block's graph with it; the UMR
    reader calls it for a sentence level block that is one run of graph
    lines (no second line opens with ``(``), where the entry that
    :func:`parse_source` would make around the graph is not wanted.
    """
    text = source.text
    graph_end = end
    while text[graph_end - 1] in " \t\r\n\f\v":
        graph_end -= 1
    body = text[start:graph_end]
    if "#" in body:  # a comment
        return None
    parsed = None
    if "~" not in body and "\\" not in body:  # no alignments, no escapes
        parsed = _fast_triples(body.split(), body)
    if parsed is None:
        parsed = _fast_triples(_FAST_TOKEN_RE.findall(body), None)
    if parsed is None:
        return None
    triples, kinds, alignments = parsed
    return _build_graph(source, triples, None, alignments, start, graph_end, kinds)


def parse_source(
    source: SourceText, start: int = 0, end: int | None = None, first_index: int = 0
) -> tuple[list[Entry], list[Finding]]:
    """The entries of ``source`` (or of a region of it, which must start at
    the start of a line), and the errors that belong to no entry.

    ``first_index`` is the :attr:`Entry.index` the first entry gets.
    """
    # Reading makes many small containers and no reference cycles; the
    # cyclic collector would only re-scan the growing corpus (~30 % of
    # reading time), so it pauses here. After a large read the new objects
    # go straight to the oldest generation (freeze + unfreeze: no scan)
    # instead of making the next young collection scan them all; small
    # reads (an editor's re-read of one graph) leave the generations alone.
    # A caller that paused it already (the UMR reader, once a graph block)
    # is not made to pay for a context manager each time.
    if not gc.isenabled():
        return _EntryParser(source, first_index).parse(start, end)
    stop = len(source.text) if end is None else end
    with collector_paused(promote=stop - start >= _PROMOTE_AFTER):
        return _EntryParser(source, first_index).parse(start, end)


#: characters read at once from which new objects skip the young generations
_PROMOTE_AFTER = 1 << 15
