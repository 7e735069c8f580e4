"""Live similarity: a code lens per graph, the document score, inlay hints."""

from __future__ import annotations

import random
from typing import Any

import pytest
from lsprotocol import types
from pygls.exceptions import JsonRpcInvalidParams
from pytest_lsp import LanguageClient

from amrcheck.metrics import metric_names, resolve
from amrcheck.reading.corpus import read_corpus
from tests.broken import METRICS, metric_options
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
    wait_score,
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
        "smatch 1.00 · P 1.00 R 1.00 · 0 missing, 0 extra, 0 relabelled"
        " vs gold/lpp.amr#lpp_1943.1"
    )
    assert titles[3] == (
        "smatch 0.91 · P 1.00 R 0.83 · 2 missing, 0 extra, 0 relabelled"
        " vs gold/lpp.amr#lpp_1943.4"
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
    # the comment line above the first graph and the blank line below it
    # become a graph with an id (without one, every graph would pair by
    # position, as `amrcheck score` pairs them: issue 33): every graph
    # keeps its place, but its index is one more
    await change(client, uri, 2, "# ::id new\n(n / new)", (0, 0), (1, 0))
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
    nowhere = types.CodeLens(range=types.Range(start=pos(0, 0), end=pos(0, 0)),
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
    # break the graph: the lens keeps its score, marked as from before the
    # edit (issue 21); the other graphs keep their scores
    await change(client, uri, 3, "(", (at.line, at.character))
    titles = await lens_titles(client, uri)
    stale = (
        "smatch 1.00 (before this edit) · graph has errors: counts as 0 in the "
        "document score"
    )
    assert titles[1] == stale
    assert titles[3].startswith("smatch 0.91")
    # typing on while it is broken keeps the score of the last version that parsed
    await change(client, uri, 4, "(", (at.line, at.character))
    assert (await lens_titles(client, uri))[1] == stale
    # mended, it is scored again
    await change(
        client, uri, 5, "", (at.line, at.character), (at.line, at.character + 2)
    )
    titles = await lens_titles(client, uri)
    assert titles[1].startswith("smatch 1.00 · P 1.00 R 1.00 · 0 missing, 0 extra")


async def test_a_broken_graph_without_a_score_before_says_so(
    client: LanguageClient,
) -> None:
    text = ANNOTATION.read_text(encoding="utf-8")
    broken = text.replace("(c / chapter\n  :mod 1)", "(c / chapter\n  :mod 1")
    uri = await open_document(client, ANNOTATION, text=broken)
    titles = await lens_titles(client, uri)
    assert titles[0] == (
        "smatch – · graph has errors: counts as 0 in the document score"
    )


async def test_a_broken_graph_s_lens_sits_where_a_parsed_one_s_does_issue_22(
    client: LanguageClient,
) -> None:
    """A graph that does not parse keeps its lens on its first line (its
    "("), as a parsed graph's, never above its ``# ::id``."""
    text = ANNOTATION.read_text(encoding="utf-8")
    uri = await open_document(client, ANNOTATION)
    intact = [lens.range for lens in await resolved_lenses(client, uri)]
    broken = text.replace("(c / chapter\n  :mod 1)", "(c / chapter\n  :mod 1")
    broken = broken.replace(":domain (i / it)", ":domain ((i / it)")
    await change(client, uri, 2, broken)
    lenses = await resolved_lenses(client, uri)
    assert [lens.range for lens in lenses] == intact
    for graph, needle in ((0, "(c / chapter"), (2, "(p / picture\n  :domain")):
        assert lenses[graph].range.start == find(broken, needle)
        assert lenses[graph].command is not None
        assert "graph has errors" in lenses[graph].command.title


async def test_document_score(client: LanguageClient) -> None:
    uri = await open_document(client, ANNOTATION)
    score = await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command="amrcheck.documentScore", arguments=[uri])
    )
    assert score["uri"] == uri and score["metric"] == "smatch"
    assert score["graphs"] == score["compared"] == 8
    assert 0.9 < score["f1"] < 1.0
    # magnificent -> beautiful is one relabelling, not one missing and one extra
    assert (score["missing"], score["extra"], score["relabelled"]) == (2, 1, 1)
    # the same payload arrives as the amr/documentScore notification
    notified = client.scores[-1]
    assert (notified.uri, notified.version, notified.f1) == (uri, 1, score["f1"])


