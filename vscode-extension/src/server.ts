// Which Python runs the language server, whether amrcheck is installed there,
// and the language client that starts `python -m amr_lsp` over stdio.
import { execFile } from "node:child_process";
import * as os from "node:os";
import * as vscode from "vscode";
import {
  LanguageClient,
  type LanguageClientOptions,
  type ServerOptions,
} from "vscode-languageclient/node";

export const CLIENT_ID = "amr";
export const SERVER_SECTION = "amrcheck"; // the server's workspace/configuration section

/** The languages whose documents the server scores against a reference (lenses, score texts, status bar). */
export const SCORED_LANGUAGES: readonly string[] = ["amr", "umr"];

export function isScored(document: vscode.TextDocument): boolean {
  return SCORED_LANGUAGES.includes(document.languageId);
}

/** `amr.server.python`, expanded; undefined when it is empty. */
export function configuredPython(): string | undefined {
  const configured = vscode.workspace.getConfiguration("amr.server").get<string>("python", "").trim();
  return configured ? expand(configured) : undefined;
}

/** The interpreter to try when none is configured: the Python extension's, else python3. */
export async function defaultPython(): Promise<string> {
  return (await activeInterpreter()) ?? (process.platform === "win32" ? "python" : "python3");
}

function expand(value: string): string {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? "";
  return value
    .replace(/\$\{workspaceFolder\}/g, folder)
    .replace(/\$\{userHome\}/g, os.homedir())
    .replace(/^~(?=$|[\\/])/, os.homedir());
}

/** The interpreter selected in ms-python.python, if that extension is there. */
export async function activeInterpreter(): Promise<string | undefined> {
  const extension = vscode.extensions.getExtension("ms-python.python");
  if (!extension) return undefined;
  try {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const api: any = extension.isActive ? extension.exports : await extension.activate();
    const resource = vscode.window.activeTextEditor?.document.uri;
    const path = api?.environments?.getActiveEnvironmentPath?.(resource)?.path;
    if (typeof path === "string" && path) return path;
    const details = api?.settings?.getExecutionDetails?.(resource)?.execCommand;
    if (Array.isArray(details) && typeof details[0] === "string") return details[0];
  } catch {
    // the Python extension is optional: fall back to python3
  }
  return undefined;
}

export type Probe = { ok: true; version: string } | { ok: false; problem: string; missingPython?: boolean };

/**
 * Can `python` import the server? (A missing interpreter or package is a clear message.)
 * The server's own module is imported, not only the packages: `amrcheck` loads its parts
 * on first use, so a Python that sees the sources but lacks their dependencies (pygls,
 * penman) would pass a shallower probe and then crash at every start.
 */
export function probeServer(python: string): Promise<Probe> {
  const code = "import amr_lsp.server, amrcheck.standardize, amrcheck; print(amrcheck.__version__)";
  return new Promise((resolve) => {
    execFile(python, ["-c", code], { timeout: 60_000 }, (error, stdout, stderr) => {
      if (!error) {
        resolve({ ok: true, version: stdout.trim() });
      } else if ((error as NodeJS.ErrnoException).code === "ENOENT") {
        resolve({ ok: false, problem: `Python interpreter "${python}" not found.`, missingPython: true });
      } else if (/ModuleNotFoundError|ImportError/.test(stderr)) {
        resolve({
          ok: false,
          problem: `The amrcheck language server is not installed for "${python}".`,
        });
      } else {
        const last = stderr.trim().split("\n").pop() ?? String(error);
        resolve({ ok: false, problem: `"${python} -c 'import amr_lsp.server'" failed: ${last}` });
      }
    });
  });
}

/**
 * Tell the user why the configured interpreter cannot run the server and how to
 * fix it (never a silent failure): with the wheel the .vsix carries, the
 * install command is `python -m pip install <that wheel>`.
 */
export async function reportMissingServer(
  python: string, probe: Exclude<Probe, { ok: true }>, wheel: string | undefined,
): Promise<void> {
  const install = "Install amrcheck", settings = "Choose interpreter", copy = "Copy command";
  if (probe.missingPython) {
    const message = `AMR: ${probe.problem} Set amr.server.python to a Python that has amrcheck, or clear it to let the extension make its own environment, then run "AMR: Restart server".`;
    if ((await vscode.window.showErrorMessage(message, settings)) === settings) await openSetting();
    return;
  }
  if (!wheel) {
    const message = `AMR: ${probe.problem} Install amrcheck into it (\`${shellQuote(python)} -m pip install .\` in a checkout of amrcheck, or \`-m pip install path/to/amrcheck-*.whl\`) or set amr.server.python to a Python that has it, then run "AMR: Restart server".`;
    if ((await vscode.window.showErrorMessage(message, settings)) === settings) await openSetting();
    return;
  }
  const command = `${shellQuote(python)} -m pip install ${shellQuote(wheel)}`;
  const message = `AMR: ${probe.problem} Install the amrcheck wheel this extension carries with \`${command}\`, or set amr.server.python to a Python that has amrcheck, then run "AMR: Restart server".`;
  const choice = await vscode.window.showErrorMessage(message, install, settings, copy);
  if (choice === install) {
    const terminal = vscode.window.createTerminal("AMR: install amrcheck");
    terminal.show();
    terminal.sendText(command);
  } else if (choice === settings) {
    await openSetting();
  } else if (choice === copy) {
    await vscode.env.clipboard.writeText(command);
  }
}

function openSetting(): Thenable<unknown> {
  return vscode.commands.executeCommand("workbench.action.openSettings", "amr.server.python");
}

function shellQuote(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `"${value.replace(/"/g, '\\"')}"`;
}

/** The server's settings (section `amrcheck`) as plain JSON, for initializationOptions. */
export function serverSettings(): unknown {
  return JSON.parse(JSON.stringify(vscode.workspace.getConfiguration(SERVER_SECTION)));
}

export function createClient(
  python: string,
  output: vscode.LogOutputChannel,
  middleware: LanguageClientOptions["middleware"],
): LanguageClient {
  // no `transport`: the languageclient would add `--stdio`, and stdio is the server's default
  const run = { command: python, args: ["-m", "amr_lsp"] };
  const serverOptions: ServerOptions = { run, debug: run };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [
      { scheme: "file", language: "amr" },
      { scheme: "untitled", language: "amr" },
      { scheme: "file", language: "umr" },
      { scheme: "untitled", language: "umr" },
    ],
    initializationOptions: serverSettings(),
    synchronize: { configurationSection: SERVER_SECTION },
    outputChannel: output,
    middleware,
  };
  return new LanguageClient(CLIENT_ID, "AMR Language Server", serverOptions, clientOptions);
}
