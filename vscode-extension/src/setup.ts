// Which Python runs the language server: amr.server.python; else an interpreter
// that already has amrcheck; else the private environment in the extension's
// global storage, which is made (once the user agrees) from the wheel that the
// .vsix carries. The pattern of the Python tool extensions (ruff, the
// python-tools-extension-template): the user needs no package index release.
import { existsSync } from "node:fs";
import { mkdir, rm } from "node:fs/promises";
import * as path from "node:path";
import * as vscode from "vscode";
import {
  bundledWheel,
  Cancelled,
  choosePython,
  createEnvironment,
  existingEnvironment,
  installWheel,
  probePython,
  pythonCandidates,
  showCommand,
  venvPython,
  wheelVersion,
} from "./environment";
import { activeInterpreter, configuredPython, defaultPython, probeServer, reportMissingServer } from "./server";

/** Where the private environment lives and where the .vsix keeps the wheel. */
export interface Places {
  envDir: string;
  bundleDir: string;
}

export function places(context: vscode.ExtensionContext): Places {
  return {
    envDir: path.join(context.globalStorageUri.fsPath, "env"),
    bundleDir: path.join(context.extensionUri.fsPath, "bundled"),
  };
}

export const CREATE = "Create environment";

/** The interpreter that runs the server and its amrcheck version; undefined (the user was told why) when there is none. */
export async function serverPython(
  where: Places, output: vscode.LogOutputChannel,
): Promise<{ python: string; version: string } | undefined> {
  const wheel = bundledWheel(where.bundleDir);
  const configured = configuredPython();
  if (configured) {
    const probe = await probeServer(configured);
    if (probe.ok) return { python: configured, version: probe.version };
    output.error(probe.problem);
    void reportMissingServer(configured, probe, wheel);
    return undefined;
  }
  const found = await defaultPython();
  const probe = await probeServer(found);
  if (probe.ok) return { python: found, version: probe.version };
  output.info(probe.problem);

  const privatePython = venvPython(where.envDir, process.platform);
  if (existsSync(privatePython)) {
    const mine = await probeServer(privatePython);
    const action = existingEnvironment(mine.ok ? mine.version : undefined, wheel);
    if (mine.ok && action === "use") return { python: privatePython, version: mine.version };
    if (mine.ok && wheel && action === "update") {
      // the user agreed to the environment once: no need to ask again
      output.info(`updating the private environment from amrcheck ${mine.version} to ${wheelVersion(wheel)}`);
      return withPython(await setUp(where, wheel, output, privatePython));
    }
    if (!mine.ok) output.warn(`the private environment ${where.envDir} does not work (${mine.problem}); it can be made again`);
  }
  if (!wheel) {
    // a development build without the bundled wheel (npm run bundle only)
    void reportMissingServer(found, probe, undefined);
    return undefined;
  }
  const message =
    `AMR: ${probe.problem} Create a private environment for the language server? ` +
    `The extension makes a venv in its own storage ` +
    `from a Python ${"\u2265"} 3.10 it finds and installs the amrcheck ${wheelVersion(wheel)} it carries, ` +
    `with its dependencies (numpy, scipy, numba, POT: several hundred MB) from your package index.`;
  const choose = "Choose interpreter";
  const choice = await vscode.window.showWarningMessage(message, CREATE, choose);
  if (choice === choose) {
    await vscode.commands.executeCommand("workbench.action.openSettings", "amr.server.python");
    return undefined;
  }
  if (choice !== CREATE) {
    output.info('no private environment made; "AMR: Restart server" asks again');
    return undefined;
  }
  return withPython(await setUp(where, wheel, output));
}

async function withPython(python: string | undefined): Promise<{ python: string; version: string } | undefined> {
  if (!python) return undefined;
  const probe = await probeServer(python);
  return probe.ok ? { python, version: probe.version } : undefined;
}

/**
 * Makes the private environment (or, given `existing`, installs the wheel into
 * it) under a cancellable progress notification; pip's log goes to the output
 * channel. Returns the environment's interpreter, or undefined after telling
 * the user what went wrong.
 */
function setUp(where: Places, wheel: string, output: vscode.LogOutputChannel, existing?: string): Thenable<string | undefined> {
  const title = "AMR: setting up the language server";
  return vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title, cancellable: true },
    async (progress, token) => {
      const abort = new AbortController();
      token.onCancellationRequested(() => abort.abort());
      const step = (message: string) => progress.report({ message });
      const log = (line: string) => output.info(line);
      try {
        if (existing) {
          await installWheel(existing, wheel, log, step, abort.signal);
          return existing;
        }
        step("looking for Python 3.10 or newer");
        const candidates = pythonCandidates(process.platform, await activeInterpreter());
        const findings = await Promise.all(candidates.map(probePython));
        for (const finding of findings) {
          log(`${showCommand(finding.candidate)}: ${"problem" in finding ? finding.problem : `Python ${finding.version.join(".")} at ${finding.executable}${finding.hasVenv ? "" : " (no venv module)"}`}`);
        }
        const chosen = choosePython(findings);
        if ("problem" in chosen) throw new Error(chosen.problem);
        await rm(where.envDir, { recursive: true, force: true }); // a broken one from before
        await mkdir(path.dirname(where.envDir), { recursive: true });
        const python = await createEnvironment({
          python: chosen.python, envDir: where.envDir, wheel, platform: process.platform, log, step, signal: abort.signal,
        });
        output.info(`private environment ready: ${where.envDir} (Python ${chosen.version})`);
        return python;
      } catch (error) {
        if (error instanceof Cancelled) {
          output.info("setting up the private environment was cancelled");
          void vscode.window.showInformationMessage('AMR: no environment was made (cancelled). "AMR: Restart server" asks again.');
          return undefined;
        }
        const problem = error instanceof Error ? error.message : String(error);
        output.error(problem);
        const show = "Show log";
        void vscode.window
          .showErrorMessage(`AMR: the language server's environment could not be set up: ${problem}`, show)
          .then((choice) => choice === show && output.show());
        return undefined;
      }
    },
  );
}
