"""Scenes as DOT: one palette, statuses as classes, text quoted for Graphviz."""

from __future__ import annotations

import re

from amrcheck import Corpus, get_metric
from amrcheck.render import PALETTE, pair_view, scene_dot, single_view, text_dot
from amrcheck.render.drawing import tooltips


def _line(dot: str, element_id: str) -> str:
    return next(line for line in dot.splitlines() if f'id="{element_id}"' in line)


def test_statuses_become_classes_and_palette_colours(
    versions: tuple[Corpus, Corpus],
) -> None:
    old, new = versions
    view = pair_view(new[1].graph, old[1].graph, get_metric("smatch"))
    dot = scene_dot(view.reference, "p-")
    missing = _line(dot, "p-v:g2")
    assert 'class="missing"' in missing
    assert f'color="{PALETTE["missing"]["color"]}"' in missing
    assert 'style="rounded,filled,dashed"' in missing
    root = _line(dot, "p-v:w")
    assert 'class="matched root"' in root and 'peripheries="2"' in root
    edge = next(e for e in view.reference.scene.edges if e.target == "v:g2")
    assert 'class="missing"' in _line(dot, f"p-{edge.key}")
    extra = scene_dot(view.candidate, "q-")
    assert f'color="{PALETTE["extra"]["color"]}"' in extra


def test_unscored_graph_is_plain(odd: Corpus) -> None:
    assert odd[2].graph is not None
    dot = scene_dot(single_view(odd[2].graph), "x-", title="odd.3: The girl sleeps.")
    assert 'class="plain root"' in _line(dot, "x-v:s")
    assert "subgraph cluster_title" in dot and 'label="odd.3: The girl sleeps."' in dot


def test_labels_are_escaped_for_graphviz(odd: Corpus) -> None:
    graph = odd[0].graph
    assert graph is not None
    side = single_view(graph)
    dot = scene_dot(side, "o-")
    value = next(n for n in side.scene.nodes if n.label.startswith('"a<b'))
    # an HTML-like label: < and & as entities, the quotes as written
    assert 'label=<"a&lt;b &amp; \\"c\\"">' in _line(dot, f"o-{value.key}")
    backslash = next(n for n in side.scene.nodes if "o/" in n.label)
    assert 'label=<"\\\\o/">' in _line(dot, f"o-{backslash.key}")
    assert "😋" in dot and "Zoë" in dot


def test_text_of_a_graph_that_does_not_parse(odd: Corpus) -> None:
    entry = odd[1]
    dot = text_dot(entry.text, [str(e) for e in entry.errors], "b-", "odd.2")
    assert 'class="unparsed"' in dot
    assert "(w / want-01" in dot and "E001 unbalanced parentheses" in dot
    assert re.search(r"odd\.amr:17:29: E001", dot)


def test_tooltips_name_the_element_and_its_place(odd: Corpus) -> None:
    graph = odd[0].graph
    assert graph is not None
    tips = tooltips(single_view(graph), "t-")
    assert tips["t-v:c"] == "c / cause-01  11:23"
    inverse = next(key for key, text in tips.items() if ":ARG1-of" in text)
    assert tips[inverse] == "(s3 :ARG1-of c)  11:13"
    assert tooltips(single_view(graph), "t-", places=False)["t-v:c"] == "c / cause-01"


def test_the_written_tree_ranks_the_drawing(odd: Corpus) -> None:
    graph = odd[0].graph
    assert graph is not None
    side = single_view(graph)
    dot = scene_dot(side, "w-")
    assert "ordering=out" in dot.splitlines()[1]  # children in written order
    first, second = (e for e in side.scene.edges if e.target == "v:h")
    assert 'label=":ARG0"' in _line(dot, f"w-{first.key}")
    # a re-entrancy does not rank the node it re-enters; its role is an
    # xlabel (Graphviz 2.43 corrupts memory on a labelled unranked edge)
    reentry = _line(dot, f"w-{second.key}")
    assert 'constraint="false"' in reentry and 'xlabel=":ARG0"' in reentry
    assert ' label=' not in reentry
