"""``amrcheck diff`` on UMR files: every layer's changes, with places."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from amrcheck.workflows.umr_diff import diff_umr
from tests.conftest import TEST_DATA

VALID = TEST_DATA / "umr" / "valid.umr"


def _edited(tmp_path: Path, *pairs: tuple[str, str]) -> Path:
    text = VALID.read_text()
    for old, new in pairs:
        assert old in text
        text = text.replace(old, new, 1)
    path = tmp_path / "new.umr"
    path.write_text(text)
    return path


def test_no_change_when_only_the_layout_differs(tmp_path: Path) -> None:
    new = _edited(
        tmp_path,
        (
            "    :aspect performance)\n\n# alignment:",
            "    :aspect performance)\n# alignment:",
        ),
        ("Words: Mary", "Words(English): Mary"),
    )
    assert list(diff_umr(VALID, new)) == []


def test_each_layer_reports_its_changes_with_places(tmp_path: Path) -> None:
    new = _edited(
        tmp_path,
        ("    :ARG1 (s1c / city", "    :ARG2 (s1c / city"),  # graph
        ("s1c: 3-3", "s1c: 3-4"),  # alignment
        ("(author :full-affirmative s2b)", "(author :partial-affirmative s2b)"),
        ("Words: She bought a  book .", "Words: She bought the book ."),
    )
    changes = [str(c) for c in diff_umr(VALID, new)]
    assert changes == [
        f"{new}:12:5: snt1 graph + (s1l :ARG2 s1c)",
        f"{VALID}:12:5: snt1 graph - (s1l :ARG1 s1c)",
        f"{new}:21:1: snt1 alignment ~ s1c: 3-3 -> 3-4",
        f"{new}:35:8: snt2 words ~ 'She bought a book .' -> 'She bought the book .'",
        f"{new}:54:14: snt2 document + :modal (author :partial-affirmative s2b)",
        f"{VALID}:54:14: snt2 document - :modal (author :full-affirmative s2b)",
    ]


def test_added_and_removed_sentences(tmp_path: Path) -> None:
    first = VALID.read_text().split("\n\n\n", 1)[0] + "\n\n\n"
    path = tmp_path / "one.umr"
    path.write_text(first)
    assert [str(c) for c in diff_umr(VALID, path)] == [
        f"{VALID}:31:1: snt2 sentence - removed"
    ]
    assert [str(c) for c in diff_umr(path, VALID)] == [
        f"{VALID}:31:1: snt2 sentence + added"
    ]


def test_cli_text_json_and_exit_status(tmp_path: Path) -> None:
    new = _edited(tmp_path, ("s1l: 2-2", "s1l: 0-0"))
    same = subprocess.run(
        ["amrcheck", "diff", str(VALID), str(VALID)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert (same.returncode, same.stdout) == (0, "No changes.\n")
    done = subprocess.run(
        ["amrcheck", "diff", "--json", str(VALID), str(new)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 1
    assert json.loads(done.stdout)["changes"] == [
        {
            "sentence": "snt1",
            "layer": "alignment",
            "change": "changed",
            "text": "s1l: 2-2 -> 0-0",
            "path": str(new),
            "line": 18,
            "column": 1,
        }
    ]


def test_unreadable_file_is_one_located_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad.umr"
    bad.write_bytes(VALID.read_bytes().replace(b"Mary", b"M\xe4ry"))
    done = subprocess.run(
        ["amrcheck", "diff", str(VALID), str(bad)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2
    assert (
        done.stderr
        == f"amrcheck diff: cannot read {bad}: 5:9: not valid UTF-8 (byte 0xe4)\n"
    )


SCORING = TEST_DATA / "umr" / "scoring"


def test_a_graph_that_cannot_be_read_is_said_not_all_removed() -> None:
    broken = SCORING / "broken.umr"
    changes = [str(c) for c in diff_umr(SCORING / "gold.umr", broken)]
    assert changes == [
        f"{broken}:43:31: snt2 graph ! cannot be read: U201 unbalanced "
        "parentheses: 1 '(' not closed"
    ]
    # the same broken text in both versions: nothing changed
    assert list(diff_umr(broken, broken)) == []
    (change,) = diff_umr(broken, SCORING / "gold.umr")
    assert change.to_dict()["change"] == "unreadable" and change.path == str(broken)


def test_html_report_draws_each_layer_s_changes(tmp_path: Path) -> None:
    from amrcheck.render import expanded
    from tests.render.conftest import page_text

    page = tmp_path / "diff.html"
    done = subprocess.run(
        ["amrcheck", "diff", "-q", str(SCORING / "gold.umr"),
         str(SCORING / "alignment.umr"), "--html", str(page)],
        capture_output=True, text=True, check=False,
    )
    assert done.returncode == 1, done.stderr
    html = expanded(page.read_text(encoding="utf-8"))
    # the graphs are the same; the alignment is not: drawn, and listed
    assert '<tr data-status="other layers" data-section="g1">' in html
    text = page_text(html)
    assert (
        f"{SCORING / 'alignment.umr'}:49:1: snt2 alignment ~ s2b2: 3-4 -> 4-4" in text
    )
    assert "s2b2 / book  42:12  · 4-4: book" in text  # the new alignment, drawn
    assert "s2b2 / book  42:12  · 3-4: a book" in text  # and the old one


def test_options_for_amr_files_only_are_refused_on_umr() -> None:
    done = subprocess.run(
        ["amrcheck", "diff", str(VALID), str(VALID), "--stat", "--by", "position"],
        capture_output=True, text=True, check=False,
    )
    assert done.returncode == 2
    assert done.stderr == (
        "amrcheck diff: error: --stat, --by: AMR files only; UMR files are compared "
        "layer by layer, sentences paired by number (docs/umr.md)\n"
    )


def test_gloss_morpheme_and_translation_rows_are_words_changes(tmp_path: Path) -> None:
    glossed = TEST_DATA / "umr" / "multilingual" / "glossed.umr"
    text = glossed.read_text(encoding="utf-8")
    for old, new in (
        ("Word Gloss (en): 1SG.love  much", "Word Gloss (en): 1SG.love  very"),
        ("Morphemes:       ni-na-ku-penda", "Morphemes:       ni-na-ku-pend-a"),
        (
            "Sentence Gloss (en): I love you very much.",
            "Translation(English): I love you so much.",
        ),
    ):
        assert old in text
        text = text.replace(old, new, 1)
    new_path = tmp_path / "new.umr"
    new_path.write_text(text, encoding="utf-8")
    assert [str(c) for c in diff_umr(glossed, new_path)] == [
        f"{new_path}:6:1: snt1 words ~ Word Gloss (en): '1SG.love much .' -> "
        "'1SG.love very .'",
        f"{new_path}:7:1: snt1 words ~ Morphemes: 'ni-na-ku-penda sana .' -> "
        "'ni-na-ku-pend-a sana .'",
        f"{new_path}:8:1: snt1 words + Translation (English): 'I love you so much.'",
        f"{glossed}:8:1: snt1 words - Sentence Gloss (en): 'I love you very much.'",
    ]
    # white space inside a row is layout, not a change
    spaced = tmp_path / "spaced.umr"
    spaced.write_text(
        glossed.read_text(encoding="utf-8").replace("1SG.love  much", "1SG.love much"),
        encoding="utf-8",
    )
    assert list(diff_umr(glossed, spaced)) == []


def test_cli_refuses_a_umr_file_against_an_amr_file() -> None:
    amr = Path(__file__).parents[2] / "examples" / "annotations_v1.amr"
    for old, new in ((VALID, amr), (amr, VALID)):
        done = subprocess.run(
            ["amrcheck", "diff", str(old), str(new)],
            capture_output=True, text=True, check=False,
        )
        assert (done.returncode, done.stdout) == (2, ""), done.stderr
        assert done.stderr == (
            f"amrcheck diff: error: {VALID} is a UMR file and {amr} is not: diff "
            "compares two versions of one kind (UMR layer by layer, docs/umr.md)\n"
        )
