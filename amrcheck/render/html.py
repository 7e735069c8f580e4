"""Self-contained HTML pages: a summary table and one section per graph (pair).

Layer: render. A page is built from plain data — :class:`Summary` rows
and :class:`Section` s, each with one or two :class:`Figure` s (a DOT
graph to lay out, or the text of a graph that does not parse) — then
every figure is laid out by Graphviz in one go (:func:`~.layout.lay_out`;
the two sides of a pair on one layout, :func:`~.union.lay_out_pairs`)
and inlined as SVG. The style sheet and the script are inlined too
(``static/``): the page loads nothing from anywhere, so it can be mailed,
archived or opened offline.

A page must stay light enough for a browser with thousands of graphs:
each section's body (its drawings, triples and units) is stored gzipped
and base64-encoded in a ``<script type="text/x-amrcheck-gzip">`` data
block, and the page's script inflates it when the section comes near the
screen. :func:`expanded` gives the page with every body inflated, for
tools that read the page as text.
"""

from __future__ import annotations

import base64
import gzip
import json
import os
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache
from html import escape
from importlib import resources

from .compare import Link, TripleRow, UnitRow
from .drawing import status_legend
from .layout import lay_out
from .scene import variable_key
from .union import PairDrawing, lay_out_pairs
from .words import WordChip


@dataclass(slots=True)
class Figure:
    """One drawing of a section: a DOT graph, or a graph's text and errors."""

    caption: str
    dot: str | None = None
    #: the text shown instead of a drawing (a graph that does not parse)
    text: str | None = None
    errors: list[str] = field(default_factory=list)
    #: ``candidate`` or ``reference`` (their element ids start ``c``/``r``)
    side: str = "candidate"
    #: a UMR sentence's words, shown under the drawing with their nodes
    words: list[WordChip] | None = None


@dataclass(slots=True)
class Section:
    """One graph, or pair of graphs, of the report."""

    sid: str
    title: str
    status: str
    figures: list[Figure]
    headline: str = ""
    sentence: str | None = None
    links: list[Link] = field(default_factory=list)
    triples: list[TripleRow] = field(default_factory=list)
    units: list[UnitRow] = field(default_factory=list)
    #: what the units are (``motif``, ``node flow`` ...), for their heading
    unit: str | None = None
    #: extra lines under the headline (metadata changes, notes)
    notes: list[str] = field(default_factory=list)
    #: both sides on one layout: ``figures`` are then the reference's and
    #: the candidate's (without ``dot``), drawn from this
    drawing: PairDrawing | None = None


@dataclass(frozen=True, slots=True)
class Cell:
    text: str
    #: the value sorted on (None: the text)
    value: float | str | None = None

    @property
    def numeric(self) -> bool:
        return isinstance(self.value, (int, float))


@dataclass(slots=True)
class SummaryRow:
    cells: list[Cell]
    status: str
    #: the section this row links to (None: no drawing, e.g. unchanged)
    sid: str | None = None


@dataclass(slots=True)
class Summary:
    columns: list[str]
    rows: list[SummaryRow]
    #: the values of the status filter, in order
    statuses: list[str]
    #: the status of pairs that do not differ (``unchanged``, ``identical``):
    #: the page opens on every other one
    same: str | None = None


def number(value: float | None, digits: int = 4) -> Cell:
    """A numeric cell (``-`` and sorted last when None)."""
    if value is None:
        return Cell("-", "")
    return Cell(f"{value:.{digits}f}", value)


@cache
def _asset(name: str) -> str:
    return (resources.files(__package__) / "static" / name).read_text("utf-8")


def page(
    title: str,
    facts: Sequence[str],
    summary: Summary,
    sections: Sequence[Section],
    tooltips: dict[str, str],
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
    roles: tuple[str, str] | None = None,
) -> str:
    """The whole HTML page; every figure is laid out here (``jobs`` processes).

    ``facts`` are lines under the title (files, metric, settings, score);
    ``tooltips`` maps element ids to the text their SVG ``<title>`` shows;
    ``roles`` names the two graphs of a pair (``("old", "new")``,
    ``("reference", "candidate")``) in the legend and the triple tables
    (None: single graphs, no legend).
    """
    svg_of = _drawn(sections, tooltips, jobs, progress)
    parts = [
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n",
        f"<title>{escape(title)}</title>\n",
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n',
        f"<style>\n{_asset('report.css')}</style>\n</head>\n<body>\n<header>\n",
        f"<h1>{escape(title)}</h1>\n",
        *(f"<p>{escape(line)}</p>\n" for line in facts),
    ]
    if roles is not None:
        parts.append(_legend(roles))
    parts.append("</header>\n<main>\n")
    parts.append(_summary(summary))
    for section in sections:
        parts.append(_section(section, svg_of, roles or ("reference", "candidate")))
    parts.append(f"</main>\n<script>\n{_asset('report.js')}</script>\n</body>\n</html>\n")
    return "".join(parts)


