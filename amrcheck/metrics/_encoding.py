"""A standardised graph pair as the integers smatch's search reads.

Layer: metrics, below :mod:`.smatch` (which documents the encoding with
:func:`._search.build_triple_problem`). It runs once for every pair scored,
so a compiled install compiles it with the search (``setup.py``).
"""

from __future__ import annotations

from ..standardize import StandardGraph


def encode_pair(
    candidate: StandardGraph,
    reference: StandardGraph,
    candidate_rank: list[int],
    reference_rank: list[int],
    ids: dict[object, int],
) -> list[int]:
    """``[n1, n2, I1, A1, R1, I2, A2, R2]``, then each graph's nodes (in
    the ranks' numbers) and label ids: instance nodes, then their concepts;
    attribute nodes, then their (role, value); relation sources, roles,
    then targets. ``ids`` gives each new label the next id (its size)."""
    # one list of its final size, written by position: appending would
    # grow (reallocate) it several times a pair
    data = [0] * (8 + _encoded_size(candidate) + _encoded_size(reference))
    data[0] = len(candidate.variables)
    data[1] = len(reference.variables)
    at = 2
    for graph in (candidate, reference):
        data[at] = len(graph.instances)
        data[at + 1] = len(graph.attributes)
        data[at + 2] = len(graph.relations)
        at += 3
    for graph, rank in ((candidate, candidate_rank), (reference, reference_rank)):
        count = len(graph.instances)
        for node, concept in graph.instances:
            data[at] = rank[node]
            data[at + count] = _label_id(ids, concept)
            at += 1
        at += count
        count = len(graph.attributes)
        for node, role, value in graph.attributes:
            data[at] = rank[node]
            data[at + count] = _label_id(ids, (role, value))
            at += 1
        at += count
        count = len(graph.relations)
        for source, role, target in graph.relations:
            data[at] = rank[source]
            data[at + count] = _label_id(ids, role)
            data[at + 2 * count] = rank[target]
            at += 1
        at += 2 * count
    return data


def _encoded_size(graph: StandardGraph) -> int:
    """How many ints :func:`encode_pair` writes for ``graph``'s triples."""
    instances, attributes = len(graph.instances), len(graph.attributes)
    return 2 * instances + 2 * attributes + 3 * len(graph.relations)


def _label_id(ids: dict[object, int], label: object) -> int:
    found = ids.get(label)
    if found is None:
        found = len(ids)
        ids[label] = found
    return found
