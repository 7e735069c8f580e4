"""Validation rules: fixtures per code, real corpora, rule table and docs."""

from __future__ import annotations

import gc
import json
import random
import re
import subprocess
import sys
from pathlib import Path
from types import FrameType

import pytest

from amrcheck import Finding, Severity, decode, read_corpus, read_string, validate
from amrcheck.reading.incremental import reparse
from amrcheck.validation.propbank import FrameInventory, is_frame_concept, load_frames
from amrcheck.validation.rules import RULES, check_patterns, select_findings
from amrcheck.validation.validate import (
    GraphFindingsCache,
    is_amr_role,
    role_problem,
    validate_graph,
)
from tests.conftest import REPO, SHARED_AMR_FILES, data_path, shared_path

RULE_FIXTURES = sorted(data_path("rules").glob("*.amr"))
_EXPECT_RE = re.compile(r"# expect: (\w+) (\d+):(\d+)$", re.MULTILINE)
#: every rule fixture, one after the other (each finding at least once)
RULE_TEXTS = "\n\n".join(p.read_text() for p in RULE_FIXTURES)


def codes(text: str) -> list[str]:
    return [f.code for f in validate(read_string(text))]


# -- one fixture per rule, at a known line:column ---------------------------------


@pytest.mark.parametrize("path", RULE_FIXTURES, ids=lambda p: p.stem)
def test_rule_fixture_triggers_its_code_at_known_place(path: Path) -> None:
    expected = [
        (code, int(line), int(col))
        for code, line, col in _EXPECT_RE.findall(path.read_text())
    ]
    assert any(code == path.stem for code, _, _ in expected)
    found = [(f.code, f.span.line, f.span.column) for f in validate(read_corpus(path))]
    assert found == expected


def test_every_rule_has_a_fixture_and_every_fixture_a_rule() -> None:
    assert {p.stem for p in RULE_FIXTURES} == set(RULES)


def test_docs_table_lists_every_rule_with_its_severity() -> None:
    text = (REPO / "docs" / "rules.md").read_text()
    rows = dict(re.findall(r"^\| `?([EW]\d{3})`? \| (error|warning) \|", text, re.M))
    assert rows == {code: rule.severity.value for code, rule in RULES.items()}


def test_findings_carry_the_severity_of_their_rule() -> None:
    for path in RULE_FIXTURES:
        for finding in validate(read_corpus(path)):
            assert finding.severity is RULES[finding.code].severity


# -- real data ---------------------------------------------------------------------

GUIDELINES = "amr_guidelines/guidelines_examples.amr"


@pytest.mark.parametrize(
    "path", SHARED_AMR_FILES, ids=lambda p: str(p.relative_to(p.parents[2]))
)
def test_no_errors_on_real_data(path: Path) -> None:
    errors = [f for f in validate(read_corpus(path)) if f.is_error]
    if path == shared_path(GUIDELINES):
        # The only exception: two side-by-side "correct  NOT:  wrong" blocks
        # of the guidelines, genuinely malformed (penman silently stops
        # reading at them). The reader reports the stray "NOT:" and nothing
        # else is an error.
        assert [(f.code, f.span.line, f.span.column) for f in errors] == [
            ("E006", 547, 28),
            ("E006", 553, 28),
        ]
    else:
        assert errors == []


GOLD_CORPORA = [
    "little_prince/amr-bank-struct-v3.0.txt",
    "bio_amr/amr-release-dev-bio.txt",
    "bio_amr/amr-release-test-bio.txt",
]


def documented_gold_warnings() -> set[str]:
    """The codes that docs/rules.md's "Warnings on gold" section explains."""
    text = (REPO / "docs" / "rules.md").read_text(encoding="utf-8")
    section = text.split("## Warnings on gold", 1)[1].split("\n## ", 1)[0]
    return set(re.findall(r"^\* \*\*(W\d{3})\*\*", section, re.MULTILINE))


def test_check_on_gold_corpora_gives_no_error_and_only_documented_warnings() -> None:
    """Issue 29: ``amrcheck check`` on Little Prince 3.0 and Bio AMR (gold):
    no error, and every warning left is one docs/rules.md explains."""
    from typer.testing import CliRunner

    import amrcheck.cli.check  # noqa: F401  (registers the command)
    from amrcheck.cli import app

    paths = [str(shared_path(name)) for name in GOLD_CORPORA]
    result = CliRunner().invoke(app, ["check", "--format", "json", *paths])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    findings = report["findings"]
    assert [f for f in findings if f["severity"] == "error"] == []
    # every warning there could be is explained, those left first of all
    warnings = {code for code in RULES if code.startswith("W")}
    assert {f["code"] for f in findings} <= warnings == documented_gold_warnings()
    # the guidelines' chapter numbers (:mod 1, 27 times in Little Prince) and
    # figure panels (:mod "1A" in Bio AMR) are no suspicious values
    assert not [f for f in findings if f["code"] == "W402"]


