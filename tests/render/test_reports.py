"""The HTML reports: what they hold, and that they hold everything themselves."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from amrcheck import Corpus, diff_corpora, get_metric, read_corpus
from amrcheck.reading.corpus import read_string
from amrcheck.render import (
    diff_report,
    expanded,
    graphs_picture,
    graphs_report,
    score_report,
)
from amrcheck.workflows.evaluate import evaluate
from tests.broken import (
    BROKEN,
    CANDIDATE,
    METRICS,
    REFERENCE,
    break_graph,
    metric_options,
)

from .conftest import ANNOTATION, GOLD, needs_dot, page_text

pytestmark = needs_dot


class _Page(HTMLParser):
    """Tags, attributes and visible text of a page."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.text: list[str] = []
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))

    def handle_data(self, data: str) -> None:
        self.text.append(data)

    def find(self, tag: str, **attrs: str) -> list[dict[str, str | None]]:
        return [
            a for t, a in self.tags
            if t == tag and all(a.get(k.rstrip("_")) == v for k, v in attrs.items())
        ]


def assert_self_contained(html: str) -> None:
    page = _Page(html)
    for tag, attrs in page.tags:
        assert tag not in ("link", "iframe", "img", "object", "embed"), tag
        assert not attrs.get("src"), (tag, attrs)
        href = attrs.get("href") or ""
        assert href == "" or href.startswith("#"), href
    # the only URLs are the SVG namespaces, never fetched
    urls = set(re.findall(r"https?://[^\s\"'<>)]+", html))
    assert urls <= {"http://www.w3.org/2000/svg", "http://www.w3.org/1999/xlink"}, urls
    assert "@import" not in html and "url(" not in html


def test_graphs_report_draws_every_graph_and_shows_broken_ones(odd: Corpus) -> None:
    html = graphs_report(odd)
    assert_self_contained(html)
    html = expanded(html)
    page = _Page(html)
    sections = page.find("section")
    assert [s["id"] for s in sections] == ["g1", "g2", "g3"]
    assert [s["data-status"] for s in sections] == ["ok", "error", "ok"]
    assert html.count("<svg") == 2
    # the graph that does not parse: its text and its error with the place
    text = "".join(page.text)
    assert "(w / want-01\n   :ARG0 (b / boy)" in text
    assert "tests/data/render/odd.amr:17:29: E001 unbalanced parentheses" in text
    rows = page.find("tr")
    assert [r.get("data-status") for r in rows[1:]] == ["ok", "error", "ok"]


def test_graphs_report_of_chosen_entries(odd: Corpus) -> None:
    html = graphs_report(odd, [odd[2]])
    assert html.count("<section") == 1 and "odd.3" in html and "odd.1" not in html


def test_diff_report(versions: tuple[Corpus, Corpus]) -> None:
    old, new = versions
    metric = get_metric("smatch")
    result = diff_corpora(old, new, metric)
    html = diff_report(result, old, new, metric)
    assert_self_contained(html)
    html = expanded(html)
    page = _Page(html)
    # one row per graph; a drawing for each graph that changed or was added
    rows = {r["data-status"] for r in page.find("tr") if r.get("data-status")}
    assert rows == {"changed", "unchanged", "added"}
    sections = {s["id"]: s for s in page.find("section")}
    assert len(sections) == 5  # ex.4 is unchanged: in the table only
    assert all(r.get("data-section") in sections
               for r in page.find("tr") if r.get("data-status") == "changed")
    # ex.3: both sides drawn, the relabelled nodes linked
    assert '["v:p", "v:r", 1.0]' in (sections["g3"]["data-links"] or "")
    text = page_text(html)
    # the relabelled researcher, its file named once above the places
    assert "old · examples/annotations_v1.amr" in text and "27:11" in text
    assert "(r / researcher)" in text and "(p / person)" in text
    # the added graph: drawn once, all of it extra
    added = next(s for s in sections.values() if s["data-status"] == "added")
    block = html[html.index(f'id="{added["id"]}"'):]
    block = block[: block.index("</section>")]
    assert block.count("<svg") == 1 and 'class="node extra root"' in block


