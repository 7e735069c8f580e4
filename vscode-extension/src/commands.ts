// The three user commands: choose a reference, show the diff, restart (in extension.ts).
import { execFile } from "node:child_process";
import { promises as fs } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as vscode from "vscode";
import { isScored, SERVER_SECTION } from "./server";
import type { DocumentScore } from "./status";

export const REPORT_SCHEME = "amr-diff";

/** Read-only documents holding `amrcheck diff` reports. */
export class ReportProvider implements vscode.TextDocumentContentProvider {
  private readonly reports = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  set(uri: vscode.Uri, text: string): void {
    this.reports.set(uri.toString(), text);
    this.changed.fire(uri);
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.reports.get(uri.toString()) ?? "";
  }
}

export function amrDocument(uri?: vscode.Uri | string): vscode.TextDocument | undefined {
  if (uri !== undefined) {
    const wanted = typeof uri === "string" ? vscode.Uri.parse(uri).toString() : uri.toString();
    return vscode.workspace.textDocuments.find((d) => d.uri.toString() === wanted);
  }
  const doc = vscode.window.activeTextEditor?.document;
  return doc && isScored(doc) ? doc : undefined;
}

const REFERENCE_LINE = /^(\s*#.*::reference[ \t]+)(\S+)/;

/** "AMR: Compare with reference…": pick a file and make it this document's reference. */
export async function compareWithReference(doc: vscode.TextDocument | undefined): Promise<void> {
  if (!doc) {
    void vscode.window.showWarningMessage("AMR: open an .amr file first.");
    return;
  }
  const picked = await vscode.window.showOpenDialog({
    title: `Reference for ${path.basename(doc.uri.fsPath)}`,
    openLabel: "Use as reference",
    defaultUri: doc.uri.scheme === "file" ? vscode.Uri.file(path.dirname(doc.uri.fsPath)) : undefined,
    canSelectMany: false,
    filters: doc.languageId === "umr"
      ? { "UMR files": ["umr", "txt"], "All files": ["*"] }
      : { "AMR files": ["amr", "penman", "txt"], "All files": ["*"] },
  });
  if (!picked?.length) return;
  const reference = picked[0].fsPath;
  const header = headerLines(doc);
  const existing = header.find((line) => REFERENCE_LINE.test(doc.lineAt(line).text));
  const root = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  const inRoot = root !== undefined && doc.uri.scheme === "file" && !path.relative(root, doc.uri.fsPath).startsWith("..");

  if (existing !== undefined || !inRoot) {
    // a `# ::reference` line (relative to the document's folder) wins over settings
    const value = doc.uri.scheme === "file" ? slash(path.relative(path.dirname(doc.uri.fsPath), reference)) : reference;
    const edit = new vscode.WorkspaceEdit();
    if (existing !== undefined) {
      const match = REFERENCE_LINE.exec(doc.lineAt(existing).text)!;
      const start = match[1].length;
      edit.replace(doc.uri, new vscode.Range(existing, start, existing, start + match[2].length), value);
    } else {
      // UMR: the first line (the server reads the line above the first sentence)
      const at = doc.languageId === "umr" ? 0
        : header.find((line) => /^\s*#\s*::/.test(doc.lineAt(line).text)) ?? header[header.length - 1] ?? 0;
      edit.insert(doc.uri, new vscode.Position(at, 0), `# ::reference ${value}\n`);
    }
    await vscode.workspace.applyEdit(edit);
    void vscode.window.showInformationMessage(`AMR: ${path.basename(doc.uri.fsPath)} is compared with ${value} (# ::reference line).`);
    return;
  }
  const config = vscode.workspace.getConfiguration(SERVER_SECTION, doc.uri);
  const current = config.inspect<Record<string, string>>("references")?.workspaceValue ?? {};
  const glob = slash(path.relative(root, doc.uri.fsPath));
  const template = slash(path.relative(root, reference));
  // the first matching glob wins: put this document's own entry first
  const references: Record<string, string> = { [glob]: template };
  for (const [key, value] of Object.entries(current)) if (key !== glob) references[key] = value;
  await config.update("references", references, vscode.ConfigurationTarget.Workspace);
  void vscode.window.showInformationMessage(`AMR: ${glob} is compared with ${template} (setting amrcheck.references).`);
}

/** Lines of the first graph's header, and the line of its opening parenthesis (last);
 * of a UMR document, the lines above its first sentence (`# :: snt1`). */
function headerLines(doc: vscode.TextDocument): number[] {
  const lines: number[] = [];
  for (let i = 0; i < doc.lineCount; i++) {
    const text = doc.lineAt(i).text;
    if (doc.languageId === "umr") {
      if (/^#\s*::\s*snt[0-9]/.test(text)) return lines;
      lines.push(i);
      continue;
    }
    if (/^\s*\(/.test(text)) return [...lines, i];
    if (/^\s*$/.test(text)) lines.length = 0; // a blank line ends a block
    else lines.push(i);
  }
  return lines;
}

function slash(p: string): string {
  return p.split(path.sep).join("/");
}

/** "AMR: Show diff against reference": `amrcheck diff REF DOC` as a read-only report. */
export async function showDiff(
  doc: vscode.TextDocument | undefined,
  score: DocumentScore | undefined,
  python: string,
  reports: ReportProvider,
): Promise<void> {
  if (!doc) {
    void vscode.window.showWarningMessage("AMR: open an .amr file first.");
    return;
  }
  const reference = await referenceOf(doc, score);
  if (!reference) return;
  const cwd = vscode.workspace.getWorkspaceFolder(doc.uri)?.uri.fsPath ?? path.dirname(reference);
  const shown = doc.uri.scheme === "file" ? slash(path.relative(cwd, doc.uri.fsPath)) : doc.uri.toString();
  // the report is of the text in the editor, saved or not
  const tmp = await fs.mkdtemp(path.join(os.tmpdir(), "amr-diff-"));
  const candidate = path.join(tmp, path.basename(doc.uri.fsPath) || "untitled.amr");
  await fs.writeFile(candidate, doc.getText(), "utf8");
  const config = vscode.workspace.getConfiguration(SERVER_SECTION, doc.uri);
  const args = ["-c", "import sys; sys.argv[0] = 'amrcheck'; from amrcheck.cli import main; main()", "diff"];
  args.push("--metric", config.get<string>("metric", "smatch"));
  for (const [key, value] of Object.entries(config.get<Record<string, unknown>>("metricOptions", {}))) {
    args.push("--option", `${key}=${value}`);
  }
  args.push(slash(path.relative(cwd, reference)), candidate);
  const report = await new Promise<string>((resolve) => {
    execFile(python, args, { cwd, timeout: 120_000, env: { ...process.env, NO_COLOR: "1", TERM: "dumb", COLUMNS: "200" } },
      (error, stdout, stderr) => {
        const text = stdout.split(candidate).join(shown);
        resolve(error && !stdout.trim() ? `amrcheck diff failed:\n${stderr || error.message}` : text + (stderr ? `\n${stderr}` : ""));
      });
  });
  await fs.rm(tmp, { recursive: true, force: true });
  const uri = vscode.Uri.from({ scheme: REPORT_SCHEME, path: `/${path.basename(shown)} vs ${path.basename(reference)}.diff` });
  reports.set(uri, report);
  const opened = await vscode.workspace.openTextDocument(uri);
  await vscode.window.showTextDocument(opened, { viewColumn: vscode.ViewColumn.Beside, preview: true, preserveFocus: true });
}

/** "AMR: Open reference side by side": VS Code's diff editor, reference ↔ document. */
export async function showTextDiff(doc: vscode.TextDocument | undefined, score: DocumentScore | undefined): Promise<void> {
  if (!doc) return;
  const reference = await referenceOf(doc, score);
  if (!reference) return;
  await vscode.commands.executeCommand(
    "vscode.diff", vscode.Uri.file(reference), doc.uri,
    `${path.basename(reference)} ↔ ${path.basename(doc.uri.fsPath)}`,
  );
}

async function referenceOf(doc: vscode.TextDocument, score: DocumentScore | undefined): Promise<string | undefined> {
  if (score?.reference) return score.reference;
  const choose = "Compare with reference…";
  const choice = await vscode.window.showWarningMessage(
    `AMR: ${path.basename(doc.uri.fsPath)} has no reference file` +
      (score?.problem ? ` (${score.problem})` : "") + ".",
    choose,
  );
  if (choice === choose) await compareWithReference(doc);
  return undefined;
}
