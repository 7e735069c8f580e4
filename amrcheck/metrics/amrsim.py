"""AMRSim: the cosine of learned graph embeddings (Shou & Lin 2023).

Layer: metrics. A thin shell over :mod:`amrcheck.learned`: each graph is
embedded by a pretrained sentence encoder that reads the graph's concept
and relation tokens at positions given by their distance to the root,
followed by a GNN adapter over the graph's edges, mean-pooled
(:mod:`amrcheck.learned.model`); the score is the cosine of the two
embeddings, clamped into [0, 1] (negative cosines, which mean-pooled
embeddings of this encoder practically never give, become 0).

Principles: I (range [0, 1]); II in the engine's sense — two writings of
one graph (variables renamed, branches reordered, re-entrancies defined
elsewhere, ``:X-of`` either way) have the same canonical form and score
exactly 1.0, and so does a graph against itself (the canonical forms are
compared before any cosine); graphs that differ get different token
graphs, so a learned model gives 1.0 to none of them in practice, but
nothing proves it; III (symmetric: one dot product of the same two
vectors); IV (the same score in every run, process, batch and ``--jobs``:
eval mode, no dropout, blocked matrix products; see
:mod:`amrcheck.learned.encoder`). The root matters: a graph re-rooted
(another focus) is another graph, here as for every metric of the engine.

Explanation: for every concept and constant of the candidate, the
reference node whose contextual embedding is closest, with the cosine, and
the same from the reference side — an n:m soft alignment
(``units["closest"]``); ``alignment`` maps each candidate variable to its
closest reference variable.

Options: ``weights`` (a file written by ``amrcheck train amrsim``; default:
the model shipped in the package), ``precision`` (``auto``, ``float32``,
``bfloat16``) and ``threads`` (torch's intra-op threads, default 1 on any
machine: the number changes last bits, so it is fixed, and forked
``--jobs`` workers need 1; use ``--jobs`` for more cores). Needs the ``learned`` extra:
``pip install 'amrcheck[learned]'``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any, ClassVar, Literal

from ..graph import Graph
from ..learned import require_learned
from ..learned.graph_tokens import Unit, UnitKind
from . import register
from ._protocol import (
    PATH_OPTION,
    Explanation,
    MeanOfPairs,
    Score,
    TripleRef,
)
from ._refs import written_ref

if TYPE_CHECKING:
    import numpy as np

    from ..learned.encoder import GraphEncoder, NodeVectors


@dataclass(frozen=True, slots=True)
class NodeMatch:
    """A node of one graph and the closest node of the other, by contextual cosine.

    ``node`` belongs to the graph named by ``side`` (``candidate`` or
    ``reference``); ``closest`` to the other graph. Both point at written
    triples (a variable's instance, or the attribute holding a constant).
    """

    side: str
    node: TripleRef
    closest: TripleRef
    node_label: str
    closest_label: str
    cosine: float

    def __str__(self) -> str:
        return f"{self.node_label} ~ {self.closest_label}: {self.cosine:.3f}"


@register("amrsim")
class AMRSim(MeanOfPairs):
    """AMRSim with the shipped model or a trained weights file (module docstring)."""

    name: ClassVar[str] = "amrsim"

    @dataclass(frozen=True, slots=True)
    class Options:
        """``weights``: None for the shipped model, or a file written by
        ``amrcheck train amrsim``. ``precision``: ``auto`` (bfloat16 where
        the CPU multiplies it natively, else float32), ``float32`` or
        ``bfloat16``. ``threads``: torch's intra-op threads (fixed, as
        it changes last bits; more cores: ``--jobs``)."""

        weights: str | None = field(default=None, metadata=PATH_OPTION)
        precision: Literal["auto", "float32", "bfloat16"] = "auto"
        threads: int = 1

        def __post_init__(self) -> None:
            if self.precision not in ("auto", "float32", "bfloat16"):
                raise ValueError("precision must be auto, float32 or bfloat16")
            if self.threads < 1:
                raise ValueError("threads must be 1 or more")

    def __init__(self, **options: Any) -> None:
        self.options = self.Options(**options)
        require_learned()
        from ..learned.encoder import shared_encoder

        self.encoder: GraphEncoder = shared_encoder(
            self.options.weights, self.options.precision, self.options.threads
        )

    @classmethod
    def from_options(cls, options: Any) -> AMRSim:
        return cls(**{f.name: getattr(options, f.name) for f in fields(options)})

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its options, the precision as resolved here: a worker
        process or a Dask worker builds its own encoder (once: it is shared)
        and computes as this one does. The encoder itself holds a lock and
        the model, which neither pickle nor should travel."""
        options = {f.name: getattr(self.options, f.name) for f in fields(self.options)}
        options["precision"] = self.encoder.precision
        return (_rebuild, (options,))

    def settings(self) -> dict[str, Any]:
        """The options (weights None: the shipped model), with the precision
        actually used; they rebuild this metric exactly."""
        return {
            "weights": self.options.weights,
            "precision": self.encoder.precision,
            "threads": self.encoder.threads,
        }

    def score(self, candidate: Graph, reference: Graph, explain: bool = False) -> Score:
        """The clamped cosine of the two graph embeddings (symmetric)."""
        # explained: the node vectors first, whose forward passes also leave
        # both graph embeddings in the encoder's cache
        explanation = self.explain(candidate, reference) if explain else None
        score = self.score_pairs([(candidate, reference)])[0]
        score.explanation = explanation
        return score

    def score_pairs(self, pairs: Sequence[tuple[Graph, Graph]]) -> list[Score]:
        """:meth:`score` of many pairs (same scores), their graphs embedded together."""
        graphs = [graph for pair in pairs for graph in pair]
        vectors = self.encoder.vectors(graphs)
        keys = [self.encoder.key(graph) for graph in graphs]
        scores = []
        for k in range(0, len(graphs), 2):
            same = keys[k] == keys[k + 1]
            scores.append(_score(1.0 if same else _cosine(vectors[k], vectors[k + 1])))
        return scores

    def explain(self, candidate: Graph, reference: Graph) -> Explanation:
        """The n:m soft alignment of the two graphs' nodes (module docstring)."""
        cand = self.encoder.nodes(candidate)
        ref = self.encoder.nodes(reference)
        cosines = cand.rows @ ref.rows.T
        matches = _closest("candidate", cand, ref, cosines)
        alignment: dict[str, str | None] = {}
        for row, unit in enumerate(cand.units):
            if unit.kind is UnitKind.CONCEPT and ref.units:
                closest = ref.units[int(cosines[row].argmax())]
                alignment[_variable(cand, unit)] = (
                    _variable(ref, closest)
                    if closest.kind is UnitKind.CONCEPT
                    else None
                )
        matches += _closest("reference", ref, cand, cosines.T)
        return Explanation(
            alignment=alignment,
            units={"closest": matches},
            details={"unit": "node", "similarity": "contextual cosine"},
        )


def _rebuild(options: dict[str, Any]) -> AMRSim:
    """An :class:`AMRSim` unpickled (:meth:`AMRSim.__reduce__`)."""
    return AMRSim(**options)


def _cosine(a: np.ndarray, b: np.ndarray) -> float:
    """Dot product of two unit vectors, clamped into [0, 1]."""
    return min(1.0, max(0.0, float(a @ b)))


def _score(value: float) -> Score:
    return Score(f1=value, counts={"similarity": value, "pairs": 1.0})


def _variable(nodes: NodeVectors, unit: Unit) -> str:
    return nodes.graph.triples[unit.origin][0]


def _closest(
    side: str, own: NodeVectors, other: NodeVectors, cosines: np.ndarray
) -> list[NodeMatch]:
    matches: list[NodeMatch] = []
    if not other.units:
        return matches
    for row, unit in enumerate(own.units):
        best = int(cosines[row].argmax())  # the first of equals: deterministic
        matches.append(
            NodeMatch(
                side=side,
                node=written_ref(own.graph, unit.origin),
                closest=written_ref(other.graph, other.units[best].origin),
                node_label=unit.text,
                closest_label=other.units[best].text,
                cosine=float(cosines[row, best]),
            )
        )
    return matches
