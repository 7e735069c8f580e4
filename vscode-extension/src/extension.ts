// Entry point: start the amrcheck language server, wire the status bar and the commands.
import * as vscode from "vscode";
import { ExecuteCommandRequest, type LanguageClient, type Middleware } from "vscode-languageclient/node";
import { amrDocument, compareWithReference, REPORT_SCHEME, ReportProvider, showDiff, showTextDiff } from "./commands";
import { GraphPanel } from "./graphView";
import { goToNextLowScore, GraphScoresView, revealGraph, REVEAL_GRAPH_COMMAND } from "./graphScores";
import { createClient } from "./server";
import { type Places, places, serverPython } from "./setup";
import { type DocumentScore, ScoreStatus } from "./status";

const SCORE_NOTIFICATION = "amr/documentScore";
const SCORE_COMMAND = "amrcheck.documentScore";

let client: LanguageClient | undefined;
let python = "python3";
let output: vscode.LogOutputChannel;
let status: ScoreStatus;
let starting: Promise<void> = Promise.resolve();
let graphs: GraphPanel | undefined;
let where: Places;
let scoresView: GraphScoresView | undefined;

export function activate(context: vscode.ExtensionContext): void {
  output = vscode.window.createOutputChannel("AMR Language Server", { log: true });
  where = places(context);
  status = new ScoreStatus(fetchScore);
  const reports = new ReportProvider();
  const doc = (uri?: vscode.Uri | string) => amrDocument(uri);
  const scoreOf = (d: vscode.TextDocument | undefined) => (d ? status.get(d.uri.toString()) : undefined);
  const panel = new GraphPanel(context.extensionUri, (method, params) =>
    client?.isRunning() ? client.sendRequest(method, params) : undefined);
  graphs = panel;
  scoresView = new GraphScoresView(runServerCommand);
  // the view is contributed with this context key: shown once an AMR file has been opened
  void vscode.commands.executeCommand("setContext", "amr.active", true);
  context.subscriptions.push(
    panel,
    scoresView,
    vscode.commands.registerCommand(REVEAL_GRAPH_COMMAND, revealGraph),
    vscode.commands.registerCommand("amr.goToNextLowScore", () =>
      goToNextLowScore(runServerCommand, (uri) => status.get(uri))),
    vscode.commands.registerCommand("amr.showGraph", () => panel.show(vscode.window.activeTextEditor)),
    output,
    status,
    vscode.workspace.registerTextDocumentContentProvider(REPORT_SCHEME, reports),
    vscode.commands.registerCommand("amr.compareWithReference", (uri?: vscode.Uri | string) => compareWithReference(doc(uri))),
    vscode.commands.registerCommand("amr.showDiff", async (uri?: vscode.Uri | string) => {
      const d = doc(uri);
      await showDiff(d, scoreOf(d) ?? (d ? await fetchScore(d.uri.toString()) : undefined), python, reports);
    }),
    vscode.commands.registerCommand("amr.showTextDiff", async (uri?: vscode.Uri | string) => {
      const d = doc(uri);
      await showTextDiff(d, scoreOf(d) ?? (d ? await fetchScore(d.uri.toString()) : undefined));
    }),
    vscode.commands.registerCommand("amr.restartServer", () => restart()),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration("amr.server.python")) void restart();
    }),
  );
  void restart();
}

export function deactivate(): Thenable<void> | undefined {
  return client?.stop();
}

/** Stop the server if it runs, then start it with the current interpreter. */
function restart(): Promise<void> {
  starting = starting.then(start, start);
  return starting;
}

async function start(): Promise<void> {
  if (client) {
    const old = client;
    client = undefined;
    status.clear();
    await old.stop().catch(() => undefined);
    await old.dispose().catch(() => undefined);
  }
  const found = await serverPython(where, output);
  if (!found) return;
  python = found.python;
  output.info(`starting ${python} -m amr_lsp (amrcheck ${found.version})`);
  const created = createClient(python, output, middleware);
  created.onNotification(SCORE_NOTIFICATION, (score: DocumentScore) => {
    status.update(score);
    scoresView?.documentChecked(score.uri);
  });
  try {
    await created.start();
  } catch (error) {
    const show = "Show output";
    const choice = await vscode.window.showErrorMessage(`AMR: the language server did not start: ${error}`, show);
    if (choice === show) output.show();
    return;
  }
  client = created;
  void status.refresh();
  void scoresView?.refresh();
  graphs?.refresh();
}

/** A server command's answer; undefined when the server does not run. */
async function runServerCommand(command: string, args: unknown[]): Promise<unknown> {
  if (!client?.isRunning()) return undefined;
  return client.sendRequest(ExecuteCommandRequest.type, { command, arguments: args });
}

async function fetchScore(uri: string): Promise<DocumentScore | undefined> {
  return ((await runServerCommand(SCORE_COMMAND, [uri])) ?? undefined) as DocumentScore | undefined;
}

/** Clicking a score lens shows the diff (or asks for a reference) instead of a silent request. */
function retarget(lens: vscode.CodeLens, fallback: vscode.Uri | undefined): vscode.CodeLens {
  if (lens.command?.command === SCORE_COMMAND) {
    const first: unknown = lens.command.arguments?.[0];
    const uri = typeof first === "string" ? vscode.Uri.parse(first) : fallback;
    const noReference = /no reference file/.test(lens.command.title);
    lens.command = {
      title: lens.command.title,
      command: noReference ? "amr.compareWithReference" : "amr.showDiff",
      tooltip: noReference ? "Choose a reference file" : "Show the diff against the reference",
      arguments: [uri],
    };
  }
  return lens;
}

// lenses come with a title, or get it when resolved (the server may do either)
const middleware: Middleware = {
  async provideCodeLenses(document, token, next) {
    const lenses = await next(document, token);
    return lenses?.map((lens) => retarget(lens, document.uri));
  },
  async resolveCodeLens(lens, token, next) {
    const resolved = await next(lens, token);
    return resolved && retarget(resolved, vscode.window.activeTextEditor?.document.uri);
  },
};
