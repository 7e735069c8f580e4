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
from functools import cmp_to_key

from ..collector import collector_paused
from ..graph import TripleKind
from ..reading.umr import UmrDocument, UmrSentence
from ..reading.umr_corpus import sentence_key

UNMAPPED = "UNMAPPED"
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


class _Node:
    """A node as umatch compares it (a plain class: thousands per file)."""

    __slots__ = (
        "variable",
        "concept",
        "relations",
        "tokens",
        "aligned",
        "words",
        "text_length",
        "links",
        "ambiguous",
        "econcept",
        "counted_concept",
        "unmapped_counts",
        "unmapped_size",
        "fixed_counts",
        "fixed_size",
        "node_relations",
        "name_counts",
    )

    def __init__(self, variable: str, concept: str) -> None:
        self.variable = variable
        self.concept = concept
        #: every relation (name, value), unfiltered: a list of its own from
        #: the first one on
        self.relations: list[tuple[str, str]] = _NO_RELATIONS
        self.tokens: tuple[int, ...] | None = None  # 1-based, None: unaligned
        #: the tokens as aligned in the node's own file (before any carrying
        #: over to the reference's numbers) and that file's words: the
        #: node's text, whose length only a tie between links asks for
        self.aligned: tuple[int, ...] = ()
        self.words: list[str] = _NO_WORDS
        self.text_length = -1  # not measured yet
        #: partner variables, ordered (a dict of its own once linked)
        self.links: dict[str, None] = _NO_LINKS
        self.ambiguous = False
        # what the linking asks again and again, found once when the
        # sentence is read (a node's concept and relations do not change;
        # the filter is one per umatch): :func:`_sentence` fills them in
        self.econcept = concept
        #: the concept when the filter counts it (found when the partner's
        #: is the same), else None; the counts below leave it out (a node
        #: without kept relations then needs no dict of its own)
        self.counted_concept: str | None = None
        #: the part of :attr:`unmapped_counts` whose values are not nodes of
        #: the sentence (constants), counted: the same whatever is linked
        self.fixed_counts: dict[_Key, int] = _NO_COUNTS
        #: kept relations, values as written, counted: the same dict as
        #: :attr:`fixed_counts` until a relation to a node is kept (neither
        #: is changed once the sentence is read)
        self.unmapped_counts: dict[_Key, int] = _NO_COUNTS
        #: how many the concept (if counted) and the kept relations are
        self.unmapped_size = 0
        #: how many the concept (if counted) and :attr:`fixed_counts` are
        self.fixed_size = 0
        #: kept relations whose value is a node of the sentence: (name, its
        #: variable) -- a variable, not the node, so that nodes hold no
        #: reference cycles (a reentrancy would make one) and are freed as
        #: soon as the comparison ends
        self.node_relations: list[tuple[str, str]] = _NO_NODE_RELATIONS
        #: relation names (unfiltered) and ``concept``, counted; made when
        #: first asked for (only ambiguous links ask): see :meth:`names`
        self.name_counts: dict[str, int] | None = None

    def text_size(self) -> int:
        """The length of the node's aligned words, joined by spaces."""
        if self.text_length < 0:
            words = self.words
            self.text_length = len(
                " ".join(words[i - 1] for i in self.aligned if 0 < i <= len(words))
            )
        return self.text_length

    def names(self) -> dict[str, int]:
        """Relation names (unfiltered) and ``concept``, counted."""
        if self.name_counts is None:
            names = {"concept": 1}
            for name, _ in self.relations:
                names[name] = names.get(name, 0) + 1
            self.name_counts = names
        return self.name_counts

    def find_econcept(self) -> str:
        ops = sorted(
            (
                r
                for r in self.relations
                if r[0][3:].isdigit() and r[0].startswith(":op")
            ),
            key=_lower_name,
        )
        return f"name[{' '.join(value for _, value in ops)}]"

    def mapped_size(self, nodes: dict[str, _Node]) -> int:
        """How many :meth:`mapped_counts` counts (without counting them);
        ``nodes``: the node's sentence's."""
        size = self.fixed_size
        for _, target in self.node_relations:
            size += len(nodes[target].links) or 1  # no partner: UNMAPPED, once
        return size

    def mapped_counts(self, nodes: dict[str, _Node]) -> tuple[dict[_Key, int], int]:
        """The node's kept relations, values that are nodes of the sentence
        (``nodes``) read as their partners (each partner once; no partner:
        :data:`UNMAPPED`), counted; and how many there are with the concept
        (if counted)."""
        if not self.node_relations:
            return self.fixed_counts, self.fixed_size
        counts = self.fixed_counts.copy()
        size = self.fixed_size
        for name, target in self.node_relations:
            partners = nodes[target].links or _NO_PARTNER
            size += len(partners)
            for partner in partners:
                key = (name, partner)
                counts[key] = counts.get(key, 0) + 1
        return counts, size


