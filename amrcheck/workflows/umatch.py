"""``umatch``: UMR files compared through their word alignments, as compare_umr.pl does.

Layer: engine, above the UMR reader. No search: nodes are mapped by the
words they are aligned to (the facts below are those of ÚFAL's
``compare_umr.pl``, ``ufal/umrtools``; ``docs/umr.md`` says more):

1. nodes of a sentence pair that share an aligned token are linked;
2. nodes unaligned on both sides (``0-0`` or no alignment line) are
   linked when their concepts are equal (a ``name`` node's concept
   counts its ``:opN`` strings: ``name[New York]``);
3. while a node has more than one link, the best link of all ambiguous
   ones wins and its ends drop their other links. Best is, in order:
   equal concepts; more of the node's concept and relations found on the
   other node with values mapped; more relation names in common; longer
   aligned words on both sides; the same variable; the smaller variable
   pair.

Each reference node's concept and relations (values mapped through the
links) are looked for on its partner; an unmapped node's count as not
found, on either side. Document-level triples (ends mapped through the
links of their sentences) count in the same sums unless
``document_level=False``. The figures are those ``compare_umr.pl``
prints: aligned-token sets, node projections, triples in mapped nodes
and the headline "juːmæʧ" P/R/F.

Where the two files' tokens of a sentence differ, the candidate's token
numbers are carried over to the reference's by aligning the token
sequences (:class:`difflib.SequenceMatcher`: equal runs, and replaced runs
of the same length, pair up position by position; a candidate token
without a partner is dropped from its node's alignment);
:attr:`UmatchReport.realigned` lists those sentences.

Example:
    >>> from amrcheck.reading.umr import read_umr_string
    >>> text = ("# :: snt1\\nWords: Dogs bark\\n\\n# sentence level graph:\\n"
    ...         "(s1b / bark-01 :ARG0 (s1d / dog))\\n\\n# alignment:\\ns1b: 2-2\\n"
    ...         "s1d: 1-1\\n\\n# document level annotation:\\n"
    ...         "(s1s0 / sentence)\\n\\n\\n")
    >>> other = text.replace("dog", "cat")
    >>> report = umatch(read_umr_string(text), read_umr_string(other))
    >>> report.umatch.correct, report.umatch.reference, report.umatch.candidate
    (2, 3, 3)
"""

from __future__ import annotations

import difflib
from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Final

from ..collector import collector_paused
from ..graph import Graph, TripleKind
from ..reading.umr import AlignmentLine, Row, UmrDocument, UmrSentence

UNMAPPED: Final = "UNMAPPED"
#: a relation of a node as compared: (name, value to look for)
_Key = tuple[str, str]


@dataclass(slots=True)
class Counts:
    """``correct`` of ``reference`` found, of ``candidate`` given: P, R, F."""

    correct: int = 0
    reference: int = 0
    candidate: int = 0

    @property
    def precision(self) -> float:
        return self.correct / self.candidate if self.candidate else 0.0

    @property
    def recall(self) -> float:
        return self.correct / self.reference if self.reference else 0.0

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0


@dataclass(slots=True)
class Projections:
    """Nodes with a partner on the other side, of all nodes (P over the candidate's)."""

    mapped_reference: int = 0
    mapped_candidate: int = 0
    reference: int = 0
    candidate: int = 0
    #: nodes that had several links before they were made one to one
    ambiguous_reference: int = 0
    ambiguous_candidate: int = 0

    @property
    def precision(self) -> float:
        return self.mapped_candidate / self.candidate if self.candidate else 0.0

    @property
    def recall(self) -> float:
        return self.mapped_reference / self.reference if self.reference else 0.0

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0


@dataclass(slots=True)
class UmatchReport:
    """compare_umr.pl's figures for a candidate document against its reference."""

    tokens: int = 0
    aligned_token_sets: Counts = field(default_factory=Counts)
    projections: Projections = field(default_factory=Projections)
    mapped_triples: Counts = field(default_factory=Counts)
    umatch: Counts = field(default_factory=Counts)
    #: labels of the sentence pairs whose tokens differ (aligned by difflib)
    realigned: list[str] = field(default_factory=list)
    #: labels of reference sentences the candidate lacks (its nodes count unmapped)
    unpaired: list[str] = field(default_factory=list)


