"""rematch's motif sets: a graph's triples, as smatch 1.0.4 reads them, as motifs.

Layer: metrics, below :mod:`.rematch` (which documents the reading and the
motifs). It runs twice for every pair rematch scores, so a compiled install
compiles it (``setup.py``); :meth:`MotifSets.score` scores a pair in one call.

A pair's motifs are compared as integer codes, not as the nested tuples of
strings they stand for: a code is made of the ids of the strings in a
motif (label, role, value), so building and comparing the sets takes no
tuple, no string hashing and nothing the garbage collector tracks. Equal
motifs get equal codes and different motifs different ones while the id
tables hold (:meth:`MotifSets.room`: they start over between graphs, never
inside a pair); :meth:`MotifSets.motif` turns a code back into its tuple.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Union

from ..graph import Graph, TripleKind
from ._protocol import Score
from ._smatch_reader import concept_token, smatch_normalize, stored_role, value_token

AttributeMotif = tuple[str, str]
InstanceMotif = Union[tuple[str], tuple[str, AttributeMotif]]
RelationMotif = tuple[InstanceMotif, str, InstanceMotif]
Motif = Union[AttributeMotif, InstanceMotif, RelationMotif]

#: ids a :class:`MotifSets` hands out before its tables start over (a
#: long-lived process meets new strings without end); smaller tables, which
#: would stay in the processor's cache, start over so often at 5,000 pairs
#: that filling them again costs more (2**11: 20 times, 1.3x the time)
_MAX_IDS = 1 << 16
#: the ids of a code's parts are below this (larger for a pair that needs
#: more ids): relation codes then stay below 2**60, a machine word
_WIDTH = 1 << 20
#: new ids one triple may need: a role's two names and a value, or a label
_IDS_PER_TRIPLE = 3


class MotifSets:
    """rematch's motif sets of one graph after another, and a pair's score.

    ``frames``: PropBank roleset -> VerbAtlas frame label (None: keep the
    concepts); ``reference_reads``: read the graphs as the reference does
    (ISI alignments inside labels, ``:mod-of`` as smatch 1.0.4 stores it);
    ``motif_kinds``: keep attribute, instance, relation motifs;
    ``labels_only``: instance motifs are bare node labels.

    Codes, with ``W`` the width (every id is below it): an attribute
    motif ``(name, value)`` is ``W**3 + name * W + value``; an instance
    motif is ``2 * W**3 + its id`` (ids of (label, attribute) pairs); a
    relation motif is ``(head * W + role) * W + tail`` from the instance
    ids of its ends.
    """

    def __init__(
        self,
        frames: dict[str, str] | None,
        reference_reads: bool,
        motif_kinds: tuple[bool, bool, bool],
        labels_only: bool,
    ) -> None:
        self.frames = frames
        self.reference_reads = reference_reads
        self.attribute_motifs, self.instance_motifs, self.relation_motifs = motif_kinds
        self.labels_only = labels_only
        self.width = _WIDTH
        #: strings (labels, role names, values) and their ids
        self.ids: dict[str, int] = {}
        self.texts: list[str] = []
        #: (label, attribute) keys of instance motifs and their ids
        self.instance_ids: dict[int, int] = {}
        self.instance_keys: list[int] = []
        #: what was seen, as ids: concept -> its label's id; role ->
        #: (relation name * W + attribute name) * 2 + whether it is filed
        #: under the target; constant -> its value's id (-1: TOP's "top")
        self.label_of: dict[str, int] = {}
        self.role_of: dict[str, int] = {}
        self.value_of: dict[str, int] = {}

    # -- the id tables --------------------------------------------------------

    def room(self, triples: int) -> None:
        """Make room in the id tables for graphs of ``triples`` triples:
        start them over when they are full (never inside a pair)."""
        needed = triples * _IDS_PER_TRIPLE
        width = self.width
        if (
            len(self.texts) <= _MAX_IDS
            and len(self.instance_keys) <= _MAX_IDS
            and len(self.texts) + needed < width
            and len(self.instance_keys) + needed < width
        ):
            return
        self.ids.clear()
        self.texts.clear()
        self.instance_ids.clear()
        self.instance_keys.clear()
        self.label_of.clear()
        self.role_of.clear()
        self.value_of.clear()
        width = _WIDTH
        while needed >= width:  # a huge pair: codes beyond a machine word
            width *= 2
        self.width = width

    def _text_id(self, text: str) -> int:
        found = self.ids.get(text)
        if found is None:
            found = self.ids[text] = len(self.texts)
            self.texts.append(text)
        return found

    def _label_id(self, concept: str) -> int:
        label = smatch_normalize(concept_token(concept))
        frames = self.frames
        if frames is not None:
            label = frames.get(label, label)
        found = self.label_of[concept] = self._text_id(label)
        return found

    def _role_code(self, role: str) -> int:
        name, inverted = stored_role(role)
        if name == "mod" and inverted and not self.reference_reads:
            name, inverted = "domain", False  # y :mod-of x is x :mod y
        names = self._text_id(name) * self.width + self._text_id(smatch_normalize(name))
        found = self.role_of[role] = names * 2 + int(inverted)
        return found

    def _value_id(self, target: str) -> int:
        token = value_token(target)  # rematch drops TOP by its value "top"
        found = -1 if token == "top" else self._text_id(smatch_normalize(token))
        self.value_of[target] = found
        return found

    def _instance_id(self, key: int) -> int:
        found = self.instance_ids.get(key)
        if found is None:
            found = self.instance_ids[key] = len(self.instance_keys)
            self.instance_keys.append(key)
        return found

    # -- motifs -------------------------------------------------------------

    def codes(  # noqa: C901 -- one pass for the nodes, one for the rest, then the motifs
        self, graph: Graph, out: set[int], origins: dict[int, set[int]] | None
    ) -> None:
        """Add the codes of ``graph``'s motifs to ``out``; record each one's
        source triples in ``origins``. The id tables must have room for it
        (:meth:`room`).

        The graph is read as smatch 1.0.4's reader keeps it
        (:mod:`._smatch_reader`: first definition wins, ``-of`` and
        ``:mod`` inverted, inverted links to constants dropped); the order
        of that reader's lists is not needed for sets.
        """
        read = graph
        if self.reference_reads:
            # imported here: standardising (with penman's model, ~12 ms to
            # import) is needed for this reading alone
            from ..standardize import as_smatch_104_reads

            read = as_smatch_104_reads(graph)
        width = self.width
        instance_kind, relation_kind = TripleKind.INSTANCE, TripleKind.RELATION
        triples, kinds = read.triples, read.kinds
        label_of, role_of, value_of = self.label_of, self.role_of, self.value_of
        # nodes in definition order: label id, defining triple
        nodes: dict[str, int] = {}
        labels: list[int] = []
        defined: list[int] = []
        for i in range(len(triples)):
            if kinds[i] is instance_kind:
                source, _, concept = triples[i]
                node = len(labels)
                if nodes.setdefault(source, node) == node:  # first definition
                    label = label_of.get(concept)
                    labels.append(self._label_id(concept) if label is None else label)
                    defined.append(i)
        # attributes chained node by node: each one's code, triple, the next
        last = [-1] * len(labels)
        attributes: list[int] = []  # code, triple, previous of the same node
        links: list[int] = []  # head node, role id, tail node, triple
        for i in range(len(triples)):
            kind = kinds[i]
            if kind is instance_kind:
                continue
            source, role, target = triples[i]
            code = role_of.get(role)
            if code is None:
                code = self._role_code(role)
            if kind is relation_kind:
                name = code // 2 // width
                start, end = (target, source) if code % 2 else (source, target)
                links.append(nodes[start])
                links.append(name)
                links.append(nodes[end])
                links.append(i)
            elif code % 2 == 0:
                value = value_of.get(target)
                if value is None:
                    value = self._value_id(target)
                node = nodes.get(source, -1)
                if value >= 0 and node >= 0:  # an undefined node has no motif
                    last[node], previous = len(attributes), last[node]
                    attributes.append(code // 2 % width * width + value)
                    attributes.append(i)
                    attributes.append(previous)
        # each node's instance motifs: ids in ``instances``, from ``starts``;
        # with ``origins``, each one's attribute triple (-1: none)
        instances: list[int] = []
        starts: list[int] = []
        sources: list[int] = []
        attribute_base = width * width * width
        instance_base = 2 * attribute_base
        labels_only, attribute_motifs = self.labels_only, self.attribute_motifs
        label_key = width * width + 1  # an attribute code + 1, or 0 (none)
        for node in range(len(labels)):
            starts.append(len(instances))
            key = labels[node] * label_key
            at = last[node]
            if at < 0 or labels_only:
                instances.append(self._instance_id(key))
                if origins is not None:
                    sources.append(-1)
            while at >= 0:
                attribute = attributes[at]
                if attribute_motifs:
                    out.add(attribute_base + attribute)
                if origins is not None:
                    origins.setdefault(attribute_base + attribute, set()).add(
                        attributes[at + 1]
                    )
                if not labels_only:
                    instances.append(self._instance_id(key + attribute + 1))
                    if origins is not None:
                        sources.append(attributes[at + 1])
                at = attributes[at + 2]
            if origins is not None:
                for at in range(starts[-1], len(instances)):
                    instance = instance_base + instances[at]
                    _record(origins, instance, defined[node], sources[at])
        starts.append(len(instances))
        if self.instance_motifs:
            for instance in instances:
                out.add(instance_base + instance)
        if not self.relation_motifs:
            return
        for at in range(0, len(links), 4):
            head, tail = links[at], links[at + 2]
            role_id = links[at + 1]
            for h in range(starts[head], starts[head + 1]):
                prefix = (instances[h] * width + role_id) * width
                for t in range(starts[tail], starts[tail + 1]):
                    relation = prefix + instances[t]
                    out.add(relation)
                    if origins is not None:  # the edge, both ends' sources
                        _record(origins, relation, links[at + 3], -1)
                        _record(origins, relation, defined[head], sources[h])
                        _record(origins, relation, defined[tail], sources[t])

    def motif(self, code: int) -> Motif:
        """The motif of ``code`` (as :meth:`codes` gave it, the tables since
        unchanged)."""
        width = self.width
        cube = width * width * width
        if code >= 2 * cube:
            return self._instance(code - 2 * cube)
        if code >= cube:
            return self._attribute(code - cube)
        head, rest = divmod(code, width * width)
        role, tail = divmod(rest, width)
        return (self._instance(head), self.texts[role], self._instance(tail))

    def _attribute(self, code: int) -> AttributeMotif:
        name, value = divmod(code, self.width)
        return (self.texts[name], self.texts[value])

    def _instance(self, instance: int) -> InstanceMotif:
        label, attribute = divmod(
            self.instance_keys[instance], self.width * self.width + 1
        )
        if attribute == 0:
            return (self.texts[label],)
        return (self.texts[label], self._attribute(attribute - 1))

    def motifs(
        self, graph: Graph, origins: dict[Motif, set[int]] | None = None
    ) -> set[Motif]:
        """The motif set of ``graph``; each motif's source triples are
        recorded in ``origins``."""
        self.room(len(graph.triples))
        codes: set[int] = set()
        found: dict[int, set[int]] | None = None if origins is None else {}
        self.codes(graph, codes, found)
        if origins is not None and found is not None:
            for code in codes:
                origins[self.motif(code)] = found[code]
        return {self.motif(code) for code in codes}

    def count(self, graph: Graph) -> int:
        """How many motifs ``graph`` has."""
        self.room(len(graph.triples))
        codes: set[int] = set()
        self.codes(graph, codes, None)
        return len(codes)

    def score_pairs(self, pairs: Sequence[tuple[Graph, Graph]]) -> list[Score]:
        """:meth:`score` of each pair, in one call."""
        return [self.score(candidate, reference) for candidate, reference in pairs]

    def score(self, candidate: Graph, reference: Graph) -> Score:
        """The Jaccard index of the pair's motif sets, with its counts."""
        self.room(len(candidate.triples) + len(reference.triples))
        cand: set[int] = set()
        ref: set[int] = set()
        self.codes(candidate, cand, None)
        self.codes(reference, ref, None)
        smaller, larger = (cand, ref) if len(cand) <= len(ref) else (ref, cand)
        shared = 0
        for code in smaller:
            if code in larger:
                shared += 1
        return jaccard_score(shared, len(cand), len(ref))


def _record(origins: dict[int, set[int]], code: int, one: int, other: int) -> None:
    """Record triples ``one`` and ``other`` (-1: none) as sources of motif
    ``code``."""
    found_in = origins.setdefault(code, set())
    found_in.add(one)
    if other >= 0:
        found_in.add(other)


def jaccard_score(shared: int, candidate: int, reference: int) -> Score:
    """|M1 ∩ M2| / |M1 ∪ M2| (0 when nothing is shared), with the counts,
    from the sizes of the sets and of their intersection."""
    union = candidate + reference - shared
    return Score(
        f1=shared / union if shared else 0.0,
        counts={
            "shared": float(shared),
            "union": float(union),
            "candidate": float(candidate),
            "reference": float(reference),
        },
    )


def jaccard(candidate: set[Motif], reference: set[Motif]) -> Score:
    """|M1 ∩ M2| / |M1 ∪ M2| (0 when nothing is shared), with the counts."""
    return jaccard_score(len(candidate & reference), len(candidate), len(reference))