def _drawn(
    sections: Sequence[Section],
    tooltips: dict[str, str],
    jobs: int,
    progress: Callable[[int], None] | None,
) -> dict[int, str]:
    """Each figure's SVG (by the figure's id()): single graphs laid out one
    by one, the sides of a pair on their pair's layout."""
    single = [f for s in sections for f in s.figures if f.dot is not None]
    pairs = [s for s in sections if s.drawing is not None]
    svgs = lay_out([f.dot for f in single if f.dot is not None], jobs, progress,
                   tooltips.get)
    svg_of = {id(f): svg for f, svg in zip(single, svgs, strict=True)}
    drawings = [s.drawing for s in pairs if s.drawing is not None]
    for section, sides in zip(
        pairs, lay_out_pairs(drawings, jobs, progress, tooltips.get), strict=True
    ):
        for figure, svg in zip(section.figures, sides, strict=True):
            svg_of[id(figure)] = svg
    return svg_of


def expanded(html: str) -> str:
    """``html`` (a page of this module) with every section's body inflated
    in place, as plain HTML: for tools that read the page as text."""
    return _PACKED_RE.sub(lambda m: _inflate(m.group(1)), html)


_PACKED_TYPE = "text/x-amrcheck-gzip"
_PACKED_RE = re.compile(
    rf'<script type="{re.escape(_PACKED_TYPE)}" class="packed">'
    r"([A-Za-z0-9+/=]*)</script>"
)


def _pack(html: str) -> str:
    data = base64.b64encode(gzip.compress(html.encode("utf-8"), 9, mtime=0))
    return (
        f'<script type="{_PACKED_TYPE}" class="packed">{data.decode("ascii")}'
        "</script>"
    )


def _inflate(data: str) -> str:
    return gzip.decompress(base64.b64decode(data)).decode("utf-8")


def shown_path(path: str) -> str:
    """A file's path as a report shows it: relative to the working folder,
    unless the absolute path is shorter (a file far outside it)."""
    if path.startswith("<"):  # <string>, <stdin>: not a file
        return path
    absolute = os.path.abspath(path)
    try:
        relative = os.path.relpath(absolute)
    except ValueError:  # another drive (Windows)
        return absolute
    return relative if len(relative) <= len(absolute) else absolute


def _legend(roles: tuple[str, str]) -> str:
    items = "".join(
        f'<li><span class="swatch {status}"></span>{escape(status)}: '
        f"{escape(meaning)}</li>"
        for status, meaning in status_legend(
            (f"the {roles[0]}", f"the {roles[1]}")
        ).items()
    )
    items += (
        '<li><span class="swatch root"></span>root (double border)</li>'
        "<li>hover a node: its aligned partner lights up</li>"
    )
    return f'<ul class="legend">{items}</ul>\n'


