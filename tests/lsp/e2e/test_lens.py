"""Live similarity: a code lens per graph, the document score, inlay hints."""

from __future__ import annotations

import random

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from amrcheck.metrics import metric_names, resolve
from amrcheck.reading.corpus import read_corpus
from tests.rewrite import rewrite

from .conftest import (
    DEFAULT_OPTIONS,
    LSP_DATA,
    change,
    doc,
    find,
    lens_titles,
    open_document,
    pos,
    resolved_lenses,
    wait_published,
)

ANNOTATION = LSP_DATA / "annotations" / "lpp.amr"


async def test_lens_per_graph(client: LanguageClient) -> None:
    uri = await open_document(client, ANNOTATION)
    lenses = await resolved_lenses(client, uri)
    assert len(lenses) == 8
    text = ANNOTATION.read_text(encoding="utf-8")
    assert lenses[3].range.start == find(text, "(b / be-located-at-91")
    titles = [lens.command.title for lens in lenses if lens.command]
    assert titles[0] == (
        "smatch 1.00 · P 1.00 R 1.00 · 0 missing, 0 extra vs gold/lpp.amr#lpp_1943.1"
    )
    assert titles[3] == (
        "smatch 0.91 · P 1.00 R 0.83 · 2 missing, 0 extra vs gold/lpp.amr#lpp_1943.4"
    )
    assert lenses[0].command is not None
    assert lenses[0].command.command == "amrcheck.documentScore"
    assert list(lenses[0].command.arguments or []) == [uri]


async def test_lenses_are_resolved_on_demand(start_client) -> None:
    client = await start_client()
    provider = client.initialize_result.capabilities.code_lens_provider
    assert provider is not None and provider.resolve_provider
    uri = await open_document(client, ANNOTATION)
    lenses = await client.text_document_code_lens_async(
        types.CodeLensParams(text_document=doc(uri))
    )
    assert [lens.command for lens in lenses] == [None] * 8
    one = await client.code_lens_resolve_async(lenses[3])
    assert one.range == lenses[3].range
    assert one.command is not None and one.command.title.startswith("smatch 0.91")


async def test_stale_lens_resolves_to_the_graph_now_at_its_place(
    client: LanguageClient,
) -> None:
    uri = await open_document(client, ANNOTATION)
    old = await client.text_document_code_lens_async(
        types.CodeLensParams(text_document=doc(uri))
    )
    # the comment line above the first graph becomes a graph: every graph
    # keeps its place, but its index is one more
    first_line = ANNOTATION.read_text(encoding="utf-8").split("\n")[0]
    await change(client, uri, 2, "(n / new)", (0, 0), (0, len(first_line)))
    lenses = await client.text_document_code_lens_async(
        types.CodeLensParams(text_document=doc(uri))
    )
    assert len(lenses) == 9 and lenses[2].range == old[1].range
    # lens 1 of version 1 is resolved for the graph at its place, not index 1
    stale = await client.code_lens_resolve_async(old[1])
    assert stale.command is not None
    assert stale.command.title.startswith("smatch 0.97")
    assert stale.command.title.endswith("#lpp_1943.2")
    fresh = await client.code_lens_resolve_async(lenses[1])
    assert fresh.command is not None
    assert fresh.command.title.startswith("smatch 1.00")
    assert fresh.command.title.endswith("#lpp_1943.1")
    # a lens whose place holds no graph any more is refused, not mislabelled
    nowhere = types.CodeLens(range=types.Range(start=pos(1, 0), end=pos(1, 0)),
                             data=[uri, 0])
    with pytest.raises(Exception, match="changed"):
        await client.code_lens_resolve_async(nowhere)
    # and one that is not ours at all is refused too
    with pytest.raises(Exception, match="not a code lens of this server"):
        await client.code_lens_resolve_async(
            types.CodeLens(range=nowhere.range, data={"x": 1})
        )


async def test_lens_follows_typing(client: LanguageClient) -> None:
    uri = await open_document(client, ANNOTATION)
    text = ANNOTATION.read_text(encoding="utf-8")
    at = find(text, "beautiful")
    await change(client, uri, 2, "magnificent", (at.line, at.character),
                 (at.line, at.character + len("beautiful")))
    titles = await lens_titles(client, uri)
    assert titles[1].startswith("smatch 1.00 · P 1.00 R 1.00 · 0 missing, 0 extra")
    # break the graph: the lens says so; the other graphs keep their scores
    await change(client, uri, 3, "(", (at.line, at.character))
    titles = await lens_titles(client, uri)
    assert titles[1] == "smatch – · graph has errors"
    assert titles[3].startswith("smatch 0.91")


