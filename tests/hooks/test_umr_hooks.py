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
    shutil.copy(czech / "czech-edited.umr", tmp_path / "gold" / "cs.umr")
    assert regress_main(["gold/cs.umr"]) == 1
    out = capsys.readouterr().out
    assert "gold/cs.umr:31:1: graph snt2: smatch F1 0.8750" in out
    assert "HEAD:gold/cs.umr:34:12: removed since HEAD: (s2v / vláda)" in out
    assert "gold/cs.umr:34:12: added since HEAD: (s2v / parlament)" in out
