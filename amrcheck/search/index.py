"""A similarity index of the graphs of AMR files: build, save, load, search.

Layer: engine, above :mod:`amrcheck.search.vectors`, the reader and
:mod:`amrcheck.execution`; the CLI's ``index``/``search`` and the
language server's "similar annotations" call it.

Search has two stages. FAISS (an HNSW graph over the graphs' vectors)
proposes candidates; each candidate is then scored exactly, by the
metric's own similarity of the stored vectors (for WLK and rematch that
equals the metric's score of the pair), and the best are returned. So a
hit's score is the metric's score, and the index only decides which
graphs are looked at: many more than asked for (:data:`CANDIDATES`).

An index is one file, a zip archive of: ``manifest.json`` (format,
amrcheck version, metric and settings, the corpora with their sizes),
``graphs.jsonl`` (per graph: file, place, ``::id``, ``::snt``),
``features.npz`` (the sparse vectors) and ``hnsw.faiss``. Loading
refuses an index of another format, amrcheck version or metric.

Example:
    >>> from amrcheck.metrics import get_metric
    >>> from amrcheck.reading.corpus import decode
    >>> built = build_index(["examples/annotations_v1.amr"], get_metric("wlk"))
    >>> hits = built.index.search(built.index.graph(0).read(), top=1)
    >>> hits[0].graph.id == built.index.graph(0).id, round(hits[0].score, 6)
    (True, 1.0)
"""

from __future__ import annotations

import importlib
import io
import json
import os
import zipfile
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from scipy import sparse

from ..__about__ import __version__
from ..errors import IndexFileError, InputError, MetricError
from ..execution import Jobs, Progress, run_batches, run_map
from ..graph import Graph
from ..metrics import Metric, get_metric
from ..reading.corpus import GraphPlace, read_chunks, read_graph
from ..reading.files import MAX_HELD_BYTES, open_input, size_texts
from .vectors import Vectors, feature_id, vectors_for

#: bumped when the file layout changes; an index of another format is refused
FORMAT = 1
#: size of the dense vectors that sparse features are hashed into
DIMENSIONS = 512
#: HNSW: links per node, and the breadth of the search while building
HNSW_LINKS = 32
HNSW_BUILD_BREADTH = 80
#: candidates scored exactly per query: at least this many, and
#: :data:`OVERSAMPLE` times the hits asked for
CANDIDATES = 400
OVERSAMPLE = 20
#: graphs per batch of work when building
CHUNK_GRAPHS = 256

FloatArray = np.ndarray[Any, np.dtype[np.float32]]
Weights = np.ndarray[Any, np.dtype[np.float64]]
IdArray = np.ndarray[Any, np.dtype[np.uint64]]


@dataclass(frozen=True, slots=True)
class IndexedGraph:
    """Where an indexed graph is, and what it says (``::id``, ``::snt``)."""

    path: str
    line: int
    column: int
    #: byte range of the graph's text in the file (to read it again)
    start: int
    end: int
    id: str | None
    snt: str | None

    @property
    def place(self) -> str:
        return f"{self.path}:{self.line}:{self.column}"

    def read(self) -> Graph:
        """The graph, read again from its file.

        Raises:
            IndexFileError: the file is gone or changed since indexing.
        """
        place = GraphPlace(self.start, self.end, self.line, self.column)
        if not 0 <= self.start <= self.end or self.end - self.start > MAX_HELD_BYTES:
            raise IndexFileError(
                f"{self.place}: not a graph's place; rebuild the index"
            )
        try:
            # the index names the file: it is read like any input (regular
            # files only, never past its size), whatever the index says
            with open_input(self.path) as handle:
                return read_graph(handle, self.path, place)
        except InputError as error:
            raise IndexFileError(
                f"{self.place}: cannot read the indexed graph again ({error.message})"
            ) from None
        except (OSError, Exception) as error:
            raise IndexFileError(
                f"{self.place}: cannot read the indexed graph again ({error}); "
                "the file changed since it was indexed: rebuild the index"
            ) from None


@dataclass(frozen=True, slots=True)
class Hit:
    """One similar graph: its number in the index, place and score."""

    number: int
    graph: IndexedGraph
    score: float


@dataclass(frozen=True, slots=True)
class Duplicate:
    """Two graphs of the index that score at least the threshold."""

    first: IndexedGraph
    second: IndexedGraph
    score: float


