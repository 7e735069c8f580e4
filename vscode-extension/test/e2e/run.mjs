// End-to-end test in the real VS Code UI: code-server (VS Code in a browser)
// runs the packaged extension, headless Chromium is driven by playwright-core.
//
// Opens an annotation with a reference (amrcheck.references) and checks the
// error squiggle of a broken graph, the score text of a good one (after its first
// line, repainted as soon as an edit is scored, marked while it is re-scored), the hover
// naming the aligned reference node, the status bar score, the diff report,
// the graph view (drawn with its reference, hover link, a click moves the
// cursor, typing redraws, it follows the cursor), the scores at a glance of
// issue 22 (low-score warnings and the status bar's colour, reference places
// in the Problems panel, a metric's own units in its score text, the key to the next
// graph below the threshold, the view of the graphs by score, formatting that
// keeps the author's layout), and the
// notification when the server's Python is missing. Screenshots go to
// test-artifacts/. Prerequisites: scripts/install-vscode-test.sh, and
// `npm run package` (the .vsix). Exit codes: 0 passed, 1 failed, 3 skipped.
//
//   node test/e2e/run.mjs [--vsix amrcheck-vscode.vsix] [--python /path/to/python]
//                         [--artifacts DIR] [--keep] [--update-docs]
import { execFileSync, spawnSync } from "node:child_process";
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import {
  checkList, exitWithTally, hoverOn, launch, patient, notification, notificationTexts, openFile, requireTools, runCommand, scoreTexts, shownScores, waitFor, WORKBENCH_SETTINGS,
} from "./codeServer.mjs";

const EXT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const REPO = resolve(EXT, "..");
const { values: opts } = parseArgs({
  options: {
    vsix: { type: "string", default: join(EXT, "amrcheck-vscode.vsix") },
    python: { type: "string", default: process.env.AMR_PYTHON ?? "" },
    artifacts: { type: "string", default: join(EXT, "test-artifacts") },
    keep: { type: "boolean", default: false },
    "update-docs": { type: "boolean", default: false }, // copy the screenshots the docs show to docs/
  },
});
requireTools(opts.vsix);

// the interpreter with amrcheck, as an absolute path (HOME changes below: no pyenv shims)
const python = execFileSync(opts.python || "python3", ["-c", "import sys; print(sys.executable)"], { encoding: "utf8" }).trim();

const started = Date.now();
const log = (message) => console.log(`[${((Date.now() - started) / 1000).toFixed(1)}s] ${message}`);
const { checks, check } = checkList();

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
// the intact revision, for the scores at a glance (issue 22): smatch 0.968,
// 0.909 and 0.976 for lpp_1943.2, .4 and .5, 1.0 for the others, 0.983 in all
mkdirSync(join(ws, "review"));
writeFileSync(join(ws, "review/lpp.amr"), annotation);
// an author's own layout, two lines indented wrongly (formatting, issue 22)
const layout = "# ::id layout\n(w / want-01 :ARG0 (b / boy)\n      :ARG1 (g / go-02\n :ARG0 b))\n";
writeFileSync(join(ws, "drafts/layout.amr"), layout);

const settings = {
  ...WORKBENCH_SETTINGS,
  "amr.server.python": python,
  "amrcheck.references": { "annotations/*.amr": "gold/{name}.amr", "review/*.amr": "gold/{name}.amr" },
};

