"""Validate UMR documents: every rule of :mod:`~amrcheck.validation.umr_rules`.

Layer: engine, above :mod:`amrcheck.reading.umr`. A :class:`UmrValidator`
takes the sentences of one document in file order (streamed: it keeps the
document's variables and its temporal and coreference triples, not the
sentences) and returns each sentence's findings; :meth:`UmrValidator.finish`
adds the findings that need the whole document (references to later
sentences, temporal contradictions, coreference clusters).

Unlike the ÚFAL validator, a format error does not stop the checks of a
sentence: the reader takes the blocks as the authors meant them and every
rule runs on what was read.

Example:
    >>> from amrcheck.reading.umr import read_umr_string
    >>> doc = read_umr_string(
    ...     "# :: snt1\\nWords: Dogs bark\\n\\n# sentence level graph:\\n"
    ...     "(s1b / bark-01 :ARG0 (s1d / dog))\\n\\n# alignment:\\ns1b: 2-2\\n"
    ...     "s1d: 1-1\\n\\n# document level annotation:\\n(s1s0 / sentence)\\n\\n\\n")
    >>> for finding in validate_umr(doc):  # doctest: +ELLIPSIS
    ...     print(finding)
    <string>:5:2: U230 event 's1b' (bark-01) has no :aspect
    <string>:5:2: U408 event 's1b' (bark-01) has no :temporal triple in its document ...
"""

from __future__ import annotations

import re
import unicodedata
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from ..findings import Finding, Related
from ..graph import Graph, TripleKind
from ..reading.umr import (
    STANDARD_ROWS,
    BlockKind,
    Note,
    UmrSentence,
    Word,
    fast_role_places,
)
from ..span import Span
from .umr_inventory import (
    DISCOURSE_CONCEPTS,
    DOCUMENT_CONSTANTS,
    DOCUMENT_RELATIONS,
    NON_EVENT_ROLESETS,
    ROLES,
)
from .umr_rules import UMR_RULES

_Add = Callable[[Finding], None]
_SpanOf = Callable[[int, int], Span]


@dataclass(frozen=True)
class UmrOptions:
    """The relaxations annotation projects use (all off: the format as specified)."""

    optional_document_level: bool = False  # no :temporal triple needed for events
    optional_alignments: bool = False  # nodes may lack an alignment line
    optional_headings: bool = False  # blocks found by empty lines are fine
    optional_aspect: bool = False  # events may lack :aspect
    allow_forward_references: bool = False
    allow_minus_one: bool = False  # -1--1 alignments (UMR 1.0)
    allow_trailing_whitespace: bool = False
    allow_duplicate_roles: bool = False  # non-repeatable relations may repeat
    allow_cycles: bool = False
    check_wiki: bool = True  # :wiki values are Wikidata ids "Q123"
    warn_unaligned_words: bool = True
    warn_overlapping_alignment: bool = False

    @classmethod
    def names(cls) -> list[str]:
        return list(cls.__dataclass_fields__)

    def relaxed(self, names: Iterable[str]) -> UmrOptions:
        """These options with ``names`` (kebab-case, ``no-`` to turn off) set.

        Raises:
            ValueError: a name that is not an option.

        Example:
            >>> options = UmrOptions().relaxed(["optional-alignments", "no-check-wiki"])
            >>> options.optional_alignments, options.check_wiki
            (True, False)
        """
        values = {name: getattr(self, name) for name in self.names()}
        for raw in names:
            text = raw.strip().replace("-", "_")
            value = not text.startswith("no_")
            field_name = text[3:] if not value else text
            if field_name not in values:
                choices = ", ".join(n.replace("_", "-") for n in self.names())
                raise ValueError(f"unknown UMR option {raw!r} (options: {choices})")
            values[field_name] = value
        return UmrOptions(**values)


_VARIABLE_RE = re.compile(r"s([0-9]+)([^\W\d_]+)([0-9]*)")
_NUMBER_RE = re.compile(r"[-+]?[0-9]+(?:[.:][0-9]+)?")
_OP_RE = re.compile(r":op([1-9][0-9]*)")
_PUNCTUATION = re.compile(r"[^\w]+")
_LANGUAGE_RE = re.compile(r"[a-z]{2,3}")
_NO_CYCLE_ROLES = frozenset({":quote", ":modal-predicate"})
_WIKIDATA_RE = re.compile(r'"Q[1-9][0-9]*"')
#: roles that make a node an event (with a concept that is not -91)
_EVENT_ROLES = frozenset({*(f":ARG{n}" for n in range(7)), ":aspect", ":modstr"})
#: the white space of ASCII text without CR (what str.rstrip strips there)
_ASCII_SPACE = frozenset(" \t\f\v\x1c\x1d\x1e\x1f")
_SEVERITY = {code: rule.severity for code, rule in UMR_RULES.items()}

_NOTE_CODES = {
    Note.INVALID_LINE: "U004",
    Note.MISPLACED_COMMENT: "U005",
    Note.MISSING_HEADING: "U006",
    Note.NO_EMPTY_LINE: "U007",
    Note.EXTRA_EMPTY_LINE: "U008",
    Note.EMPTY_LINE_IN_BLOCK: "U008",
    Note.MISSING_SENTENCE_END: "U009",
    Note.MISSING_BLOCK: "U010",
    Note.REPEATED_BLOCK: "U011",
}