@dataclass(slots=True)
class Built:
    """A new index and the graphs left out of it (syntax errors)."""

    index: Index
    #: ``file:line:col: CODE message`` for each graph left out
    skipped: list[str] = field(default_factory=list)


class _Vectorize:
    """Sparse features of a batch of graphs; picklable for workers."""

    def __init__(self, vectors: Vectors) -> None:
        self.vectors = vectors

    def __call__(self, graphs: Sequence[Graph]) -> list[tuple[IdArray, Weights]]:
        out = []
        for graph in graphs:
            features = self.vectors.features(graph)
            ids = np.fromiter(map(feature_id, features), np.uint64, len(features))
            weights = np.fromiter(features.values(), np.float64, len(features))
            order = np.argsort(ids)
            out.append((ids[order], weights[order]))
        return out


class _Embed:
    """Dense embeddings of a batch of graphs; picklable for workers."""

    def __init__(self, vectors: Vectors) -> None:
        self.vectors = vectors

    def __call__(self, graphs: Sequence[Graph]) -> list[FloatArray]:
        return list(self.vectors.embed(graphs))


def _placed(
    paths: Sequence[str | Path], skipped: list[str]
) -> Iterator[tuple[IndexedGraph, Graph]]:
    """The well-formed graphs of the files with their places; the syntax
    errors of the others go to ``skipped``."""
    for path in paths:
        resolved = str(Path(path).resolve())
        for chunk in read_chunks(path):
            for entry in chunk.corpus:
                if entry.graph is None:
                    skipped.extend(str(finding) for finding in entry.errors)
                    continue
                place = chunk.place(entry.graph)
                meta = entry.metadata
                yield (
                    IndexedGraph(
                        resolved,
                        place.line,
                        place.column,
                        place.start,
                        place.end,
                        meta.get("id"),
                        meta.get("snt"),
                    ),
                    entry.graph,
                )


def _graphs(
    paths: Sequence[str | Path], skipped: list[str], found: list[IndexedGraph]
) -> Iterator[list[Graph]]:
    """Batches of the files' graphs; their places go to ``found``, broken
    graphs to ``skipped``."""
    batch: list[Graph] = []
    for place, graph in _placed(paths, skipped):
        found.append(place)
        batch.append(graph)
        if len(batch) >= CHUNK_GRAPHS:
            yield batch
            batch = []
    if batch:
        yield batch


def build_index(
    corpora: Sequence[str | Path],
    metric: Metric,
    *,
    jobs: Jobs = 1,
    progress: Progress | None = None,
) -> Built:
    """Index every well-formed graph of ``corpora`` by ``metric``'s vectors.

    Args:
        corpora: AMR files, read in chunks (memory holds the vectors,
            not the graphs).
        metric: a metric with vectors (:func:`~amrcheck.search.vectors.vectors_for`).
        jobs: processes or a cluster that compute the vectors.
        progress: called with the number of graphs vectorised.

    Raises:
        MetricError: the metric has no vectors.
        InputError: a file cannot be read.
        IndexFileError: no graph to index.
    """
    vectors = vectors_for(metric)
    skipped: list[str] = []
    found: list[IndexedGraph] = []
    batches = ([batch] for batch in _graphs(corpora, skipped, found))
    function: Any = (
        _Vectorize(vectors) if vectors.kind == "features" else _Embed(vectors)
    )
    rows: list[Any] = []
    for (results,) in run_batches(function, batches, jobs):
        rows.extend(results)
        if progress is not None:
            progress(len(results))
    if not rows:
        raise IndexFileError(
            "no well-formed graph to index in " + ", ".join(map(str, corpora))
        )
    manifest = {
        "format": FORMAT,
        "amrcheck": __version__,
        "vectors": {
            "kind": vectors.kind,
            "similarity": vectors.similarity,
            "settings": vectors.settings(),
        },
        "graphs": len(rows),
        "skipped": len(skipped),
        "corpora": [_corpus_record(path) for path in corpora],
        "library": _library(),
    }
    if vectors.kind == "features":
        features = _Features.from_rows(rows)
        dense = features.hashed(np.arange(len(rows)))
        ann = _hnsw(dense, quantized=True)
        index = Index(manifest, found, vectors, ann, features)
    else:
        dense = _normalized(np.vstack(rows).astype(np.float32))
        index = Index(manifest, found, vectors, _hnsw(dense, quantized=False), None)
    return Built(index, skipped)


def _corpus_record(path: str | Path) -> dict[str, Any]:
    stat = os.stat(path)
    return {
        "path": str(Path(path).resolve()),
        "bytes": stat.st_size,
        "mtime_ns": stat.st_mtime_ns,
    }