def test_shared_corpora_are_all_there() -> None:
    names = {p.parent.name for p in SHARED_AMR_FILES}
    assert {"little_prince", "bio_amr", "amr_guidelines"} <= names
    assert len(SHARED_AMR_FILES) >= 24 + 3 + 1 + 6


# -- structure (E1xx, W101) -------------------------------------------------------


def test_pronoun_i_is_a_concept_not_a_variable_reference() -> None:
    # Little Prince writes "it ... I" as (i / it) ... (i2 / i)
    text = "# ::id 1\n(s / say-01 :ARG0 (i2 / i) :ARG1 (i / it))\n"
    assert codes(text) == []


def test_concept_naming_its_own_variable_is_fine() -> None:
    assert codes("# ::id 1\n(i / i)\n") == []


def test_undefined_variable_vs_constants() -> None:
    text = (
        '# ::id 1\n(x / thing :quant 3.5 :value -2 :polarity - :polite + '
        ':wiki "Paris" :mode imperative :ARG0 x :ARG1 y)\n'
    )
    found = validate(read_string(text))
    assert [(f.code, f.span.text) for f in found] == [("E102", "y")]


def test_disconnected_tree_after_unclosed_paren_gets_both_findings() -> None:
    text = "# ::id 1\n(a / and :op1 (b / boy)\n(c / cat)\n"
    assert codes(text) == ["E001", "E104"]


def test_no_disconnected_finding_when_a_syntax_error_explains_the_split() -> None:
    text = "# ::id 1\n(a / and))\n   :op1 (b / boy)\n"
    assert codes(text) == ["E002", "W101"]


def test_no_disconnected_finding_across_blank_lines_or_with_metadata() -> None:
    assert codes("# ::id 1\n(a / and)\n\n# ::id 2\n(b / boy)\n") == []
    assert codes("# ::id 1\n(a / and)\n# ::id 2\n(b / boy)\n") == []


def test_plain_comment_does_not_separate_trees() -> None:
    assert codes("# ::id 1\n(a / and)\n# a note\n(b / boy)\n") == ["E104"]


def test_missing_id_warning_names_the_graph() -> None:
    (finding,) = validate(read_string("(a / and)\n"))
    assert finding.code == "W101" and "#1" in finding.message


def test_duplicate_id_points_at_the_first() -> None:
    found = validate(read_string("# ::id x\n(a / and)\n\n# ::id x\n(b / boy)\n"))
    assert [f.code for f in found] == ["E105"]
    assert "first at line 1" in found[0].message
    assert found[0].span.text == "x"


# -- roles (E2xx) ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("role", "code"),
    [
        (":ARG0", None),
        (":ARG0-of", None),
        (":op1", None),
        (":snt12", None),
        (":consist-of-of", None),  # inverse of the role :consist-of
        (":prep-on-behalf-of", None),
        (":compared-to", None),  # Bio AMR gold, see EXTRA_ROLES
        (":ARG0-of-of", "E202"),
        (":mod-of-of", "E202"),
        (":op0", "E203"),
        (":snt0", "E203"),
        (":op01", "E203"),
        (":ARG01", "E203"),
        (":ARG", "E203"),
        (":opx", "E203"),
        (":ARGx-of", "E203"),
        (":opinion", "E201"),
        (":ARG12", "E201"),
        (":foo", "E201"),
    ],
)
def test_role_problem(role: str, code: str | None) -> None:
    problem = role_problem(role)
    assert (problem[0] if problem else None) == code
    if code in (None, "E201"):
        assert is_amr_role(role) == (code is None)


# -- PropBank (W3xx) ----------------------------------------------------------------


def test_bundled_frames_merge_both_inventories() -> None:
    frames = load_frames()
    assert len(frames) == 11306 + 96  # PropBank + AMR 3.0-only frames
    assert "declare-02" in frames  # only in the AMR 3.0 list
    assert frames["have-org-role-91"].argument("ARG2") is not None
    # oblige-02 ARG2 is only in the AMR 3.0 list (used by Little Prince)
    assert frames["oblige-02"].argument("ARG2") is not None
    assert frames["love-01"].name