def is_variable(text: str) -> bool:
    """``s<N><lowercase letters><digits>``, as in ``s1p``, ``s12sp3``, ``s1č``."""
    match = _VARIABLE_RE.fullmatch(text)
    return match is not None and match.group(2).islower()


@dataclass(slots=True)
class _Node:
    sentence: int  # Sentence index in the file
    concept: str


class UmrValidator:
    """Validates one document, sentence by sentence (see the module docstring)."""

    def __init__(self, options: UmrOptions | None = None) -> None:
        self.options = options or UmrOptions()
        self.nodes: dict[str, _Node] = {}
        self.numbers: dict[int, Span] = {}
        self.crlf_seen = False
        self.position = 0
        #: document-triple nodes not known when read: (variable, sentence index, span)
        self.pending: list[tuple[str, int, Span]] = []
        self.temporal: list[tuple[str, str, str, Span]] = []
        self.coref: list[tuple[str, str, str, Span]] = []
        self.wiki: dict[str, tuple[str, Span]] = {}
        self.entities: set[str] = set()  # in a :same-entity triple
        self.events: set[str] = set()  # detected events of the document
        self.definitions: dict[str, int] = {}  # the current graph's instance triples
        self.defined = _GraphPlaces(None)  # where the current graph's are

    # -- helpers --

    def finding(
        self, code: str, message: str, span: Span, related: tuple[Related, ...] = ()
    ) -> Finding:
        return Finding(code, message, _SEVERITY[code], span, related)

    # -- one sentence --

    def check(self, sentence: UmrSentence) -> list[Finding]:
        """The findings of ``sentence`` (the next one of the document)."""
        found: list[Finding] = []
        add = found.append
        self.physical(sentence, add)
        for note in sentence.notes:
            code = _NOTE_CODES[note.note]
            if code == "U006" and self.options.optional_headings:
                continue
            add(
                self.finding(
                    code,
                    _note_message(note.note, note.detail),
                    sentence.span_of(note.start, note.end),
                )
            )
        found.extend(sentence.errors)
        self.token_block(sentence, add)
        concepts = self.sentence_graph(sentence, add)
        self.alignment(sentence, concepts, add)
        self.document_block(sentence, concepts, add)
        self.position += 1
        return found

    def physical(self, sentence: UmrSentence, add: _Add) -> None:
        text = sentence.source.text
        source = sentence.source
        check_spaces = not self.options.allow_trailing_whitespace
        if text.isascii() and "\r" not in text:
            # nothing to compose, no CR: only trailing white space, found at once
            if check_spaces:
                offset = 0
                for line in text.split("\n"):
                    if line and line[-1] in _ASCII_SPACE:
                        kept = len(line.rstrip())
                        add(self.finding("U001", "trailing white space", Span(
                            source, offset + kept, offset + len(line)
                        )))
                    offset += len(line) + 1
            return
        offset = 0
        for line in text.split("\n"):
            end = offset + len(line)
            if line.endswith("\r"):
                if not self.crlf_seen:
                    self.crlf_seen = True
                    add(
                        self.finding(
                            "U003",
                            "CRLF line end: UMR files use LF only",
                            Span(source, end - 1, end),
                        )
                    )
                line = line[:-1]
            if check_spaces and line != line.rstrip():
                kept = len(line.rstrip())
                add(
                    self.finding(
                        "U001",
                        "trailing white space",
                        Span(source, offset + kept, offset + len(line)),
                    )
                )
            if not line.isascii() and not unicodedata.is_normalized("NFC", line):
                add(
                    self.finding(
                        "U002",
                        "text not in Unicode NFC (compose it)",
                        Span(source, offset, offset + len(line)),
                    )
                )
            offset = end + 1

    # -- token block --

    def token_block(self, sentence: UmrSentence, add: _Add) -> None:  # noqa: C901 -- one flat list of rules
        span = sentence.span_of
        start = sentence.start
        if not sentence.number_places:
            add(
                self.finding(
                    "U101", "sentence without a '# :: sntN' line", span(start, start)
                )
            )
        for _, first, last in sentence.number_places[1:]:
            add(self.finding("U102", "a second '# :: sntN' line", span(first, last)))
        if sentence.number_places:
            number, first, last = sentence.number_places[0]
            here = span(first, last)
            if number in self.numbers:
                add(
                    self.finding(
                        "U103",
                        f"snt{number} is used twice in the file",
                        here,
                        (Related(self.numbers[number], "first here"),),
                    )
                )
            else:
                self.numbers[number] = here.detached()
            if number != self.position + 1:
                add(
                    self.finding(
                        "U104",
                        f"snt{number} is sentence {self.position + 1} of the file",
                        here,
                    )
                )
        rows = sentence.rows
        seen: dict[str, Span] = {}
        counts: dict[str, int] = {}
        for row in rows:
            here = span(row.start, row.end)
            if row.header == "snt":
                add(
                    self.finding(
                        "U106",
                        "tokens on the '# :: sntN' line (UMR 1.0 "
                        "form): put them on a 'Words:' row",
                        here,
                    )
                )
                continue
            name = self.row_kind(row.header, row.language, here, add)
            if name in seen:
                add(
                    self.finding(
                        "U111",
                        f"a second {row.name!r} row",
                        here,
                        (Related(seen[name], "first here"),),
                    )
                )
                continue
            seen[name] = here
            counts[name] = len(row.items)
            if row.header == "Index":
                expected = _counting(len(row.items))
                wrong = (
                    [w for w, e in zip(row.items, expected, strict=True) if w.text != e]
                    if [w.text for w in row.items] != expected
                    else []
                )
                if wrong:
                    add(
                        self.finding(
                            "U107",
                            f"Index row should count 1 2 ... "
                            f"{len(row.items)}; found {wrong[0].text!r}",
                            span(wrong[0].start, wrong[0].end),
                        )
                    )
        has_words = any(r.header in ("Words", "tx", "snt") for r in rows)
        if not has_words:
            add(
                self.finding(
                    "U105",
                    "no 'Words:' row (the tokens that alignments count)",
                    span(start, start),
                )
            )
        words = counts.get("Words", counts.get("tx"))
        if words is None:
            return
        for row in rows:
            name = row.name
            if name not in seen or row.header in ("Words", "tx", "snt"):
                continue
            expected_count, reference = _reference_count(row.header, words, counts)
            if expected_count is None:
                if row.header == "Morpheme Gloss" and "Morphemes" not in counts:
                    add(
                        self.finding(
                            "U108",
                            "morpheme glosses without a 'Morphemes' row",
                            span(row.start, row.end),
                        )
                    )
                continue
            count = len(row.items)
            bad = (
                count < expected_count
                if row.header == "Morphemes"
                else count > expected_count
                if row.header == "Sentence"
                else count != expected_count
            )
            if bad:
                add(
                    self.finding(
                        "U108",
                        f"{row.name!r} has {count} items, "
                        f"{reference} has {expected_count}",
                        span(row.start, row.end),
                    )
                )

    def row_kind(self, header: str, language: str | None, here: Span, add: _Add) -> str:
        """The row's key; reports headers outside the format."""
        standard = header in STANDARD_ROWS and (
            (language is None and not header.endswith("Gloss"))
            or (
                language is not None
                and header.endswith("Gloss")
                and _LANGUAGE_RE.fullmatch(language) is not None
            )
        )
        if standard:
            return header if language is None else f"{header} ({language})"
        if header in STANDARD_ROWS or header in ("tx", "mb", "ge", "ps", "Translation"):
            add(
                self.finding(
                    "U110",
                    f"row header {here.text.split(':')[0]!r} is not in "
                    "the ÚFAL format (read as meant)",
                    here,
                )
            )
            return header if language is None else f"{header} ({language})"
        add(self.finding("U109", f"unknown interlinear row {header!r}", here))
        return header

    # -- sentence graph --

    def sentence_graph(self, sentence: UmrSentence, add: _Add) -> dict[str, str]:  # noqa: C901 -- one flat list of rules
        """Check the graph; return its variables' concepts."""
        graph = sentence.graph
        self.definitions = {}
        self.defined = _GraphPlaces(graph)
        if graph is None:
            for var, concept in sentence.fallback_nodes.items():
                self.nodes.setdefault(var, _Node(self.position, concept))
            return dict(sentence.fallback_nodes)
        options = self.options
        triples, kinds = graph.triples, graph.kinds
        # an enum member is a slow attribute: looked up once, not per triple
        instance = TripleKind.INSTANCE
        concepts: dict[str, str] = {}
        defined_at: dict[str, int] = {}
        for index, ((var, _, concept), kind) in enumerate(
            zip(triples, kinds, strict=True)
        ):
            if kind is not instance:
                continue
            match = _VARIABLE_RE.fullmatch(var)
            if match is None or not match.group(2).islower():
                add(
                    self.finding(
                        "U210",
                        f"variable {var!r} is not of the form "
                        "s<N><letters><digits> (s1p, s12sp3)",
                        graph.role_span(index),
                    )
                )
            elif sentence.number is not None and int(match.group(1)) != sentence.number:
                add(
                    self.finding(
                        "U215",
                        f"variable {var!r} is numbered for another "
                        f"sentence than snt{sentence.number}",
                        graph.role_span(index),
                    )
                )
            if var in concepts or var in self.nodes:
                add(
                    self.finding(
                        "U211",
                        f"variable {var!r} is defined twice",
                        graph.role_span(index),
                    )
                )
            else:
                concepts[var] = concept
                defined_at[var] = index
        for var, concept in concepts.items():
            self.nodes[var] = _Node(self.position, concept)
        children: dict[str, list[tuple[str, int]]] = defaultdict(list)
        out_roles: dict[str, list[tuple[str, int]]] = defaultdict(list)
        for index, ((source, role, target), kind) in enumerate(
            zip(triples, kinds, strict=True)
        ):
            if kind is instance:
                continue
            target_is_node = target in concepts
            if (
                not target_is_node
                and target[:1] == "s"  # what a variable starts with
                and is_variable(target)
            ):
                self.reference(target, concepts, graph, index, add)
                continue
            # the edge that opens its target's node comes right before the
            # node's definition (Graph.defines_target): only a later one is
            # a use before the definition
            if target_is_node and defined_at[target] > index + 1:
                if not options.allow_forward_references:
                    add(
                        self.finding(
                            "U212",
                            f"{target!r} is used before its definition",
                            graph.target_span(index),
                        )
                    )
            if role.endswith("-of") and role != ":consist-of":
                head, plain = target, role[:-3]
            else:
                head, plain = source, role
            # a cycle follows the edges as written: inverted roles break cycles
            if target_is_node and role not in _NO_CYCLE_ROLES:
                children[source].append((target, index))
            if target_is_node or plain == role:
                out_roles[head].append((plain, index))
            self.value(
                graph, index, source, role, target, target_is_node, concepts, add
            )
        if not options.allow_cycles:
            self.cycles(graph, children, add)
        self.node_roles(graph, concepts, defined_at, out_roles, add)
        self.events_of(sentence, graph, concepts, defined_at, out_roles, add)
        self.definitions = defined_at
        return concepts

    def reference(
        self, target: str, concepts: dict[str, str], graph: Graph, index: int, add: _Add
    ) -> None:
        place = graph.target_span(index)
        if target in self.nodes:
            add(
                self.finding(
                    "U213",
                    f"{target!r} is a node of another sentence "
                    "(references stay within the sentence)",
                    place,
                )
            )
        else:
            add(
                self.finding(
                    "U212", f"{target!r} is not defined in this sentence", place
                )
            )

    def value(  # noqa: C901 -- one flat list of rules
        self,
        graph: Graph,
        index: int,
        source: str,
        role: str,
        target: str,
        target_is_node: bool,
        concepts: dict[str, str],
        add: _Add,
    ) -> None:
        """Inventory checks of one edge (its role and its value)."""
        plain = role[:-3] if role.endswith("-of") and role != ":consist-of" else role
        name = plain[1:]
        kind = ROLES.get(name)
        if kind is None and not _OP_RE.fullmatch(plain):
            add(
                self.finding(
                    "U220",
                    f"role {role!r} is not in UMR's inventory",
                    self.defined.role(index),
                )
            )
            return
        quoted = target.startswith('"')
        if not target_is_node and not quoted and not _NUMBER_RE.fullmatch(target):
            if "_" in target or (
                not target.islower() and any(c.isupper() for c in target)
            ):
                add(
                    self.finding(
                        "U223",
                        f"value {target!r} has uppercase letters or '_'",
                        graph.target_span(index),
                    )
                )
        if kind is None:  # :opN
            if concepts.get(source) == "name" and plain == role and not quoted:
                add(
                    self.finding(
                        "U222",
                        f"{role} of a name should be a string, not {target!r}",
                        graph.target_span(index),
                    )
                )
            return
        concept = concepts.get(source, "")
        attribute = (
            kind.attribute
            or (name == "ARG2" and concept == "have-polarity-91")
            or (name == "ARG1" and concept == "rate-entity-91")
        )
        if not attribute and not target_is_node and plain == role:
            add(
                self.finding(
                    "U222",
                    f"{role} relates nodes: found the constant {target!r}",
                    graph.target_span(index),
                )
            )
        elif kind.values and target not in kind.values:
            add(
                self.finding(
                    "U221",
                    f"{target!r} is not a value of {role} ("
                    f"{', '.join(sorted(kind.values))})",
                    graph.target_span(index),
                )
            )
        elif name == "wiki" and self.options.check_wiki and target != "-":
            if not _WIKIDATA_RE.fullmatch(target):
                add(
                    self.finding(
                        "U221",
                        f':wiki should be a Wikidata id such as "Q42", not {target}',
                        graph.target_span(index),
                    )
                )
        if name == "wiki" and quoted:
            self.wiki[source] = (target, graph.target_span(index).detached())

    def cycles(
        self, graph: Graph, children: dict[str, list[tuple[str, int]]], add: _Add
    ) -> None:
        state: dict[str, int] = {}  # 1 on the path, 2 done
        for root in list(children):
            if state.get(root):
                continue
            stack = [(root, iter(children.get(root, ())))]
            state[root] = 1
            while stack:
                node, edges = stack[-1]
                step = next(edges, None)
                if step is None:
                    state[node] = 2
                    stack.pop()
                    continue
                child, index = step
                seen = state.get(child)
                if seen == 1:
                    add(
                        self.finding(
                            "U214",
                            f"cycle: {child!r} dominates itself through this edge",
                            graph.triple_span(index),
                        )
                    )
                elif seen is None:
                    state[child] = 1
                    stack.append((child, iter(children.get(child, ()))))

    def node_roles(  # noqa: C901 -- one flat list of rules
        self,
        graph: Graph,
        concepts: dict[str, str],
        defined_at: dict[str, int],
        out_roles: dict[str, list[tuple[str, int]]],
        add: _Add,
    ) -> None:
        relax = self.options.allow_duplicate_roles
        incoming_name: set[str] = set()
        relation = TripleKind.RELATION
        for (_, role, target), kind in zip(graph.triples, graph.kinds, strict=True):
            if kind is relation and role in (":name", ":ARG2"):
                incoming_name.add(target)
        for node, roles in out_roles.items():
            first: dict[str, int] = {}
            ops: list[tuple[int, int]] = []
            for role, index in roles:
                op = _OP_RE.fullmatch(role) if role.startswith(":op") else None
                if op:
                    ops.append((int(op.group(1)), index))
                if role not in first:
                    first[role] = index
                    continue
                # an :opN is a single attribute, as :wiki is
                role_kind = ROLES.get(role[1:]) if not op else ROLES["wiki"]
                if (
                    role_kind is not None
                    and not role_kind.repeatable
                    and (not relax or role_kind.attribute)
                ):
                    add(
                        self.finding(
                            "U224",
                            f"{node!r} has {role} more than once",
                            self.defined.role(index),
                            (Related(self.defined.role(first[role]), "first here"),),
                        )
                    )
            ops.sort()
            for expected, (number, index) in enumerate(ops, start=1):
                if number > expected:
                    add(
                        self.finding(
                            "U225",
                            f":op{number} without :op{number - 1}",
                            self.defined.role(index),
                        )
                    )
                    break
            if concepts.get(node) == "name":
                place = self.defined.place(node, defined_at[node])
                other = [(r, i) for r, i in roles if not _OP_RE.fullmatch(r)]
                if not ops or ops[0][0] != 1:
                    add(self.finding("U226", f"name {node!r} has no :op1", place))
                if other:
                    add(
                        self.finding(
                            "U226",
                            f"name {node!r} has {other[0][0]}",
                            self.defined.role(other[0][1]),
                        )
                    )
        for node, concept in concepts.items():
            if concept == "name" and node not in incoming_name:
                add(
                    self.finding(
                        "U226",
                        f"name {node!r} is not the :name of a node",
                        self.defined.place(node, defined_at[node]),
                    )
                )

    def events_of(
        self,
        sentence: UmrSentence,
        graph: Graph,
        concepts: dict[str, str],
        defined_at: dict[str, int],
        out_roles: dict[str, list[tuple[str, int]]],
        add: _Add,
    ) -> None:
        options = self.options
        temporal_nodes = {
            node
            for triple in sentence.document.triples
            if triple.group == ":temporal"
            for node in (triple.source, triple.target)
        }
        same_event = {
            node
            for triple in sentence.document.triples
            if triple.relation == ":same-event"
            for node in (triple.source, triple.target)
        }
        for node, concept in concepts.items():
            roles = out_roles.get(node, [])
            names = [r for r, _ in roles]
            index = defined_at[node]
            if concept in DISCOURSE_CONCEPTS or concept in NON_EVENT_ROLESETS:
                marked = [
                    (r, i) for r, i in roles if r in (":aspect", ":modal-strength")
                ]
                if marked:
                    add(
                        self.finding(
                            "U231",
                            f"{marked[0][0]} on {node!r} ({concept}), "
                            "which is not an event",
                            self.defined.role(marked[0][1]),
                        )
                    )
                continue
            event = (
                concept.endswith("-91")
                or not _EVENT_ROLES.isdisjoint(names)
                or node in same_event
            )
            if not event:
                continue
            self.events.add(node)
            if concept == "event":
                continue
            if not options.optional_aspect and ":aspect" not in names:
                add(
                    self.finding(
                        "U230",
                        f"event {node!r} ({concept}) has no :aspect",
                        self.defined.place(node, index),
                    )
                )
            if not options.optional_document_level:
                strengths = (
                    [i for r, i in roles if r == ":modal-strength"]
                    if ":modal-strength" in names
                    else ()
                )
                if strengths:
                    add(
                        self.finding(
                            "U232",
                            ":modal-strength belongs to the document "
                            "level (:modal triples)",
                            self.defined.role(strengths[0]),
                        )
                    )
                if node not in temporal_nodes:
                    add(
                        self.finding(
                            "U408",
                            f"event {node!r} ({concept}) has no "
                            ":temporal triple in its document level block",
                            self.defined.place(node, index),
                        )
                    )

    # -- alignment --

    def alignment(  # noqa: C901 -- one flat list of rules
        self, sentence: UmrSentence, concepts: dict[str, str], add: _Add
    ) -> None:
        options = self.options
        span = sentence.span_of
        words = sentence.words
        count = len(words)
        #: variable -> (start, end) of its first alignment line's variable
        aligned: dict[str, tuple[int, int]] = {}
        word_nodes = [0] * (count + 1)  # nodes aligned to each word (1-based)
        malformed = False  # then unaligned words are not reported
        for line in sentence.alignments:
            variable = line.variable
            here = (line.start, line.start + len(variable))
            if line.error is not None:
                add(
                    self.finding(
                        "U301",
                        f"alignment of {variable!r}: {line.error}",
                        span(line.start, line.end),
                    )
                )
                aligned.setdefault(variable, here)
                malformed = True
                continue
            if variable not in concepts:
                if not is_variable(variable):
                    add(self.finding(
                        "U301", f"{variable!r} is not a variable", span(*here)
                    ))
                    continue
                where = (
                    "a node of another sentence"
                    if variable in self.nodes
                    else "not a node of this sentence's graph"
                )
                add(self.finding("U302", f"{variable!r} is {where}", span(*here)))
                continue
            if variable in aligned:
                add(
                    self.finding(
                        "U303",
                        f"{variable!r} is aligned twice",
                        span(*here),
                        (Related(span(*aligned[variable]), "first here"),),
                    )
                )
                continue
            aligned[variable] = here
            ranges = line.ranges
            if len(ranges) == 1:
                first, last = ranges[0]
                if first == last == 0:
                    continue  # no word
                if not (1 <= first <= last and (last <= count or not count)):
                    self.ranges(ranges, line.range_offsets, words, span, add)
                    if (first, last) == (-1, -1):
                        continue
            else:
                self.ranges(ranges, line.range_offsets, words, span, add)
            for first, last in ranges:
                for position in range(max(first, 1), min(last, count) + 1):
                    word_nodes[position] += 1
        graph = sentence.graph
        has_block = BlockKind.ALIGNMENT in sentence.blocks  # else U010 says it
        if graph is not None and has_block and not options.optional_alignments:
            place = self.defined.place
            definitions = self.definitions
            severity = _SEVERITY["U304"]
            for variable in concepts:
                if variable not in aligned:
                    add(
                        Finding(
                            "U304",
                            f"node {variable!r} has no alignment line "
                            "(0-0 when no word expresses it)",
                            severity,
                            place(variable, definitions[variable]),
                        )
                    )
        if (graph is None or not sentence.alignments) and not words:
            return
        if options.warn_unaligned_words and has_block and not malformed:
            source = sentence.source
            severity = _SEVERITY["U309"]
            is_punctuation = _PUNCTUATION.fullmatch
            for number, word in enumerate(words, start=1):
                if word_nodes[number]:
                    continue
                # a word that opens with a word character is no punctuation
                # (most are: one look instead of a match)
                opening = word.text[0]
                if opening.isalnum() or opening == "_" or not is_punctuation(word.text):
                    add(
                        Finding(
                            "U309",
                            f"word {number} {word.text!r} is aligned to no node",
                            severity,
                            Span(source, word.start, word.end),
                        )
                    )
        if options.warn_overlapping_alignment:
            for number, word in enumerate(words, start=1):
                if word_nodes[number] > 1:
                    add(
                        self.finding(
                            "U310",
                            f"word {number} {word.text!r} is aligned "
                            f"to {word_nodes[number]} nodes",
                            span(word.start, word.end),
                        )
                    )

    def ranges(
        self,
        ranges: list[tuple[int, int]],
        offsets: list[tuple[int, int]],
        words: list[Word],
        span: _SpanOf,
        add: _Add,
    ) -> None:
        if (0, 0) in ranges and len(ranges) > 1:
            start, end = offsets[ranges.index((0, 0))]
            add(
                self.finding(
                    "U306",
                    "0-0 (no word) cannot be combined with other ranges",
                    span(start, end),
                )
            )
            return
        previous = 0
        for (first, last), (start, end) in zip(ranges, offsets, strict=True):
            here = span(start, end)
            if (first, last) == (-1, -1):
                if not self.options.allow_minus_one:
                    add(
                        self.finding(
                            "U308", "-1--1 is UMR 1.0 for 'no word': write 0-0", here
                        )
                    )
                continue
            if (first, last) == (0, 0):
                continue
            if first < 1 or last < 1:
                add(
                    self.finding(
                        "U305", f"range {here.text} is not a-b with 1 <= a", here
                    )
                )
            elif last < first:
                add(
                    self.finding(
                        "U305", f"range {here.text} ends before it starts", here
                    )
                )
            elif first <= previous + 1 and previous:
                add(
                    self.finding(
                        "U305",
                        f"range {here.text} should come after the "
                        "previous one with a gap (merge touching ranges)",
                        here,
                    )
                )
            if max(first, last) > len(words) and words:  # no words: U105 says it
                add(
                    self.finding(
                        "U307",
                        f"range {here.text} goes beyond the {len(words)} words",
                        here,
                    )
                )
            previous = max(previous, last)

    # -- document level --

    def document_block(  # noqa: C901 -- one flat list of rules
        self, sentence: UmrSentence, concepts: dict[str, str], add: _Add
    ) -> None:
        block = sentence.document
        span = sentence.span_of
        if block.variable is not None and block.variable_place is not None:
            expected = f"s{sentence.number}s0" if sentence.number is not None else None
            if not re.fullmatch(r"s[0-9]+s0", block.variable) or (
                expected is not None and block.variable != expected
            ):
                add(
                    self.finding(
                        "U402",
                        f"document node {block.variable!r} should be "
                        f"{expected or 's<N>s0'}",
                        span(*block.variable_place),
                    )
                )
            if block.concept is not None and block.concept != "sentence":
                assert block.concept_place is not None
                add(
                    self.finding(
                        "U402",
                        f"document node concept {block.concept!r} should be 'sentence'",
                        span(*block.concept_place),
                    )
                )
        for name, place in block.groups:
            if name not in DOCUMENT_RELATIONS:
                add(
                    self.finding(
                        "U406",
                        f"unknown document-level group {name!r} "
                        "(:temporal, :modal, :coref)",
                        span(*place),
                    )
                )
        if block.triples:
            # the places kept for the whole document (pending nodes, temporal
            # and coreference triples) share one copy of the block's lines
            first = block.triples[0].places[0][0]
            last = block.triples[-1].places[2][1]
            lines = span(first, last).detached()
            kept_source, shift = lines.source, first - lines.start
        for triple in block.triples:
            triple_span = span(triple.places[0][0], triple.places[2][1])
            known = DOCUMENT_RELATIONS.get(triple.group)
            if known is not None and triple.relation not in known:
                add(
                    self.finding(
                        "U407",
                        f"{triple.relation!r} is not a {triple.group} relation",
                        span(*triple.places[1]),
                    )
                )
            current = False
            for node, place in (
                (triple.source, triple.places[0]),
                (triple.target, triple.places[2]),
            ):
                if node in concepts:
                    current = True
                elif node not in self.nodes and node not in DOCUMENT_CONSTANTS:
                    self.pending.append((
                        node,
                        self.position,
                        Span(kept_source, place[0] - shift, place[1] - shift),
                    ))
            pair = (triple.source, triple.target)
            if not current and pair not in (
                ("root", "author"),
                ("author", "have-condition-91"),
            ):
                add(
                    self.finding(
                        "U405",
                        "neither node of this triple is from this sentence",
                        triple_span,
                    )
                )
            if triple.group == ":temporal":
                kept = Span(
                    kept_source, triple_span.start - shift, triple_span.end - shift
                )
                self.temporal.append(
                    (triple.source, triple.relation, triple.target, kept)
                )
            elif triple.group == ":coref" and triple.relation in (
                ":same-entity",
                ":same-event",
            ):
                kept = Span(
                    kept_source, triple_span.start - shift, triple_span.end - shift
                )
                self.coref.append((triple.source, triple.relation, triple.target, kept))
                self.coref_kind(
                    triple.source, triple.target, triple.relation, triple_span, add
                )

    def coref_kind(
        self, first: str, second: str, relation: str, place: Span, add: _Add
    ) -> None:
        for node in (first, second):
            if relation == ":same-entity":
                if node in self.events:
                    add(
                        self.finding(
                            "U410",
                            f"{node!r} is an event: :same-event, not :same-entity",
                            place,
                        )
                    )
                self.entities.add(node)
            elif node in self.entities:
                add(
                    self.finding(
                        "U410",
                        f"{node!r} is an entity (:same-entity "
                        "elsewhere): not :same-event",
                        place,
                    )
                )

    # -- the whole document --

    def finish(self) -> list[Finding]:
        """The findings that need the whole document; call after the last sentence."""
        found: list[Finding] = []
        for node, position, place in self.pending:
            later = self.nodes.get(node)
            if later is not None and later.sentence > position:
                found.append(
                    self.finding(
                        "U404", f"{node!r} is a node of a later sentence", place
                    )
                )
            elif later is None:
                found.append(
                    self.finding(
                        "U403",
                        f"{node!r} is neither a node of this "
                        "or an earlier sentence nor a document "
                        "constant",
                        place,
                    )
                )
        clusters = _Clusters()
        for first, _, second, _ in self.coref:
            clusters.join(first, second)
        self.wiki_mismatches(clusters, found)
        found.extend(_temporal_contradictions(self.temporal, clusters, self.finding))
        return found

    def wiki_mismatches(self, clusters: _Clusters, found: list[Finding]) -> None:
        if not self.options.check_wiki:
            return
        first_wiki: dict[str, tuple[str, str, Span]] = {}
        for node in sorted(
            self.wiki,
            key=lambda n: (self.nodes[n].sentence if n in self.nodes else 0, n),
        ):
            if node not in clusters.parent:
                continue
            root = clusters.find(node)
            value, place = self.wiki[node]
            if root not in first_wiki:
                first_wiki[root] = (node, value, place)
            elif first_wiki[root][1] != value:
                other, other_value, other_place = first_wiki[root]
                found.append(
                    self.finding(
                        "U411",
                        f"{node!r} has :wiki {value} but is coreferent with "
                        f"{other!r} ({other_value})",
                        place,
                        (Related(other_place, "the other :wiki"),),
                    )
                )


