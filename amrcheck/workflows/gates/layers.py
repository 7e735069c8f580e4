"""The UMR layers in the gates: alignment and the document-level groups.

A UMR file's sentence graphs are gated like AMR graphs; what the graph
leaves out is gated here, from the engine's own comparisons:

* ``min-layer-f1`` (``amr-regress`` against a reference or against the
  ``HEAD`` version, ``amr-iaa`` between annotators): each layer's F1
  (:func:`amrcheck.workflows.umr_agreement.pair_layers`) against its
  threshold; a failure lists the sentences of the layer that score lowest,
  each difference with its place.
* ``max-changed-graphs`` (``amr-regress`` against ``HEAD``): a sentence
  whose words (or another interlinear row: glosses, morphemes, the
  translation), alignment or document-level triples changed counts as changed
  (:func:`amrcheck.workflows.umr_diff.diff_sentences`), even when its graph
  did not.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from ...reading.umr import BlockKind, UmrDocument, UmrSentence
from ...reading.umr_corpus import sentence_key
from ...span import Span
from ..umr_agreement import LAYERS, LayerAgreement, pair_layers
from ..umr_diff import UmrChange, diff_sentences
from ..umr_score import node_mapping
from .failures import EPSILON, FlaggedGraph, GateFailure

#: the layers of :func:`amrcheck.workflows.umr_diff.diff_sentences` that a
#: sentence graph's score does not see, as a failure names them
CHANGED_LAYERS = {
    "words": "words",
    "alignment": "alignment",
    "document": "document-level triples",
}


def _sentence_place(sentence: UmrSentence) -> str:
    """Where the sentence's graph starts (as the graph gates say), else the
    sentence."""
    block = sentence.blocks.get(BlockKind.GRAPH)
    start = sentence.start if block is None else block.start
    return str(Span(sentence.source, start, start))


def layer_failures(
    path: str,
    reference: UmrDocument,
    candidate: UmrDocument,
    thresholds: Mapping[str, float],
    against: str = "",
    interval: bool = False,
) -> list[GateFailure]:
    """A ``min-layer-f1`` failure for each layer of ``candidate`` (against
    ``reference``) whose F1 is below its threshold in ``thresholds``.

    ``against`` (`` against gold/x.umr``) is said after the threshold;
    ``interval`` adds the layer's 95% bootstrap interval (between annotators).
    """
    layers = pair_layers(reference, candidate)
    failures = []
    for name in LAYERS:
        threshold = thresholds.get(name)
        layer = layers[name]
        if threshold is None or layer.f1 >= threshold - EPSILON:
            continue
        figure = f"{name} F1 {layer.f1:.4f}"
        if interval:
            figure += f" (95% CI {layer.low:.4f}-{layer.high:.4f})"
        count = len(layer.differences)
        failures.append(
            GateFailure(
                path,
                "min-layer-f1",
                f"{figure} is below {threshold:g}{against}; "
                f"{count} of {len(layer.counts)} sentences differ",
                name,
                _lowest_sentences(layer, reference, candidate),
            )
        )
    return failures


def min_layer_f1_failures(
    path: str,
    where: str,
    files: str,
    reference: UmrDocument | None,
    candidate: UmrDocument | None,
    thresholds: Mapping[str, float],
    against: str = "",
    interval: bool = False,
) -> list[GateFailure]:
    """:func:`layer_failures` for a rule (``where``) that sets ``min-layer-f1``
    on ``files`` (``a.umr and b.umr``); a failure of its own when they are not
    both UMR documents (``None``: read as AMR)."""
    if reference is None or candidate is None:
        return [
            GateFailure(
                path,
                "min-layer-f1",
                f"{where} sets UMR layer thresholds, but {files} are not both "
                "UMR files",
            )
        ]
    return layer_failures(path, reference, candidate, thresholds, against, interval)


def _lowest_sentences(
    layer: LayerAgreement, reference: UmrDocument, candidate: UmrDocument
) -> tuple[FlaggedGraph, ...]:
    """The sentences that differ in ``layer``, lowest F1 first (then in
    order), each at its place in ``candidate`` (in ``reference`` if only
    there) with its differences."""
    places = {sentence_key(s): _sentence_place(s) for s in reference.sentences}
    places.update({sentence_key(s): _sentence_place(s) for s in candidate.sentences})
    position = {key: n for n, key in enumerate(layer.counts)}
    keys = sorted(
        layer.differences, key=lambda key: (layer.sentence_f1(key), position[key])
    )
    return tuple(
        FlaggedGraph(
            key,
            places[key],
            layer.sentence_f1(key),
            changes=tuple(map(str, layer.differences[key])),
        )
        for key in keys
    )


def layer_changes(
    old: UmrDocument, new: UmrDocument
) -> dict[str, list[UmrChange]]:
    """The words, alignment and document-level changes from ``old`` to ``new``, by
    sentence key (``snt2``), in ``new``'s order. A document-level triple
    written otherwise (``(b :after a)`` for ``(a :before b)``), and a node
    renamed (its alignment line and triples under the new name), are no
    change, as a graph that scores 1 is not one."""
    changes = _counted(diff_sentences(old.sentences, new.sentences, old.path, new.path))
    if any(change.layer != "words" for change in changes):
        # a renamed node is no change, as its graph scores 1: compare again
        # with NEW's variables named as the graphs' alignment maps them
        rename, _ = node_mapping(old, new)
        changes = _counted(
            diff_sentences(old.sentences, new.sentences, old.path, new.path, rename)
        )
    found: dict[str, list[UmrChange]] = {}
    for change in changes:
        key = change.sentence
        if not key.startswith("snt"):  # a sentence without a number: #n
            key = f"snt{key.removeprefix('#')}"
        found.setdefault(key, []).append(change)
    return found


def _counted(changes: Iterable[UmrChange]) -> list[UmrChange]:
    """The changes of the layers a graph's score does not see; a document-level
    triple written otherwise is the same relation."""
    found = []
    for change in changes:
        rewritten = change.layer == "document" and change.kind == "~"
        if change.layer in CHANGED_LAYERS and not rewritten:
            found.append(change)
    return found


def changed_remark(changes: list[UmrChange]) -> str:
    """``words and alignment changed since HEAD``."""
    layers = [
        words for layer, words in CHANGED_LAYERS.items()
        if any(c.layer == layer for c in changes)
    ]
    return f"{' and '.join(layers)} changed since HEAD"
