"""The diff engine on the example revision and on small hand-made cases."""

from __future__ import annotations

from pathlib import Path

import pytest

from amrcheck.metrics import get_metric
from amrcheck.reading.corpus import read_corpus, read_string
from amrcheck.workflows.diff import (
    CorpusDiff,
    diff_corpora,
    motif_changes,
    triple_changes,
)
from tests.conftest import REPO, shared_path
from tests.graph_census import SICK, GraphCensus, repeat_corpus

EXAMPLES = REPO / "examples"


def examples_diff(**options: object) -> CorpusDiff:
    return diff_corpora(
        read_corpus(EXAMPLES / "annotations_v1.amr"),
        read_corpus(EXAMPLES / "annotations_v2.amr"),
        **options,  # type: ignore[arg-type]
    )


def changes(result: CorpusDiff, key: str) -> list[str]:
    (graph,) = [g for g in result.graphs if g.id == key]
    return [str(change) for change in graph.changes]


V1, V2 = "examples/annotations_v1.amr", "examples/annotations_v2.amr"


def test_statuses_of_the_example_revision() -> None:
    result = examples_diff()
    assert [(g.id, g.status) for g in result.graphs] == [
        ("ex.1", "changed"),
        ("ex.2", "changed"),
        ("ex.3", "changed"),
        ("ex.4", "unchanged"),
        ("ex.5", "changed"),
        ("ex.6", "added"),
    ]
    assert result.summary == {
        "added": 1,
        "removed": 0,
        "changed": 4,
        "unchanged": 1,
        "metadata_only": 1,
    }
    assert result.differs


def test_polarity_reentrancy_relabel_and_role_changes() -> None:
    result = examples_diff()
    old, new = (
        str(EXAMPLES / "annotations_v1.amr"),
        str(EXAMPLES / "annotations_v2.amr"),
    )
    assert changes(result, "ex.1") == [f"+ {new}:7:17 (a :polarity -)"]
    # re-entrancy: the second girl node is gone, the edge points at g
    assert changes(result, "ex.2") == [
        f"- {old}:15:13 (v :ARG0 g2)",
        f"- {old}:15:20 (g2 / girl)",
        f"+ {new}:17:13 (v :ARG0 g)",
    ]
    assert changes(result, "ex.3") == [
        f"~ {old}:27:11 (r / researcher) -> {new}:30:11 (p / person)",
        f"~ {old}:30:13 (q / quick) -> {new}:34:13 (q / quick-02)",
        f"+ {new}:31:13 (p :ARG0-of r)",
        f"+ {new}:31:23 (r / research-01)",
    ]
    assert changes(result, "ex.5") == [
        f"- {old}:44:4 (p :ARG0 r)",
        f"+ {new}:48:4 (p :ARG1 r)",
    ]


def test_renamed_and_relaid_graph_is_unchanged_with_header_notes() -> None:
    (ex4,) = [g for g in examples_diff().graphs if g.id == "ex.4"]
    assert ex4.status == "unchanged" and ex4.changes == []
    assert ex4.layout_changed and ex4.comments_changed and ex4.metadata == {}
    assert ex4.score is not None and ex4.score.f1 == 1.0


def test_added_graph_lists_its_triples() -> None:
    (ex6,) = [g for g in examples_diff().graphs if g.id == "ex.6"]
    assert ex6.old is None and ex6.new == (54, 1) and ex6.score is None
    assert {c.kind for c in ex6.changes} == {"added"}
    assert len(ex6.changes) == 11  # 6 instances, 4 edges and attributes, TOP


def test_scores_use_the_chosen_metric_new_against_old() -> None:
    result = examples_diff(metric=get_metric("rematch"))
    assert result.metric == "rematch"
    (ex2,) = [g for g in result.graphs if g.id == "ex.2"]
    # rematch does not see the re-entrancy; the triple diff does
    assert ex2.score is not None and ex2.score.f1 == 1.0 and ex2.status == "changed"


def test_edge_direction_order_and_names_are_not_changes() -> None:
    old = read_string(
        "# ::id 1\n# ::snt x\n(a / b :ARG0 (c / d) :ARG1 (e / f :ARG2 c))\n", "o.amr"
    )
    new = read_string(
        "# ::id 1\n# ::snt y\n(z / b\n   :ARG1 (y / f :ARG2 (x / d :ARG0-of z)))\n",
        "n.amr",
    )
    (graph,) = diff_corpora(old, new).graphs
    assert graph.status == "unchanged" and graph.layout_changed
    assert graph.metadata == {"snt": ("x", "y")}
    assert not diff_corpora(old, new).differs


