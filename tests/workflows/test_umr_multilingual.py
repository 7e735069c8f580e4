"""UMR scoring assumes no English (issue 31): Czech-style lemmas with senses,
non-ASCII variables, a glossed language. The umatch counts are those
compare_umr.pl prints for the same pairs."""

from __future__ import annotations

import subprocess
from pathlib import Path

from amrcheck.metrics import get_metric
from amrcheck.reading.umr import read_umr
from amrcheck.reading.umr_corpus import read_umr_corpus
from amrcheck.render import expanded
from amrcheck.workflows.evaluate import evaluate
from amrcheck.workflows.umatch import umatch
from amrcheck.workflows.umr_diff import diff_umr
from amrcheck.workflows.umr_score import score_document
from tests.render.conftest import page_text

DATA = Path(__file__).parents[1] / "data" / "umr" / "multilingual"


def test_czech_lemmas_and_non_ascii_variables_read_and_place() -> None:
    corpus, document = read_umr_corpus(DATA / "czech.umr")
    assert document.sentences[0].graph is not None
    assert document.sentences[0].graph.variables()["s1z"] == "zvýšit-se-001"
    assert "s2ř" in document.sentences[1].graph.variables()
    score = get_metric("smatch").score(corpus[1].graph, corpus[1].graph, explain=True)
    assert score.f1 == 1.0 and score.explanation is not None
    spans = {str(t[0]): str(t[0].span) for t in score.explanation.matched}
    assert spans["(s2ř :instance růst-001)"] == f"{DATA / 'czech.umr'}:32:12"


def test_renamed_non_ascii_variables_score_one_at_every_level() -> None:
    gold, renamed = read_umr(DATA / "czech.umr"), read_umr(DATA / "czech-renamed.umr")
    scores = score_document(gold, renamed)
    assert scores.overall.f1 == 1.0
    assert scores.groups["coref"].correct == 1
    assert umatch(gold, renamed).umatch.f1 == 1.0


def test_a_czech_edit_costs_what_compare_umr_counts() -> None:
    gold, edited = read_umr(DATA / "czech.umr"), read_umr(DATA / "czech-edited.umr")
    report = umatch(gold, edited)
    assert (
        report.umatch.correct,
        report.umatch.reference,
        report.umatch.candidate,
    ) == (17, 19, 19)
    assert (report.mapped_triples.correct, report.mapped_triples.reference) == (11, 12)
    # the coreference written the other way round is the same relation here
    assert score_document(gold, edited).groups["coref"].f1 == 1.0
    evaluation = evaluate(
        DATA / "czech.umr", [DATA / "czech-edited.umr"], [get_metric("smatch")]
    )
    assert evaluation.results[0].ids == ["snt1", "snt2"]


def test_a_glossed_language_scores_through_its_words_row() -> None:
    gold, edited = read_umr(DATA / "glossed.umr"), read_umr(DATA / "glossed-edited.umr")
    assert [w.text for w in gold.sentences[0].words] == ["Ninakupenda", "sana", "."]
    report = umatch(gold, edited)
    assert (
        report.umatch.correct,
        report.umatch.reference,
        report.umatch.candidate,
    ) == (10, 13, 13)
    p = report.projections
    assert (p.mapped_reference, p.mapped_candidate, p.reference, p.candidate) == (
        3,
        3,
        4,
        4,
    )


def test_a_czech_diff_names_each_layer_with_non_ascii_variables() -> None:
    old, new = DATA / "czech.umr", DATA / "czech-edited.umr"
    assert [str(c) for c in diff_umr(old, new)] == [
        f"{new}:34:12: snt2 graph + (s2v / parlament)",
        f"{old}:34:12: snt2 graph - (s2v / vláda)",
        # the coreference written the other way round: the same relation
        f"{new}:47:14: snt2 document ~ :coref (s1z :same-event s2ř) -> "
        ":coref (s2ř :same-event s1z) (the same relation)",
    ]


def test_the_score_report_shows_a_glossed_sentence_s_words_and_glosses(
    tmp_path: Path,
) -> None:
    page = tmp_path / "report.html"
    done = subprocess.run(
        ["amrcheck", "score", "-q", str(DATA / "glossed.umr"),
         str(DATA / "glossed-edited.umr"), "--html", str(page)],
        capture_output=True, text=True, check=False,
    )
    assert done.returncode == 0, done.stderr
    html = expanded(page.read_text(encoding="utf-8"))
    assert (
        '<span class="t">Ninakupenda</span><span class="gloss">1SG.love</span>' in html
    )
    text = page_text(html)
    assert "s1p / penda-01  11:2  · 1-1: Ninakupenda" in text
    assert "s1w / yeye  14:12  · unaligned (0-0)" in text
