"""UMR documents against a reference UMR file: lenses and the document score.

A UMR document's reference is chosen as an AMR document's is
(:func:`~amr_lsp.references.choose_reference_for`): a ``# ::reference
PATH`` line above its first sentence, else the ``references`` setting.
Both files are then scored as ``amrcheck score REF DOC`` scores them:
their sentence graphs as a corpus whose ids are ``snt<N>``
(:func:`amrcheck.reading.umr_corpus.corpus_of`), paired by sentence
number with the honest rules of AMR (a missing or broken sentence counts
as an empty graph), each pair by the lens metric
(:func:`~amr_lsp.analysis.compare_document`, the AMR path); and the
document-level layers (temporal, modal, coref, overall) by
:func:`amrcheck.workflows.umr_score.score_document`, given in the
document score under ``umr`` as ``amrcheck score --json`` gives them.
"""

from __future__ import annotations

import re
import time
from collections.abc import Sequence
from pathlib import Path
from typing import ClassVar

from lsprotocol import types

from amrcheck import Graph, Score, Span, get_metric
from amrcheck.reading.umr import DocTriple, UmrDocument
from amrcheck.reading.umr_corpus import corpus_of, sentence_key
from amrcheck.workflows.umr_score import DocumentScore, score_document

from .analysis import Analysis, compare_document
from .compare import Comparer
from .config import Settings
from .convert import DIFF_SOURCE, SCORE_SOURCE, VALIDATION_SOURCE, uri_to_path
from .documents import ParsedDocument
from .references import ReferenceStore, choose_reference_for
from .umr import UmrAnalysis
from .umr_features import HOVER_RELATIONS, aligned_words, concepts

#: ``# ::reference PATH``: the header line naming a document's reference
_HEADER_RE = re.compile(r"^#[ \t]*::reference[ \t]+(\S[^\n]*?)[ \t\r]*$", re.M)
#: where the first sentence's own lines begin (a header sits above)
_SENTENCE_START_RE = re.compile(r"^#[ \t]*::[ \t]*snt[0-9]", re.M)


def reference_header(umr: UmrAnalysis, parsed: ParsedDocument) -> Span | None:
    """The path of a ``# ::reference`` line above the first sentence's
    ``# :: sntN`` line, as a span of the document (None: no such line).

    Example:
        >>> from amr_lsp.umr import UmrCache, UmrOptions, analyze_umr
        >>> from amrcheck.reading.umr_corpus import umr_corpus_from_string
        >>> text = "# ::reference gold.umr\\n# :: snt1\\nWords: Hi\\n"
        >>> umr = analyze_umr("file:///a.umr", 1, text, "utf-16", UmrCache(),
        ...                   UmrOptions())
        >>> parsed = ParsedDocument("file:///a.umr", 1, umr_corpus_from_string(text),
        ...                         umr.lines)
        >>> reference_header(umr, parsed).text
        'gold.umr'
    """
    if not umr.reads:
        return None
    text = umr.reads[0].sentence.source.text
    first = _SENTENCE_START_RE.search(text)
    match = _HEADER_RE.search(text, 0, first.start() if first else len(text))
    if match is None:
        return None
    base = umr.starts[0]
    return Span(parsed.corpus.source, base + match.start(1), base + match.end(1))


class KeptAlignments:
    """The metric whose alignments map nodes for the document level (smatch,
    :func:`~amrcheck.workflows.umr_score.score_document`'s default, so the
    layers are ``amrcheck score``'s), its scores of the last version's
    sentence pairs kept: an edit changes one sentence, and the others are
    not aligned again (keyed by both graphs' text: the same text, the same
    score, as smatch's search is seeded)."""

    name: ClassVar[str] = "smatch"

    def __init__(self) -> None:
        self.metric = get_metric(self.name)
        self._last: dict[tuple[str, str, bool], Score] = {}
        self._fresh: dict[tuple[str, str, bool], Score] = {}

    def next_version(self) -> None:
        """Keep only the scores the version scored last used."""
        self._last, self._fresh = self._fresh, {}

    def score(self, candidate: Graph, reference: Graph, explain: bool = False) -> Score:
        key = (candidate.text, reference.text, explain)
        known = self._fresh.get(key) or self._last.get(key)
        if known is None:
            known = self.metric.score(candidate, reference, explain)
        self._fresh[key] = known
        return known

    def aggregate(self, pairs: Sequence[Score]) -> Score:
        return self.metric.aggregate(pairs)

    def score_missing(self, reference: Graph) -> Score:
        return self.metric.score_missing(reference)


