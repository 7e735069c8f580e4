// The private environment of the language server: a venv in the extension's
// global storage, made from a Python >= 3.10 found on the machine, with the
// amrcheck wheel that the .vsix carries installed by pip (its dependencies come
// from the user's package index). No VS Code API here, so that it runs under
// plain node in the unit tests (test/unit/).
import { spawn } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { rm } from "node:fs/promises";
import * as path from "node:path";

export const MINIMUM_PYTHON: readonly [number, number] = [3, 10];

/** A way to run a Python: `py -3` is the Windows launcher, the others are plain commands. */
export interface PythonCommand {
  command: string;
  args: string[];
}

/** What a candidate Python turned out to be (or why it could not be asked). */
export type Finding =
  | { candidate: PythonCommand; version: [number, number]; executable: string; hasVenv: boolean }
  | { candidate: PythonCommand; problem: string };

export function showCommand(python: PythonCommand): string {
  return [python.command, ...python.args].join(" ");
}

/** The Pythons to try, best first: the Python extension's interpreter, then PATH (and the py launcher on Windows). */
export function pythonCandidates(platform: NodeJS.Platform, fromExtension?: string): PythonCommand[] {
  const found: PythonCommand[] = fromExtension ? [{ command: fromExtension, args: [] }] : [];
  if (platform === "win32") {
    found.push({ command: "py", args: ["-3"] }, { command: "python", args: [] }, { command: "python3", args: [] });
  } else {
    found.push({ command: "python3", args: [] }, { command: "python", args: [] });
  }
  return found;
}

// one line: major minor, whether venv and ensurepip are there (Debian splits them off), the executable
const PROBE_CODE =
  "import sys, importlib.util as u; " +
  "print(sys.version_info[0], sys.version_info[1], " +
  "int(all(u.find_spec(m) is not None for m in ('venv', 'ensurepip'))), sys.executable)";

/** Reads the probe's line `3 11 1 /usr/bin/python3`; undefined when it is not one. */
export function parseProbe(stdout: string): { version: [number, number]; hasVenv: boolean; executable: string } | undefined {
  const match = /^(\d+) (\d+) ([01]) (.+)$/m.exec(stdout.trim());
  if (!match) return undefined;
  return { version: [Number(match[1]), Number(match[2])], hasVenv: match[3] === "1", executable: match[4].trim() };
}

/** Runs the probe with one candidate. */
export function probePython(candidate: PythonCommand): Promise<Finding> {
  return new Promise((resolve) => {
    const child = spawn(candidate.command, [...candidate.args, "-c", PROBE_CODE], { timeout: 30_000 });
    let stdout = "", stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", (error: NodeJS.ErrnoException) =>
      resolve({ candidate, problem: error.code === "ENOENT" ? "not found" : error.message }));
    child.on("close", (code) => {
      const parsed = code === 0 ? parseProbe(stdout) : undefined;
      resolve(parsed
        ? { candidate, ...parsed }
        : { candidate, problem: stderr.trim().split("\n").pop() || `exit status ${code}` });
    });
  });
}

function atLeast(version: [number, number], minimum: readonly [number, number]): boolean {
  return version[0] > minimum[0] || (version[0] === minimum[0] && version[1] >= minimum[1]);
}

/** The first finding that can make the venv, or a message that says what each candidate lacked. */
export function choosePython(findings: Finding[]): { python: PythonCommand; executable: string; version: string } | { problem: string } {
  for (const finding of findings) {
    if ("version" in finding && finding.hasVenv && atLeast(finding.version, MINIMUM_PYTHON)) {
      return { python: finding.candidate, executable: finding.executable, version: finding.version.join(".") };
    }
  }
  const wanted = MINIMUM_PYTHON.join(".");
  const lines = findings.map((finding) => {
    const name = showCommand(finding.candidate);
    if ("problem" in finding) return `${name}: ${finding.problem}`;
    const version = finding.version.join(".");
    if (!atLeast(finding.version, MINIMUM_PYTHON)) return `${name}: Python ${version}, older than ${wanted}`;
    return `${name}: Python ${version} without the venv module (on Debian and Ubuntu: apt install python3-venv)`;
  });
  return { problem: `no Python ${wanted} or newer that can create a venv was found (${lines.join("; ")})` };
}

