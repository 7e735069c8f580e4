"""Diagnostics: the validator's findings and the differences from the reference."""

from __future__ import annotations

import re

import pytest
from lsprotocol import types
from pygls.workspace import TextDocument
from pytest_lsp import LanguageClient

from amrcheck import read_corpus, read_string, validate

from .conftest import (
    DEFAULT_OPTIONS,
    LSP_DATA,
    by_source,
    change,
    find,
    open_document,
    pos,
    resolved_lenses,
)

ANNOTATION = LSP_DATA / "annotations" / "lpp.amr"
GOLD = LSP_DATA / "gold" / "lpp.amr"


@pytest.mark.slow
async def test_validation_matches_amrcheck_check(client: LanguageClient) -> None:
    path = LSP_DATA / "unicode.amr"
    uri = await open_document(client, path)
    found = by_source(client, uri, "amrcheck")
    # the same findings as ``amrcheck check``, ranges through pygls's own codec
    oracle = TextDocument(uri, path.read_text(encoding="utf-8"))
    expected = [
        (
            f.code,
            f.message,
            oracle.client_position_at_offset(f.span.start),
            oracle.client_position_at_offset(f.span.end),
        )
        for f in validate(read_corpus(path))
    ]
    assert [(d.code, d.message, d.range.start, d.range.end) for d in found] == expected
    assert {d.code for d in found} == {"W301", "W404"}


def place(name: str, text: str, needle: str) -> str:
    """``name:line:column`` (1-based, as ``amrcheck check``) of ``needle``."""
    at = find(text, needle)
    return f"{name}:{at.line + 1}:{at.character + 1}"


def graph_diff(client: LanguageClient, uri: str, label: str) -> types.Diagnostic:
    """The one grouped diff diagnostic of graph ``label``."""
    [found] = [
        d for d in by_source(client, uri, "amrcheck-diff")
        if d.code == "diff" and f"#{label} (" in d.message
    ]
    return found


async def test_differences_are_one_diagnostic_per_graph_issue_22(
    client: LanguageClient,
) -> None:
    """By default each graph that differs from its reference gets one
    diagnostic, on its opening line, whose related places are its
    differences, one per triple, as many as its message counts."""
    uri = await open_document(client, ANNOTATION)
    text = ANNOTATION.read_text(encoding="utf-8")
    gold = GOLD.read_text(encoding="utf-8")
    diffs = by_source(client, uri, "amrcheck-diff")
    # lpp_1943.2, .4 and .5 differ: three graphs, three diagnostics
    assert [d.code for d in diffs] == ["diff"] * 3
    assert [d.range.start for d in diffs] == [
        find(text, "(s / see-01"), find(text, "(b / be-located-at-91"),
        find(text, "(s2 / say-01"),
    ]
    assert all(d.range.start.line == d.range.end.line for d in diffs)
    assert all(d.severity == types.DiagnosticSeverity.Information for d in diffs)

    concept = graph_diff(client, uri, "lpp_1943.2")
    # a concept replaced is one difference, as amrcheck diff counts it (~1)
    where = place("gold/lpp.amr", gold, "magnificent)")
    here = place("annotations/lpp.amr", text, "beautiful")
    # each place named by its path in the workspace: VS Code shows only
    # "lpp.amr" beside either file's places (issue 29)
    relabelled = (
        f"relabelled (m / magnificent) at {where} -> (m / beautiful) (at {here})"
    )
    assert concept.message == (
        "differs from gold/lpp.amr#lpp_1943.2 (0 missing, 0 extra, 1 relabelled): "
        f"{relabelled}"
    )
    # at its place in the annotation, the reference's place in the message
    assert [
        (r.message, r.location.uri, r.location.range.start)
        for r in concept.related_information
    ] == [(relabelled, uri, find(text, "beautiful"))]

    polarity = graph_diff(client, uri, "lpp_1943.5")
    assert polarity.message == (
        "differs from gold/lpp.amr#lpp_1943.5 (0 missing, 1 extra, 0 relabelled): "
        "extra (s2 :polarity -) "
        f"(at {place('annotations/lpp.amr', text, ':polarity -')})"
    )
    [link] = polarity.related_information
    assert (link.location.uri, link.location.range.start) == (
        uri, find(text, ":polarity -")
    )


