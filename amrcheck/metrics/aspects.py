"""Fine-grained smatch scores after Damonte et al. (2017): ours, or theirs.

Layer: metrics, on top of :mod:`.smatch`. Each aspect is P/R/F1 over a
sub-part of the graphs, with counts that corpus scores sum (micro). Two
sets of definitions (``docs/cli.md`` compares them aspect by aspect):

**amrcheck's** (the default), on the shared standardisation:

* ``smatch`` — the metric itself, as configured;
* ``unlabeled`` — smatch with every role (TOP aside) replaced by one label;
* ``no_wsd`` — smatch with PropBank senses stripped (``want-01`` → ``want``);
* ``concepts``, ``frames`` (concepts with a sense), ``named_entities``
  (concepts of ``:name`` sources), ``negation`` (concepts of ``:polarity -``
  sources), ``wikification`` (``:wiki`` values), ``ignore_vars`` (triples
  with every variable replaced by its concept) — compared as sets (as
  multisets in the compat modes), no alignment;
* ``reentrancies`` (relations into a node with two or more incoming
  relations) and ``srl`` (``:ARGn`` relations, ``-of`` undone) — matched
  under the smatch alignment of the whole graphs.

When both graphs have nothing of an aspect, its score is 1.0.

**Damonte et al.'s** (``definitions="damonte"``), as their scripts
(``mdtux89/amr-evaluation``) compute them, which differ in: ``unlabeled``
relabels inverse roles as written (``:ARG0-of`` too, before any
inversion); ``no_wsd`` turns every sense into ``-01`` (``want`` and
``want-01`` still differ); ``negation`` counts every ``:polarity`` source,
whatever the value; ``concepts``, ``named_entities``, ``negation`` and
``wikification`` count as multisets; ``reentrancies`` and ``srl`` are
smatch on their own subgraphs — those relations (as written, ``-of``
inverted), the concepts of the nodes they touch, and a TOP triple (the
first such node's concept) — each under its own best alignment; an
aspect nothing has scores 0.0.
``ignore_vars`` is amrcheck's own (it has no counterpart there) and is
the same in both.

Example:
    >>> from amrcheck.reading.corpus import decode
    >>> from amrcheck.metrics.smatch import Smatch
    >>> candidate = decode('(w / want-01 :ARG0 (b / boy) :polarity -)')
    >>> reference = decode('(w / want-02 :ARG1 (b / boy))')
    >>> scores = aspect_scores(Smatch(), candidate, reference)
    >>> {k: round(scores[k].f1, 2) for k in ("smatch", "unlabeled", "no_wsd", "srl")}
    {'smatch': 0.44, 'unlabeled': 0.67, 'no_wsd': 0.67, 'srl': 0.0}
    >>> scores["negation"].counts, scores["wikification"].f1
    ({'matched': 0, 'candidate': 1, 'reference': 0}, 1.0)
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Literal

from ..graph import Graph
from ..standardize import TOP_ROLE, StandardGraph
from ._protocol import Score, micro_prf
from .smatch import Smatch, emptied

ASPECTS: tuple[str, ...] = (
    "smatch",
    "unlabeled",
    "no_wsd",
    "concepts",
    "frames",
    "named_entities",
    "negation",
    "wikification",
    "reentrancies",
    "srl",
    "ignore_vars",
)
#: whose definitions the aspects follow (see the module's docstring)
AspectDefinitions = Literal["amrcheck", "damonte"]
DEFINITIONS: tuple[AspectDefinitions, ...] = ("amrcheck", "damonte")
UNLABELED_ROLE = "label"
#: Damonte et al.'s sense pattern: a concept of letters, digits and
#: hyphens ending in a number (their ``perl`` rewrite gives it ``-01``)
_DAMONTE_SENSE = re.compile(r"^([a-zA-Z0-9-][a-zA-Z0-9-]*)-[0-9][0-9]*")
_SENSE = re.compile(r"-\d+$")
_ARG = re.compile(r"^arg\d+$", re.IGNORECASE)


def _score(
    matched: int, candidate: int, reference: int, empty_is_perfect: bool = True
) -> Score:
    if candidate == 0 and reference == 0 and empty_is_perfect:
        precision = recall = f1 = 1.0
    elif candidate == 0 or reference == 0 or matched == 0:
        precision = matched / candidate if candidate else 0.0
        recall = matched / reference if reference else 0.0
        f1 = 0.0
    else:
        precision, recall = matched / candidate, matched / reference
        f1 = 2 * precision * recall / (precision + recall)
    counts: dict[str, float] = {
        "matched": matched,
        "candidate": candidate,
        "reference": reference,
    }
    return Score(f1=f1, precision=precision, recall=recall, counts=counts)


def _overlap(
    ours: Iterable[Hashable], theirs: Iterable[Hashable], multiset: bool
) -> Score:
    a, b = Counter(ours), Counter(theirs)
    if not multiset:
        a, b = Counter(set(a)), Counter(set(b))
    return _score(sum((a & b).values()), sum(a.values()), sum(b.values()))


def _concepts(graph: StandardGraph) -> dict[int, str]:
    concepts: dict[int, str] = {}
    for node, concept in graph.instances:
        concepts.setdefault(node, concept)
    return concepts


def _sources(graph: StandardGraph, role: str, value: str | None = None) -> list[str]:
    """Concepts of nodes with an outgoing ``role`` (to ``value``, if given)."""
    concepts = _concepts(graph)
    nodes = [n for n, r, _ in graph.relations if r.lower() == role and value is None]
    nodes += [
        n
        for n, r, v in graph.attributes
        if r.lower() == role and (value is None or v == value)
    ]
    return [concepts.get(n, "") for n in nodes]


def _relabelled(graph: StandardGraph) -> StandardGraph:
    return replace(
        graph,
        attributes=[
            (n, r if r == TOP_ROLE else UNLABELED_ROLE, v)
            for n, r, v in graph.attributes
        ],
        relations=[(a, UNLABELED_ROLE, b) for a, _, b in graph.relations],
    )


def _sense_free(graph: StandardGraph) -> StandardGraph:
    return replace(
        graph,
        instances=[(n, _SENSE.sub("", c)) for n, c in graph.instances],
        attributes=[
            (n, r, _SENSE.sub("", v) if r == TOP_ROLE else v)
            for n, r, v in graph.attributes
        ],
    )


def _without_variables(graph: StandardGraph) -> list[tuple[str, ...]]:
    concepts = _concepts(graph)
    items: list[tuple[str, ...]] = [(c,) for _, c in graph.instances]
    items += [(concepts.get(n, ""), r, v) for n, r, v in graph.attributes]
    items += [
        (concepts.get(a, ""), r, concepts.get(b, "")) for a, r, b in graph.relations
    ]
    return items


def _uninverted(graph: StandardGraph) -> list[tuple[int, str, int]]:
    """Relations with ``-of`` undone, whatever the standardisation did."""
    out = []
    for a, role, b in graph.relations:
        name = role.lower()
        if name.endswith("-of") and _ARG.match(name[:-3]):
            out.append((b, name[:-3], a))
        else:
            out.append((a, name, b))
    return out


def _reentrant(relations: list[tuple[int, str, int]]) -> list[tuple[int, str, int]]:
    incoming = Counter(b for _, _, b in relations)
    return [t for t in relations if incoming[t[2]] >= 2]


def _aligned(
    ours: list[tuple[int, str, int]],
    theirs: list[tuple[int, str, int]],
    mapping: list[int],
    multiset: bool,
) -> Score:
    mapped = [
        (mapping[a], r, mapping[b])
        if mapping[a] >= 0 and mapping[b] >= 0
        else (-1 - i, r, -1)
        for i, (a, r, b) in enumerate(ours)
    ]
    return _overlap(mapped, theirs, multiset)


def _labelled_as_written(graph: StandardGraph) -> StandardGraph:
    """Every role (TOP aside) as one label, relations in their written
    direction: Damonte et al. relabel the text (``:ARG0-of`` too) before
    anything is inverted."""
    node = {name: n for n, name in enumerate(graph.variables)}
    written = graph.graph.triples
    return replace(
        graph,
        attributes=[
            (n, r if r == TOP_ROLE else UNLABELED_ROLE, v)
            for n, r, v in graph.attributes
        ],
        relations=[
            (node[written[o][0]], UNLABELED_ROLE, node[written[o][2]])
            for o in graph.relation_origin
        ],
    )


def _senses_as_01(graph: StandardGraph) -> StandardGraph:
    # the TOP triple carries the root's concept under root=concept: as
    # their text rewrite does, it changes with the concept
    return replace(
        graph,
        instances=[(n, _DAMONTE_SENSE.sub(r"\1-01", c)) for n, c in graph.instances],
        attributes=[
            (n, r, _DAMONTE_SENSE.sub(r"\1-01", v) if r == TOP_ROLE else v)
            for n, r, v in graph.attributes
        ],
    )


#: a relation as Damonte et al.'s ``scores.py`` sees it, with its origin
WrittenRelation = tuple[int, str, int, int]


def _written_relations(graph: StandardGraph) -> list[WrittenRelation]:
    """Relations as written, only ``-of`` inverted (every such role, as
    ``scores.py`` does; not smatch 1.0.4's ``:mod`` / ``:domain`` rule),
    by source node then as written (smatch's order, which decides where a
    subgraph's TOP goes)."""
    node = {name: n for n, name in enumerate(graph.variables)}
    found = []
    for origin in graph.relation_origin:
        source, role, target = graph.graph.triples[origin]
        name = role[1:] if role.startswith(":") else role
        a, b = node[source], node[target]
        if name.endswith("-of"):
            a, b, name = b, a, name[:-3]
        found.append((a, name, b, origin))
    return sorted(found, key=lambda relation: relation[0])


def _subgraph(
    graph: StandardGraph, picked: list[WrittenRelation], extra_attributes: list[int]
) -> StandardGraph:
    """Relations ``picked`` and attributes ``extra_attributes`` (indices),
    with the concepts of the nodes they touch and a TOP triple on the first
    of those nodes carrying its concept: the graph Damonte et al. score
    with smatch for reentrancies and SRL."""
    involved: list[int] = []
    for k in extra_attributes:
        if graph.attributes[k][0] not in involved:
            involved.append(graph.attributes[k][0])
    for a, _, b, _ in picked:
        involved += [n for n in (a, b) if n not in involved]
    concepts = _concepts(graph)
    keep = set(involved)
    instances = [(k, t) for k, t in enumerate(graph.instances) if t[0] in keep]
    top = (
        [((involved[0], TOP_ROLE, concepts.get(involved[0], "")), -1)]
        if involved
        else []
    )
    attributes = top + [
        (graph.attributes[k], graph.attribute_origin[k]) for k in extra_attributes
    ]
    return replace(
        graph,
        instances=[t for _, t in instances],
        instance_origin=[graph.instance_origin[k] for k, _ in instances],
        attributes=[t for t, _ in attributes],
        attribute_origin=[o for _, o in attributes],
        relations=[(a, r, b) for a, r, b, _ in picked],
        relation_origin=[o for _, _, _, o in picked],
    )


def _reentrancy_subgraph(graph: StandardGraph) -> StandardGraph:
    relations = _written_relations(graph)
    incoming = Counter(b for _, _, b, _ in relations)
    picked = [
        relation
        for node in range(len(graph.variables))
        if incoming[node] >= 2
        for relation in relations
        if relation[2] == node
    ]
    return _subgraph(graph, picked, [])


def _srl_subgraph(graph: StandardGraph) -> StandardGraph:
    arguments = [
        k
        for k, (_, r, _) in enumerate(graph.attributes)
        if r != TOP_ROLE and r.lower().startswith("arg")
    ]
    picked = [r for r in _written_relations(graph) if r[1].startswith("ARG")]
    return _subgraph(graph, picked, arguments)


def aspect_scores(
    metric: Smatch,
    candidate: Graph,
    reference: Graph,
    definitions: AspectDefinitions = "amrcheck",
) -> dict[str, Score]:
    """Every aspect of :data:`ASPECTS` for one pair, under ``metric``'s
    settings, by amrcheck's or Damonte et al.'s ``definitions``."""
    cand, ref = metric.standardize(candidate), metric.standardize(reference)
    return _standard_aspects(metric, cand, ref, definitions)


def aspect_scores_missing(
    metric: Smatch, reference: Graph, definitions: AspectDefinitions = "amrcheck"
) -> dict[str, Score]:
    """Every aspect for a candidate that cannot be read (or is absent): an
    empty graph, so each aspect's reference items are all missing
    (:meth:`amrcheck.metrics.Metric.score_missing`)."""
    ref = metric.standardize(reference)
    return _standard_aspects(metric, emptied(ref), ref, definitions)


def _damonte_aspects(
    metric: Smatch, cand: StandardGraph, ref: StandardGraph
) -> dict[str, Score]:
    """Damonte et al.'s definitions (the module's docstring)."""
    scores = {"smatch": metric.score_standard(cand, ref)}
    scores["unlabeled"] = metric.score_standard(
        _labelled_as_written(cand), _labelled_as_written(ref)
    )
    scores["no_wsd"] = metric.score_standard(_senses_as_01(cand), _senses_as_01(ref))
    concepts_c = [c for _, c in cand.instances]
    concepts_r = [c for _, c in ref.instances]
    scores["concepts"] = _overlap(concepts_c, concepts_r, True)
    scores["frames"] = _overlap(
        [c for c in concepts_c if _SENSE.search(c)],
        [c for c in concepts_r if _SENSE.search(c)],
        True,
    )
    scores["named_entities"] = _overlap(
        _sources(cand, "name"), _sources(ref, "name"), True
    )
    scores["negation"] = _overlap(
        _sources(cand, "polarity"), _sources(ref, "polarity"), True
    )
    scores["wikification"] = _overlap(
        [v for _, r, v in cand.attributes if r.lower() == "wiki"],
        [v for _, r, v in ref.attributes if r.lower() == "wiki"],
        True,
    )
    for name, subgraph in (
        ("reentrancies", _reentrancy_subgraph),
        ("srl", _srl_subgraph),
    ):
        found = metric.score_standard(subgraph(cand), subgraph(ref))
        scores[name] = _score(
            int(found.counts["matched"]),
            int(found.counts["candidate"]),
            int(found.counts["reference"]),
        )
    scores["ignore_vars"] = _overlap(
        _without_variables(cand), _without_variables(ref), cand.options.multiset
    )
    return scores


def _standard_aspects(
    metric: Smatch,
    cand: StandardGraph,
    ref: StandardGraph,
    definitions: AspectDefinitions = "amrcheck",
) -> dict[str, Score]:
    if definitions == "damonte":
        return _damonte_aspects(metric, cand, ref)
    multiset = cand.options.multiset
    main = metric.align(cand, ref)
    scores = {"smatch": metric.score_standard(cand, ref)}
    scores["unlabeled"] = metric.score_standard(_relabelled(cand), _relabelled(ref))
    scores["no_wsd"] = metric.score_standard(_sense_free(cand), _sense_free(ref))
    concepts_c = [c for _, c in cand.instances]
    concepts_r = [c for _, c in ref.instances]
    scores["concepts"] = _overlap(concepts_c, concepts_r, multiset)
    scores["frames"] = _overlap(
        [c for c in concepts_c if _SENSE.search(c)],
        [c for c in concepts_r if _SENSE.search(c)],
        multiset,
    )
    scores["named_entities"] = _overlap(
        _sources(cand, "name"), _sources(ref, "name"), multiset
    )
    scores["negation"] = _overlap(
        _sources(cand, "polarity", "-"), _sources(ref, "polarity", "-"), multiset
    )
    scores["wikification"] = _overlap(
        [v for _, r, v in cand.attributes if r.lower() == "wiki"],
        [v for _, r, v in ref.attributes if r.lower() == "wiki"],
        multiset,
    )
    rel_c, rel_r = _uninverted(cand), _uninverted(ref)
    scores["reentrancies"] = _aligned(
        _reentrant(rel_c), _reentrant(rel_r), main.mapping, multiset
    )
    scores["srl"] = _aligned(
        [t for t in rel_c if _ARG.match(t[1])],
        [t for t in rel_r if _ARG.match(t[1])],
        main.mapping,
        multiset,
    )
    scores["ignore_vars"] = _overlap(
        _without_variables(cand), _without_variables(ref), multiset
    )
    return scores


def aggregate_aspects(
    pairs: Sequence[Mapping[str, Score]], definitions: AspectDefinitions = "amrcheck"
) -> dict[str, Score]:
    """Corpus (micro) score per aspect; an aspect absent everywhere scores
    1.0 (0.0 by Damonte et al.'s ``definitions``, as their scripts print)."""
    totals: dict[str, Score] = {}
    for aspect in ASPECTS:
        summed = micro_prf([pair[aspect] for pair in pairs])
        counts = summed.counts
        totals[aspect] = _score(
            int(counts.get("matched", 0)),
            int(counts.get("candidate", 0)),
            int(counts.get("reference", 0)),
            empty_is_perfect=definitions == "amrcheck",
        )
        totals[aspect].counts = counts
    return totals
