"""SEMA: alignment-free matching of dependent triples (Anchiêta et al. 2019).

SEMA needs no variable alignment: a candidate relation matches a
reference relation when the role, the parent's concept and the child's
concept are equal; an attribute matches when the parent's concept, the
role and the value are equal; the root concepts are compared on their
own. Matched units are counted on the reference side (each reference
node, relation and attribute at most once); P = matched / |candidate
triples|, R = matched / |reference triples| (instances + relations +
attributes, TOP excluded), F1 their harmonic mean.

By default graphs are read with the shared standardisation
(:mod:`amrcheck.standardize`, strict: lower case, no quotes, inverse roles
reversed, a set of triples) and counted without regard to order: a
reference relation is matched as often as the candidate has relations
with its key (role, parent concept, child concept), each at most once; a
reference node counts when it is the root and the root concepts agree, or
an end of a reference relation whose key the candidate has; an attribute
is matched as often as the candidate has its (parent concept, role,
value). The matched count is capped at the candidate's size. So a graph
scores exactly 1.0 against itself and the same however it is written.

``compat="reference"`` counts as rafaelanchieta/sema ``9a4911c`` (the
commit BAMBOO cites) does, step for step, including its order-dependent
bookkeeping of visited nodes and relations — which depends on how a graph
is written and scores some graphs below 1.0 against themselves (issue 24).
Graphs are then read as smatch 1.0.4's ``amr.py`` reads them (see
``_smatch_reader``): the reference scores were produced with that reader —
SEMA's own fork of it does not invert an ``-of`` role followed by another
role, and its scores differ from the reference column in 54 BAMBOO dev
pairs, while smatch 1.0.4's reader reproduces all of them. Labels and
values are compared as read (case kept; a quoted value keeps its first
word, ``"Brown"`` is ``Brown_``). That commit can credit one candidate
relation against several reference relations, so the matched count can
exceed the candidate's size: precision above 1 (34 of the 8,347 BAMBOO dev
pairs), and once F1 above 1 (para.reify dev pair 43: 1.0103). The matched
count is capped at the candidate's size unless ``uncapped=True``, which
restores the reference's count.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields
from typing import ClassVar

from ..canonical import canonicalize
from ..graph import Graph
from ..standardize import TOP_ROLE, standardize
from . import register
from ._protocol import (
    Explanation,
    Reference,
    Score,
    check_reference,
    micro_prf,
    prf,
)
from ._refs import written_ref
from ._smatch_reader import SmatchView, read_smatch104


@dataclass(slots=True)
class _Matcher:
    """SEMA's counting over one pair, with its visited bookkeeping."""

    test: SmatchView
    gold: SmatchView
    matched: int = 0

    def run(self) -> tuple[dict[int, int], dict[int, int], set[int]]:  # noqa: C901 -- mirrors the reference's single pass
        """Count matches; return gold relation/attribute -> test index, gold nodes."""
        test, gold = self.test, self.gold
        nodes: set[int] = set()
        relations: set[tuple[str, int, int]] = set()
        pairs: set[tuple[int, int]] = set()
        credited_rel: dict[int, int] = {}
        if test.concepts[0] == gold.concepts[0]:
            self.matched += 1
            nodes.add(0)
        by_key: dict[tuple[str, str, str], list[int]] = {}
        for g, (name, pre, pos, _) in enumerate(gold.relations):
            key = (name, gold.concepts[pre], gold.concepts[pos])
            by_key.setdefault(key, []).append(g)
        for t, (name, pre, pos, _) in enumerate(test.relations):
            key = (name, test.concepts[pre], test.concepts[pos])
            for g in by_key.get(key, ()):
                _, pre_g, pos_g, _ = gold.relations[g]
                relation = (name, pre_g, pos_g)
                if pos_g not in nodes and relation not in relations:
                    self.matched += 2
                    nodes.add(pos_g)
                    relations.add(relation)
                    pairs.add((pre_g, pos_g))
                    credited_rel.setdefault(g, t)
                if pre_g not in nodes:
                    self.matched += 1
                    nodes.add(pre_g)
                # a second edge between already counted nodes is not counted
                if relation not in relations and (pre_g, pos_g) not in pairs:
                    self.matched += 1
                    relations.add(relation)
                    pairs.add((pre_g, pos_g))
                    credited_rel.setdefault(g, t)
        attributes: set[tuple[str, int, str]] = set()
        credited_attr: dict[int, int] = {}
        for t, (name, pre, value, _) in enumerate(test.attributes):
            concept = test.concepts[pre]
            for g, (name_g, pre_g, value_g, _) in enumerate(gold.attributes):
                if gold.concepts[pre_g] != concept:
                    continue
                attribute = (name_g, pre_g, value_g)
                if name == name_g and value == value_g and attribute not in attributes:
                    self.matched += 1
                    attributes.add(attribute)
                    credited_attr[g] = t
        return credited_rel, credited_attr, nodes


