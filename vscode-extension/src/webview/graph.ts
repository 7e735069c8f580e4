/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
// The graph panel's page: draws the server's answer to amr/graph (two SVGs laid
// out by Graphviz), lights up aligned partners on hover, and asks the extension
// to move the cursor when a node is clicked. Bundled to dist/graphView.js.

type Position = { line: number; character: number };
type Range = { start: Position; end: Position };
type Drawn = { id: string; range: Range };
type Side = {
  id: string;
  sentence?: string | null;
  nodes: Drawn[];
  edges: Drawn[];
  svg?: string | null;
  text?: string;
  errors?: { message: string }[];
  uri?: string;
};
type Answer = {
  uri: string;
  version: number | null;
  metric: string;
  note: string | null;
  graph: Side;
  reference: Side | null;
  explanation: {
    explainedBy: string;
    score: { f1: number; precision: number | null; recall: number | null };
    links: { graph: string; reference: string; weight: number }[];
  } | null;
  layoutProblem: string | null;
  /** what each status's colour means (with a reference only) */
  legend?: { status: string; meaning: string; color: string; fill: string; dashed: boolean }[] | null;
};
type Message = { type: "graph"; answer: Answer | null } | { type: "problem"; text: string };

declare function acquireVsCodeApi(): { postMessage(message: unknown): void };

const vscode = acquireVsCodeApi();
const PREFIX = { graph: "c-", reference: "r-" } as const;
type SideName = keyof typeof PREFIX;
let current: Answer | null = null;
let drawn = ""; // what is on screen: a redraw of the same answer is skipped
let partners: Record<SideName, Map<string, [string, number][]>> = { graph: new Map(), reference: new Map() };

function byId(id: string): HTMLElement {
  return document.getElementById(id) as HTMLElement;
}

function text(tag: string, content: string, cls = ""): HTMLElement {
  const element = document.createElement(tag);
  element.textContent = content;
  if (cls) element.className = cls;
  return element;
}

function drawSide(name: SideName, side: Side | null, problem: string | null): void {
  const figure = byId(name);
  const drawing = figure.querySelector(".drawing") as HTMLElement;
  figure.classList.toggle("empty", side === null);
  drawing.replaceChildren();
  if (!side) return;
  const caption = figure.querySelector("figcaption") as HTMLElement;
  caption.textContent = `${name === "graph" ? "this file" : "reference"} · ${side.id}`;
  if (side.svg) {
    drawing.innerHTML = side.svg; // the server's Graphviz output: labels escaped there
    // the side asks for its drawing's width: two that do not fit stack
    const svg = drawing.querySelector("svg");
    if (svg) figure.style.setProperty("--w", `${naturalWidth(svg)}px`);
  } else if (side.text !== undefined) {
    drawing.append(text("pre", side.text, "unparsed"));
  } else if (problem) {
    drawing.append(text("p", problem, "problem"));
  }
  if (side.errors?.length) {
    const list = document.createElement("ul");
    list.className = "errors";
    for (const error of side.errors) list.append(text("li", error.message));
    drawing.append(list);
  }
}

function draw(answer: Answer | null): void {
  current = answer;
  if (!answer) {
    drawn = "";
    byId("title").textContent = "No graph here";
    for (const name of ["graph", "reference"] as const) drawSide(name, null, null);
    return;
  }
  const key = JSON.stringify([answer.uri, answer.graph.svg ?? answer.graph.text, answer.reference?.svg]);
  document.body.dataset.version = String(answer.version);
  document.body.dataset.graph = answer.graph.id;
  if (key === drawn) return;
  drawn = key;
  byId("title").textContent = answer.graph.sentence ? `${answer.graph.id}: ${answer.graph.sentence}` : answer.graph.id;
  const explanation = answer.explanation;
  const score = explanation?.score;
  byId("score").textContent = score
    ? `${answer.metric} ${score.f1.toFixed(4)}` +
      (score.precision !== null && score.recall !== null ? ` · P ${score.precision.toFixed(2)} R ${score.recall.toFixed(2)}` : "") +
      (explanation && explanation.explainedBy !== answer.metric ? ` (drawn with ${explanation.explainedBy}'s alignment)` : "")
    : "";
  byId("note").textContent = answer.layoutProblem ?? answer.note ?? "";
  partners = { graph: new Map(), reference: new Map() };
  for (const link of explanation?.links ?? []) {
    if (!partners.graph.has(link.graph)) partners.graph.set(link.graph, []);
    if (!partners.reference.has(link.reference)) partners.reference.set(link.reference, []);
    partners.graph.get(link.graph)!.push([link.reference, link.weight]);
    partners.reference.get(link.reference)!.push([link.graph, link.weight]);
  }
  drawSide("graph", answer.graph, answer.layoutProblem);
  drawSide("reference", answer.reference, answer.layoutProblem);
  drawLegend(answer.legend ?? []);
  applyZoom();
}

