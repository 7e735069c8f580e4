"""A pair's explanation in a few words, in the metric's own units.

Layer: render, on top of the metrics. :func:`summarize` reads a
:class:`~amrcheck.metrics.Score` scored with ``explain=True`` and says
what differs in the units the metric counts: triples for the alignment
metrics (smatch, s2match: ``2 missing, 1 extra``), motifs for rematch,
n-grams for SemBleu, WL features for WLK, node flows for WWLK, aligned
nodes and the weakest agreement for wlmatch, nodes for amrsim. Front ends
(the editor's lenses) print it next to the score; it never borrows
another metric's counts. SEMA, which matches triples without an
alignment, says ``triples: 5 shared, 1 missing, 1 extra``.

Example:
    >>> from amrcheck.reading.corpus import decode
    >>> from amrcheck.metrics import get_metric
    >>> pair = (decode('(w / want-01 :ARG0 (g / girl))'),
    ...         decode('(w / want-01 :ARG0 (b / boy))'))
    >>> summarize(get_metric('smatch').score(*pair, explain=True))
    '1 missing, 1 extra'
    >>> summarize(get_metric('rematch').score(*pair, explain=True))
    'motifs: 1 shared, 2 missing, 2 extra'
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..metrics import Explanation, Score

__all__ = ["summarize"]


def _counted(units: dict[str, list[Any]], key: str) -> float:
    """How many units ``units[key]`` holds; SemBleu's are ``(n-gram, count)``."""
    total = 0.0
    for unit in units.get(key, []):
        count = unit[1] if isinstance(unit, tuple) and len(unit) == 2 and isinstance(
            unit[1], int | float
        ) else 1
        total += count
    return total


def _split(name: str) -> Callable[[Score, Explanation], str]:
    def say(score: Score, explanation: Explanation) -> str:
        shared, missing, extra = (
            _counted(explanation.units, key) for key in ("matched", "missing", "extra")
        )
        return (
            f"{name}: {shared:g} shared, {missing:g} missing, {extra:g} extra"
        )

    return say


def _flows(score: Score, explanation: Explanation) -> str:
    flows = explanation.units.get("flows", [])
    across = sum(1 for f in flows if f.candidate_label != f.reference_label)
    return f"{len(flows)} flows, {across} between different labels"


def _aligned_nodes(score: Score, explanation: Explanation) -> str:
    nodes: Sequence[Any] = explanation.units.get("nodes", [])
    relabelled = sum(1 for n in nodes if n.candidate_label != n.reference_label)
    said = f"{len(nodes)} aligned nodes ({relabelled} relabelled)"
    components: dict[str, float] = score.info.get("components") or {}
    if components:
        weakest = min(components, key=lambda name: components[name])
        said += f" · weakest agreement: {weakest} {components[weakest]:.2f}"
    return said


def _closest_nodes(score: Score, explanation: Explanation) -> str:
    matches = explanation.units.get("closest", [])
    other = sum(1 for m in matches if m.node_label != m.closest_label)
    return f"{len(matches)} nodes, {other} closest to another label"


def _triples(score: Score, explanation: Explanation) -> str:
    return f"{len(explanation.missing)} missing, {len(explanation.extra)} extra"


#: ``details["unit"]`` of an explanation -> what its summary says
SUMMARIES: dict[str, Callable[[Score, Explanation], str]] = {
    "motif": _split("motifs"),
    "n-gram": _split("n-grams"),
    "WL feature": _split("features"),
    "node flow": _flows,
    "node": _closest_nodes,
}


def summarize(score: Score) -> str | None:
    """What differs, in the units of the metric that scored ``score``.

    Args:
        score: a pair's score, scored with ``explain=True``.

    Returns:
        A short phrase (no score in it), or None without an explanation.
    """
    explanation = score.explanation
    if explanation is None:
        return None
    unit = explanation.details.get("unit")
    if isinstance(unit, str) and unit in SUMMARIES:
        return SUMMARIES[unit](score, explanation)
    if "nodes" in explanation.units:  # wlmatch: an alignment graded per node
        return _aligned_nodes(score, explanation)
    if explanation.alignment:  # smatch, s2match: triples under an alignment
        return _triples(score, explanation)
    if not explanation.units:  # SEMA: triples, without an alignment
        return (
            f"triples: {len(explanation.matched)} shared, "
            f"{len(explanation.missing)} missing, {len(explanation.extra)} extra"
        )
    return None
