"""The HTML report as a person sees it: opened in headless Chromium.

Elements present, the colours of each status, the hover link between the
two drawings, sorting and filtering, sections drawn as they come into
view, zoom and pan, the two sides side by side or stacked, triples that
wrap between words only; a screenshot is kept in the test's folder
(``AMRCHECK_UPDATE_DOCS=1`` also copies it to ``docs/report.png``).
Chromium comes from ``scripts/install-test-tools.sh`` (Debian ``chromium``,
driven by Playwright without its own browser download).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from amrcheck import diff_corpora, get_metric, read_corpus
from amrcheck.render import (
    PALETTE,
    diff_report,
    graphs_report,
    read_with_words,
    score_report,
)
from amrcheck.workflows.evaluate import evaluate
from tests.conftest import REPO, shared_path

from .conftest import V1, V2, needs_dot

CHROMIUM = Path(os.environ.get("CHROMIUM", "/usr/bin/chromium"))

pytestmark = [
    pytest.mark.e2e,
    needs_dot,
    pytest.mark.skipif(
        not CHROMIUM.exists(),
        reason=f"{CHROMIUM} not installed (run scripts/install-test-tools.sh)",
    ),
]

if CHROMIUM.exists():
    from playwright.sync_api import Browser, Page, sync_playwright


def rgb(hex_colour: str) -> str:
    value = hex_colour.lstrip("#")
    red, green, blue = (int(value[i : i + 2], 16) for i in (0, 2, 4))
    return f"rgb({red}, {green}, {blue})"


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    # named relative to the checkout, as a user working in it names them
    here = Path.cwd()
    os.chdir(REPO)
    try:
        old, new = (read_corpus(path.relative_to(REPO)) for path in (V1, V2))
    finally:
        os.chdir(here)
    metric = get_metric("smatch")
    path = tmp_path_factory.mktemp("report") / "diff.html"
    path.write_text(
        diff_report(diff_corpora(old, new, metric), old, new, metric), encoding="utf-8"
    )
    return path


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=str(CHROMIUM),
            args=["--no-sandbox", "--disable-gpu", "--no-first-run",
                  "--disable-background-networking"],
        )
        yield launched
        launched.close()


@pytest.fixture(scope="module")
def page(browser: Browser, report: Path) -> Iterator[Page]:
    opened = browser.new_page(viewport={"width": 1280, "height": 1000})
    requests: list[str] = []
    opened.on("request", lambda request: requests.append(request.url))
    opened.goto(report.as_uri())
    # the page asks for nothing but itself
    assert requests == [report.as_uri()]
    opened.evaluate("amrcheckReport.drawAll()")
    yield opened
    opened.close()


def stroke(page: Page, selector: str) -> str:
    return str(page.evaluate(
        "s => getComputedStyle(document.querySelector(s)).stroke", selector
    ))


def test_elements_are_there(page: Page) -> None:
    assert page.locator("table.summary tbody tr").count() == 6
    assert page.locator("section.pair").count() == 5
    assert page.locator("section.pair svg").count() == 9  # ex.6 was added: one
    assert page.locator("#g3 g.node").count() == 11
    assert page.locator("#g3 table.triples tr.relabelled").count() == 2


def test_each_status_has_its_colour(page: Page) -> None:
    for status in ("missing", "extra", "relabelled", "matched"):
        shape = f"g.node.{status} > path, g.node.{status} > polygon"
        assert stroke(page, shape) == rgb(PALETTE[status]["color"]), status
    assert stroke(page, "g.edge.missing > path") == rgb(PALETTE["missing"]["color"])
    assert stroke(page, "g.edge.extra > path") == rgb(PALETTE["extra"]["color"])


def test_hover_lights_the_aligned_partner(page: Page) -> None:
    page.locator("#g3 figure.candidate").scroll_into_view_if_needed()
    person = page.locator('[id="g3-c-v:p"]')
    person.hover()
    partner = page.locator('[id="g3-r-v:r"]')
    assert "partner" in (partner.get_attribute("class") or "")
    assert "lit" in (person.get_attribute("class") or "")
    assert stroke(page, '[id="g3-r-v:r"] > path') == "rgb(26, 115, 232)"
    hint = page.locator("#g3 .hint").inner_text()
    assert hint.startswith("p / person") and "r / researcher" in hint
    row = page.locator('#g3 table.triples tr[data-c="v:p"]')
    assert "lit" in (row.get_attribute("class") or "")
    # an unaligned node says so, and nothing else lights up
    page.locator('[id="g3-c-v:r"]').hover()
    assert "(no aligned node)" in page.locator("#g3 .hint").inner_text()
    assert page.locator("#g3 .partner").count() == 0


def test_hover_on_a_triple_lights_its_elements(page: Page) -> None:
    row = page.locator('#g2 table.triples tr.missing').first
    row.scroll_into_view_if_needed()
    row.hover()
    keys = (row.get_attribute("data-r") or "").split()
    assert keys
    for key in keys:
        element = page.locator(f'[id="g2-r-{key}"]')
        assert "lit" in (element.get_attribute("class") or "")


def test_sort_and_filter(page: Page) -> None:
    page.mouse.move(0, 0)
    ids = "[...document.querySelectorAll('table.summary tbody tr:not(.hidden)')]" \
          ".map(r => r.cells[0].textContent)"
    # the page opens on the graphs that changed, not on every graph
    assert page.input_value("#status-filter") == "!unchanged"
    assert page.locator("#shown").inner_text() == "5 of 6 shown"
    assert "ex.4" not in page.evaluate(ids)
    page.select_option("#status-filter", "all")
    page.locator("table.summary th", has_text="smatch").click()
    assert page.evaluate(ids) == ["ex.3", "ex.5", "ex.1", "ex.2", "ex.4", "ex.6"]
    page.locator("table.summary th", has_text="smatch").click()
    descending = page.evaluate(ids)
    assert descending[0] == "ex.4" and descending[-1] == "ex.6"  # no score: last
    page.select_option("#status-filter", "unchanged")
    assert page.evaluate(ids) == ["ex.4"]
    assert page.locator("#shown").inner_text() == "1 of 6 shown"
    assert page.locator("section.pair:not(.hidden)").count() == 0
    page.select_option("#status-filter", "all")
    page.fill("#text-filter", "ex.3")
    assert page.evaluate(ids) == ["ex.3"]
    assert page.locator("section.pair:not(.hidden)").count() == 1
    page.fill("#text-filter", "")


def test_the_legend_names_the_roles_of_a_diff(page: Page) -> None:
    legend = page.locator("ul.legend").inner_text()
    assert "missing: only in the old" in legend and "extra: only in the new" in legend


def test_triples_wrap_between_words_only(page: Page) -> None:
    # a column too narrow for a triple: it wraps, but never inside a token
    # such as "want-01)" (which a browser would otherwise break after "-")
    narrow = "table.triples td code { display: inline-block; width: 4ch; }"
    page.add_style_tag(content=narrow)
    counts = page.evaluate("""() => [
        ...document.querySelectorAll('table.triples .tok')]
        .filter(t => t.offsetParent !== null)
        .map(t => [t.textContent, t.getClientRects().length])""")
    hyphenated = [text for text, _ in counts if "-" in text.strip("-")]
    assert hyphenated, counts
    assert all(lines == 1 for _, lines in counts), counts
    wrapped = page.evaluate("""() => [
        ...document.querySelectorAll('table.triples td code')]
        .filter(c => c.offsetParent !== null && c.getClientRects().length)
        .some(c => c.getBoundingClientRect().height
                   > 1.5 * parseFloat(getComputedStyle(c).lineHeight || 16))""")
    assert wrapped  # the narrow column did wrap the triples, between words
    page.add_style_tag(
        content="table.triples td code { display: inline; width: auto; }"
    )


def _box(page: Page, selector: str) -> dict[str, float]:
    box = page.locator(selector).bounding_box()
    assert box is not None, selector
    return box


def test_zoom_and_pan_move_both_sides_together(page: Page) -> None:
    page.locator("#g3").scroll_into_view_if_needed()
    before = _box(page, "#g3 figure.candidate svg")["width"]
    for _ in range(3):
        page.locator("#g3 figure.candidate button[data-zoom=in]").click()
    sides = [
        _box(page, f"#g3 figure.{s} svg")["width"] for s in ("reference", "candidate")
    ]
    assert sides[1] == pytest.approx(before * 1.25**3, rel=0.02)
    assert sides[0] == pytest.approx(sides[1], rel=0.01)  # one frame for both
    # dragged to pan, and the other side follows
    canvas = page.locator("#g3 figure.candidate .canvas")
    box = _box(page, "#g3 figure.candidate .canvas")
    page.mouse.move(box["x"] + box["width"] - 10, box["y"] + 20)
    page.mouse.down()
    page.mouse.move(box["x"] + 10, box["y"] + 20, steps=5)
    page.mouse.up()
    left = canvas.evaluate("c => c.scrollLeft")
    assert left > 0
    other = page.locator("#g3 figure.reference .canvas").evaluate("c => c.scrollLeft")
    assert other == left
    page.locator("#g3 figure.reference button[data-zoom=fit]").click()
    fitted = _box(page, "#g3 figure.candidate svg")["width"]
    assert fitted == pytest.approx(before, rel=0.01)


def test_the_sides_stand_side_by_side_or_stacked(page: Page) -> None:
    def tops() -> tuple[float, float, float]:
        ref = _box(page, "#g3 figure.reference")
        cand = _box(page, "#g3 figure.candidate")
        return ref["y"], ref["y"] + ref["height"], cand["y"]

    top, _, other = tops()
    assert other == pytest.approx(top)  # room for both: side by side
    page.set_viewport_size({"width": 560, "height": 1000})
    try:
        _, bottom, other = tops()
        assert other >= bottom  # too narrow: one above the other
        # and each is as wide as the page
        assert _box(page, "#g3 figure.candidate")["width"] > 480
    finally:
        page.set_viewport_size({"width": 1280, "height": 1000})


def test_a_long_report_draws_its_sections_as_they_come_into_view(
    browser: Browser, tmp_path: Path
) -> None:
    corpus = read_corpus(shared_path("little_prince/amr-bank-struct-v3.0.txt"))
    path = tmp_path / "graphs.html"
    path.write_text(graphs_report(corpus, list(corpus)[:120]), encoding="utf-8")
    opened = browser.new_page(viewport={"width": 1280, "height": 1000})
    opened.goto(path.as_uri())
    opened.wait_for_selector("#g1.drawn svg")
    drawn = opened.locator("section.pair.drawn").count()
    assert 1 <= drawn < 30 and opened.locator("section.pair svg").count() == drawn
    assert opened.locator("#g120 svg").count() == 0
    opened.locator("#g120").scroll_into_view_if_needed()
    opened.wait_for_selector("#g120.drawn svg")
    assert opened.locator("#g120 g.node.root").count() == 1
    opened.close()


def test_screenshot(page: Page, tmp_path: Path) -> None:
    page.select_option("#status-filter", "changed")
    page.fill("#text-filter", "ex.3")
    page.evaluate("window.scrollTo(0, 0)")
    page.locator('[id="g3-c-v:p"]').hover()
    shot = tmp_path / "report.png"
    page.screenshot(path=str(shot))
    assert shot.stat().st_size > 20_000
    if os.environ.get("AMRCHECK_UPDATE_DOCS"):
        shutil.copyfile(shot, REPO / "docs" / "report.png")


def test_umr_words_and_nodes_light_each_other(
    browser: Browser, tmp_path: Path
) -> None:
    # issue 31: a Czech pair, one concept changed (vláda -> parlament)
    folder = REPO / "tests" / "data" / "umr" / "multilingual"
    reference, read = read_with_words(folder / "czech.umr"), read_with_words(
        folder / "czech-edited.umr"
    )
    metric = get_metric("smatch")
    evaluation = evaluate(reference[0], [read[0]], [metric])
    path = tmp_path / "umr.html"
    path.write_text(
        score_report(
            evaluation, reference[0], [read[0]], [metric],
            words={reference[0].path: reference[1], read[0].path: read[1]},
        ),
        encoding="utf-8",
    )
    opened = browser.new_page(viewport={"width": 1280, "height": 1000})
    opened.goto(path.as_uri())
    opened.evaluate("amrcheckReport.drawAll()")
    words = opened.locator("#g1 figure.candidate p.words span.w")
    assert [w.split("\n")[-1] for w in words.all_inner_texts()] == [
        "Růst", "trápí", "vládu", "."
    ]
    # hover a node: its words light up, and its partner's on the other side
    opened.locator('[id="g1-c-v:s2ř"]').hover()
    lit = opened.locator("#g1 figure.candidate p.words span.w.lit")
    assert lit.count() == 1 and lit.get_attribute("data-i") == "1"
    partner = opened.locator("#g1 figure.reference p.words span.w.partner")
    assert partner.count() == 1 and partner.get_attribute("data-i") == "1"
    assert "1-1: Růst" in opened.locator("#g1 .hint").inner_text()
    # hover a word: its node lights up, and the aligned node of the reference
    opened.locator('#g1 figure.candidate p.words span.w[data-i="3"]').hover()
    node = opened.locator('[id="g1-c-v:s2v"]')
    assert "lit" in (node.get_attribute("class") or "")
    other = opened.locator('[id="g1-r-v:s2v"]')
    assert "partner" in (other.get_attribute("class") or "")
    hint = opened.locator("#g1 .hint").inner_text()
    assert hint.startswith("word 3 “vládu”") and "s2v / parlament" in hint
    # a word no node is aligned to lights nothing
    opened.locator('#g1 figure.candidate p.words span.w[data-i="4"]').hover()
    assert opened.locator("#g1 g.lit, #g1 g.partner").count() == 0
    assert opened.locator("#g1 .hint").inner_text().endswith("no node")
    opened.close()