def _faiss() -> Any:
    """FAISS, loaded on first use; its SWIG stubs are partial (no
    ``SearchParametersHNSW``, enums typed as int), so it is Any here."""
    return importlib.import_module("faiss")


def _library() -> str:
    faiss = _faiss()
    return f"faiss-cpu {faiss.__version__}"


def _normalized(matrix: FloatArray) -> FloatArray:
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    unit: FloatArray = (matrix / norms).astype(np.float32)
    return unit


def _hnsw(dense: FloatArray, quantized: bool) -> Any:
    """An HNSW graph over ``dense`` rows (inner product = cosine: rows are unit).

    Hashed features are candidates only (their exact scores come from
    the sparse vectors), so they are stored in 8 bits a dimension.
    """
    faiss = _faiss()
    dimensions = dense.shape[1]
    if quantized:
        ann = faiss.IndexHNSWSQ(
            dimensions,
            faiss.ScalarQuantizer.QT_8bit,
            HNSW_LINKS,
            faiss.METRIC_INNER_PRODUCT,
        )
        ann.train(dense)
    else:
        ann = faiss.IndexHNSWFlat(dimensions, HNSW_LINKS, faiss.METRIC_INNER_PRODUCT)
    ann.hnsw.efConstruction = HNSW_BUILD_BREADTH
    ann.add(dense)
    return ann


@dataclass(slots=True)
class _Features:
    """The sparse vectors of the indexed graphs, one CSR row each.

    Columns are the positions of the feature ids in ``vocabulary``
    (sorted), so a query's features are found by binary search.
    """

    vocabulary: IdArray
    matrix: sparse.csr_matrix
    #: per row: the L2 norm (cosine) and the sum of weights (Jaccard)
    norms: np.ndarray[Any, np.dtype[np.float64]]
    sizes: np.ndarray[Any, np.dtype[np.float64]]

    @classmethod
    def from_rows(cls, rows: Sequence[tuple[IdArray, Weights]]) -> _Features:
        ids = np.concatenate([r[0] for r in rows])
        weights = np.concatenate([r[1] for r in rows])
        vocabulary, columns = np.unique(ids, return_inverse=True)
        indptr = np.zeros(len(rows) + 1, dtype=np.int64)
        indptr[1:] = np.cumsum([len(r[0]) for r in rows])
        matrix = sparse.csr_matrix(
            (weights, columns.astype(np.int32), indptr),
            shape=(len(rows), len(vocabulary)),
        )
        return cls.with_norms(vocabulary, matrix)

    @classmethod
    def with_norms(cls, vocabulary: IdArray, matrix: sparse.csr_matrix) -> _Features:
        squares = matrix.multiply(matrix).sum(axis=1)
        norms = np.sqrt(np.asarray(squares).ravel())
        sizes = np.asarray(matrix.sum(axis=1)).ravel()
        return cls(vocabulary, matrix, norms, sizes)

    def hashed(self, rows: np.ndarray[Any, Any]) -> FloatArray:
        """Rows folded into :data:`DIMENSIONS` by signed feature hashing,
        unit length."""
        part = self.matrix[rows]
        ids = self.vocabulary[part.indices]
        return _fold(ids, part.data, part.indptr)


def _fold(ids: IdArray, weights: Weights, indptr: np.ndarray[Any, Any]) -> FloatArray:
    rows = np.repeat(np.arange(len(indptr) - 1), np.diff(indptr))
    buckets = (ids % np.uint64(DIMENSIONS)).astype(np.int64)
    # the top bit of the 63-bit id gives the sign: collisions cancel on average
    signs = np.where((ids >> np.uint64(62)) & np.uint64(1), 1.0, -1.0)
    dense = np.zeros((len(indptr) - 1, DIMENSIONS), dtype=np.float32)
    np.add.at(dense, (rows, buckets), signs * weights)
    return _normalized(dense)


