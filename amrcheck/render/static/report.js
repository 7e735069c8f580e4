// amrcheck HTML reports: a sortable, filterable summary table, and the
// hover link between the two drawings of a pair (hover a node: its aligned
// partners light up; hover a triple: its nodes and edges do). No network.
"use strict";
(function () {
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
      const ok = (wanted === "all" || row.dataset.status === wanted)
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
    const row = event.target.closest("table.triples tr[data-c], table.triples tr[data-r]");
    if (row) hoverRow(section, row);
  });
  document.addEventListener("mouseout", (event) => {
    const section = event.target.closest && event.target.closest("section.pair");
    if (section && !section.contains(event.relatedTarget)) clear(section);
  });
})();
