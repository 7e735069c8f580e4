// Scores at a glance (issue 22): the view listing the active document's graphs
// by ascending score, and the command that goes to the next graph below the
// threshold. Both ask the server (`amrcheck.graphScores`, `amrcheck.nextLowScore`).
import * as path from "node:path";
import * as vscode from "vscode";
import { type DocumentScore, lowScoreThreshold, scoreLevel } from "./status";

export const GRAPH_SCORES_VIEW = "amr.graphScores";
export const REVEAL_GRAPH_COMMAND = "amr.revealGraph";
const GRAPH_SCORES_COMMAND = "amrcheck.graphScores";
const NEXT_LOW_SCORE_COMMAND = "amrcheck.nextLowScore";

interface JsonRange {
  start: { line: number; character: number };
  end: { line: number; character: number };
}

/** One graph of `amrcheck.graphScores`. */
export interface GraphScore {
  id: string;
  /** 0-based place of the graph's first line (where the cursor goes) */
  line: number;
  character: number;
  /** the whole entry, metadata included */
  range: JsonRange;
  /** null: no score (`note` says why) */
  score: number | null;
  low: boolean;
  note: string | null;
  sentence: string | null;
}

/** The answer of `amrcheck.graphScores`. */
export interface GraphScores {
  uri: string;
  version: number | null;
  metric: string;
  threshold: number;
  graphs: GraphScore[];
}

/** The answer of `amrcheck.nextLowScore` (null: none). */
interface NextLowScore {
  uri: string;
  id: string;
  line: number;
  character: number;
  range: JsonRange;
  metric: string;
  score: number;
  threshold: number;
  wrapped: boolean;
}

/** Runs a server command (undefined when the server does not run). */
export type ServerCommand = (command: string, args: unknown[]) => Promise<unknown>;

function toRange(range: JsonRange): vscode.Range {
  return new vscode.Range(range.start.line, range.start.character, range.end.line, range.end.character);
}

/** Put the cursor at (line, character) of `uri` and bring the graph (`range`) into view. */
export async function revealGraph(uri: string, line: number, character: number, range: JsonRange): Promise<void> {
  const document = await vscode.workspace.openTextDocument(vscode.Uri.parse(uri));
  const editor = await vscode.window.showTextDocument(document, { preview: false });
  const cursor = new vscode.Position(line, character);
  editor.selection = new vscode.Selection(cursor, cursor);
  editor.revealRange(toRange(range), vscode.TextEditorRevealType.InCenterIfOutsideViewport);
}

function amrEditor(): vscode.TextEditor | undefined {
  const editor = vscode.window.activeTextEditor;
  return editor?.document.languageId === "amr" ? editor : undefined;
}

/** "AMR: Go to next graph below the score threshold" (after the cursor, wrapping around). */
export async function goToNextLowScore(run: ServerCommand, scoreOf: (uri: string) => DocumentScore | undefined): Promise<void> {
  const editor = amrEditor();
  if (!editor) {
    void vscode.window.showWarningMessage("AMR: open an .amr file first.");
    return;
  }
  const document = editor.document;
  const uri = document.uri.toString();
  const name = path.basename(document.uri.fsPath);
  const at = editor.selection.active;
  const found = (await run(NEXT_LOW_SCORE_COMMAND, [uri, at.line, at.character])) as NextLowScore | null | undefined;
  if (found === undefined) {
    void vscode.window.showWarningMessage("AMR: the language server is not running.");
    return;
  }
  if (found === null) {
    const score = scoreOf(uri);
    const threshold = lowScoreThreshold(document.uri);
    const why = score && !score.reference ? `${name} has no reference file, so its graphs have no scores`
      : threshold === 0 ? "amrcheck.lowScoreThreshold is 0 (off)"
      : `no graph of ${name} scores below ${threshold.toFixed(2)} (amrcheck.lowScoreThreshold)`;
    void vscode.window.showInformationMessage(`AMR: ${why}.`);
    return;
  }
  await revealGraph(found.uri, found.line, found.character, found.range);
  const wrapped = found.wrapped ? " (from the top)" : "";
  vscode.window.setStatusBarMessage(
    `AMR: ${found.id} ${found.metric} ${found.score.toFixed(3)} < ${found.threshold.toFixed(2)}${wrapped}`, 5000);
}

/** The view "Graphs by score": the active AMR document's graphs, lowest score first. */
export class GraphScoresView implements vscode.TreeDataProvider<GraphScore>, vscode.Disposable {
  private scores: GraphScores | undefined;
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly view: vscode.TreeView<GraphScore>;
  private readonly listeners: vscode.Disposable[] = [];
  /** the scores changed while the view was hidden: fetch them when it shows */
  private stale = true;
  /** `amrcheck.lowScoreThreshold` of the listed document: the status bar's, the server's warnings' */
  private threshold = 0;

