"""``amr/graph``: the graph under the cursor, its reference partner and the
explanation, as data (and SVG drawings laid out by Graphviz)."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import pytest
from pygls.exceptions import JsonRpcException
from pytest_lsp import ClientServerConfig, LanguageClient

from tests.render.conftest import needs_dot

from .conftest import (
    LSP_DATA,
    SERVER_COMMAND,
    change,
    find,
    initialize,
    make_client,
    open_document,
    shutdown,
)

pytestmark = pytest.mark.asyncio(loop_scope="module")

ANNOTATION = LSP_DATA / "annotations" / "lpp.amr"
TEXT = ANNOTATION.read_text(encoding="utf-8")
SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture
def client(shared_client: LanguageClient) -> LanguageClient:
    return shared_client


async def graph_at(
    client: LanguageClient, uri: str, line: int, character: int, svg: bool = False
) -> Any:
    return await client.protocol.send_request_async(
        "amr/graph",
        {
            "textDocument": {"uri": uri},
            "position": {"line": line, "character": character},
            "svg": svg,
        },
    )


def by_id(items: Any, key: str) -> Any:
    return next(item for item in items if item.id == key)


async def test_graph_under_cursor_with_reference_and_explanation(
    client: LanguageClient,
) -> None:
    uri = await open_document(client, ANNOTATION)
    at = find(TEXT, "beautiful")
    answer = await graph_at(client, uri, at.line, at.character)
    assert answer.graph.id == "lpp_1943.2"
    assert answer.metric == "smatch" and answer.note is None
    assert answer.reference.uri.endswith("gold/lpp.amr")
    assert answer.reference.id == "lpp_1943.2"
    # the relabelled concept, on both sides, each naming the other
    mine = by_id(answer.graph.nodes, "v:m")
    theirs = by_id(answer.reference.nodes, "v:m")
    assert (mine.label, mine.status, mine.partner) == (
        "beautiful", "relabelled", "magnificent"
    )
    assert (theirs.label, theirs.status, theirs.partner) == (
        "magnificent", "relabelled", "beautiful"
    )
    # a node's range is where its variable is defined: the client jumps there
    assert (mine.range.start.line, mine.range.start.character) == (
        at.line, at.character - len("m / ")
    )
    root = by_id(answer.graph.nodes, "v:s")
    assert root.root and root.label == "see-01" and root.status == "matched"
    # an AMR graph has no aligned words (a UMR sentence's: test_umr_scores)
    assert answer.graph.words is None and root.aligned is None
    # inverse roles as written, re-entrancies as a second edge into one node
    roles = {(e.source, e.role, e.target) for e in answer.graph.edges}
    assert ("v:s", ":ARG0", "v:i") in roles and ("v:a", ":ARG1", "v:i") in roles
    links = {(k.graph, k.reference) for k in answer.explanation.links}
    assert ("v:m", "v:m") in links and ("v:s", "v:s") in links
    assert answer.explanation.explainedBy == "smatch"
    assert answer.explanation.score.f1 == pytest.approx(0.9677, abs=1e-4)
    relabelled = [t for t in answer.explanation.triples if t.status == "relabelled"]
    assert [(t.graph.text, t.reference.text) for t in relabelled] == [
        ("(m / beautiful)", "(m / magnificent)")
    ]
    assert relabelled[0].graphElements == ["v:m"]


async def test_missing_triples_are_on_the_reference_side(
    client: LanguageClient,
) -> None:
    uri = await open_document(client, ANNOTATION)
    at = find(TEXT, "lpp_1943.4")  # the annotation dropped :ARG2 (h / here)
    answer = await graph_at(client, uri, at.line, at.character)
    assert answer.graph.id == "lpp_1943.4"
    missing = [t for t in answer.explanation.triples if t.status == "missing"]
    assert {t.reference.text for t in missing} == {"(h / here)", "(b :ARG2 h)"}
    assert all(t.graph is None for t in missing)
    here = next(n for n in answer.reference.nodes if n.label == "here")
    assert here.status == "missing"
    assert by_id(answer.reference.edges, missing[0].referenceElements[0]).status \
        == "missing"
    # the reference's ranges are in the reference file (gold/lpp.amr)
    gold = (LSP_DATA / "gold" / "lpp.amr").read_text(encoding="utf-8")
    start = find(gold, "h / here")
    assert (here.range.start.line, here.range.start.character) == (
        start.line, start.character
    )


async def test_cursor_between_graphs_shows_the_graph_above(
    client: LanguageClient,
) -> None:
    uri = await open_document(client, ANNOTATION)
    end = find(TEXT, "# ::id lpp_1943.3")
    answer = await graph_at(client, uri, end.line - 1, 0)  # the blank line
    assert answer.graph.id == "lpp_1943.2"


async def test_edits_redraw_and_a_broken_graph_is_its_text(
    client: LanguageClient,
) -> None:
    uri = await open_document(client, ANNOTATION)
    at = find(TEXT, "beautiful")
    await change(client, uri, 2, "magnificent", (at.line, at.character),
                 (at.line, at.character + len("beautiful")))
    answer = await graph_at(client, uri, at.line, at.character)
    assert by_id(answer.graph.nodes, "v:m").status == "matched"
    assert answer.explanation.score.f1 == 1.0
    # delete the graph's last parenthesis: no drawing, its text and error
    closing = find(TEXT, "(p2 / primeval)))")
    column = closing.character + len("(p2 / primeval))")
    await change(client, uri, 3, "", (closing.line, column), (closing.line, column + 1))
    answer = await graph_at(client, uri, at.line, at.character)
    assert answer.graph.nodes == [] and "magnificent" in answer.graph.text
    assert answer.graph.errors[0].code == "E001"
    assert answer.explanation is None
    await open_document(client, ANNOTATION)  # back to the file's text


async def test_graph_without_reference(client: LanguageClient) -> None:
    draft = LSP_DATA / "gold" / "unicode.amr"  # no reference configured for gold/
    uri = await open_document(client, draft)
    answer = await graph_at(client, uri, 2, 2)
    assert answer.reference is None and answer.explanation is None
    assert answer.note == "no reference file configured"
    assert answer.graph.nodes and all(n.status is None for n in answer.graph.nodes)


@needs_dot
async def test_svg_drawings_laid_out_by_graphviz(client: LanguageClient) -> None:
    uri = await open_document(client, ANNOTATION)
    at = find(TEXT, "beautiful")
    answer = await graph_at(client, uri, at.line, at.character, svg=True)
    assert answer.layoutProblem is None
    for side, prefix in ((answer.graph, "c-"), (answer.reference, "r-")):
        groups = {
            g.get("id"): g
            for g in ElementTree.fromstring(side.svg).iter(f"{SVG}g")
        }
        for node in side.nodes:
            classes = groups[prefix + node.id].get("class", "").split()
            assert "node" in classes and node.status in classes
        for edge in side.edges:
            assert "edge" in groups[prefix + edge.id].get("class", "")
    relabelled = ElementTree.fromstring(answer.graph.svg).find(
        f".//{SVG}g[@id='c-v:m']"
    )
    assert relabelled is not None
    assert relabelled.findtext(f"{SVG}title") == "m / beautiful"
    # one layout for both sides: every aligned node in the same place
    graph = places(answer.graph.svg, "c-")
    reference = places(answer.reference.svg, "r-")
    links = [(k.graph, k.reference) for k in answer.explanation.links]
    assert len(links) >= 5
    for mine, theirs in links:
        assert graph[mine] == pytest.approx(reference[theirs], abs=0.6)
    # and a legend in the view's roles, in the drawings' colours
    legend = {item.status: item for item in answer.legend}
    assert legend["missing"].meaning == "only in the reference"
    assert legend["extra"].meaning == "only in this file"
    assert legend["relabelled"].color == "#b06000" and legend["missing"].dashed


def places(svg: str, prefix: str) -> dict[str, tuple[float, float]]:
    """A node's centre: the middle of its label's text."""
    found = {}
    for group in ElementTree.fromstring(svg).iter(f"{SVG}g"):
        if "node" in (group.get("class") or "").split():
            ys = [float(t.get("y", 0)) for t in group.iter(f"{SVG}text")]
            shapes = [
                float(x)
                for shape in group.iter(f"{SVG}path")
                for x in re.findall(r"-?\d+(?:\.\d+)?", shape.get("d", ""))[0::2]
            ] or [float(t.get("x", 0)) for t in group.iter(f"{SVG}text")]
            key = (group.get("id") or "").removeprefix(prefix)
            found[key] = ((min(shapes) + max(shapes)) / 2, min(ys))
    return found


async def test_bad_params_are_invalid_params(client: LanguageClient) -> None:
    with pytest.raises(JsonRpcException, match="amr/graph expects"):
        await client.protocol.send_request_async("amr/graph", {"position": 3})


async def test_without_graphviz_the_answer_says_how_to_install(tmp_path: Path) -> None:
    config = ClientServerConfig(
        server_command=SERVER_COMMAND,
        client_factory=make_client,
        server_env={**os.environ, "PATH": str(tmp_path)},  # no dot there
    )
    client = await config.start()
    try:
        await initialize(client)
        uri = await open_document(client, ANNOTATION)
        at = find(TEXT, "beautiful")
        answer = await graph_at(client, uri, at.line, at.character, svg=True)
        assert answer.layoutProblem.startswith("Graphviz's 'dot' is not on PATH; ")
        assert "apt-get install graphviz" in answer.layoutProblem
        # the data is all there, only the drawings are not
        assert by_id(answer.graph.nodes, "v:m").status == "relabelled"
        assert not hasattr(answer.graph, "svg")
    finally:
        await shutdown(client)
        await client.stop()
