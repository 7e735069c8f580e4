"""Principles I-IV checked on real corpora, with the documented exceptions."""

from __future__ import annotations

from amrcheck.benchmarks.principles import check_principles, time_pairs
from amrcheck.reading.corpus import read_corpus, read_string
from tests.conftest import shared_path

TOY = shared_path("multi_annotator_toy/comptest_annot2.txt")


def holds(name: str, **options: object) -> dict[str, bool]:
    checks = check_principles(read_corpus(TOY), name, dict(options), neighbours=5)
    return {c.code: c.holds for c in checks}


def test_smatch_and_rematch_hold_all_four() -> None:
    assert holds("smatch") == {"I": True, "II": True, "III": True, "IV": True}
    assert holds("rematch", verbatlas=False) == {
        "I": True,
        "II": True,
        "III": True,
        "IV": True,
    }


def test_sembleu_asymmetry_is_found_and_listed() -> None:
    corpus = read_corpus(TOY)
    (symmetry,) = [c for c in check_principles(corpus, "sembleu") if c.code == "III"]
    assert not symmetry.holds and symmetry.checked == 5
    assert "the other way" in symmetry.violations[0]
    assert {
        c.code: c.holds
        for c in check_principles(corpus, "sembleu", {"symmetric": True})
    }["III"]


def test_compat_smatch_can_exceed_one() -> None:
    # a duplicated relation counts twice under smatch 1.0.4's counting
    corpus = read_string("(a / b :ARG0 (c / d) :ARG0 c)\n\n(a / b :ARG0 (c / d))\n")
    checks = {
        c.code: c
        for c in check_principles(
            corpus, "smatch", {"compat": "smatch-1.0.4"}, processes=False
        )
    }
    assert not checks["I"].holds and not checks["II"].holds
    assert checks["II"].violations[0].startswith("#1: 1.")
    assert checks["IV"].note == "compared with in-process"


def test_timings() -> None:
    timings = time_pairs(read_corpus(TOY), "rematch")
    assert len(timings) == 5
    assert all(t.seconds > 0 and t.size > 0 for t in timings)
    assert timings[0].label == "sentence 1 vs sentence 2"
