"""A UMR file as a :class:`~amrcheck.reading.corpus.Corpus` of its sentence graphs.

Every metric, the pairing rules and the explanations of AMR then work on
UMR sentence graphs unchanged: each sentence becomes one entry whose
``::id`` is ``snt<N>`` (its ``# :: sntN`` number, else its 1-based
position, which is what the number must be), whose graph is the
sentence-level graph, whose ``::words`` are its tokens (the ``Words`` row:
what a report shows as the sentence; never ``::snt``, whose text pairing
compares, so the words do not change how sentences pair), and whose errors
are the sentence's reading errors
(a sentence whose graph cannot be read is an entry without a graph: the
engine counts it as an empty graph and lists it; errors in its other
blocks are reported, its graph still scored). Graphs are placed in one source that holds
the whole file, so every ``file:line:col`` is the file's.

Example:
    >>> corpus = umr_corpus_from_string(
    ...     "# :: snt1\\nWords: Dogs bark\\n\\n# sentence level graph:\\n"
    ...     "(s1b / bark-01 :ARG0 (s1d / dog))\\n\\n# alignment:\\ns1b: 2-2\\n"
    ...     "s1d: 1-1\\n\\n# document level annotation:\\n(s1s0 / sentence)\\n\\n\\n",
    ...     "a.umr")
    >>> entry = corpus[0]
    >>> entry.id, entry.graph.top, entry.graph.role_span(0).line
    ('snt1', 's1b', 5)
    >>> sentence_text(entry.metadata)
    'Dogs bark'
"""

from __future__ import annotations

from pathlib import Path

from ..graph import Graph
from ..span import SourceText
from ._parse import Entry
from .corpus import Corpus, is_amr_name, normalize_text, read_corpus, read_text
from .umr import UmrDocument, UmrSentence, is_umr_path, iter_umr_lines

#: the metadata key of a UMR sentence's words (:func:`sentence_text`)
WORDS_KEY = "words"


def sentence_text(metadata: dict[str, str]) -> str | None:
    """The sentence an entry is of, for reports: its ``::snt``, else its
    ``::tok`` (AMR), else its words (a UMR sentence read by this module);
    None: none of them."""
    return metadata.get("snt") or metadata.get("tok") or metadata.get(WORDS_KEY)


def sentence_key(sentence: UmrSentence) -> str:
    """The pairing key of a sentence: ``snt<N>``."""
    return f"snt{sentence.pairing_number}"


def _moved(graph: Graph, source: SourceText, shift: int) -> Graph:
    """``graph`` placed in ``source``, ``shift`` characters further on."""
    piece = graph

    def offsets() -> list[tuple[int, int, int, int]]:
        return [
            (a + shift, b + shift, c + shift, d + shift) for a, b, c, d in piece.offsets
        ]

    alignments = dict(graph.alignments)
    return Graph(
        source,
        graph.top,
        graph.triples,
        graph.kinds,
        graph.start + shift,
        graph.end + shift,
        alignments,
        offsets_factory=offsets,
    )


def _entry(sentence: UmrSentence, source: SourceText) -> Entry:
    shift = source.offset(sentence.source.first_line, 1)
    graph = None if sentence.graph is None else _moved(sentence.graph, source, shift)
    start = sentence.start + shift
    end = sentence.end + shift
    metadata = {"id": sentence_key(sentence)}
    words = " ".join(sentence.word_texts())
    if words:
        metadata[WORDS_KEY] = words
    return Entry(
        source,
        sentence.index,
        start,
        end,
        metadata,
        graph=graph,
        errors=list(sentence.errors),
    )


def umr_corpus_from_string(text: str, path: str = "<string>") -> Corpus:
    """The sentence graphs of UMR ``text`` (see the module)."""
    return corpus_of(document_of(text, path), text)


def document_of(text: str, path: str) -> UmrDocument:
    """``text`` (already normalised) read as a UMR document."""
    return UmrDocument(path, list(iter_umr_lines((text,), path)))


def corpus_of(document: UmrDocument, text: str) -> Corpus:
    """The corpus of ``document``, read from ``text`` (the file's text)."""
    source = SourceText(text, document.path)
    return Corpus(source, [_entry(s, source) for s in document.sentences])


def read_umr_corpus(path: str | Path) -> tuple[Corpus, UmrDocument]:
    """A UMR file as a corpus of sentence graphs, and as a UMR document.

    Raises:
        InputError: the file is missing, unreadable or not UTF-8.
    """
    text = normalize_text(read_text(path))
    document = document_of(text, str(path))
    return corpus_of(document, text), document


def umr_as_corpus(file: Corpus | str | Path) -> Corpus | str | Path:
    """``file`` read as a corpus of sentence graphs when it is a UMR file
    (:func:`~amrcheck.reading.umr.is_umr_path`); anything else unchanged."""
    if isinstance(file, Corpus) or is_amr_name(file):
        return file  # an AMR file by name: no look inside
    if not is_umr_path(file):
        return file
    return read_umr_corpus(file)[0]


def read_scored(path: str | Path) -> Corpus:
    """The corpus a file is scored as: a UMR file's sentence graphs, or
    an AMR file's graphs (:func:`~amrcheck.reading.corpus.read_corpus`)."""
    return read_umr_corpus(path)[0] if is_umr_path(path) else read_corpus(path)
