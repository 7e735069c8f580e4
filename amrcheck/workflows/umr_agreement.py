"""Agreement of UMR annotators per layer: alignment, temporal, modal, coref.

Layer: engine, above :mod:`amrcheck.workflows.umr_score`. The sentence
graphs' agreement is :func:`amrcheck.workflows.iaa.agreement` (UMR files are
read as their sentence graphs there); this module adds, for each pair of
annotators (the first as reference), the layers the graph leaves out:

* ``words``: the sentences' tokens (the ``Words`` row), matched in order
  (:class:`difflib.SequenceMatcher`): a token found on both sides agrees;
  annotators who tokenized alike score 1;
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

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from difflib import SequenceMatcher
from itertools import combinations
from pathlib import Path

import numpy as np

from ..reading.umr import UmrDocument, UmrSentence, read_umr
from ..reading.umr_corpus import sentence_key
from ..span import Span
from .umr_score import GROUPS, score_document

LAYERS = ("words", "alignment", *GROUPS)


@dataclass(frozen=True, slots=True)
class Difference:
    """One thing two annotators disagree on in a layer, at its place in the
    file (its path as given) that has it: ``what`` says what
    (``coref missing: (s1p :same-entity s2p)``)."""

    path: str
    line: int
    column: int
    what: str

    @classmethod
    def at(cls, span: Span, what: str) -> Difference:
        return cls(span.path, span.line, span.column, what)

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.column}: {self.what}"

    def to_dict(self) -> dict[str, str | int]:
        return {
            "file": self.path,
            "line": self.line,
            "column": self.column,
            "text": self.what,
        }


@dataclass(slots=True)
class LayerAgreement:
    """One layer of one pair of annotators: F1 and its interval."""

    layer: str
    f1: float
    low: float
    high: float
    #: per sentence key: (correct, candidate, found, reference)
    counts: dict[str, tuple[int, int, int, int]]
    #: per sentence key: what the two annotators disagree on, each at its
    #: place (as a line: ``file:line:col: coref missing: (a :r b)``)
    differences: dict[str, list[Difference]] = field(default_factory=dict)

    def sentence_f1(self, key: str) -> float:
        """The F1 of this layer in one sentence."""
        return float(_f1(np.array([self.counts[key]], dtype=float))[0])


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
    differences: dict[str, list[Difference]],
) -> LayerAgreement:
    table = np.array(list(counts.values()) or [(0, 0, 0, 0)], dtype=float)
    estimate = float(_f1(table.sum(axis=0, keepdims=True))[0])
    rng = np.random.default_rng(seed)
    picks = rng.integers(0, len(table), size=(resamples, len(table)))
    values = _f1(table[picks].sum(axis=1))
    tail = (1 - confidence) / 2
    low, high = np.quantile(values, [tail, 1 - tail])
    return LayerAgreement(
        name, estimate, float(low), float(high), counts, differences
    )


def _token_sets(sentence: UmrSentence) -> dict[tuple[int, ...], tuple[Span, str]]:
    """Each aligned token set of ``sentence``, the place of (the first)
    alignment line that writes it, and that line (``s2b2: 3-4``)."""
    sets: dict[tuple[int, ...], tuple[Span, str]] = {}
    for line in sentence.alignments:
        tokens = tuple(
            sorted({i for a, b in line.ranges for i in range(a, b + 1) if i > 0})
        )
        if tokens and tokens not in sets:
            written = sentence.text_of(line.start, line.end).strip()
            sets[tokens] = sentence.span_of(line.start, line.end), written
    return sets


def _word_differences(
    reference: UmrSentence | None, candidate: UmrSentence | None
) -> tuple[tuple[int, int, int, int], list[Difference]]:
    """The words layer of one sentence: (correct, candidate, found,
    reference) tokens, and each token run only one side has, at its place."""
    ours = reference.words if reference is not None else []
    theirs = candidate.words if candidate is not None else []
    matcher = SequenceMatcher(
        None, [w.text for w in ours], [w.text for w in theirs], autojunk=False
    )
    lines = []
    for tag, i, j, k, m in matcher.get_opcodes():
        if tag == "equal":
            continue
        for sentence, words, kind in (
            (reference, ours[i:j], "missing"), (candidate, theirs[k:m], "extra")
        ):
            if words and sentence is not None:
                place = sentence.span_of(words[0].start, words[-1].end)
                text = " ".join(w.text for w in words)
                lines.append(Difference.at(place, f"words {kind}: {text!r}"))
    matched = sum(block.size for block in matcher.get_matching_blocks())
    return (matched, len(theirs), matched, len(ours)), lines


def _alignment(written: tuple[Span, str], kind: str) -> Difference:
    """An aligned token set only one annotator has, at its alignment line."""
    place, line = written
    return Difference.at(place, f"{line}: alignment {kind}")


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
    realigned: dict[str, list[Difference]] = {}
    tokens: dict[str, tuple[int, int, int, int]] = {}
    retokenized: dict[str, list[Difference]] = {}
    for key in keys:
        tokens[key], lines = _word_differences(ours.get(key), theirs.get(key))
        if lines:
            retokenized[key] = lines
        a = _token_sets(ours[key]) if key in ours else {}
        b = _token_sets(theirs[key]) if key in theirs else {}
        common = len(a.keys() & b.keys())
        aligned[key] = (common, len(b), common, len(a))
        differ = [_alignment(a[t], "missing") for t in a if t not in b]
        differ += [_alignment(b[t], "extra") for t in b if t not in a]
        if differ:
            realigned[key] = differ
    layers = {
        "words": _layer("words", tokens, resamples, confidence, seed, retokenized),
        "alignment": _layer(
            "alignment", aligned, resamples, confidence, seed, realigned
        ),
    }
    scores = score_document(first, second)
    for group in GROUPS:
        score = scores.groups[group]
        extra: dict[str, int] = {}
        missing: dict[str, int] = {}
        differences: dict[str, list[Difference]] = {}
        for kind, triples, tally in (
            ("missing", score.missing, missing), ("extra", score.extra, extra)
        ):
            for triple in triples:
                key = sentence_key(triple.sentence)
                tally[key] = tally.get(key, 0) + 1
                differences.setdefault(key, []).append(
                    Difference.at(triple.span, f"{group} {kind}: {triple}")
                )
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
        layers[group] = _layer(
            group, counts, resamples, confidence, seed, differences
        )
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


@dataclass(slots=True)
class LayerDisagreement:
    """A sentence on which two annotators disagree in a layer other than
    the graph: the layer, the sentence's F1 in it, and each difference."""

    a: str
    b: str
    layer: str
    f1: float
    lines: list[Difference]


