// The status bar item: the active document's score against its reference,
// from the server's `amr/documentScore` notification (or its command).
import * as path from "node:path";
import * as vscode from "vscode";
import { isScored, SERVER_SECTION } from "./server";

/** A score this far or further below `amrcheck.lowScoreThreshold` is "far below": error colour, not warning. */
export const FAR_BELOW = 0.2;
const THRESHOLD_SETTING = "lowScoreThreshold";

/** How a score stands against the threshold: the status bar's and the graph list's colours. */
export type ScoreLevel = "ok" | "low" | "far below";

export function scoreLevel(score: number, threshold: number): ScoreLevel {
  if (score >= threshold) return "ok";
  return score < threshold - FAR_BELOW ? "far below" : "low";
}

/** `amrcheck.lowScoreThreshold` of `uri`, the setting the server's low-score warnings use. */
export function lowScoreThreshold(uri: vscode.Uri): number {
  const config = vscode.workspace.getConfiguration(SERVER_SECTION, uri);
  const value = config.get<unknown>(THRESHOLD_SETTING);
  // the server keeps the default for a value it rejects: so does the colour
  return typeof value === "number" && value >= 0 && value <= 1 ? value : Number(config.inspect(THRESHOLD_SETTING)?.defaultValue);
}

function affectsThreshold(event: vscode.ConfigurationChangeEvent): boolean {
  return event.affectsConfiguration(`${SERVER_SECTION}.${THRESHOLD_SETTING}`);
}

/** The payload of `amr/documentScore` and of the `amrcheck.documentScore` command. */
export interface DocumentScore {
  uri: string;
  version: number | null;
  metric: string;
  reference: string | null;
  problem: string | null;
  graphs: number;
  compared: number;
  f1: number | null;
  precision: number | null;
  recall: number | null;
  /** differences, counted as the lenses and `amrcheck diff` count them */
  missing: number;
  extra: number;
  relabelled?: number;
  /** graphs counted as empty graphs (F1 0) in `f1`: unreadable, or not in the document */
  counted_empty?: { graph: string; where: string; why: string }[];
  /** a UMR document's document-level layers, as `amrcheck score --json` gives them */
  umr?: Record<string, { f1: number }>;
}

/** The UMR layers shown in the tooltip, in order. */
const UMR_LAYERS = ["temporal", "modal", "coref", "document", "overall"];

export class ScoreStatus implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem("amr.score", vscode.StatusBarAlignment.Right, 100);
  private readonly scores = new Map<string, DocumentScore>();
  private readonly listeners: vscode.Disposable[] = [];

  constructor(private readonly fetch: (uri: string) => Promise<DocumentScore | undefined>) {
    this.item.name = "AMR score";
    this.listeners.push(
      vscode.window.onDidChangeActiveTextEditor(() => void this.refresh()),
      vscode.workspace.onDidCloseTextDocument((doc) => this.scores.delete(doc.uri.toString())),
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (affectsThreshold(event)) void this.refresh();
      }),
    );
  }

  /** The newest score of `uri`, if the server sent one. */
  get(uri: string): DocumentScore | undefined {
    return this.scores.get(uri);
  }

  update(score: DocumentScore): void {
    this.scores.set(normalise(score.uri), score);
    if (activeUri() === normalise(score.uri)) this.render(score);
  }

  clear(): void {
    this.scores.clear();
    this.item.hide();
  }

  async refresh(): Promise<void> {
    const uri = activeUri();
    if (uri === undefined) {
      this.item.hide();
      return;
    }
    const known = this.scores.get(uri);
    if (known) {
      this.render(known);
      return;
    }
    const fetched = await this.fetch(uri).catch(() => undefined);
    if (fetched && activeUri() === uri) this.update(fetched);
  }

  private render(score: DocumentScore): void {
    const item = this.item;
    const reference = score.reference ? vscode.workspace.asRelativePath(score.reference) : undefined;
    const threshold = lowScoreThreshold(vscode.Uri.parse(score.uri));
    const level = score.f1 !== null && reference ? scoreLevel(score.f1, threshold) : "ok";
    // the only two background colours a status bar item may have: a low score is seen at a glance
    item.backgroundColor = level === "ok" ? undefined
      : new vscode.ThemeColor(level === "low" ? "statusBarItem.warningBackground" : "statusBarItem.errorBackground");
    if (score.f1 !== null && reference) {
      const empty = score.counted_empty?.length ?? 0;
      // a broken graph counts as 0: say so, so the lower score is not a mystery
      item.text = `$(graph) ${score.metric} ${score.f1.toFixed(3)}${empty ? ` $(warning) ${empty}` : ""}`;
      item.command = "amr.showDiff";
    } else if (!score.reference) {
      item.text = "$(graph) no reference";
      item.command = "amr.compareWithReference";
    } else {
      item.text = `$(warning) ${score.metric} —`;
      item.command = "amr.showDiff";
    }
    const tooltip = new vscode.MarkdownString(undefined, true);
    if (reference) {
      tooltip.appendMarkdown(`**${score.metric}** vs \`${reference}\`\n\n`);
      if (score.f1 !== null) {
        tooltip.appendMarkdown(
          `F1 ${fmt(score.f1)} · P ${fmt(score.precision)} · R ${fmt(score.recall)}\n\n` +
            `${score.compared} of ${score.graphs} graphs compared · ${score.missing} missing, ${score.extra} extra, ` +
            `${score.relabelled ?? 0} relabelled triples\n\n`,
        );
        if (level !== "ok") {
          const far = level === "far below" ? `, more than ${FAR_BELOW.toFixed(2)} below` : "";
          tooltip.appendMarkdown(`$(warning) below the threshold ${threshold.toFixed(2)}${far} (\`amrcheck.lowScoreThreshold\`)\n\n`);
        }
        const layers = score.umr;
        if (layers) {
          const shown = UMR_LAYERS.filter((name) => layers[name]).map((name) => `${name} ${fmt(layers[name].f1)}`);
          tooltip.appendMarkdown(`UMR document level: ${shown.join(" · ")}\n\n`);
        }
        for (const empty of score.counted_empty ?? []) {
          tooltip.appendMarkdown(`$(warning) ${escape(empty.graph)} counts as 0 (${escape(empty.why)})\n\n`);
        }
      }
      tooltip.appendMarkdown("Click: show the diff against the reference");
    } else {
      tooltip.appendMarkdown("No reference file for this document. Click to choose one.");
    }
    if (score.problem) tooltip.appendMarkdown(`\n\n$(warning) ${escape(score.problem)}`);
    item.tooltip = tooltip;
    item.show();
  }

  dispose(): void {
    this.listeners.forEach((l) => l.dispose());
    this.item.dispose();
  }
}

function activeUri(): string | undefined {
  const doc = vscode.window.activeTextEditor?.document;
  return doc && isScored(doc) ? doc.uri.toString() : undefined;
}

/** The server's URIs and VS Code's may differ in escaping (e.g. `%3A`): compare parsed. */
function normalise(uri: string): string {
  return vscode.Uri.parse(uri).toString();
}

function fmt(value: number | null): string {
  return value === null ? "—" : value.toFixed(3);
}

function escape(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, "\\$&");
}

export function referenceLabel(score: DocumentScore | undefined): string {
  return score?.reference ? path.basename(score.reference) : "reference";
}
