"""Where a missing ")" belongs (E001): the indentation says (issue 29)."""

from __future__ import annotations

from typer.testing import CliRunner

import amrcheck.cli.check  # noqa: F401  (registers the command on `app`)
from amrcheck import read_corpus, read_string, validate
from amrcheck.cli import app
from amrcheck.reading._parse import tokenize
from amrcheck.reading.closing import certain_closers, closing_places
from tests.conftest import shared_path

LITTLE_PRINCE = shared_path("little_prince/amr-bank-struct-v3.0.txt")


def little_prince_2_without_a_paren() -> tuple[str, int]:
    """lpp_1943.2 with the ")" after "magnificent" taken out, and where it was."""
    entry = read_corpus(LITTLE_PRINCE).by_id()["lpp_1943.2"]
    text = entry.text
    gap = text.index("(m / magnificent)") + len("(m / magnificent")
    return text[:gap] + text[gap + 1 :], gap


def test_e001_sits_where_the_subtree_ended_with_its_paren_related() -> None:
    broken, gap = little_prince_2_without_a_paren()
    corpus = read_string(broken, "lp.amr")
    [error] = [f for f in validate(corpus) if f.code == "E001"]
    # right after "magnificent", not at the graph's end
    assert error.span.start == error.span.end == gap
    assert broken[: error.span.start].endswith("(m / magnificent")
    [related] = error.related
    assert related.span.text == "(" and broken[related.span.start :].startswith(
        "(m / magnificent"
    )
    assert related.message == "this '(' is not closed"


def test_check_cli_points_at_the_same_place(tmp_path) -> None:
    broken, gap = little_prince_2_without_a_paren()
    path = tmp_path / "lp.amr"
    path.write_text(broken, encoding="utf-8")
    line = broken.count("\n", 0, gap) + 1
    column = gap - broken.rfind("\n", 0, gap)
    result = CliRunner().invoke(app, ["check", str(path), "--select", "E"])
    assert result.exit_code == 1
    assert result.stdout.startswith(
        f"{path}:{line}:{column}: E001 unbalanced parentheses: 1 '(' not closed"
    )


def places(text: str) -> list[tuple[int, int]] | None:
    found = closing_places(text, tokenize(text))
    return None if found is None else [(c.at, c.opening) for c in found]


def test_a_role_belongs_to_the_node_open_on_the_nearest_shallower_line() -> None:
    text = "(a / b\n  :ARG0 (c / d\n    :mod (e / f\n  :ARG1 (g / h))"
    # ":ARG1" is indented as ":ARG0": "(e" and "(c" end before it
    assert places(text) == [
        (text.index("f") + 1, text.index("(e")),
        (text.index("f") + 1, text.index("(c")),
    ]
    assert certain_closers(text, tokenize(text)) == [text.index("f") + 1] * 2


def test_nothing_missing_and_no_place_named() -> None:
    assert places("(a / b\n  :ARG0 (c / d))") == []
    # a role indented under a node that a ")" already closed: no place
    assert places("(a / b\n  :ARG0 (c / d))\n      :mod (e / f)") is None
    # a role at the top's own depth: nothing to hang it on
    assert places("  (a / b\n:ARG0 (c / d)") is None


def test_no_fix_where_one_line_leaves_the_place_open() -> None:
    for text in (
        "(a / b :ARG0 (i / i :ARG1 (c / d))",
        # ':op2' may be the name's or "(a"'s
        '(a / b\n  :name (n / name :op1 "True" :op2 "Stories"\n  :mod (x / y))',
    ):
        assert certain_closers(text, tokenize(text)) is None, text


def test_no_fix_where_the_indentation_is_uneven() -> None:
    # the roles of "(a" are indented twice differently: no tree fits them all
    text = "(a / b\n  :ARG0 (c / d\n    :ARG1 (e / f)\n   :mod (g / h)"
    assert certain_closers(text, tokenize(text)) is None


def test_comments_and_alignments_are_not_places() -> None:
    text = "(a / b~e.1\n  :ARG0 (c / d~e.2  # the boy\n  :ARG1 (e / f))"
    at = text.index("~e.2") + len("~e.2")
    assert certain_closers(text, tokenize(text)) == [at]


def test_no_fix_after_a_role_without_its_target() -> None:
    # the next graph's "(" at column 1 cut this one after ":mod"
    text = "(a / b\n  :ARG0 (c / d\n  :mod\n(e / f)"
    corpus = read_string(text)
    [error] = [f for f in validate(corpus) if f.code == "E001"]
    graph_end = text.index(":mod") + len(":mod")
    assert certain_closers(text, tokenize(text, 0, graph_end)) is None
    assert error.span.start <= graph_end
