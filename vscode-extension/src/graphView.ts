// "AMR: Show graph": a webview beside the editor with the graph under the cursor
// and its reference graph, drawn by the server (amr/graph, laid out by Graphviz).
// It follows the cursor and the edits; a click on a node moves the cursor there.
import * as vscode from "vscode";
import { isScored } from "./server";

export const GRAPH_REQUEST = "amr/graph";
const RETRY_MS = 300;

type Position = { line: number; character: number };
type Range = { start: Position; end: Position };
/** What the webview sends: a click on a node of one side. */
type Reveal = { type: "reveal"; side: "graph" | "reference"; range: Range };
type Request = (method: string, params: unknown) => Promise<unknown> | undefined;

/** The one graph panel; it follows the active AMR or UMR editor. */
export class GraphPanel implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private document: vscode.TextDocument | undefined;
  private position = new vscode.Position(0, 0);
  private timer: NodeJS.Timeout | undefined;
  private asked = 0; // requests sent; an answer older than the last one is dropped
  private referenceUri: string | undefined;
  private readonly listeners: vscode.Disposable[] = [];

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly request: Request,
  ) {}

  /** Open the panel beside the editor (or bring it back), drawing its cursor's graph. */
  show(editor: vscode.TextEditor | undefined): void {
    if (!editor || !isScored(editor.document)) {
      void vscode.window.showWarningMessage("AMR: open an .amr or .umr file first.");
      return;
    }
    this.follow(editor.document, editor.selection.active);
    if (this.panel) {
      this.panel.reveal(vscode.ViewColumn.Beside, true);
      this.schedule(0);
      return;
    }
    const media = vscode.Uri.joinPath(this.extensionUri, "dist");
    this.panel = vscode.window.createWebviewPanel(
      "amr.graph", "AMR graph", { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
      { enableScripts: true, localResourceRoots: [media], retainContextWhenHidden: true },
    );
    this.panel.webview.html = page(this.panel.webview, vscode.Uri.joinPath(media, "graphView.js"));
    this.listeners.push(
      this.panel.webview.onDidReceiveMessage((message: Reveal) => this.reveal(message)),
      this.panel.onDidDispose(() => this.closed()),
      vscode.window.onDidChangeTextEditorSelection((event) => {
        if (!isScored(event.textEditor.document)) return;
        this.follow(event.textEditor.document, event.selections[0].active);
        this.schedule(60);
      }),
      vscode.window.onDidChangeActiveTextEditor((active) => {
        if (!active || !isScored(active.document)) return;
        this.follow(active.document, active.selection.active);
        this.schedule(0);
      }),
      vscode.workspace.onDidChangeTextDocument((event) => {
        // the client sends the change before the request: the answer is of this text
        if (event.document === this.document && event.contentChanges.length) this.schedule(0);
      }),
    );
    this.schedule(0);
  }

  /** Draw again (the server has just started). */
  refresh(): void {
    if (this.panel) this.schedule(0);
  }

  dispose(): void {
    this.panel?.dispose();
    this.closed();
  }

  private closed(): void {
    clearTimeout(this.timer);
    this.panel = undefined;
    this.listeners.splice(0).forEach((listener) => listener.dispose());
  }

  private follow(document: vscode.TextDocument, position: vscode.Position): void {
    this.document = document;
    this.position = position;
  }

  private schedule(delay: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.update(), delay);
  }

  private async update(): Promise<void> {
    const panel = this.panel;
    const document = this.document;
    if (!panel || !document) return;
    const asked = ++this.asked;
    const params = {
      textDocument: { uri: document.uri.toString() },
      position: { line: this.position.line, character: this.position.character },
      svg: true,
    };
    let answer: unknown;
    try {
      answer = await this.request(GRAPH_REQUEST, params);
    } catch (error) {
      if (asked !== this.asked) return; // a newer request answers
      // the document changed while the server worked on it: ask again
      void panel.webview.postMessage({ type: "problem", text: `${error}` });
      this.schedule(RETRY_MS);
      return;
    }
    if (asked !== this.asked || panel !== this.panel) return;
    if (answer === undefined) {
      // the server is starting (or restarting): refresh() follows when it runs
      void panel.webview.postMessage({ type: "problem", text: "Waiting for the AMR language server…" });
      return;
    }
    const reference = (answer as { reference?: { uri?: string } } | null)?.reference;
    this.referenceUri = reference?.uri;
    panel.title = `AMR graph: ${document.uri.path.split("/").pop()}`;
    void panel.webview.postMessage({ type: "graph", answer });
  }

  /** A click on a node: the cursor goes where the node is written. */
  private async reveal(message: Reveal): Promise<void> {
    if (message.type !== "reveal") return;
    // the cursor goes to the node's start (a selection would be typed over)
    const { start } = message.range;
    const range = new vscode.Range(start.line, start.character, start.line, start.character);
    const own = this.document;
    if (message.side === "graph" && own) {
      const shown = vscode.window.visibleTextEditors.find((editor) => editor.document === own);
      await vscode.window.showTextDocument(own, { viewColumn: shown?.viewColumn, selection: range });
    } else if (message.side === "reference" && this.referenceUri) {
      const column = vscode.window.visibleTextEditors.find((e) => e.document === own)?.viewColumn;
      await vscode.window.showTextDocument(vscode.Uri.parse(this.referenceUri), {
        viewColumn: column, selection: range, preview: true,
      });
    }
  }
}