  constructor(private readonly run: ServerCommand) {
    this.view = vscode.window.createTreeView(GRAPH_SCORES_VIEW, { treeDataProvider: this });
    this.listeners.push(
      this.view,
      this.changed,
      vscode.window.onDidChangeActiveTextEditor(() => void this.refresh()),
      // the marks follow the threshold at once, as the status bar's colour does
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration("amrcheck.lowScoreThreshold")) void this.refresh();
      }),
      // a document opened again starts at version 1: forget the versions of its last opening
      vscode.workspace.onDidCloseTextDocument((document) => {
        if (this.scores && vscode.Uri.parse(this.scores.uri).toString() === document.uri.toString()) this.scores = undefined;
      }),
      this.view.onDidChangeVisibility(() => {
        if (this.view.visible && this.stale) void this.refresh();
      }),
    );
  }

  /** The server checked `uri` again (`amr/documentScore`): its scores may have changed. */
  documentChecked(uri: string): void {
    if (amrEditor()?.document.uri.toString() === vscode.Uri.parse(uri).toString()) void this.refresh();
  }

  async refresh(): Promise<void> {
    if (!this.view.visible) {
      this.stale = true;
      return;
    }
    this.stale = false;
    const editor = amrEditor();
    const uri = editor?.document.uri.toString();
    let failure: string | undefined;
    const scores = uri
      ? ((await this.run(GRAPH_SCORES_COMMAND, [uri]).catch((error) => void (failure = String(error?.message ?? error)))) as
          GraphScores | undefined)
      : undefined;
    if (amrEditor()?.document.uri.toString() !== uri) return; // another editor meanwhile: its refresh wins
    // answers to two refreshes may cross: never replace a newer version's scores
    const shown = this.scores;
    if (scores && shown && shown.uri === scores.uri && (shown.version ?? -1) > (scores.version ?? -1)) return;
    this.scores = scores;
    this.threshold = editor ? lowScoreThreshold(editor.document.uri) : 0;
    const scored = scores?.graphs.filter((g) => g.score !== null) ?? [];
    const low = scored.filter((g) => g.score! < this.threshold).length;
    this.view.description = editor ? vscode.workspace.asRelativePath(editor.document.uri) : undefined;
    this.view.badge = low
      ? { value: low, tooltip: `${low} graph${low === 1 ? "" : "s"} below ${this.threshold.toFixed(2)}` }
      : undefined;
    this.view.message = !editor ? "Open an .amr file to list its graphs by score."
      : failure ? `No scores: ${failure}`
      : !scores ? "The language server is not running."
      : scored.length === 0 ? `No scores: ${scores.graphs[0]?.note ?? "no graphs"}.`
      : undefined;
    this.changed.fire();
  }

  getChildren(element?: GraphScore): GraphScore[] {
    if (element || !this.scores) return [];
    const graphs = this.scores.graphs;
    const scored = graphs.filter((g) => g.score !== null);
    // lowest first; equal scores in document order (sort is stable)
    scored.sort((a, b) => a.score! - b.score!);
    return [...scored, ...graphs.filter((g) => g.score === null)];
  }

  getTreeItem(graph: GraphScore): vscode.TreeItem {
    const scores = this.scores!;
    const item = new vscode.TreeItem(graph.id);
    const tooltip = new vscode.MarkdownString(undefined, true);
    if (graph.score === null) {
      item.description = graph.note ?? "no score";
      item.iconPath = new vscode.ThemeIcon("circle-slash");
      tooltip.appendText(`${graph.id}: ${graph.note ?? "no score"}`);
    } else {
      // marks by amrcheck.lowScoreThreshold, as the status bar colours the document score
      // (issue 29: a green check sat on a graph at 0.848); the check only on a graph
      // that is its reference's, a plain circle on one that differs above the threshold
      const threshold = this.threshold;
      const level = scoreLevel(graph.score, threshold);
      const below = level !== "ok";
      item.description = `${scores.metric} ${graph.score.toFixed(3)}${below ? ` < ${threshold.toFixed(2)}` : ""}`;
      item.iconPath = below
        ? level === "low" ? new vscode.ThemeIcon("warning", new vscode.ThemeColor("list.warningForeground"))
          : new vscode.ThemeIcon("error", new vscode.ThemeColor("list.errorForeground"))
        : graph.score >= 1 ? new vscode.ThemeIcon("pass", new vscode.ThemeColor("testing.iconPassed"))
        : new vscode.ThemeIcon("circle-outline");
      tooltip.appendText(`${graph.id}: ${scores.metric} ${graph.score.toFixed(4)}`);
      tooltip.appendText(below ? ` (below the threshold ${threshold.toFixed(2)})`
        : graph.score < 1 ? ` (differs from its reference; not below the threshold ${threshold.toFixed(2)})` : "");
    }
    if (graph.sentence) tooltip.appendText(`\n\n${graph.sentence}`);
    item.tooltip = tooltip;
    item.command = {
      title: "Go to graph",
      command: REVEAL_GRAPH_COMMAND,
      arguments: [scores.uri, graph.line, graph.character, graph.range],
    };
    return item;
  }

  dispose(): void {
    this.listeners.forEach((l) => l.dispose());
  }
}