@dataclass(slots=True)
class QueuedSentence:
    """One sentence of the layers' adjudication queue."""

    key: str
    disagreements: list[LayerDisagreement]
    #: the sentence's words (the first annotator's that has the sentence)
    text: str | None = None

    @property
    def lowest(self) -> float:
        return min(d.f1 for d in self.disagreements)


def layer_queue(
    pairs: Sequence[tuple[str, str, dict[str, LayerAgreement]]],
    texts: Mapping[str, str | None] | None = None,
) -> list[QueuedSentence]:
    """The sentences annotators disagree on in words, alignment, temporal,
    modal or coref, lowest F1 first (then in sentence order); ``texts``:
    sentence key -> its words (:attr:`QueuedSentence.text`)."""
    texts = texts or {}
    found: dict[str, QueuedSentence] = {}
    for a, b, layers in pairs:
        for name, layer in layers.items():
            for key, lines in layer.differences.items():
                queued = found.setdefault(key, QueuedSentence(key, [], texts.get(key)))
                queued.disagreements.append(
                    LayerDisagreement(a, b, name, layer.sentence_f1(key), lines)
                )

    def order(sentence: QueuedSentence) -> tuple[float, int, str]:
        number = sentence.key.removeprefix("snt")
        return (
            sentence.lowest,
            int(number) if number.isdigit() else 0,
            sentence.key,
        )

    return sorted(found.values(), key=order)
