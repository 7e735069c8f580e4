"""The gates of the hooks fail a pairing they cannot trust (issue 35)."""

from __future__ import annotations

from amrcheck.metrics import get_metric
from amrcheck.reading.corpus import Corpus, read_string
from amrcheck.workflows.gates import Comparison, compare, position_failures

from ..conftest import data_path


def smatch(reference: Corpus, candidate: Corpus) -> Comparison:
    return compare(get_metric("smatch"), reference, candidate)


def without_ids(text: str) -> str:
    return "\n".join(line for line in text.split("\n") if not line.startswith("# ::id"))


def test_a_graph_inserted_without_ids_fails_the_pairing_with_both_places() -> None:
    gold = without_ids(data_path("hooks/gold.amr").read_text("utf-8"))
    blocks = gold.strip().split("\n\n")
    inserted = "\n\n".join([blocks[2], *blocks]) + "\n"  # one graph copied first
    result = smatch(read_string(gold, "HEAD:a.amr"), read_string(inserted, "a.amr"))
    (failure,) = position_failures(result, "a.amr")
    assert failure.gate == "pairing"
    assert failure.message.startswith("5 pairs paired by position with different")
    assert "graphs paired by position: 5 graphs have no ::id in HEAD:a.amr" in (
        failure.message
    )
    assert failure.details[0].startswith("HEAD:a.amr:")
    assert "is paired by position with a.amr:" in failure.details[0]


def test_ids_that_differ_by_position_fail_the_pairing() -> None:
    gold = data_path("hooks/gold.amr").read_text("utf-8")
    blocks = gold.strip().split("\n\n")
    shuffled = "\n\n".join([without_ids(blocks[1]), blocks[0], *blocks[2:]]) + "\n"
    result = smatch(read_string(gold, "gold.amr"), read_string(shuffled, "a.amr"))
    assert result.pairs == [] and result.total is None
    (failure,) = position_failures(result, "a.amr")
    assert failure.message == "the files cannot be paired"
    assert "is paired by position with ::id" in failure.details[0]


def test_the_same_sentences_in_order_pair_by_position_without_failure() -> None:
    gold = without_ids(data_path("hooks/gold.amr").read_text("utf-8"))
    result = smatch(read_string(gold, "HEAD:a.amr"), read_string(gold, "a.amr"))
    assert result.matching is not None and result.matching.by == "position"
    assert position_failures(result, "a.amr") == []


def test_an_id_repeated_in_both_files_keeps_each_pair_issue_33() -> None:
    # by position (an id is repeated): two rows share the key "b"; each
    # pair keeps its own score, as `amrcheck score` counts them
    text = "# ::id a\n(a / x)\n\n# ::id b\n(b / y)\n\n# ::id b\n(c / z)\n"
    reference = read_string(text, "gold.amr")
    candidate = read_string(text.replace("(c / z)", "(c / w)"), "new.amr")
    result = compare(get_metric("smatch"), reference, candidate)
    assert [p.label for p in result.pairs] == ["a", "#2", "#3"]
    assert {k: round(s.f1, 2) for k, s in result.counted.items()} == {
        "a": 1.0, "#2": 1.0, "#3": 0.5,  # (c / w): its root still matches
    }
    assert result.total is not None and round(result.total.f1, 4) == round(5 / 6, 4)
