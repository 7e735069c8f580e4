// End-to-end test in the real VS Code UI: code-server (VS Code in a browser)
// runs the packaged extension, headless Chromium is driven by playwright-core.
//
// Opens an annotation with a reference (amrcheck.references) and checks the
// error squiggle of a broken graph, the score lens of a good one, the hover
// naming the aligned reference node, the status bar score, the diff report,
// the graph view (drawn with its reference, hover link, a click moves the
// cursor, typing redraws, it follows the cursor), and the notification when
// the server's Python is missing. Screenshots go to
// test-artifacts/. Prerequisites: scripts/install-vscode-test.sh, and
// `npm run package` (the .vsix). Exit codes: 0 passed, 1 failed, 3 skipped.
//
//   node test/e2e/run.mjs [--vsix amrcheck-vscode.vsix] [--python /path/to/python]
//                         [--artifacts DIR] [--keep] [--update-docs]
import { execFileSync, spawn } from "node:child_process";
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { homedir, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const EXT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const REPO = resolve(EXT, "..");
const { values: opts } = parseArgs({
  options: {
    vsix: { type: "string", default: join(EXT, "amrcheck-vscode.vsix") },
    python: { type: "string", default: process.env.AMR_PYTHON ?? "" },
    artifacts: { type: "string", default: join(EXT, "test-artifacts") },
    keep: { type: "boolean", default: false },
    "update-docs": { type: "boolean", default: false }, // copy editor.png and graph.png to docs/
  },
});
const CS_HOME = process.env.AMRCHECK_VSCODE_TEST_HOME ?? join(homedir(), ".cache/amrcheck-vscode-test");
const CODE_SERVER = join(CS_HOME, "node_modules/.bin/code-server");
const CHROMIUM = process.env.CHROMIUM ?? "/usr/bin/chromium";

function skip(reason) {
  console.log(`SKIP: ${reason}`);
  process.exit(3);
}
if (!existsSync(CODE_SERVER)) skip(`code-server not installed in ${CS_HOME} (run scripts/install-vscode-test.sh)`);
if (!existsSync(CHROMIUM)) skip(`${CHROMIUM} not installed (run scripts/install-vscode-test.sh)`);
if (!existsSync(opts.vsix)) skip(`${opts.vsix} missing (run npm run package)`);
const { chromium } = await import("playwright-core");

// the interpreter with amrcheck, as an absolute path (HOME changes below: no pyenv shims)
const python = execFileSync(opts.python || "python3", ["-c", "import sys; print(sys.executable)"], { encoding: "utf8" }).trim();

const started = Date.now();
const log = (message) => console.log(`[${((Date.now() - started) / 1000).toFixed(1)}s] ${message}`);
const checks = [];
function check(name, ok, detail = "") {
  checks.push({ name, ok });
  console.log(`${ok ? "ok  " : "FAIL"} ${name}${detail ? `: ${detail}` : ""}`);
}

// -- a workspace: an annotation with one broken graph, its gold reference ------
const tmp = mkdtempSync(join(tmpdir(), "amr-vscode-e2e-"));
const ws = join(tmp, "workspace");
const data = join(REPO, "tests/data/lsp");
mkdirSync(join(ws, "annotations"), { recursive: true });
cpSync(join(data, "gold"), join(ws, "gold"), { recursive: true });
const annotation = readFileSync(join(data, "annotations/lpp.amr"), "utf8");
// lpp_1943.1 gets a typo: a concept without its variable (E102 undefined variable 'one')
const broken = annotation.replace("(c / chapter\n  :mod 1)", "(c / chapter\n  :mod one)");
if (broken === annotation) throw new Error("fixture changed: cannot break lpp_1943.1");
writeFileSync(join(ws, "annotations/lpp.amr"), broken);
// a draft no reference setting covers (for "AMR: Compare with reference…")
mkdirSync(join(ws, "drafts"));
writeFileSync(join(ws, "drafts/lpp.amr"), annotation);

const userData = join(tmp, "user-data");
const extensions = join(tmp, "extensions");
const home = join(tmp, "home");
for (const dir of [join(userData, "User"), extensions, home]) mkdirSync(dir, { recursive: true });
const settingsFile = join(userData, "User/settings.json");
const settings = {
  "amr.server.python": python,
  "amrcheck.references": { "annotations/*.amr": "gold/{name}.amr" },
  "workbench.startupEditor": "none",
  "workbench.tips.enabled": false,
  "workbench.colorTheme": "Default Light Modern",
  "security.workspace.trust.enabled": false,
  "telemetry.telemetryLevel": "off",
  "extensions.autoCheckUpdates": false,
  "extensions.ignoreRecommendations": true,
  "editor.hover.above": false,
  "editor.hover.delay": 100,
  "editor.minimap.enabled": false,
  "editor.fontSize": 14,
  "window.commandCenter": false,
  "chat.commandCenter.enabled": false,
  "workbench.secondarySideBar.defaultVisibility": "hidden",
};
writeFileSync(settingsFile, JSON.stringify(settings, null, 2));

const env = {
  PATH: process.env.PATH, LANG: "C.UTF-8", HOME: home, TMPDIR: tmp,
  XDG_CONFIG_HOME: join(home, ".config"), XDG_DATA_HOME: join(home, ".local/share"),
  XDG_CACHE_HOME: join(home, ".cache"), XDG_STATE_HOME: join(home, ".local/state"),
};
const common = ["--user-data-dir", userData, "--extensions-dir", extensions];

let server;
let browser;
let failed = false;
try {
  log(`installing ${opts.vsix}`);
  execFileSync(CODE_SERVER, [...common, "--install-extension", opts.vsix], { env, stdio: "pipe", timeout: 120_000 });

  const port = await freePort();
  const config = join(tmp, "config.yaml");
  writeFileSync(config, `bind-addr: 127.0.0.1:${port}\nauth: none\ncert: false\n`);
  server = spawn(CODE_SERVER, [
    "--config", config, ...common,
    "--disable-telemetry", "--disable-update-check", "--disable-workspace-trust", "--disable-getting-started-override",
  ], { env, stdio: ["ignore", "pipe", "pipe"], detached: true });
  let serverLog = "";
  server.stdout.on("data", (chunk) => (serverLog += chunk));
  server.stderr.on("data", (chunk) => (serverLog += chunk));
  await waitFor(() => serverLog.includes("HTTP server listening"), 60_000, () => `code-server did not start:\n${serverLog}`);
  log(`code-server on port ${port}`);

  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
      "--disable-component-update", "--disable-sync"],
  });
  const page = await browser.newPage({ viewport: { width: 1400, height: 860 } });
  await page.goto(`http://127.0.0.1:${port}/?folder=${encodeURIComponent(ws)}`);
  await page.waitForSelector(".monaco-workbench", { timeout: 60_000 });
  log("workbench loaded");

  // open the annotation
  await openFile(page, "annotations/lpp.amr");
  await page.waitForSelector(".monaco-editor .view-lines", { timeout: 30_000 });

  // 1. the error squiggle of the broken graph, and its problem
  const squiggle = await page.waitForSelector(".monaco-editor .squiggly-error", { timeout: 60_000 }).catch(() => null);
  check("error squiggle on the broken graph", squiggle !== null);
  log("squiggle");

  // 2. a score lens above the good graphs (against the reference)
  const lenses = await page.waitForFunction(
    () => {
      const titles = [...document.querySelectorAll(".monaco-editor .codelens-decoration")].map((e) => e.textContent ?? "");
      return titles.some((t) => /lpp_1943\.2/.test(t)) ? titles : null;
    },
    undefined, { timeout: 60_000 },
  ).then((h) => h.jsonValue()).catch(() => []);
  const lens = lenses.find((t) => /lpp_1943\.2/.test(t));
  check("score lens vs the reference graph", !!lens && /^smatch 0\.9\d .* vs gold\/lpp\.amr#lpp_1943\.2$/.test(lens), JSON.stringify(lens));
  check("one lens per visible graph", lenses.length >= 3, `${lenses.length} lenses`);

  // 3. the status bar shows the document score
  const statusText = await page.waitForFunction(
    () => [...document.querySelectorAll(".statusbar-item")].map((e) => e.textContent ?? "").find((t) => /smatch \d\.\d{3}/.test(t)),
    undefined, { timeout: 30_000 },
  ).then((h) => h.jsonValue()).catch(() => null);
  check("status bar document score", statusText !== null, JSON.stringify(statusText));

  // 4. hover on a changed concept names the aligned reference node
  const word = page.locator(".monaco-editor .view-line span", { hasText: /^beautiful\)?$/ }).first();
  const box = await word.boundingBox();
  let hover = null;
  if (box) {
    await page.mouse.move(box.x + 5, box.y + box.height / 2);
    await page.mouse.move(box.x + 15, box.y + box.height / 2);
    hover = await page.waitForFunction(
      () => [...document.querySelectorAll(".monaco-hover-content")].map((e) => e.textContent ?? "").find((t) => /Aligned to reference node.*magnificent/.test(t)),
      undefined, { timeout: 30_000 },
    ).then((h) => h.jsonValue()).catch(() => null);
  }
  check("hover shows the aligned reference node (magnificent)", hover !== null, hover ? JSON.stringify(hover.slice(0, 160)) : "");
  mkdirSync(opts.artifacts, { recursive: true });
  await page.waitForTimeout(1000); // let the hover finish fading in
  await page.screenshot({ path: join(opts.artifacts, "editor.png"), animations: "disabled" });
  log("screenshot editor.png");
  if (opts["update-docs"]) copyFileSync(join(opts.artifacts, "editor.png"), join(REPO, "docs/editor.png"));

  // 5. the Problems panel lists the validator's finding
  await page.mouse.move(700, 820);
  await page.keyboard.press("Escape");
  await page.keyboard.press("Control+Shift+M");
  const problem = await page.waitForFunction(
    () => [...document.querySelectorAll(".markers-panel .monaco-tl-contents")].map((e) => e.textContent ?? "").find((t) => /E102/.test(t)),
    undefined, { timeout: 30_000 },
  ).then((h) => h.jsonValue()).catch(() => null);
  check("Problems panel lists E102", problem !== null, JSON.stringify(problem));
  await page.keyboard.press("Control+Shift+M");

  // 6. "AMR: Show diff against reference" opens the amrcheck diff report
  await runCommand(page, "AMR: Show diff against reference");
  const report = await page.waitForFunction(
    () => [...document.querySelectorAll(".monaco-editor .view-lines")].map((e) => e.textContent ?? "").find((t) => /changed\s+lpp_1943\.2/.test(t)),
    undefined, { timeout: 60_000 },
  ).then((h) => h.jsonValue()).catch(() => null);
  check("diff report (amrcheck diff) opens", report !== null);
  await page.screenshot({ path: join(opts.artifacts, "diff.png") });

  // 7. "AMR: Compare with reference…" on a file without reference: pick gold/lpp.amr
  await page.keyboard.press("Escape");
  await openFile(page, "drafts/lpp.amr");
  const before = await lensTitles(page, /no reference/);
  check("lens says there is no reference", before.length > 0, JSON.stringify(before[0]));
  await runCommand(page, "AMR: Compare with reference…");
  const input = page.locator(".quick-input-widget input");
  await input.waitFor({ state: "visible" });
  await page.waitForTimeout(500);
  await input.fill(join(ws, "gold/lpp.amr"));
  await page.waitForTimeout(500);
  await page.keyboard.press("Enter");
  await page.screenshot({ path: join(opts.artifacts, "compare.png") });
  const after = await lensTitles(page, /vs gold\/lpp\.amr#lpp_1943\.1/);
  check("after Compare with reference…: scores vs the chosen file", after.length > 0, JSON.stringify(after[0]));
  const saved = JSON.parse(readFileSync(join(ws, ".vscode/settings.json"), "utf8"))["amrcheck.references"] ?? {};
  check("the choice is saved in amrcheck.references", saved["drafts/lpp.amr"] === "gold/lpp.amr", JSON.stringify(saved));

  // 8. "AMR: Show graph": the graph under the cursor and its reference, side by side
  await page.keyboard.press("Escape");
  await runCommand(page, "View: Close All Editor Groups");
  await openFile(page, "annotations/lpp.amr");
  const lines = broken.split("\n");
  const lineOf = (needle) => lines.findIndex((line) => line.includes(needle)) + 1;
  await goToLine(page, lineOf("(m / beautiful)"));
  await runCommand(page, "AMR: Show graph");
  const view = page.frameLocator("iframe.webview.ready").frameLocator("#active-frame");
  const relabelled = view.locator('[id="c-v:m"]');
  const drawn = await relabelled.waitFor({ timeout: 60_000 }).then(() => true).catch(() => false);
  check("graph view draws the graph under the cursor", drawn);
  if (drawn) {
    check("... with its reference beside it", await view.locator('[id="r-v:m"]').count() === 1);
    const classes = await relabelled.getAttribute("class");
    check("relabelled concept marked", /relabelled/.test(classes ?? ""), classes);
    const colour = await relabelled.locator("path").first().evaluate((e) => getComputedStyle(e).stroke);
    check("in the report's colour", colour === "rgb(176, 96, 0)", colour);
    await relabelled.hover();
    const partner = await view.locator('[id="r-v:m"]').getAttribute("class");
    check("hover lights up the aligned reference node", /partner/.test(partner ?? ""), partner);
    const hint = await view.locator("#hint").innerText();
    check("... and names it", /m \/ beautiful.*m \/ magnificent/.test(hint), JSON.stringify(hint));
    await page.waitForTimeout(500);
    await page.screenshot({ path: join(opts.artifacts, "graph.png") });
    if (opts["update-docs"]) copyFileSync(join(opts.artifacts, "graph.png"), join(REPO, "docs/graph-view.png"));
    log("screenshot graph.png");

    // a click on a node moves the cursor to where the node is written
    const book = lineOf("(b2 / book");
    const bookColumn = lines[book - 1].indexOf("b2 / book") + 1;
    await view.locator('[id="c-v:b2"]').click();
    const cursor = await page.waitForFunction(
      (want) => {
        const text = document.querySelector('[id="status.editor.selection"]')?.textContent ?? "";
        return text.includes(want) ? text : null;
      },
      `Ln ${book}, Col ${bookColumn}`, { timeout: 30_000 },
    ).then((h) => h.jsonValue()).catch(() => null);
    check("click on a node moves the cursor to its line", cursor !== null,
      `${JSON.stringify(cursor)} (want Ln ${book}, Col ${bookColumn})`);

    // typing redraws: the variable renamed at the cursor is a new node
    const typed = Date.now();
    await page.keyboard.type("x");
    const redrawn = await view.locator('[id="c-v:xb2"]').waitFor({ timeout: 30_000 }).then(() => true).catch(() => false);
    check("an edit redraws the graph", redrawn, `${Date.now() - typed} ms after the keystroke (incl. the UI's own delays)`);
    await page.keyboard.press("Control+Z");

    // the view follows the cursor to another graph
    await goToLine(page, lineOf("(d / draw-01)"));
    const followed = await view.locator("body[data-graph='lpp_1943.4']").waitFor({ timeout: 30_000 })
      .then(() => true).catch(() => false);
    check("the view follows the cursor to the next graph", followed);
  }

  // 9. a Python without amrcheck: a clear notification, not a silent failure
  const bare = join(tmp, "python-without-amrcheck");
  writeFileSync(bare, `#!/bin/sh\nexec "${python}" -I -S "$@"\n`, { mode: 0o755 });
  writeFileSync(settingsFile, JSON.stringify({ ...settings, "amr.server.python": bare }, null, 2));
  await page.reload();
  await page.waitForSelector(".monaco-workbench", { timeout: 60_000 });
  await openFile(page, "annotations/lpp.amr");
  const notice = await page.waitForFunction(
    () => [...document.querySelectorAll(".notifications-toasts .notification-list-item-message")].map((e) => e.textContent ?? "").find((t) => /not installed.*pip install amrcheck/.test(t)),
    undefined, { timeout: 60_000 },
  ).then((h) => h.jsonValue()).catch(() => null);
  check("missing server: notification with the install command", notice !== null, JSON.stringify(notice));
  await page.waitForTimeout(1000); // let the toast finish fading in
  await page.screenshot({ path: join(opts.artifacts, "missing-server.png") });
  log("done");
} catch (error) {
  failed = true;
  console.error(error);
} finally {
  await browser?.close().catch(() => undefined);
  if (server?.pid) {
    try { process.kill(-server.pid, "SIGTERM"); } catch { /* already gone */ }
  }
  if (!opts.keep) rmSync(tmp, { recursive: true, force: true });
}
const bad = checks.filter((c) => !c.ok);
console.log(`${checks.length - bad.length}/${checks.length} checks passed in ${((Date.now() - started) / 1000).toFixed(1)} s; screenshots in ${opts.artifacts}`);
process.exit(failed || bad.length || checks.length === 0 ? 1 : 0);

