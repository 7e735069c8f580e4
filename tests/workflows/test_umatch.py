"""umatch: UMR compared through word alignments (issue 31).

The expected counts are those ÚFAL's compare_umr.pl prints (``--tsv``) for
the same pairs (bench/bench_umr_score.py runs it on them again)."""

from __future__ import annotations

import re
from functools import cmp_to_key
from pathlib import Path
from typing import Any

import pytest

from amrcheck.reading.umr import read_umr, read_umr_string
from amrcheck.workflows.umatch import umatch
from tests.fresh import cyclic_garbage
from tests.workflows.test_umr_score import ENGLISH, renamed

DATA = Path(__file__).parents[1] / "data" / "umr" / "scoring"

#: probe -> (aligned token sets, node projections, triples in mapped nodes,
#: umatch), as compare_umr.pl counts them against gold.umr
PEER = {
    "gold": ((6, 6, 6), (8, 8, 8, 8), (23, 23, 23), (29, 29, 29)),
    "concept": ((6, 6, 6), (8, 8, 8, 8), (22, 23, 23), (28, 29, 29)),
    "alignment": ((5, 6, 6), (8, 8, 8, 8), (23, 23, 23), (29, 29, 29)),
    "docrel": ((6, 6, 6), (8, 8, 8, 8), (23, 23, 23), (28, 29, 28)),
    "attribute": ((6, 6, 6), (8, 8, 8, 8), (22, 23, 23), (28, 29, 29)),
    "unaligned": ((6, 6, 6), (7, 7, 8, 8), (20, 21, 21), (26, 29, 29)),
}


@pytest.mark.parametrize("probe", sorted(PEER))
def test_umatch_counts_what_compare_umr_counts(probe: str) -> None:
    report = umatch(read_umr(DATA / "gold.umr"), read_umr(DATA / f"{probe}.umr"))
    a, p, m, u = (
        report.aligned_token_sets,
        report.projections,
        report.mapped_triples,
        report.umatch,
    )
    assert (a.correct, a.reference, a.candidate) == PEER[probe][0]
    assert (p.mapped_reference, p.mapped_candidate, p.reference, p.candidate) == PEER[
        probe
    ][1]
    assert (m.correct, m.reference, m.candidate) == PEER[probe][2]
    assert (u.correct, u.reference, u.candidate) == PEER[probe][3]


def test_only_and_except_filter_relations_as_compare_umr_does() -> None:
    gold, test = read_umr(DATA / "gold.umr"), read_umr(DATA / "concept.umr")
    concepts = umatch(gold, test, only=["concept"]).umatch
    assert (concepts.correct, concepts.reference, concepts.candidate) == (7, 8, 8)
    without = umatch(gold, test, exclude=[":concept"]).umatch
    assert without.f1 == 1.0
    with pytest.raises(ValueError):
        umatch(gold, test, only=["concept"], exclude=["concept"])


def test_without_document_level_counts_only_the_graphs() -> None:
    report = umatch(
        read_umr(DATA / "gold.umr"), read_umr(DATA / "docrel.umr"), document_level=False
    )
    assert report.umatch.f1 == 1.0


def test_a_missing_sentence_counts_its_reference_nodes_as_unmapped() -> None:
    report = umatch(read_umr(DATA / "gold.umr"), read_umr(DATA / "missing.umr"))
    assert report.unpaired == ["snt2"]
    assert report.umatch.reference == 29 and report.umatch.correct == 17
    assert report.projections.mapped_reference == 5


def test_different_tokens_are_aligned_first_and_said() -> None:
    report = umatch(read_umr(DATA / "gold.umr"), read_umr(DATA / "tokens.umr"))
    assert report.realigned == ["snt2"]
    assert report.aligned_token_sets.correct == 6
    assert report.umatch.f1 == 1.0