_NO_PARTNER = {UNMAPPED: None}
#: the links of a node not linked yet (never changed: :func:`_link` gives a
#: node its own dict)
_NO_LINKS: dict[str, None] = {}
_NO_WORDS: list[str] = []
_NO_RELATIONS: list[tuple[str, str]] = []
#: the counts of a node without kept relations (never changed: :func:`_sentence`
#: gives a node its own dict)
_NO_COUNTS: dict[_Key, int] = {}
_NO_NODE_RELATIONS: list[tuple[str, str]] = []


def _lower_name(relation: tuple[str, str]) -> str:
    return relation[0].lower()


@dataclass(slots=True)
class _Sentence:
    label: str
    tokens: list[str]
    nodes: dict[str, _Node]
    docrels: set[tuple[str, str, str]]


def _sentence(sentence: UmrSentence, keep: _Filter) -> _Sentence:  # noqa: C901 -- one pass per kind of triple
    nodes: dict[str, _Node] = {}
    graph = sentence.graph
    if graph is not None:
        instance = TripleKind.INSTANCE
        triples, kinds = graph.triples, graph.kinds
        counts_concept = keep.counts_concept
        # loops by index: no (triple, kind) pair made per triple (a graph's
        # kinds are as many as its triples)
        count = len(triples)
        for i in range(count):
            source, _, target = triples[i]
            if kinds[i] is instance and source not in nodes:
                node = nodes[source] = _Node(source, target)
                if counts_concept:
                    node.counted_concept = target
                    node.fixed_size = node.unmapped_size = 1
        ignored = keep.ignored if keep.active else None
        for i in range(count):
            if kinds[i] is instance:
                continue
            source, role, target = triples[i]
            owner = nodes.get(source)
            if owner is None:
                continue
            # a string's quotes dropped (inline: one per relation)
            if len(target) > 1 and target[0] == '"' == target[-1]:
                target = target[1:-1]
            key = (role, target)
            if owner.relations is _NO_RELATIONS:
                owner.relations = [key]
            else:
                owner.relations.append(key)
            if target == "" or (ignored is not None and ignored(role)):
                continue
            owner.unmapped_size += 1
            unmapped = owner.unmapped_counts
            other = nodes.get(target)
            if other is None:
                fixed = owner.fixed_counts
                if fixed is _NO_COUNTS:
                    fixed = owner.fixed_counts = {}
                    if unmapped is _NO_COUNTS:
                        owner.unmapped_counts = unmapped = fixed
                fixed[key] = fixed.get(key, 0) + 1
                owner.fixed_size += 1
                if unmapped is fixed:
                    continue
            else:
                if owner.node_relations is _NO_NODE_RELATIONS:
                    owner.node_relations = []
                    owner.unmapped_counts = unmapped = unmapped.copy()
                owner.node_relations.append((role, target))
            unmapped[key] = unmapped.get(key, 0) + 1
        for node in nodes.values():
            if node.concept == "name":
                node.econcept = node.find_econcept()
    tokens = sentence.word_texts()
    _align(nodes, sentence, tokens)
    document = sentence.document.triples
    docrels = _NO_DOCRELS
    if document:
        docrels = {(t.source, t.relation, t.target) for t in document}
    return _Sentence(sentence.label, tokens, nodes, docrels)