def test_score_report_one_column_per_metric() -> None:
    reference, candidate = read_corpus(GOLD), read_corpus(ANNOTATION)
    metrics = [get_metric("smatch"), get_metric("rematch")]
    evaluation = evaluate(reference, [candidate], metrics)
    html = score_report(evaluation, reference, [candidate], metrics)
    assert_self_contained(html)
    page = _Page(html)
    assert ["id", "status", "smatch", "rematch", "P", "R"] == page.text[
        page.text.index("id") : page.text.index("id") + 6
    ]
    statuses = [r["data-status"] for r in page.find("tr") if r.get("data-status")]
    assert statuses.count("different") == 3 and statuses.count("identical") == 5
    # the differing pairs drawn, the identical ones rows of the table only
    assert [s["data-status"] for s in page.find("section")] == ["different"] * 3
    linked = [r for r in page.find("tr") if r.get("data-section")]
    assert {r["data-status"] for r in linked} == {"different"}
    text = page_text(html)
    assert "(m / magnificent)" in text and "(m / beautiful)" in text
    # the page opens on the pairs that differ, the legend in the roles of scores
    assert '<option value="!identical" selected>' in html
    assert "all but identical (3)" in page.text and "all (8)" in page.text
    assert "missing: only in the reference" in text
    assert "extra: only in the candidate" in text and "(old)" not in text
    everything = score_report(
        evaluation, reference, [candidate], metrics, draw_all=True
    )
    assert len(_Page(everything).find("section")) == 8


def test_score_report_of_two_candidates_names_them() -> None:
    reference, candidate = read_corpus(GOLD), read_corpus(ANNOTATION)
    metrics = [get_metric("smatch")]
    evaluation = evaluate(reference, [candidate, reference], metrics)
    html = score_report(
        evaluation, reference, [candidate, reference], metrics, draw_all=True
    )
    page = _Page(html)
    assert [t for t in page.text if t in ("candidate", "id")] == ["candidate", "id"]
    # named relative to the working folder (the tests run in the checkout)
    shown = {
        p: str(Path(p).relative_to(Path.cwd()))
        for p in (candidate.path, reference.path)
    }
    cells = [t for t in page.text if t in shown.values()]
    assert cells.count(shown[candidate.path]) >= 8
    assert cells.count(shown[reference.path]) >= 8
    assert len(page.find("section")) == 16
    statuses = [r["data-status"] for r in page.find("tr") if r.get("data-status")]
    assert statuses.count("identical") == 5 + 8  # the reference against itself


def test_paths_are_shown_relative_to_the_working_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from amrcheck.render.html import shown_path

    monkeypatch.chdir(tmp_path)
    (tmp_path / "sub").mkdir()
    assert shown_path(str(tmp_path / "sub" / "a.amr")) == "sub/a.amr"
    assert shown_path("sub/a.amr") == "sub/a.amr"
    assert shown_path(str(tmp_path.parent / "b.amr")) == "../b.amr"
    # far away: the absolute path is the shorter
    monkeypatch.chdir(tmp_path / "sub")
    far = "/" + "/".join(["x"] * 2)
    assert shown_path(far) == far
    assert shown_path("<string>") == "<string>"


def test_picture_of_graphs_with_a_broken_one(odd: Corpus) -> None:
    svg = graphs_picture(list(odd), "svg").decode("utf-8")
    assert "odd.1: He said" in svg and "E001 unbalanced parentheses" in svg
    assert "(w / want&#45;01" in svg or "(w / want-01" in svg


def _rows(html: str) -> dict[str, tuple[str, list[str]]]:
    """The summary rows by id: (status, the text of every cell)."""
    rows = {}
    found = re.findall(r'<tr data-status="([^"]*)"[^>]*>(.*?)</tr>', html)
    for status, cells in found:
        texts = [
            re.sub(r"<[^>]+>", "", cell)
            for cell in re.findall(r"<td[^>]*>(.*?)</td>", cells)
        ]
        rows[texts[0]] = (status, texts)
    return rows


