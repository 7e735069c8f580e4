"""``amrcheck score`` on UMR files (issue 31)."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

import amrcheck.cli.score  # noqa: F401 -- registers the command
from amrcheck.cli import app
from amrcheck.render import expanded
from tests.render.conftest import page_text

DATA = Path(__file__).parents[1] / "data" / "umr" / "scoring"
runner = CliRunner()


def run(*args: str | Path):
    return runner.invoke(app, ["score", *map(str, args)])


def test_prints_sentence_group_overall_and_umatch_figures() -> None:
    result = run(DATA / "gold.umr", DATA / "missing.umr")
    assert result.exit_code == 1, result.output
    out = result.stdout
    assert "graph snt2: ::id 'snt2' is not in" in out
    for label in (
        "sentence graphs (smatch)",
        "temporal",
        "modal",
        "coref",
        "document level",
        "overall",
        "aligned token sets",
        "node projections",
        "triples in mapped nodes",
        "umatch without document level",
    ):
        assert label in out, label
    assert f"{DATA / 'gold.umr'}:53:17: temporal missing: (s1l :before s2b)" in out
    assert "no sentence snt2" in out


def test_json_has_the_umr_layers_and_umatch() -> None:
    result = run(DATA / "gold.umr", DATA / "concept.umr", "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    layers = report["umr"][str(DATA / "concept.umr")]
    assert layers["temporal"]["f1"] == 1.0
    assert layers["sentences"]["correct"] == 24
    figures = report["umatch"][str(DATA / "concept.umr")]
    assert (figures["umatch"]["correct"], figures["umatch"]["reference"]) == (28, 29)
    assert report["results"][0]["metric"] == "smatch"


def test_umatch_alone_runs_no_search_and_takes_only(tmp_path: Path) -> None:
    result = run(
        DATA / "gold.umr",
        DATA / "concept.umr",
        "-m",
        "umatch",
        "--only",
        "concept",
        "--quiet",
    )
    assert result.exit_code == 0, result.output
    assert result.stdout.strip() == "0.8750"
    result = run(DATA / "gold.umr", DATA / "concept.umr", "-m", "umatch", "--json")
    assert list(json.loads(result.stdout)) == ["version", "umatch"]
    # what umatch alone cannot give is refused, not silently left unwritten
    page, rows = tmp_path / "report.html", tmp_path / "pairs.tsv"
    result = run(
        DATA / "gold.umr", DATA / "concept.umr", "-m", "umatch",
        "--html", page, "--per-pair", rows,
    )
    assert result.exit_code == 2
    assert result.stderr == (
        "amrcheck score: error: --per-pair, --html: -m umatch alone scores no "
        "sentence graph; add a graph metric (-m umatch,smatch) for them\n"
    )
    assert not page.exists() and not rows.exists()
    result = run(
        DATA / "gold.umr", DATA / "concept.umr", "-m", "umatch,smatch",
        "--html", page, "--per-pair", rows, "-q",
    )
    assert result.exit_code == 0, result.output
    assert page.exists() and rows.read_text().count("\n") == 3


def test_per_pair_rows_are_sentences(tmp_path: Path) -> None:
    rows = tmp_path / "pairs.tsv"
    result = run(DATA / "gold.umr", DATA / "broken.umr", "--per-pair", rows)
    assert result.exit_code == 1, result.output
    lines = rows.read_text(encoding="utf-8").splitlines()
    assert [line.split("\t")[2] for line in lines[1:]] == ["snt1", "snt2"]
    assert lines[2].split("\t")[6] == "unreadable"


def test_umatch_on_amr_files_is_an_error(tmp_path: Path) -> None:
    amr = tmp_path / "a.amr"
    amr.write_text("(a / b)\n", encoding="utf-8")
    result = run(amr, amr, "-m", "umatch")
    assert result.exit_code == 2
    assert "umatch compares UMR files" in result.output


def test_iaa_on_umr_gives_each_layer_pairwise_with_intervals() -> None:
    import amrcheck.cli.iaa  # noqa: F401 -- registers the command

    files = [DATA / "gold.umr", DATA / "alignment.umr", DATA / "docrel.umr"]
    result = runner.invoke(app, ["iaa", *map(str, files), "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    layers = {
        (Path(row["a"]).stem, Path(row["b"]).stem): row for row in report["umr_layers"]
    }
    assert set(layers) == {
        ("gold", "alignment"),
        ("gold", "docrel"),
        ("alignment", "docrel"),
    }
    assert layers["gold", "alignment"]["alignment"]["f1"] == 5 / 6
    assert layers["gold", "alignment"]["temporal"]["f1"] == 1.0
    assert layers["gold", "docrel"]["coref"]["f1"] == 0.0
    low, high = (
        layers["gold", "alignment"]["alignment"]["low"],
        layers["gold", "alignment"]["alignment"]["high"],
    )
    assert low <= 5 / 6 <= high
    text = runner.invoke(app, ["iaa", *map(str, files)])
    assert "UMR layers, pairwise" in text.stdout
    assert "adjudication queue" in text.stdout


def test_iaa_on_umr_queues_the_sentences_whose_layers_disagree(tmp_path: Path) -> None:
    import amrcheck.cli.iaa  # noqa: F401 -- registers the command

    # the graphs agree: only the layers' queue can say what to adjudicate
    files = [DATA / "gold.umr", DATA / "alignment.umr", DATA / "docrel.umr"]
    result = runner.invoke(app, ["iaa", *map(str, files), "--json"])
    report = json.loads(result.stdout)
    (sentence,) = report["umr_queue"]
    assert sentence["id"] == "snt2" and sentence["lowest_f1"] == 0.0
    found = {
        (Path(d["a"]).stem, Path(d["b"]).stem, d["layer"]): d["lines"]
        for d in sentence["disagreements"]
    }
    assert found["gold", "alignment", "alignment"] == [
        f"{DATA / 'gold.umr'}:49:1: s2b2: 3-4: alignment missing",
        f"{DATA / 'alignment.umr'}:49:1: s2b2: 4-4: alignment extra",
    ]
    assert found["gold", "docrel", "coref"] == [
        f"{DATA / 'gold.umr'}:55:14: coref missing: (s1p :same-entity s2p)"
    ]
    assert ("gold", "docrel", "alignment") not in found
    text = runner.invoke(app, ["iaa", *map(str, files)]).stdout
    queue = text[text.index("UMR layers: adjudication queue"):]
    assert "  gold vs docrel  coref F1 0.0000" in queue
    missing = f"{DATA / 'gold.umr'}:55:14: coref missing: (s1p :same-entity s2p)"
    assert f"    {missing}" in queue
    agreed = runner.invoke(
        app, ["iaa", str(DATA / "gold.umr"), str(DATA / "concept.umr")]
    )
    assert (
        "the annotators agree on every sentence's words, alignment, temporal, "
        "modal and coref."
    ) in agreed.stdout
    # the words layer: annotators who tokenized a sentence otherwise
    text = (DATA / "gold.umr").read_text(encoding="utf-8")
    retokenized = tmp_path / "words.umr"
    retokenized.write_text(
        text.replace("Words: She bought a  book .", "Words: She bought a book ,"),
        encoding="utf-8",
    )
    result = runner.invoke(app, ["iaa", str(DATA / "gold.umr"), str(retokenized)])
    queue = result.stdout[result.stdout.index("UMR layers: adjudication queue"):]
    assert queue.startswith(
        "UMR layers: adjudication queue (lowest F1 first; words, alignment, "
        "temporal, modal, coref):"
    )
    assert f"    {DATA / 'gold.umr'}:35:27: words missing: '.'" in queue, queue
    assert f"    {retokenized}:35:26: words extra: ','" in queue, queue


def test_html_report_draws_the_umr_sentence_graphs(tmp_path: Path) -> None:
    page = tmp_path / "report.html"
    result = run(DATA / "gold.umr", DATA / "concept.umr", "--html", page, "-q")
    assert result.exit_code == 0, result.output
    # sections are packed until they scroll into view: read them inflated
    html = expanded(page.read_text(encoding="utf-8"))
    assert "snt2" in html and "magazine" in html
    # each sentence's words under each drawing, every word naming its nodes
    assert '<p class="words">' in html
    assert (
        '<span class="w" data-i="4" data-n="v:s2b2" title="4: book → s2b2">' in html
    )
    # and each node its words, or that it is aligned to none
    text = page_text(html)
    assert "s2b2 / book  42:12  · 3-4: a book" in text
    assert "s2b2 / magazine  42:12  · 3-4: a book" in text
    assert "s2p / person  39:12  · 1-1: She" in text
    assert "UMR: each node shows the words it is aligned to" in text  # the key
    # the document-level figures of the terminal report head the page
    missing = tmp_path / "missing.html"
    result = run(DATA / "gold.umr", DATA / "missing.umr", "--html", missing, "-q")
    assert result.exit_code == 1, result.output  # snt2 counted as empty
    head = page_text(missing.read_text(encoding="utf-8"))
    assert (
        f"{DATA / 'missing.umr'}: UMR layers F1 — sentence graphs (smatch) 0.7500 · "
        "temporal 0.6667 · modal 0.8000 · coref 0.0000 · document level 0.6667 · "
        "overall 0.7347"
    ) in head, head
    assert f"{DATA / 'missing.umr'}: umatch F1 0.7391 (without the document" in head
    assert f"{DATA / 'gold.umr'}:55:14: coref missing: (s1p :same-entity s2p)" in head


def test_html_report_shows_a_pair_that_differs_only_in_alignments(
    tmp_path: Path,
) -> None:
    page = tmp_path / "report.html"
    result = run(DATA / "gold.umr", DATA / "alignment.umr", "--html", page, "-q")
    assert result.exit_code == 0, result.output
    html = expanded(page.read_text(encoding="utf-8"))
    # the graphs are identical, their alignments are not: drawn, and said
    assert '<tr data-status="realigned" data-section="g1">' in html
    assert "alignment of s2b2: 3-4: a book → 4-4: book" in page_text(html)
    assert '<tr data-status="identical" class="hidden">' in html  # snt1


def test_html_report_on_a_release_file_links_nodes_and_words(tmp_path: Path) -> None:
    # the English release as released (its own layout), one concept edited
    release = Path(__file__).parents[2] / ".." / "shared" / "data" / "umr"
    gold = release / "english" / "english_umr-0003.umr"
    edited = tmp_path / "edited.umr"
    text = gold.read_text(encoding="utf-8")
    assert "(s1f / freedom)" in text
    edited.write_text(text.replace("(s1f / freedom)", "(s1f / liberty)"))
    page = tmp_path / "report.html"
    result = run(gold, edited, "--html", page, "-q")
    assert result.exit_code == 0, result.output
    html = expanded(page.read_text(encoding="utf-8"))
    # "Edmund Pope" (words 1-2) is the name node's, both sides
    for word, position in (("Edmund", 1), ("Pope", 2)):
        chip = (
            f'<span class="w" data-i="{position}" data-n="v:s1n" '
            f'title="{position}: {word} → s1n">'
        )
        assert html.count(chip) == 2, word
    text = page_text(html)
    assert "s1f / freedom  11:12  · 4-4: freedom" in text
    assert "s1f / liberty  11:12  · 4-4: freedom" in text
    assert "s1p / person  9:12  · unaligned (0-0)" in text
    assert "s1n / name  10:16  · 1-2: Edmund Pope" in text


def test_a_umr_file_named_amr_is_read_as_amr_and_the_report_says_to_rename_it(
    tmp_path: Path,
) -> None:
    named_amr = tmp_path / "gold.amr"
    named_amr.write_bytes((DATA / "gold.umr").read_bytes())
    result = run(named_amr, named_amr)
    assert result.exit_code == 1, result.output
    assert (
        f"{named_amr} holds UMR blocks but is named .amr, so it was read as AMR; "
        "name it .umr to score it as UMR"
    ) in result.stderr
    assert "document level" not in result.stdout  # no UMR layer: read as AMR


def test_an_amr_file_with_a_broken_graph_gets_no_umr_hint(tmp_path: Path) -> None:
    broken = tmp_path / "broken.amr"
    broken.write_text("(a / apple)\n\n(b / boy :ARG0\n", encoding="utf-8")
    result = run(broken, broken)
    assert result.exit_code == 1, result.output
    assert "holds UMR blocks" not in result.stderr