class _Clusters:
    """Union-find over coreferent nodes."""

    def __init__(self) -> None:
        self.parent: dict[str, str] = {}

    def find(self, node: str) -> str:
        parent = self.parent.setdefault(node, node)
        while parent != self.parent[parent]:
            self.parent[parent] = self.parent[self.parent[parent]]
            parent = self.parent[parent]
        self.parent[node] = parent
        return parent

    def join(self, first: str, second: str) -> None:
        a, b = self.find(first), self.find(second)
        if a != b:
            self.parent[max(a, b)] = min(a, b)


def _temporal_contradictions(
    triples: list[tuple[str, str, str, Span]],
    clusters: _Clusters,
    finding: Callable[..., Finding],
) -> list[Finding]:
    """Contradictions of the temporal triples after transitive closure.

    ``(parent :before child)`` puts the child before the parent (the label
    says where the child is); ``:after`` the other way; ``:overlap``,
    ``:contained`` and ``:contains`` make the two overlap. Coreferent nodes
    are one. A contradiction is a node before itself (a cycle of
    before-edges) or two overlapping nodes one of which is before the other.
    """

    def key(node: str) -> str:
        return clusters.find(node) if node in clusters.parent else node

    earlier: dict[str, set[str]] = defaultdict(set)  # x -> nodes before x
    overlaps: list[tuple[str, str, Span]] = []
    found: list[Finding] = []
    for parent, relation, child, place in triples:
        a, b = key(parent), key(child)
        if relation == ":before":
            pair = (b, a)  # child before parent
        elif relation == ":after":
            pair = (a, b)
        elif relation in (":overlap", ":contained", ":contains"):
            overlaps.append((a, b, place))
            continue
        else:
            continue
        first, then = pair
        if first == then or then in _reachable(earlier, first):
            found.append(
                finding(
                    "U409",
                    f"{parent} {relation} {child} contradicts the "
                    "order the earlier temporal triples give",
                    place,
                )
            )
            continue
        earlier[then].add(first)
    for a, b, place in overlaps:
        if a != b and (a in _reachable(earlier, b) or b in _reachable(earlier, a)):
            found.append(
                finding(
                    "U409",
                    "these nodes overlap in time, but one is "
                    "before the other by the other temporal triples",
                    place,
                )
            )
    return found


