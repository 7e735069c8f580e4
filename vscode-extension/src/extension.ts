// Entry point: start the amrcheck language server, wire the status bar and the commands.
import * as vscode from "vscode";
import { ExecuteCommandRequest, type LanguageClient, type Middleware } from "vscode-languageclient/node";
import { amrDocument, compareWithReference, REPORT_SCHEME, ReportProvider, showDiff, showTextDiff } from "./commands";
import { GraphPanel } from "./graphView";
import { goToNextLowScore, GraphScoresView, revealGraph, REVEAL_GRAPH_COMMAND } from "./graphScores";
import { createClient } from "./server";
import { ScoreTexts } from "./scoreTexts";
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
let scoreTexts: ScoreTexts | undefined;

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
  scoreTexts = new ScoreTexts(runServerCommand);
  // the view is contributed with this context key: shown once an AMR file has been opened
  void vscode.commands.executeCommand("setContext", "amr.active", true);
  context.subscriptions.push(
    panel,
    scoresView,
    scoreTexts,
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
    scoreTexts?.clear();
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
    scoreTexts?.documentChecked(score.uri);
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
  scoreTexts?.refresh();
  void scoresView?.refresh();
  graphs?.refresh();
}

/** A server command's answer; undefined when the server does not run. */
async function runServerCommand(command: string, args: unknown[], token?: vscode.CancellationToken): Promise<unknown> {
  if (!client?.isRunning()) return undefined;
  return client.sendRequest(ExecuteCommandRequest.type, { command, arguments: args }, token);
}

async function fetchScore(uri: string): Promise<DocumentScore | undefined> {
  return ((await runServerCommand(SCORE_COMMAND, [uri])) ?? undefined) as DocumentScore | undefined;
}

// Each graph's score is painted as text after its first line (scoreTexts.ts), not
// as a lens: VS Code repaints a lens's title half a second after a keystroke at the
// earliest, and asking for 1,562 lens ranges per keystroke loads the server. The
// lens's click opened the document's diff, as the status bar item and the editor's
// title button do. Other editors still get the server's lenses.
const middleware: Middleware = {
  provideCodeLenses: () => [],
};