def _summary(summary: Summary) -> str:
    counts = {status: 0 for status in summary.statuses}
    for row in summary.rows:
        counts[row.status] = counts.get(row.status, 0) + 1
    options = []
    if summary.same is not None:
        differ = len(summary.rows) - counts.get(summary.same, 0)
        options.append(
            f'<option value="!{escape(summary.same)}" selected>all but '
            f"{escape(summary.same)} ({differ})</option>"
        )
    options.append(f'<option value="all">all ({len(summary.rows)})</option>')
    options += [
        f'<option value="{escape(s)}">{escape(s)} ({counts[s]})</option>'
        for s in summary.statuses
    ]
    head = "".join(f"<th>{escape(c)}</th>" for c in summary.columns)
    rows = []
    for row in summary.rows:
        cells = []
        for k, cell in enumerate(row.cells):
            text = escape(cell.text)
            if k == 0 and row.sid is not None:
                text = f'<a href="#{row.sid}">{text}</a>'
            value = "" if cell.value is None else f' data-v="{escape(str(cell.value))}"'
            kind = "num" if cell.numeric else "text" if len(cell.text) > 40 else ""
            cls = f' class="{kind}"' if kind else ""
            cells.append(f"<td{cls}{value}>{text}</td>")
        section = f' data-section="{row.sid}"' if row.sid else ""
        # hidden from the start by the opening filter: a browser then lays
        # out only the rows shown (the script filters the same way)
        hidden = ' class="hidden"' if row.status == summary.same else ""
        rows.append(
            f'<tr data-status="{escape(row.status)}"{section}{hidden}>'
            f'{"".join(cells)}</tr>\n'
        )
    return (
        '<div class="controls"><label>show <select id="status-filter">'
        f'{"".join(options)}</select></label>'
        '<input type="search" id="text-filter" placeholder="filter by id or text">'
        '<span class="shown" id="shown"></span></div>\n'
        f'<div class="scroll"><table class="summary"><thead><tr>{head}</tr></thead>'
        f"<tbody>\n{''.join(rows)}</tbody></table></div>\n"
    )


_SVG_SIZE_RE = re.compile(r'<svg width="([\d.]+)pt" height="([\d.]+)pt"')


def _size(svg: str) -> tuple[float, float]:
    """An SVG's natural size in CSS pixels (Graphviz writes points)."""
    found = _SVG_SIZE_RE.match(svg)
    if found is None:
        return 0.0, 0.0
    return float(found.group(1)) * 4 / 3, float(found.group(2)) * 4 / 3


def _figure(figure: Figure, svg_of: dict[int, str]) -> str:
    svg = svg_of.get(id(figure), "")
    width, _ = _size(svg)
    # the figure asks for the drawing's natural width: two that do not fit
    # side by side wrap, one above the other
    style = f' style="--w:{width:.0f}px"' if svg else ""
    body = f'<div class="canvas">{svg}</div>' if svg else ""
    if figure.text is not None:
        body += f'<pre class="unparsed">{escape(figure.text)}</pre>'
    if figure.words is not None:
        body += _words(figure.words)
    if figure.errors:
        body += '<ul class="errors">' + "".join(
            f"<li>{escape(e)}</li>" for e in figure.errors
        ) + "</ul>"
    return (
        f'<figure class="side {figure.side}"{style}><figcaption>'
        f"{escape(figure.caption)}</figcaption>{body}</figure>"
    )


def _section(
    section: Section, svg_of: dict[int, str], roles: tuple[str, str]
) -> str:
    links = json.dumps(
        [[k.candidate, k.reference, round(k.weight, 4)] for k in section.links]
    )
    status = escape(section.status)
    parts = [
        f'<section class="pair" id="{section.sid}" data-status="{status}"'
        f' data-links="{escape(links)}">\n<h2><a href="#{section.sid}">'
        f'{escape(section.title)}</a><span class="badge {status}">'
        f"{status}</span><span>{escape(section.headline)}</span></h2>\n",
    ]
    if section.sentence:
        parts.append(f'<p class="snt">{escape(section.sentence)}</p>\n')
    parts.extend(f'<p class="note">{escape(note)}</p>\n' for note in section.notes)
    body = ['<div class="sides">']
    body.extend(_figure(figure, svg_of) for figure in section.figures)
    body.append('</div>\n<p class="hint" aria-live="polite"></p>\n')
    if section.triples:
        body.append(_triples(section.triples, roles))
    if section.units:
        body.append(_units(section.units, section.unit))
    # room kept for the body until it is drawn, so that the page does not
    # jump as sections above the one in view are filled in
    height = max((_size(svg_of.get(id(f), ""))[1] for f in section.figures), default=0)
    height += 80 + 22 * sum(row.status != "matched" for row in section.triples)
    parts.append(
        f'<div class="body" style="min-height:{height:.0f}px">'
        f"{_pack(''.join(body))}</div>\n</section>\n"
    )
    return "".join(parts)


