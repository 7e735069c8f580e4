"""Bench (not a test): the HTML reports in a browser (issue 29).

``amrcheck score V1.6 V3.0 --html`` and ``amrcheck diff V1.6 V3.0 --html``
on the Little Prince corpus, release 1.6 against release 3.0 (1,562
pairs), then each page opened in headless Chromium (Playwright driving
``/usr/bin/chromium``, as ``tests/render/test_report_browser.py`` does).
Printed per report: its size, the time to write it, and in the browser:

* **loaded**: navigation start to the ``load`` event;
* **first drawing**: navigation start to the first section's drawings
  inflated and inserted (the page is usable: table, filter, drawings);
* **sort**: a click on the score column's header until the 1,562 rows
  are sorted (the next frame);
* **filter**: typing an id into the filter until the table shows one row;
* **jump**: a click on the last row's link until its section is drawn;
* the page's height and the number of sections drawn at first.

Three reports: ``score`` (the differing pairs drawn), ``diff``, and
``score --draw-all`` (every pair drawn).

Release 3.0 is ``../shared/data/little_prince/amr-bank-struct-v3.0.txt``;
release 1.6 is not in the shared data: pass its path (the AMR project's
``amr-bank-struct-v1.6.txt``, https://amr.isi.edu/download.html, also
mirrored in github.com/flipz357/AMR-World ``data/reference_amrs/``).
``--page FILE.html`` measures an existing report as well (e.g. one made
by an earlier version, for comparison).

    python bench/bench_reports.py OLD_V1.6.txt [--page FILE.html ...]

Files go to ``bench/out/`` (not committed).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
V30 = REPO.parent / "shared" / "data" / "little_prince" / "amr-bank-struct-v3.0.txt"
OUT = REPO / "bench" / "out"
CHROMIUM = Path(os.environ.get("CHROMIUM", "/usr/bin/chromium"))


def write_report(command: list[str], old: Path, page: Path) -> float:
    """Run ``amrcheck COMMAND OLD V3.0 --html PAGE``; seconds taken."""
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", "from amrcheck.cli import main; main()", command[0],
         str(old), str(V30), "--html", str(page), "-q", *command[1:]],
        capture_output=True, text=True, check=False,
    )
    if done.returncode not in (0, 1):
        raise SystemExit(f"amrcheck {' '.join(command)} failed: {done.stderr}")
    return time.perf_counter() - started


_MEASURE = """async () => {
  const t = performance.getEntriesByType("navigation")[0];
  const first = document.querySelector("section.pair");
  if (first && window.amrcheckReport) await amrcheckReport.drawn(first);
  return { loaded: t.loadEventEnd, firstDrawing: performance.now(),
           drawn: document.querySelectorAll("section.pair.drawn").length,
           sections: document.querySelectorAll("section.pair").length,
           height: document.documentElement.scrollHeight,
           opens: document.getElementById("status-filter").value };
}"""

_NEXT_FRAME = "() => new Promise(r => requestAnimationFrame(() => setTimeout(r, 0)))"


def measure(page_path: Path) -> dict[str, Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=["--no-sandbox", "--disable-gpu"]
        )
        page = browser.new_page(viewport={"width": 1280, "height": 1000})
        page.goto(page_path.resolve().as_uri(), wait_until="load", timeout=600_000)
        found: dict[str, Any] = page.evaluate(_MEASURE)
        header = page.locator("table.summary th").nth(2)
        started = time.perf_counter()
        header.click()
        page.evaluate(_NEXT_FRAME)
        found["sort"] = (time.perf_counter() - started) * 1000
        rows = page.locator("table.summary tbody tr[data-section]:not(.hidden)")
        last = rows.nth(rows.count() - 1).get_attribute("data-section")
        started = time.perf_counter()
        page.fill("#text-filter", "lpp_1943.1168")
        page.evaluate(_NEXT_FRAME)
        found["filter"] = (time.perf_counter() - started) * 1000
        found["shown"] = page.locator("#shown").inner_text()
        page.fill("#text-filter", "")
        if last:
            started = time.perf_counter()
            page.locator(f'table.summary a[href="#{last}"]').click()
            page.wait_for_selector(f"#{last} svg", timeout=60_000)
            found["jump"] = (time.perf_counter() - started) * 1000
        browser.close()
    return found


def report(name: str, path: Path, seconds: float | None) -> None:
    size = path.stat().st_size
    found = measure(path)
    made = f", written in {seconds:.1f} s" if seconds is not None else ""
    print(f"{name}: {path.name} {size / 1e6:.2f} MB{made}")
    print(
        f"  loaded {found['loaded']:.0f} ms, first drawing "
        f"{found['firstDrawing']:.0f} ms, sort {found['sort']:.0f} ms, filter "
        f"{found['filter']:.0f} ms ({found['shown']}), jump to the last "
        f"{found.get('jump', float('nan')):.0f} ms"
    )
    print(
        f"  opens on {found['opens']!r}: {found['sections']} sections, "
        f"{found['drawn']} drawn at first, page {found['height']:,} px tall"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("old", type=Path, help="Little Prince release 1.6")
    parser.add_argument("--page", type=Path, action="append", default=[],
                        help="an existing report to measure too")
    args = parser.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    print(f"load: {Path('/proc/loadavg').read_text().strip()}")
    for command in (["score"], ["diff"], ["score", "--draw-all"]):
        name = " ".join(command)
        page = OUT / f"lpp_{'_'.join(c.strip('-') for c in command)}.html"
        seconds = write_report(command, args.old, page)
        print(
            f"$ amrcheck {command[0]} {args.old.name} {V30.name} --html {page.name} "
            + " ".join(["-q", *command[1:]])
        )
        report(name, page, seconds)
    for page in args.page:
        report("given", page, None)


if __name__ == "__main__":
    main()
