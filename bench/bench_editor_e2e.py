"""Bench (not a test): edit to screen in the real client (issue 29).

code-server (VS Code in a browser) runs the packaged extension against
this checkout's server; headless Chromium is driven by Playwright, as in
the extension's end-to-end test (``vscode-extension/test/e2e/run.mjs``).
The workspace holds the first 30 Little Prince graphs and all 1,562, each
with its reference (:func:`bench_lsp.reference_copy`: a few edits).

For each keystroke the page itself records the time of the ``keydown``
event and, with a ``MutationObserver``, the first time the status bar's
score item and the graphs' score texts differ from what they showed
before the key. The score texts are what the extension paints after each
graph's first line (decorations: CSS ``::after`` content, read with
``getComputedStyle``); the edited graph's text is first marked
``re-scoring… `` (the time of that mark is recorded too), and counts as
repainted only once the visible texts differ from before and none is
marked. (Before issue 29's last part these were the code lenses' titles,
``.codelens-decoration``.)

* **concept**: a letter typed into a graph's first concept, then deleted
  (Backspace): the graph's score changes, so does its text; the status
  bar's document score (3 decimals) changes on the 30-graph file only;
* **break**: a space typed into the concept (``bo y``: the graph no longer
  parses), then deleted: its text says the graph has errors, the status
  bar counts one graph as empty; both change on either file.

Each edit is made once the previous one is on screen, with a pause, so
no two edits merge. Only what changed counts (a timeout is reported).

    python bench/bench_editor_e2e.py [--edits 20] [--files 30,1562]
        [--modes concept,break] [--vsix vscode-extension/amrcheck-vscode.vsix]

Prerequisites: ``scripts/install-test-tools.sh`` (code-server, Chromium)
and ``npm run package`` in ``vscode-extension/`` (the .vsix; built when
missing).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_lsp import DEFAULT_FILE, p95, reference_copy  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
EXTENSION = REPO / "vscode-extension"
CODE_SERVER_HOME = Path(
    os.environ.get(
        "AMRCHECK_VSCODE_TEST_HOME", Path.home() / ".cache" / "amrcheck-vscode-test"
    )
)
CODE_SERVER = CODE_SERVER_HOME / "node_modules" / ".bin" / "code-server"
CHROMIUM = Path(os.environ.get("CHROMIUM", "/usr/bin/chromium"))
#: how long one edit may take to reach the screen before it counts as a timeout
EDIT_TIMEOUT_S = 10.0
#: the quiet time after an edit reached the screen, before the next one
SETTLE_S = 0.6

# In the page: the keydown time and the first change of the status bar's
# score, of the score texts (fresh: none marked as being re-scored) and the
# first mark after it (performance.now(), milliseconds).
OBSERVER = """
(() => {
  const RESCORING = 're-scoring… ';
  const b = (window.__bench =
    { armed: false, key: null, status: null, lens: null, mark: null });
  const texts = (selector) =>
    [...document.querySelectorAll(selector)].map((e) => e.textContent ?? '');
  b.statusText = () =>
    texts('.statusbar-item').find((t) => /smatch (\\d\\.\\d{3}|—)/.test(t)) ?? '';
  b.scoreTexts = () =>
    [...document.querySelectorAll(".monaco-editor .view-line [class*='ced-']")]
      .map((e) => getComputedStyle(e, '::after').content)
      .filter((c) => c && c !== 'none' && c !== 'normal')
      .map((c) => { try { return JSON.parse(c); } catch { return c.slice(1, -1); } })
      .filter((t) => /^(re-scoring… )?smatch /.test(t));
  b.lensText = () => b.scoreTexts().join('\\n');
  b.arm = () => {
    Object.assign(b, { armed: true, key: null, status: null, lens: null, mark: null,
      statusBefore: b.statusText(), lensBefore: b.lensText() });
  };
  window.addEventListener('keydown', () => {
    if (b.armed && b.key === null) b.key = performance.now();
  }, true);
  new MutationObserver(() => {
    if (!b.armed || b.key === null) return;
    const now = performance.now();
    if (b.status === null && b.statusText() !== b.statusBefore) b.status = now;
    if (b.lens === null) {
      const shown = b.scoreTexts();
      if (b.mark === null && shown.some((t) => t.startsWith(RESCORING))) b.mark = now;
      const lens = shown.join('\\n');
      if (lens.trim() !== '' && lens !== b.lensBefore
          && !shown.some((t) => t.startsWith(RESCORING))) b.lens = now;
    }
  }).observe(document.body, { subtree: true, childList: true, characterData: true });
})();
"""


def graphs_of(text: str) -> list[str]:
    return [block for block in text.split("\n\n") if "(" in block]


def workspace(folder: Path, sizes: list[int]) -> dict[int, str]:
    """``annotations/lp<N>.amr`` (the first N graphs) and their references
    ``gold/lp<N>.amr``; the names of the annotations by size."""
    text = DEFAULT_FILE.read_text(encoding="utf-8")
    gold = reference_copy(text)
    header = text.split("\n\n")[0] if "(" not in text.split("\n\n")[0] else ""
    names = {}
    for directory in ("annotations", "gold"):
        (folder / directory).mkdir(parents=True)
    for size in sizes:
        name = f"lp{size}.amr"
        for directory, source in (("annotations", text), ("gold", gold)):
            kept = graphs_of(source)[:size]
            body = "\n\n".join(([header] if header else []) + kept) + "\n"
            (folder / directory / name).write_text(body, encoding="utf-8")
        names[size] = f"annotations/{name}"
    return names


def edit_places(text: str, count: int, seed: int) -> list[tuple[str, int, int]]:
    """(graph id, line, column) just after the first letter of the first
    concept of ``count`` random graphs (1-based, as Go to Line takes them)."""
    places = []
    line = 1
    for block in text.split("\n\n"):
        found = re.search(r"# ::id (\S+)", block)
        concept = re.search(r"\(\s*\S+\s*/\s*([a-z])", block)
        if found and concept:
            before = block[: concept.start(1)]
            row = line + before.count("\n")
            column = concept.start(1) - (before.rfind("\n") + 1) + 2
            places.append((found.group(1), row, column))
        line += block.count("\n") + 2
    rng = random.Random(seed)
    return rng.sample(places, min(count, len(places)))


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def start_code_server(
    tmp: Path, ws: Path, vsix: Path
) -> tuple[subprocess.Popen[bytes], int]:
    user_data, extensions, home = tmp / "user-data", tmp / "extensions", tmp / "home"
    for directory in (user_data / "User", extensions, home):
        directory.mkdir(parents=True, exist_ok=True)
    settings = {
        "amr.server.python": sys.executable,
        "amrcheck.references": {"annotations/*.amr": "gold/{name}.amr"},
        "workbench.startupEditor": "none",
        "workbench.tips.enabled": False,
        "security.workspace.trust.enabled": False,
        "telemetry.telemetryLevel": "off",
        "extensions.autoCheckUpdates": False,
        "extensions.ignoreRecommendations": True,
        "editor.minimap.enabled": False,
        "workbench.secondarySideBar.defaultVisibility": "hidden",
        "chat.commandCenter.enabled": False,
    }
    (user_data / "User" / "settings.json").write_text(json.dumps(settings))
    env = {
        "PATH": os.environ["PATH"], "LANG": "C.UTF-8", "HOME": str(home),
        "TMPDIR": str(tmp), "PYTHONPATH": str(REPO),
        "XDG_CONFIG_HOME": str(home / ".config"),
        "XDG_DATA_HOME": str(home / ".local/share"),
        "XDG_CACHE_HOME": str(home / ".cache"),
        "XDG_STATE_HOME": str(home / ".local/state"),
    }
    common = ["--user-data-dir", str(user_data), "--extensions-dir", str(extensions)]
    subprocess.run(
        [str(CODE_SERVER), *common, "--install-extension", str(vsix)],
        env=env, check=True, capture_output=True, timeout=180,
    )
    port = free_port()
    config = tmp / "config.yaml"
    config.write_text(f"bind-addr: 127.0.0.1:{port}\nauth: none\ncert: false\n")
    server = subprocess.Popen(
        [str(CODE_SERVER), "--config", str(config), *common, "--disable-telemetry",
         "--disable-update-check", "--disable-workspace-trust",
         "--disable-getting-started-override"],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    assert server.stdout is not None
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        line = server.stdout.readline().decode(errors="replace")
        if "HTTP server listening" in line:
            return server, port
        if not line and server.poll() is not None:
            break
    raise SystemExit("code-server did not start")


def open_file(page: Any, relative: str) -> None:
    page.keyboard.press("Control+P")
    page.wait_for_selector(".quick-input-widget input", state="visible")
    page.keyboard.type(relative)
    # the search's result, not the recently opened file listed first meanwhile
    page.wait_for_function(
        """(name) => (document.querySelector('.quick-input-list .monaco-list-row')
            ?.textContent ?? '').includes(name)""",
        arg=relative.rsplit("/", 1)[-1], timeout=30_000,
    )
    page.keyboard.press("Enter")


def run_command(page: Any, title: str) -> None:
    page.keyboard.press("F1")
    page.wait_for_selector(".quick-input-widget input", state="visible")
    page.keyboard.type(title)
    page.wait_for_selector(
        f'.quick-input-list .monaco-list-row[aria-label*="{title}"]', timeout=30_000
    )
    page.keyboard.press("Enter")


def go_to(page: Any, line: int, column: int) -> None:
    page.keyboard.press("Control+G")
    page.wait_for_selector(".quick-input-widget input", state="visible")
    page.keyboard.type(f"{line}:{column}")
    page.keyboard.press("Enter")


def wait_ready(page: Any, graph: str, timeout_ms: int = 120_000) -> None:
    """The status bar shows a score and the graph its score text."""
    page.wait_for_function(
        """(id) => window.__bench.statusText() !== '' && window.__bench
            .lensText().split('\\n').some((t) => t.endsWith('#' + id))""",
        arg=graph, timeout=timeout_ms,
    )


def one_key(page: Any, key: str) -> dict[str, float | None]:
    """Press ``key`` and wait (up to :data:`EDIT_TIMEOUT_S`) for both the
    status bar and the score texts to change; ms after the keydown (and of
    the re-scoring mark), None if not."""
    page.evaluate("window.__bench.arm()")
    page.keyboard.press(key)
    deadline = time.monotonic() + EDIT_TIMEOUT_S
    result: dict[str, Any] = {}
    while time.monotonic() < deadline:
        result = page.evaluate(
            "(({key, status, lens, mark}) => ({key, status, lens, mark}))"
            "(window.__bench)"
        )
        if result["status"] is not None and result["lens"] is not None:
            break
        time.sleep(0.05)
    page.evaluate("window.__bench.armed = false")
    key_at = result.get("key")
    return {
        what: None if key_at is None or result.get(what) is None
        else result[what] - key_at
        for what in ("status", "lens", "mark")
    }


def summary(values: list[float | None], unseen: str = "") -> str:
    seen = [v for v in values if v is not None]
    missed = len(values) - len(seen)
    unseen = unseen or f"unchanged after {EDIT_TIMEOUT_S:.0f} s"
    if not seen:
        return f"no change seen ({missed} {unseen})"
    text = (
        f"p50 {statistics.median(seen):6.0f} ms  p95 {p95(seen):6.0f} ms  "
        f"max {max(seen):6.0f} ms  (n={len(seen)})"
    )
    if missed:
        text += f", {missed} {unseen}"
    return text


def load() -> str:
    return Path("/proc/loadavg").read_text().split(" ", 3)[:3].__str__()


def run(args: argparse.Namespace) -> dict[str, Any]:
    from playwright.sync_api import sync_playwright

    tmp = Path(tempfile.mkdtemp(prefix="amr-editor-bench-"))
    ws = tmp / "workspace"
    sizes = [int(size) for size in args.files.split(",")]
    names = workspace(ws, sizes)
    server, port = start_code_server(tmp, ws, args.vsix)
    results: dict[str, Any] = {"load_before": load()}
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=str(CHROMIUM),
                args=["--no-sandbox", "--disable-gpu", "--no-first-run",
                      "--disable-background-networking", "--disable-component-update"],
            )
            page = browser.new_page(viewport={"width": 1400, "height": 860})
            page.goto(f"http://127.0.0.1:{port}/?folder={ws}")
            page.wait_for_selector(".monaco-workbench", timeout=90_000)
            page.evaluate(OBSERVER)
            if args.no_sidebar:
                page.keyboard.press("Control+B")
            for size in sizes:
                name = names[size]
                text = (ws / name).read_text(encoding="utf-8")
                places = edit_places(text, args.edits, args.seed)
                page.keyboard.press("Escape")
                open_file(page, name)
                page.wait_for_selector(".monaco-editor .view-lines", timeout=30_000)
                for mode in args.modes.split(","):
                    key = "x" if mode == "concept" else "Space"
                    samples: list[dict[str, float | None]] = []
                    load_at = load()
                    for graph, line, column in places:
                        go_to(page, line, column)
                        try:
                            wait_ready(page, graph)
                        except Exception:
                            page.screenshot(path=str(args.failure_screenshot))
                            raise
                        time.sleep(SETTLE_S)  # the newly visible texts come
                        for press in (key, "Backspace"):
                            samples.append(one_key(page, press))
                            time.sleep(SETTLE_S)
                    label = f"{size} graphs, {mode}"
                    results[label] = {
                        "load": load_at,
                        "status": [s["status"] for s in samples],
                        "lens": [s["lens"] for s in samples],
                        "mark": [s["mark"] for s in samples],
                    }
                    print(f"{label} (load {load_at}):", flush=True)
                    for what, name in (
                        ("status", "status bar"), ("mark", "re-scoring mark"),
                        ("lens", "new score text"),
                    ):
                        shown = summary(
                            results[label][what],
                            # the new text may come in the frame the mark would
                            "not seen (the new text came as soon)"
                            if what == "mark" else "",
                        )
                        print(f"  keystroke -> {name:15}: {shown}", flush=True)
                run_command(page, "View: Close All Editors")  # before the next file
            browser.close()
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)
        shutil.rmtree(tmp, ignore_errors=True)
    results["load_after"] = load()
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--edits", type=int, default=20,
                        help="graphs edited per file and mode (2 keys each)")
    parser.add_argument("--files", default="30,1562", help="graph counts of the files")
    parser.add_argument("--modes", default="concept,break")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--vsix", type=Path, default=EXTENSION / "amrcheck-vscode.vsix")
    parser.add_argument("--no-sidebar", action="store_true",
                        help="hide the side bar (and the Graphs by Score view)")
    parser.add_argument("--json", type=Path, help="write every sample here")
    parser.add_argument("--failure-screenshot", type=Path,
                        default=Path(tempfile.gettempdir()) / "editor-bench.png")
    args = parser.parse_args()
    for needed in (CODE_SERVER, CHROMIUM):
        if not needed.exists():
            raise SystemExit(f"{needed} missing: run scripts/install-test-tools.sh")
    if not args.vsix.exists():
        subprocess.run(["npm", "run", "package"], cwd=EXTENSION, check=True)
    print(f"load before: {load()}", flush=True)
    results = run(args)
    print(f"load after: {results['load_after']}")
    if args.json:
        args.json.write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