async def test_document_score_of_a_document_not_open_issue_22(
    client: LanguageClient,
) -> None:
    """A closed (or never opened) document: InvalidParams that says so, not
    "the document changed; try again"."""
    gold = (LSP_DATA / "gold" / "lpp.amr").as_uri()
    score = types.ExecuteCommandParams(
        command="amrcheck.documentScore", arguments=[gold]
    )
    with pytest.raises(JsonRpcInvalidParams, match="the document is not open"):
        await client.workspace_execute_command_async(score)
    uri = await open_document(client, ANNOTATION)
    client.text_document_did_close(
        types.DidCloseTextDocumentParams(text_document=doc(uri))
    )
    closed = types.ExecuteCommandParams(
        command="amrcheck.documentScore", arguments=[uri]
    )
    with pytest.raises(JsonRpcInvalidParams, match=f"not open: {uri}"):
        await client.workspace_execute_command_async(closed)
    for arguments in ([], [42]):
        with pytest.raises(JsonRpcInvalidParams, match="argument|document URI"):
            await client.workspace_execute_command_async(
                types.ExecuteCommandParams(
                    command="amrcheck.documentScore", arguments=arguments
                )
            )
    # open again: it answers
    await open_document(client, ANNOTATION)
    assert (await client.workspace_execute_command_async(closed))["uri"] == uri


@pytest.mark.parametrize("metric", METRICS)
@pytest.mark.slow
async def test_a_broken_graph_lowers_the_document_score_issue_21(
    start_client, metric: str, tmp_path
) -> None:
    """The status bar never improves because something broke: the broken
    graph counts as 0 until it parses again, and so does a deleted one."""
    client = await start_client(
        configuration={
            "metric": metric,
            "metricOptions": metric_options(metric, tmp_path),
        }
    )
    uri = await open_document(client, ANNOTATION)
    before = await wait_score(client, uri, 1, metric)
    assert before.counted_empty == [] and before.f1 > 0
    text = ANNOTATION.read_text(encoding="utf-8")
    at = find(text, "(b / be-located-at-91")  # lpp_1943.4 scores 0.91 with smatch
    await change(client, uri, 2, "(", (at.line, at.character))  # unbalanced
    broken = await wait_score(client, uri, 2, metric)
    assert broken.f1 < before.f1
    assert broken.graphs == 8 and broken.compared == 7
    (counted,) = broken.counted_empty
    assert counted.graph == "lpp_1943.4" and counted.why == "unreadable"
    assert counted.where.startswith(f"{ANNOTATION}:")
    # deleted, the graph still counts as 0: it is not in the document
    blocks = text.split("\n\n")
    deleted = "\n\n".join(b for b in blocks if "::id lpp_1943.4 " not in b)
    await change(client, uri, 3, deleted)
    gone = await wait_score(client, uri, 3, metric)
    assert gone.f1 == pytest.approx(broken.f1)
    (absent,) = gone.counted_empty
    assert absent.graph == "lpp_1943.4" and absent.why == "not in this document"
    assert absent.where.startswith(str(LSP_DATA / "gold" / "lpp.amr"))
    await change(client, uri, 4, text)
    assert (await wait_score(client, uri, 4, metric)).f1 == pytest.approx(before.f1)


async def test_no_reference(client: LanguageClient) -> None:
    uri = await open_document(client, LSP_DATA / "gold" / "lpp.amr")
    titles = await lens_titles(client, uri)
    assert set(titles) == {"smatch – · no reference file configured"}


@pytest.mark.parametrize("metric", ["rematch", "sema", "amrsim"])
@pytest.mark.slow
async def test_other_metric_from_configuration(start_client, metric: str) -> None:
    client = await start_client(configuration={"metric": metric})
    uri = await open_document(client, ANNOTATION)
    titles = await lens_titles(client, uri)
    assert titles[0].startswith(f"{metric} 1.00")
    # the diff still comes from smatch's alignment
    assert any(
        "relabelled (m / magnificent) at gold/lpp.amr:15:23" in d.message
        for d in client.diagnostics[uri]
    )


async def test_a_late_configuration_answer_still_scores_with_its_metric(
    start_client,
) -> None:
    """Editors open documents right after start-up, before the server has
    the answer to workspace/configuration: the first lenses must already
    use the configured metric, not the default."""
    client = await start_client(configuration={"metric": "sema"}, answer_after=1.5)
    uri = await open_document(client, ANNOTATION)
    titles = await lens_titles(client, uri)
    assert titles[0].startswith("sema 1.00")


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
        "smatch 1.00 · P 1.00 R 1.00 · 0 missing, 0 extra, 0 relabelled",
        "smatch 0.97 · P 0.97 R 0.97 · 0 missing, 0 extra, 1 relabelled",
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
@pytest.mark.slow
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