def test_the_frame_inventory_lists_its_concepts() -> None:
    frames = load_frames()
    concepts = frames.concepts()
    assert concepts == sorted(frames) and len(concepts) == len(frames)
    assert "declare-02" in concepts and "want-09" not in concepts
    assert all(frames.get(concept) is not None for concept in concepts)


def test_bundled_data_has_license_and_provenance() -> None:
    data = REPO / "amrcheck" / "data"
    license_text = (data / "LICENSE.CC-BY-SA-4.0.txt").read_text()
    assert "Attribution-ShareAlike 4.0" in license_text
    readme = (data / "README.md").read_text()
    for name in ("propbank_frames.json", "amr-frames-arg-descr.txt", "CC BY-SA 4.0"):
        assert name in readme


def test_minus_00_is_not_a_frame_reference() -> None:
    assert not is_frame_concept("trypsinize-00")
    assert codes("# ::id 1\n(t / trypsinize-00)\n") == []


def test_unknown_frame_suggests_known_senses() -> None:
    (finding,) = validate(read_string("# ::id 1\n(w / want-09)\n"))
    assert finding.code == "W301"
    assert "want-01" in finding.message


def test_inverse_argument_is_checked_on_the_frame_node() -> None:
    ok = "# ::id 1\n(b / boy :ARG0-of (l / love-01))\n"
    bad = "# ::id 1\n(b / boy :ARG2-of (l / love-01))\n"
    assert codes(ok) == []
    assert codes(bad) == ["W302"]
    # an inverse ARG with a constant target has no frame node: no crash
    assert codes('# ::id 1\n(b / boy :ARG0-of "x")\n') == []


# -- values (W4xx) ------------------------------------------------------------------


def test_polarity_amr_unknown_is_fine_other_nodes_are_not() -> None:
    assert codes("# ::id 1\n(g / go-02 :polarity (a / amr-unknown))\n") == []
    assert codes("# ::id 1\n(g / go-02 :polarity (n / neg))\n") == ["W401"]


def test_quoted_numbers_in_names_and_wiki_are_fine() -> None:
    text = '# ::id 1\n(p / product :wiki "1984" :name (n / name :op1 "747"))\n'
    assert codes(text) == []
    assert codes('# ::id 1\n(m / monetary-quantity :quant "1,000")\n') == ["W403"]


def test_numbered_mod_and_quoted_negative_numbers_are_the_guidelines_forms() -> None:
    # "Chapter 7", "Fig. 1A", "the last" (the AMR Editor quotes a leading '-')
    text = (
        '# ::id 1\n(c / chapter :mod 7 :mod "1A"'
        ' :ord (o / ordinal-entity :value "-1"))\n'
    )
    assert codes(text) == []
    assert codes("# ::id 1\n(g / go-02 :mod -)\n") == ["W402"]
    assert codes("# ::id 1\n(g / go-02 :mod +)\n") == ["W402"]
    assert codes('# ::id 1\n(d / dog :quant "3")\n') == ["W403"]


# -- API shape ------------------------------------------------------------------------


def test_validate_graph_on_a_decoded_graph() -> None:
    found = validate_graph(decode("(w / want-01 :ARG0 (b / boy) :ARG9 b)"))
    assert [(f.code, f.span.text) for f in found] == [("W302", ":ARG9")]


def test_findings_are_sorted_by_position() -> None:
    text = "(a / and :op0 (b / b2) :foo b3)\n\n(c / c2)\n"
    found = validate(read_string(text))
    assert [f.span.start for f in found] == sorted(f.span.start for f in found)
    assert [f.code for f in found] == ["W101", "E203", "E201", "E102", "W101"]


def test_select_and_ignore_by_prefix() -> None:
    found = validate(read_string("(a / and :op0 (b / boy) :polarity +)\n"))
    assert [f.code for f in found] == ["W101", "E203", "W401"]
    assert [f.code for f in select_findings(found, select=["E"])] == ["E203"]
    assert [f.code for f in select_findings(found, ignore=["W"])] == ["E203"]
    assert [f.code for f in select_findings(found, ["W"], ["W1"])] == ["W401"]
    with pytest.raises(ValueError, match="X1"):
        check_patterns(["X1"])
    with pytest.raises(ValueError):
        check_patterns(["E9"])