// -- helpers ----------------------------------------------------------------------

async function openFile(page, relative) {
  await page.locator(".monaco-workbench .part.editor").click({ position: { x: 300, y: 300 } }).catch(() => undefined);
  await page.keyboard.press("Control+P");
  await page.waitForSelector(".quick-input-widget input", { state: "visible" });
  await page.keyboard.type(relative);
  // wait for the search result itself, not the recently opened list
  const folder = relative.split("/").slice(0, -1).join("/");
  await page.waitForFunction(
    (dir) => {
      const first = document.querySelector(".quick-input-list .monaco-list-row");
      return first !== null && (first.textContent ?? "").includes(dir);
    },
    folder, { timeout: 30_000 },
  );
  await page.keyboard.press("Enter");
  await page.waitForFunction(
    (path) => document.querySelector(".monaco-workbench .part.editor .breadcrumbs-control")?.textContent?.replace(/\s/g, "").includes(path.replace(/\//g, "")),
    relative, { timeout: 30_000 },
  ).catch(() => undefined);
}

async function goToLine(page, line) {
  await page.locator(".monaco-editor .view-lines").first().click({ position: { x: 200, y: 10 } });
  await page.keyboard.press("Control+G");
  await page.waitForSelector(".quick-input-widget input", { state: "visible" });
  await page.keyboard.type(String(line));
  await page.keyboard.press("Enter");
}

async function lensTitles(page, pattern, timeout = 30_000) {
  return page.waitForFunction(
    (source) => {
      const titles = [...document.querySelectorAll(".monaco-editor .codelens-decoration")].map((e) => e.textContent ?? "");
      const found = titles.filter((t) => new RegExp(source).test(t));
      return found.length ? found : null;
    },
    pattern.source, { timeout },
  ).then((h) => h.jsonValue()).catch(() => []);
}

async function runCommand(page, title) {
  await page.keyboard.press("F1");
  await page.waitForSelector(".quick-input-widget input", { state: "visible" });
  await page.keyboard.type(title);
  await page.waitForSelector(`.quick-input-list .monaco-list-row[aria-label*="${title}"]`, { timeout: 30_000 });
  await page.keyboard.press("Enter");
}

async function waitFor(predicate, timeout, message) {
  const end = Date.now() + timeout;
  while (!predicate()) {
    if (Date.now() > end) throw new Error(message());
    await new Promise((r) => setTimeout(r, 100));
  }
}

function freePort() {
  return new Promise((resolvePort, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address();
      probe.close(() => resolvePort(port));
    });
  });
}
