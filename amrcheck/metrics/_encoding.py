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
    data = [len(candidate.variables), len(reference.variables)]
    for graph in (candidate, reference):
        data.append(len(graph.instances))
        data.append(len(graph.attributes))
        data.append(len(graph.relations))
    for graph, rank in ((candidate, candidate_rank), (reference, reference_rank)):
        for node, _ in graph.instances:
            data.append(rank[node])
        for _, concept in graph.instances:
            data.append(_label_id(ids, concept))
        for node, _, _ in graph.attributes:
            data.append(rank[node])
        for _, role, value in graph.attributes:
            data.append(_label_id(ids, (role, value)))
        for source, _, _ in graph.relations:
            data.append(rank[source])
        for _, role, _ in graph.relations:
            data.append(_label_id(ids, role))
        for _, _, target in graph.relations:
            data.append(rank[target])
    return data


def _label_id(ids: dict[object, int], label: object) -> int:
    found = ids.get(label)
    if found is None:
        found = len(ids)
        ids[label] = found
    return found