#: the document-level triples of most sentences (never changed)
_NO_DOCRELS: set[tuple[str, str, str]] = set()


def _align(nodes: dict[str, _Node], sentence: UmrSentence, tokens: list[str]) -> None:
    """Give the nodes their aligned tokens (``0-0``: unaligned) and words."""
    for line in sentence.alignments:
        node = nodes.get(line.variable)
        if node is None or not line.ranges or line.ranges == [(0, 0)]:
            continue
        if len(line.ranges) == 1:  # most lines: one range, its tokens in order
            first, last = line.ranges[0]
            node.tokens = tuple(range(first, last + 1))
        else:
            node.tokens = tuple(
                sorted({i for a, b in line.ranges for i in range(a, b + 1)})
            )
        node.aligned, node.words = node.tokens, tokens


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


def _found(node: _Node, other: _Node, nodes: dict[str, _Node]) -> tuple[int, int, int]:
    """(found, of the node's, of the other's) concept and relations, the
    node's values that are nodes (of ``nodes``, its sentence's) read as
    their partners."""
    mine, size = node.mapped_counts(nodes)
    found = _found_in(mine, other.unmapped_counts) + _concept_found(node, other)
    return found, size, other.unmapped_size


def _concept_found(node: _Node, other: _Node) -> int:
    """1 when the node's concept counts and is the other's, else 0."""
    concept = node.counted_concept
    return 1 if concept is not None and concept == other.concept else 0


def _found_in(mine: dict[_Key, int], theirs: dict[_Key, int]) -> int:
    """How many of the counted keys ``mine`` are among ``theirs``."""
    found = 0
    for key, count in mine.items():
        available = theirs.get(key)
        if available:
            found += count if count < available else available
    return found


def _names_in_common(node: _Node, other: _Node) -> int:
    theirs = other.names()
    common = 0
    for name, count in node.names().items():
        available = theirs.get(name)
        if available:
            common += count if count < available else available
    return common


@dataclass(slots=True)
class _Link:
    source: _Node
    target: _Node
    same_concept: bool
    strong: int
    weak: int


def _compare_links(a: _Link, b: _Link) -> int:
    if a.same_concept != b.same_concept:
        return -1 if a.same_concept else 1
    if a.strong != b.strong:
        return -1 if a.strong > b.strong else 1
    if a.weak != b.weak:
        return -1 if a.weak > b.weak else 1
    length_a = a.source.text_size() + a.target.text_size()
    length_b = b.source.text_size() + b.target.text_size()
    if length_a != length_b:
        return -1 if length_a > length_b else 1
    same_a = a.source.variable == a.target.variable
    same_b = b.source.variable == b.target.variable
    if same_a != same_b:
        return -1 if same_a else 1
    key_a = a.source.variable + a.target.variable
    key_b = b.source.variable + b.target.variable
    return (key_a > key_b) - (key_a < key_b)


def _ambiguous_links(
    node: _Node, own: dict[str, _Node], others: dict[str, _Node], into: list[_Link]
) -> None:
    """Add the node's links to ``into`` when it has several (dropping first
    the links their partners dropped); ``own``: its sentence's nodes,
    ``others``: the other side's."""
    links = node.links
    if not links:
        return
    variable = node.variable
    for partner in [p for p in links if variable not in others[p].links]:
        del links[partner]
    if len(links) < 2:
        return
    node.ambiguous = True
    # the node's side of every link, made once (its partners' links are fixed
    # for this round)
    mine, _ = node.mapped_counts(own)
    for partner in sorted(links):
        other = others[partner]
        into.append(
            _Link(
                node,
                other,
                node.econcept == other.econcept,
                _found_in(mine, other.unmapped_counts) + _concept_found(node, other),
                _names_in_common(node, other),
            )
        )