/** The legend: a swatch per status in the drawings' own colours. */
function drawLegend(items: NonNullable<Answer["legend"]>): void {
  const legend = byId("legend");
  legend.replaceChildren();
  for (const item of items) {
    const entry = document.createElement("li");
    entry.dataset.status = item.status;
    const swatch = document.createElement("span");
    swatch.className = "swatch";
    swatch.style.background = item.fill;
    swatch.style.borderColor = item.color;
    swatch.style.borderStyle = item.dashed ? "dashed" : "solid";
    entry.append(swatch, `${item.status}: ${item.meaning}`);
    legend.append(entry);
  }
}

// -- zoom: "fit" shrinks a wide drawing to the panel; a zoom level shows it
// larger, to scroll (both sides share one layout: they zoom together)
let zoom: number | null = null;
const STEP = 1.25;

function naturalWidth(svg: SVGSVGElement): number {
  return (parseFloat(svg.getAttribute("width") ?? "0") * 4) / 3; // pt -> px
}

function applyZoom(): void {
  for (const svg of document.querySelectorAll<SVGSVGElement>(".drawing > svg")) {
    svg.style.width = zoom === null ? "" : `${naturalWidth(svg) * zoom}px`;
    svg.parentElement?.classList.toggle("zoomed", zoom !== null);
  }
  byId("zoom-level").textContent = zoom === null ? "fit" : `${Math.round(zoom * 100)} %`;
}

// zoomed: drag to pan; the two sides scroll together (one layout, one frame)
document.addEventListener("pointerdown", (event) => {
  const canvas = (event.target as HTMLElement).closest?.(".drawing.zoomed") as HTMLElement | null;
  if (!canvas || event.button !== 0) return;
  const start = { x: event.clientX, y: event.clientY, left: canvas.scrollLeft, top: canvas.scrollTop };
  const move = (e: PointerEvent): void => {
    canvas.scrollLeft = start.left - (e.clientX - start.x);
    canvas.scrollTop = start.top - (e.clientY - start.y);
  };
  const stop = (): void => {
    document.removeEventListener("pointermove", move);
    document.removeEventListener("pointerup", stop);
  };
  document.addEventListener("pointermove", move);
  document.addEventListener("pointerup", stop);
});

let following = false;
document.addEventListener("scroll", (event) => {
  const canvas = event.target as HTMLElement;
  if (following || !canvas.classList?.contains("drawing")) return;
  following = true;
  for (const other of document.querySelectorAll<HTMLElement>(".drawing")) {
    if (other !== canvas) {
      other.scrollLeft = canvas.scrollLeft;
      other.scrollTop = canvas.scrollTop;
    }
  }
  following = false;
}, true);

document.addEventListener("click", (event) => {
  const button = (event.target as HTMLElement).closest?.("button[data-zoom]") as HTMLButtonElement | null;
  if (!button) return;
  const svg = document.querySelector<SVGSVGElement>(".drawing > svg");
  if (!svg) return;
  const shown = svg.getBoundingClientRect().width / naturalWidth(svg);
  const action = button.dataset.zoom;
  zoom = action === "fit" ? null : action === "in" ? shown * STEP : shown / STEP;
  applyZoom();
});

/** The side and scene key of an SVG group (ids are c-<key> / r-<key>). */
function located(g: SVGGElement): [SideName, string] | null {
  const id = g.id;
  for (const name of ["graph", "reference"] as const) {
    if (id.startsWith(PREFIX[name])) return [name, id.slice(PREFIX[name].length)];
  }
  return null;
}

function clear(): void {
  for (const element of document.querySelectorAll(".lit, .partner")) element.classList.remove("lit", "partner");
  byId("hint").textContent = "";
}

function titleOf(id: string): string {
  return document.getElementById(id)?.querySelector("title")?.textContent ?? "";
}

document.addEventListener("mouseover", (event) => {
  clear();
  const g = (event.target as HTMLElement).closest?.("g.node, g.edge") as SVGGElement | null;
  const found = g && located(g);
  if (!g || !found) return;
  const [side, key] = found;
  const other: SideName = side === "graph" ? "reference" : "graph";
  g.classList.add("lit");
  const linked = partners[side].get(key) ?? [];
  for (const [partner] of linked) document.getElementById(PREFIX[other] + partner)?.classList.add("partner");
  const names = linked.map(([partner, weight]) => {
    const name = titleOf(PREFIX[other] + partner);
    return linked.length > 1 || weight !== 1 ? `${name} (${weight.toFixed(2)})` : name;
  });
  byId("hint").textContent = titleOf(g.id) + (names.length ? `  ↔  ${names.join(", ")}` : "");
});

document.addEventListener("click", (event) => {
  const g = (event.target as HTMLElement).closest?.("g.node, g.edge") as SVGGElement | null;
  const found = g && located(g);
  if (!found || !current) return;
  const [side, key] = found;
  const shown = side === "graph" ? current.graph : current.reference;
  const element = [...(shown?.nodes ?? []), ...(shown?.edges ?? [])].find((e) => e.id === key);
  if (element) vscode.postMessage({ type: "reveal", side, range: element.range });
});

window.addEventListener("message", (event: MessageEvent<Message>) => {
  const message = event.data;
  if (message.type === "graph") draw(message.answer);
  else if (message.type === "problem") byId("note").textContent = message.text;
});