def _words(chips: Sequence[WordChip]) -> str:
    """The sentence's words under a drawing; each names the nodes aligned to
    it (``data-n``: scene keys), for the hover link (``report.js``)."""
    if not chips:
        return '<p class="words none">no words (no Words row)</p>'
    items = []
    for chip in chips:
        keys = " ".join(variable_key(v) for v in chip.variables)
        aligned = ", ".join(chip.variables) if chip.variables else "no node"
        gloss = (
            f'<span class="gloss">{escape(chip.gloss)}</span>' if chip.gloss else ""
        )
        items.append(
            f'<span class="w{"" if chip.variables else " free"}" '
            f'data-i="{chip.position}" data-n="{escape(keys)}" '
            f'title="{chip.position}: {escape(chip.text)} → {escape(aligned)}">'
            f'<span class="i">{chip.position}</span><span class="t">{escape(chip.text)}'
            f"</span>{gloss}</span>"
        )
    return f'<p class="words">{"".join(items)}</p>'


_SIGNS = {"matched": "=", "missing": "-", "extra": "+", "relabelled": "~"}


def _tokens(text: str) -> str:
    """Text that wraps only between its words (never inside ``tire-03``)."""
    return " ".join(
        f'<span class="tok">{escape(word)}</span>' for word in text.split(" ") if word
    )


def _triples(rows: Sequence[TripleRow], roles: tuple[str, str]) -> str:
    """The differences open, the matched triples folded under them."""
    counts: dict[str, int] = {}
    for row in rows:
        counts[row.status] = counts.get(row.status, 0) + 1
    summary = ", ".join(f"{n} {status}" for status, n in counts.items())
    differ = [row for row in rows if row.status != "matched"]
    same = [row for row in rows if row.status == "matched"]
    head = _triple_head(rows, roles)
    folded = (
        f"<details><summary>{len(same)} matched</summary>"
        f'<table class="triples">\n{head}{_triple_rows(same)}</table></details>'
        if same else ""
    )
    return (
        f'<details class="triples"{" open" if differ else ""}><summary>triples: '
        f'{escape(summary)}</summary><table class="triples">\n'
        f"{head}{_triple_rows(differ)}</table>{folded}</details>\n"
    )


def _triple_head(rows: Sequence[TripleRow], roles: tuple[str, str]) -> str:
    """The files once, above the places (``line:col``) of each side."""
    cells = []
    for name, side in zip(roles, ("reference", "candidate"), strict=True):
        path = next(
            (p.path for row in rows if (p := getattr(row, side)) is not None), None
        )
        shown = f"{name} · {shown_path(path)}" if path else name
        cells.append(f'<th colspan="2">{escape(shown)}</th>')
    return f'<tr><th></th>{"".join(cells)}</tr>\n'


def _triple_rows(rows: Sequence[TripleRow]) -> str:
    body = []
    for row in rows:
        cells = []
        for side, place in (("ref", row.reference), ("cand", row.candidate)):
            if place is None:
                cells.append(f'<td class="{side}"></td><td class="{side}"></td>')
            else:
                cells.append(
                    f'<td class="{side} place">{place.line}:{place.column}</td>'
                    f'<td class="{side}"><code>{_tokens(place.text)}</code></td>'
                )
        body.append(
            f'<tr class="{row.status}" data-c="{escape(" ".join(row.candidate_keys))}"'
            f' data-r="{escape(" ".join(row.reference_keys))}"><td class="sign">'
            f"{_SIGNS[row.status]}</td>{''.join(cells)}</tr>\n"
        )
    return "".join(body)


def _units(rows: Sequence[UnitRow], unit: str | None) -> str:
    groups: dict[str, list[UnitRow]] = {}
    for row in rows:
        groups.setdefault(row.group, []).append(row)
    body = []
    for group, items in groups.items():
        lines = "".join(
            f"<li><code>{_tokens(item.text)}</code> "
            + " ".join(
                f'<span class="place">{escape(shown_path(p.path))}:{p.line}:'
                f"{p.column}</span>"
                for p in item.places
            )
            + "</li>"
            for item in items
        )
        body.append(f"<p>{escape(group)} ({len(items)})</p><ul>{lines}</ul>")
    name = f"{unit}s" if unit else "units"
    counts = ", ".join(f"{len(v)} {k}" for k, v in groups.items())
    return (
        f'<details class="units"><summary>{escape(name)} of the metric: '
        f"{escape(counts)}</summary>{''.join(body)}</details>\n"
    )