class _Sentence:
    """A sentence as umatch compares it: its nodes are numbers (0, 1, ...,
    in the order the graph gives their concepts), and each property of the
    nodes is one list, indexed by node (a plain class: one per sentence, no
    object per node; the lists hold no references to sentences, so a
    comparison makes no reference cycles)."""

    __slots__ = (
        "row",
        "_words",
        "counts_concept",
        "variables",
        "index",
        "concepts",
        "econcepts",
        "aligned",
        "tokens",
        "links",
        "ambiguous",
        "fixed_counts",
        "fixed_sizes",
        "unmapped_counts",
        "node_relations",
        "text_lengths",
        "name_counts",
        "triples",
        "kinds",
        "docrels",
    )

    def __init__(
        self,
        row: Row | None,
        counts_concept: bool,
        variables: list[str],
        index: dict[str, int],
        concepts: list[str],
        twin: _Sentence | None = None,
    ) -> None:
        #: the row of the sentence's tokens, cut into :attr:`words` when
        #: first asked (most sentence pairs have the same row text)
        self.row = row
        self._words: list[str] | None = None
        #: whether the filter counts concepts (the same for every node)
        self.counts_concept = counts_concept
        #: the nodes' variables, and each variable's node
        self.variables = variables
        self.index = index
        self.concepts = concepts
        size = len(variables)
        #: partners (nodes of the other sentence), ordered; the empty ones
        #: are :data:`_NO_LINKS` (never changed)
        self.links: list[list[int]] = [_NO_LINKS] * size
        #: whether the node had several links before they were made one to one
        self.ambiguous = [False] * size
        #: the length of each node's aligned words (-1: not measured yet),
        #: made when a tie between links first asks
        self.text_lengths: list[int] | None = None
        self.docrels: set[tuple[str, str, str]] = _NO_DOCRELS
        if twin is None:
            #: the concepts as linking compares them (a ``name`` node's counts
            #: its ``:opN`` strings: ``name[New York]``): :attr:`concepts` until
            #: a ``name`` node is found
            self.econcepts = concepts
            #: the tokens as aligned in the node's own file (1-based, None:
            #: unaligned); their words' length only a tie between links asks for
            self.aligned: list[tuple[int, ...] | None] = [None] * size
            #: the tokens as compared: :attr:`aligned`, or the candidate's
            #: carried over to the reference's numbers
            self.tokens = self.aligned
            #: kept relations whose value is no node of the sentence (constants),
            #: counted: the same whatever is linked (:data:`_NO_COUNTS`: none)
            self.fixed_counts: list[dict[_Key, int]] = [_NO_COUNTS] * size
            #: how many the concept (if counted) and :attr:`fixed_counts` are
            self.fixed_sizes = [1 if counts_concept else 0] * size
            #: every kept relation, values as written, counted: the same list
            #: (and dicts) as :attr:`fixed_counts` until a value is a node;
            #: :data:`_NOT_COUNTED` until :meth:`unmapped` is first asked
            self.unmapped_counts = self.fixed_counts
            #: kept relations whose value is a node of the sentence: (name, node)
            self.node_relations: list[list[tuple[str, int]]] = [
                _NO_NODE_RELATIONS
            ] * size
            #: the graph's triples and their kinds (read again for the names)
            self.triples: list[tuple[str, str, str]] = _NO_TRIPLES
            self.kinds: list[TripleKind] = _NO_KINDS
            #: relation names (unfiltered) and ``concept``, counted, per node:
            #: empty until first asked for (only ambiguous links ask)
            self.name_counts: list[dict[str, int]] = []
        else:
            # the same graph and alignments as ``twin``'s: its tables, which
            # no comparison changes (counts made when first asked are the
            # same for both), are shared (see :func:`_twin`)
            self.econcepts = twin.econcepts
            self.aligned = self.tokens = twin.aligned
            self.fixed_counts = twin.fixed_counts
            self.fixed_sizes = twin.fixed_sizes
            self.unmapped_counts = twin.unmapped_counts
            self.node_relations = twin.node_relations
            self.triples, self.kinds = twin.triples, twin.kinds
            self.name_counts = twin.name_counts

    @property
    def words(self) -> list[str]:
        """The texts of the sentence's tokens."""
        words = self._words
        if words is None:
            row = self.row
            words = self._words = row.texts() if row is not None else []
        return words

    def unmapped_size(self, node: int) -> int:
        """How many the concept (if counted) and the kept relations are."""
        return self.fixed_sizes[node] + len(self.node_relations[node])

    def unmapped(self, node: int) -> dict[_Key, int]:
        """Every kept relation of the node, values as written, counted
        (made when first asked: most reference nodes are never asked)."""
        counts = self.unmapped_counts[node]
        if counts is _NOT_COUNTED:
            counts = self.fixed_counts[node].copy()
            variables = self.variables
            for role, other in self.node_relations[node]:
                key = (role, variables[other])
                counts[key] = counts.get(key, 0) + 1
            self.unmapped_counts[node] = counts
        return counts

    def text_size(self, node: int) -> int:
        """The length of the node's aligned words, joined by spaces."""
        lengths = self.text_lengths
        if lengths is None:
            lengths = self.text_lengths = [-1] * len(self.variables)
        length = lengths[node]
        if length < 0:
            words = self.words
            aligned = self.aligned[node] or ()
            length = len(" ".join(words[i - 1] for i in aligned if 0 < i <= len(words)))
            lengths[node] = length
        return length

    def names(self, node: int) -> dict[str, int]:
        """The node's relation names (unfiltered) and ``concept``, counted."""
        counts = self.name_counts
        if not counts:  # (a twin's list: made by the first side that asks)
            counts.extend([{"concept": 1} for _ in self.variables])
            index, kinds, instance = self.index, self.kinds, TripleKind.INSTANCE
            for i, (source, role, _) in enumerate(self.triples):
                owner = index.get(source)
                if owner is not None and kinds[i] is not instance:
                    names = counts[owner]
                    names[role] = names.get(role, 0) + 1
        return counts[node]

    def mapped_size(self, node: int) -> int:
        """How many :meth:`mapped_counts` counts (without counting them)."""
        size = self.fixed_sizes[node]
        links = self.links
        for _, target in self.node_relations[node]:
            size += len(links[target]) or 1  # no partner: UNMAPPED, once
        return size

    def mapped_counts(
        self, node: int, partners: list[str]
    ) -> tuple[dict[_Key, int], int]:
        """The node's kept relations, values that are nodes read as their
        partners' variables (``partners``: the other sentence's; each
        partner once; no partner: :data:`UNMAPPED`), counted; and how many
        there are with the concept (if counted)."""
        relations = self.node_relations[node]
        if not relations:
            return self.fixed_counts[node], self.fixed_sizes[node]
        counts = self.fixed_counts[node].copy()
        size = self.fixed_sizes[node]
        links = self.links
        for name, target in relations:
            linked = links[target]
            if not linked:
                key = (name, UNMAPPED)
                counts[key] = counts.get(key, 0) + 1
                size += 1
                continue
            size += len(linked)
            for partner in linked:
                key = (name, partners[partner])
                counts[key] = counts.get(key, 0) + 1
        return counts, size