async def test_per_triple_diagnostics_through_the_setting(start_client) -> None:
    """``diffDiagnostics: "per-triple"``: the older form, one diagnostic per
    differing triple (a concept, an extra triple, the missing ones)."""
    client = await start_client(
        options={**DEFAULT_OPTIONS, "diffDiagnostics": "per-triple"}
    )
    uri = await open_document(client, ANNOTATION)
    text = ANNOTATION.read_text(encoding="utf-8")
    diffs = {d.code: d for d in by_source(client, uri, "amrcheck-diff")}
    assert set(diffs) == {"diff-concept", "diff-missing", "diff-extra"}
    assert all(d.severity.value >= 3 for d in diffs.values())  # information / hint

    concept = diffs["diff-concept"]
    assert concept.range.start == find(text, "beautiful")
    assert "magnificent" in concept.message
    [related] = concept.related_information
    gold = GOLD.read_text(encoding="utf-8")
    assert related.location.uri == GOLD.as_uri()
    assert related.location.range.start == find(gold, "m / magnificent")

    [polarity] = [d for d in client.diagnostics[uri] if d.code == "diff-extra"]
    assert polarity.range.start == find(text, ":polarity -")
    assert "(s2 :polarity -)" in polarity.message

    missing = [d for d in client.diagnostics[uri] if d.code == "diff-missing"]
    here = next(d for d in missing if "(h / here)" in d.message)
    assert here.range.start == find(text, "(b / be-located-at-91")
    assert "2 reference triples missing (vs gold/lpp.amr#lpp_1943.4)" in here.message

    # a root the reference does not have: a hint naming the reference's root
    rooted = text.replace(
        "(c / chapter\n  :mod 1)", "(o / one\n  :mod-of (c / chapter :mod 1))"
    )
    await change(client, uri, 2, rooted)
    [root] = [d for d in client.diagnostics[uri] if d.code == "diff-root"]
    assert root.severity == types.DiagnosticSeverity.Hint
    node = f"(c / chapter) at {place('gold/lpp.amr', gold, 'c / chapter')}"
    assert root.message == f"root differs: the reference's root is {node}"
    [link] = root.related_information
    assert link.message == f"reference node {node}"
    assert (link.location.uri, link.location.range.start) == (
        GOLD.as_uri(), find(gold, "c / chapter")
    )


async def test_missing_triples_point_into_reference(client: LanguageClient) -> None:
    uri = await open_document(client, ANNOTATION)
    text = ANNOTATION.read_text(encoding="utf-8")
    gold = GOLD.read_text(encoding="utf-8")
    here = graph_diff(client, uri, "lpp_1943.4")
    # on the graph's opening line
    assert here.range.start == find(text, "(b / be-located-at-91")
    assert here.range.end.line == here.range.start.line
    assert here.message.startswith(
        "differs from gold/lpp.amr#lpp_1943.4 (2 missing, 0 extra, 0 relabelled): "
    )
    locations = {r.message: r.location for r in here.related_information}
    assert set(locations) == {
        "missing (h / here) at gold/lpp.amr:44:18",
        "missing (b :ARG2 h) at gold/lpp.amr:44:7",
    }
    assert all(loc.uri == GOLD.as_uri() for loc in locations.values())
    assert locations["missing (h / here) at gold/lpp.amr:44:18"].range.start == find(
        gold, "here"
    )
    arg2 = locations["missing (b :ARG2 h) at gold/lpp.amr:44:7"]
    assert arg2.range.start == find(gold, ":ARG2 (h / here)")


@pytest.mark.slow
async def test_reference_places_name_the_reference_file_issue_22(
    client: LanguageClient,
) -> None:
    """A message about the reference names the reference file and its line
    and links there; its range stays on the annotation's own graph."""
    uri = await open_document(client, ANNOTATION)
    text = ANNOTATION.read_text(encoding="utf-8")
    gold = GOLD.read_text(encoding="utf-8")
    here = graph_diff(client, uri, "lpp_1943.4")
    # the annotation's graph, not the reference's line 44
    assert here.range.start == find(text, "(b / be-located-at-91")
    assert find(gold, "(h / here)").line != here.range.start.line
    where = place("gold/lpp.amr", gold, "here")
    assert where == "gold/lpp.amr:44:18"
    assert f"(h / here) at {where}" in here.message
    [link] = [r for r in here.related_information if "(h / here)" in r.message]
    assert link.message == f"missing (h / here) at {where}"
    assert link.location.uri == GOLD.as_uri()
    assert link.location.range.start == find(gold, "here")

    # a root the reference does not have: the reference's root, named and linked
    rooted = text.replace(
        "(c / chapter\n  :mod 1)", "(o / one\n  :mod-of (c / chapter :mod 1))"
    )
    await change(client, uri, 2, rooted)
    root = graph_diff(client, uri, "lpp_1943.1")
    assert root.range.start == find(rooted, "(o / one")
    node = f"(c / chapter) at {place('gold/lpp.amr', gold, 'c / chapter')}"
    assert f"extra root o: the reference's root is {node}" in root.message
    [link] = [r for r in root.related_information if r.message.startswith("missing")]
    assert link.message == "missing root c at gold/lpp.amr:6:2"
    assert (link.location.uri, link.location.range.start) == (
        GOLD.as_uri(), find(gold, "c / chapter")
    )