def _reachable(earlier: dict[str, set[str]], start: str) -> set[str]:
    """Every node before ``start`` (transitively)."""
    seen: set[str] = set()
    stack = [start]
    while stack:
        for node in earlier.get(stack.pop(), ()):
            if node not in seen:
                seen.add(node)
                stack.append(node)
    return seen


#: ``( variable /``: where a node is defined in a graph's text
_DEFINITION_RE = re.compile(r'\(\s*([^\s()/:"~]+)\s*/')


class _GraphPlaces:
    """Where each variable of one graph is defined (:meth:`place`), and
    where its roles are (:meth:`role`)."""

    __slots__ = ("graph", "places", "roles")

    def __init__(self, graph: Graph | None) -> None:
        self.graph = graph
        self.places: dict[str, tuple[int, int]] | None = None
        self.roles: list[tuple[int, int]] | None = None

    def role(self, index: int) -> Span:
        """The role of triple ``index`` (not an instance triple): for a graph
        the fast path read, from its role tokens alone
        (:func:`~amrcheck.reading.umr.fast_role_places`), which are cheaper
        than the offsets of all its triples."""
        graph = self.graph
        assert graph is not None
        if graph.offsets_factory is None:
            return graph.role_span(index)
        if self.roles is None:
            self.roles = fast_role_places(graph)
        assert self.roles is not None
        # the non-instance triples are in the order of their role tokens
        ordinal = index - graph.kinds[:index].count(TripleKind.INSTANCE)
        return Span(graph.source, *self.roles[ordinal])

    def place(self, variable: str, index: int) -> Span:
        """Where ``variable`` (instance triple ``index``) is defined: the
        first ``( variable /`` of the graph's text, found for all variables
        in one pass; much cheaper than the offsets of all its triples
        (``role_span``), which it uses once they are known."""
        graph = self.graph
        assert graph is not None
        if graph.offsets_factory is not None:
            places = self.places
            if places is None:
                places = self.places = {}
                for match in _DEFINITION_RE.finditer(
                    graph.source.text, graph.start, graph.end
                ):
                    places.setdefault(match.group(1), match.span(1))
            place = places.get(variable)
            if place is not None:
                return Span(graph.source, *place)
        return graph.role_span(index)