# the shared empty tables below are Final: the compiled build reads them
# from a C static, not from the module's dict (every sentence reads several)

#: the links of a node not linked yet (never changed: :func:`_link_to` gives
#: a node its own list)
_NO_LINKS: Final[list[int]] = []
#: the counts of a node without kept relations to constants (never changed)
_NO_COUNTS: Final[dict[_Key, int]] = {}
#: the unmapped counts of a node with relations to nodes, not made yet
_NOT_COUNTED: Final[dict[_Key, int]] = {}
_NO_NODE_RELATIONS: Final[list[tuple[str, int]]] = []
_NO_TRIPLES: Final[list[tuple[str, str, str]]] = []
_NO_KINDS: Final[list[TripleKind]] = []
#: the document-level triples of most sentences (never changed)
_NO_DOCRELS: Final[set[tuple[str, str, str]]] = set()


def _lower_name(relation: tuple[str, str]) -> str:
    return relation[0].lower()


def _sentence(sentence: UmrSentence, keep: _Filter) -> _Sentence:  # noqa: C901 -- one pass per kind of triple
    variables: list[str] = []
    index: dict[str, int] = {}
    concepts: list[str] = []
    graph = sentence.graph
    if graph is None:
        made = _Sentence(sentence.token_row(), keep.counts_concept, [], {}, [])
    else:
        instance = TripleKind.INSTANCE
        triples, kinds = graph.triples, graph.kinds
        # loops over the kinds, the triple by index: no (triple, kind) pair
        # made per triple (a graph's kinds are as many as its triples)
        for i, kind in enumerate(kinds):
            if kind is instance:
                source, _, target = triples[i]
                if source not in index:
                    index[source] = len(variables)
                    variables.append(source)
                    concepts.append(target)
        made = _Sentence(
            sentence.token_row(),
            keep.counts_concept,
            variables,
            index,
            concepts,
        )
        made.triples, made.kinds = triples, kinds
        fixed_counts, fixed_sizes = made.fixed_counts, made.fixed_sizes
        node_relations = made.node_relations
        ignored = keep.ignored if keep.active else None
        for i, kind in enumerate(kinds):
            if kind is instance:
                continue
            source, role, target = triples[i]
            owner = index.get(source)
            if owner is None:
                continue
            # a string's quotes dropped (inline: one per relation)
            if len(target) > 1 and target[0] == '"' == target[-1]:
                target = target[1:-1]
            if target == "" or (ignored is not None and ignored(role)):
                continue
            other = index.get(target)
            if other is None:
                key = (role, target)
                fixed = fixed_counts[owner]
                if fixed is _NO_COUNTS:
                    fixed = fixed_counts[owner] = {}
                fixed[key] = fixed.get(key, 0) + 1
                fixed_sizes[owner] += 1
            elif node_relations[owner] is _NO_NODE_RELATIONS:
                node_relations[owner] = [(role, other)]
            else:
                node_relations[owner].append((role, other))
        unmapped_counts = fixed_counts
        names: list[int] = []  # the ``name`` nodes (their concept counts :opN)
        for node in range(len(variables)):
            relations = node_relations[node]
            if relations:
                if unmapped_counts is fixed_counts:
                    unmapped_counts = made.unmapped_counts = fixed_counts.copy()
                unmapped_counts[node] = _NOT_COUNTED
            if concepts[node] == "name":
                names.append(node)
        if names:
            _name_concepts(made, names)
    _align(made, sentence)
    _document_relations(made, sentence)
    return made


