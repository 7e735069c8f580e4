// Builds the amrcheck wheel from this checkout into bundled/, which the .vsix
// carries (the extension installs it into its private environment on first
// use). Run by `vscode:prepublish`, so `npm run package` always ships the
// wheel of the code it was packaged with. The wheel is pure Python (the
// default build; AMRCHECK_COMPILE is dropped), so that it installs on any
// platform the extension runs on.
//
//   node scripts/bundle-wheel.mjs      (Python: $PYTHON, else python3 / python on Windows)
import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, rmSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const EXT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const REPO = resolve(EXT, "..");
const OUT = join(EXT, "bundled");
const python = process.env.PYTHON || (process.platform === "win32" ? "python" : "python3");

rmSync(OUT, { recursive: true, force: true });
mkdirSync(OUT);
try {
  execFileSync(python, ["-m", "build", "--wheel", "--outdir", OUT, REPO], {
    stdio: ["ignore", "pipe", "pipe"],
    env: Object.fromEntries(Object.entries(process.env).filter(([name]) => name !== "AMRCHECK_COMPILE")),
  });
} catch (error) {
  const output = `${error.stdout ?? ""}${error.stderr ?? ""}`.trim();
  const hint = /No module named build/.test(output) ? ` (install the "build" package: ${python} -m pip install build)` : "";
  console.error(`could not build the amrcheck wheel with "${python} -m build --wheel"${hint}:\n${output || error.message}`);
  process.exit(1);
}
const wheels = readdirSync(OUT).filter((name) => name.endsWith(".whl"));
if (wheels.length !== 1) {
  console.error(`expected one wheel in ${OUT}, found: ${wheels.join(", ") || "none"}`);
  process.exit(1);
}
console.log(`bundled/${wheels[0]}`);
