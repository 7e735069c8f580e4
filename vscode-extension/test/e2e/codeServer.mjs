// What the end-to-end tests share: a code-server (the real VS Code, served to
// a browser) with the packaged extension installed in a throwaway profile,
// headless Chromium driven by playwright-core, and the few UI moves every test
// makes. Exit code 3 means skipped (code-server, Chromium or the .vsix missing).
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { homedir } from "node:os";
import { join } from "node:path";

const CS_HOME = process.env.AMRCHECK_VSCODE_TEST_HOME ?? join(homedir(), ".cache/amrcheck-vscode-test");
const CODE_SERVER = join(CS_HOME, "node_modules/.bin/code-server");
const CHROMIUM = process.env.CHROMIUM ?? "/usr/bin/chromium";

// How much longer than on a quiet machine a wait may take before a check
// fails: the tests run beside other work (a loaded CI machine), and a wait
// ends as soon as its condition holds, so patience costs time only on failure.
const PATIENCE = Number(process.env.AMR_E2E_PATIENCE ?? 3);

/** A wait's limit in ms: `ms` as measured on a quiet machine, times PATIENCE. */
export function patient(ms) {
  return ms * PATIENCE;
}

/** Exits with 3 (skipped) when what the test needs is not installed. */
export function requireTools(vsix) {
  const skip = (reason) => {
    console.log(`SKIP: ${reason}`);
    process.exit(3);
  };
  if (!existsSync(CODE_SERVER)) skip(`code-server not installed in ${CS_HOME} (run scripts/install-vscode-test.sh)`);
  if (!existsSync(CHROMIUM)) skip(`${CHROMIUM} not installed (run scripts/install-vscode-test.sh)`);
  if (!existsSync(vsix)) skip(`${vsix} missing (run npm run package)`);
}

/** The settings of a quiet, predictable workbench (the tests add theirs). */
export const WORKBENCH_SETTINGS = {
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
  // a fixed indentation (4 spaces), not one guessed from each file's lines
  "editor.detectIndentation": false,
  "window.commandCenter": false,
  "chat.commandCenter.enabled": false,
  "workbench.secondarySideBar.defaultVisibility": "hidden",
};

/** A running check list: `check(name, ok, detail)` prints `ok   name` or `FAIL name`. */
export function checkList() {
  const checks = [];
  const check = (name, ok, detail = "") => {
    checks.push({ name, ok });
    console.log(`${ok ? "ok  " : "FAIL"} ${name}${detail ? `: ${detail}` : ""}`);
  };
  return { checks, check };
}

/**
 * Installs `vsix` into a fresh profile under `tmp` (user data, extensions, HOME),
 * writes `settings`, starts code-server and Chromium, and opens `folder`.
 * `env`: the environment of code-server and so of the extension host (PATH...).
 */
export async function launch({ tmp, vsix, folder, settings, env: extra = {} }) {
  const { chromium } = await import("playwright-core");
  const userData = join(tmp, "user-data");
  const extensions = join(tmp, "extensions");
  const home = join(tmp, "home");
  for (const dir of [join(userData, "User"), extensions, home]) mkdirSync(dir, { recursive: true });
  const settingsFile = join(userData, "User/settings.json");
  writeFileSync(settingsFile, JSON.stringify(settings, null, 2));
  const env = {
    PATH: process.env.PATH, LANG: "C.UTF-8", HOME: home, TMPDIR: tmp,
    XDG_CONFIG_HOME: join(home, ".config"), XDG_DATA_HOME: join(home, ".local/share"),
    XDG_CACHE_HOME: join(home, ".cache"), XDG_STATE_HOME: join(home, ".local/state"),
    ...extra,
  };
  const common = ["--user-data-dir", userData, "--extensions-dir", extensions];
  execFileSync(CODE_SERVER, [...common, "--install-extension", vsix], { env, stdio: "pipe", timeout: patient(120_000) });

  const port = await freePort();
  const config = join(tmp, "config.yaml");
  writeFileSync(config, `bind-addr: 127.0.0.1:${port}\nauth: none\ncert: false\n`);
  const server = spawn(CODE_SERVER, [
    "--config", config, ...common,
    "--disable-telemetry", "--disable-update-check", "--disable-workspace-trust", "--disable-getting-started-override",
  ], { env, stdio: ["ignore", "pipe", "pipe"], detached: true });
  let serverLog = "";
  server.stdout.on("data", (chunk) => (serverLog += chunk));
  server.stderr.on("data", (chunk) => (serverLog += chunk));
  const session = { server, browser: undefined, page: undefined, userData, settingsFile, port };
  session.close = async () => {
    await session.browser?.close().catch(() => undefined);
    try { process.kill(-server.pid, "SIGTERM"); } catch { /* already gone */ }
  };
  try {
    await waitFor(() => serverLog.includes("HTTP server listening"), 60_000, () => `code-server did not start:\n${serverLog}`);
    session.browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"],
    });
    session.page = await session.browser.newPage({ viewport: { width: 1400, height: 860 } });
    await session.page.goto(`http://127.0.0.1:${port}/?folder=${encodeURIComponent(folder)}`);
    session.page.setDefaultTimeout(patient(30_000));
    await session.page.waitForSelector(".monaco-workbench", { timeout: patient(60_000) });
  } catch (error) {
    await session.close();
    throw error;
  }
  return session;
}