@pytest.mark.parametrize("name", METRICS)
def test_score_report_counts_a_broken_graph_as_empty_issue_21(
    name: str, tmp_path: Path
) -> None:
    """The broken graph's row is there with F1 0 under every metric, the
    page says how many graphs the score counts as empty, with their places."""
    reference = read_string(REFERENCE, "ref.amr")
    candidate = read_string(break_graph(CANDIDATE, BROKEN), "cand.amr")
    metrics = [get_metric(name, **metric_options(name, tmp_path))]
    evaluation = evaluate(reference, [candidate], metrics)
    html = score_report(evaluation, reference, [candidate], metrics)
    assert_self_contained(html)
    rows = _rows(html)
    assert list(rows) == ["g0", "g1", "g2", "g3"]
    status, cells = rows["g0"]
    assert status == "error" and cells[2] == "0.0000"
    assert cells[5] == "5"  # every reference triple (as written) missing
    assert all(float(rows[k][1][2]) > 0 for k in ("g1", "g2", "g3"))
    page = _Page(html)
    assert (
        "cand.amr: 1 candidate graph unreadable or missing, counted as an empty "
        "graph (F1 0):" in page.text
    )
    assert (
        "cand.amr:2:47: graph g0: E001 unbalanced parentheses: 1 '(' not closed"
        in page.text
    )
    assert any(t.startswith("counted as an empty graph (F1 0)") for t in page.text)


def test_score_report_of_skipped_absent_and_unjudged_graphs_issue_21() -> None:
    reference = read_string(break_graph(REFERENCE, 3), "ref.amr")
    blocks = break_graph(CANDIDATE, BROKEN).strip().split("\n\n")
    candidate = read_string("\n\n".join(blocks[:2]) + "\n", "cand.amr")  # no g2, g3
    metrics = [get_metric("smatch"), get_metric("wlk")]
    for skip in (False, True):
        evaluation = evaluate(reference, [candidate], metrics, skip_unreadable=skip)
        html = score_report(evaluation, reference, [candidate], metrics)
        rows = _rows(html)
        assert list(rows) == ["g0", "g1", "g2", "g3"]
        f1 = {key: cells[2:4] for key, (_, cells) in rows.items()}
        empty = ["-", "-"] if skip else ["0.0000", "0.0000"]
        assert f1["g0"] == f1["g2"] == empty  # unreadable, absent
        assert f1["g3"] == ["-", "-"]  # the reference graph cannot be read
        page = _Page(html)
        assert (
            "cand.amr: 1 pair left out of the scores: the reference graph is "
            "unreadable:" in page.text
        )
        assert "ref.amr:8:1: graph g2: ::id 'g2' is not in cand.amr" in page.text
        headline = (
            "cand.amr: 2 candidate graphs unreadable or missing, left out of the "
            "scores (--skip-unreadable):"
            if skip
            else "cand.amr: 2 candidate graphs unreadable or missing, counted as an "
            "empty graph (F1 0):"
        )
        assert headline in page.text


def test_diff_report_notes_how_the_summary_counts_a_graph_issue_21() -> None:
    old = read_string(CANDIDATE, "old.amr")
    blocks = break_graph(CANDIDATE, BROKEN).strip().split("\n\n")
    new = read_string("\n\n".join(blocks[:2] + blocks[3:]) + "\n", "new.amr")
    result = diff_corpora(old, new, get_metric("smatch"))
    html = diff_report(result, old, new, get_metric("smatch"))
    rows = _rows(html)
    assert rows["g0"][1][2] == "0.0000" and rows["g2"][1][2] == "0.0000"
    assert rows["g0"][1][-1].endswith("unreadable: counted as an empty graph")
    assert rows["g2"][1][-1] == "removed: counted as an empty graph"
    page = _Page(html)
    assert (
        "the score counts 2 graph(s) as empty graphs (F1 0: removed, or unreadable "
        "in new)" in page.text
    )
    assert (
        "new.amr:2:47: E001 unbalanced parentheses: 1 '(' not closed (graph g0: "
        "unreadable: counted as an empty graph)" in page.text
    )
    assert "old.amr:8:1: graph g2: removed: counted as an empty graph" in page.text


def test_diff_report_writes_metadata_changes_as_values() -> None:
    old = read_string(
        "# ::id g1\n# ::note first\n# ::zh 它\n(b / boy)\n", "old.amr"
    )
    new = read_string("# ::id g1\n# ::note second\n(b / girl)\n", "new.amr")
    metric = get_metric("smatch")
    html = diff_report(diff_corpora(old, new, metric), old, new, metric)
    text = page_text(html)
    assert "::note: first → second" in text
    assert "::zh: 它 → (none)" in text
    assert "'first' →" not in text and "→ None" not in text
