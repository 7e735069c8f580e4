"""Scoring UMR documents: the document-level groups under the sentence alignment.

Layer: engine, above the UMR reader and the metrics. ``docs/umr.md``
("Scoring") gives the design and every deviation from AnCast.

* Sentences are paired by number (:func:`~amrcheck.reading.umr_corpus.sentence_key`);
  each pair's node mapping is the alignment of a sentence metric (smatch
  by default), so a candidate node stands for the reference node it is
  aligned to. The document-level triples of the candidate are read in
  reference names through the union of these mappings (variables are
  unique in a document); a candidate node left unaligned matches nothing;
  constants (``author``, ``document-creation-time`` ...) are themselves.
  Nothing depends on how variables are named.
* Triples are canonical before they are compared: ``(a :before b)`` is
  ``(b :after a)``, ``(a :contains b)`` is ``(b :contained a)``,
  ``:overlap``, ``:same-entity`` and ``:same-event`` are symmetric.
* ``:modal`` triples are compared as sets. ``:temporal`` and ``:coref``
  use transitive closure, as AnCast does: a candidate triple is correct
  when the closure of the reference's triples implies it (precision), a
  reference triple is found when the closure of the candidate's implies
  it (recall) — so ``a<b, b<c`` against ``a<b, b<c, a<c`` is 1.0 both ways.

Example:
    >>> from amrcheck.reading.umr_corpus import document_of
    >>> text = ("# :: snt1\\nWords: Dogs bark\\n\\n# sentence level graph:\\n"
    ...         "(s1b / bark-01 :ARG0 (s1d / dog))\\n\\n# alignment:\\ns1b: 2-2\\n"
    ...         "s1d: 1-1\\n\\n# document level annotation:\\n(s1s0 / sentence\\n"
    ...         "    :temporal ((document-creation-time :overlap s1b)))\\n\\n\\n")
    >>> renamed = text.replace("s1b", "s1x")
    >>> a, b = document_of(text, "a.umr"), document_of(renamed, "b.umr")
    >>> scores = score_document(a, b)
    >>> scores.groups["temporal"].f1, scores.groups["temporal"].matched
    (1.0, 1)
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Container, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..collector import collector_paused
from ..graph import Graph, TripleKind
from ..metrics import Metric, get_metric
from ..reading.umr import BlockKind, DocTriple, UmrDocument, UmrSentence, read_umr
from ..reading.umr_corpus import sentence_key
from ..span import Span

#: the document-level groups, in report order
GROUPS = ("temporal", "modal", "coref")
#: groups scored against the other side's transitive closure
CLOSED_GROUPS = frozenset({"temporal", "coref"})
#: relation -> (canonical relation, whether its ends swap)
_CANONICAL = {
    "before": ("after", True),
    "contains": ("contained", True),
    "includes": ("contained", False),  # AnCast reads :includes as :contained
    "subset": ("subset-of", False),
}
_SYMMETRIC = frozenset({"overlap", "same-entity", "same-event"})
_EQUIVALENCES = frozenset({"same-entity", "same-event"})

#: a canonical document-level relation: (relation, first node, second node)
Relation = tuple[str, str, str]


def canonical(relation: str, source: str, target: str) -> Relation:
    """The canonical form of ``(source :relation target)`` (see the module)."""
    name = relation.lstrip(":").lower()
    name, swap = _CANONICAL.get(name, (name, False))
    if swap:
        source, target = target, source
    if name in _SYMMETRIC and target < source:
        source, target = target, source
    return name, source, target


def closure(relations: Iterable[Relation]) -> set[Relation]:
    """Every relation implied by ``relations`` (canonical, one group's).

    ``:after``, ``:contained`` and ``:subset-of`` are transitive;
    something after X is after all that X contains, and what is contained
    in something after X is after X; ``:same-entity`` and ``:same-event``
    are equivalences, and a subset of one member of such a class is a
    subset of every member. ``:overlap``, ``:depends-on`` and modal
    strengths imply nothing further.
    """
    found = set(relations)
    delta = set(found)
    while delta:  # semi-naive: each round composes only what the last one found
        new = _implied(delta, found) - found
        found |= new
        delta = new
    return found


class _Classes:
    """Union-find over node names: the classes an equivalence makes."""

    def __init__(self) -> None:
        self.parent: dict[str, str] = {}

    def find(self, node: str) -> str:
        parent = self.parent.setdefault(node, node)
        while parent != node:
            grand = self.parent[parent]
            self.parent[node] = grand
            node, parent = parent, grand
        return node

    def union(self, a: str, b: str) -> None:
        self.parent[self.find(a)] = self.find(b)

    def same(self, a: str, b: str) -> bool:
        return a in self.parent and b in self.parent and self.find(a) == self.find(b)


class Implied:
    """What ``relations`` (canonical, one group's) imply, as :func:`closure`
    finds it, without listing every pair of a coreference class: each
    equivalence is kept as classes (union-find) and ``:subset-of`` is
    closed over the classes of both equivalences."""

    def __init__(self, relations: Iterable[Relation]) -> None:
        self.classes = {name: _Classes() for name in _EQUIVALENCES}
        self.joined = _Classes()
        others: list[Relation] = []
        for name, a, b in relations:
            if name in _EQUIVALENCES:
                self.classes[name].union(a, b)
                self.joined.union(a, b)
            else:
                others.append((name, a, b))
        self.closed = closure(self._collapsed(r) for r in others)

    def _collapsed(self, relation: Relation) -> Relation:
        name, a, b = relation
        if name != "subset-of":
            return relation
        return name, self.joined.find(a), self.joined.find(b)

    def __contains__(self, relation: object) -> bool:
        if not isinstance(relation, tuple) or len(relation) != 3:
            return False
        name, a, b = relation
        if name in _EQUIVALENCES:
            return a != b and self.classes[name].same(a, b)
        return self._collapsed((name, a, b)) in self.closed


def _both_ways(relations: Iterable[Relation]) -> list[Relation]:
    """``relations``, and each equivalence also read backwards."""
    out = list(relations)
    out += [(r[0], r[2], r[1]) for r in out if r[0] in _EQUIVALENCES]
    return out


def _implied(delta: set[Relation], found: set[Relation]) -> set[Relation]:
    """What one composition of a relation of ``delta`` with one of ``found``
    (either first) gives."""
    by_first: dict[str, list[Relation]] = defaultdict(list)
    by_second: dict[str, list[Relation]] = defaultdict(list)
    for relation in _both_ways(found):
        by_first[relation[1]].append(relation)
        by_second[relation[2]].append(relation)
    implied: set[Relation] = set()
    add = implied.add

    def put(name: str | None, a: str, c: str) -> None:
        if name is not None and a != c:
            add((name, c, a) if name in _SYMMETRIC and c < a else (name, a, c))

    for name, a, b in _both_ways(delta):
        for name2, _, c in by_first.get(b, ()):
            put(_compose(name, name2), a, c)
        for name0, z, _ in by_second.get(a, ()):
            put(_compose(name0, name), z, b)
        # what a contains is after what a is after (either one new)
        for name2, _, c in by_first.get(a, ()):
            if name == "contained" and name2 == "after":
                put("after", b, c)
            elif name == "after" and name2 == "contained":
                put("after", c, b)
    return implied


def _compose(first: str, second: str) -> str | None:
    """The relation of a to c, given (a first b) and (b second c)."""
    if first == second and first in {"after", "contained", "subset-of", *_EQUIVALENCES}:
        return first
    if first == "after" and second == "contained":
        return "after"
    if first == "subset-of" and second in _EQUIVALENCES:
        return "subset-of"
    if first in _EQUIVALENCES and second == "subset-of":
        return "subset-of"
    return None


@dataclass(slots=True)
class WrittenTriple:
    """A document-level triple as written, with its sentence (for its place)."""

    triple: DocTriple
    sentence: UmrSentence
    relation: Relation  # canonical, in reference names

    @property
    def span(self) -> Span:
        """Where the triple is written, from its source to its target."""
        start = self.triple.places[0][0]
        end = self.triple.places[2][1]
        return self.sentence.span_of(start, end)

    @property
    def where(self) -> str:
        return str(self.span)

    def __str__(self) -> str:
        t = self.triple
        return f"({t.source} {t.relation} {t.target})"


@dataclass(slots=True)
class GroupScore:
    """One group's score: candidate triples the reference implies
    (``correct``), reference triples the candidate implies (``found``)."""

    correct: int = 0
    candidate: int = 0
    found: int = 0
    reference: int = 0
    #: reference triples the candidate does not imply
    missing: list[WrittenTriple] = field(default_factory=list)
    #: candidate triples the reference does not imply
    extra: list[WrittenTriple] = field(default_factory=list)
    #: sentence key -> triples written in it, on each side
    candidate_by_sentence: dict[str, int] = field(default_factory=dict)
    reference_by_sentence: dict[str, int] = field(default_factory=dict)

    @property
    def matched(self) -> int:
        return self.correct

    @property
    def precision(self) -> float:
        return (
            self.correct / self.candidate
            if self.candidate
            else float(not self.reference)
        )

    @property
    def recall(self) -> float:
        return (
            self.found / self.reference if self.reference else float(not self.candidate)
        )

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0

    def add(self, other: GroupScore) -> None:
        self.correct += other.correct
        self.candidate += other.candidate
        self.found += other.found
        self.reference += other.reference
        self.missing += other.missing
        self.extra += other.extra


@dataclass(slots=True)
class DocumentScore:
    """A candidate document against its reference: each group and all of them."""

    groups: dict[str, GroupScore]
    #: candidate variable -> reference variable (None: unaligned)
    mapping: dict[str, str | None]
    #: the sentence graphs' triples, pooled (the metric's counts)
    sentences: GroupScore = field(default_factory=lambda: GroupScore())

    @property
    def document(self) -> GroupScore:
        """The three groups pooled (micro)."""
        total = GroupScore()
        for group in self.groups.values():
            total.add(group)
        return total

    @property
    def overall(self) -> GroupScore:
        """Sentence-graph triples and document-level triples pooled (micro)."""
        total = self.document
        total.add(self.sentences)
        return total


def node_mapping(
    reference: UmrDocument, candidate: UmrDocument, metric: Metric | None = None
) -> tuple[dict[str, str | None], GroupScore]:
    """Candidate variable -> reference variable, from the alignment ``metric``
    (smatch by default) finds for each pair of sentences with the same
    number; and the sentence graphs' pooled counts (a sentence whose graph
    is missing or unreadable counts as empty, as in ``amrcheck score``)."""
    metric = metric or get_metric("smatch")
    by_key = {sentence_key(s): s for s in reference.sentences}
    mapping: dict[str, str | None] = {}
    counts = GroupScore()
    paired: set[str] = set()
    for sentence in candidate.sentences:
        key = sentence_key(sentence)
        partner = by_key.get(key)
        if partner is None or key in paired:
            continue
        paired.add(key)
        alignment: dict[str, str | None] = {}
        if partner.graph is not None:
            if sentence.graph is None:
                counts.add(_counted(metric.score_missing(partner.graph).counts))
            else:
                alignment, found = _aligned(metric, sentence.graph, partner.graph)
                counts.add(found)
        for variable, target in alignment.items():
            mapping.setdefault(variable, target)
        _map_leftovers(sentence, partner, mapping)
    for key, partner in by_key.items():
        if key not in paired and partner.graph is not None:
            counts.add(_counted(metric.score_missing(partner.graph).counts))
    return mapping, counts


def _aligned(
    metric: Metric, candidate: Graph, reference: Graph
) -> tuple[dict[str, str | None], GroupScore]:
    """The metric's alignment of a sentence pair and its counts.

    A pair that is one graph twice (the sentences a perturbed copy or a
    commit left alone: most of a document) is found before smatch builds
    its search problem, by the test smatch itself makes first
    (:meth:`~amrcheck.metrics.smatch.Numbering.same_graph`), and gets the
    alignment smatch then returns: the identity in canonical node numbers,
    every triple matched (the optimum). A pair written alike but for its
    variable names (:func:`_renaming`) is one graph twice without that
    test: the canonical numbers never depend on names, so smatch's identity
    there is the renaming. Other pairs and other metrics go through the
    metric's own scoring.
    """
    # here, not at the top: the smatch module brings numpy, which a
    # command that reads UMR without scoring it does not need
    from ..metrics.smatch import Numbering, Smatch

    if type(metric) is Smatch:
        ours = metric.standardize(candidate)
        names = _renaming(candidate, reference)
        if (
            names is not None
            and ours.options.counting == "min"
            and all(v in names for v in ours.variables)
        ):
            size = ours.size
            written: dict[str, str | None] = {v: names[v] for v in ours.variables}
            return written, GroupScore(size, size, size, size)
        theirs = metric.standardize(reference)
        numbering = Numbering.of(ours, theirs)
        if ours.options.counting == "min" and numbering.same_graph(ours, theirs):
            by_rank = {rank: node for node, rank in enumerate(numbering.reference)}
            alignment: dict[str, str | None] = {
                name: theirs.variables[by_rank[numbering.candidate[node]]]
                for node, name in enumerate(ours.variables)
            }
            size = ours.size
            return alignment, GroupScore(size, size, size, size)
        score = metric.score_standard(ours, theirs, explain=True)
    else:
        score = metric.score(candidate, reference, explain=True)
    explanation = score.explanation
    return (
        explanation.alignment if explanation is not None else {},
        _counted(score.counts),
    )


def _renaming(candidate: Graph, reference: Graph) -> dict[str, str] | None:
    """Candidate variable -> reference variable when the two graphs have the
    same triples in the same order but for the names of their variables
    (one to one); None otherwise."""
    triples, kinds = candidate.triples, candidate.kinds
    if len(triples) != len(reference.triples) or kinds != reference.kinds:
        return None
    instance, relation = TripleKind.INSTANCE, TripleKind.RELATION
    if triples == reference.triples and candidate.top == reference.top:
        # written alike, names too (compared in C)
        return {
            s: s
            for (s, _, _), kind in zip(triples, kinds, strict=True)
            if kind is instance
        }
    names = {
        source: other
        for (source, _, _), (other, _, _), kind in zip(
            triples, reference.triples, kinds, strict=True
        )
        if kind is instance
    }
    if len(set(names.values())) != len(names) or (
        names.get(candidate.top) != reference.top
    ):
        return None
    # the candidate's triples in reference names: equal to the reference's
    # only if every concept, role and constant agrees and each variable was
    # named alike wherever it is defined
    renamed = [
        (names.get(s, s), role, names.get(t, t) if kind is relation else t)
        for (s, role, t), kind in zip(triples, kinds, strict=True)
    ]
    return names if renamed == reference.triples else None


def _counted(counts: dict[str, float]) -> GroupScore:
    matched = int(counts.get("matched", 0))
    return GroupScore(
        matched,
        int(counts.get("candidate", 0)),
        matched,
        int(counts.get("reference", 0)),
    )


#: a node as written: ``(variable / concept``
_NODE_RE = re.compile(r"\(\s*([^\s()/:\"]+)\s*/\s*([^\s()/:\"]+)")


def written_nodes(sentence: UmrSentence) -> dict[str, str]:
    """Variable -> concept of every node written in the graph block, also
    those the graph reader could not take (after a bracket closed too early)."""
    block = sentence.blocks.get(BlockKind.GRAPH)
    if block is None:
        return {}
    return dict(_NODE_RE.findall(sentence.source.text, block.start, block.end))


def _map_leftovers(
    sentence: UmrSentence, partner: UmrSentence, mapping: dict[str, str | None]
) -> None:
    """Nodes outside the graph the metric aligned (a sentence whose graph
    closed too early) are mapped to the partner's node of the same concept
    and the same aligned words, when there is exactly one."""
    nodes = written_nodes(sentence)
    left = [v for v in nodes if mapping.get(v) is None]
    if not left:
        return
    taken = {t for t in mapping.values() if t is not None}
    words = {a.variable: tuple(a.ranges) for a in sentence.alignments}
    partner_words = {a.variable: tuple(a.ranges) for a in partner.alignments}
    keyed: dict[tuple[str, tuple[tuple[int, int], ...]], list[str]] = defaultdict(list)
    for variable, concept in written_nodes(partner).items():
        if variable not in taken:
            keyed[concept, partner_words.get(variable, ())].append(variable)
    for variable in left:
        same = keyed.get((nodes[variable], words.get(variable, ())), [])
        if len(same) == 1:
            mapping[variable] = same.pop()


def _written(
    document: UmrDocument, rename: dict[str, str | None] | None, variables: set[str]
) -> dict[str, dict[Relation, WrittenTriple]]:
    """Each group's canonical triples (the first writing of each kept)."""
    groups: dict[str, dict[Relation, WrittenTriple]] = {g: {} for g in GROUPS}
    for sentence in document.sentences:
        for triple in sentence.document.triples:
            group = triple.group.lstrip(":").lower()
            if group not in groups:
                continue
            ends = [triple.source, triple.target]
            if rename is not None:
                ends = [_renamed(end, rename, variables) for end in ends]
            relation = canonical(triple.relation, ends[0], ends[1])
            groups[group].setdefault(
                relation, WrittenTriple(triple, sentence, relation)
            )
    return groups


def _renamed(node: str, rename: dict[str, str | None], variables: set[str]) -> str:
    if node not in variables:
        return node  # a constant: itself
    target = rename.get(node)
    # an unaligned candidate node matches nothing of the reference
    return target if target is not None else f"\x00{node}"


def _variables(document: UmrDocument) -> set[str]:
    found: set[str] = set()
    for sentence in document.sentences:
        if sentence.graph is not None:
            found.update(sentence.graph.variables())
        found.update(written_nodes(sentence))
        if sentence.document.variable:
            found.add(sentence.document.variable)
    return found


def score_groups(
    reference: UmrDocument, candidate: UmrDocument, mapping: dict[str, str | None]
) -> dict[str, GroupScore]:
    """Each group of ``candidate`` against ``reference`` under ``mapping``."""
    gold = _written(reference, None, set())
    # which ends are variables matters only for triples (most files have none)
    has_triples = any(s.document.triples for s in candidate.sentences)
    variables = _variables(candidate) if has_triples else set()
    test = _written(candidate, mapping, variables)
    scores: dict[str, GroupScore] = {}
    for group in GROUPS:
        gold_set, test_set = set(gold[group]), set(test[group])
        closed = group in CLOSED_GROUPS
        gold_implied: Container[Relation] = Implied(gold_set) if closed else gold_set
        test_implied: Container[Relation] = Implied(test_set) if closed else test_set
        score = GroupScore(candidate=len(test_set), reference=len(gold_set))
        for side, by_sentence in (
            (test, score.candidate_by_sentence),
            (gold, score.reference_by_sentence),
        ):
            for written in side[group].values():
                key = sentence_key(written.sentence)
                by_sentence[key] = by_sentence.get(key, 0) + 1
        for relation, written in test[group].items():
            if relation in gold_implied:
                score.correct += 1
            else:
                score.extra.append(written)
        for relation, written in gold[group].items():
            if relation in test_implied:
                score.found += 1
            else:
                score.missing.append(written)
        scores[group] = score
    return scores


def score_document(
    reference: UmrDocument, candidate: UmrDocument, metric: Metric | None = None
) -> DocumentScore:
    """The document-level groups of ``candidate`` against ``reference``."""
    with collector_paused():  # standard graphs and triples, no garbage
        mapping, sentences = node_mapping(reference, candidate, metric)
        return DocumentScore(
            score_groups(reference, candidate, mapping), mapping, sentences
        )


def score_umr_files(
    reference: str | Path,
    candidates: Sequence[str | Path],
    metric: Metric | None = None,
) -> dict[str, DocumentScore]:
    """Each candidate UMR file's :class:`DocumentScore` against ``reference``.

    Raises:
        InputError: a file cannot be read.
    """
    gold = read_umr(reference)
    return {str(c): score_document(gold, read_umr(c), metric) for c in candidates}


def group_dict(score: GroupScore) -> dict[str, Any]:
    """A group's figures and its missing and extra triples with their places."""
    return {
        "precision": score.precision,
        "recall": score.recall,
        "f1": score.f1,
        "correct": score.correct,
        "candidate": score.candidate,
        "found": score.found,
        "reference": score.reference,
        "missing": [{"triple": str(t), "where": t.where} for t in score.missing],
        "extra": [{"triple": str(t), "where": t.where} for t in score.extra],
    }


def document_dict(score: DocumentScore) -> dict[str, Any]:
    """A :class:`DocumentScore` as JSON-ready data (``docs/umr.md``)."""
    layers = {
        "sentences": score.sentences,
        **score.groups,
        "document": score.document,
        "overall": score.overall,
    }
    report = {name: group_dict(layer) for name, layer in layers.items()}
    for name in ("sentences", "overall"):
        del report[name]["missing"], report[name]["extra"]
    return report