def _link(reference: _Sentence, candidate: _Sentence) -> None:
    """Link the nodes of a sentence pair one to one (see the module)."""
    by_token, unaligned = _candidate_index(candidate)
    # the order links are made in does not matter: they are read sorted
    for node in reference.nodes.values():
        if node.tokens is None:
            others = unaligned.get(node.econcept)
            if others is not None:
                _link_to(node, others)
            continue
        for token in node.tokens:
            others = by_token.get(token)
            if others is not None:
                _link_to(node, others)
    _one_to_one(reference, candidate)


def _link_to(node: _Node, others: list[_Node]) -> None:
    """Link the node to each of ``others`` (both ways)."""
    links = node.links
    if links is _NO_LINKS:
        links = node.links = {}
    variable = node.variable
    for other in others:
        links[other.variable] = None
        if other.links is _NO_LINKS:
            other.links = {variable: None}
        else:
            other.links[variable] = None


def _candidate_index(
    candidate: _Sentence,
) -> tuple[dict[int, list[_Node]], dict[str, list[_Node]]]:
    """The candidate's nodes by aligned token, and its unaligned ones by concept."""
    by_token: dict[int, list[_Node]] = {}
    unaligned: dict[str, list[_Node]] = {}
    for node in candidate.nodes.values():
        # a list made only for a key seen first (setdefault makes one a call)
        if node.tokens is None:
            group = unaligned.get(node.econcept)
            if group is None:
                unaligned[node.econcept] = [node]
            else:
                group.append(node)
            continue
        for token in node.tokens:
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
    ref_nodes = sorted(
        (n for n in reference.nodes.values() if len(n.links) > 1), key=_variable_of
    )
    cand_nodes = sorted(
        (n for n in candidate.nodes.values() if len(n.links) > 1), key=_variable_of
    )
    if not ref_nodes and not cand_nodes:
        return
    while True:
        pending: list[_Link] = []
        for node in ref_nodes:
            _ambiguous_links(node, reference.nodes, candidate.nodes, pending)
        for node in cand_nodes:
            _ambiguous_links(node, candidate.nodes, reference.nodes, pending)
        if not pending:
            return
        best = min(pending, key=cmp_to_key(_compare_links))
        source, target = best.source, best.target
        # the nodes that linked to the two ends now hold stale links
        source_side, target_side = reference.nodes, candidate.nodes
        if source_side.get(source.variable) is not source:
            source_side, target_side = target_side, source_side
        left_by_target = [source_side[v] for v in target.links if v != source.variable]
        left_by_source = [target_side[v] for v in source.links if v != target.variable]
        source.links = {target.variable: None}
        target.links = {source.variable: None}
        if source_side is reference.nodes:
            ref_left, cand_left = left_by_target, left_by_source
        else:
            ref_left, cand_left = left_by_source, left_by_target
        ref_nodes = _next_round(ref_nodes, ref_left)
        cand_nodes = _next_round(cand_nodes, cand_left)


def _variable_of(node: _Node) -> str:
    return node.variable


def _next_round(visited: list[_Node], left: list[_Node]) -> list[_Node]:
    """The nodes the next round visits: those with several links still, and
    those just left with a stale link, in variable order."""
    if not left:
        return [n for n in visited if len(n.links) > 1]
    chosen = {n.variable: n for n in visited if len(n.links) > 1}
    for node in left:
        chosen[node.variable] = node
    return [chosen[v] for v in sorted(chosen)]


def _carry_tokens(reference: _Sentence, candidate: _Sentence) -> None:
    """Renumber the candidate's aligned tokens into the reference's tokens."""
    matcher = difflib.SequenceMatcher(
        None, reference.tokens, candidate.tokens, autojunk=False
    )
    moved: dict[int, int] = {}
    for tag, a1, a2, b1, b2 in matcher.get_opcodes():
        # equal runs, and replaced runs of equal length (a word changed), pair up
        if tag == "equal" or (tag == "replace" and a2 - a1 == b2 - b1):
            for k in range(a2 - a1):
                moved[b1 + k + 1] = a1 + k + 1
    for node in candidate.nodes.values():
        if node.tokens is not None:
            carried = tuple(sorted({moved[t] for t in node.tokens if t in moved}))
            node.tokens = carried or None


