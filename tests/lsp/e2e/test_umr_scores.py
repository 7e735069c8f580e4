"""UMR documents scored against a reference UMR file in the editor (issue 31).

The reference is a real file of the UMR 3.0 English release
(``english_umr-0003.umr``, CC BY-SA 4.0); the document is a copy with one
concept and one temporal relation changed, naming it with ``# ::reference``.
The document score must be ``amrcheck score REF DOC --json``'s.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import pytest
from lsprotocol import types

from tests.conftest import data_path
from tests.render.conftest import needs_dot

from .conftest import change, wait_score

REFERENCE = data_path("umr") / "english_umr-0003.umr"
ROOT = Path(__file__).parents[3]
SVG = "{http://www.w3.org/2000/svg}"


def perturbed(text: str) -> str:
    """``text`` with one concept and one temporal relation changed."""
    changed = text.replace("(s1f / freedom)", "(s1f / liberty)").replace(
        ":temporal ((s2s2 :after s4p))", ":temporal ((s2s2 :before s4p))"
    )
    assert changed.count("liberty") == 1 and ":before s4p" in changed
    return changed


@pytest.fixture
def files(tmp_path: Path) -> tuple[Path, Path]:
    gold = tmp_path / "gold.umr"
    gold.write_text(REFERENCE.read_text(encoding="utf-8"), encoding="utf-8")
    document = tmp_path / "doc.umr"
    document.write_text(
        "# ::reference gold.umr\n" + perturbed(gold.read_text(encoding="utf-8")),
        encoding="utf-8",
    )
    return gold, document


def cli_score(gold: Path, document: Path) -> dict[str, Any]:
    run = subprocess.run(
        [sys.executable, "-c", "from amrcheck.cli import main; main()",
         "score", str(gold), str(document), "--json"],
        capture_output=True, text=True, timeout=600, cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert run.returncode in (0, 1), run.stderr  # 1: a sentence counted empty
    data: dict[str, Any] = json.loads(run.stdout)
    return data


async def open_umr(client: Any, path: Path, text: str | None = None) -> str:
    uri = path.as_uri()
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(
                uri=uri, language_id="umr", version=1,
                text=path.read_text(encoding="utf-8") if text is None else text,
            )
        )
    )
    return uri


@pytest.mark.asyncio
async def test_document_score_is_amrcheck_scores(
    start_client: Any, files: tuple[Path, Path]
) -> None:
    gold, document = files
    client = await start_client(root=document.parent, options={"debounceMs": 10})
    uri = await open_umr(client, document)
    score = await wait_score(client, uri, 1)
    cli = cli_score(gold, document)
    micro = cli["results"][0]["micro"]
    assert score.f1 == pytest.approx(micro["f1"])
    assert (score.precision, score.recall) == pytest.approx(
        (micro["precision"], micro["recall"])
    )
    assert score.f1 < 1.0  # the changed concept counts
    assert score.graphs == score.compared == 9
    assert cli["paired_by"] == "id" and score.paired_by == "graphs paired by ::id"
    layers = cli["umr"][str(document)]
    # (the client reads JSON objects as named tuples)
    assert score.umr.temporal.f1 == pytest.approx(layers["temporal"]["f1"])
    assert score.umr.overall.f1 == pytest.approx(layers["overall"]["f1"])
    assert score.umr.temporal.f1 < 1.0  # the changed relation counts
    assert [m.triple for m in score.umr.temporal.missing] == [
        m["triple"] for m in layers["temporal"]["missing"]
    ]
    # the command answers the same as the notification
    again = await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command="amrcheck.documentScore", arguments=[uri])
    )
    assert again["f1"] == pytest.approx(micro["f1"])


@pytest.mark.asyncio
async def test_lenses_and_score_titles_per_sentence(
    start_client: Any, files: tuple[Path, Path]
) -> None:
    _, document = files
    client = await start_client(root=document.parent, options={"debounceMs": 10})
    uri = await open_umr(client, document)
    await wait_score(client, uri, 1)
    lenses = await client.text_document_code_lens_async(
        types.CodeLensParams(text_document=types.TextDocumentIdentifier(uri=uri))
    )
    assert len(lenses) == 9
    first = await client.code_lens_resolve_async(lenses[0])
    assert first.command is not None
    title = first.command.title
    # snt1's graph starts on line 9 (0-based 8: the header line comes first)
    assert first.range.start.line == 8
    assert title.startswith("smatch 0.9") and title.endswith("vs gold.umr#snt1")
    assert "relabelled" in title
    second = await client.code_lens_resolve_async(lenses[1])
    assert second.command is not None
    assert second.command.title.startswith("smatch 1.00")
    titles = await client.workspace_execute_command_async(
        types.ExecuteCommandParams(
            command="amrcheck.scoreTitles", arguments=[uri, 0, None]
        )
    )
    assert [g["id"] for g in titles["graphs"]] == [f"snt{n}" for n in range(1, 10)]
    assert titles["graphs"][0]["title"] == title
    assert titles["graphs"][0]["line"] == 8


@pytest.mark.asyncio
async def test_broken_sentence_counts_as_empty(
    start_client: Any, files: tuple[Path, Path]
) -> None:
    """As ``amrcheck score`` counts it: a sentence whose graph cannot be
    read scores as an empty graph, never raising the document score."""
    gold, document = files
    text = document.read_text(encoding="utf-8")
    broken = text.replace("(s1f / liberty)", "(s1f / liberty", 1)
    document.write_text(broken, encoding="utf-8")
    client = await start_client(root=document.parent, options={"debounceMs": 10})
    uri = await open_umr(client, document)
    score = await wait_score(client, uri, 1)
    cli = cli_score(gold, document)
    assert score.f1 == pytest.approx(cli["results"][0]["micro"]["f1"], abs=1e-9)
    assert [e.graph for e in score.counted_empty] == ["snt1"]


@pytest.mark.asyncio
async def test_missing_reference_is_said(start_client: Any, tmp_path: Path) -> None:
    document = tmp_path / "doc.umr"
    document.write_text(
        "# ::reference nowhere.umr\n" + REFERENCE.read_text(encoding="utf-8"),
        encoding="utf-8",
    )
    client = await start_client(root=tmp_path, options={"debounceMs": 10})
    uri = await open_umr(client, document)
    score = await wait_score(client, uri, 1)
    assert score.f1 is None and "not found" in score.problem


@pytest.mark.asyncio
async def test_an_amr_reference_of_a_umr_document_is_said(
    start_client: Any, tmp_path: Path
) -> None:
    """Not a score of 0 against graphs that cannot pair: the reason."""
    gold = tmp_path / "gold.amr"
    gold.write_text(
        (ROOT / "examples" / "annotations_v1.amr").read_text(encoding="utf-8"),
        encoding="utf-8",
    )
    document = tmp_path / "doc.umr"
    document.write_text(
        "# ::reference gold.amr\n" + REFERENCE.read_text(encoding="utf-8"),
        encoding="utf-8",
    )
    client = await start_client(root=tmp_path, options={"debounceMs": 10})
    uri = await open_umr(client, document)
    score = await wait_score(client, uri, 1)
    assert score.f1 is None
    assert score.problem == (
        f"reference file {gold} is not a UMR file: a UMR document is scored "
        "against a UMR file (docs/umr.md)"
    )


def position_of(text: str, needle: str, skip: int = 0) -> types.Position:
    """The position of the first character of ``needle`` + ``skip``."""
    offset = text.index(needle) + skip
    line = text.count("\n", 0, offset)
    return types.Position(line=line, character=offset - text.rfind("\n", 0, offset) - 1)


async def hover_text(client: Any, uri: str, where: types.Position) -> str:
    found = await client.text_document_hover_async(
        types.HoverParams(text_document=types.TextDocumentIdentifier(uri=uri),
                          position=where)
    )
    assert found is not None
    return str(found.contents.value)


@pytest.mark.asyncio
async def test_hover_shows_the_reference_node_and_relations(
    start_client: Any, files: tuple[Path, Path]
) -> None:
    _, document = files
    text = document.read_text(encoding="utf-8")
    client = await start_client(root=document.parent, options={"debounceMs": 10})
    uri = await open_umr(client, document)
    await wait_score(client, uri, 1)
    # the relabelled node: its own words, and the reference node's
    shown = await hover_text(client, uri, position_of(text, "(s1f / liberty)", 1))
    assert "**s1f** / liberty" in shown
    assert "reference (gold.umr snt1): **s1f** / freedom, aligned to 4-4 “freedom”" in (
        shown
    )
    assert "matched temporal" not in shown  # s1f has no document-level relation
    # a node whose temporal relation was turned round: extra and missing
    shown = await hover_text(client, uri, position_of(text, "(s2s2 :before s4p)", 14))
    assert "- extra temporal `(s2s2 :before s4p)`" in shown
    assert "- missing temporal `(s2s2 :after s4p)` (" in shown
    assert "- matched modal `(author :full-affirmative s4p)`" in shown
    assert "gold.umr:180:" in shown  # where the missing one is in the reference
    # a word: its nodes here, and the reference sentence's word and nodes
    words = "Words: Edmund Pope tasted "
    shown = await hover_text(client, uri, position_of(text, words, len(words) + 1))
    assert "word 4 **freedom**" in shown and "`s1f` / liberty" in shown
    there = "reference (gold.umr snt1): word 4 “freedom”, aligned to `s1f` / freedom"
    assert there in shown


@pytest.mark.asyncio
async def test_reference_by_the_references_setting(
    start_client: Any, files: tuple[Path, Path]
) -> None:
    """No header line: the ``references`` setting names the reference, as for AMR."""
    gold, document = files
    text = document.read_text(encoding="utf-8").split("\n", 1)[1]  # header dropped
    annotation = document.parent / "ann" / "doc.umr"
    annotation.parent.mkdir()
    annotation.write_text(text, encoding="utf-8")
    client = await start_client(
        root=document.parent,
        options={"debounceMs": 10, "references": {"ann/*.umr": "gold.umr"}},
    )
    uri = await open_umr(client, annotation)
    score = await wait_score(client, uri, 1)
    assert score.reference == str(gold)
    cli = cli_score(gold, annotation)
    assert score.f1 == pytest.approx(cli["results"][0]["micro"]["f1"])
    layers = cli["umr"][str(annotation)]
    assert score.umr.overall.f1 == pytest.approx(layers["overall"]["f1"])


@pytest.mark.asyncio
async def test_an_edit_is_scored_again(
    start_client: Any, files: tuple[Path, Path]
) -> None:
    """Undoing the changed concept and relation brings the document to 1.0."""
    _, document = files
    text = document.read_text(encoding="utf-8")
    client = await start_client(root=document.parent, options={"debounceMs": 10})
    uri = await open_umr(client, document)
    assert (await wait_score(client, uri, 1)).f1 < 1.0
    undone = text.replace("(s1f / liberty)", "(s1f / freedom)").replace(
        ":before s4p", ":after s4p"
    )
    await change(client, uri, 2, undone, wait=False)
    score = await wait_score(client, uri, 2)
    assert score.f1 == 1.0
    assert score.umr.overall.f1 == 1.0 and score.umr.temporal.missing == []
    lenses = await client.text_document_code_lens_async(
        types.CodeLensParams(text_document=types.TextDocumentIdentifier(uri=uri))
    )
    first = await client.code_lens_resolve_async(lenses[0])
    assert first.command is not None
    assert first.command.title.startswith("smatch 1.00")


@pytest.mark.asyncio
async def test_missing_sentence_counts_as_empty(
    start_client: Any, files: tuple[Path, Path]
) -> None:
    """A reference sentence the document lacks (by number) counts as an
    empty graph, as ``amrcheck score`` counts it."""
    gold, document = files
    text = document.read_text(encoding="utf-8")
    last = text.index("# :: snt9")
    cut = text.rindex("\n#####", 0, last) + 1  # the separator line above it
    document.write_text(text[:cut], encoding="utf-8")
    client = await start_client(root=document.parent, options={"debounceMs": 10})
    uri = await open_umr(client, document)
    score = await wait_score(client, uri, 1)
    cli = cli_score(gold, document)
    assert cli["results"][0]["counted_empty"] == 1
    assert score.f1 == pytest.approx(cli["results"][0]["micro"]["f1"])
    assert [(e.graph, e.why) for e in score.counted_empty] == [
        ("snt9", "not in this document")
    ]
    assert score.graphs == 8


async def graph_at(client: Any, uri: str, where: types.Position) -> Any:
    return await client.protocol.send_request_async(
        "amr/graph",
        {
            "textDocument": {"uri": uri},
            "position": {"line": where.line, "character": where.character},
            "svg": True,
        },
    )


def svg_node_text(svg: str, element: str) -> str:
    """The text drawn in the SVG group ``element`` (a node: label and note)."""
    tree = ElementTree.fromstring(svg)
    group = tree.find(f".//{SVG}g[@id='{element}']")
    assert group is not None, element
    return " ".join(t.text or "" for t in group.iter(f"{SVG}text"))


@needs_dot
@pytest.mark.asyncio
async def test_graph_view_draws_each_nodes_aligned_words_on_both_sides(
    start_client: Any, files: tuple[Path, Path]
) -> None:
    _, document = files
    text = document.read_text(encoding="utf-8")
    client = await start_client(root=document.parent, options={"debounceMs": 10})
    uri = await open_umr(client, document)
    await wait_score(client, uri, 1)
    answer = await graph_at(client, uri, position_of(text, "(s1f / liberty)", 1))
    assert answer.graph.id == answer.reference.id == "snt1"
    assert answer.layoutProblem is None
    assert answer.graph.sentence.startswith("Edmund Pope tasted freedom today")
    # the relabelled node: its words here and the reference node's there
    mine = next(n for n in answer.graph.nodes if n.variable == "s1f")
    theirs = next(n for n in answer.reference.nodes if n.variable == "s1f")
    assert (mine.status, mine.aligned) == ("relabelled", "4-4: freedom")
    assert (theirs.label, theirs.aligned) == ("freedom", "4-4: freedom")
    # drawn under the labels, as the HTML reports draw them
    assert "liberty" in svg_node_text(answer.graph.svg, "c-v:s1f")
    assert "4-4: freedom" in svg_node_text(answer.graph.svg, "c-v:s1f")
    assert "4-4: freedom" in svg_node_text(answer.reference.svg, "r-v:s1f")
    # and the words, each with its nodes
    word = answer.graph.words[3]
    assert (word.position, word.text, word.variables) == (4, "freedom", ["s1f"])
    assert [w.text for w in answer.reference.words][:3] == ["Edmund", "Pope", "tasted"]


@needs_dot
@pytest.mark.asyncio
async def test_graph_view_of_a_czech_sentence_without_reference(
    start_client: Any, tmp_path: Path
) -> None:
    czech = data_path("umr") / "multilingual" / "czech.umr"
    document = tmp_path / "cs.umr"
    text = czech.read_text(encoding="utf-8")
    document.write_text(text, encoding="utf-8")
    client = await start_client(root=tmp_path, options={"debounceMs": 10})
    uri = await open_umr(client, document)
    await wait_score(client, uri, 1)
    answer = await graph_at(client, uri, position_of(text, "(s2ř / růst-001", 1))
    assert answer.graph.id == "snt2" and answer.reference is None
    assert answer.graph.sentence == "Růst trápí vládu ."
    aligned = {n.variable: n.aligned for n in answer.graph.nodes if n.variable}
    assert aligned == {"s2t": "2-2: trápí", "s2ř": "1-1: Růst", "s2v": "3-3: vládu"}
    assert "1-1: Růst" in svg_node_text(answer.graph.svg, "c-v:s2ř")
    first = await graph_at(client, uri, position_of(text, "(s1z / zvýšit-se-001", 1))
    lemma = next(n for n in first.graph.nodes if n.variable == "s1z")
    assert (lemma.label, lemma.aligned) == ("zvýšit-se-001", "2-3: se zvýšily")