def test_removed_graph_and_position_fallback() -> None:
    old = read_string("(a / one)\n\n(b / two)\n", "o.amr")
    new = read_string("(a / one)\n", "n.amr")
    result = diff_corpora(old, new)
    assert result.matching.by == "position" and "no ::id" in str(result.matching.note)
    assert [(g.id, g.status) for g in result.graphs] == [
        ("#1", "unchanged"),
        ("#2", "removed"),
    ]
    assert [str(c) for c in result.graphs[1].changes] == [
        "- o.amr:3:2 (b / two)",
        "- o.amr:3:2 (b :TOP top)",
    ]


def test_syntax_error_in_one_version() -> None:
    old = read_string("# ::id 1\n(a / b)\n\n# ::id 2\n(c / d)\n", "o.amr")
    new = read_string("# ::id 1\n(a / b\n\n# ::id 2\n(c / d)\n", "n.amr")
    result = diff_corpora(old, new)
    one, two = result.graphs
    assert one.status == "changed" and one.changes == []
    assert one.errors and one.errors[0].startswith("n.amr:2:7: E001")
    assert two.status == "unchanged"
    # the unreadable new graph counts as an empty graph (issue 21)
    assert one.score is not None and one.score.f1 == 0.0 and one.counted_empty
    assert result.total is not None and result.total.f1 == pytest.approx(2 / 3)
    skipped = diff_corpora(old, new, skip_unreadable=True)
    assert skipped.graphs[0].score is None and skipped.graphs[0].left_out
    assert skipped.total is not None and skipped.total.f1 == 1.0
    assert (skipped.left_out, result.counted_empty) == (1, 1)
    # and an unreadable old graph leaves its pair out: it cannot be judged
    back = diff_corpora(new, old).graphs[0]
    assert back.score is None and back.left_out and not back.counted_empty


def test_removed_graphs_count_as_empty_graphs_issue_21() -> None:
    old = read_string("# ::id 1\n(a / b)\n\n# ::id 2\n(c / d)\n", "o.amr")
    new = read_string("# ::id 1\n(a / b)\n", "n.amr")
    result = diff_corpora(old, new)
    removed = result.graphs[1]
    assert removed.status == "removed" and removed.counted_empty
    assert removed.score is not None and removed.score.counts["reference"] == 2
    assert result.total is not None and result.total.f1 == pytest.approx(2 / 3)
    added = diff_corpora(new, old).graphs[1]  # no reference: not scored
    assert added.status == "added" and added.score is None and not added.left_out


def test_jobs_give_identical_results() -> None:
    assert examples_diff(jobs=2).graphs == examples_diff(jobs=1).graphs


def test_motif_changes_point_at_sources() -> None:
    old = read_corpus(EXAMPLES / "annotations_v1.amr")
    new = read_corpus(EXAMPLES / "annotations_v2.amr")
    found = [str(c) for c in motif_changes(old[0].graph, new[0].graph)]
    assert f"+ {EXAMPLES / 'annotations_v2.amr'}:7:17 attribute (polarity -)" in found
    assert sum(c.startswith("-") for c in found) == 3


@pytest.mark.slow
@pytest.mark.parametrize("shuffle", [False, True], ids=["in step", "read again"])
def test_graphs_held_do_not_grow_with_the_files_issue_6(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, shuffle: bool
) -> None:
    old, new = tmp_path / "old.amr", tmp_path / "new.amr"
    held = []
    for times in (4, 16):  # 200 and 800 graphs per file
        repeat_corpus(shared_path(f"{SICK}/src.dev.amr"), old, times)
        repeat_corpus(shared_path(f"{SICK}/tgt.dev.amr"), new, times, shuffle)
        census = GraphCensus()
        monkeypatch.setattr(
            "amrcheck.workflows.diff.triple_changes", census.wrap(triple_changes)
        )
        result = diff_corpora(old, new, chunk_rows=16, chunk_bytes=2048)
        assert len(result.graphs) == 50 * times
        held.append(census.held)
    # both files whole would be 400 and 1,600 graphs
    assert held[1] < 150 and held[1] <= held[0] + 30, held


@pytest.mark.parametrize("jobs", [1, 2])
def test_streamed_files_diff_as_whole_files_do(tmp_path: Path, jobs: int) -> None:
    old, new = tmp_path / "old.amr", tmp_path / "new.amr"
    old.write_text((EXAMPLES / "annotations_v1.amr").read_text())
    blocks = (EXAMPLES / "annotations_v2.amr").read_text().strip().split("\n\n")
    # the new version's graphs in another order: most rows wait and are read again
    new.write_text("\n\n".join(blocks[3:] + blocks[:3]) + "\n")
    whole = diff_corpora(read_corpus(old), read_corpus(new))
    streamed = diff_corpora(old, new, jobs=jobs, chunk_rows=2, chunk_bytes=64)
    assert streamed.graphs == whole.graphs and streamed.total == whole.total
    assert [g.id for g in streamed.graphs] == [f"ex.{n}" for n in range(1, 7)]
    assert streamed.matching.errors == [] and streamed.matching.sizes == [5, 6]
