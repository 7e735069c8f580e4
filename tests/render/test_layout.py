"""Graphviz lays the graphs out: SVG to inline, one picture of several graphs,
and one clear line when Graphviz is missing."""

from __future__ import annotations

from pathlib import Path
from xml.etree import ElementTree

import pytest

from amrcheck import Corpus
from amrcheck.render import (
    INSTALL_HINT,
    LayoutError,
    lay_out,
    picture,
    scene_dot,
    single_view,
    text_dot,
)
from amrcheck.render.layout import BATCH

from .conftest import needs_dot

SVG = "{http://www.w3.org/2000/svg}"


def _ids(svg: str) -> dict[str, ElementTree.Element]:
    return {g.get("id", ""): g for g in ElementTree.fromstring(svg).iter(f"{SVG}g")}


@needs_dot
def test_each_graph_its_svg_with_ids_classes_and_titles(odd: Corpus) -> None:
    graphs = [e.graph for e in odd if e.graph is not None]
    sources = [scene_dot(single_view(g), f"g{k}-") for k, g in enumerate(graphs)]
    tips = {"g1-v:s": "s / sleep-01 (a tooltip)"}
    svgs = lay_out(sources, titles=tips.get)
    assert len(svgs) == 2
    for svg in svgs:
        assert svg.startswith("<svg") and "<?xml" not in svg and "<!--" not in svg
    first = _ids(svgs[0])
    assert "node" in first["g0-v:a"].get("class", "")
    assert "root" in first["g0-v:a"].get("class", "")
    assert "😋" in svgs[0] and "a&lt;b &amp;" in svgs[0]  # escaped labels survive
    assert _ids(svgs[1])["g1-v:s"].findtext(f"{SVG}title") == "s / sleep-01 (a tooltip)"


@needs_dot
def test_batches_in_parallel_keep_the_order(odd: Corpus) -> None:
    graph = odd[2].graph
    assert graph is not None
    count = 2 * BATCH + 3
    sources = [scene_dot(single_view(graph), f"n{k}-") for k in range(count)]
    done: list[int] = []
    svgs = lay_out(sources, jobs=2, progress=done.append)
    assert sum(done) == count and len(done) == 3
    assert all(f"n{k}-v:s" in _ids(svg) for k, svg in enumerate(svgs))


@needs_dot
def test_one_picture_of_several_graphs(odd: Corpus) -> None:
    sources = []
    for number, entry in enumerate(odd):
        prefix = f"g{number}-"
        if entry.graph is None:
            sources.append(text_dot(entry.text, ["E001"], prefix, entry.label))
        else:
            sources.append(scene_dot(single_view(entry.graph), prefix, entry.label))
    svg = picture(sources, "svg").decode("utf-8")
    ids = _ids(svg)
    assert {"g0-v:a", "g1-text", "g2-v:s"} <= set(ids)
    tops = {
        label: float(t.get("y", 0))
        for t in ElementTree.fromstring(svg).iter(f"{SVG}text")
        for label in ("odd.1", "odd.2", "odd.3") if t.text == label
    }
    assert set(tops) == {"odd.1", "odd.2", "odd.3"}
    # stacked top to bottom in the given order
    assert tops["odd.1"] < tops["odd.2"] < tops["odd.3"]
    png = picture(sources[:1], "png")
    assert png.startswith(b"\x89PNG\r\n\x1a\n")


def test_missing_graphviz_is_one_clear_line(
    odd: Corpus, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))  # no dot there
    graph = odd[2].graph
    assert graph is not None
    with pytest.raises(LayoutError) as raised:
        lay_out([scene_dot(single_view(graph), "x-")])
    message = str(raised.value)
    assert message == f"Graphviz's 'dot' is not on PATH; {INSTALL_HINT}"
    assert "\n" not in message and "apt-get install graphviz" in message


@needs_dot
def test_graphviz_failure_is_reported() -> None:
    with pytest.raises(LayoutError, match="dot failed .*syntax error"):
        lay_out(["digraph { a -> }\n"])


def test_dot_is_never_taken_from_a_relative_path_entry(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # issue 20: the language server runs in a workspace that may be a cloned
    # repository; with "." (or an empty entry) on PATH its own ./dot would run
    from amrcheck.render.layout import graphviz_program

    fake = tmp_path / "dot"
    fake.write_text("#!/bin/sh\necho pwned\n")
    fake.chmod(0o755)
    monkeypatch.chdir(tmp_path)
    for path in (".", "", "relative:."):
        monkeypatch.setenv("PATH", path)
        with pytest.raises(LayoutError, match="not on PATH"):
            graphviz_program()
    monkeypatch.setenv("PATH", f".:{tmp_path}")  # the same folder, named absolutely
    assert graphviz_program() == str(fake)
