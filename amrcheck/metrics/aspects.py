"""Fine-grained smatch scores (Damonte et al. 2017), on the shared standardisation.

Layer: metrics, on top of :mod:`.smatch`. Each aspect is P/R/F1 over a
sub-part of the graphs, with counts that corpus scores sum (micro):

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
UNLABELED_ROLE = "label"
_SENSE = re.compile(r"-\d+$")
_ARG = re.compile(r"^arg\d+$", re.IGNORECASE)


def _score(matched: int, candidate: int, reference: int) -> Score:
    if candidate == 0 and reference == 0:
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


def aspect_scores(
    metric: Smatch, candidate: Graph, reference: Graph
) -> dict[str, Score]:
    """Every aspect of :data:`ASPECTS` for one pair, under ``metric``'s settings."""
    return _standard_aspects(
        metric, metric.standardize(candidate), metric.standardize(reference)
    )


def aspect_scores_missing(metric: Smatch, reference: Graph) -> dict[str, Score]:
    """Every aspect for a candidate that cannot be read (or is absent): an
    empty graph, so each aspect's reference items are all missing
    (:meth:`amrcheck.metrics.Metric.score_missing`)."""
    ref = metric.standardize(reference)
    return _standard_aspects(metric, emptied(ref), ref)


def _standard_aspects(
    metric: Smatch, cand: StandardGraph, ref: StandardGraph
) -> dict[str, Score]:
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


def aggregate_aspects(pairs: Sequence[Mapping[str, Score]]) -> dict[str, Score]:
    """Corpus (micro) score per aspect; an aspect absent everywhere scores 1.0."""
    totals: dict[str, Score] = {}
    for aspect in ASPECTS:
        summed = micro_prf([pair[aspect] for pair in pairs])
        counts = summed.counts
        totals[aspect] = _score(
            int(counts.get("matched", 0)),
            int(counts.get("candidate", 0)),
            int(counts.get("reference", 0)),
        )
        totals[aspect].counts = counts
    return totals
