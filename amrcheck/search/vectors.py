"""Vectors of graphs for a similarity index, from the metrics that have them.

Layer: engine, above the metrics (it reads their features, never changes
them); below :mod:`amrcheck.search.index`.

A metric has vectors when the similarity it computes is a similarity of
per-graph vectors, so that nearest neighbours in vector space are the
graphs the metric scores highest:

* sparse **features** (``features(graph) -> {key: weight}``) compared by
  cosine or by Jaccard: WLK (its Weisfeiler-Leman features, cosine) and
  rematch (its motifs, Jaccard) through the adapters here;
* dense **embeddings** (``embed(graphs) -> array``, one row per graph)
  compared by cosine: a learned metric (``amrsim``) plugs in by having an
  ``embed`` method (or a ``features`` method and a ``similarity``
  attribute), nothing else.

:func:`vectors_for` finds the vectors of a metric. Feature keys are
hashed to 64-bit ids (stable across processes and Python versions, never
``hash()``), and, for the nearest-neighbour search, folded into a dense
vector of fixed size with signed feature hashing.

Example:
    >>> from amrcheck.metrics import get_metric
    >>> from amrcheck.reading.corpus import decode
    >>> wlk = vectors_for(get_metric("wlk"))
    >>> a = decode('(w / want-01 :ARG0 (b / boy))')
    >>> b = decode('(w / want-01 :ARG0 (g / girl))')
    >>> fa, fb = wlk.features(a), wlk.features(b)
    >>> round(cosine(fa, fb), 6) == round(get_metric("wlk").score(a, b).f1, 6)
    True
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal, Protocol, runtime_checkable

import numpy as np

from ..errors import MetricError
from ..graph import Graph
from ..metrics import Metric
from ..pairing.graphs import metric_settings

if TYPE_CHECKING:
    from ..metrics.rematch import Rematch
    from ..metrics.wlk import WLK

Similarity = Literal["cosine", "jaccard"]
SIMILARITIES: tuple[str, ...] = ("cosine", "jaccard")


@runtime_checkable
class HasFeatures(Protocol):
    """A metric (or adapter) whose score is a similarity of sparse features."""

    similarity: Similarity

    def features(self, graph: Graph) -> Mapping[str, float]: ...


@runtime_checkable
class HasEmbeddings(Protocol):
    """A metric whose score is the cosine of dense per-graph embeddings."""

    def embed(self, graphs: Sequence[Graph]) -> Any: ...


class Vectors:
    """The vectors one metric gives graphs: sparse features or embeddings."""

    def __init__(self, metric: Metric, source: HasFeatures | HasEmbeddings) -> None:
        self.metric = metric
        self.source = source
        self.kind: Literal["features", "embeddings"] = (
            "features" if isinstance(source, HasFeatures) else "embeddings"
        )
        self.similarity: Similarity = (
            source.similarity if isinstance(source, HasFeatures) else "cosine"
        )

    @property
    def name(self) -> str:
        return self.metric.name

    def settings(self) -> dict[str, Any]:
        """What the vectors depend on: the metric's name and settings."""
        return {"metric": self.metric.name, **_plain(metric_settings(self.metric))}

    def features(self, graph: Graph) -> Mapping[str, float]:
        assert isinstance(self.source, HasFeatures), "a metric with embeddings"
        return self.source.features(graph)

    def embed(self, graphs: Sequence[Graph]) -> np.ndarray[Any, np.dtype[np.float32]]:
        assert isinstance(self.source, HasEmbeddings), "a metric with features"
        return np.asarray(self.source.embed(graphs), dtype=np.float32)


def _plain(settings: Mapping[str, Any]) -> dict[str, Any]:
    """Settings as JSON values (an index stores them and compares them)."""
    return {
        key: value
        if isinstance(value, (str, int, float, bool, type(None)))
        else str(value)
        for key, value in settings.items()
    }


class WLFeatures:
    """WLK's features of one graph, keyed by their content, weighted as WLK does.

    WLK compresses labels through a table made per pair; here each label
    is named by its content instead (its own label and the sorted
    multiset of what it heard), which is the same equality, so the
    cosine of two graphs' features is WLK's score of the pair.
    """

    similarity: Similarity = "cosine"

    def __init__(self, metric: WLK) -> None:
        self.metric = metric

    def features(self, graph: Graph) -> dict[str, float]:
        table: dict[object, int] = {}
        side = self.metric.graph_features(graph, table)
        signature_of: dict[int, Any] = {n: sig for sig, n in table.items()}
        names: dict[int, str] = {}

        def name(label: object) -> str:
            if not isinstance(label, int):
                return repr(label)
            if label not in names:
                own, heard = signature_of[label]
                inner = sorted((role, name(nb)) for role, nb in heard)
                names[label] = repr((name(own), tuple(inner)))
            return names[label]

        out: dict[str, float] = {}
        for k, found in enumerate(side.sets()):
            # WLK weighs iteration i by 1/(1+i) (its score squares it);
            # node labels and label triples (sets 0 and 1) are iteration 0
            weight = 1.0 / (1 + max(0, k - 1))
            for feature in found:
                out[f"{k}\t{name(feature) if k > 1 else feature}"] = weight
        return out


class MotifFeatures:
    """rematch's motifs of one graph; the Jaccard of two sets is rematch's score."""

    similarity: Similarity = "jaccard"

    def __init__(self, metric: Rematch) -> None:
        self.metric = metric

    def features(self, graph: Graph) -> dict[str, float]:
        return {repr(motif): 1.0 for motif in self.metric.motifs(graph)}


#: built-in metrics whose features are read by an adapter here
ADAPTERS: dict[str, Any] = {"wlk": WLFeatures, "rematch": MotifFeatures}


def vectors_for(metric: Metric) -> Vectors:
    """The vectors of ``metric``'s graphs.

    Raises:
        MetricError: the metric's score is no similarity of per-graph
            vectors (smatch, say, aligns each pair anew); the message
            names the metrics that have them.
    """
    if isinstance(metric, HasEmbeddings):
        return Vectors(metric, metric)
    if isinstance(metric, HasFeatures) and metric.similarity in SIMILARITIES:
        return Vectors(metric, metric)
    adapter = ADAPTERS.get(metric.name)
    if adapter is None:
        raise MetricError(
            f"metric {metric.name!r} has no per-graph vectors to index "
            f"(it compares each pair anew); index with one of: "
            f"{', '.join(sorted(ADAPTERS))}, or a metric with embeddings"
        )
    return Vectors(metric, adapter(metric))


def feature_id(key: str) -> int:
    """A stable 63-bit id of a feature key (the same in every process)."""
    digest = hashlib.blake2b(key.encode("utf-8"), digest_size=8).digest()
    return int.from_bytes(digest, "little") >> 1


def cosine(a: Mapping[str, float], b: Mapping[str, float]) -> float:
    """Cosine of two sparse vectors (0 when either is empty)."""
    dot = sum(w * b[k] for k, w in a.items() if k in b)
    norms = math.sqrt(sum(w * w for w in a.values()) * sum(w * w for w in b.values()))
    return dot / norms if dot else 0.0