def test_findings_are_plain_data() -> None:
    (finding,) = validate(read_string("# ::id 1\n(w / want-01 :mod -)\n"))
    assert finding.severity is Severity.WARNING
    assert finding.to_dict()["code"] == "W402"


def test_engine_imports_no_front_end() -> None:
    script = (
        "import sys, amrcheck, amrcheck.validation.validate\n"
        "import amrcheck.validation.rules, amrcheck.validation.propbank\n"
        "bad = {'typer', 'click', 'rich', 'pygls', 'lsprotocol'} & set(sys.modules)\n"
        "assert not bad, bad\n"
    )
    subprocess.run([sys.executable, "-c", script], check=True)


# -- re-validating edited files (the language server's cache) ---------------------


def _shown(findings: list[Finding]) -> list[tuple[str, str, int, int, str]]:
    return [
        (str(f), f.message, f.span.start, f.span.end, f.span.source.text)
        for f in findings
    ]


def test_cached_validation_equals_a_fresh_one_on_random_edits() -> None:
    from tests.reading.test_incremental import base_text, random_edit

    rng = random.Random(11)
    text = base_text() + "\n\n" + RULE_TEXTS
    corpus = read_string(text, "doc.amr")
    cache = GraphFindingsCache()
    for case in range(150):
        text = random_edit(text, rng)
        corpus = reparse(corpus, text)
        cached = validate(corpus, cache=cache)
        assert _shown(cached) == _shown(validate(corpus)), case


def test_cache_checks_only_changed_graphs_and_rechecks_moved_e101() -> None:
    others = [p.read_text() for p in RULE_FIXTURES if p.stem != "E101"]
    text = "\n\n".join([data_path("rules/E101.amr").read_text(), *others])
    cache = GraphFindingsCache()
    corpus = read_string(text)
    validate(corpus, cache=cache)
    graphs = len({entry.graph.text for entry in corpus if entry.graph is not None})
    assert cache.checked == graphs
    # a line inserted above everything: E101's "already defined at 3:21"
    # must now say 4:21, so that one graph is checked again; the others move
    moved = reparse(corpus, "\n" + text)
    found = validate(moved, cache=cache)
    assert cache.checked == graphs + 1
    assert _shown(found) == _shown(validate(moved))
    (e101,) = [f for f in found if f.code == "E101"]
    assert e101.message == "variable 'b' is already defined at 4:21"
    assert str(e101.span) == "<string>:5:11"
    # an edit below every graph: all findings come from the cache
    validate(reparse(moved, moved.source.text + "\n"), cache=cache)
    assert cache.checked == graphs + 1


def test_cache_is_dropped_for_another_frame_inventory() -> None:
    cache = GraphFindingsCache()
    corpus = read_string("# ::id 1\n(w / want-01)\n")
    assert [f.code for f in validate(corpus, cache=cache)] == []
    assert [f.code for f in validate(corpus, FrameInventory({}), cache=cache)] == [
        "W301"
    ]
    assert cache.checked == 2


def test_cache_stays_within_its_budget_and_pins_no_old_document() -> None:
    from tests.reading.test_incremental import base_text, random_edit

    rng = random.Random(22)
    text = base_text() + "\n\n" + RULE_TEXTS
    corpus = read_string(text, "doc.amr")
    cache = GraphFindingsCache(max_bytes=20_000)
    first = corpus.source
    validate(corpus, cache=cache)
    for case in range(60):
        text = random_edit(text, rng)
        corpus = reparse(corpus, text)
        assert _shown(validate(corpus, cache=cache)) == _shown(validate(corpus)), case
        stats = cache.stats()
        assert 0 < stats["bytes"] <= stats["maxBytes"] == 20_000
    # the first version is gone from the document: nothing cached refers to it
    gc.collect()
    assert not [r for r in gc.get_referrers(first) if not isinstance(r, FrameType)]


def test_unknown_frame_names_every_sense_or_says_how_many_more() -> None:
    frames = load_frames()
    (finding,) = validate(read_string("# ::id 1\n(g / get-99)\n"))
    senses = frames.senses("get")
    assert len(senses) > 5
    assert finding.message == (
        f"unknown PropBank frame 'get-99'; known: {', '.join(senses[:5])}, "
        f"and {len(senses) - 5} more"
    )
    (few,) = validate(read_string("# ::id 1\n(w / want-09)\n"))
    assert few.message.endswith(f"known: {', '.join(frames.senses('want'))}")
