"""Robustness: no input makes the reader or the validator fail.

Two properties over arbitrary text:

* reading and validating never raise (only :class:`InputError`, and only
  for bytes that are not UTF-8);
* no graph is lost: there are at least as many entries as graph openings
  (a ``(`` at the start of a line; strings end at their line and comments
  start with ``#``, so such a ``(`` is never inside either).

Inputs come from Hypothesis and from a seeded mutation loop over the shared
corpora (deleted and duplicated parentheses, truncated strings, swapped
tokens, random bytes, line-end changes) plus huge and deep graphs.

The loop runs ``AMRCHECK_FUZZ_CASES`` mutated inputs (default 1,000, about a
second), and each Hypothesis property ``AMRCHECK_FUZZ_CASES // 10`` examples
(at least 150); set it high for a long run, e.g.
``AMRCHECK_FUZZ_CASES=200000 python -m pytest tests/reading/test_fuzz.py``.
"""

from __future__ import annotations

import os
import random
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from amrcheck import InputError, read_corpus, read_string, validate
from tests.conftest import SHARED_AMR_FILES

FUZZ_CASES = int(os.environ.get("AMRCHECK_FUZZ_CASES", "1000"))
#: Hypothesis examples per property; grows with a long run
HYPOTHESIS_CASES = max(150, FUZZ_CASES // 10)
SEED = int(os.environ.get("AMRCHECK_FUZZ_SEED", "20240611"))

_LINE_END_RE = re.compile(r"\r\n|\r|\n")


def graph_openings(text: str) -> int:
    """Lines that start with ``(``, as the reader sees lines."""
    text = text.removeprefix("\ufeff")
    return sum(line.startswith("(") for line in _LINE_END_RE.split(text))


def check_text(text: str) -> None:
    corpus = read_string(text, "<fuzz>")
    findings = validate(corpus)
    assert len(corpus.entries) >= graph_openings(text), text
    for finding in findings:
        # every span must render (the CLI and the language server use these)
        assert 0 <= finding.span.start <= finding.span.end <= len(corpus.source.text)
        str(finding)
        finding.to_dict()


def check_bytes(data: bytes, tmp_path: Path) -> None:
    path = tmp_path / "fuzz.amr"
    path.write_bytes(data)
    try:
        corpus = read_corpus(path)
    except InputError as exc:
        assert str(path) in str(exc)
        check_text(data.decode("utf-8", errors="replace"))
        return
    validate(corpus)
    assert len(corpus.entries) >= graph_openings(data.decode("utf-8"))


# -- Hypothesis -------------------------------------------------------------------

PENMAN_CHARS = st.sampled_from(list('()/:"~# \n\r\t-+.0123456789abxyzARGopfq\ufeff'))
PENMAN_TOKENS = st.sampled_from(
    ["(", ")", " / ", ":ARG0", ":op1", ":ARG1-of", ":mod", ":polarity", "-", "\n",
     "\n\n", "# ::id x\n", "# note\n", '"str"', '"', "~e.3", "b", "want-01", "boy",
     "b2", " ", ":", "/", "\r\n", ":snt0", ":ARG0-of-of", "5", "\"5\""]
)


@settings(
    max_examples=HYPOTHESIS_CASES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(st.text(PENMAN_CHARS, max_size=200) | st.text(max_size=100))
def test_arbitrary_text_never_raises_and_keeps_graphs(text: str) -> None:
    check_text(text)


@settings(max_examples=HYPOTHESIS_CASES, deadline=None)
@given(st.lists(PENMAN_TOKENS, max_size=60).map("".join))
def test_token_soup_never_raises_and_keeps_graphs(text: str) -> None:
    check_text(text)


# -- seeded mutations of real data ------------------------------------------------


def _paren_spots(text: str) -> list[int]:
    return [m.start() for m in re.finditer(r"[()]", text)]


def _delete_paren(text: str, i: int, rng: random.Random) -> str:
    spots = _paren_spots(text)
    i = rng.choice(spots) if spots else i
    return text[:i] + text[i + 1:]


def _duplicate_paren(text: str, i: int, rng: random.Random) -> str:
    spots = _paren_spots(text)
    i = rng.choice(spots) if spots else i
    return text[:i] + text[i] + text[i:]


def _truncate_string(text: str, i: int, rng: random.Random) -> str:
    spots = [m.end() - 1 for m in re.finditer(r'"[^"\n]*"', text)]
    i = rng.choice(spots) if spots else i
    return text[:i] + text[i + 1:]


def _swap_tokens(text: str, i: int, rng: random.Random) -> str:
    tokens = re.split(r"(\s+)", text)
    j = rng.randrange(max(1, len(tokens) - 2))
    if j + 2 < len(tokens):
        tokens[j], tokens[j + 2] = tokens[j + 2], tokens[j]
    return "".join(tokens)


def _delete_span(text: str, i: int, rng: random.Random) -> str:
    return text[:i] + text[i + rng.randint(1, 40):]


def _insert_junk(text: str, i: int, rng: random.Random) -> str:
    count = rng.randint(1, 8)
    junk = "".join(chr(rng.randrange(1, 0x3000)) for _ in range(count))
    return text[:i] + junk + text[i:]


_SNIPPETS = ["(", ")", "\n(", "\n\n", "#", "# ::id z\n", '"', ":", "/", "~e.1", "\r"]


def _insert_snippet(text: str, i: int, rng: random.Random) -> str:
    return text[:i] + rng.choice(_SNIPPETS) + text[i:]


def _line_ends(text: str, i: int, rng: random.Random) -> str:
    bom = rng.choice(["\ufeff", ""])
    return bom + text.replace("\n", rng.choice(["\r\n", "\r"]))


def _cut_short(text: str, i: int, rng: random.Random) -> str:
    return text[:i]


#: the kinds of edits annotators (and editors) make
MUTATIONS = [
    _delete_paren, _duplicate_paren, _truncate_string, _swap_tokens, _delete_span,
    _insert_junk, _insert_snippet, _line_ends, _cut_short,
]


def _mutate(text: str, rng: random.Random) -> str:
    """Apply one to three random edits."""
    for _ in range(rng.randint(1, 3)):
        if not text:
            break
        text = rng.choice(MUTATIONS)(text, rng.randrange(len(text)), rng)
    return text


@pytest.fixture(scope="module")
def corpus_texts() -> list[str]:
    return [path.read_text(encoding="utf-8") for path in SHARED_AMR_FILES]


def test_mutated_corpora_never_raise_and_keep_graphs(
    corpus_texts: list[str], tmp_path: Path
) -> None:
    rng = random.Random(SEED)
    for case in range(FUZZ_CASES):
        source = rng.choice(corpus_texts)
        start = rng.randrange(len(source))
        window = source[start:start + rng.randint(50, 3000)]
        mutated = _mutate(window, rng)
        if case % 10 == 0:  # through the file path too, sometimes as raw bytes
            data = mutated.encode("utf-8")
            if case % 20 == 0:
                k = rng.randrange(len(data) + 1)
                data = data[:k] + bytes(rng.randrange(256) for _ in range(4)) + data[k:]
            check_bytes(data, tmp_path)
        else:
            check_text(mutated)


# -- huge and deep inputs ----------------------------------------------------------

DEPTH = 20_000


@pytest.mark.parametrize(
    "text",
    [
        "(a / b" + " :ARG0 (a / b" * DEPTH + ")" * (DEPTH + 1),  # deep, all E101
        "(a / b" + "".join(f" :op{i} (n{i} / c)" for i in range(1, DEPTH)) + ")",
        "(a / b" + " :ARG0 (c / d" * DEPTH,  # deep and unclosed
        "(" * DEPTH,
        ")" * DEPTH,
        '"' * DEPTH,
        "(a / b" + ' :op1 "' * DEPTH + ")",
        "\n".join("(x / y)" for _ in range(DEPTH)),  # one block, many trees
        "# ::id x\n" * DEPTH,
    ],
    ids=["deep", "wide", "deep-unclosed", "open-parens", "close-parens", "quotes",
         "strings", "many-trees", "metadata"],
)
def test_huge_and_deep_inputs(text: str) -> None:
    check_text(text)


def test_non_utf8_bytes_raise_input_error_with_place(tmp_path: Path) -> None:
    path = tmp_path / "bad.amr"
    path.write_bytes(b"(a / b)\n(c / \xff)\n")
    with pytest.raises(InputError, match=r"2:6: not valid UTF-8"):
        read_corpus(path)