/** The bundled wheel in `dir` (the .vsix carries exactly one), if any. */
export function bundledWheel(dir: string): string | undefined {
  if (!existsSync(dir)) return undefined;
  const wheels = readdirSync(dir).filter((name) => /^amrcheck-.+\.whl$/.test(name)).sort();
  return wheels.length ? path.join(dir, wheels[wheels.length - 1]) : undefined;
}

/** `amrcheck-0.1.0-py3-none-any.whl` -> `0.1.0` (the wheel file name's version field). */
export function wheelVersion(wheel: string): string | undefined {
  return /^amrcheck-([^-]+)-/.exec(path.basename(wheel))?.[1];
}

/**
 * What to do with the private environment that is there: `version` is the
 * amrcheck it runs (undefined: it does not work), `wheel` the one the .vsix
 * carries. After an update of the extension its wheel replaces the old amrcheck.
 */
export function existingEnvironment(version: string | undefined, wheel: string | undefined): "use" | "update" | "remake" {
  if (version === undefined) return "remake";
  return !wheel || version === wheelVersion(wheel) ? "use" : "update";
}

/** The venv's interpreter. */
export function venvPython(envDir: string, platform: NodeJS.Platform): string {
  return platform === "win32" ? path.join(envDir, "Scripts", "python.exe") : path.join(envDir, "bin", "python");
}

export class Cancelled extends Error {
  constructor() {
    super("cancelled");
  }
}

/** Runs one step, each output line to `log`; rejects with the step's last lines, or Cancelled. */
function run(command: string, args: string[], log: (line: string) => void, signal: AbortSignal): Promise<void> {
  log(`$ ${[command, ...args].join(" ")}`);
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new Cancelled());
    const child = spawn(command, args, { signal, env: { ...process.env, PIP_DISABLE_PIP_VERSION_CHECK: "1", PYTHONUNBUFFERED: "1" } });
    const tail: string[] = [];
    let partial = "";
    const take = (chunk: Buffer) => {
      const lines = (partial + chunk.toString()).split(/\r?\n/);
      partial = lines.pop() ?? "";
      for (const line of lines) {
        if (!line.trim()) continue;
        log(line);
        tail.push(line);
        if (tail.length > 5) tail.shift();
      }
    };
    child.stdout.on("data", take);
    child.stderr.on("data", take);
    child.on("error", (error) => reject(signal.aborted ? new Cancelled() : error));
    child.on("close", (code) => {
      if (partial.trim()) take(Buffer.from("\n"));
      if (signal.aborted) reject(new Cancelled());
      else if (code === 0) resolve();
      else reject(new Error(`"${[command, ...args].join(" ")}" failed (exit status ${code}): ${tail.join(" | ")}`));
    });
  });
}

/**
 * Makes the venv `envDir` with `python` and installs `wheel` into it. `step` says
 * what happens now (for a progress bar), `log` gets every line of venv's and
 * pip's output. On failure or cancellation the half-made venv is removed.
 */
export async function createEnvironment(options: {
  python: PythonCommand;
  envDir: string;
  wheel: string;
  platform: NodeJS.Platform;
  log: (line: string) => void;
  step: (message: string) => void;
  signal: AbortSignal;
}): Promise<string> {
  const { python, envDir, wheel, log, step, signal } = options;
  const interpreter = venvPython(envDir, options.platform);
  try {
    step(`creating a venv with ${showCommand(python)}`);
    await run(python.command, [...python.args, "-m", "venv", envDir], log, signal);
    await installWheel(interpreter, wheel, log, step, signal);
  } catch (error) {
    await rm(envDir, { recursive: true, force: true });
    throw error;
  }
  return interpreter;
}

/** `python -m pip install WHEEL`, with pip's "Collecting numpy" lines as steps. */
export function installWheel(
  interpreter: string, wheel: string, log: (line: string) => void, step: (message: string) => void, signal: AbortSignal,
): Promise<void> {
  step(`installing amrcheck ${wheelVersion(wheel) ?? ""} and its dependencies`);
  const report = (line: string) => {
    log(line);
    const what = /^(Collecting \S+|Installing collected packages)/.exec(line.trim());
    if (what) step(what[1]);
  };
  return run(interpreter, ["-m", "pip", "install", wheel], report, signal);
}
