"""Document-level UMR scores under the sentence alignment (issue 31)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from amrcheck.metrics import get_metric
from amrcheck.reading.umr import read_umr, read_umr_string
from amrcheck.workflows.umr_score import (
    GROUPS,
    canonical,
    closure,
    node_mapping,
    score_document,
)

DATA = Path(__file__).parents[1] / "data" / "umr" / "scoring"
ENGLISH = Path(__file__).parents[2] / ".." / "shared" / "data" / "umr" / "english"
_VARIABLE_RE = re.compile(r"(?<![\w-])s(\d+)[a-z]+\d*(?![\w-])")


def renamed(text: str) -> str:
    """Every variable renamed (``s1p`` -> ``s1zq0`` ...), in every block."""
    names: dict[str, str] = {}

    def new(match: re.Match[str]) -> str:
        return names.setdefault(match.group(0), f"s{match.group(1)}zq{len(names)}")

    return _VARIABLE_RE.sub(new, text)


@pytest.mark.parametrize(
    "name", ["english_umr-0001.umr", "english_umr-0004.umr", "english_umr-0007.umr"]
)
def test_renaming_every_variable_keeps_every_group_at_one(name: str) -> None:
    text = (ENGLISH / name).read_text(encoding="utf-8")
    copy = renamed(text)
    assert copy != text
    scores = score_document(read_umr_string(text, name), read_umr_string(copy, "copy"))
    for group in GROUPS:
        assert scores.groups[group].f1 == 1.0, (group, scores.groups[group].extra[:3])
    assert scores.groups["coref"].reference > 0
    assert scores.overall.f1 == 1.0


def test_a_missing_sentence_loses_its_document_triples_and_lists_them() -> None:
    scores = score_document(read_umr(DATA / "gold.umr"), read_umr(DATA / "missing.umr"))
    temporal = scores.groups["temporal"]
    assert (
        temporal.correct,
        temporal.candidate,
        temporal.found,
        temporal.reference,
    ) == (1, 1, 1, 2)
    assert [(str(t), t.where) for t in temporal.missing] == [
        ("(s1l :before s2b)", f"{DATA / 'gold.umr'}:53:17")
    ]
    assert scores.groups["coref"].recall == 0.0
    assert scores.sentences.reference == 25 and scores.sentences.correct == 15


def test_a_broken_graph_keeps_its_document_triples_mapped_by_concept_and_words() -> (
    None
):
    scores = score_document(read_umr(DATA / "gold.umr"), read_umr(DATA / "broken.umr"))
    assert scores.document.f1 == 1.0
    assert scores.sentences.recall < 1.0


def test_canonical_forms_make_inverse_relations_equal() -> None:
    assert canonical(":before", "a", "b") == canonical(":after", "b", "a")
    assert canonical(":contains", "a", "b") == canonical(":contained", "b", "a")
    assert canonical(":same-entity", "b", "a") == canonical(":same-entity", "a", "b")


def test_closure_chains_before_and_coreference() -> None:
    temporal = closure({canonical(":before", "a", "b"), canonical(":before", "b", "c")})
    assert canonical(":before", "a", "c") in temporal
    coref = closure(
        {canonical(":same-entity", "x", "y"), canonical(":same-entity", "y", "z")}
    )
    assert canonical(":same-entity", "x", "z") in coref
    assert closure(
        {canonical(":overlap", "a", "b"), canonical(":overlap", "b", "c")}
    ) == {canonical(":overlap", "a", "b"), canonical(":overlap", "b", "c")}


def test_a_triple_the_reference_implies_is_correct() -> None:
    head = (
        "# :: snt1\nWords: a b c\n\n# sentence level graph:\n"
        "(s1a / a-01 :ARG0 (s1b / b-01) :ARG1 (s1c / c-01))\n\n# alignment:\n"
        "s1a: 1-1\ns1b: 2-2\ns1c: 3-3\n\n# document level annotation:\n"
        "(s1s0 / sentence\n    :temporal ("
    )
    gold = head + "(s1a :before s1b)\n        (s1b :before s1c)))\n\n\n"
    implied = head + "(s1a :before s1c)))\n\n\n"
    scores = score_document(read_umr_string(gold), read_umr_string(implied))
    temporal = scores.groups["temporal"]
    assert (temporal.precision, temporal.recall) == (1.0, 0.0)
    assert [str(t) for t in temporal.missing] == [
        "(s1a :before s1b)",
        "(s1b :before s1c)",
    ]


@pytest.mark.parametrize("rename", [False, True])
def test_the_node_mapping_is_smatchs_alignment_of_each_sentence_pair(
    rename: bool,
) -> None:
    """Sentence pairs that are one graph twice skip smatch's search (written
    alike, or alike but for variable names): their alignment and counts
    are still those smatch's own scoring gives, as are the others'."""
    text = (ENGLISH / "english_umr-0004.umr").read_text(encoding="utf-8")
    copy = renamed(text) if rename else text
    copy = copy.replace(" / person", " / persona", 1)  # one sentence differs
    gold, test = read_umr_string(text, "gold.umr"), read_umr_string(copy, "copy.umr")
    mapping, counts = node_mapping(gold, test)
    smatch = get_metric("smatch")
    expected: dict[str, str | None] = {}
    matched = 0
    for ours, theirs in zip(test.sentences, gold.sentences, strict=True):
        assert ours.graph is not None and theirs.graph is not None
        score = smatch.score(ours.graph, theirs.graph, explain=True)
        assert score.explanation is not None
        expected.update(score.explanation.alignment)
        matched += int(score.counts["matched"])
    assert {v: mapping[v] for v in expected} == expected
    assert counts.correct == matched < counts.reference == counts.candidate
    if rename:
        assert sum(k == v for k, v in expected.items()) == 0


@pytest.mark.parametrize(
    ("candidate", "expected"),
    [
        (
            "(x / want-01 :ARG0 (y / boy) :ARG1 (z / go-02 :ARG0 y))",
            {"x": "w", "y": "b", "z": "g"},
        ),
        (
            "(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-02 :ARG0 b))",
            {"w": "w", "b": "b", "g": "g"},
        ),
        # the re-entrancy points elsewhere: not the same graph
        ("(x / want-01 :ARG0 (y / boy) :ARG1 (z / go-02 :ARG0 x))", None),
        # two nodes named alike cannot stand for two
        ("(x / want-01 :ARG0 (y / boy) :ARG1 (y / go-02 :ARG0 y))", None),
        ("(x / want-01 :ARG0 (y / girl) :ARG1 (z / go-02 :ARG0 y))", None),
    ],
)
def test_a_graph_written_alike_but_for_its_names_is_recognised(
    candidate: str, expected: dict[str, str] | None
) -> None:
    from amrcheck.reading.corpus import decode
    from amrcheck.workflows.umr_score import _renaming

    reference = decode("(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-02 :ARG0 b))")
    assert _renaming(decode(candidate), reference) == expected
