"""The HTML report as a person sees it: opened in headless Chromium.

Elements present, the colours of each status, the hover link between the
two drawings, sorting and filtering; a screenshot is kept in the test's
folder (``AMRCHECK_UPDATE_DOCS=1`` also copies it to ``docs/report.png``).
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
from amrcheck.render import PALETTE, diff_report
from tests.conftest import REPO

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
    from playwright.sync_api import Page, sync_playwright


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
def page(report: Path) -> Iterator[Page]:
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM),
            args=["--no-sandbox", "--disable-gpu", "--no-first-run",
                  "--disable-background-networking"],
        )
        opened = browser.new_page(viewport={"width": 1280, "height": 1000})
        requests: list[str] = []
        opened.on("request", lambda request: requests.append(request.url))
        opened.goto(report.as_uri())
        # the page asks for nothing but itself
        assert requests == [report.as_uri()]
        yield opened
        browser.close()


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
