"""rematch's motif sets: a graph's triples, as smatch 1.0.4 reads them, as motifs.

Layer: metrics, below :mod:`.rematch` (which documents the reading and the
motifs). It runs twice for every pair rematch scores, so a compiled install
compiles it (``setup.py``); :class:`MotifSets` scores a pair in one call.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Union

from ..graph import Graph, TripleKind
from ._protocol import Score
from ._smatch_reader import concept_token, smatch_normalize, stored_role, value_token

AttributeMotif = tuple[str, str]
InstanceMotif = Union[tuple[str], tuple[str, AttributeMotif]]
RelationMotif = tuple[InstanceMotif, str, InstanceMotif]
Motif = Union[AttributeMotif, InstanceMotif, RelationMotif]


#: what the reader's token rules give for what was seen (``stored_role``;
#: a written constant's normalised value token, None for "top"; a role
#: name normalised): plain dicts, which the compiled module reads without
#: calling a cache wrapper; each starts over past :data:`_CACHE_SIZE`
_ROLES: dict[str, tuple[str, bool]] = {}
_VALUES: dict[str, str | None] = {}
_NAMES: dict[str, str] = {}
_CACHE_SIZE = 1 << 14
#: concepts whose node label one :class:`MotifSets` remembers before starting over
_MAX_LABELS = 1 << 16


def _stored(role: str) -> tuple[str, bool]:
    found = _ROLES.get(role)
    if found is None:
        if len(_ROLES) > _CACHE_SIZE:
            _ROLES.clear()
        found = _ROLES[role] = stored_role(role)
    return found


def _value(target: str) -> str | None:
    """The constant's value as an attribute motif has it; None for TOP's
    value (rematch drops TOP by its value "top")."""
    if target in _VALUES:
        return _VALUES[target]
    if len(_VALUES) > _CACHE_SIZE:
        _VALUES.clear()
    token = value_token(target)
    found = _VALUES[target] = None if token == "top" else smatch_normalize(token)
    return found


def _name(name: str) -> str:
    found = _NAMES.get(name)
    if found is None:
        if len(_NAMES) > _CACHE_SIZE:
            _NAMES.clear()
        found = _NAMES[name] = smatch_normalize(name)
    return found


def motif_set(  # noqa: C901 -- one pass over the triples, then the motifs
    read: Graph,
    label_of: dict[str, str],
    label: Callable[[str], str],
    mod_of_as_mod: bool,
    motif_kinds: tuple[bool, bool, bool],
    labels_only: bool,
    origins: dict[Motif, set[int]] | None,
) -> set[Motif]:
    """The motif set of ``read`` (the graph as the reference reads it);
    record each motif's source triples in ``origins``.

    ``label_of`` caches ``label`` (a concept's node label); ``mod_of_as_mod``
    stores ``y :mod-of x`` as ``x :mod y`` is stored; ``motif_kinds``: keep
    attribute, instance, relation motifs; ``labels_only``: instance motifs
    are bare node labels. One pass over the written triples reads them as
    smatch 1.0.4's reader keeps them (:mod:`._smatch_reader`: first
    definition wins, ``-of`` and ``:mod`` inverted, inverted links to
    constants dropped); the order of that reader's lists is not needed for
    sets.
    """
    attribute_motifs, instance_motifs, relation_motifs = motif_kinds
    instance_kind, relation_kind = TripleKind.INSTANCE, TripleKind.RELATION
    labels: dict[str, str] = {}
    defined: dict[str, int] = {}  # node -> its defining triple
    attributes: dict[str, list[tuple[AttributeMotif, int]]] = {}
    links: list[tuple[str, str, str, int]] = []  # head, role, tail, triple
    kinds = read.kinds
    for i, (source, role, target) in enumerate(read.triples):
        kind = kinds[i]
        if kind is instance_kind:
            if source not in labels:
                found = label_of.get(target)
                if found is None:
                    found = label_of[target] = label(target)
                labels[source] = found
                defined[source] = i
            continue
        name, inverted = _stored(role)
        if name == "mod" and inverted and mod_of_as_mod:
            name, inverted = "domain", False  # y :mod-of x is x :mod y
        if kind is relation_kind:
            links.append(
                (target, name, source, i) if inverted else (source, name, target, i)
            )
        elif not inverted:
            value = _value(target)
            if value is not None:
                attribute = (_name(name), value)
                attributes.setdefault(source, []).append((attribute, i))
    out: set[Motif] = set()
    instance: dict[str, list[tuple[InstanceMotif, tuple[int, ...]]]] = {}
    for node, node_label in labels.items():
        attrs = attributes.get(node, [])
        motifs: list[tuple[InstanceMotif, tuple[int, ...]]]
        if attrs and not labels_only:
            motifs = [((node_label, attr), (defined[node], i)) for attr, i in attrs]
        else:
            motifs = [((node_label,), (defined[node],))]
        instance[node] = motifs
        if attribute_motifs:
            for attr, i in attrs:
                out.add(attr)
                if origins is not None:
                    origins.setdefault(attr, set()).add(i)
        if instance_motifs:
            for motif, sources in motifs:
                out.add(motif)
                if origins is not None:
                    origins.setdefault(motif, set()).update(sources)
    if relation_motifs:
        for head_node, role, tail_node, i in links:
            for head, head_sources in instance[head_node]:
                for tail, tail_sources in instance[tail_node]:
                    relation: RelationMotif = (head, role, tail)
                    out.add(relation)
                    if origins is not None:
                        found_in = origins.setdefault(relation, set())
                        found_in.add(i)
                        found_in.update(head_sources)
                        found_in.update(tail_sources)
    return out


class MotifSets:
    """rematch's motif sets of one graph after another, and a pair's score.

    ``frames``: PropBank roleset -> VerbAtlas frame label (None: keep the
    concepts); ``reference_reads``: read the graphs as the reference does
    (ISI alignments inside labels, ``:mod-of`` as smatch 1.0.4 stores it);
    ``motif_kinds`` and ``labels_only`` as :func:`motif_set` takes them.
    Each concept's node label is remembered (up to :data:`_MAX_LABELS`).
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
        self.motif_kinds = motif_kinds
        self.labels_only = labels_only
        self.label_of: dict[str, str] = {}  # concept -> node label

    def label(self, concept: str) -> str:
        """A node's label: the concept as smatch reads it, or its VerbAtlas frame."""
        label = smatch_normalize(concept_token(concept))
        frames = self.frames
        return label if frames is None else frames.get(label, label)

    def motifs(
        self, graph: Graph, origins: dict[Motif, set[int]] | None = None
    ) -> set[Motif]:
        """The motif set of ``graph``; each motif's source triples are
        recorded in ``origins`` (:func:`motif_set`)."""
        label_of = self.label_of
        if len(label_of) > _MAX_LABELS:  # a long-lived process meets new concepts
            label_of.clear()
        read = graph
        if self.reference_reads:
            # here: only the reference's reads need standardize (and with
            # it penman's model), which a rematch run otherwise never loads
            from ..standardize import as_smatch_104_reads

            read = as_smatch_104_reads(graph)
        return motif_set(
            read,
            label_of,
            self.label,
            not self.reference_reads,
            self.motif_kinds,
            self.labels_only,
            origins,
        )

    def score(self, candidate: Graph, reference: Graph) -> Score:
        """The Jaccard index of the pair's motif sets, with its counts."""
        return jaccard(self.motifs(candidate), self.motifs(reference))


def jaccard(candidate: set[Motif], reference: set[Motif]) -> Score:
    """|M1 ∩ M2| / |M1 ∪ M2| (0 when nothing is shared), with the counts."""
    shared = len(candidate & reference)
    union = len(candidate) + len(reference) - shared
    return Score(
        f1=shared / union if shared else 0.0,
        counts={
            "shared": float(shared),
            "union": float(union),
            "candidate": float(len(candidate)),
            "reference": float(len(reference)),
        },
    )
