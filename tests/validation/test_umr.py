"""UMR validation: one probe per rule, options, configuration, bad input."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from amrcheck.reading.umr import read_umr, read_umr_string
from amrcheck.validation.filecheck import check_file, finding_lines
from amrcheck.validation.rules import check_patterns, select_findings
from amrcheck.validation.umr import UmrOptions, validate_umr
from amrcheck.validation.umr_rules import UMR_RULES
from amrcheck.workflows.config import load_config
from tests.conftest import REPO, TEST_DATA

UMR_DATA = TEST_DATA / "umr"
VALID = UMR_DATA / "valid.umr"
PROBES = sorted((UMR_DATA / "probes").glob("U*.umr"))
EXPECTED = json.loads((UMR_DATA / "probes" / "expected.json").read_text())


def _options(path: Path) -> UmrOptions:
    first = path.read_bytes().split(b"\n", 1)[0].decode()
    if not first.startswith("# options:"):
        return UmrOptions()
    return UmrOptions().relaxed(first.split(":", 1)[1].split(","))


def _found(path: Path, options: UmrOptions | None = None) -> list[tuple[str, int, int]]:
    findings = validate_umr(read_umr(path), options or _options(path))
    return sorted((f.code, f.span.line, f.span.column) for f in findings)


def test_the_valid_document_has_no_finding() -> None:
    assert _found(VALID) == []


@pytest.mark.parametrize("path", PROBES, ids=lambda p: p.stem)
def test_probe_triggers_its_rule_at_its_place(path: Path) -> None:
    found = _found(path)
    assert path.stem in {code for code, _, _ in found}
    assert found == sorted(tuple(item) for item in EXPECTED[path.stem])


def test_every_rule_has_a_probe_and_every_probe_a_rule() -> None:
    assert {p.stem for p in PROBES} == set(UMR_RULES) == set(EXPECTED)


def test_findings_carry_the_severity_of_their_rule() -> None:
    for path in PROBES:
        for finding in validate_umr(read_umr(path), _options(path)):
            assert finding.severity is UMR_RULES[finding.code].severity


@pytest.mark.parametrize("doc", ["rules.md", "umr.md"])
def test_docs_list_every_umr_rule_with_its_severity(doc: str) -> None:
    text = (REPO / "docs" / doc).read_text()
    rows = dict(re.findall(r"^\| `?(U\d{3})`? \| (error|warning) \|", text, re.M))
    assert rows == {code: rule.severity.value for code, rule in UMR_RULES.items()}


def test_checks_go_on_after_the_first_format_error() -> None:
    # a comment inside the graph, an undefined variable, a bad alignment and
    # an unknown document relation: all four in one sentence
    text = (
        VALID.read_text()
        .replace("(s1l / leave-11\n", "(s1l / leave-11\n# stray comment\n", 1)
        .replace(
            "    :aspect performance)\n", "    :ARG2 s1x\n    :aspect performance)\n", 1
        )
        .replace("s1c: 3-3", "s1c: 3-9", 1)
        .replace("(author :full-affirmative s1l)", "(author :AFF s1l)", 1)
    )
    codes = [f.code for f in validate_umr(read_umr_string(text, "many.umr"))]
    assert sorted(codes) == ["U005", "U212", "U307", "U407"]


@pytest.mark.parametrize(
    ("option", "probe", "code"),
    [
        ("optional-document-level", "U408", "U408"),
        ("optional-alignments", "U304", "U304"),
        ("optional-headings", "U006", "U006"),
        ("optional-aspect", "U230", "U230"),
        ("allow-forward-references", "U212", None),
        ("allow-minus-one", "U308", "U308"),
        ("allow-trailing-whitespace", "U001", "U001"),
        ("allow-cycles", "U214", "U214"),
        ("no-check-wiki", "U411", "U411"),
        ("no-warn-unaligned-words", "U309", "U309"),
    ],
)
def test_each_relaxation_drops_its_rule(
    option: str, probe: str, code: str | None
) -> None:
    path = UMR_DATA / "probes" / f"{probe}.umr"
    relaxed = {c for c, _, _ in _found(path, UmrOptions().relaxed([option]))}
    if code is not None:
        assert code in {c for c, _, _ in _found(path)}
        assert code not in relaxed


def test_forward_references_are_relaxed() -> None:
    text = VALID.read_text().replace(
        "    :ARG0 (s1p / person\n", "    :ARG2 s1c\n    :ARG0 (s1p / person\n", 1
    )
    doc = read_umr_string(text, "forward.umr")
    assert [f.code for f in validate_umr(doc)] == ["U212"]
    assert validate_umr(doc, UmrOptions(allow_forward_references=True)) == []


def test_unknown_option_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown UMR option 'optional-everything'"):
        UmrOptions().relaxed(["optional-everything"])


def test_u_codes_are_patterns_for_select_and_ignore() -> None:
    assert check_patterns(["u3", "U408"]) == ["U3", "U408"]
    found = validate_umr(read_umr(UMR_DATA / "probes" / "U223.umr"))
    assert [f.code for f in select_findings(found, ignore=["U221"])] == ["U223"]


def test_config_file_sets_the_umr_options(tmp_path: Path) -> None:
    config = tmp_path / ".amrcheck.toml"
    config.write_text("[umr]\noptional-document-level = true\ncheck-wiki = false\n")
    loaded = load_config(config).umr
    assert loaded.optional_document_level and not loaded.check_wiki
    config.write_text("[umr]\noptional-docs = true\n")
    with pytest.raises(Exception, match="unknown key 'optional-docs'"):
        load_config(config)


def test_hook_reads_the_repository_config(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    probe = tmp_path / "doc.umr"
    probe.write_bytes((UMR_DATA / "probes" / "U408.umr").read_bytes())
    hook = [sys.executable, "-m", "amrcheck.hooks.check", "doc.umr"]
    failing = subprocess.run(
        hook, capture_output=True, text=True, cwd=tmp_path, check=False
    )
    assert failing.returncode == 1
    assert "doc.umr:8:2: U408 event 's1l' (leave-11)" in failing.stdout
    (tmp_path / ".amrcheck.toml").write_text("[umr]\noptional-document-level = true\n")
    passing = subprocess.run(
        hook, capture_output=True, text=True, cwd=tmp_path, check=False
    )
    assert passing.returncode == 0, passing.stdout


def test_check_text_and_json_on_umr() -> None:
    probe = UMR_DATA / "probes" / "U302.umr"
    result = check_file(probe, [], [])
    assert [str(f) for f in result.findings] == [
        f"{probe}:19:1: U302 's1z' is not a node of this sentence's graph"
    ]
    assert result.graphs == 2


@pytest.mark.parametrize(
    ("probe", "expected"),
    [
        # the bad inputs of the issue: each one clear located finding
        ("U201", "15:24: U201 unbalanced parentheses: 1 '(' not closed"),
        ("U302", "19:1: U302 's1z' is not a node of this sentence's graph"),
        ("U404", "27:26: U404 's2b' is a node of a later sentence"),
        ("U010", "50:37: U010 sentence without its '# alignment:' block"),
    ],
)
def test_bad_input_gets_one_located_finding(probe: str, expected: str) -> None:
    path = UMR_DATA / "probes" / f"{probe}.umr"
    assert [str(f) for f in check_file(path, [], []).findings] == [f"{path}:{expected}"]


def test_latin_1_file_is_one_located_error_without_traceback(tmp_path: Path) -> None:
    path = tmp_path / "latin.umr"
    path.write_bytes(VALID.read_bytes().replace(b"Paris", b"P\xe2ris"))
    done = subprocess.run(
        ["amrcheck", "check", str(path)], capture_output=True, text=True, check=False
    )
    assert done.returncode == 2
    assert f"cannot read {path}: 5:19: not valid UTF-8 (byte 0xe2)" in done.stderr
    assert "Traceback" not in done.stderr + done.stdout


def test_umr_content_in_a_txt_file_gets_the_umr_rules() -> None:
    result = check_file(UMR_DATA / "layouts" / "umr_content.txt", [], [])
    assert result.problem is None and result.graphs == 2 and result.findings == []


_FRAGMENTS = [
    "################################################################################\n",
    "# meta-info :: sent_id = x :: type = partial_conversion\n",
    "# :: snt1\n",
    "# :: snt2\tA b .\n",
    "Index: 1 2\n",
    "Words: A b\n",
    "Words(English): A b\n",
    "Foo: x\n",
    "\n",
    "\n\n",
    "# sentence level graph:\n",
    "# alignment:\n",
    "# document level annotation:\n",
    "(s1a / a\n",
    "    :ARG0 (s1b / b))\n",
    ")\n",
    '(s1a / a :op1 "x\n',
    "s1a: 1-1\n",
    "s1b: 0-0,2-2\n",
    "s9z: -1--1\n",
    "s1a 1-1\n",
    "(s1s0 / sentence\n",
    "    :temporal ((document-creation-time :before s1a))\n",
    "    :coref ((s1a :same-entity s1b)\n",
    "    :modal ((root :modal author)))\n",
    "# a comment\n",
    "  \t \n",
    "é\u0301\r\n",
    "\x0c\u2028 x\n",
]


@given(st.lists(st.sampled_from(_FRAGMENTS), max_size=40))
@settings(max_examples=300, deadline=None)
def test_any_text_is_read_and_checked_without_losing_a_line(parts: list[str]) -> None:
    text = "".join(parts)
    doc = read_umr_string(text, "fuzz.umr")
    joined = "".join(s.source.text for s in doc)
    # every line is in a sentence; only white space after the last may be left
    assert text.startswith(joined) and not text[len(joined) :].strip()
    first_lines = [s.source.first_line for s in doc]
    assert first_lines == sorted(first_lines)
    validate_umr(doc)
    validate_umr(doc, UmrOptions(warn_overlapping_alignment=True))


def test_a_checked_umr_file_lists_its_findings_by_place_and_code() -> None:
    # each sentence's findings are sorted on their own and the document's
    # (U403, U409, ...) placed among them: the order of one sort of them all
    path = TEST_DATA / "umr" / "english_umr-0003.umr"
    result = check_file(path, [], [])
    assert len(result.findings) > 100
    keys = [(f.span.line, f.span.column, f.code) for f in result.findings]
    assert keys == sorted(keys)
    everything = validate_umr(read_umr(path))
    assert sorted(map(str, everything)) == sorted(map(str, result.findings))
    assert finding_lines(result.findings) == [str(f) for f in result.findings]
    errors, warnings = result.errors, result.warnings
    taken = result.take_findings()
    assert len(taken) == errors + warnings and result.findings == []
    assert (result.errors, result.warnings) == (errors, warnings)
