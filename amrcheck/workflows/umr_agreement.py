"""Agreement of UMR annotators per layer: alignment, temporal, modal, coref.

Layer: engine, above :mod:`amrcheck.workflows.umr_score`. The sentence
graphs' agreement is :func:`amrcheck.workflows.iaa.agreement` (UMR files are
read as their sentence graphs there); this module adds, for each pair of
annotators (the first as reference), the layers the graph leaves out:

* ``alignment``: the aligned token sets of the two annotations, as
  ``compare_umr.pl`` compares them (a set found on both sides agrees);
* ``temporal``, ``modal``, ``coref``: the document-level groups under the
  sentence alignment (:func:`~amrcheck.workflows.umr_score.score_document`).

Each F1 has a percentile bootstrap interval over sentences (the sentences of
either annotator), seeded.

Example:
    >>> from amrcheck.reading.umr import read_umr_string
    >>> text = ("# :: snt1\\nWords: Dogs bark\\n\\n# sentence level graph:\\n"
    ...         "(s1b / bark-01 :ARG0 (s1d / dog))\\n\\n# alignment:\\ns1b: 2-2\\n"
    ...         "s1d: 1-1\\n\\n# document level annotation:\\n"
    ...         "(s1s0 / sentence)\\n\\n\\n")
    >>> other = text.replace("s1d: 1-1", "s1d: 1-2")
    >>> rows = pair_layers(read_umr_string(text, "a"), read_umr_string(other, "b"))
    >>> rows["alignment"].f1
    0.5
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path

import numpy as np

from ..reading.umr import UmrDocument, UmrSentence, read_umr
from ..reading.umr_corpus import sentence_key
from .umr_score import GROUPS, score_document

LAYERS = ("alignment", *GROUPS)


@dataclass(slots=True)
class LayerAgreement:
    """One layer of one pair of annotators: F1 and its interval."""

    layer: str
    f1: float
    low: float
    high: float
    #: per sentence key: (correct, candidate, found, reference)
    counts: dict[str, tuple[int, int, int, int]]


def _f1(sums: np.ndarray) -> np.ndarray:
    """F1 of summed (correct, candidate, found, reference), rows of ``sums``."""
    correct, candidate, found, reference = sums.T
    with np.errstate(divide="ignore", invalid="ignore"):
        p = np.where(candidate > 0, correct / np.maximum(candidate, 1), reference == 0)
        r = np.where(reference > 0, found / np.maximum(reference, 1), candidate == 0)
        f = np.where(p + r > 0, 2 * p * r / np.where(p + r > 0, p + r, 1), 0.0)
    return np.asarray(f, dtype=float)


def _layer(
    name: str,
    counts: dict[str, tuple[int, int, int, int]],
    resamples: int,
    confidence: float,
    seed: int,
) -> LayerAgreement:
    table = np.array(list(counts.values()) or [(0, 0, 0, 0)], dtype=float)
    estimate = float(_f1(table.sum(axis=0, keepdims=True))[0])
    rng = np.random.default_rng(seed)
    picks = rng.integers(0, len(table), size=(resamples, len(table)))
    values = _f1(table[picks].sum(axis=1))
    tail = (1 - confidence) / 2
    low, high = np.quantile(values, [tail, 1 - tail])
    return LayerAgreement(name, estimate, float(low), float(high), counts)


def _token_sets(sentence: UmrSentence) -> set[tuple[int, ...]]:
    sets = set()
    for line in sentence.alignments:
        tokens = tuple(
            sorted({i for a, b in line.ranges for i in range(a, b + 1) if i > 0})
        )
        if tokens:
            sets.add(tokens)
    return sets


def pair_layers(
    first: UmrDocument,
    second: UmrDocument,
    resamples: int = 1000,
    confidence: float = 0.95,
    seed: int = 0,
) -> dict[str, LayerAgreement]:
    """Each layer's agreement of ``second`` with ``first`` (as reference)."""
    ours = {sentence_key(s): s for s in first.sentences}
    theirs = {sentence_key(s): s for s in second.sentences}
    keys = list(dict.fromkeys([*ours, *theirs]))
    aligned: dict[str, tuple[int, int, int, int]] = {}
    for key in keys:
        a = _token_sets(ours[key]) if key in ours else set()
        b = _token_sets(theirs[key]) if key in theirs else set()
        common = len(a & b)
        aligned[key] = (common, len(b), common, len(a))
    layers = {"alignment": _layer("alignment", aligned, resamples, confidence, seed)}
    scores = score_document(first, second)
    for group in GROUPS:
        score = scores.groups[group]
        extra: dict[str, int] = {}
        missing: dict[str, int] = {}
        for triple in score.extra:
            extra[sentence_key(triple.sentence)] = (
                extra.get(sentence_key(triple.sentence), 0) + 1
            )
        for triple in score.missing:
            key = sentence_key(triple.sentence)
            missing[key] = missing.get(key, 0) + 1
        counts = {}
        for key in keys:
            given = score.candidate_by_sentence.get(key, 0)
            wanted = score.reference_by_sentence.get(key, 0)
            counts[key] = (
                given - extra.get(key, 0),
                given,
                wanted - missing.get(key, 0),
                wanted,
            )
        layers[group] = _layer(group, counts, resamples, confidence, seed)
    return layers


def layer_agreement(
    paths: Sequence[str | Path],
    resamples: int = 1000,
    confidence: float = 0.95,
    seed: int = 0,
) -> list[tuple[str, str, dict[str, LayerAgreement]]]:
    """Every pair of annotators' files (the first of a pair as reference).

    Raises:
        InputError: a file cannot be read.
    """
    documents = [read_umr(p) for p in paths]
    return [
        (
            str(paths[i]),
            str(paths[j]),
            pair_layers(documents[i], documents[j], resamples, confidence, seed),
        )
        for i, j in combinations(range(len(paths)), 2)
    ]
