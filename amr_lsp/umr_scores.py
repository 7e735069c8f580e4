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
from pathlib import Path

from lsprotocol import types

from amrcheck import Span
from amrcheck.reading.umr import UmrDocument
from amrcheck.reading.umr_corpus import corpus_of
from amrcheck.workflows.umr_score import document_dict, score_document

from .analysis import Analysis, compare_document
from .compare import Comparer
from .config import Settings
from .convert import DIFF_SOURCE, SCORE_SOURCE, VALIDATION_SOURCE, uri_to_path
from .documents import ParsedDocument
from .references import ReferenceStore, choose_reference_for
from .umr import UmrAnalysis

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


def score_umr(
    umr: UmrAnalysis,
    text: str,
    settings: Settings,
    comparer: Comparer,
    references: ReferenceStore,
    root: Path | None,
    previous: Analysis | None = None,
) -> Analysis:
    """The sentence scores and document score of the UMR document ``umr``
    (``text``: its buffer) against its reference."""
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
    analysis = compare_document(
        parsed, settings, comparer, references, root, choice, header, [],
        diagnostics, timings, previous,
    )
    reference = analysis.reference
    if reference is not None and reference.umr is not None:
        clock = time.perf_counter()
        analysis.layers = document_dict(score_document(reference.umr, document))
        timings["layers"] = time.perf_counter() - clock
    return analysis