def standard_view(graph: Graph) -> SmatchView:
    """``graph`` standardised, in canonical order with the top node first,
    in the shape of the smatch 1.0.4 reader's view (TOP not included)."""
    standard = canonicalize(standardize(graph))
    top = next(n for n, role, _ in standard.attributes if role == TOP_ROLE)
    order = [top] + [n for n in range(len(standard.variables)) if n != top]
    position = {node: k for k, node in enumerate(order)}
    concepts = [""] * len(order)
    definitions = [-1] * len(order)
    # a node defined twice keeps its first concept in canonical order
    for (node, concept), where in zip(
        reversed(standard.instances), reversed(standard.instance_origin), strict=True
    ):
        concepts[position[node]], definitions[position[node]] = concept, where
    return SmatchView(
        variables=[standard.variables[n] for n in order],
        concepts=concepts,
        definitions=definitions,
        relations=[
            (role, position[source], position[target], where)
            for (source, role, target), where in zip(
                standard.relations, standard.relation_origin, strict=True
            )
        ],
        attributes=[
            (role, position[node], value, where)
            for (node, role, value), where in zip(
                standard.attributes, standard.attribute_origin, strict=True
            )
            if role != TOP_ROLE
        ],
    )


def count_without_order(
    test: SmatchView, gold: SmatchView
) -> tuple[int, dict[int, int], dict[int, int], set[int]]:
    """SEMA's matched count, independent of the order of nodes and triples
    (see the module docstring): (matched, reference relation -> candidate
    relation, reference attribute -> candidate attribute, reference nodes)."""
    nodes: set[int] = {0} if test.concepts[0] == gold.concepts[0] else set()
    waiting: dict[tuple[str, str, str], list[int]] = {}
    for t, (name, pre, pos, _) in enumerate(test.relations):
        key = (name, test.concepts[pre], test.concepts[pos])
        waiting.setdefault(key, []).append(t)
    present = set(waiting)
    credited_rel: dict[int, int] = {}
    for g, (name, pre, pos, _) in enumerate(gold.relations):
        key = (name, gold.concepts[pre], gold.concepts[pos])
        if key in present:
            nodes.update((pre, pos))
            if waiting[key]:
                credited_rel[g] = waiting[key].pop(0)
    attributes: dict[tuple[str, str, str], list[int]] = {}
    for t, (name, pre, value, _) in enumerate(test.attributes):
        attributes.setdefault((test.concepts[pre], name, value), []).append(t)
    credited_attr: dict[int, int] = {}
    for g, (name, pre, value, _) in enumerate(gold.attributes):
        found = attributes.get((gold.concepts[pre], name, value))
        if found:
            credited_attr[g] = found.pop(0)
    matched = len(nodes) + len(credited_rel) + len(credited_attr)
    return matched, credited_rel, credited_attr, nodes


