// Each graph's score as text after its first line (issue 29): an editor
// decoration, repainted as soon as the server has checked the edit. A code lens
// cannot be that fast in VS Code: its CodeLens controller asks for lenses at
// least 250 ms after a change and repaints their titles at least 250 ms later.
// The text of a graph an edit touched is marked as being re-scored until the
// score of the new version arrives: an old score is never shown as fresh.
import * as vscode from "vscode";
import { applyEdit, lineBreaks, type Placed } from "./scoreEdits";
import { isScored, SERVER_SECTION } from "./server";
import { lowScoreThreshold, scoreLevel } from "./status";

const SCORE_TITLES_COMMAND = "amrcheck.scoreTitles";
/** lines asked for above and below those an editor shows: a short scroll needs no request */
const MARGIN_LINES = 100;
/** what the text of a graph being re-scored starts with (its old score follows) */
const RESCORING = "re-scoring… ";

/** One graph of `amrcheck.scoreTitles`: its lens title, where it starts, its entry's lines. */
interface ScoreTitle {
  id: string;
  line: number;
  character: number;
  /** the lines of the whole entry (metadata included): an edit there makes the title stale */
  startLine: number;
  endLine: number;
  title: string;
  score: number | null;
}

interface ScoreTitles {
  uri: string;
  version: number | null;
  graphs: ScoreTitle[];
}

/** The titles of one document, in the lines of its current text. */
interface Shown {
  /** the lines asked for (graphs starting there are all in `graphs`) */
  first: number;
  last: number;
  graphs: (ScoreTitle & Placed)[];
}

/** Runs a server command (undefined when the server does not run). */
type ServerCommand = (command: string, args: unknown[], token?: vscode.CancellationToken) => Promise<unknown>;

function enabled(uri: vscode.Uri): boolean {
  return vscode.workspace.getConfiguration(SERVER_SECTION, uri).get<boolean>("features.codeLens", true);
}

/** Whether the server says when it has checked a version (`amr/documentScore`, on by default). */
function notified(uri: vscode.Uri): boolean {
  return vscode.workspace.getConfiguration(SERVER_SECTION, uri).get<boolean>("features.documentScore", true);
}

export class ScoreTexts implements vscode.Disposable {
  private readonly type = vscode.window.createTextEditorDecorationType({
    after: { margin: "0 0 0 2.5em", color: new vscode.ThemeColor("editorCodeLens.foreground") },
    rangeBehavior: vscode.DecorationRangeBehavior.OpenOpen,
  });
  private readonly shown = new Map<string, Shown>();
  /** the request in flight per document: a newer one cancels it */
  private readonly asking = new Map<string, vscode.CancellationTokenSource>();
  /** documents checked again while a request was in flight: ask again if its answer is too old */
  private readonly checkedMeanwhile = new Set<string>();
  private readonly listeners: vscode.Disposable[] = [];