class Index:
    """The graphs of some AMR files, searchable by similarity (see the module)."""

    def __init__(
        self,
        manifest: dict[str, Any],
        graphs: list[IndexedGraph],
        vectors: Vectors,
        ann: Any,
        features: _Features | None,
    ) -> None:
        self.manifest = manifest
        self.graphs = graphs
        self.vectors = vectors
        self.ann = ann
        self.features = features

    def __len__(self) -> int:
        return len(self.graphs)

    @property
    def metric(self) -> str:
        return self.vectors.name

    @property
    def similarity(self) -> str:
        return self.vectors.similarity

    def graph(self, number: int) -> IndexedGraph:
        return self.graphs[number]

    # -- queries -------------------------------------------------------------

    def _query(self, graphs: Sequence[Graph]) -> tuple[FloatArray, Any]:
        """Dense (candidates) and exact query vectors of ``graphs``."""
        if self.features is None:
            dense = _normalized(self.vectors.embed(graphs))
            return dense, dense
        rows = _Vectorize(self.vectors)(graphs)
        indptr = np.zeros(len(rows) + 1, dtype=np.int64)
        indptr[1:] = np.cumsum([len(r[0]) for r in rows])
        ids = np.concatenate([r[0] for r in rows]) if rows else np.zeros(0, np.uint64)
        weights = np.concatenate([r[1] for r in rows]) if rows else np.zeros(0)
        return _fold(ids, weights, indptr), (ids, weights, indptr)

    def _exact(self, exact: Any, q: int, candidates: np.ndarray[Any, Any]) -> Weights:
        """Query ``q``'s exact similarity to each candidate row."""
        if self.features is None:
            stored = self.ann.reconstruct_batch(candidates)
            return np.asarray(stored @ exact[q], dtype=np.float64)
        ids, weights, indptr = exact
        mine, own = ids[indptr[q] : indptr[q + 1]], weights[indptr[q] : indptr[q + 1]]
        features = self.features
        where = np.searchsorted(features.vocabulary, mine)
        where[where >= len(features.vocabulary)] = 0
        known = features.vocabulary[where] == mine
        column = sparse.csr_matrix(
            (own[known], (where[known], np.zeros(int(known.sum()), dtype=np.int64))),
            shape=(len(features.vocabulary), 1),
        )
        dots = np.asarray((features.matrix[candidates] @ column).todense()).ravel()
        if self.similarity == "jaccard":
            union = features.sizes[candidates] + float(own.sum()) - dots
            return np.where(dots > 0, dots / np.where(union > 0, union, 1), 0.0)
        norms = features.norms[candidates] * float(np.sqrt((own * own).sum()))
        return np.where(dots > 0, dots / np.where(norms > 0, norms, 1), 0.0)

    def _candidates(self, dense: FloatArray, wanted: int) -> np.ndarray[Any, Any]:
        faiss = _faiss()
        wanted = min(len(self), wanted)
        parameters = faiss.SearchParametersHNSW(efSearch=max(wanted, 64))
        _, found = self.ann.search(dense, wanted, params=parameters)
        return np.asarray(found)

    def search_many(
        self,
        graphs: Sequence[Graph],
        top: int = 10,
        exclude: Sequence[tuple[str, int] | None] | None = None,
    ) -> list[list[Hit]]:
        """The ``top`` most similar indexed graphs of each of ``graphs``.

        Args:
            graphs: the queries.
            top: hits per query, best first (ties: index order).
            exclude: per query, a ``(path, line)`` not to return (the
                query itself, when its file is indexed).
        """
        if not graphs:
            return []
        dense, exact = self._query(graphs)
        found = self._candidates(dense, max(CANDIDATES, OVERSAMPLE * top))
        results = []
        for q in range(len(graphs)):
            candidates = np.unique(found[q][found[q] >= 0])
            skip = exclude[q] if exclude is not None else None
            if skip is not None:
                keep = [
                    (self.graphs[c].path, self.graphs[c].line) != skip
                    for c in candidates
                ]
                candidates = candidates[np.asarray(keep, dtype=bool)]
            scores = self._exact(exact, q, candidates)
            order = np.lexsort((candidates, -scores))[:top]
            results.append(
                [
                    Hit(
                        int(candidates[i]), self.graphs[candidates[i]], float(scores[i])
                    )
                    for i in order
                ]
            )
        return results

    def search(
        self, graph: Graph, top: int = 10, exclude: tuple[str, int] | None = None
    ) -> list[Hit]:
        """The ``top`` most similar indexed graphs of ``graph``, best first."""
        return self.search_many([graph], top, [exclude])[0]

    # -- duplicates ----------------------------------------------------------

    def duplicates(
        self,
        min_score: float = 0.95,
        *,
        jobs: Jobs = 1,
        progress: Progress | None = None,
    ) -> list[Duplicate]:
        """Every pair of indexed graphs that scores ``min_score`` or more.

        Each graph's neighbours come from the index; where all of them
        pass, more are fetched, so a graph with many near copies gets
        them all. Pairs are listed once, best first (ties: index order).
        """
        numbers = list(range(len(self)))
        chunks = [
            numbers[s : s + CHUNK_GRAPHS] for s in range(0, len(numbers), CHUNK_GRAPHS)
        ]
        finder = _Neighbours(self, min_score)
        done = None if progress is None else _ChunkProgress(progress, chunks)
        found = run_map(finder, chunks, jobs, done, chunk_size=1)
        pairs = {pair: score for chunk in found for pair, score in chunk}
        ordered = sorted(pairs.items(), key=lambda item: (-item[1], item[0]))
        return [
            Duplicate(self.graphs[a], self.graphs[b], score)
            for (a, b), score in ordered
        ]

    def _near(
        self, numbers: Sequence[int], min_score: float
    ) -> list[tuple[tuple[int, int], float]]:
        graphs = [self.graphs[n] for n in numbers]
        if self.features is None:
            dense = np.vstack([self.ann.reconstruct(n) for n in numbers])
            exact: Any = dense
        else:
            dense = self.features.hashed(np.asarray(numbers))
            part = self.features.matrix[np.asarray(numbers)]
            exact = (self.features.vocabulary[part.indices], part.data, part.indptr)
        out = []
        wanted = 32
        pending = list(range(len(graphs)))
        while pending:
            found = self._candidates(dense[pending], wanted + 1)
            again = []
            for row, q in enumerate(pending):
                candidates = np.unique(found[row][found[row] >= 0])
                scores = self._exact(exact, q, candidates)
                passing = scores >= min_score
                for c, s in zip(candidates[passing], scores[passing], strict=True):
                    if c != numbers[q]:
                        out.append(
                            (
                                (min(numbers[q], int(c)), max(numbers[q], int(c))),
                                float(s),
                            )
                        )
                if passing.all() and len(candidates) < len(self):
                    again.append(q)
            pending, wanted = again, wanted * 4
        return out

    # -- files ---------------------------------------------------------------

    def save(self, path: str | Path) -> None:
        """Write the index to one file (a zip archive; see the module)."""
        faiss = _faiss()
        target = Path(path)
        partial = target.with_name(target.name + ".partial")
        with zipfile.ZipFile(partial, "w", zipfile.ZIP_STORED) as archive:
            archive.writestr("manifest.json", json.dumps(self.manifest, indent=2))
            archive.writestr(
                "graphs.jsonl",
                "".join(
                    json.dumps(asdict(g), ensure_ascii=False) + "\n"
                    for g in self.graphs
                ),
            )
            if self.features is not None:
                buffer = io.BytesIO()
                matrix = self.features.matrix
                np.savez(
                    buffer,
                    vocabulary=self.features.vocabulary,
                    data=matrix.data,
                    indices=matrix.indices,
                    indptr=matrix.indptr,
                    shape=np.asarray(matrix.shape),
                )
                archive.writestr("features.npz", buffer.getvalue())
            archive.writestr("hnsw.faiss", faiss.serialize_index(self.ann).tobytes())
        partial.replace(target)  # never a half-written index under the name

    @classmethod
    def load(
        cls,
        path: str | Path,
        metric: Metric | None = None,
        max_bytes: int | None = MAX_HELD_BYTES,
    ) -> Index:
        """Read an index written by :meth:`save`.

        The file is opened like any input (:func:`~amrcheck.reading.files.open_input`:
        a regular file, no larger than ``max_bytes``), and its parts may
        not unpack to more than the file's size (an index stores them
        uncompressed, so a real one never does).

        Args:
            metric: when given, the index must have been built with it
                (same name and settings).
            max_bytes: the largest index read (None: no limit).

        Raises:
            IndexFileError: not an index, another format or amrcheck
                version, another metric than ``metric``; not a regular
                file or larger than ``max_bytes`` (the message says which).
        """
        faiss = _faiss()
        name = str(path)
        try:
            with (
                open_input(path, max_bytes) as handle,
                zipfile.ZipFile(handle) as archive,
            ):
                _check_sizes(name, archive, os.fstat(handle.fileno()).st_size)
                manifest = json.loads(archive.read("manifest.json"))
                _check(name, manifest)
                vectors = _vectors(name, manifest, metric)
                graphs = [
                    IndexedGraph(**json.loads(line))
                    for line in archive.read("graphs.jsonl")
                    .decode("utf-8")
                    .splitlines()
                ]
                features = None
                if manifest["vectors"]["kind"] == "features":
                    arrays = np.load(io.BytesIO(archive.read("features.npz")))
                    shape = tuple(int(n) for n in arrays["shape"])
                    matrix = sparse.csr_matrix(
                        (arrays["data"], arrays["indices"], arrays["indptr"]),
                        shape=shape,
                    )
                    features = _Features.with_norms(arrays["vocabulary"], matrix)
                raw = np.frombuffer(archive.read("hnsw.faiss"), dtype=np.uint8)
                ann = faiss.deserialize_index(raw)
        except InputError as error:
            if not os.path.exists(name):
                raise IndexFileError(f"{name}: no such index file") from None
            raise IndexFileError(f"{name}: {error.message}") from None
        except (zipfile.BadZipFile, KeyError, ValueError, TypeError) as error:
            raise IndexFileError(
                f"{name}: not an amrcheck index ({type(error).__name__}: {error})"
            ) from None
        return cls(manifest, graphs, vectors, ann, features)

    # the index travels to workers (duplicates on a cluster) as bytes
    def __getstate__(self) -> dict[str, Any]:
        faiss = _faiss()
        state = dict(vars(self))
        state["ann"] = faiss.serialize_index(self.ann)
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        faiss = _faiss()
        state["ann"] = faiss.deserialize_index(state["ann"])
        vars(self).update(state)