#: graph lpp_1943.4 (two reference triples missing) as each metric's lens
#: says it: in that metric's own units (issue 22)
OWN_UNITS = {
    "smatch": "smatch 0.91 · P 1.00 R 0.83 · 2 missing, 0 extra, 0 relabelled",
    "s2match": "s2match 0.91 · P 1.00 R 0.83 · 2 missing, 0 extra",
    "rematch": "rematch 0.82 · motifs: 9 shared, 2 missing, 0 extra",
    "sembleu": "sembleu 0.80 · n-grams: 9 shared, 2 missing, 0 extra",
    "sema": "sema 0.90 · P 1.00 R 0.82 · triples: 4 shared, 1 missing, 0 extra",
    "wlk": "wlk 0.87 · features: 12 shared, 6 missing, 3 extra",
    "wwlk": "wwlk 0.82 · 10 flows, 5 between different labels",
    "wwlk-theta": "wwlk-theta 0.82 · 10 flows, 5 between different labels",
    "recommended": "recommended 0.91 · 5 aligned nodes (0 relabelled)"
    " · weakest agreement: subtrees 0.87",
    "amrsim": "amrsim 0.95 · 11 nodes, 1 closest to another label",
}


@pytest.mark.parametrize("metric", sorted(OWN_UNITS))
@pytest.mark.slow
async def test_each_metric_s_lens_speaks_its_own_units_issue_22(
    start_client, tmp_path, metric: str
) -> None:
    client = await start_client(
        configuration={
            "metric": metric,
            "metricOptions": metric_options(resolve(metric), tmp_path),
        }
    )
    uri = await open_document(client, ANNOTATION)
    await wait_score(client, uri, 1, metric)
    titles = await lens_titles(client, uri)
    assert titles[3] == f"{OWN_UNITS[metric]} vs gold/lpp.amr#lpp_1943.4"
    if metric not in ("smatch", "s2match"):
        # smatch's triple counts belong to the alignment metrics only
        assert not any(" missing, 0 extra vs" in t and "shared" not in t
                       for t in titles)


async def score_titles(client: LanguageClient, *arguments: object) -> Any:
    return await client.workspace_execute_command_async(
        types.ExecuteCommandParams(
            command="amrcheck.scoreTitles", arguments=list(arguments)
        )
    )


async def test_score_titles_are_the_lens_titles_of_the_lines_asked_issue_29(
    client: LanguageClient,
) -> None:
    """VS Code's extension paints these as text after each graph's first
    line: the same words as the lens, for the graphs starting in the lines
    it shows, each with its whole entry's lines (what an edit must touch to
    make the text stale)."""
    uri = await open_document(client, ANNOTATION)
    text = ANNOTATION.read_text(encoding="utf-8")
    lenses = await resolved_lenses(client, uri)
    every = await score_titles(client, uri, 0, None)
    assert every["uri"] == uri and every["version"] == 1
    assert [g["title"] for g in every["graphs"]] == [
        lens.command.title for lens in lenses if lens.command
    ]
    assert [(g["line"], g["character"]) for g in every["graphs"]] == [
        (lens.range.start.line, lens.range.start.character) for lens in lenses
    ]
    fourth = find(text, "(b / be-located-at-91")
    # the lines of lpp_1943.4's first line only, then from it to lpp_1943.5's
    (only,) = (await score_titles(client, uri, fourth.line, fourth.line))["graphs"]
    assert only["id"] == "lpp_1943.4" and only["title"].startswith("smatch 0.91")
    assert round(only["score"], 4) == 0.9091
    # the entry starts at its "# ::id" (3 metadata lines) and ends with the graph
    assert only["startLine"] == fourth.line - 3
    assert only["endLine"] == find(text, "(d / draw-01)").line
    fifth = find(text, "(s2 / say-01").line
    shown = (await score_titles(client, uri, fourth.line - 2, fifth))["graphs"]
    assert [g["id"] for g in shown] == ["lpp_1943.4", "lpp_1943.5"]
    # a range holding no graph's first line (the metadata above lpp_1943.4)
    assert (await score_titles(client, uri, fourth.line - 3, fourth.line - 1))[
        "graphs"
    ] == []
    # after an edit, the titles of the new version
    at = find(text, "beautiful")
    await change(client, uri, 2, "magnificent", (at.line, at.character),
                 (at.line, at.character + len("beautiful")))
    after = await score_titles(client, uri, 0, fourth.line)
    assert after["version"] == 2
    assert after["graphs"][1]["title"].startswith("smatch 1.00 · P 1.00 R 1.00")
    for arguments in ([uri, -1, 3], [uri, "1", 3], [uri, 0, True], [uri, None, 3]):
        with pytest.raises(JsonRpcInvalidParams, match="line number"):
            await score_titles(client, *arguments)
    with pytest.raises(JsonRpcInvalidParams, match="not open"):
        await score_titles(client, (LSP_DATA / "gold" / "lpp.amr").as_uri(), 0, 9)
