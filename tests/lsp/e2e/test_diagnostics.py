"""Diagnostics: the validator's findings and the differences from the reference."""

from __future__ import annotations

from lsprotocol import types
from pygls.workspace import TextDocument
from pytest_lsp import LanguageClient

from amrcheck import read_corpus, validate

from .conftest import LSP_DATA, by_source, change, find, open_document

ANNOTATION = LSP_DATA / "annotations" / "lpp.amr"
GOLD = LSP_DATA / "gold" / "lpp.amr"


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
    assert {d.code for d in found} == {"W301", "W402"}


async def test_diff_on_annotator_revision(client: LanguageClient) -> None:
    uri = await open_document(client, ANNOTATION)
    text = ANNOTATION.read_text(encoding="utf-8")
    diffs = {d.code: d for d in by_source(client, uri, "amrcheck-diff")}
    assert set(diffs) >= {"diff-concept", "diff-missing", "diff-extra"}
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


async def test_missing_triples_point_into_reference(client: LanguageClient) -> None:
    uri = await open_document(client, ANNOTATION)
    text = ANNOTATION.read_text(encoding="utf-8")
    gold = GOLD.read_text(encoding="utf-8")
    missing = [d for d in client.diagnostics[uri] if d.code == "diff-missing"]
    here = next(d for d in missing if "(h / here)" in d.message)
    # on the graph's opening line
    assert here.range.start == find(text, "(b / be-located-at-91")
    assert here.range.end.line == here.range.start.line
    assert "2 reference triples missing (vs lpp_1943.4)" in here.message
    locations = {r.message: r.location for r in here.related_information}
    assert set(locations) == {"missing (h / here)", "missing (b :ARG2 h)"}
    assert all(loc.uri == GOLD.as_uri() for loc in locations.values())
    assert locations["missing (h / here)"].range.start == find(gold, "here")
    arg2 = locations["missing (b :ARG2 h)"]
    assert arg2.range.start == find(gold, ":ARG2 (h / here)")


async def test_edit_breaks_then_fixes_a_graph(client: LanguageClient) -> None:
    uri = await open_document(client, ANNOTATION)
    text = ANNOTATION.read_text(encoding="utf-8")
    where = find(text, "(c / chapter")
    assert not by_source(client, uri, "amrcheck")[0].code.startswith("E")
    # delete the ')' closing "(c / chapter\n  :mod 1)"
    close = find(text, ":mod 1)")
    after = (close.line, close.character + 6)
    await change(client, uri, 2, "", after, (after[0], after[1] + 1))
    errors = [d for d in by_source(client, uri, "amrcheck") if d.code == "E001"]
    assert [(d.range.start.line, d.range.start.character) for d in errors] == [
        (where.line, where.character)
    ]
    await change(client, uri, 3, ")", after)
    assert not [d for d in client.diagnostics[uri] if d.code == "E001"]
    assert len(by_source(client, uri, "amrcheck-diff")) == 4


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
    concept = next(d for d in client.diagnostics[uri] if d.code == "diff-concept")
    assert concept.range.start == find(text, "wear-01")
    assert concept.message == (
        "concept 'wear-01' is aligned to reference node (xv1 / have-03)"
    )
    score = await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command="amrcheck.documentScore", arguments=[uri])
    )
    assert score["reference"] == str(LSP_DATA / "bamboo" / "src.amr")
    assert score["compared"] == 5