export async function openFile(page, relative) {
  await page.locator(".monaco-workbench .part.editor").click({ position: { x: 300, y: 300 } }).catch(() => undefined);
  await page.keyboard.press("Control+P");
  await page.waitForSelector(".quick-input-widget input", { state: "visible" });
  await page.keyboard.type(relative);
  // wait for the search result itself, not the recently opened list (nor another file of its folder)
  const folder = relative.split("/").slice(0, -1).join("/");
  const name = relative.split("/").pop();
  await page.waitForFunction(
    ([dir, file]) => {
      const first = document.querySelector(".quick-input-list .monaco-list-row");
      const text = first?.textContent ?? "";
      return text.includes(dir) && text.includes(file);
    },
    [folder, name], { timeout: patient(30_000) },
  );
  await page.keyboard.press("Enter");
  await page.waitForFunction(
    (path) => document.querySelector(".monaco-workbench .part.editor .breadcrumbs-control")?.textContent?.replace(/\s/g, "").includes(path.replace(/\//g, "")),
    relative, { timeout: patient(30_000) },
  ).catch(() => undefined);
}

export async function runCommand(page, title) {
  await page.keyboard.press("F1");
  await page.waitForSelector(".quick-input-widget input", { state: "visible" });
  await page.keyboard.type(title);
  await page.waitForSelector(`.quick-input-list .monaco-list-row[aria-label*="${title}"]`, { timeout: patient(30_000) });
  await page.keyboard.press("Enter");
}

/** The text of the first notification toast matching `pattern` (null if none comes in `timeout` ms). */
export async function notification(page, pattern, timeout = 60_000) {
  return page.waitForFunction(
    (source) => [...document.querySelectorAll(".notifications-toasts .notification-list-item-message")]
      .map((e) => e.textContent ?? "").find((t) => new RegExp(source).test(t)),
    pattern.source, { timeout: patient(timeout) },
  ).then((h) => h.jsonValue()).catch(() => null);
}

/** Every notification's text, shown or in the notification centre (for a failure's detail). */
export async function notificationTexts(page) {
  await runCommand(page, "Notifications: Show Notifications").catch(() => undefined);
  return page.evaluate(() => [...document.querySelectorAll(".notification-list-item-message")].map((e) => e.textContent ?? ""))
    .catch((error) => [`(not read: ${error})`]);
}

/** Defines `window.__scoreTexts()` in the page: the score texts the editor shows after the
 * graphs' first lines (decorations: CSS `::after` content), each with its colour and style. */
function installScoreTexts() {
  window.__scoreTexts = () => [...document.querySelectorAll(".monaco-editor .view-line [class*='ced-']")]
    .map((e) => getComputedStyle(e, "::after"))
    .filter((style) => style.content && style.content !== "none" && style.content !== "normal")
    .map((style) => {
      let text;
      try { text = JSON.parse(style.content); } catch { text = style.content.slice(1, -1); }
      return { text, color: style.color, italic: style.fontStyle === "italic" };
    })
    .filter((s) => /^(re-scoring… )?[a-z0-9-]+ /.test(s.text));
}

/** The score texts shown now: [{text, color, italic}]. */
export async function shownScores(page) {
  await page.evaluate(installScoreTexts);
  return page.evaluate(() => window.__scoreTexts());
}

/** The score texts matching `pattern`, once there is one ([] if none comes in `timeout` ms). */
export async function scoreTexts(page, pattern, timeout = 30_000) {
  await page.evaluate(installScoreTexts);
  return page.waitForFunction(
    (source) => {
      const found = window.__scoreTexts().map((s) => s.text).filter((t) => new RegExp(source).test(t));
      return found.length ? found : null;
    },
    pattern.source, { timeout: patient(timeout) },
  ).then((h) => h.jsonValue()).catch(() => []);
}

/** The text of the first hover matching `pattern` after the mouse rests on
 * `word` in the first editor span whose text matches `spanText` (a row of
 * words is one span: the mouse goes to the word's characters in it). A
 * user whose hover did not come moves the mouse away and back: so does
 * this, with the span's place taken again (the lines may have moved under
 * a loaded machine), until `patient(30 s)` has passed. `seen` gets the
 * hovers shown instead, for the failure's message. */
export async function hoverOn(page, spanText, word, pattern, seen = []) {
  const target = page.locator(".monaco-editor .view-line span", { hasText: spanText }).first();
  const end = Date.now() + patient(30_000);
  while (Date.now() < end) {
    const box = await target.boundingBox({ timeout: patient(10_000) }).catch(() => null);
    const text = await target.textContent({ timeout: patient(10_000) }).catch(() => null);
    if (box && text) {
      const x = box.x + (box.width / text.length) * (text.indexOf(word) + 1.5);
      await page.mouse.move(x - 3, box.y + box.height / 2);
      await page.mouse.move(x, box.y + box.height / 2);
      const found = await page.waitForFunction(
        (source) => [...document.querySelectorAll(".monaco-hover-content")].map((e) => e.textContent ?? "").find((t) => new RegExp(source).test(t)),
        pattern.source, { timeout: Math.min(patient(10_000), Math.max(end - Date.now(), 1)) },
      ).then((h) => h.jsonValue()).catch(() => null);
      if (found) return found;
      seen.push(...await page.evaluate(() => [...document.querySelectorAll(".monaco-hover-content")].map((e) => (e.textContent ?? "").slice(0, 120))));
    }
    await page.keyboard.press("Escape");
    await page.mouse.move(700, 700);
    await page.waitForTimeout(500);
  }
  return null;
}

/** Prints the tally of `checks` (the line the test runners read) and exits:
 * 0 when every check passed and the run itself did not fail, else 1. */
export function exitWithTally(checks, started, artifacts, failed) {
  const bad = checks.filter((c) => !c.ok);
  console.log(`${checks.length - bad.length}/${checks.length} checks passed in ${((Date.now() - started) / 1000).toFixed(1)} s; screenshots in ${artifacts}`);
  process.exit(failed || bad.length || checks.length === 0 ? 1 : 0);
}

export async function waitFor(predicate, timeout, message) {
  const end = Date.now() + patient(timeout);
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