let session;
let failed = false;
try {
  log(`installing ${opts.vsix}, starting code-server`);
  // a checkout tested without installing it (PYTHONPATH=<checkout>): its server runs
  const env = process.env.PYTHONPATH ? { PYTHONPATH: process.env.PYTHONPATH } : {};
  session = await launch({ tmp, vsix: opts.vsix, folder: ws, settings, env });
  const { page } = session;
  log("workbench loaded");

  // open the annotation
  await openFile(page, "annotations/lpp.amr");
  await page.waitForSelector(".monaco-editor .view-lines", { timeout: patient(30_000) });

  // 1. the error squiggle of the broken graph, and its problem
  const squiggle = await page.waitForSelector(".monaco-editor .squiggly-error", { timeout: patient(60_000) }).catch(() => null);
  check("error squiggle on the broken graph", squiggle !== null);
  log("squiggle");

  // 2. each graph's score as text after its first line (against the reference), no code lens
  const score = (await scoreTexts(page, /lpp_1943\.2$/, 60_000))[0];
  // the texts of the other visible graphs come with the same answer
  const visible = (await shownScores(page)).map((s) => s.text);
  check("score text vs the reference graph", !!score && /^smatch 0\.9\d .* vs gold\/lpp\.amr#lpp_1943\.2$/.test(score), JSON.stringify(score));
  check("one score text per visible graph", visible.length >= 3, `${visible.length} score texts`);
  check("... and no code lens (its title would repaint half a second late)",
    await page.locator(".monaco-editor .codelens-decoration").count() === 0);

  // 3. the status bar shows the document score
  const statusText = await page.waitForFunction(
    () => [...document.querySelectorAll(".statusbar-item")].map((e) => e.textContent ?? "").find((t) => /smatch \d\.\d{3}/.test(t)),
    undefined, { timeout: patient(30_000) },
  ).then((h) => h.jsonValue()).catch(() => null);
  check("status bar document score", statusText !== null, JSON.stringify(statusText));

  // 4. hover on a changed concept names the aligned reference node
  const shown = [];
  const hover = await hoverOn(page, /^beautiful\)?$/, "beautiful", /Aligned to reference node.*magnificent/, shown);
  check("hover shows the aligned reference node (magnificent)", hover !== null,
    JSON.stringify(hover ? hover.slice(0, 160) : { shownInstead: [...new Set(shown)] }));
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
    undefined, { timeout: patient(30_000) },
  ).then((h) => h.jsonValue()).catch(() => null);
  check("Problems panel lists E102", problem !== null, JSON.stringify(problem));
  await page.keyboard.press("Control+Shift+M");

  // 6. "AMR: Show diff against reference" opens the amrcheck diff report
  await runCommand(page, "AMR: Show diff against reference");
  const report = await page.waitForFunction(
    () => [...document.querySelectorAll(".monaco-editor .view-lines")].map((e) => e.textContent ?? "").find((t) => /changed\s+lpp_1943\.2/.test(t)),
    undefined, { timeout: patient(60_000) },
  ).then((h) => h.jsonValue()).catch(() => null);
  check("diff report (amrcheck diff) opens", report !== null);
  await page.screenshot({ path: join(opts.artifacts, "diff.png") });

  // 7. "AMR: Compare with reference…" on a file without reference: pick gold/lpp.amr
  await page.keyboard.press("Escape");
  await openFile(page, "drafts/lpp.amr");
  const before = await scoreTexts(page, /no reference/);
  check("score text says there is no reference", before.length > 0, JSON.stringify(before[0]));
  await runCommand(page, "AMR: Compare with reference…");
  const input = page.locator(".quick-input-widget input");
  await input.waitFor({ state: "visible" });
  await page.waitForTimeout(500);
  await input.fill(join(ws, "gold/lpp.amr"));
  await page.waitForTimeout(500);
  await page.keyboard.press("Enter");
  await page.screenshot({ path: join(opts.artifacts, "compare.png") });
  const after = await scoreTexts(page, /vs gold\/lpp\.amr#lpp_1943\.1/);
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
  const drawn = await relabelled.waitFor({ timeout: patient(60_000) }).then(() => true).catch(() => false);
  // on failure: what the panel shows instead (its note, a problem, or no panel at all)
  const panelText = drawn ? "" : await view.locator("body").innerText({ timeout: 5_000 })
    .catch((error) => `(no graph panel: ${String(error).split("\n")[0]})`);
  if (!drawn) await page.screenshot({ path: join(opts.artifacts, "graph-failure.png") });
  check("graph view draws the graph under the cursor", drawn, drawn ? "" : JSON.stringify(panelText.slice(0, 300)));
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
    const legend = await view.locator("#legend").innerText();
    check("a legend in the view's roles", /missing: only in the reference/.test(legend) && /extra: only in this file/.test(legend), JSON.stringify(legend));
    const width = () => view.locator("#graph .drawing svg").evaluate((e) => e.getBoundingClientRect().width);
    const fitted = await width();
    await view.locator("button[data-zoom=in]").click();
    const zoomed = await width();
    check("zoom in widens both sides", zoomed > fitted * 1.2 && Math.abs(await view.locator("#reference .drawing svg").evaluate((e) => e.getBoundingClientRect().width) - zoomed) < 2, `${fitted} -> ${zoomed} px`);
    await view.locator("button[data-zoom=fit]").click();
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
      `Ln ${book}, Col ${bookColumn}`, { timeout: patient(30_000) },
    ).then((h) => h.jsonValue()).catch(() => null);
    check("click on a node moves the cursor to its line", cursor !== null,
      `${JSON.stringify(cursor)} (want Ln ${book}, Col ${bookColumn})`);

    // typing redraws: the variable renamed at the cursor is a new node
    const typed = Date.now();
    await page.keyboard.type("x");
    const redrawn = await view.locator('[id="c-v:xb2"]').waitFor({ timeout: patient(30_000) }).then(() => true).catch(() => false);
    check("an edit redraws the graph", redrawn, `${Date.now() - typed} ms after the keystroke (incl. the UI's own delays)`);
    await page.keyboard.press("Control+Z");

    // the view follows the cursor to another graph
    await goToLine(page, lineOf("(d / draw-01)"));
    const followed = await view.locator("body[data-graph='lpp_1943.4']").waitFor({ timeout: patient(30_000) })
      .then(() => true).catch(() => false);
    check("the view follows the cursor to the next graph", followed);
  }

  // -- issue 22: scores at a glance, in review/lpp.amr with the threshold 0.99 --
  const review = annotation.split("\n");
  const reviewLine = (needle) => review.findIndex((line) => line.includes(needle)) + 1;
  const firstLines = {
    "lpp_1943.2": reviewLine("(s / see-01"),
    "lpp_1943.4": reviewLine("(b / be-located-at-91"),
    "lpp_1943.5": reviewLine("(s2 / say-01"),
  };
  await page.keyboard.press("Escape");
  await runCommand(page, "View: Close All Editor Groups");
  await applySettings(page, { "amrcheck.lowScoreThreshold": 0.99 }, "review/lpp.amr");

  // 9. a low-score warning on each graph below the threshold, the status bar in the warning colour
  const statusItem = await page.waitForFunction(
    () => {
      const item = [...document.querySelectorAll(".statusbar-item")].find((e) => /smatch 0\.983/.test(e.textContent ?? ""));
      return item && item.classList.contains("warning-kind")
        ? { text: item.textContent, background: getComputedStyle(item).backgroundColor } : null;
    },
    undefined, { timeout: patient(60_000) },
  ).then((h) => h.jsonValue()).catch(() => null);
  check("status bar: a document score below the threshold in the warning colour", statusItem !== null, JSON.stringify(statusItem));
  // ... and the score text of a graph below it, not that of a graph above it
  await scoreTexts(page, /#lpp_1943\.2$/, 30_000);
  const colours = await page.waitForFunction(
    () => {
      const shown = window.__scoreTexts();
      const colourOf = (id) => shown.find((s) => s.text.endsWith(`#${id}`))?.color;
      const [low, ok] = [colourOf("lpp_1943.2"), colourOf("lpp_1943.1")];
      return low && ok && low !== ok ? { low, ok } : null;
    },
    undefined, { timeout: patient(30_000) },
  ).then((h) => h.jsonValue()).catch(() => null);
  check("score text below the threshold in the warning colour", colours !== null, JSON.stringify(colours));
  await page.keyboard.press("Control+Shift+M");
  const lowScores = (await markers(page, "< 0.99", 3)).map((t) => /smatch 0\.\d+ < 0\.99.*/.exec(t)?.[0]);
  check("low-score warnings on the three graphs below 0.99",
    lowScores.map((t) => t?.slice(0, 18)).join("|") === "smatch 0.97 < 0.99|smatch 0.91 < 0.99|smatch 0.98 < 0.99"
      && lowScores.every((t) => /low-score/.test(t ?? "")), JSON.stringify(lowScores));
  // the editor draws only the visible lines' squiggles: lpp_1943.2's (line 12); lpp_1943.1's
  // ":mod 1" numbers a chapter, as the guidelines do, and has none (issue 29)
  const squiggles = await page.locator(".monaco-editor .squiggly-warning").count();
  check("... with the warning squiggle in the editor", squiggles >= 1, `${squiggles} on the first screen`);
  await shot(page, "editor-low-scores.png", { x: 0, y: 0, width: 1400, height: 860 });

  // 10. the Problems panel names the reference place file:line:col
  const places = await markers(page, "gold/lpp.amr:15:23", 1);
  // each place named by its path in the workspace (issue 29): VS Code adds only "lpp.amr[Ln, Col]"
  check("Problems panel names the reference place gold/lpp.amr:line:col",
    places.some((t) => /relabelled \(m \/ magnificent\) at gold\/lpp\.amr:15:23 -> \(m \/ beautiful\) \(at review\/lpp\.amr:\d+:\d+\)/.test(t)),
    JSON.stringify(places));
  await shot(page, "editor-reference-places.png", await panelBox(page));

  // 10b. differences are grouped: one diagnostic per differing graph (amrcheck.diffDiagnostics
  // "grouped", the default), its triples as related places under it
  // (lpp_1943.2: 1 relabelled; lpp_1943.4: 2 missing; lpp_1943.5: 1 extra)
  const grouped = await markers(page, "differs from gold/lpp.amr#", 3);
  const ids = grouped.map((t) => /differs from gold\/lpp\.amr#(lpp_1943\.\d)/.exec(t)?.[1]).sort();
  // the three differences, each a related place under its graph's row
  const related = await page.waitForFunction(
    () => {
      const rows = [...document.querySelectorAll(".markers-panel .monaco-tl-contents")]
        .map((e) => e.textContent ?? "").filter((t) => /^(missing|extra|relabelled) \(.* at gold\/lpp\.amr:\d+:\d+/.test(t.replace(/^.*\]:\s*/, "")));
      return rows.length >= 3 ? rows.length : null;
    },
    undefined, { timeout: patient(15_000) },
  ).then((h) => h.jsonValue()).catch(() => 0);
  check("Problems panel: one diff diagnostic per differing graph",
    ids.join(" ") === "lpp_1943.2 lpp_1943.4 lpp_1943.5" && related >= 3,
    `${JSON.stringify(grouped.map((t) => t.slice(0, 90)))}, ${related} related places`);
  await shot(page, "editor-grouped-differences.png", await panelBox(page));
  await markers(page, "", 0);
  await runCommand(page, "View: Hide Panel");

  // 11. the key to the next graph below the threshold moves the cursor, graph after graph
  await page.locator(".monaco-editor .view-lines").filter({ visible: true }).first().click({ position: { x: 200, y: 10 } });
  await page.keyboard.press("Control+Home");
  const visited = [];
  for (const id of ["lpp_1943.2", "lpp_1943.4", "lpp_1943.5", "lpp_1943.2"]) {
    await page.keyboard.press("Control+F8");
    visited.push(await cursorAt(page, firstLines[id], 1));
  }
  check("Ctrl+F8 goes to the next graph below the threshold, and wraps around",
    visited.every((at) => at !== null), `${JSON.stringify(visited)} (want lines ${JSON.stringify(firstLines)})`);
  await page.keyboard.press("Control+F8"); // to lpp_1943.4, for the picture
  await cursorAt(page, firstLines["lpp_1943.4"], 1);
  await shot(page, "editor-next-low-score.png", { x: 0, y: 0, width: 1400, height: 860 });

  // 12. the view of the graphs by score: lowest first, the low ones marked, a click goes there
  await page.keyboard.press("Control+Shift+E");
  // the list shows only the rows that fit: fold the folders' pane, open this one
  const folders = page.locator(".pane-header", { hasText: /^workspace$/i });
  if (await folders.getAttribute("aria-expanded") === "true") await folders.click();
  const header = page.locator(".pane-header", { hasText: /AMR Graphs by Score/i });
  if (await header.getAttribute("aria-expanded") === "false") await header.click();
  const rows = await page.waitForFunction(
    () => {
      const pane = [...document.querySelectorAll(".pane")].find((p) => /AMR Graphs by Score/i.test(p.querySelector(".pane-header")?.textContent ?? ""));
      const found = [...(pane?.querySelectorAll(".monaco-list-row") ?? [])].map((row) => ({
        id: row.querySelector(".label-name")?.textContent ?? "",
        description: row.querySelector(".label-description")?.textContent ?? "",
        warning: row.querySelector(".codicon-warning") !== null,
      }));
      return found.length === 8 ? found : null;
    },
    undefined, { timeout: patient(30_000) },
  ).then((h) => h.jsonValue()).catch(() => []);
  check("graphs by score: all eight, lowest first",
    rows.map((r) => r.id).join(" ") === "lpp_1943.4 lpp_1943.2 lpp_1943.5 lpp_1943.1 lpp_1943.3 lpp_1943.6 lpp_1943.7 lpp_1943.8",
    JSON.stringify(rows.map((r) => `${r.id} ${r.description}`)));
  check("... the three below the threshold marked, with their scores",
    rows.filter((r) => r.warning).map((r) => r.description).join("|") === "smatch 0.909 < 0.99|smatch 0.968 < 0.99|smatch 0.976 < 0.99",
    JSON.stringify(rows.filter((r) => r.warning)));
  await page.locator(".pane .monaco-list-row", { hasText: "lpp_1943.5" }).click();
  check("a click on a graph of the view moves the cursor there", await cursorAt(page, firstLines["lpp_1943.5"], 1) !== null);
  await page.mouse.move(700, 300); // no tooltip over the list
  await shot(page, "editor-graphs-by-score.png", { x: 0, y: 0, width: 1100, height: 860 });

  // ... a higher threshold recolours the status bar; the key then says there is none
  await applySettings(page, { "amrcheck.lowScoreThreshold": 0.5 }, "review/lpp.amr");
  const plain = await page.waitForFunction(
    () => [...document.querySelectorAll(".statusbar-item")].find((e) => /smatch 0\.983/.test(e.textContent ?? "") && !e.className.includes("-kind")) !== undefined,
    undefined, { timeout: patient(30_000) },
  ).then(() => true).catch(() => false);
  check("status bar: no colour above the threshold (setting changed)", plain);
  // ... and the view's marks follow it: none below 0.50, and the check only on the graphs
  // identical to their reference (issue 29: a green check sat on a graph at 0.848)
  const marks = await page.waitForFunction(
    () => {
      const pane = [...document.querySelectorAll(".pane")].find((p) => /AMR Graphs by Score/i.test(p.querySelector(".pane-header")?.textContent ?? ""));
      const found = [...(pane?.querySelectorAll(".monaco-list-row") ?? [])].map((row) => ({
        id: row.querySelector(".label-name")?.textContent ?? "",
        pass: row.querySelector(".codicon-pass") !== null,
        plain: row.querySelector(".codicon-circle-outline") !== null,
        warning: row.querySelector(".codicon-warning") !== null,
      }));
      return found.length === 8 && !found.some((r) => r.warning) ? found : null;
    },
    undefined, { timeout: patient(30_000) },
  ).then((h) => h.jsonValue()).catch(() => []);
  check("graphs by score: the marks follow the threshold, the check only on identical graphs",
    marks.filter((r) => r.plain).map((r) => r.id).sort().join(" ") === "lpp_1943.2 lpp_1943.4 lpp_1943.5"
      && marks.filter((r) => r.pass).length === 5, JSON.stringify(marks));
  await page.keyboard.press("Control+F8");
  const none = await page.waitForFunction(
    () => [...document.querySelectorAll(".notifications-toasts .notification-list-item-message")].map((e) => e.textContent ?? "").find((t) => /no graph of lpp\.amr scores below 0\.50/.test(t)),
    undefined, { timeout: patient(30_000) },
  ).then((h) => h.jsonValue()).catch(() => null);
  check("Ctrl+F8 without a graph below the threshold says so", none !== null, JSON.stringify(none));

  // 13. a metric that does not count triples: its score text speaks its own units (rematch: motifs)
  await applySettings(page, { "amrcheck.metric": "rematch" }, "review/lpp.amr");
  await goToLine(page, 1, false); // the editor has the focus, openFile gave it
  const motifs = await scoreTexts(page, /^rematch 0\.89 .*lpp_1943\.2$/, 60_000);
  check("rematch score text counts motifs, not triples",
    motifs.length === 1 && /motifs: \d+ shared, \d+ missing, \d+ extra vs gold\/lpp\.amr#lpp_1943\.2$/.test(motifs[0]) && !/triple/.test(motifs[0]),
    JSON.stringify(motifs[0]));
  await shot(page, "editor-metric-units.png", { x: 0, y: 0, width: 1400, height: 560 });

  // 13b. an edit's graph is marked as being re-scored until its new score is painted; with
  // amrcheck.debounceMs 3000 the server checks the edit later than at once, so the mark
  // stays long enough to be read (the editor's own requests, e.g. for the outline, may
  // start the check before the 3 s are over)
  await applySettings(page, { "amrcheck.debounceMs": 3000 }, "review/lpp.amr");
  const old = await scoreTexts(page, /^smatch 0\.97 .*#lpp_1943\.2$/, 60_000);
  const wordLine = reviewLine("(m / beautiful)");
  await goToLine(page, `${wordLine}:${review[wordLine - 1].indexOf("beautiful") + 1}`, false);
  await page.keyboard.press("Shift+Control+ArrowRight"); // "beautiful" selected
  await page.keyboard.type("magnificent");
  const typed = Date.now();
  const marked = await scoreTexts(page, /^re-scoring… smatch 0\.97 .*#lpp_1943\.2$/, 5_000);
  const others = (await shownScores(page)).filter((s) => !s.text.endsWith("#lpp_1943.2"));
  check("an edited graph's score text is marked as being re-scored",
    old.length === 1 && marked.length === 1, JSON.stringify(marked[0]));
  check("... the other graphs' texts are not",
    others.length >= 2 && others.every((s) => !s.text.startsWith("re-scoring") && !s.italic), JSON.stringify(others.map((s) => s.text)));
  await shot(page, "editor-rescoring.png", { x: 0, y: 0, width: 1400, height: 400 });
  const fresh = await scoreTexts(page, /^smatch 1\.00 · P 1\.00 R 1\.00 · 0 missing, 0 extra, 0 relabelled vs gold\/lpp\.amr#lpp_1943\.2$/, 30_000);
  check("... then its new score, unmarked", fresh.length === 1, `${Date.now() - typed} ms after the last key: ${JSON.stringify(fresh[0])}`);
  await page.keyboard.press("Control+S");

  // 14. formatting keeps the author's layout (amrcheck.formatStyle "keep-lines", the
  // default): the same lines and tokens, each line indented by its depth (4 spaces)
  await page.keyboard.press("Escape");
  await runCommand(page, "View: Close All Editor Groups");
  await openFile(page, "drafts/layout.amr");
  await runCommand(page, "Format Document");
  await page.waitForTimeout(500);
  await page.keyboard.press("Control+S");
  const layoutFile = join(ws, "drafts/layout.amr");
  const formatted = await waitFor(() => readFileSync(layoutFile, "utf8") !== layout, 30_000, () => "the file was not formatted")
    .then(() => readFileSync(layoutFile, "utf8")).catch(() => null);
  const want = "# ::id layout\n(w / want-01 :ARG0 (b / boy)\n    :ARG1 (g / go-02\n        :ARG0 b))\n";
  check("Format Document keeps the author's lines and only re-indents them", formatted === want, JSON.stringify(formatted));
  await shot(page, "editor-formatting.png", { x: 0, y: 0, width: 1000, height: 300 });

  // 15. a Python without amrcheck: a clear notification, not a silent failure.
  // A fresh venv cannot run the server whatever way the test's Python has it
  // (a .pth, a prefix install, PYTHONPATH): asserted before the editor is asked.
  // With PYTHONPATH it sees amrcheck's sources (`import amrcheck` works: the
  // package loads its parts on first use) but not their dependencies.
  const bareEnv = join(tmp, "python-without-amrcheck");
  execFileSync(python, ["-m", "venv", "--without-pip", bareEnv]);
  const bare = join(bareEnv, "bin", "python");
  const imports = spawnSync(bare, ["-c", "import amr_lsp.server"], { encoding: "utf8" });
  check("the Python of step 15 cannot import the server", imports.status !== 0, imports.stderr.trim().split("\n").pop());
  // saved through VS Code's own settings editor: a write from outside the window
  // raced the reload (seen: the reloaded window still had the old settings)
  await applySettings(page, { "amr.server.python": bare }, "annotations/lpp.amr");
  // the command installs the wheel the .vsix carries (no package index release is needed).
  // A reloaded code-server window under load once started the extension without the
  // user settings saved on disk (its notice named the default "python3"): then the
  // window is reloaded again, as a user would, and the reloads are reported
  const installCommand = /not installed for .*-m pip install \S*bundled[\\/]amrcheck-[^ ]+-py3-none-any\.whl/;
  let notice = null;
  const shownInstead = [];
  for (let reload = 0; reload < 3 && notice === null; reload++) {
    await page.reload();
    await page.waitForSelector(".monaco-workbench", { timeout: patient(60_000) });
    await openFile(page, "annotations/lpp.amr");
    notice = await notification(page, installCommand, reload === 0 ? 60_000 : 30_000);
    if (notice === null) shownInstead.push(await notificationTexts(page));
  }
  check("missing server: notification with the install command", notice !== null,
    JSON.stringify(notice === null ? { notifications: shownInstead }
      : shownInstead.length ? { notice, afterReloads: shownInstead.length + 1, firstShown: shownInstead } : notice));
  await page.waitForTimeout(1000); // let the toast finish fading in
  await page.screenshot({ path: join(opts.artifacts, "missing-server.png") });
  log("done");
} catch (error) {
  failed = true;
  console.error(error);
  await session?.page?.screenshot({ path: join(opts.artifacts, "failure.png") }).catch(() => undefined);
} finally {
  await session?.close();
  if (!opts.keep) rmSync(tmp, { recursive: true, force: true });
}
exitWithTally(checks, started, opts.artifacts, failed);

// -- helpers ----------------------------------------------------------------------

/** The user settings plus `values`, saved in VS Code's own editor of the settings file
 * (VS Code applies them at once; a write from outside waits for a file watcher); then
 * back to the file `then`, the cursor in it. */
async function applySettings(page, values, then) {
  const wanted = { ...settings, ...values };
  // the file on disk is what the window reads on reload: typed into a busy
  // editor it was once left without the new value (seen under load: the
  // reloaded window used the default Python), so it is checked, and typed again
  let written = false;
  for (let attempt = 0; attempt < 3 && !written; attempt++) {
    await runCommand(page, "Preferences: Open User Settings (JSON)");
    await page.waitForFunction(() => document.querySelector(".monaco-workbench .part.editor .breadcrumbs-control")?.textContent?.includes("settings.json"),
      undefined, { timeout: patient(30_000) });
    await page.locator(".monaco-editor .view-lines").first().click();
    await page.keyboard.press("Control+A");
    await page.keyboard.insertText(JSON.stringify(wanted));
    await page.keyboard.press("Shift+Control+End"); // what the editor closed for us
    await page.keyboard.press("Delete");
    await page.keyboard.press("Control+S");
    written = await waitFor(() => savedSettingsAre(wanted), 10_000, () => "settings not saved").then(() => true, () => false);
    await runCommand(page, "View: Close Editor");
  }
  if (!written) throw new Error(`user settings not saved as ${JSON.stringify(values)}: ${readFileSync(session.settingsFile, "utf8")}`);
  await openFile(page, then);
}

/** Whether the user settings file on disk holds every value of `wanted`. */
function savedSettingsAre(wanted) {
  try {
    const saved = JSON.parse(readFileSync(session.settingsFile, "utf8"));
    return Object.entries(wanted).every(([key, value]) => JSON.stringify(saved[key]) === JSON.stringify(value));
  } catch {
    return false; // half written, or not JSON yet
  }
}

/** Save a screenshot (of `clip`) in the artifacts; with --update-docs in docs/ too. */
async function shot(page, name, clip) {
  await page.waitForTimeout(500); // let hovers and toasts finish fading in
  await page.screenshot({ path: join(opts.artifacts, name), clip, animations: "disabled" });
  if (opts["update-docs"]) copyFileSync(join(opts.artifacts, name), join(REPO, "docs", name));
  log(`screenshot ${name}`);
}

/** The Problems panel's rows with `filter` in them, once there are `count` of them ([] if never). */
async function markers(page, filter, count) {
  const input = page.locator(".part.panel .viewpane-filter input");
  await input.fill(filter); // the panel shows only the rows that fit: filter, do not scroll
  return page.waitForFunction(
    ([text, wanted]) => {
      const found = [...document.querySelectorAll(".markers-panel .monaco-tl-contents")].map((e) => e.textContent ?? "")
        .filter((t) => t.includes(text));
      return found.length >= wanted ? found : null;
    },
    [filter, count], { timeout: patient(30_000) },
  ).then((h) => h.jsonValue()).catch(() => []);
}

/** The panel's place on the page (for a screenshot of the Problems panel). */
async function panelBox(page) {
  const box = await page.locator(".part.panel").boundingBox();
  return box ?? undefined;
}

/** The status bar's "Ln L, Col C" once the cursor is there (null if it never gets there). */
async function cursorAt(page, line, column) {
  return page.waitForFunction(
    (want) => {
      const text = document.querySelector('[id="status.editor.selection"]')?.textContent ?? "";
      return text.includes(want) ? text : null;
    },
    `Ln ${line}, Col ${column}`, { timeout: patient(30_000) },
  ).then((h) => h.jsonValue()).catch(() => null);
}

/** Ctrl+G to `line`; `focus`: click into the editor first (the focus may be in a webview). */
async function goToLine(page, line, focus = true) {
  if (focus) await page.locator(".monaco-editor .view-lines").first().click({ position: { x: 200, y: 10 } });
  await page.keyboard.press("Control+G");
  await page.waitForSelector(".quick-input-widget input", { state: "visible" });
  await page.keyboard.type(String(line));
  await page.keyboard.press("Enter");
}

