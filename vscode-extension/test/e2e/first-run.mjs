// End-to-end test of the first run on a machine where no Python has amrcheck:
// the packaged extension (with the amrcheck wheel it carries) in code-server,
// python3 on PATH a fresh venv without amrcheck, amr.server.python unset. The
// extension offers a private environment; the test accepts, watches the
// progress, and waits for the score texts of an annotation. Then a reload
// starts the server from that environment without asking again.
//
// pip installs the wheel's dependencies from the package index that pip is
// configured with (PIP_* variables and /etc/pip.conf are kept) and uses the
// user's pip cache, so a repeat run downloads nothing. Exit codes: 0 passed,
// 1 failed, 3 skipped. Screenshots go to test-artifacts/.
//
//   node test/e2e/first-run.mjs [--vsix amrcheck-vscode.vsix] [--python /path/to/python]
//                               [--artifacts DIR] [--keep] [--update-docs]
// --python: the Python the bare venv is made from (default python3).
import { execFileSync, spawnSync } from "node:child_process";
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { delimiter, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { checkList, exitWithTally, launch, patient, scoreTexts, notification, openFile, requireTools, WORKBENCH_SETTINGS } from "./codeServer.mjs";

const EXT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const REPO = resolve(EXT, "..");
const { values: opts } = parseArgs({
  options: {
    vsix: { type: "string", default: join(EXT, "amrcheck-vscode.vsix") },
    python: { type: "string", default: process.env.AMR_PYTHON ?? "python3" },
    artifacts: { type: "string", default: join(EXT, "test-artifacts") },
    keep: { type: "boolean", default: false },
    "update-docs": { type: "boolean", default: false },
  },
});
requireTools(opts.vsix);
mkdirSync(opts.artifacts, { recursive: true });

const started = Date.now();
const log = (message) => console.log(`[${((Date.now() - started) / 1000).toFixed(1)}s] ${message}`);
const { checks, check } = checkList();

const tmp = mkdtempSync(join(tmpdir(), "amr-vscode-first-run-"));
const ws = join(tmp, "workspace");
const data = join(REPO, "tests/data/lsp");
cpSync(join(data, "gold"), join(ws, "gold"), { recursive: true });
cpSync(join(data, "annotations"), join(ws, "annotations"), { recursive: true });

// python3 and python on PATH: a fresh venv, which cannot import amrcheck. code-server
// takes the extension host's PATH from a login shell, so the profile puts it first.
const bare = join(tmp, "bare-python");
execFileSync(opts.python, ["-m", "venv", "--without-pip", bare]);
const bareBin = join(bare, "bin");
const home = join(tmp, "home");
mkdirSync(home, { recursive: true });
writeFileSync(join(home, ".profile"), `export PATH='${bareBin}':"$PATH"\n`);
const PATH = `${bareBin}${delimiter}${process.env.PATH}`;
const { PYTHONPATH: _ignored, ...parentEnv } = process.env;
const imports = spawnSync("/bin/sh", ["-lc", "command -v python3 && python3 -c 'import amrcheck'"],
  { env: { HOME: home, PATH, LANG: "C.UTF-8" }, encoding: "utf8" });
check("the Python on PATH cannot import amrcheck",
  imports.stdout.trim() === join(bareBin, "python3") && /No module named 'amrcheck'/.test(imports.stderr),
  `${imports.stdout.trim()}: ${imports.stderr.trim().split("\n").pop()}`);

// pip's own configuration (the user's package index: PIP_* variables, the user's
// config file, which the throwaway HOME would hide) and the user's pip cache
const pipEnv = Object.fromEntries(Object.entries(process.env).filter(([key]) => key.startsWith("PIP_")));
const userConfig = [join(homedir(), ".config/pip/pip.conf"), join(homedir(), ".pip/pip.conf")].find(existsSync);
if (userConfig) pipEnv.PIP_CONFIG_FILE ??= userConfig;
pipEnv.PIP_CACHE_DIR ??= join(process.env.XDG_CACHE_HOME ?? join(homedir(), ".cache"), "pip");

const settings = { ...WORKBENCH_SETTINGS, "amrcheck.references": { "annotations/*.amr": "gold/{name}.amr" } };
const lens = /^smatch 0\.9\d .* vs gold\/lpp\.amr#lpp_1943\.2$/;
let session;
let failed = false;
try {
  log(`installing ${opts.vsix}, starting code-server`);
  session = await launch({ tmp, vsix: opts.vsix, folder: ws, settings, env: { PATH, ...pipEnv } });
  const { page, userData } = session;
  log("workbench loaded");
  await openFile(page, "annotations/lpp.amr");

  // 1. the offer
  const offer = await notification(page, /not installed for "python3"\. Create a private environment/);
  check("first use: the extension offers a private environment", offer !== null, JSON.stringify(offer));
  await shot(page, "first-run-offer.png");
  await page.locator(".notifications-toasts .monaco-button", { hasText: "Create environment" }).click();
  await page.mouse.move(300, 300); // no tooltip over the progress
  log("accepted");

  // 2. the progress, step by step (pip's "Collecting ..." lines)
  const progress = await notification(page, /setting up the language server.*(Collecting|installing amrcheck)/, 120_000);
  check("progress is shown while pip installs", progress !== null, JSON.stringify(progress));
  await shot(page, "first-run-progress.png");
  log("progress");

  // 3. the server starts from the new environment: the graphs' score texts
  const scores = await scoreTexts(page, lens, 600_000);
  check("then the server runs from it: score texts", scores.length === 1, JSON.stringify(scores));
  await page.screenshot({ path: join(opts.artifacts, "first-run-scores.png"), animations: "disabled" });
  log("score texts");

  const envPython = join(userData, "User/globalStorage/amrcheck.amrcheck-vscode/env",
    process.platform === "win32" ? "Scripts/python.exe" : "bin/python");
  const inEnv = spawnSync(envPython, ["-c", "import amrcheck, amr_lsp; print(amrcheck.__version__)"], { env: parentEnv, encoding: "utf8" });
  const wheel = readdirSync(join(EXT, "bundled")).find((name) => name.endsWith(".whl")) ?? "";
  check("the environment is in the global storage, with the bundled amrcheck",
    inEnv.status === 0 && wheel.startsWith(`amrcheck-${inEnv.stdout.trim()}-`), `${inEnv.stdout.trim()} ${inEnv.stderr.trim()} (${wheel})`);
  const logged = findFile(join(userData, "logs"), (text) => /Successfully installed .*amrcheck-/.test(text));
  check("pip's log is in the output channel", logged !== undefined, logged ?? "");
  const looked = logged ? /python3: Python \S+ at (.*)/.exec(readFileSync(logged, "utf8"))?.[1] : undefined;
  check("the extension's python3 was the venv without amrcheck", looked === join(bareBin, "python3"), looked);

  // 4. the next window starts the server from the environment without asking
  await page.reload();
  await page.waitForSelector(".monaco-workbench", { timeout: patient(60_000) });
  await openFile(page, "annotations/lpp.amr");
  const again = await scoreTexts(page, lens, 300_000);
  const asked = await notification(page, /Create a private environment/, 1_000);
  check("a new window uses the environment without asking again", again.length === 1 && asked === null, JSON.stringify({ again, asked }));
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

/** The lower right of the window, where the notifications are (with --update-docs also in docs/). */
async function shot(page, name) {
  await page.waitForTimeout(500); // let the toast finish fading in
  await page.screenshot({ path: join(opts.artifacts, name), clip: { x: 760, y: 420, width: 640, height: 440 }, animations: "disabled" });
  if (opts["update-docs"]) copyFileSync(join(opts.artifacts, name), join(REPO, "docs", name));
}

/** The first file under `dir` whose text satisfies `test`. */
function findFile(dir, test) {
  if (!existsSync(dir)) return undefined;
  for (const name of readdirSync(dir)) {
    const file = join(dir, name);
    if (statSync(file).isDirectory()) {
      const found = findFile(file, test);
      if (found) return found;
    } else if (test(readFileSync(file, "utf8"))) {
      return file;
    }
  }
  return undefined;
}
