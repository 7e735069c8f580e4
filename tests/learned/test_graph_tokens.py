"""AMRSim's token graph: units, edges, graph positions, windows (no torch needed)."""

from __future__ import annotations

import random

import pytest

from amrcheck.canonical import canonicalize
from amrcheck.learned.graph_tokens import TokenGraph, UnitKind, linearize, tokenize
from amrcheck.reading.corpus import decode, read_corpus
from amrcheck.standardize import standardize
from tests.conftest import shared_path
from tests.rewrite import REWRITES, rewrite


class LetterVocabulary:
    """A stand-in tokenizer: one id per character; roles ``arg*`` are added."""

    def words(self, text: str) -> tuple[int, ...]:
        return tuple(ord(c) for c in text) or (0,)

    def relation(self, role: str) -> int | None:
        return 10_000 + int(role[3:]) if role.startswith("arg") else None


def tokens_of(text: str, max_length: int = 128) -> TokenGraph:
    units = linearize(canonicalize(standardize(decode(text))))
    return tokenize(units, LetterVocabulary(), max_length)


def test_labelled_edges_become_relation_units_between_their_ends() -> None:
    units = linearize(
        canonicalize(standardize(decode("(w / want-01 :ARG0 (b / boy) :polarity -)")))
    )
    kinds = [u.kind for u in units.units]
    texts = [u.text for u in units.units]
    assert texts == ["want-01", "arg0", "boy", "polarity", "-"]
    assert kinds == [
        UnitKind.CONCEPT,
        UnitKind.RELATION,
        UnitKind.CONCEPT,
        UnitKind.RELATION,
        UnitKind.CONSTANT,
    ]
    assert units.edges == [(0, 1), (1, 2), (0, 3), (3, 4)]
    assert units.distances == [0, 1, 2, 1, 2]


def test_every_subword_of_a_concept_is_joined_to_its_edges() -> None:
    tokens = tokens_of("(b / boy :ARG0-of (g / go))")
    # go (2 tokens) -> arg0 (1 token) -> boy (3 tokens)
    relation = tokens.ids.index(10_000)
    go = [
        i for i, u in enumerate(tokens.units) if tokens.unit_graph.units[u].text == "go"
    ]
    boy = [
        i
        for i, u in enumerate(tokens.units)
        if tokens.unit_graph.units[u].text == "boy"
    ]
    assert sorted(tokens.edges) == sorted(
        [(g, relation) for g in go] + [(relation, b) for b in boy]
    )
    # the root's tokens sit at position 1, the relation at 2, go at 3
    assert {tokens.positions[i] for i in boy} == {1}
    assert tokens.positions[relation] == 2
    assert {tokens.positions[i] for i in go} == {3}


def test_a_reentrant_node_is_one_unit_with_an_edge_per_relation() -> None:
    units = linearize(
        canonicalize(
            standardize(decode("(w / want :ARG0 (b / boy) :ARG1 (g / go :ARG0 b))"))
        )
    )
    assert [u.text for u in units.units].count("boy") == 1
    boy = next(k for k, u in enumerate(units.units) if u.text == "boy")
    assert sum(1 for _, target in units.edges if target == boy) == 2


def test_constants_have_token_type_one_and_roles_outside_the_vocabulary_are_words() -> (
    None
):
    tokens = tokens_of('(c / city :name "Rome" :quux 7)')
    constant_types = {
        tokens.types[i]
        for i, u in enumerate(tokens.units)
        if tokens.unit_graph.units[u].kind is UnitKind.CONSTANT
    }
    assert constant_types == {1}
    assert set(tokens.types) == {0, 1}
    assert tokens.unknown_roles == ["name", "quux"]
    assert tuple(ord(c) for c in "quux") == tuple(
        tokens.ids[i]
        for i, u in enumerate(tokens.units)
        if tokens.unit_graph.units[u].text == "quux"
    )


def test_positions_follow_the_graph_not_the_text_paper_table_4() -> None:
    # AMRSim's Table 4: A and B are one graph written in two orders
    a = tokens_of(
        "(p / play-01 :ARG0 (g / group :consist-of (b / boy)) :ARG1 (s / soccer)"
        " :location (h / beach))"
    )
    b = tokens_of(
        "(p / play-01 :location (h / beach) :ARG0 (g / group :consist-of (b / boy))"
        " :ARG1 (s / soccer))"
    )
    assert (a.ids, a.positions, a.types, a.edges) == (
        b.ids,
        b.positions,
        b.types,
        b.edges,
    )


@pytest.mark.parametrize(
    "name",
    ["little_prince/amr-bank-struct-v3.0.txt", "bio_amr/amr-release-dev-bio.txt"],
)
def test_every_writing_of_a_real_graph_gives_the_same_token_graph(name: str) -> None:
    rng = random.Random(15)
    corpus = read_corpus(shared_path(name))
    entries = [e for e in corpus if e.graph is not None][::7]
    for entry in entries:
        assert entry.graph is not None
        original = tokens_of(entry.graph.text, max_length=64)
        for how in REWRITES:
            copy = tokens_of(rewrite(entry.graph.text, how, rng), max_length=64)
            assert (copy.ids, copy.positions, copy.types, copy.edges, copy.windows) == (
                original.ids,
                original.positions,
                original.types,
                original.edges,
                original.windows,
            ), (entry.id, how)


def test_long_graphs_are_cut_into_windows_between_units() -> None:
    corpus = read_corpus(shared_path("bio_amr/amr-release-dev-bio.txt"))
    longest = max(
        (e.graph for e in corpus if e.graph is not None), key=lambda g: len(g.triples)
    )
    tokens = tokens_of(longest.text, max_length=32)
    assert len(tokens.windows) > 1
    assert tokens.windows[0][0] == 0 and tokens.windows[-1][1] == tokens.size
    for (_, end), (start, _) in zip(tokens.windows, tokens.windows[1:], strict=False):
        assert end == start
    for start, end in tokens.windows:
        assert 0 < end - start <= 30
        # never inside a unit (no unit here is longer than a window)
        assert start == 0 or tokens.units[start] != tokens.units[start - 1]


def test_a_short_graph_is_one_window() -> None:
    tokens = tokens_of("(b / boy)")
    assert tokens.windows == [(0, 3)]
    assert tokens.sep_position == 2
