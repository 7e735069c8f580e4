// amrcheck HTML reports: a sortable, filterable summary table; each
// section's body (drawings, triples) inflated when it comes near the screen;
// zoom and pan of the drawings; and the hover link between the two drawings
// of a pair (hover a node: its aligned partners light up; hover a triple:
// its nodes and edges do; on UMR pairs, hover a node: its words light up,
// hover a word: its nodes do). No network.
"use strict";
(function () {
  // -- sections drawn as they come near the screen --------------------------
  // a body is gzipped HTML in base64 (amrcheck/render/html.py: _pack)
  const pending = new Map(); // section -> Promise of its body being filled in

  async function inflate(data) {
    const bytes = Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
    return new Response(stream).text();
  }

  function fill(section) {
    if (!pending.has(section)) {
      const body = section.querySelector(":scope > .body");
      const packed = body && body.querySelector(":scope > script.packed");
      pending.set(section, packed ? inflate(packed.textContent).then((html) => {
        body.innerHTML = html;
        body.style.minHeight = "";
        section.classList.add("drawn");
        for (const figure of body.querySelectorAll("figure.side")) zoomable(section, figure);
      }) : Promise.resolve());
    }
    return pending.get(section);
  }

  const sections = Array.from(document.querySelectorAll("section.pair"));
  const near = "IntersectionObserver" in window ? new IntersectionObserver((entries) => {
    for (const entry of entries) {
      if (entry.isIntersecting) {
        near.unobserve(entry.target);
        fill(entry.target);
      }
    }
  }, { rootMargin: "800px 0px" }) : null;
  for (const section of sections) near ? near.observe(section) : fill(section);
  // for tests and tools: a section drawn now, or every one
  window.amrcheckReport = { drawn: fill, drawAll: () => Promise.all(sections.map(fill)) };

  // -- zoom and pan ---------------------------------------------------------
  // Both sides of a pair share one layout and one frame: they zoom and
  // scroll together, so that a place in one is the same place in the other.
  const STEP = 1.25;

  function zoomable(section, figure) {
    const svg = figure.querySelector(".canvas > svg");
    if (!svg) return;
    const caption = figure.querySelector("figcaption");
    const tools = document.createElement("span");
    tools.className = "zoom";
    for (const [label, action, title] of [["−", "out", "zoom out"], ["fit", "fit", "fit the width"], ["+", "in", "zoom in (or Ctrl + wheel; drag to pan)"]]) {
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = label;
      button.title = title;
      button.dataset.zoom = action;
      tools.append(button);
    }
    caption.append(tools);
    const canvas = figure.querySelector(".canvas");
    canvas.addEventListener("scroll", () => follow(section, canvas));
    canvas.addEventListener("wheel", (event) => {
      if (!event.ctrlKey && !event.metaKey) return;
      event.preventDefault();
      zoom(section, event.deltaY < 0 ? "in" : "out");
    }, { passive: false });
    canvas.addEventListener("pointerdown", (event) => drag(canvas, event));
  }

  function naturalWidth(svg) {
    // Graphviz writes the size in points; 1pt = 4/3 CSS px
    return parseFloat(svg.getAttribute("width")) * 4 / 3;
  }

  function zoom(section, action) {
    const svgs = Array.from(section.querySelectorAll("figure.side .canvas > svg"));
    if (!svgs.length) return;
    const shown = svgs[0].getBoundingClientRect().width / naturalWidth(svgs[0]);
    const scale = action === "fit" ? null : action === "in" ? shown * STEP : shown / STEP;
    for (const svg of svgs) {
      svg.parentNode.classList.toggle("zoomed", scale !== null);
      svg.style.width = scale === null ? "" : `${naturalWidth(svg) * scale}px`;
    }
    section.dataset.zoom = scale === null ? "fit" : scale.toFixed(2);
  }

  let following = false;
  function follow(section, canvas) {
    if (following) return;
    following = true;
    for (const other of section.querySelectorAll("figure.side .canvas")) {
      if (other !== canvas) {
        other.scrollLeft = canvas.scrollLeft;
        other.scrollTop = canvas.scrollTop;
      }
    }
    following = false;
  }

  function drag(canvas, event) {
    if (!canvas.classList.contains("zoomed") || event.button !== 0) return;
    const start = { x: event.clientX, y: event.clientY, left: canvas.scrollLeft, top: canvas.scrollTop };
    canvas.setPointerCapture(event.pointerId);
    canvas.classList.add("dragging");
    const move = (e) => {
      canvas.scrollLeft = start.left - (e.clientX - start.x);
      canvas.scrollTop = start.top - (e.clientY - start.y);
    };
    const stop = () => {
      canvas.classList.remove("dragging");
      canvas.removeEventListener("pointermove", move);
      canvas.removeEventListener("pointerup", stop);
      canvas.removeEventListener("pointercancel", stop);
    };
    canvas.addEventListener("pointermove", move);
    canvas.addEventListener("pointerup", stop);
    canvas.addEventListener("pointercancel", stop);
  }

  document.addEventListener("click", (event) => {
    const button = event.target.closest && event.target.closest("button[data-zoom]");
    const section = button && button.closest("section.pair");
    if (section) zoom(section, button.dataset.zoom);
  });

  // -- summary table: sort by a column, filter by status and text ----------
  const table = document.querySelector("table.summary");
  const status = document.getElementById("status-filter");
  const search = document.getElementById("text-filter");
  const shown = document.getElementById("shown");

  function cellValue(row, index) {
    const cell = row.cells[index];
    const value = cell.dataset.v !== undefined ? cell.dataset.v : cell.textContent;
    const number = Number(value);
    return value !== "" && !Number.isNaN(number) ? number : value.toLowerCase();
  }

  function sortBy(th) {
    const index = th.cellIndex;
    const ascending = th.getAttribute("aria-sort") !== "ascending";
    for (const other of th.parentNode.cells) other.removeAttribute("aria-sort");
    th.setAttribute("aria-sort", ascending ? "ascending" : "descending");
    const body = table.tBodies[0];
    const rows = Array.from(body.rows);
    rows.sort((a, b) => {
      const x = cellValue(a, index), y = cellValue(b, index);
      // a number before a text either way: "-" (no score) stays last
      if (typeof x !== typeof y) return typeof x === "number" ? -1 : 1;
      const order = x < y ? -1 : x > y ? 1 : 0;
      return ascending ? order : -order;
    });
    body.append(...rows);
  }

  function applyFilter() {
    const wanted = status ? status.value : "all";
    const needle = search ? search.value.trim().toLowerCase() : "";
    let count = 0;
    for (const row of table.tBodies[0].rows) {
      // "!unchanged": every status but that one
      const ok = (wanted === "all" || row.dataset.status === wanted
          || (wanted.startsWith("!") && row.dataset.status !== wanted.slice(1)))
        && (!needle || row.textContent.toLowerCase().includes(needle));
      row.classList.toggle("hidden", !ok);
      const section = row.dataset.section && document.getElementById(row.dataset.section);
      if (section) section.classList.toggle("hidden", !ok);
      if (ok) count += 1;
    }
    if (shown) shown.textContent = `${count} of ${table.tBodies[0].rows.length} shown`;
  }

  if (table) {
    table.tHead.addEventListener("click", (event) => {
      const th = event.target.closest("th");
      if (th) sortBy(th);
    });
    if (status) status.addEventListener("change", applyFilter);
    if (search) search.addEventListener("input", applyFilter);
    applyFilter();
  }

  // -- hover link inside a pair ---------------------------------------------
  // element ids are {section id}-{c or r}-{scene key}; data-links lists
  // [candidate key, reference key, weight] (n:m for flow alignments)
  const linksOf = new WeakMap();

  function links(section) {
    let table = linksOf.get(section);
    if (!table) {
      table = { c: new Map(), r: new Map() };
      for (const [c, r, weight] of JSON.parse(section.dataset.links || "[]")) {
        if (!table.c.has(c)) table.c.set(c, []);
        if (!table.r.has(r)) table.r.set(r, []);
        table.c.get(c).push([r, weight]);
        table.r.get(r).push([c, weight]);
      }
      linksOf.set(section, table);
    }
    return table;
  }

  function element(section, side, key) {
    return document.getElementById(`${section.id}-${side}-${key}`);
  }

  function describe(el) {
    const title = el && el.querySelector("title");
    return title ? title.textContent : "";
  }

  function clear(section) {
    for (const el of section.querySelectorAll(".lit, .partner")) el.classList.remove("lit", "partner");
    section.classList.remove("hovering");
    const hint = section.querySelector(".hint");
    if (hint) hint.textContent = "";
  }

  function light(section, side, keys, cls) {
    const found = [];
    for (const key of keys) {
      const el = element(section, side, key);
      if (el) {
        el.classList.add(cls);
        found.push(el);
      }
    }
    return found;
  }

  // a UMR sentence's words under each drawing: data-n lists the scene keys
  // of the nodes aligned to each word
  function wordsOf(section, side) {
    const figure = section.querySelector(`figure.side.${side === "c" ? "candidate" : "reference"}`);
    return figure ? Array.from(figure.querySelectorAll("p.words span.w")) : [];
  }

  function lightWords(section, side, keys, cls) {
    for (const word of wordsOf(section, side)) {
      if ((word.dataset.n || "").split(" ").some((k) => keys.includes(k))) word.classList.add(cls);
    }
  }

  function hoverWord(section, word) {
    const side = word.closest("figure.side.candidate") ? "c" : "r";
    const other = side === "c" ? "r" : "c";
    const keys = (word.dataset.n || "").split(" ").filter(Boolean);
    word.classList.add("lit");
    section.classList.add("hovering");
    const nodes = light(section, side, keys, "lit");
    const partners = keys.flatMap((k) => (links(section)[side].get(k) || []).map(([p]) => p));
    light(section, other, partners, "partner");
    lightWords(section, other, partners, "partner");
    const hint = section.querySelector(".hint");
    if (hint) {
      const named = nodes.map(describe);
      hint.textContent = `word ${word.dataset.i} “${word.querySelector(".t").textContent}”  →  ${named.length ? named.join(", ") : "no node"}`;
    }
  }

  function hoverElement(section, g) {
    const prefix = `${section.id}-`;
    if (!g.id.startsWith(prefix)) return;
    const side = g.id.charAt(prefix.length);
    const key = g.id.slice(prefix.length + 2);
    const other = side === "c" ? "r" : "c";
    g.classList.add("lit");
    section.classList.add("hovering");
    const partners = links(section)[side].get(key) || [];
    light(section, other, partners.map(([k]) => k), "partner");
    lightWords(section, side, [key], "lit");
    lightWords(section, other, partners.map(([k]) => k), "partner");
    for (const row of section.querySelectorAll("table.triples tr")) {
      if ((row.dataset[side] || "").split(" ").includes(key)) row.classList.add("lit");
    }
    const hint = section.querySelector(".hint");
    if (hint) {
      const named = partners.map(([k, w]) => {
        const text = describe(element(section, other, k));
        return partners.length > 1 || w !== 1 ? `${text} (${Number(w).toFixed(2)})` : text;
      });
      hint.textContent = `${describe(g)}${named.length ? "  ↔  " + named.join(", ") : g.classList.contains("node") ? "  (no aligned node)" : ""}`;
    }
  }

  function hoverRow(section, row) {
    row.classList.add("lit");
    section.classList.add("hovering");
    light(section, "c", (row.dataset.c || "").split(" ").filter(Boolean), "lit");
    light(section, "r", (row.dataset.r || "").split(" ").filter(Boolean), "lit");
  }

  document.addEventListener("mouseover", (event) => {
    const section = event.target.closest && event.target.closest("section.pair");
    if (!section) return;
    clear(section);
    const g = event.target.closest("g.node, g.edge");
    if (g) return hoverElement(section, g);
    const word = event.target.closest("p.words span.w");
    if (word) return hoverWord(section, word);
    const row = event.target.closest("table.triples tr[data-c], table.triples tr[data-r]");
    if (row) hoverRow(section, row);
  });
  document.addEventListener("mouseout", (event) => {
    const section = event.target.closest && event.target.closest("section.pair");
    if (section && !section.contains(event.relatedTarget)) clear(section);
  });
})();