def _twin(
    gold: _Sentence, reference: UmrSentence, candidate: UmrSentence, keep: _Filter
) -> _Sentence | None:
    """The candidate's sentence sharing ``gold``'s tables, if its graph and
    alignments are the reference's, variables renamed or not (most
    sentences of a copy with a few edits): its own are made only where
    they differ."""
    graph, other = reference.graph, candidate.graph
    if graph is None or other is None or graph.kinds != other.kinds:
        return None
    if graph.triples != other.triples:
        return _renamed_twin(gold, reference, candidate, other, keep)
    if not _same_alignments(
        reference.alignments, candidate.alignments, gold.index, gold.index
    ):
        return None
    made = _Sentence(
        candidate.token_row(),
        keep.counts_concept,
        gold.variables,
        gold.index,
        gold.concepts,
        gold,
    )
    _document_relations(made, candidate)
    return made


def _renamed_twin(  # noqa: C901 -- one pass over the triple pairs
    gold: _Sentence,
    reference: UmrSentence,
    candidate: UmrSentence,
    graph: Graph,
    keep: _Filter,
) -> _Sentence | None:
    """The candidate's sentence sharing ``gold``'s tables but its variables
    (and the counts that name them), if its graph is the reference's with
    the variables renamed: triple by triple the same names, concepts and
    constants, and nodes where the reference has the same nodes. None for
    a graph with ``name`` nodes (their concepts count :opN values, which
    could be variables)."""
    if gold.econcepts is not gold.concepts:
        return None
    triples, kinds = graph.triples, graph.kinds
    variables: list[str] = []
    index: dict[str, int] = {}
    instance = TripleKind.INSTANCE
    for i, kind in enumerate(kinds):  # the nodes, as _sentence numbers them
        if kind is instance:
            source = triples[i][0]
            if source not in index:
                index[source] = len(variables)
                variables.append(source)
    if len(variables) != len(gold.variables):
        return None
    theirs = gold.index
    for i, (source, role, target) in enumerate(gold.triples):
        other_source, other_role, other_target = triples[i]
        if role != other_role or theirs.get(source) != index.get(other_source):
            return None
        if kinds[i] is not instance:
            # quotes dropped as _sentence drops them: nodes where the
            # reference has nodes, the same constants elsewhere
            if len(target) > 1 and target[0] == '"' == target[-1]:
                target = target[1:-1]
            if len(other_target) > 1 and other_target[0] == '"' == other_target[-1]:
                other_target = other_target[1:-1]
            node = theirs.get(target)
            if node != index.get(other_target):
                return None
            if node is not None:
                continue
        if target != other_target:
            return None
    if not _same_alignments(reference.alignments, candidate.alignments, theirs, index):
        return None
    made = _Sentence(
        candidate.token_row(),
        keep.counts_concept,
        variables,
        index,
        gold.concepts,
        gold,
    )
    # the counts with values as written name the candidate's variables
    # (by index: zip(strict=True) is a generic call in the compiled build)
    fixed_counts, node_relations = gold.fixed_counts, gold.node_relations
    made.unmapped_counts = [
        _NOT_COUNTED if node_relations[node] else fixed_counts[node]
        for node in range(len(fixed_counts))
    ]
    made.triples, made.kinds = triples, kinds
    _document_relations(made, candidate)
    return made


def _same_alignments(
    mine: list[AlignmentLine],
    theirs: list[AlignmentLine],
    my_index: dict[str, int],
    their_index: dict[str, int],
) -> bool:
    """Whether two alignment blocks give the same tokens to the same nodes
    (each block's variables numbered by its index; lines of no node alike)."""
    if len(mine) != len(theirs):
        return False
    for i, a in enumerate(mine):
        b = theirs[i]
        if a.ranges != b.ranges:
            return False
        if a.variable != b.variable or my_index is not their_index:
            if my_index.get(a.variable) != their_index.get(b.variable):
                return False
    return True


def _document_relations(made: _Sentence, sentence: UmrSentence) -> None:
    document = sentence.document.triples
    if document:
        made.docrels = {(t.source, t.relation, t.target) for t in document}


def _name_concepts(sentence: _Sentence, names: list[int]) -> None:
    """A ``name`` node's concept as linking compares it: ``name[New York]``
    (its ``:opN`` strings in the order of their names)."""
    ops: dict[int, list[tuple[str, str]]] = {node: [] for node in names}
    index, kinds, instance = sentence.index, sentence.kinds, TripleKind.INSTANCE
    for i, (source, role, target) in enumerate(sentence.triples):
        owner = index.get(source)
        if owner is None or owner not in ops or kinds[i] is instance:
            continue
        if role[3:].isdigit() and role.startswith(":op"):
            if len(target) > 1 and target[0] == '"' == target[-1]:
                target = target[1:-1]
            ops[owner].append((role, target))
    econcepts = sentence.econcepts = sentence.concepts.copy()
    for node, found in ops.items():
        found.sort(key=_lower_name)
        econcepts[node] = f"name[{' '.join(value for _, value in found)}]"