_NOTE_MESSAGES = {
    Note.INVALID_LINE: "this line fits no kind of line of the {} block",
    Note.MISPLACED_COMMENT: "comment line after content: comments go at a "
    "block's start",
    Note.MISSING_HEADING: "block without its heading {!r} (read as that block)",
    Note.NO_EMPTY_LINE: "no empty line before {!r}",
    Note.EXTRA_EMPTY_LINE: "more empty lines than the format has (one between "
    "blocks, two after a sentence)",
    Note.EMPTY_LINE_IN_BLOCK: "empty line inside a block",
    Note.MISSING_SENTENCE_END: "the sentence should end with two empty lines",
    Note.MISSING_BLOCK: "sentence without its {!r} block",
    Note.REPEATED_BLOCK: "a second {!r} block in this sentence",
}


def _note_message(note: Note, detail: str) -> str:
    return _NOTE_MESSAGES[note].format(detail)


_NUMERALS: list[str] = []


def _counting(count: int) -> list[str]:
    """``["1", "2", ..., str(count)]`` (what an Index row holds)."""
    while len(_NUMERALS) < count:
        _NUMERALS.append(str(len(_NUMERALS) + 1))
    return _NUMERALS[:count]


def _reference_count(
    header: str, words: int, counts: dict[str, int]
) -> tuple[int | None, str]:
    if header in ("Index", "Word Gloss", "Morphemes", "Sentence"):
        return words, "'Words'"
    if header == "Morpheme Gloss":
        return counts.get("Morphemes"), "'Morphemes'"
    return None, ""


def validate_umr(
    sentences: Iterable[UmrSentence], options: UmrOptions | None = None
) -> list[Finding]:
    """Every finding of a document's sentences, in file order."""
    validator = UmrValidator(options)
    found: list[Finding] = []
    for sentence in sentences:
        found.extend(validator.check(sentence))
    found.extend(validator.finish())
    return found