async def test_document_score(client: LanguageClient) -> None:
    uri = await open_document(client, ANNOTATION)
    score = await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command="amrcheck.documentScore", arguments=[uri])
    )
    assert score["uri"] == uri and score["metric"] == "smatch"
    assert score["graphs"] == score["compared"] == 8
    assert 0.9 < score["f1"] < 1.0
    assert (score["missing"], score["extra"]) == (3, 2)
    # the same payload arrives as the amr/documentScore notification
    notified = client.scores[-1]
    assert (notified.uri, notified.version, notified.f1) == (uri, 1, score["f1"])


async def test_no_reference(client: LanguageClient) -> None:
    uri = await open_document(client, LSP_DATA / "gold" / "lpp.amr")
    titles = await lens_titles(client, uri)
    assert set(titles) == {"smatch – · no reference file configured"}


@pytest.mark.parametrize("metric", ["rematch", "sema", "amrsim"])
async def test_other_metric_from_configuration(start_client, metric: str) -> None:
    client = await start_client(configuration={"metric": metric})
    uri = await open_document(client, ANNOTATION)
    titles = await lens_titles(client, uri)
    assert titles[0].startswith(f"{metric} 1.00")
    # the diff still comes from smatch's alignment
    assert any(d.code == "diff-concept" for d in client.diagnostics[uri])


async def test_inlay_hints(start_client) -> None:
    client = await start_client(
        options={**DEFAULT_OPTIONS, "features": {"inlayHints": True}}
    )
    uri = await open_document(client, ANNOTATION)
    hints = await client.text_document_inlay_hint_async(
        types.InlayHintParams(
            text_document=doc(uri), range=types.Range(start=pos(0, 0), end=pos(20, 0))
        )
    )
    assert [h.label.split(" vs ")[0] for h in hints] == [
        "smatch 1.00 · P 1.00 R 1.00 · 0 missing, 0 extra",
        "smatch 0.97 · P 0.97 R 0.97 · 1 missing, 1 extra",
    ]
    text = ANNOTATION.read_text(encoding="utf-8")
    top = find(text, "(c / chapter")  # the hint ends the graph's first line
    assert hints[0].position == pos(top.line, top.character + len("(c / chapter"))


async def test_open_without_waiting_is_consistent(client: LanguageClient) -> None:
    uri = await open_document(client, ANNOTATION)
    text = ANNOTATION.read_text(encoding="utf-8")
    # several quick edits, then one lens request: it answers for the last one
    for version, char in enumerate("abc", start=2):
        await change(client, uri, version, char, (0, 2), wait=False)
    titles = await lens_titles(client, uri)
    await wait_published(client, uri, 4)
    assert client.published[uri] == 4
    assert len(titles) == 8
    assert text  # unchanged on disk


@pytest.mark.parametrize("metric", [m for m in metric_names() if resolve(m) == m])
async def test_reordered_branches_leave_the_lenses_unchanged_issue_24(
    start_client, metric: str
) -> None:
    """Every registered metric: an annotator who reorders branches has not
    changed a graph, so no lens and not the document score may move."""
    # the metric from the start (initialization options), not only from
    # workspace/configuration, whose answer can come after the first lenses
    client = await start_client(
        configuration={"metric": metric}, options={**DEFAULT_OPTIONS, "metric": metric}
    )
    uri = await open_document(client, ANNOTATION)
    before = await lens_titles(client, uri)
    assert before[0].startswith(f"{metric} "), before
    score_before = client.scores[-1].f1
    text = ANNOTATION.read_text(encoding="utf-8")
    rng = random.Random(24)
    for entry in read_corpus(ANNOTATION):
        assert entry.graph is not None
        text = text.replace(
            entry.graph.text, rewrite(entry.graph.text, "shuffle", rng), 1
        )
    assert text != ANNOTATION.read_text(encoding="utf-8")
    await change(client, uri, 2, text)
    assert await lens_titles(client, uri) == before
    assert client.scores[-1].version == 2
    assert client.scores[-1].f1 == score_before
