"""The HTML reports: what they hold, and that they hold everything themselves."""

from __future__ import annotations

import re
from html.parser import HTMLParser

from amrcheck import Corpus, diff_corpora, get_metric, read_corpus
from amrcheck.render import diff_report, graphs_picture, graphs_report, score_report
from amrcheck.workflows.evaluate import evaluate

from .conftest import ANNOTATION, GOLD, needs_dot

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
    page = _Page(html)
    sections = page.find("section")
    assert [s["id"] for s in sections] == ["g1", "g2", "g3"]
    assert [s["data-status"] for s in sections] == ["ok", "error", "ok"]
    assert html.count("<svg") == 2
    # the graph that does not parse: its text and its error with the place
    text = "".join(page.text)
    assert "(w / want-01\n   :ARG0 (b / boy)" in text
    assert "tests/data/render/odd.amr:15:1: E001 unbalanced parentheses" in text
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
    text = "".join(page.text)
    assert "examples/annotations_v1.amr:27:11" in text  # the relabelled researcher
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
    assert len(page.find("section")) == 8
    assert "(m / magnificent)" in html and "(m / beautiful)" in html


def test_score_report_of_two_candidates_names_them() -> None:
    reference, candidate = read_corpus(GOLD), read_corpus(ANNOTATION)
    metrics = [get_metric("smatch")]
    evaluation = evaluate(reference, [candidate, reference], metrics)
    html = score_report(evaluation, reference, [candidate, reference], metrics)
    page = _Page(html)
    assert [t for t in page.text if t in ("candidate", "id")] == ["candidate", "id"]
    cells = [t for t in page.text if t in (candidate.path, reference.path)]
    assert cells.count(candidate.path) >= 8 and cells.count(reference.path) >= 8
    assert len(page.find("section")) == 16
    statuses = [r["data-status"] for r in page.find("tr") if r.get("data-status")]
    assert statuses.count("identical") == 5 + 8  # the reference against itself


def test_picture_of_graphs_with_a_broken_one(odd: Corpus) -> None:
    svg = graphs_picture(list(odd), "svg").decode("utf-8")
    assert "odd.1: He said" in svg and "E001 unbalanced parentheses" in svg
    assert "(w / want&#45;01" in svg or "(w / want-01" in svg