  constructor(private readonly run: ServerCommand) {
    this.listeners.push(
      this.type,
      vscode.workspace.onDidChangeTextDocument((event) => this.edited(event)),
      vscode.window.onDidChangeVisibleTextEditors(() => this.refresh()),
      vscode.window.onDidChangeTextEditorVisibleRanges((event) => this.scrolled(event.textEditor.document)),
      vscode.workspace.onDidCloseTextDocument((document) => this.forget(document.uri.toString())),
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration(`${SERVER_SECTION}.features.codeLens`)) this.refresh(true);
        else if (event.affectsConfiguration(`${SERVER_SECTION}.lowScoreThreshold`)) this.paintAll();
      }),
    );
  }

  /** The server checked `uri` (`amr/documentScore`): a new version, or new settings or reference. */
  documentChecked(uri: string): void {
    const document = this.documentOf(uri);
    if (!document) return;
    // the request in flight may answer for this check, or for the version before
    if (this.asking.has(document.uri.toString())) this.checkedMeanwhile.add(document.uri.toString());
    else void this.ask(document);
  }

  /** Ask again for every visible AMR document (the server (re)started; `all`: forget the old texts). */
  refresh(all = false): void {
    if (all) {
      for (const uri of [...this.shown.keys()]) this.forget(uri);
    }
    for (const document of new Set(vscode.window.visibleTextEditors.map((e) => e.document))) {
      if (isScored(document)) void this.ask(document);
    }
  }

  /** The server stopped: no score is known any more. */
  clear(): void {
    for (const uri of [...this.shown.keys()]) this.forget(uri);
  }

  private documentOf(uri: string): vscode.TextDocument | undefined {
    const wanted = vscode.Uri.parse(uri).toString(); // the server may escape differently
    return vscode.window.visibleTextEditors.map((e) => e.document).find((d) => d.uri.toString() === wanted && isScored(d));
  }

  private editorsOf(document: vscode.TextDocument): vscode.TextEditor[] {
    return vscode.window.visibleTextEditors.filter((e) => e.document === document);
  }

  /** The lines the document's editors show, with a margin. */
  private window(document: vscode.TextDocument): { first: number; last: number } | undefined {
    const ranges = this.editorsOf(document).flatMap((e) => e.visibleRanges);
    if (ranges.length === 0) return undefined;
    const first = Math.min(...ranges.map((r) => r.start.line));
    const last = Math.max(...ranges.map((r) => r.end.line));
    return { first: Math.max(0, first - MARGIN_LINES), last: last + MARGIN_LINES };
  }

  private scrolled(document: vscode.TextDocument): void {
    if (!isScored(document)) return;
    const known = this.shown.get(document.uri.toString());
    const wanted = this.window(document);
    if (!wanted || (known && known.first <= wanted.first && known.last >= wanted.last)) return;
    void this.ask(document);
  }

  /** Fetch the titles of the lines shown; painted only if they are of the document's current version. */
  private async ask(document: vscode.TextDocument): Promise<void> {
    const uri = document.uri.toString();
    this.asking.get(uri)?.cancel();
    const wanted = this.window(document);
    if (!wanted || !enabled(document.uri)) {
      this.asking.delete(uri);
      if (!enabled(document.uri)) this.forget(uri);
      return;
    }
    const cancel = new vscode.CancellationTokenSource();
    this.asking.set(uri, cancel);
    this.checkedMeanwhile.delete(uri);
    let answer: ScoreTitles | undefined;
    try {
      answer = (await this.run(SCORE_TITLES_COMMAND, [uri, wanted.first, wanted.last], cancel.token)) as ScoreTitles | undefined;
    } catch {
      answer = undefined; // the document changed meanwhile ("try again"), or the server stopped
    }
    // a newer request replaced this one: its answer is the one to paint
    const replaced = cancel.token.isCancellationRequested;
    if (!replaced) this.asking.delete(uri);
    cancel.dispose();
    if (replaced || document.isClosed) return;
    if (!answer || answer.version !== document.version) {
      // titles of an older version than the editor's: the next check brings the right ones,
      // unless it came while this request was in flight
      if (this.checkedMeanwhile.delete(uri)) void this.ask(document);
      return;
    }
    this.shown.set(uri, { ...wanted, graphs: answer.graphs.map((g) => ({ ...g, stale: false })) });
    this.paint(document);
  }

  /** An edit: mark the graphs it touched as being re-scored, move the others with their lines, ask again. */
  private edited(event: vscode.TextDocumentChangeEvent): void {
    const document = event.document;
    if (!isScored(document) || event.contentChanges.length === 0) return;
    const uri = document.uri.toString();
    const known = this.shown.get(uri);
    if (known) {
      const changes = event.contentChanges.map((c) =>
        ({ startLine: c.range.start.line, endLine: c.range.end.line, newLineBreaks: lineBreaks(c.text) }));
      const touched = applyEdit(known.graphs, changes);
      for (const change of changes) {
        if (known.last > change.endLine) known.last += change.newLineBreaks - (change.endLine - change.startLine);
      }
      // VS Code moves the decorations of the untouched graphs with their lines on its own
      if (touched) this.paint(document);
    }
    // the next `amr/documentScore` says when the edit is checked; without it, ask now (the
    // request waits for the check)
    if (!notified(document.uri) && this.editorsOf(document).length > 0) void this.ask(document);
  }

  private paintAll(): void {
    for (const editor of vscode.window.visibleTextEditors) {
      if (this.shown.has(editor.document.uri.toString())) this.paint(editor.document);
    }
  }

  private paint(document: vscode.TextDocument): void {
    const known = this.shown.get(document.uri.toString());
    const threshold = lowScoreThreshold(document.uri);
    const decorations: vscode.DecorationOptions[] = [];
    for (const graph of known?.graphs ?? []) {
      if (graph.line >= document.lineCount) continue;
      const line = document.lineAt(graph.line);
      const level = graph.score === null || graph.stale ? "ok" : scoreLevel(graph.score, threshold);
      decorations.push({
        range: new vscode.Range(graph.line, Math.min(graph.character, line.text.length), graph.line, line.text.length),
        renderOptions: {
          after: {
            contentText: graph.stale ? RESCORING + graph.title : graph.title,
            fontStyle: graph.stale ? "italic" : undefined,
            // below the threshold: the status bar's and the graph list's colours
            color: level === "ok" ? undefined
              : new vscode.ThemeColor(level === "low" ? "editorWarning.foreground" : "editorError.foreground"),
          },
        },
      });
    }
    for (const editor of this.editorsOf(document)) editor.setDecorations(this.type, decorations);
  }

  private forget(uri: string): void {
    this.asking.get(uri)?.cancel();
    this.asking.delete(uri);
    this.checkedMeanwhile.delete(uri);
    if (!this.shown.delete(uri)) return;
    const document = this.documentOf(uri);
    if (document) for (const editor of this.editorsOf(document)) editor.setDecorations(this.type, []);
  }

  dispose(): void {
    this.clear();
    this.listeners.forEach((l) => l.dispose());
  }
}
