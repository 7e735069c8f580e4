// Unit tests of src/scoreEdits.ts (bundled by `npm run test:unit` to
// out/scoreEdits.mjs): which score texts an edit makes stale, and where the
// others go (issue 29).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { applyEdit, lineBreaks } from "../../out/scoreEdits.mjs";

// three graphs as in tests/data/lsp/annotations/lpp.amr: metadata lines, then the graph
const graphs = () => [
  { line: 3, character: 0, startLine: 0, endLine: 5, stale: false },
  { line: 10, character: 0, startLine: 7, endLine: 12, stale: false },
  { line: 17, character: 0, startLine: 14, endLine: 20, stale: false },
];
const change = (startLine, endLine, text) => ({ startLine, endLine, newLineBreaks: lineBreaks(text) });

describe("an edit and the score texts", () => {
  it("marks the graph typed in, and only it", () => {
    const shown = graphs();
    assert.equal(applyEdit(shown, [change(11, 11, "x")]), true);
    assert.deepEqual(shown.map((g) => g.stale), [false, true, false]);
    assert.deepEqual(shown.map((g) => g.line), [3, 10, 17]);
  });
  it("marks a graph whose metadata changed (its ::id pairs it with its reference)", () => {
    const shown = graphs();
    applyEdit(shown, [change(7, 7, "2")]);
    assert.deepEqual(shown.map((g) => g.stale), [false, true, false]);
  });
  it("marks nothing for a blank line between graphs, and says so", () => {
    const shown = graphs();
    assert.equal(applyEdit(shown, [change(6, 6, " ")]), false);
    assert.deepEqual(shown.map((g) => g.stale), [false, false, false]);
  });
  it("moves the graphs below a new line, and the edited graph's end", () => {
    const shown = graphs();
    applyEdit(shown, [change(11, 11, "\n  :mod (b / big)")]);
    assert.deepEqual(shown[1], { line: 10, character: 0, startLine: 7, endLine: 13, stale: true });
    assert.deepEqual(shown[2], { line: 18, character: 0, startLine: 15, endLine: 21, stale: false });
    assert.deepEqual(shown[0], graphs()[0]);
  });
  it("moves them up when lines are deleted", () => {
    const shown = graphs();
    applyEdit(shown, [change(6, 8, "")]); // the blank line and two of the second graph's metadata lines
    assert.deepEqual(shown.map((g) => [g.line, g.startLine, g.endLine, g.stale]),
      [[3, 0, 5, false], [8, 7, 10, true], [15, 12, 18, false]]);
  });
  it("marks every graph a change spans, and already-stale ones do not count as newly touched", () => {
    const shown = graphs();
    applyEdit(shown, [change(4, 15, "")]);
    assert.deepEqual(shown.map((g) => g.stale), [true, true, true]);
    assert.equal(applyEdit(shown, [change(4, 4, "y")]), false);
  });
  it("applies several changes (multiple cursors) from the bottom up", () => {
    const shown = graphs();
    // a line added in the first graph and a letter typed in the third, both in the text before the edit
    applyEdit(shown, [change(4, 4, "\n"), change(18, 18, "z")]);
    assert.deepEqual(shown.map((g) => [g.line, g.startLine, g.endLine, g.stale]),
      [[3, 0, 6, true], [11, 8, 13, false], [18, 15, 21, true]]);
  });
});