def _align(made: _Sentence, sentence: UmrSentence) -> None:
    """Give the nodes their aligned tokens (``0-0``: unaligned)."""
    index, aligned = made.index, made.aligned
    for line in sentence.alignments:
        node = index.get(line.variable)
        ranges = line.ranges
        if node is None or not ranges:
            continue
        if len(ranges) == 1:  # most lines: one range, its tokens in order
            first, last = ranges[0]
            if first or last:  # 0-0: unaligned
                aligned[node] = tuple(range(first, last + 1))
        else:
            aligned[node] = tuple(
                sorted({i for a, b in ranges for i in range(a, b + 1)})
            )


class _Filter:
    """``--only`` / ``--except``: which relation names (and ``concept``) count."""

    def __init__(
        self, only: Collection[str] = (), exclude: Collection[str] = ()
    ) -> None:
        self.only = {name.lstrip(":") for name in only}
        self.exclude = {name.lstrip(":") for name in exclude}
        if self.only and self.exclude:
            self.only -= self.exclude
            self.exclude = set()
            if not self.only:
                raise ValueError("--except leaves none of the --only relations")
        self.active = bool(self.only or self.exclude)
        self.counts_concept = not self.ignored("concept")

    def ignored(self, name: str) -> bool:
        name = name.lstrip(":")
        if self.only:
            return name not in self.only
        return name in self.exclude


def _found(
    sentence: _Sentence, node: int, other: _Sentence, partner: int
) -> tuple[int, int, int]:
    """(found, of the node's, of the partner's) concept and relations, the
    node's values that are nodes read as their partners."""
    mine, size = sentence.mapped_counts(node, other.variables)
    found = _found_in(mine, other.unmapped(partner))
    found += _concept_found(sentence, node, other, partner)
    return found, size, other.unmapped_size(partner)


def _concept_found(
    sentence: _Sentence, node: int, other: _Sentence, partner: int
) -> int:
    """1 when the node's concept counts and is its partner's, else 0."""
    if sentence.counts_concept and sentence.concepts[node] == other.concepts[partner]:
        return 1
    return 0


def _found_in(mine: dict[_Key, int], theirs: dict[_Key, int]) -> int:
    """How many of the counted keys ``mine`` are among ``theirs``."""
    found = 0
    for key, count in mine.items():
        available = theirs.get(key)
        if available:
            found += count if count < available else available
    return found


def _names_in_common(mine: dict[str, int], theirs: dict[str, int]) -> int:
    common = 0
    for name, count in mine.items():
        available = theirs.get(name)
        if available:
            common += count if count < available else available
    return common


class _Link:
    """A link offered in a round: ``node`` of ``side`` to ``partner`` of
    ``other`` (a plain class: a dataclass's ``__init__`` runs as interpreted
    code even in the compiled build, and a round makes one a link)."""

    __slots__ = ("side", "node", "other", "partner", "same_concept", "strong", "weak")

    def __init__(
        self,
        side: _Sentence,
        node: int,
        other: _Sentence,
        partner: int,
        same_concept: bool,
        strong: int,
        weak: int,
    ) -> None:
        self.side = side
        self.node = node
        self.other = other
        self.partner = partner
        self.same_concept = same_concept
        self.strong = strong
        self.weak = weak


def _compare_links(a: _Link, b: _Link) -> int:
    if a.same_concept != b.same_concept:
        return -1 if a.same_concept else 1
    if a.strong != b.strong:
        return -1 if a.strong > b.strong else 1
    if a.weak != b.weak:
        return -1 if a.weak > b.weak else 1
    length_a = a.side.text_size(a.node) + a.other.text_size(a.partner)
    length_b = b.side.text_size(b.node) + b.other.text_size(b.partner)
    if length_a != length_b:
        return -1 if length_a > length_b else 1
    source_a, target_a = a.side.variables[a.node], a.other.variables[a.partner]
    source_b, target_b = b.side.variables[b.node], b.other.variables[b.partner]
    same_a = source_a == target_a
    same_b = source_b == target_b
    if same_a != same_b:
        return -1 if same_a else 1
    key_a = source_a + target_a
    key_b = source_b + target_b
    return (key_a > key_b) - (key_a < key_b)


class _Offers:
    """A node's links as a round offered them, and the links then of the
    nodes its kept relations reach: its side of each link (the counts found
    on the partner) holds while those are the same lists (a round replaces
    a node's links, never changes them), and its links only drop."""

    __slots__ = ("reached", "links")

    def __init__(self, reached: list[list[int]], links: list[_Link]) -> None:
        self.reached = reached
        self.links = links