def score_umr(
    umr: UmrAnalysis,
    text: str,
    settings: Settings,
    comparer: Comparer,
    references: ReferenceStore,
    root: Path | None,
    previous: Analysis | None = None,
    alignments: KeptAlignments | None = None,
) -> Analysis:
    """The sentence scores and document score of the UMR document ``umr``
    (``text``: its buffer) against its reference (``alignments``: the node
    mapping's scores of the document's last version)."""
    clock = time.perf_counter()
    body = text[1:] if text.startswith("\ufeff") else text
    path = uri_to_path(umr.uri)
    document = UmrDocument(str(path or umr.uri), umr.sentences)
    parsed = ParsedDocument(umr.uri, umr.version, corpus_of(document, body), umr.lines)
    header = reference_header(umr, parsed)
    choice = choose_reference_for(
        header.text if header else None, path, root, settings.references
    )
    diagnostics: dict[str, list[types.Diagnostic]] = {
        VALIDATION_SOURCE: [], DIFF_SOURCE: [], SCORE_SOURCE: []
    }
    timings = {"read": time.perf_counter() - clock}
    # no diff diagnostics: a UMR document's are its validator's, published
    # as it is read (``amrcheck diff`` lists the changes per layer)
    analysis = compare_document(
        parsed, settings, comparer, references, root, choice, header, [],
        diagnostics, timings, previous, differences=False, umr=True,
    )
    reference = analysis.reference
    if reference is not None and reference.umr is not None:
        clock = time.perf_counter()
        alignments = alignments or KeptAlignments()
        alignments.next_version()
        analysis.umr = score_document(reference.umr, document, alignments)
        timings["layers"] = time.perf_counter() - clock
    return analysis


def _written(triple: DocTriple) -> str:
    return f"({triple.source} {triple.relation} {triple.target})"


def reference_hover(scores: Analysis, umr: UmrAnalysis, name: str) -> str | None:
    """What the reference says of the document's node ``name``: the
    reference node the scoring maps it to, with its concept and aligned
    words there, and ``name``'s document-level relations, each matched
    (implied by the reference), extra, or missing (a relation of the
    reference node that the document does not imply). None: the document
    has no UMR reference, or ``name`` is not one of its nodes."""
    found, reference = scores.umr, scores.reference
    if (
        found is None or reference is None or reference.umr is None
        or name not in found.mapping
    ):
        return None
    shown = scores.reference_name or str(reference.path)
    target = found.mapping[name]
    parts = [
        f"reference ({shown}): no node is aligned to **{name}**" if target is None
        else _reference_node(reference.umr, target, shown)
    ]
    lines = _relations(found, umr, name, target)
    if lines:
        more = len(lines) - HOVER_RELATIONS
        lines = lines[:HOVER_RELATIONS] + ([f"- … and {more} more"] if more > 0 else [])
        parts.append("document level against the reference:\n" + "\n".join(lines))
    return "\n\n".join(parts)


def _reference_node(document: UmrDocument, target: str, shown: str) -> str:
    """``reference (gold.umr snt1): **s1f** / freedom, aligned to 4-4 “freedom”``."""
    for sentence in document.sentences:
        concept = concepts(sentence).get(target)
        if concept is not None:
            return (
                f"reference ({shown} {sentence.label}): **{target}** / {concept}, "
                + aligned_words(sentence, target)
            )
    return f"reference ({shown}): **{target}**"


def _relations(
    found: DocumentScore, umr: UmrAnalysis, name: str, target: str | None
) -> list[str]:
    """``- matched temporal `(s1t2 :contained s1t)```, one line per
    document-level relation of ``name`` (or missing one of ``target``)."""
    lines = []
    for group, score in found.groups.items():
        extra = {
            _written(w.triple) for w in score.extra
            if name in (w.triple.source, w.triple.target)
        }
        for triple in _triples_of(umr, name):
            if triple.group.lstrip(":").lower() == group:
                written = _written(triple)
                verdict = "extra" if written in extra else "matched"
                lines.append(f"- {verdict} {group} `{written}`")
        lines.extend(
            f"- missing {group} `{_written(w.triple)}` ({w.where})"
            for w in score.missing
            if target is not None and target in (w.triple.source, w.triple.target)
        )
    return lines


def _triples_of(umr: UmrAnalysis, name: str) -> list[DocTriple]:
    return [
        triple
        for read in umr.reads if name in read.names
        for triple in read.sentence.document.triples
        if name in (triple.source, triple.target)
    ]


def reference_word_hover(
    scores: Analysis, umr: UmrAnalysis, sentence_index: int, word: int
) -> str | None:
    """What the reference's sentence of the same number aligns to word
    ``word`` (1-based) of the document's sentence ``sentence_index``: the
    word there and its nodes. None: no UMR reference, or no such sentence."""
    reference = scores.reference
    if reference is None or reference.umr is None:
        return None
    key = sentence_key(umr.reads[sentence_index].sentence)
    partner = next(
        (s for s in reference.umr.sentences if sentence_key(s) == key), None
    )
    if partner is None:
        return None
    shown = scores.reference_name or str(reference.path)
    words = partner.words
    there = f"“{words[word - 1].text}”" if 0 < word <= len(words) else "no such word"
    nodes = concepts(partner)
    aligned = [
        f"`{line.variable}` / {nodes.get(line.variable, '?')}"
        for line in partner.alignments
        if any(a <= word <= b for a, b in line.ranges)
    ]
    return (
        f"reference ({shown} {partner.label}): word {word} {there}, "
        + (f"aligned to {', '.join(aligned)}" if aligned else "aligned to no node")
    )
