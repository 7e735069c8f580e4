// End-to-end test of UMR in the real VS Code UI (issue 30): code-server with
// the packaged extension opens a real file of the UMR 3.0 English release
// (tests/data/umr/english_umr-0003.umr) and checks that it is in the UMR
// language, that the server's diagnostics are squiggled, the outline (Go to
// Symbol) lists its sentences, a hover on a variable shows its aligned words
// and document-level relations, a hover on a word shows its nodes, and the
// first sentence graph's score against a reference UMR file shows after its
// first line (issue 31).
// Exit codes: 0 passed, 1 failed, 3 skipped. Screenshot: test-artifacts/umr.png.
//
//   node test/e2e/umr.mjs [--vsix amrcheck-vscode.vsix] [--python /path/to/python]
//                         [--artifacts DIR] [--keep]
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { checkList, exitWithTally, hoverOn, launch, patient, openFile, requireTools, scoreTexts, WORKBENCH_SETTINGS } from "./codeServer.mjs";

const EXT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const REPO = resolve(EXT, "..");
const { values: opts } = parseArgs({
  options: {
    vsix: { type: "string", default: join(EXT, "amrcheck-vscode.vsix") },
    python: { type: "string", default: process.env.AMR_PYTHON ?? "" },
    artifacts: { type: "string", default: join(EXT, "test-artifacts") },
    keep: { type: "boolean", default: false },
  },
});
requireTools(opts.vsix);
mkdirSync(opts.artifacts, { recursive: true });
// the interpreter with amrcheck, as an absolute path (HOME changes: no pyenv shims)
const python = execFileSync(opts.python || "python3", ["-c", "import sys; print(sys.executable)"], { encoding: "utf8" }).trim();

const started = Date.now();
const log = (message) => console.log(`[${((Date.now() - started) / 1000).toFixed(1)}s] ${message}`);
const { checks, check } = checkList();

const tmp = mkdtempSync(join(tmpdir(), "amr-vscode-umr-"));
const ws = join(tmp, "workspace");
mkdirSync(join(ws, "umr"), { recursive: true });
copyFileSync(join(REPO, "tests/data/umr/english_umr-0003.umr"), join(ws, "umr/english_umr-0003.umr"));
// its reference (issue 31): the same file with one concept changed, by the references setting
mkdirSync(join(ws, "gold"), { recursive: true });
const original = readFileSync(join(REPO, "tests/data/umr/english_umr-0003.umr"), "utf8");
writeFileSync(join(ws, "gold/english_umr-0003.umr"), original.replace("(s1f / freedom)", "(s1f / liberty)"));
const settings = {
  ...WORKBENCH_SETTINGS, "amr.server.python": python,
  "amrcheck.references": { "umr/*.umr": "gold/{name}.umr" },
};

let session;
let failed = false;
try {
  log(`installing ${opts.vsix}, starting code-server`);
  // the server imports amrcheck from PYTHONPATH when one is set (a checkout under test)
  const env = process.env.PYTHONPATH ? { PYTHONPATH: process.env.PYTHONPATH } : {};
  session = await launch({ tmp, vsix: opts.vsix, folder: ws, settings, env });
  const { page } = session;
  log("workbench loaded");
  await openFile(page, "umr/english_umr-0003.umr");

  // 1. the language: UMR, highlighted by its grammar
  const mode = await page.waitForFunction(
    () => document.querySelector("#status\\.editor\\.mode")?.textContent?.trim() || null,
    undefined, { timeout: patient(30_000) },
  ).then((h) => h.jsonValue()).catch(() => null);
  check("a .umr file is in the UMR language", mode === "UMR", JSON.stringify(mode));

  // 2. diagnostics: squiggles of the validator's findings (U001 trailing white space...)
  const squiggle = await page.waitForSelector(".monaco-editor .squiggly-error", { timeout: patient(60_000) }).catch(() => null);
  check("UMR findings are squiggled", squiggle !== null);
  const problems = await page.waitForFunction(
    () => {
      const text = document.querySelector("#status\\.problems")?.textContent ?? "";
      return /[1-9]/.test(text) ? text : null;
    },
    undefined, { timeout: patient(30_000) },
  ).then((h) => h.jsonValue()).catch(() => null);
  check("the status bar counts the problems", problems !== null, JSON.stringify(problems));

  // 3. hover on a variable: its aligned words and document-level relations
  const shown = [];
  const variable = await hoverOn(page, /^s1t$/, "s1t", /taste-01[\s\S]*aligned to 3-3[\s\S]*tasted[\s\S]*contained s1t/, shown);
  check("hover on a variable shows its words and document-level relations", variable !== null,
    JSON.stringify(variable ? variable.slice(0, 200) : { shownInstead: [...new Set(shown)] }));
  await page.waitForTimeout(800); // let the hover finish fading in
  await page.screenshot({ path: join(opts.artifacts, "umr.png"), animations: "disabled" });
  await page.keyboard.press("Escape");

  // 4. hover on a word of the Words row: the nodes aligned to it
  await page.mouse.move(700, 700);
  const shownForWord = [];
  const word = await hoverOn(page, "Edmund Pope tasted", "Edmund", /word 1[\s\S]*Edmund[\s\S]*s1n/, shownForWord);
  check("hover on a word shows its nodes", word !== null,
    JSON.stringify(word ? word.slice(0, 120) : { shownInstead: [...new Set(shownForWord)] }));
  await page.keyboard.press("Escape");

  // 5. the outline: Go to Symbol lists one entry per sentence
  await page.locator(".monaco-editor .view-lines").first().click({ position: { x: 200, y: 10 } });
  await page.keyboard.press("Control+Shift+O");
  const symbols = await page.waitForFunction(
    () => {
      const rows = [...document.querySelectorAll(".quick-input-list .monaco-list-row")].map((e) => e.getAttribute("aria-label") ?? "");
      return rows.some((r) => r.includes("snt1")) ? rows : null;
    },
    undefined, { timeout: patient(30_000) },
  ).then((h) => h.jsonValue()).catch(() => null);
  check("the outline lists the sentences", symbols !== null && symbols.some((r) => r.includes("snt2")),
    JSON.stringify(symbols?.slice(0, 3)));
  await page.keyboard.press("Escape");

  // 6. the score of a sentence graph against the reference UMR file, as text after its first line
  const scores = await scoreTexts(page, /^smatch 0\.\d\d .* vs gold\/english_umr-0003\.umr#snt1$/, 60_000);
  check("score text per sentence vs the reference UMR file", scores.length > 0, JSON.stringify(scores[0]));
  log("done");
} catch (error) {
  failed = true;
  console.error(error);
  await session?.page?.screenshot({ path: join(opts.artifacts, "umr-failure.png") }).catch(() => undefined);
} finally {
  await session?.close();
  if (!opts.keep) rmSync(tmp, { recursive: true, force: true });
}
exitWithTally(checks, started, opts.artifacts, failed);
