// Unit tests of src/environment.ts (bundled by `npm run test:unit` to
// out/environment.mjs): finding a Python for the private environment, the
// bundled wheel, and making the venv, with real processes.
//
//   npm run test:unit        (Python: $PYTHON, else python3)
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import {
  bundledWheel, Cancelled, choosePython, createEnvironment, existingEnvironment, parseProbe, probePython, pythonCandidates, venvPython, wheelVersion,
} from "../../out/environment.mjs";

const PYTHON = process.env.PYTHON || "python3";
const tmp = mkdtempSync(join(tmpdir(), "amr-env-test-"));
after(() => rmSync(tmp, { recursive: true, force: true }));

const cmd = (command, ...args) => ({ command, args });

describe("the Pythons to try", () => {
  it("puts the Python extension's interpreter first, then PATH", () => {
    assert.deepEqual(pythonCandidates("linux", "/venv/bin/python"), [cmd("/venv/bin/python"), cmd("python3"), cmd("python")]);
    assert.deepEqual(pythonCandidates("darwin"), [cmd("python3"), cmd("python")]);
  });
  it("asks the py launcher first on Windows", () => {
    assert.deepEqual(pythonCandidates("win32"), [cmd("py", "-3"), cmd("python"), cmd("python3")]);
  });
});

describe("choosing one", () => {
  const found = (command, version, hasVenv = true) => ({ candidate: cmd(command), version, hasVenv, executable: `/usr/bin/${command}` });
  it("reads the probe's line", () => {
    assert.deepEqual(parseProbe("3 12 1 /usr/bin/python3\n"), { version: [3, 12], hasVenv: true, executable: "/usr/bin/python3" });
    assert.deepEqual(parseProbe("3 10 0 C:\\Program Files\\Python310\\python.exe"),
      { version: [3, 10], hasVenv: false, executable: "C:\\Program Files\\Python310\\python.exe" });
    assert.equal(parseProbe("Python was not found; run without arguments to install from the Microsoft Store"), undefined);
  });
  it("takes the first Python >= 3.10 that has venv", () => {
    const chosen = choosePython([
      { candidate: cmd("/venv/bin/python"), problem: "not found" },
      found("python3", [3, 9]),
      found("python", [3, 10]),
      found("python3.12", [3, 12]),
    ]);
    assert.deepEqual(chosen, { python: cmd("python"), executable: "/usr/bin/python", version: "3.10" });
    assert.equal(choosePython([found("python3", [4, 0])]).version, "4.0");
  });
  it("says what each candidate lacked when none will do", () => {
    const { problem } = choosePython([found("python3", [3, 11], false), found("python", [2, 7]), { candidate: cmd("py", "-3"), problem: "not found" }]);
    assert.match(problem, /^no Python 3\.10 or newer that can create a venv was found/);
    assert.match(problem, /python3: Python 3\.11 without the venv module \(on Debian and Ubuntu: apt install python3-venv\)/);
    assert.match(problem, /python: Python 2\.7, older than 3\.10/);
    assert.match(problem, /py -3: not found/);
  });
  it("asks a real Python, and reports a missing one", async () => {
    const real = await probePython(cmd(PYTHON));
    assert.ok("version" in real, JSON.stringify(real));
    assert.ok(existsSync(real.executable), real.executable);
    assert.deepEqual(await probePython(cmd(join(tmp, "no-such-python"))), { candidate: cmd(join(tmp, "no-such-python")), problem: "not found" });
    const failing = await probePython(cmd(PYTHON, "-c", "raise SystemExit('broken interpreter')", "--"));
    assert.ok("problem" in failing);
  });
});

describe("the bundled wheel", () => {
  it("is found in the bundle folder, with its version", () => {
    const dir = join(tmp, "bundled");
    mkdirSync(dir);
    assert.equal(bundledWheel(dir), undefined);
    assert.equal(bundledWheel(join(tmp, "missing")), undefined);
    writeFileSync(join(dir, "README.txt"), "");
    writeFileSync(join(dir, "amrcheck-0.2.0-py3-none-any.whl"), "");
    assert.equal(bundledWheel(dir), join(dir, "amrcheck-0.2.0-py3-none-any.whl"));
    assert.equal(wheelVersion(bundledWheel(dir)), "0.2.0");
    assert.equal(wheelVersion("other-1.0-py3-none-any.whl"), undefined);
  });
  it("replaces an older amrcheck in the private environment, once the extension is updated", () => {
    const wheel = "/ext/bundled/amrcheck-0.2.0-py3-none-any.whl";
    assert.equal(existingEnvironment("0.2.0", wheel), "use");
    assert.equal(existingEnvironment("0.1.0", wheel), "update");
    assert.equal(existingEnvironment(undefined, wheel), "remake"); // it does not start: made again
    assert.equal(existingEnvironment("0.1.0", undefined), "use"); // a build without the wheel keeps what is there
  });
  it("goes into the venv's own interpreter", () => {
    assert.equal(venvPython("/s/env", "linux"), "/s/env/bin/python");
    assert.equal(venvPython("C:\\s\\env", "win32").replace(/\\/g, "/"), "C:/s/env/Scripts/python.exe");
  });
});

describe("making the environment", () => {
  const options = (envDir, wheel, signal, lines, steps) => ({
    python: cmd(PYTHON), envDir, wheel, platform: process.platform, signal,
    log: (line) => lines.push(line), step: (message) => steps.push(message),
  });
  it("fails with pip's words when the wheel cannot be installed, and leaves nothing behind", async () => {
    const envDir = join(tmp, "env-bad-wheel");
    const lines = [], steps = [];
    const wheel = join(tmp, "amrcheck-9.9.9-py3-none-any.whl");
    writeFileSync(wheel, "not a zip file");
    await assert.rejects(createEnvironment(options(envDir, wheel, new AbortController().signal, lines, steps)),
      (error) => /-m pip install .*amrcheck-9\.9\.9-py3-none-any\.whl" failed \(exit status [1-9]/.test(error.message));
    assert.ok(!existsSync(envDir), "the half-made venv was removed");
    assert.match(steps[0], /^creating a venv with /);
    assert.match(steps[1], /^installing amrcheck 9\.9\.9 and its dependencies/);
    assert.ok(lines.some((line) => line.startsWith("$ ") && line.includes("-m venv")), lines.join("\n"));
    // the venv itself was made: its interpreter ran pip
    assert.ok(lines.some((line) => line.includes(venvPython(envDir, process.platform))), lines.join("\n"));
  });
  it("stops when cancelled, and leaves nothing behind", async () => {
    const envDir = join(tmp, "env-cancelled");
    const abort = new AbortController();
    const lines = [], steps = [];
    const made = createEnvironment({
      ...options(envDir, join(tmp, "amrcheck-0.1.0-py3-none-any.whl"), abort.signal, lines, steps),
      // once `python -m venv` has been started (it is logged, then spawned in the same turn)
      log: (line) => line.includes("-m venv") && setImmediate(() => abort.abort()),
    });
    await assert.rejects(made, (error) => error instanceof Cancelled);
    assert.ok(!existsSync(envDir));
    assert.equal(steps.length, 1, "pip never ran");
  });
});

// a sanity check of the test's own Python
execFileSync(PYTHON, ["-c", "import venv, ensurepip"]);