def _single(variable: str, nodes: dict[str, _Node]) -> str:
    node = nodes.get(variable)
    if node is None:
        return variable  # a constant
    return next(iter(node.links), UNMAPPED)


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
    with collector_paused():  # thousands of nodes, no garbage until the end
        return _umatch(reference, candidate, keep, document_level)


def _umatch(
    reference: UmrDocument,
    candidate: UmrDocument,
    keep: _Filter,
    document_level: bool,
) -> UmatchReport:
    report = UmatchReport()
    by_key = {sentence_key(s): s for s in candidate.sentences}
    pairs: list[tuple[_Sentence, _Sentence]] = []
    for sentence in reference.sentences:
        gold = _sentence(sentence, keep)
        partner = by_key.get(sentence_key(sentence))
        if partner is None:
            report.unpaired.append(gold.label)
            test = _Sentence(gold.label, gold.tokens, {}, _NO_DOCRELS)
        else:
            test = _sentence(partner, keep)
            if test.tokens != gold.tokens:
                report.realigned.append(gold.label)
                _carry_tokens(gold, test)
        pairs.append((gold, test))
    # document-level ends are looked up in the whole document, as they are
    # mapped when their sentence pair is done (a later node: unmapped yet);
    # most documents have no document-level triples: the two maps are made
    # only for those that have
    if document_level and any(gold.docrels or test.docrels for gold, test in pairs):
        ref_nodes = {v: n for gold, _ in pairs for v, n in gold.nodes.items()}
        cand_nodes = {v: n for _, test in pairs for v, n in test.nodes.items()}
    else:
        document_level = False
        ref_nodes = cand_nodes = {}
    for gold, test in pairs:
        _link(gold, test)
        _tally(report, gold, test)
        if document_level:
            _tally_document(report.umatch, gold, test, ref_nodes, cand_nodes, keep)
    return report


def _tally(report: UmatchReport, gold: _Sentence, test: _Sentence) -> None:
    report.tokens += len(gold.tokens)
    sets_gold = _tally_reference(report, gold, test)
    # the candidate's nodes in one pass: token sets, links, unmapped counts
    sets_test: set[tuple[int, ...]] = set()
    mapped = ambiguous = unmapped = 0
    for node in test.nodes.values():
        if node.tokens:
            sets_test.add(node.tokens)
        if node.ambiguous:
            ambiguous += 1
        if node.links:
            mapped += 1
        else:
            unmapped += node.unmapped_size
    projections = report.projections
    projections.candidate += len(test.nodes)
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
    nodes, others = gold.nodes, test.nodes
    for node in nodes.values():
        if node.tokens:
            sets_gold.add(node.tokens)
        if node.ambiguous:
            ambiguous += 1
        links = node.links
        if not links:
            unmapped += node.mapped_size(nodes)
            continue
        mapped += 1
        if len(links) == 1:
            best = _found(node, others[next(iter(links))], nodes)
        else:
            results = [_found(node, others[v], nodes) for v in sorted(links)]
            best = results[0]
            for result in results[1:]:
                if result[0] > best[0]:
                    best = result
        correct += best[0]
        reference += best[1]
        candidate += best[2]
    projections = report.projections
    projections.reference += len(gold.nodes)
    projections.mapped_reference += mapped
    projections.ambiguous_reference += ambiguous
    for counts in (report.umatch, report.mapped_triples):
        counts.correct += correct
        counts.reference += reference
        counts.candidate += candidate
    report.umatch.reference += unmapped
    return sets_gold


def _tally_document(
    counts: Counts,
    gold: _Sentence,
    test: _Sentence,
    ref_nodes: dict[str, _Node],
    cand_nodes: dict[str, _Node],
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
