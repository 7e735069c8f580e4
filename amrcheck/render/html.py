"""Self-contained HTML pages: a summary table and one section per graph (pair).

Layer: render. A page is built from plain data — :class:`Summary` rows
and :class:`Section` s, each with one or two :class:`Figure` s (a DOT
graph to lay out, or the text of a graph that does not parse) — then
every figure is laid out by Graphviz in one go (:func:`~.layout.lay_out`)
and inlined as SVG. The style sheet and the script are inlined too
(``static/``): the page loads nothing from anywhere, so it can be mailed,
archived or opened offline.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache
from html import escape
from importlib import resources

from .compare import Link, TripleRow, UnitRow
from .drawing import STATUS_LEGEND
from .layout import lay_out


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
    legend: bool = True,
) -> str:
    """The whole HTML page; every figure is laid out here (``jobs`` processes).

    ``facts`` are lines under the title (files, metric, settings, score);
    ``tooltips`` maps element ids to the text their SVG ``<title>`` shows.
    """
    drawn = [f for s in sections for f in s.figures if f.dot is not None]
    svgs = iter(
        lay_out([f.dot for f in drawn if f.dot is not None], jobs, progress,
                tooltips.get)
    )
    svg_of = {id(f): next(svgs) for f in drawn}
    parts = [
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n",
        f"<title>{escape(title)}</title>\n",
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n',
        f"<style>\n{_asset('report.css')}</style>\n</head>\n<body>\n<header>\n",
        f"<h1>{escape(title)}</h1>\n",
        *(f"<p>{escape(line)}</p>\n" for line in facts),
    ]
    if legend:
        parts.append(_legend())
    parts.append("</header>\n<main>\n")
    parts.append(_summary(summary))
    for section in sections:
        parts.append(_section(section, svg_of))
    parts.append(f"</main>\n<script>\n{_asset('report.js')}</script>\n</body>\n</html>\n")
    return "".join(parts)


def _legend() -> str:
    items = "".join(
        f'<li><span class="swatch {status}"></span>{escape(status)}: '
        f"{escape(meaning)}</li>"
        for status, meaning in STATUS_LEGEND.items()
    )
    items += (
        '<li><span class="swatch root"></span>root (double border)</li>'
        "<li>hover a node: its aligned partner lights up</li>"
    )
    return f'<ul class="legend">{items}</ul>\n'


def _summary(summary: Summary) -> str:
    options = "".join(
        f'<option value="{escape(s)}">{escape(s)}</option>' for s in summary.statuses
    )
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
        rows.append(
            f'<tr data-status="{escape(row.status)}"{section}>{"".join(cells)}</tr>\n'
        )
    return (
        '<div class="controls"><label>show <select id="status-filter">'
        f'<option value="all">all</option>{options}</select></label>'
        '<input type="search" id="text-filter" placeholder="filter by id or text">'
        '<span class="shown" id="shown"></span></div>\n'
        f'<div class="scroll"><table class="summary"><thead><tr>{head}</tr></thead>'
        f"<tbody>\n{''.join(rows)}</tbody></table></div>\n"
    )


def _figure(figure: Figure, svg_of: dict[int, str]) -> str:
    body = svg_of.get(id(figure), "")
    if figure.text is not None:
        body += f'<pre class="unparsed">{escape(figure.text)}</pre>'
    if figure.errors:
        body += '<ul class="errors">' + "".join(
            f"<li>{escape(e)}</li>" for e in figure.errors
        ) + "</ul>"
    return (
        f'<figure class="side {figure.side}"><figcaption>{escape(figure.caption)}'
        f"</figcaption>{body}</figure>"
    )


def _section(section: Section, svg_of: dict[int, str]) -> str:
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
    parts.append('<div class="sides">')
    parts.extend(_figure(figure, svg_of) for figure in section.figures)
    parts.append('</div>\n<p class="hint" aria-live="polite"></p>\n')
    if section.triples:
        parts.append(_triples(section.triples))
    if section.units:
        parts.append(_units(section.units, section.unit))
    parts.append("</section>\n")
    return "".join(parts)


_SIGNS = {"matched": "=", "missing": "-", "extra": "+", "relabelled": "~"}


def _triples(rows: Sequence[TripleRow]) -> str:
    """The differences open, the matched triples folded under them."""
    counts: dict[str, int] = {}
    for row in rows:
        counts[row.status] = counts.get(row.status, 0) + 1
    summary = ", ".join(f"{n} {status}" for status, n in counts.items())
    differ = [row for row in rows if row.status != "matched"]
    same = [row for row in rows if row.status == "matched"]
    folded = (
        f"<details><summary>{len(same)} matched</summary>"
        f'<table class="triples">\n{_triple_rows(same)}</table></details>'
        if same else ""
    )
    return (
        f'<details class="triples"{" open" if differ else ""}><summary>triples: '
        f'{escape(summary)}</summary><table class="triples">\n'
        f"{_triple_rows(differ)}</table>{folded}</details>\n"
    )


def _triple_rows(rows: Sequence[TripleRow]) -> str:
    body = []
    for row in rows:
        cells = []
        for side, place in (("ref", row.reference), ("cand", row.candidate)):
            if place is None:
                cells.append(f'<td class="{side}"></td><td class="{side}"></td>')
            else:
                cells.append(
                    f'<td class="{side} place">{escape(place.path)}:{place.line}:'
                    f'{place.column}</td><td class="{side}"><code>'
                    f"{escape(place.text)}</code></td>"
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
            f"<li><code>{escape(item.text)}</code> "
            + " ".join(
                f'<span class="place">{escape(p.path)}:{p.line}:{p.column}</span>'
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