def test_an_inserted_token_shifts_the_candidate_alignments_back() -> None:
    text = (DATA / "gold.umr").read_text(encoding="utf-8")
    shifted = (
        text.replace("Words: She bought a  book .", "Words: Then she bought a book .")
        .replace("s2b: 2-2", "s2b: 3-3")
        .replace("s2p: 1-1", "s2p: 2-2")
        .replace("s2b2: 3-4", "s2b2: 4-5")
    )
    report = umatch(read_umr_string(text), read_umr_string(shifted))
    assert report.realigned == ["snt2"]
    # "She" against "Then she": two tokens replace one, so s2p's word has no
    # partner and s2p maps to nothing; the other nodes map as before
    assert report.aligned_token_sets.correct == 5
    assert report.projections.mapped_reference == 7


def test_a_release_file_with_many_ambiguous_links_counts_as_compare_umr() -> None:
    """english_umr-0578 (half of its nodes have several links before they
    are made one to one) against a copy with every variable renamed, one
    concept changed and one alignment range moved: the figures
    compare_umr.pl --tsv prints for the pair (in the ÚFAL layout, as
    bench/bench_umr_score.py writes it), ambiguous node counts included."""
    text = (ENGLISH / "english_umr-0578.umr").read_text(encoding="utf-8")
    copy = renamed(text).replace(" / person", " / persona", 1)
    copy = re.sub(
        r"^(s3\w+): (\d+)-(\d+)$",
        lambda m: f"{m[1]}: {int(m[2]) + 1}-{int(m[3]) + 1}",
        copy,
        count=1,
        flags=re.M,
    )
    gold, test = read_umr_string(text, "gold.umr"), read_umr_string(copy, "copy.umr")
    report = umatch(gold, test)
    a, p, m, u = (
        report.aligned_token_sets,
        report.projections,
        report.mapped_triples,
        report.umatch,
    )
    assert (a.correct, a.reference, a.candidate) == (369, 370, 369)
    assert (p.mapped_reference, p.mapped_candidate, p.reference, p.candidate) == (
        527,
        527,
        528,
        528,
    )
    assert (p.ambiguous_reference, p.ambiguous_candidate) == (222, 221)
    assert (m.correct, m.reference, m.candidate) == (1378, 1392, 1392)
    assert (u.correct, u.reference, u.candidate) == (1757, 1780, 1780)
    bare = umatch(gold, test, document_level=False).umatch
    assert (bare.correct, bare.reference, bare.candidate) == (1378, 1397, 1397)


def _every_node_rounds(reference: Any, candidate: Any) -> None:
    """The one-to-one rule as docs/umr.md states it: every round visits
    every node of both sides, in variable order."""
    from amrcheck.workflows import umatch as module

    ref_nodes = sorted(reference.index.values(), key=reference.variables.__getitem__)
    cand_nodes = sorted(candidate.index.values(), key=candidate.variables.__getitem__)
    while True:
        pending: list[Any] = []
        # no links kept from an earlier round: each one's counts made anew
        for node in ref_nodes:
            module._ambiguous_links(reference, node, candidate, pending, {})
        for node in cand_nodes:
            module._ambiguous_links(candidate, node, reference, pending, {})
        if not pending:
            return
        best = min(pending, key=cmp_to_key(module._compare_links))
        best.side.links[best.node] = [best.partner]
        best.other.links[best.partner] = [best.node]