def _ambiguous_links(
    side: _Sentence,
    node: int,
    other: _Sentence,
    into: list[_Link],
    offered: dict[int, _Offers],
) -> None:
    """Add the node's links to ``into`` when it has several (dropping first
    the links their partners dropped); ``other``: the sentence of its
    partners; ``offered``: the side's links as offered before, by node."""
    links = side.links[node]
    if not links:
        return
    theirs = other.links
    live = [partner for partner in links if node in theirs[partner]]
    if len(live) != len(links):
        side.links[node] = live
    if len(live) < 2:
        return
    side.ambiguous[node] = True
    relations = side.node_relations[node]
    before = offered.get(node)
    if before is not None and _same_reached(side.links, relations, before.reached):
        if len(before.links) == len(live):  # none dropped since
            into.extend(before.links)
        else:
            for link in before.links:
                if link.partner in live:
                    into.append(link)
        return
    # the node's side of every link, made once (its partners' links are fixed
    # for this round)
    mine, _ = side.mapped_counts(node, other.variables)
    econcept, names = side.econcepts[node], side.names(node)
    made = [
        _Link(
            side,
            node,
            other,
            partner,
            econcept == other.econcepts[partner],
            _found_in(mine, other.unmapped(partner))
            + _concept_found(side, node, other, partner),
            _names_in_common(names, other.names(partner)),
        )
        for partner in _by_variable(live, other.variables)
    ]
    into.extend(made)
    offered[node] = _Offers([side.links[target] for _, target in relations], made)


def _by_variable(nodes: list[int], variables: list[str]) -> list[int]:
    """``nodes`` in the order of their variables (distinct: one order). Two
    nodes, most of a node's links, are compared here: sorted() with a key
    calls the key as a Python function even in the compiled build."""
    if len(nodes) == 2:
        first, second = nodes
        return nodes if variables[first] < variables[second] else [second, first]
    return sorted(nodes, key=variables.__getitem__)


def _same_reached(
    links: list[list[int]],
    relations: list[tuple[str, int]],
    reached: list[list[int]],
) -> bool:
    """Whether the nodes ``relations`` reach hold the lists ``reached`` still."""
    for i, (_, target) in enumerate(relations):
        if links[target] is not reached[i]:
            return False
    return True


def _link(reference: _Sentence, candidate: _Sentence) -> None:
    """Link the nodes of a sentence pair one to one (see the module)."""
    by_token, unaligned = _candidate_index(candidate)
    # the order links are made in does not matter: they are read sorted
    econcepts = reference.econcepts
    for node, tokens in enumerate(reference.tokens):
        if tokens is None:
            others = unaligned.get(econcepts[node])
            if others is not None:
                _link_to(reference, node, candidate, others)
            continue
        for token in tokens:
            others = by_token.get(token)
            if others is not None:
                _link_to(reference, node, candidate, others)
    _one_to_one(reference, candidate)


def _link_to(
    reference: _Sentence, node: int, candidate: _Sentence, others: list[int]
) -> None:
    """Link the node to each of ``others`` (both ways)."""
    links = reference.links[node]
    if links is _NO_LINKS:
        links = reference.links[node] = []
    theirs = candidate.links
    for other in others:
        if other not in links:
            links.append(other)
        back = theirs[other]
        if back is _NO_LINKS:
            theirs[other] = [node]
        elif node not in back:
            back.append(node)


def _candidate_index(
    candidate: _Sentence,
) -> tuple[dict[int, list[int]], dict[str, list[int]]]:
    """The candidate's nodes by aligned token, and its unaligned ones by concept."""
    by_token: dict[int, list[int]] = {}
    unaligned: dict[str, list[int]] = {}
    econcepts = candidate.econcepts
    for node, tokens in enumerate(candidate.tokens):
        # a list made only for a key seen first (setdefault makes one a call)
        if tokens is None:
            econcept = econcepts[node]
            group = unaligned.get(econcept)
            if group is None:
                unaligned[econcept] = [node]
            else:
                group.append(node)
            continue
        for token in tokens:
            group = by_token.get(token)
            if group is None:
                by_token[token] = [node]
            else:
                group.append(node)
    return by_token, unaligned