@register("sema")
class Sema:
    """SEMA: P/R/F1 of alignment-free dependent-triple matches."""

    name: ClassVar[str] = "sema"

    @dataclass(frozen=True, slots=True)
    class Options:
        """SEMA switches. ``compat="reference"``: the reference's reading
        and counting; with it ``uncapped=True`` reproduces the reference's
        matched count that can exceed a graph's size (F1 above 1)."""

        uncapped: bool = False
        compat: Reference | None = None

    def __init__(self, uncapped: bool = False, compat: str | None = None) -> None:
        self.options = self.Options(bool(uncapped), check_reference(compat))
        if self.options.uncapped and self.options.compat is None:
            raise ValueError("uncapped=True needs compat='reference'")

    @classmethod
    def from_options(cls, options: Sema.Options) -> Sema:
        return cls(**{f.name: getattr(options, f.name) for f in fields(options)})

    def score(self, candidate: Graph, reference: Graph, explain: bool = False) -> Score:
        """SEMA P/R/F1 of ``candidate`` against ``reference``.

        Example:
            >>> from amrcheck.reading.corpus import decode
            >>> a = decode('(w / want-01 :ARG0 (b / boy))')
            >>> b = decode('(w / want-01 :ARG0 (g / girl))')
            >>> Sema().score(a, b).f1  # only the root concept matches
            0.3333333333333333
        """
        if self.options.compat is None:
            test, gold = standard_view(candidate), standard_view(reference)
            counted, credited_rel, credited_attr, nodes = count_without_order(
                test, gold
            )
        else:
            test, gold = read_smatch104(candidate), read_smatch104(reference)
            matcher = _Matcher(test, gold)
            credited_rel, credited_attr, nodes = matcher.run()
            counted = matcher.matched
        matched = counted if self.options.uncapped else min(counted, test.size)
        precision, recall, f1 = _sema_prf(matched, test.size, gold.size)
        score = Score(
            f1=f1,
            precision=precision,
            recall=recall,
            counts={
                "matched": float(matched),
                "candidate": float(test.size),
                "reference": float(gold.size),
            },
            info={"uncapped_matched": counted},
        )
        if explain:
            score.explanation = _explain(
                candidate, reference, test, gold, credited_rel, credited_attr, nodes
            )
        return score

    def aggregate(self, pairs: Sequence[Score]) -> Score:
        """Micro P/R/F1 over summed counts (the reference's corpus mode)."""
        return micro_prf(pairs)


def _sema_prf(
    matched: int, candidate: int, reference: int
) -> tuple[float, float, float]:
    """The reference's arithmetic: 0 for all three when nothing matched."""
    if matched == 0:
        return 0.0, 0.0, 0.0
    return prf(matched, candidate, reference)


def _explain(
    candidate: Graph,
    reference: Graph,
    test: SmatchView,
    gold: SmatchView,
    credited_rel: dict[int, int],
    credited_attr: dict[int, int],
    nodes: set[int],
) -> Explanation:
    ref = written_ref

    matched = [
        (ref(candidate, test.relations[t][3]), ref(reference, gold.relations[g][3]))
        for g, t in sorted(credited_rel.items())
    ] + [
        (ref(candidate, test.attributes[t][3]), ref(reference, gold.attributes[g][3]))
        for g, t in sorted(credited_attr.items())
    ]
    used_rel = set(credited_rel.values())
    used_attr = set(credited_attr.values())
    missing = [
        ref(reference, r[3])
        for g, r in enumerate(gold.relations)
        if g not in credited_rel
    ] + [
        ref(reference, a[3])
        for g, a in enumerate(gold.attributes)
        if g not in credited_attr
    ]
    extra = [
        ref(candidate, r[3]) for t, r in enumerate(test.relations) if t not in used_rel
    ] + [
        ref(candidate, a[3])
        for t, a in enumerate(test.attributes)
        if t not in used_attr
    ]
    return Explanation(
        matched=matched,
        missing=missing,
        extra=extra,
        details={
            "root_match": test.concepts[0] == gold.concepts[0],
            "reference_nodes_matched": sorted(nodes),
        },
    )