@pytest.mark.slow
async def test_edit_breaks_then_fixes_a_graph(client: LanguageClient) -> None:
    uri = await open_document(client, ANNOTATION)
    text = ANNOTATION.read_text(encoding="utf-8")
    where = find(text, "(c / chapter")
    assert not [d for d in by_source(client, uri, "amrcheck") if d.code[0] == "E"]
    # delete the ')' closing "(c / chapter\n  :mod 1)"
    close = find(text, ":mod 1)")
    after = (close.line, close.character + 6)
    await change(client, uri, 2, "", after, (after[0], after[1] + 1))
    errors = [d for d in by_source(client, uri, "amrcheck") if d.code == "E001"]
    # where the parser ran out (issue 22): where the ")" is missing
    assert [(d.range.start.line, d.range.start.character) for d in errors] == [
        after
    ]
    [link] = errors[0].related_information
    assert (link.location.uri, link.location.range.start) == (uri, where)
    await change(client, uri, 3, ")", after)
    assert not [d for d in client.diagnostics[uri] if d.code == "E001"]
    # lpp_1943.2, .4 and .5 differ from the reference again
    assert len(by_source(client, uri, "amrcheck-diff")) == 3


@pytest.mark.slow
async def test_reference_pairs_by_id_not_position(client: LanguageClient) -> None:
    header, *graphs = GOLD.read_text(encoding="utf-8").strip().split("\n\n")
    graphs.reverse()
    graphs[0] = "# ::reference ../gold/lpp.amr\n" + graphs[0]
    reordered = "\n\n".join([header, *graphs]) + "\n"
    uri = await open_document(
        client, LSP_DATA / "annotations" / "reordered.amr", text=reordered
    )
    assert not by_source(client, uri, "amrcheck-diff")


async def test_header_reference_on_a_bamboo_pair(client: LanguageClient) -> None:
    # BAMBOO STS dev: tgt graphs against their src graphs, chosen by the
    # file's own "# ::reference src.amr" (no settings involved)
    path = LSP_DATA / "bamboo" / "tgt.amr"
    uri = await open_document(client, path)
    text = path.read_text(encoding="utf-8")
    first = graph_diff(client, uri, "0")
    [concept] = [r for r in first.related_information if "wear-01" in r.message]
    assert concept.location.range.start == find(text, "wear-01")
    assert concept.message == (
        "relabelled (xv1 / have-03) at bamboo/src.amr:5:29 -> (xv4 / wear-01) "
        f"(at {place('bamboo/tgt.amr', text, 'wear-01')})"
    )
    score = await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command="amrcheck.documentScore", arguments=[uri])
    )
    assert score["reference"] == str(LSP_DATA / "bamboo" / "src.amr")
    assert score["compared"] == 5


@pytest.mark.slow
async def test_e001_points_where_the_indentation_says_issue_29(
    client: LanguageClient,
) -> None:
    """A graph missing a ")" many lines above its end: E001 where the
    indentation says the subtree ended (the next line, ":mod (o / once)", is
    indented as the top's roles), the same place as ``amrcheck check``, with
    the "(" left open as related information."""
    text = ANNOTATION.read_text(encoding="utf-8")
    broken = text.replace("(p2 / primeval))))", "(p2 / primeval)))", 1)
    uri = await open_document(client, ANNOTATION, text=broken)
    [error] = [d for d in by_source(client, uri, "amrcheck") if d.code == "E001"]
    # right where the ")" was taken out, not at the graph's end
    gap = find(broken, "(p2 / primeval)))")
    assert error.range.start == error.range.end == pos(
        gap.line, gap.character + len("(p2 / primeval)))")
    )
    assert find(broken, "(y / year))))").line > gap.line + 4  # the graph's end
    [link] = error.related_information
    assert link.message == "this '(' is not closed"
    assert (link.location.uri, link.location.range.start) == (
        uri, find(broken, "(p / picture")
    )
    # the CLI reports the same place (1-based)
    [finding] = [f for f in validate(read_string(broken, "x.amr")) if f.code == "E001"]
    assert (finding.span.line, finding.span.column) == (
        error.range.start.line + 1, error.range.start.character + 1
    )


@pytest.mark.slow
async def test_lens_counts_are_the_diagnostic_s_details_issue_22(
    client: LanguageClient,
) -> None:
    """A graph's lens (``2 missing, 0 extra, 0 relabelled``) and its diff
    diagnostic count the same differences, and the diagnostic lists each of
    them once."""
    uri = await open_document(client, ANNOTATION)
    lenses = await resolved_lenses(client, uri)
    diffs = {d.range.start.line: d for d in by_source(client, uri, "amrcheck-diff")}
    compared = 0
    for lens in lenses:
        assert lens.command is not None
        found = re.search(
            r"(\d+) missing, (\d+) extra, (\d+) relabelled", lens.command.title
        )
        assert found is not None, lens.command.title
        missing, extra, relabelled = (int(found[i]) for i in (1, 2, 3))
        diff = diffs.get(lens.range.start.line)
        if missing + extra + relabelled == 0:
            assert diff is None
            continue
        compared += 1
        assert diff is not None
        assert f"({found[0]})" in diff.message
        messages = [r.message for r in diff.related_information]
        assert len(messages) == len(set(messages)) == missing + extra + relabelled
        assert sum(m.startswith("missing ") for m in messages) == missing
        assert sum(m.startswith("relabelled ") for m in messages) == relabelled
    assert compared == 3