def _one_to_one(reference: _Sentence, candidate: _Sentence) -> None:
    """While a node has several links, the best ambiguous link wins.

    A round visits the nodes of each side in variable order; it drops a
    node's links that its partner dropped, and offers the node's links when
    it has several. Only the nodes with several links, and those that linked
    to a node the last round made one to one, are visited: for any other,
    the visit does nothing (links are only ever dropped), so the rounds are
    those of visiting every node.
    """
    # links are made both ways: none is stale before the first round
    ref_nodes = _several_links(reference)
    cand_nodes = _several_links(candidate)
    if not ref_nodes and not cand_nodes:
        return
    ref_offered: dict[int, _Offers] = {}
    cand_offered: dict[int, _Offers] = {}
    while True:
        pending: list[_Link] = []
        for node in ref_nodes:
            _ambiguous_links(reference, node, candidate, pending, ref_offered)
        for node in cand_nodes:
            _ambiguous_links(candidate, node, reference, pending, cand_offered)
        if not pending:
            return
        # the first best, as min(pending, key=cmp_to_key(_compare_links))
        # picks it, without a key object per link
        best = pending[0]
        for offered in pending:
            if _compare_links(offered, best) < 0:
                best = offered
        side, node, other, partner = best.side, best.node, best.other, best.partner
        # the nodes that linked to the two ends now hold stale links
        left_by_partner = [n for n in other.links[partner] if n != node]
        left_by_node = [n for n in side.links[node] if n != partner]
        side.links[node] = [partner]
        other.links[partner] = [node]
        if side is reference:
            ref_left, cand_left = left_by_partner, left_by_node
        else:
            ref_left, cand_left = left_by_node, left_by_partner
        ref_nodes = _next_round(reference, ref_nodes, ref_left)
        cand_nodes = _next_round(candidate, cand_nodes, cand_left)


def _several_links(sentence: _Sentence) -> list[int]:
    """The nodes with several links, in variable order."""
    links = sentence.links
    several = [n for n in range(len(links)) if len(links[n]) > 1]
    if len(several) > 1:
        several.sort(key=sentence.variables.__getitem__)
    return several


def _next_round(sentence: _Sentence, visited: list[int], left: list[int]) -> list[int]:
    """The nodes the next round visits: those with several links still, and
    those just left with a stale link, in variable order."""
    links = sentence.links
    if not left:
        return [n for n in visited if len(links[n]) > 1]
    chosen = {n for n in visited if len(links[n]) > 1}
    chosen.update(left)
    return sorted(chosen, key=sentence.variables.__getitem__)


def _carry_tokens(reference: _Sentence, candidate: _Sentence) -> None:
    """Renumber the candidate's aligned tokens into the reference's tokens."""
    matcher = difflib.SequenceMatcher(
        None, reference.words, candidate.words, autojunk=False
    )
    moved: dict[int, int] = {}
    for tag, a1, a2, b1, b2 in matcher.get_opcodes():
        # equal runs, and replaced runs of equal length (a word changed), pair up
        if tag == "equal" or (tag == "replace" and a2 - a1 == b2 - b1):
            for k in range(a2 - a1):
                moved[b1 + k + 1] = a1 + k + 1
    carried: list[tuple[int, ...] | None] = []
    for tokens in candidate.tokens:
        if tokens is not None:
            tokens = tuple(sorted({moved[t] for t in tokens if t in moved})) or None
        carried.append(tokens)
    candidate.tokens = carried


#: a document's nodes by variable: (their sentence, the node, the sentence
#: of its partners)
_DocumentNodes = dict[str, tuple[_Sentence, int, _Sentence]]


def _single(variable: str, nodes: _DocumentNodes) -> str:
    found = nodes.get(variable)
    if found is None:
        return variable  # a constant
    sentence, node, other = found
    links = sentence.links[node]
    return other.variables[links[0]] if links else UNMAPPED


def umatch(
    reference: UmrDocument,
    candidate: UmrDocument,
    *,
    document_level: bool = True,
    only: Collection[str] = (),
    exclude: Collection[str] = (),
) -> UmatchReport:
    """compare_umr.pl's figures of ``candidate`` against ``reference`` (see the module).

    ``only`` / ``exclude``: relation names (``concept`` included) to count,
    or not to count, as its ``--only`` / ``--except``.

    Raises:
        ValueError: ``exclude`` removes every name of ``only``.
    """
    keep = _Filter(only, exclude)
    with collector_paused():  # thousands of lists, no garbage until the end
        return _umatch(reference, candidate, keep, document_level)


def _umatch(
    reference: UmrDocument,
    candidate: UmrDocument,
    keep: _Filter,
    document_level: bool,
) -> UmatchReport:
    report = UmatchReport()
    # paired by number (umr_corpus.sentence_key's), labelled only where reported
    by_number = {s.pairing_number: s for s in candidate.sentences}
    pairs: list[tuple[_Sentence, _Sentence]] = []
    for sentence in reference.sentences:
        gold = _sentence(sentence, keep)
        partner = by_number.get(sentence.pairing_number)
        if partner is None:
            report.unpaired.append(sentence.label)
            test = _Sentence(gold.row, keep.counts_concept, [], {}, [])
        else:
            test = _twin(gold, sentence, partner, keep) or _sentence(partner, keep)
            if not _same_words(gold, test):
                report.realigned.append(sentence.label)
                _carry_tokens(gold, test)
        pairs.append((gold, test))
    # document-level ends are looked up in the whole document, as they are
    # mapped when their sentence pair is done (a later node: unmapped yet);
    # most documents have no document-level triples: the two maps are made
    # only for those that have
    ref_nodes: _DocumentNodes = {}
    cand_nodes: _DocumentNodes = {}
    if document_level and any(gold.docrels or test.docrels for gold, test in pairs):
        for gold, test in pairs:
            for variable, node in gold.index.items():
                ref_nodes[variable] = (gold, node, test)
            for variable, node in test.index.items():
                cand_nodes[variable] = (test, node, gold)
    else:
        document_level = False
    for gold, test in pairs:
        _link(gold, test)
        _tally(report, gold, test)
        if document_level:
            _tally_document(report.umatch, gold, test, ref_nodes, cand_nodes, keep)
    return report


