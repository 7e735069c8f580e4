// What an edit does to the score texts shown (issue 29), without VS Code: the
// texts of the graphs it touched are marked as being re-scored, the others move
// with their lines. Unit-tested in test/unit/scoreEdits.test.mjs.

/** A graph's score text, placed in the document's current lines (0-based). */
export interface Placed {
  /** where the text sits: the graph's first line (its "(") */
  line: number;
  character: number;
  /** the graph's whole entry, metadata included */
  startLine: number;
  endLine: number;
  /** its score is of an older version than the document's */
  stale: boolean;
}

/** One change of an edit: the lines of the range it replaced (in the text before the edit)
 * and how many line breaks its new text has. */
export interface LineChange {
  startLine: number;
  endLine: number;
  newLineBreaks: number;
}

/**
 * Apply the changes of one edit (each range in the text before it) to `graphs`:
 * a graph whose entry overlaps a change's lines is marked stale, a graph below a
 * change moves by the lines it added or removed. Whether a graph became stale.
 */
export function applyEdit(graphs: Placed[], changes: readonly LineChange[]): boolean {
  let touched = false;
  // from the last change up: the ranges of those above stay right
  const bottomUp = [...changes].sort((a, b) => b.startLine - a.startLine);
  for (const change of bottomUp) {
    const { startLine: from, endLine: to } = change;
    const delta = change.newLineBreaks - (to - from);
    for (const graph of graphs) {
      if (graph.startLine <= to && graph.endLine >= from) {
        touched ||= !graph.stale;
        graph.stale = true;
        graph.endLine = Math.max(graph.startLine, graph.endLine + delta);
        // a first line inside the change may have moved anywhere in it: keep it in the entry
        if (graph.line > from) graph.line = Math.min(Math.max(from, graph.line + delta), graph.endLine);
      } else if (graph.startLine > to) {
        graph.startLine += delta;
        graph.endLine += delta;
        graph.line += delta;
      }
    }
  }
  return touched;
}

/** The line breaks in `text`. */
export function lineBreaks(text: string): number {
  return text.match(/\n/g)?.length ?? 0;
}