@pytest.mark.parametrize("name", ["english_umr-0578.umr", "english_umr-0217.umr"])
def test_rounds_that_visit_only_the_nodes_they_can_change_link_as_visiting_all(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The linking visits, each round, only the nodes with several links and
    those just left with a stale link, and keeps a node's links as offered
    while the links its relations reach stay: the same links (and figures)
    as visiting every node and making every link anew, on release files with
    many ambiguous links, against a renamed copy with edits, a copy with one
    edit (its other sentences share the reference's tables) and the next
    file (tokens differ)."""
    from amrcheck.workflows import umatch as module

    text = (ENGLISH / name).read_text(encoding="utf-8")
    edited = text.replace(" / person", " / persona", 1)
    copy = renamed(edited)
    following = sorted(ENGLISH.glob("*.umr"))
    after = following[following.index(ENGLISH / name) + 1]
    gold = read_umr_string(text, "gold.umr")
    others = [
        read_umr_string(copy, "copy.umr"),
        read_umr_string(edited, "edited.umr"),
        read_umr(after),
    ]
    found = [umatch(gold, other) for other in others]
    assert found[0].projections.ambiguous_reference > 50
    monkeypatch.setattr(module, "_one_to_one", _every_node_rounds)
    assert [umatch(gold, other) for other in others] == found


@pytest.mark.parametrize("name", ["english_umr-0578.umr", "english_umr-0217.umr"])
def test_sentences_that_share_the_reference_tables_count_as_made_alone(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A candidate sentence with the reference's graph and alignments,
    variables renamed or not, shares the reference's tables (and a node
    linked to its twin, whose relations reach only nodes linked to theirs,
    counts all found): the figures of tables made for each side, on copies
    with a few edits (a concept, an attribute, an alignment range), and the
    same copies with every variable renamed."""
    from amrcheck.workflows import umatch as module

    text = (ENGLISH / name).read_text(encoding="utf-8")
    edits = [
        text.replace(" / person", " / persona", 1),
        text.replace(":aspect state", ":aspect activity", 2),
        re.sub(r"^(s2\w+): (\d+)-(\d+)$", r"\1: 0-0", text, count=1, flags=re.M),
    ]
    gold = read_umr_string(text, "gold.umr")
    edits += [renamed(edit) for edit in edits]
    others = [read_umr_string(edit, "edited.umr") for edit in edits]
    shared: list[bool] = []
    twin = module._twin

    def counted(*args: Any) -> Any:
        made = twin(*args)
        shared.append(made is not None)
        return made

    monkeypatch.setattr(module, "_twin", counted)
    found = [umatch(gold, other) for other in others]
    assert shared.count(True) > 2 * len(gold.sentences) and shared.count(False) >= 6
    monkeypatch.setattr(module, "_twin", lambda *args: None)
    assert [umatch(gold, other) for other in others] == found


def test_a_node_linked_to_its_twin_counts_its_relations_through_the_links(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Twin sentences (same graph and alignments) whose words differ: the
    candidate's tokens are carried over (a word inserted), so s1x links to
    its twin but s1y to the candidate's s1z: s1x's relations are found only
    as mapped (its concept alone), as with tables made for each side;
    the same with the candidate's variables renamed."""
    from amrcheck.workflows import umatch as module

    def document(words: str) -> str:
        return (
            f"# :: snt1\nWords: {words}\n\n# sentence level graph:\n"
            "(s1x / see-01 :ARG0 (s1y / dog) :ARG1 (s1z / cat))\n\n"
            "# alignment:\ns1x: 1-1\ns1y: 2-2\ns1z: 3-3\n\n"
            "# document level annotation:\n(s1s0 / sentence)\n\n\n"
        )

    gold = read_umr_string(document("Sees dogs cats"), "gold.umr")
    edited = document("Sees big dogs cats")
    tests = [read_umr_string(text, "test.umr") for text in (edited, renamed(edited))]
    reports = [umatch(gold, test) for test in tests]
    for report in reports:
        assert report.realigned == ["snt1"]
        m, u = report.mapped_triples, report.umatch
        assert (m.correct, m.reference, m.candidate) == (1, 4, 4)
        assert (u.correct, u.reference, u.candidate) == (1, 5, 5)
    monkeypatch.setattr(module, "_twin", lambda *args: None)
    assert [umatch(gold, test) for test in tests] == reports


def test_a_comparison_leaves_no_reference_cycles() -> None:
    """Nodes are numbers into their sentence's lists, and sentences refer
    to no sentence, so a comparison's objects are freed as soon as it ends:
    the cyclic collector finds nothing after it. Counted in a fresh interpreter, where
    no other thread (the test runner's own) makes garbage meanwhile."""
    documents = sorted(ENGLISH.glob("*.umr"))[:20]
    setup = (
        "from itertools import pairwise\n"
        "from amrcheck.reading.umr import read_umr\n"
        "from amrcheck.workflows.umatch import umatch\n"
        "documents = [read_umr(path) for path in sys.argv[1:]]\n"
    )
    work = (
        "for reference, candidate in pairwise(documents):\n"
        "    umatch(reference, candidate)\n"
    )
    assert len(documents) == 20
    assert cyclic_garbage(setup, work, *map(str, documents)) == 0