def _check_sizes(name: str, archive: zipfile.ZipFile, file_bytes: int) -> None:
    """Refuse an archive whose members unpack to more than the file holds:
    :meth:`Index.save` stores them uncompressed, and a small compressed
    file can unpack to gigabytes."""
    unpacked = sum(member.file_size for member in archive.infolist())
    if unpacked > file_bytes:
        size, limit = size_texts(unpacked, file_bytes)
        raise IndexFileError(
            f"{name}: not an amrcheck index (its parts unpack to {size}, "
            f"more than the file's {limit})"
        )


def _check(name: str, manifest: dict[str, Any]) -> None:
    if manifest.get("format") != FORMAT:
        raise IndexFileError(
            f"{name}: index format {manifest.get('format')}, this amrcheck reads "
            f"format {FORMAT}: rebuild it with 'amrcheck index'"
        )
    if manifest.get("amrcheck") != __version__:
        raise IndexFileError(
            f"{name} was built by amrcheck {manifest.get('amrcheck')}, this is "
            f"amrcheck {__version__}: rebuild it with 'amrcheck index'"
        )


def _described(settings: dict[str, Any]) -> str:
    return ", ".join(f"{k}={v}" for k, v in settings.items() if k != "metric")


def _vectors(name: str, manifest: dict[str, Any], metric: Metric | None) -> Vectors:
    """The vectors the index was built with; ``metric``'s, which must match."""
    settings = dict(manifest["vectors"]["settings"])
    built_with = settings.pop("metric")
    described = _described(settings)
    if metric is not None:
        asked = vectors_for(metric)
        if asked.settings() != manifest["vectors"]["settings"]:
            raise IndexFileError(
                f"{name} was built with {built_with} ({described}); asked for "
                f"{asked.name} ({_described(asked.settings())}): "
                f"rebuild it with 'amrcheck index --metric {asked.name}'"
            )
        return asked
    try:
        return vectors_for(get_metric(built_with, **settings))
    except MetricError as error:
        raise IndexFileError(
            f"{name}: its metric cannot be made here ({error})"
        ) from None


class _Neighbours:
    """The near duplicates of a chunk of graph numbers; picklable for workers."""

    def __init__(self, index: Index, min_score: float) -> None:
        self.index = index
        self.min_score = min_score

    def __call__(self, numbers: Sequence[int]) -> list[tuple[tuple[int, int], float]]:
        return self.index._near(numbers, self.min_score)


class _ChunkProgress:
    """A map over chunks of graphs reports graphs, not chunks (chunks finish
    in order on every backend)."""

    def __init__(self, progress: Progress, chunks: Sequence[Sequence[int]]) -> None:
        self.progress = progress
        self.sizes = [len(chunk) for chunk in chunks]
        self.done = 0

    def __call__(self, done: int) -> None:
        graphs = sum(self.sizes[self.done : self.done + done])
        self.done += done
        self.progress(graphs)


def read_queries(
    path: str | Path,
) -> tuple[list[tuple[IndexedGraph, Graph]], list[str]]:
    """The graphs of a query file with their places, and its syntax errors."""
    errors: list[str] = []
    return list(_placed([path], errors)), errors
