"""Drawings keep the written order, and a pair's two sides share one layout.

Read from the SVGs Graphviz draws: each node's place is the box around
its shape (``<path>``/``<polygon>`` points, in the SVG's coordinates).
The graphs are Little Prince ones: release 3.0 from the shared data, and
the same graphs in release 1.6 (``tests/data/render/lpp_v1.6.amr``).
"""

from __future__ import annotations

import re
from xml.etree import ElementTree

import pytest

from amrcheck import Corpus, get_metric, read_corpus
from amrcheck.render import (
    lay_out,
    lay_out_pairs,
    pair_drawing,
    pair_view,
    scene_dot,
    single_view,
)
from amrcheck.render.compare import Side
from amrcheck.workflows.diff import diff_aligner
from tests.conftest import data_path, shared_path

from .conftest import needs_dot

pytestmark = needs_dot

SVG = "{http://www.w3.org/2000/svg}"
_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")


def places(svg: str, prefix: str) -> dict[str, tuple[float, float, float, float]]:
    """Scene key -> (left, top, right, bottom) of each node's shape."""
    found = {}
    for group in ElementTree.fromstring(svg).iter(f"{SVG}g"):
        if "node" not in (group.get("class") or "").split():
            continue
        numbers: list[float] = []
        for shape in group:
            if shape.tag in (f"{SVG}path", f"{SVG}polygon"):
                text = shape.get("d") or shape.get("points") or ""
                numbers += [float(n) for n in _NUMBER.findall(text)]
        xs, ys = numbers[0::2], numbers[1::2]
        key = (group.get("id") or "").removeprefix(prefix)
        found[key] = (min(xs), min(ys), max(xs), max(ys))
    return found


def centre(box: tuple[float, float, float, float]) -> float:
    return (box[0] + box[2]) / 2


def middle(box: tuple[float, float, float, float]) -> tuple[float, float]:
    return centre(box), (box[1] + box[3]) / 2


@pytest.fixture(scope="module")
def v3() -> Corpus:
    return read_corpus(shared_path("little_prince/amr-bank-struct-v3.0.txt"))


@pytest.fixture(scope="module")
def v16() -> Corpus:
    return read_corpus(data_path("render/lpp_v1.6.amr"))


def entry(corpus: Corpus, label: str):  # type: ignore[no-untyped-def]
    return next(e for e in corpus if e.label == label)


Box = tuple[float, float, float, float]


def children_in_order(side: Side, box: dict[str, Box]) -> None:
    """Each node's children (as written, not re-entrancies) stand left to
    right in the order they are written."""
    written: dict[str, list[str]] = {}
    for edge in side.scene.edges:
        if not edge.reentrant:
            written.setdefault(edge.source, []).append(edge.target)
    assert written
    for parent, children in written.items():
        xs = [centre(box[child]) for child in children]
        assert xs == sorted(xs) and len(set(xs)) == len(xs), (parent, children, xs)


@pytest.mark.parametrize("label", ["lpp_1943.10", "lpp_1943.20"])
def test_a_drawing_keeps_the_written_order_of_children(v3: Corpus, label: str) -> None:
    graph = entry(v3, label).graph
    side = single_view(graph)
    box = places(lay_out([scene_dot(side, "g-")])[0], "g-")
    ops = sorted(
        (e.role, e.target) for e in side.scene.edges if e.role.startswith(":op")
    )
    xs = [centre(box[target]) for _, target in ops]
    assert [role for role, _ in ops] == [":op1", ":op2", ":op3"][: len(ops)]
    assert len(ops) >= 2 and xs == sorted(xs)  # :op1 < :op2 (< :op3), left to right
    children_in_order(side, box)


@pytest.mark.parametrize("label", ["lpp_1943.10", "lpp_1943.20", "lpp_1943.1168"])
def test_a_pair_shares_one_layout(v3: Corpus, v16: Corpus, label: str) -> None:
    old, new = entry(v16, label).graph, entry(v3, label).graph
    view = pair_view(new, old, get_metric("smatch"), diff_aligner())
    assert view.score.f1 < 1  # the two releases differ
    drawing = pair_drawing(view, "r-", "c-")
    ((before, after),) = lay_out_pairs([drawing])
    ref, cand = places(before, "r-"), places(after, "c-")
    shared = [(c, r) for c, r in drawing.partner.items() if c in cand and r in ref]
    assert len(shared) >= 8
    # the same frame, and every aligned node in the same place on both sides
    # (centred there: a relabelled node's box is as wide as its own label)
    size = re.compile(r'<svg width="[^"]*" height="[^"]*"')
    assert size.match(before).group(0) == size.match(after).group(0)  # type: ignore[union-attr]
    for c, r in shared:
        assert middle(cand[c]) == pytest.approx(middle(ref[r]), abs=0.6), (c, r)
    # so their order left to right and top to bottom is the same
    for axis in (0, 1):
        by_ref = sorted(shared, key=lambda pair: (middle(ref[pair[1]])[axis], pair[1]))
        by_cand = sorted(
            shared, key=lambda pair: (middle(cand[pair[0]])[axis], pair[1])
        )
        assert [middle(ref[r])[axis] for _, r in by_ref] == pytest.approx(
            [middle(ref[r])[axis] for _, r in by_cand], abs=0.6
        )
    children_in_order(view.reference, ref)


def test_the_partners_are_one_to_one_and_edges_join_partners(
    v3: Corpus, v16: Corpus
) -> None:
    old, new = entry(v16, "lpp_1943.1168").graph, entry(v3, "lpp_1943.1168").graph
    view = pair_view(new, old, get_metric("smatch"), diff_aligner())
    drawing = pair_drawing(view, "r-", "c-")
    partner = drawing.partner
    assert len(set(partner.values())) == len(partner)
    edges_c = {e.key: e for e in view.candidate.scene.edges}
    edges_r = {e.key: e for e in view.reference.scene.edges}
    for c, r in partner.items():
        if c in edges_c:
            assert partner[edges_c[c].source] == edges_r[r].source
            assert partner[edges_c[c].target] == edges_r[r].target
    # the union holds each shared element once
    union = drawing.union_dot()
    assert union.count(" -> ") == len(edges_r) + len(edges_c) - sum(
        c in edges_c for c in partner
    )
