"""``amr-iaa`` and ``amr-regress`` on UMR files (issue 31): graphs by sentence."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from amrcheck.hooks.iaa import main as iaa_main
from amrcheck.hooks.regress import main as regress_main

from .conftest import git

DATA = Path(__file__).parents[1] / "data" / "umr" / "scoring"


def test_amr_iaa_fails_on_a_broken_umr_sentence_and_names_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / ".git").mkdir()
    for folder in ("a", "b"):
        (tmp_path / folder).mkdir()
    shutil.copy(DATA / "gold.umr", tmp_path / "a" / "x.umr")
    shutil.copy(DATA / "gold.umr", tmp_path / "b" / "x.umr")
    (tmp_path / ".amrcheck.toml").write_text(
        '[[iaa]]\nfiles = ["a/{d}.umr", "b/{d}.umr"]\nmin-graph-f1 = 0.9\n'
    )
    monkeypatch.chdir(tmp_path)
    assert iaa_main(["b/x.umr"]) == 0
    shutil.copy(DATA / "broken.umr", tmp_path / "b" / "x.umr")
    assert iaa_main(["b/x.umr"]) == 1
    out = capsys.readouterr().out
    assert "graph snt2" in out and "b/x.umr:43:31" in out, out


def test_amr_regress_scores_umr_output_against_its_umr_reference(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / ".git").mkdir()
    for folder in ("gold", "parser"):
        (tmp_path / folder).mkdir()
    shutil.copy(DATA / "gold.umr", tmp_path / "gold" / "x.umr")
    shutil.copy(DATA / "concept.umr", tmp_path / "parser" / "x.umr")
    (tmp_path / ".amrcheck.toml").write_text(
        '[[regress.reference]]\nfiles = "parser/{doc}.umr"\n'
        'reference = "gold/{doc}.umr"\nmin-f1 = 0.99\n'
    )
    monkeypatch.chdir(tmp_path)
    assert regress_main(["parser/x.umr"]) == 1
    out = capsys.readouterr().out
    assert "snt2" in out and "magazine" in out, out


def test_amr_regress_against_head_on_a_czech_umr_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # a UMR repository: the committed version is the reference; non-ASCII
    # variables and lemmas (s2ř, zvýšit-se-001) in the places it prints
    czech = DATA.parent / "multilingual"
    git(tmp_path, "init", "-q")
    (tmp_path / "gold").mkdir()
    shutil.copy(czech / "czech.umr", tmp_path / "gold" / "cs.umr")
    (tmp_path / ".amrcheck.toml").write_text(
        '[[regress.head]]\nfiles = "gold/{doc}.umr"\nmax-changed-graphs = 0\n'
    )
    git(tmp_path, "add", "-A")
    git(tmp_path, "commit", "-q", "-m", "annotations")
    monkeypatch.chdir(tmp_path)
    assert regress_main(["gold/cs.umr"]) == 0
    # renaming nodes (s1z -> s1ž, in graph, alignment and document level) is
    # no change in any layer
    shutil.copy(czech / "czech-renamed.umr", tmp_path / "gold" / "cs.umr")
    assert regress_main(["gold/cs.umr"]) == 0, capsys.readouterr().out
    shutil.copy(czech / "czech-edited.umr", tmp_path / "gold" / "cs.umr")
    assert regress_main(["gold/cs.umr"]) == 1
    out = capsys.readouterr().out
    assert "gold/cs.umr:31:1: graph snt2: smatch F1 0.8750" in out
    assert "HEAD:gold/cs.umr:34:12: removed since HEAD: (s2v / vláda)" in out
    assert "gold/cs.umr:34:12: added since HEAD: (s2v / parlament)" in out


def _umr_repository(tmp_path: Path, config: str) -> None:
    """A git repository whose committed gold/x.umr is the gold UMR file."""
    git(tmp_path, "init", "-q")
    (tmp_path / "gold").mkdir()
    shutil.copy(DATA / "gold.umr", tmp_path / "gold" / "x.umr")
    (tmp_path / ".amrcheck.toml").write_text(config)
    git(tmp_path, "add", "-A")
    git(tmp_path, "commit", "-q", "-m", "annotations")


def test_amr_regress_counts_a_changed_alignment_as_a_changed_sentence(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # alignment.umr differs from gold.umr in one alignment line only: the
    # sentence graph scores 1, and the change still counts
    _umr_repository(
        tmp_path, '[[regress.head]]\nfiles = "gold/{doc}.umr"\nmax-changed-graphs = 0\n'
    )
    monkeypatch.chdir(tmp_path)
    shutil.copy(DATA / "alignment.umr", tmp_path / "gold" / "x.umr")
    assert regress_main(["gold/x.umr"]) == 1
    out = capsys.readouterr().out
    assert (
        "gold/x.umr: max-changed-graphs: 1 graph changed since HEAD "
        "(alignment changed in 1 graph); at most 0 allowed"
    ) in out, out
    assert (
        "gold/x.umr:38:1: graph snt2: smatch F1 1.0000: alignment changed since HEAD"
    ) in out, out
    assert "  gold/x.umr:49:1: snt2 alignment ~ s2b2: 3-4 -> 4-4" in out, out


def test_amr_regress_counts_changed_document_triples_not_rewritten_ones(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _umr_repository(
        tmp_path, '[[regress.head]]\nfiles = "gold/{doc}.umr"\nmax-changed-graphs = 0\n'
    )
    monkeypatch.chdir(tmp_path)
    # docrel.umr drops snt2's coref triple: the removed triple at HEAD's place
    shutil.copy(DATA / "docrel.umr", tmp_path / "gold" / "x.umr")
    assert regress_main(["gold/x.umr"]) == 1
    out = capsys.readouterr().out
    assert "(document-level triples changed in 1 graph)" in out, out
    assert "graph snt2: smatch F1 1.0000: document-level triples changed" in out
    assert (
        "  HEAD:gold/x.umr:55:14: snt2 document - :coref (s1p :same-entity s2p)"
    ) in out, out
    # the same relation written the other way round is no change
    text = (DATA / "gold.umr").read_text(encoding="utf-8")
    assert "(s1l :before s2b)" in text
    (tmp_path / "gold" / "x.umr").write_text(
        text.replace("(s1l :before s2b)", "(s2b :after s1l)"), encoding="utf-8"
    )
    assert regress_main(["gold/x.umr"]) == 0, capsys.readouterr().out


def test_amr_regress_min_layer_f1_against_a_umr_reference(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / ".git").mkdir()
    for folder in ("gold", "parser"):
        (tmp_path / folder).mkdir()
    shutil.copy(DATA / "gold.umr", tmp_path / "gold" / "x.umr")
    shutil.copy(DATA / "alignment.umr", tmp_path / "parser" / "x.umr")
    rule = (
        '[[regress.reference]]\nfiles = "parser/{doc}.umr"\n'
        'reference = "gold/{doc}.umr"\n'
    )
    (tmp_path / ".amrcheck.toml").write_text(
        rule + "min-layer-f1 = {alignment = 0.9, coref = 0.8}\n"
    )
    monkeypatch.chdir(tmp_path)
    assert regress_main(["parser/x.umr"]) == 1
    out = capsys.readouterr().out
    assert (
        "parser/x.umr: min-layer-f1: alignment F1 0.8333 is below 0.9 against "
        "gold/x.umr; 1 of 2 sentences differ"
    ) in out, out
    assert "parser/x.umr:38:1: graph snt2: alignment F1 0.6667" in out, out
    assert "  gold/x.umr:49:1: s2b2: 3-4: alignment missing" in out, out
    assert "  parser/x.umr:49:1: s2b2: 4-4: alignment extra" in out, out
    assert "coref" not in out  # the coref layer agrees
    # separate thresholds: 0.8333 meets 0.8
    (tmp_path / ".amrcheck.toml").write_text(
        rule + "[regress.reference.min-layer-f1]\nalignment = 0.8\ncoref = 0.8\n"
    )
    assert regress_main(["parser/x.umr"]) == 0, capsys.readouterr().out
    shutil.copy(DATA / "docrel.umr", tmp_path / "parser" / "x.umr")
    assert regress_main(["parser/x.umr"]) == 1
    out = capsys.readouterr().out
    assert "min-layer-f1: coref F1 0.0000 is below 0.8 against gold/x.umr" in out
    assert "  gold/x.umr:55:14: coref missing: (s1p :same-entity s2p)" in out, out


def test_amr_regress_min_layer_f1_on_an_amr_file_says_it_has_no_layers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / ".git").mkdir()
    graph = "# ::id a\n(w / want-01 :ARG0 (b / boy))\n"
    (tmp_path / "gold.amr").write_text(graph)
    (tmp_path / "out.amr").write_text(graph)
    (tmp_path / ".amrcheck.toml").write_text(
        '[[regress.reference]]\nfiles = "out.amr"\nreference = "gold.amr"\n'
        "min-layer-f1 = {alignment = 0.9}\n"
    )
    monkeypatch.chdir(tmp_path)
    assert regress_main(["out.amr"]) == 1
    out = capsys.readouterr().out
    assert "out.amr: min-layer-f1: .amrcheck.toml: regress.reference[1] sets UMR" in out
    assert "but out.amr and gold.amr are not both UMR files" in out, out


def test_amr_iaa_min_layer_f1_lists_the_lowest_sentences_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / ".git").mkdir()
    for folder in ("a", "b"):
        (tmp_path / folder).mkdir()
    shutil.copy(DATA / "gold.umr", tmp_path / "a" / "x.umr")
    # annotator b aligns one node of snt1 and two of snt2 otherwise
    text = (DATA / "alignment.umr").read_text(encoding="utf-8")
    for old, new in (("s1c: 3-3", "s1c: 3-4"), ("s2p: 1-1", "s2p: 1-2")):
        assert old in text
        text = text.replace(old, new)
    (tmp_path / "b" / "x.umr").write_text(text, encoding="utf-8")
    (tmp_path / ".amrcheck.toml").write_text(
        '[[iaa]]\nfiles = ["a/{d}.umr", "b/{d}.umr"]\n'
        "min-layer-f1 = {alignment = 0.9, temporal = 1, modal = 1, coref = 1}\n"
    )
    monkeypatch.chdir(tmp_path)
    assert iaa_main(["b/x.umr"]) == 1
    out = capsys.readouterr().out
    assert (
        "a/x.umr vs b/x.umr: min-layer-f1: alignment F1 0.5000 (95% CI "
    ) in out, out
    assert "is below 0.9; 2 of 2 sentences differ" in out, out
    lowest = out.index("b/x.umr:38:1: graph snt2: alignment F1 0.3333")
    assert lowest < out.index("b/x.umr:8:1: graph snt1: alignment F1 0.6667"), out
    assert "  a/x.umr:48:1: s2p: 1-1: alignment missing" in out, out
    assert "  b/x.umr:48:1: s2p: 1-2: alignment extra" in out, out
    for layer in ("temporal", "modal", "coref"):
        assert f"{layer} F1" not in out  # the document-level layers agree
    assert iaa_main(["--show", "1", "b/x.umr"]) == 1
    out = capsys.readouterr().out
    assert "graph snt1" not in out and "... and 1 more graph" in out, out


def test_amr_regress_min_layer_f1_against_head(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # the same key as against a reference, in a [[regress.head]] rule: each
    # layer of the new version against the committed one
    rule = '[[regress.head]]\nfiles = "gold/{doc}.umr"\n'
    _umr_repository(tmp_path, rule + "min-layer-f1 = {alignment = 0.9, coref = 1}\n")
    monkeypatch.chdir(tmp_path)
    assert regress_main(["gold/x.umr"]) == 0, capsys.readouterr().out
    shutil.copy(DATA / "alignment.umr", tmp_path / "gold" / "x.umr")
    assert regress_main(["gold/x.umr"]) == 1
    out = capsys.readouterr().out
    assert (
        "gold/x.umr: min-layer-f1: alignment F1 0.8333 is below 0.9 against "
        "HEAD; 1 of 2 sentences differ"
    ) in out, out
    assert "gold/x.umr:38:1: graph snt2: alignment F1 0.6667" in out, out
    assert "  HEAD:gold/x.umr:49:1: s2b2: 3-4: alignment missing" in out, out
    assert "  gold/x.umr:49:1: s2b2: 4-4: alignment extra" in out, out
    assert "coref" not in out and "max-changed-graphs" not in out, out
    # a dropped coref triple fails its layer, at HEAD's place of the triple
    shutil.copy(DATA / "docrel.umr", tmp_path / "gold" / "x.umr")
    assert regress_main(["gold/x.umr"]) == 1
    out = capsys.readouterr().out
    assert "min-layer-f1: coref F1 0.0000 is below 1 against HEAD" in out, out
    assert "  HEAD:gold/x.umr:55:14: coref missing: (s1p :same-entity s2p)" in out


def test_amr_regress_min_layer_f1_against_head_of_an_amr_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    git(tmp_path, "init", "-q")
    (tmp_path / "x.amr").write_text("# ::id a\n(w / want-01 :ARG0 (b / boy))\n")
    (tmp_path / ".amrcheck.toml").write_text(
        '[[regress.head]]\nfiles = "x.amr"\nmin-layer-f1 = {modal = 1}\n'
    )
    git(tmp_path, "add", "-A")
    git(tmp_path, "commit", "-q", "-m", "graphs")
    monkeypatch.chdir(tmp_path)
    assert regress_main(["x.amr"]) == 1
    out = capsys.readouterr().out
    assert (
        "x.amr: min-layer-f1: .amrcheck.toml: regress.head[1] sets UMR layer "
        "thresholds, but x.amr and its HEAD version are not both UMR files"
    ) in out, out


def test_amr_regress_reports_changed_words_and_gloss_rows_since_head(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # a glossed sentence: its words and its gloss row edited, graph and
    # alignment unchanged
    glossed = DATA.parent / "multilingual" / "glossed.umr"
    git(tmp_path, "init", "-q")
    (tmp_path / "gold").mkdir()
    shutil.copy(glossed, tmp_path / "gold" / "sw.umr")
    rule = '[[regress.head]]\nfiles = "gold/{doc}.umr"\n'
    (tmp_path / ".amrcheck.toml").write_text(rule + "max-changed-graphs = 0\n")
    git(tmp_path, "add", "-A")
    git(tmp_path, "commit", "-q", "-m", "annotations")
    monkeypatch.chdir(tmp_path)
    text = glossed.read_text(encoding="utf-8")
    for old, new in (
        ("Words:           Ninakupenda sana .", "Words:           Nakupenda sana ."),
        ("Word Gloss (en): 1SG.love  much", "Word Gloss (en): 1SG.love  very"),
    ):
        assert old in text
        text = text.replace(old, new)
    (tmp_path / "gold" / "sw.umr").write_text(text, encoding="utf-8")
    assert regress_main(["gold/sw.umr"]) == 1
    out = capsys.readouterr().out
    assert (
        "gold/sw.umr: max-changed-graphs: 1 graph changed since HEAD "
        "(words changed in 1 graph); at most 0 allowed"
    ) in out, out
    assert "graph snt1: smatch F1 1.0000: words changed since HEAD" in out, out
    assert (
        "  gold/sw.umr:5:18: snt1 words ~ 'Ninakupenda sana .' -> 'Nakupenda sana .'"
    ) in out, out
    assert (
        "  gold/sw.umr:6:1: snt1 words ~ Word Gloss (en): '1SG.love much .' -> "
        "'1SG.love very .'"
    ) in out, out
    # the words layer of min-layer-f1 against HEAD: 2 of 3 tokens kept
    (tmp_path / ".amrcheck.toml").write_text(rule + "min-layer-f1 = {words = 1}\n")
    assert regress_main(["gold/sw.umr"]) == 1
    out = capsys.readouterr().out
    assert (
        "gold/sw.umr: min-layer-f1: words F1 0.6667 is below 1 against HEAD; "
        "1 of 1 sentences differ"
    ) in out, out
    assert "  HEAD:gold/sw.umr:5:18: words missing: 'Ninakupenda'" in out, out
    assert "  gold/sw.umr:5:18: words extra: 'Nakupenda'" in out, out