def _same_words(gold: _Sentence, test: _Sentence) -> bool:
    """Whether the two sentences' tokens are the same (their rows' texts
    compared first: equal texts cut alike)."""
    a, b = gold.row, test.row
    if a is not None and b is not None and a.rest == b.rest:
        return True
    return gold.words == test.words


def _tally(report: UmatchReport, gold: _Sentence, test: _Sentence) -> None:
    report.tokens += len(gold.words)
    sets_gold = _tally_reference(report, gold, test)
    # the candidate's nodes in one pass: token sets, links, unmapped counts
    sets_test: set[tuple[int, ...]] = set()
    mapped = ambiguous = unmapped = 0
    links, flags = test.links, test.ambiguous
    for node, tokens in enumerate(test.tokens):
        if tokens:
            sets_test.add(tokens)
        if flags[node]:
            ambiguous += 1
        if links[node]:
            mapped += 1
        else:
            unmapped += test.unmapped_size(node)
    projections = report.projections
    projections.candidate += len(test.variables)
    projections.mapped_candidate += mapped
    projections.ambiguous_candidate += ambiguous
    report.umatch.candidate += unmapped
    aligned = report.aligned_token_sets
    aligned.correct += len(sets_gold & sets_test)
    aligned.reference += len(sets_gold)
    aligned.candidate += len(sets_test)


def _tally_reference(
    report: UmatchReport, gold: _Sentence, test: _Sentence
) -> set[tuple[int, ...]]:
    """Count the reference's nodes in one pass (token sets, links, what is
    found on each partner); their token sets.

    Sums: the order of the nodes does not matter, that of a node's partners
    does (the first of the best).
    """
    sets_gold: set[tuple[int, ...]] = set()
    mapped = ambiguous = correct = reference = candidate = unmapped = 0
    links, flags = gold.links, gold.ambiguous
    twins = test.node_relations is gold.node_relations  # see _twin
    for node, tokens in enumerate(gold.tokens):
        if tokens:
            sets_gold.add(tokens)
        if flags[node]:
            ambiguous += 1
        partners = links[node]
        if not partners:
            unmapped += gold.mapped_size(node)
            continue
        mapped += 1
        if len(partners) == 1:
            if twins and partners[0] == node and _maps_itself(gold, node):
                # the node's counts are its partner's, every one found
                size = gold.unmapped_size(node)
                correct += size
                reference += size
                candidate += size
                continue
            best = _found(gold, node, test, partners[0])
        else:
            results = [
                _found(gold, node, test, p)
                for p in _by_variable(partners, test.variables)
            ]
            best = results[0]
            for result in results[1:]:
                if result[0] > best[0]:
                    best = result
        correct += best[0]
        reference += best[1]
        candidate += best[2]
    projections = report.projections
    projections.reference += len(gold.variables)
    projections.mapped_reference += mapped
    projections.ambiguous_reference += ambiguous
    for counts in (report.umatch, report.mapped_triples):
        counts.correct += correct
        counts.reference += reference
        counts.candidate += candidate
    report.umatch.reference += unmapped
    return sets_gold


def _maps_itself(sentence: _Sentence, node: int) -> bool:
    """Whether each node the node's kept relations reach is linked to its
    own twin alone (the candidate's sentence shares the tables: then the
    node's relations, values mapped, are its twin's, as counted)."""
    links = sentence.links
    for _, target in sentence.node_relations[node]:
        linked = links[target]
        if len(linked) != 1 or linked[0] != target:
            return False
    return True


def _tally_document(
    counts: Counts,
    gold: _Sentence,
    test: _Sentence,
    ref_nodes: _DocumentNodes,
    cand_nodes: _DocumentNodes,
    keep: _Filter,
) -> None:
    for source, relation, target in gold.docrels:
        if keep.ignored(relation):
            continue
        counts.reference += 1
        mapped = (_single(source, ref_nodes), relation, _single(target, ref_nodes))
        if mapped in test.docrels:
            counts.correct += 1
            counts.candidate += 1
    for source, relation, target in test.docrels:
        if keep.ignored(relation):
            continue
        mapped = (_single(source, cand_nodes), relation, _single(target, cand_nodes))
        if mapped not in gold.docrels:
            counts.candidate += 1