function page(webview: vscode.Webview, script: vscode.Uri): string {
  const nonce = [...Array(32)].map(() => Math.floor(Math.random() * 36).toString(36)).join("");
  // nothing from the network: the script is the extension's, the drawings inline SVG
  const csp = [
    "default-src 'none'",
    `img-src ${webview.cspSource} data:`,
    `style-src ${webview.cspSource} 'unsafe-inline'`,
    `script-src 'nonce-${nonce}'`,
  ].join("; ");
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>AMR graph</title>
<style>${STYLE}</style>
</head>
<body>
<header><h1 id="title">AMR graph</h1><p id="score"></p><p id="note"></p>
<ul id="legend" aria-label="legend"></ul>
<p class="zoom"><button type="button" data-zoom="out" title="zoom out">−</button><button type="button" data-zoom="fit" title="fit the panel">fit</button><button type="button" data-zoom="in" title="zoom in">+</button> <span id="zoom-level">fit</span></p></header>
<main id="sides">
  <figure class="side" id="graph"><figcaption>this file</figcaption><div class="drawing"></div></figure>
  <figure class="side" id="reference"><figcaption>reference</figcaption><div class="drawing"></div></figure>
</main>
<p id="hint" aria-live="polite"></p>
<script nonce="${nonce}" src="${webview.asWebviewUri(script)}"></script>
</body>
</html>`;
}

// The colours of nodes and edges come with the SVG (the engine's palette, as in
// the HTML reports); this adds the panel's layout, the hover highlight, and
// readable lines and labels on dark themes.
const STYLE = `
body { font-family: var(--vscode-font-family); font-size: var(--vscode-font-size); color: var(--vscode-foreground); padding: 0 12px; }
h1 { font-size: 1.2em; margin: 10px 0 2px; }
header p { margin: 2px 0; opacity: 0.85; }
#sides { display: flex; flex-wrap: wrap; gap: 12px; }
figure.side { flex: 1 1 calc(0.8 * var(--w, 320px) + 14px); max-width: 100%; margin: 0; min-width: 0; border: 1px solid var(--vscode-panel-border, #8884); border-radius: 6px; padding: 6px; overflow: auto; }
figure.side.empty { display: none; }
figcaption { font-size: 0.9em; opacity: 0.8; margin-bottom: 4px; }
.drawing { overflow: auto; max-height: 85vh; }
.drawing svg { max-width: 100%; height: auto; display: block; margin: 0 auto; }
.drawing.zoomed svg { max-width: none; margin: 0; }
.drawing.zoomed { cursor: grab; }
#legend { display: flex; flex-wrap: wrap; gap: 4px 14px; list-style: none; padding: 0; margin: 6px 0; font-size: 0.9em; }
#legend li { display: flex; align-items: center; gap: 6px; }
#legend .swatch { display: inline-block; width: 20px; height: 12px; border: 2px solid; border-radius: 4px; }
.zoom { margin: 4px 0; }
.zoom button { min-width: 26px; color: var(--vscode-button-secondaryForeground, inherit); background: var(--vscode-button-secondaryBackground, transparent); border: 1px solid var(--vscode-panel-border, #8884); border-radius: 3px; cursor: pointer; }
pre.unparsed { white-space: pre-wrap; border: 1px dashed #c5221f; padding: 6px; }
ul.errors, .problem { color: var(--vscode-errorForeground, #c5221f); }
#hint { min-height: 1.4em; color: var(--vscode-textLink-foreground, #1a73e8); }
g.node { cursor: pointer; }
g.lit > path, g.lit > polygon, g.lit > ellipse, g.partner > path, g.partner > polygon, g.partner > ellipse { stroke: #1a73e8 !important; stroke-width: 3.5px; }
g.lit > text, g.partner > text { font-weight: bold; }
body.vscode-dark g.edge.plain > path, body.vscode-dark g.edge.matched > path, body.vscode-high-contrast g.edge.plain > path, body.vscode-high-contrast g.edge.matched > path { stroke: var(--vscode-foreground); }
body.vscode-dark g.edge.plain > polygon, body.vscode-dark g.edge.matched > polygon, body.vscode-high-contrast g.edge.plain > polygon, body.vscode-high-contrast g.edge.matched > polygon { stroke: var(--vscode-foreground); fill: var(--vscode-foreground); }
body.vscode-dark g.edge.plain > text, body.vscode-dark g.edge.matched > text, body.vscode-high-contrast g.edge.plain > text, body.vscode-high-contrast g.edge.matched > text { fill: var(--vscode-foreground); }
`;
