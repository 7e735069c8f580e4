"""The probes behind each difference from AnCast++ on the English release
(issue 31; docs/umr.md, "Deviations from AnCast++"): one edit each against
``tests/data/umr/ancast/gold.umr``. The figures asserted are ours; AnCast's
own figures on the same pairs are measured by
``bench/bench_umr_ancast_probes.py`` and written in docs/umr.md."""

from __future__ import annotations

from pathlib import Path

import pytest

from amrcheck.reading.umr import read_umr
from amrcheck.workflows.umr_score import score_document

DATA = Path(__file__).parents[1] / "data" / "umr" / "ancast"

#: probe -> group -> (correct, candidate, found, reference)
EXPECTED = {
    # a chain of three :before triples, its first link dropped: the two kept
    # are right, one of three reference triples is not implied (R 2/3,
    # F1 0.8); AnCast scores the closure's six relations, weighted by the
    # cluster's nodes: R 3/6, F1 0.6667
    "temporal-dropped": {"temporal": (2, 2, 2, 3)},
    # three mentions of one entity, one :same-entity of two dropped: R 1/2
    # (F1 0.6667); AnCast: 1 of the 3 closed pairs, F1 0.5
    "coref-dropped": {"coref": (1, 1, 1, 2)},
    # a contradicting modal triple on a pair that has the right one: an
    # extra triple (P 4/5, F1 0.8889); AnCast keeps one relation per node
    # pair, the last written, and gives 1.0
    "modal-two-on-a-pair": {"modal": (4, 5, 4, 4)},
    # a word after a triple (an annotator's note): an error with its place,
    # and every triple still read (F1 1.0); AnCast drops the whole group
    "note-after-a-triple": {"coref": (2, 2, 2, 2)},
}


@pytest.mark.parametrize("probe", sorted(EXPECTED))
def test_each_probe_scores_every_written_triple_once(probe: str) -> None:
    gold = read_umr(DATA / "gold.umr")
    test = read_umr(DATA / f"{probe}.umr")
    scores = score_document(gold, test)
    for group, counts in EXPECTED[probe].items():
        layer = scores.groups[group]
        assert (layer.correct, layer.candidate, layer.found, layer.reference) == counts
    untouched = set(scores.groups) - set(EXPECTED[probe])
    assert all(scores.groups[g].f1 == 1.0 for g in untouched)


def test_the_probes_f1s() -> None:
    gold = read_umr(DATA / "gold.umr")
    f1 = {
        probe: round(
            score_document(gold, read_umr(DATA / f"{probe}.umr"))
            .groups[next(iter(groups))]
            .f1,
            4,
        )
        for probe, groups in EXPECTED.items()
    }
    assert f1 == {
        "temporal-dropped": 0.8,
        "coref-dropped": 0.6667,
        "modal-two-on-a-pair": 0.8889,
        "note-after-a-triple": 1.0,
    }


def test_a_note_after_a_triple_is_an_error_at_its_place() -> None:
    test = read_umr(DATA / "note-after-a-triple.umr")
    assert [str(e) for e in test.errors] == [
        f"{DATA / 'note-after-a-triple.umr'}:41:37: U401 'Mary' between the "
        "triples of :coref: skipped, the triples after it are read "
        "(expected '(' or ')')"
    ]
    assert [(t.source, t.target) for t in test.sentences[0].document.triples][-2:] == [
        ("s1p", "s1p2"),
        ("s1p", "s1p3"),
    ]
