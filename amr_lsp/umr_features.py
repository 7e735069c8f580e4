"""The editor's UMR features over one :class:`~amr_lsp.umr.UmrAnalysis`.

Outline, hover, definition and references, completion, quick fixes and
formatting. Every answer comes from the reader's placed items (graph
triples, alignment lines, document-level triples, words) and the
validator's inventories (:mod:`amrcheck.validation.umr_inventory`); these
functions only find what is under the cursor and build LSP values.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum

from lsprotocol import types

from amrcheck import Finding, TripleKind
from amrcheck.reading.layout import reindent_graph
from amrcheck.reading.umr import HEADINGS, BlockKind, UmrSentence
from amrcheck.span import Span
from amrcheck.validation.umr_inventory import DOCUMENT_RELATIONS, ROLES

from .umr import UmrAnalysis

#: document-level relations (and their groups) listed at most in one hover
HOVER_RELATIONS = 12


class Kind(str, Enum):
    DEFINITION = "definition"  # ``(s1p / person``
    REFERENCE = "reference"  # ``:ARG0 s1p``
    ALIGNMENT = "alignment"  # ``s1p: 2-2``
    DOCUMENT = "document"  # a node in a document-level triple
    WORD = "word"  # a token of the ``Words`` row


@dataclass(frozen=True, slots=True)
class Occurrence:
    """A name (or word) at ``start:end`` (engine offsets of the document)."""

    name: str
    kind: Kind
    sentence: int  # index of the sentence
    start: int
    end: int
    detail: int = 0  # the word's 1-based index (WORD)


def occurrences(analysis: UmrAnalysis, index: int) -> list[Occurrence]:
    """Every variable occurrence and word of sentence ``index``."""
    sentence = analysis.reads[index].sentence
    found = []

    def add(name: str, kind: Kind, span: Span, detail: int = 0) -> None:
        start, end = analysis.offset_of(span)
        found.append(Occurrence(name, kind, index, start, end, detail))

    graph = sentence.graph
    if graph is not None:
        defined = {
            graph.offsets[i][0]
            for i, kind in enumerate(graph.kinds) if kind is TripleKind.INSTANCE
        }
        for i, ((source, _, target), kind) in enumerate(
            zip(graph.triples, graph.kinds, strict=True)
        ):
            if kind is TripleKind.INSTANCE:
                add(source, Kind.DEFINITION, graph.role_span(i))
            elif (
                kind is TripleKind.RELATION or _is_node(target)
            ) and graph.offsets[i][2] not in defined:  # re-entrancy, not a nested node
                add(target, Kind.REFERENCE, graph.target_span(i))
    for line in sentence.alignments:
        add(line.variable, Kind.ALIGNMENT,
            sentence.span_of(line.start, line.start + len(line.variable)))
    document = sentence.document
    if document.variable is not None and document.variable_place is not None:
        place = sentence.span_of(*document.variable_place)
        add(document.variable, Kind.DEFINITION, place)
    for triple in document.triples:
        add(triple.source, Kind.DOCUMENT, sentence.span_of(*triple.places[0]))
        add(triple.target, Kind.DOCUMENT, sentence.span_of(*triple.places[2]))
    for number, word in enumerate(sentence.words, 1):
        add(word.text, Kind.WORD, sentence.span_of(word.start, word.end), number)
    return found


_NODE_RE = re.compile(r"s[0-9]+[^\W\d_]+[0-9]*")


def _is_node(name: str) -> bool:
    return _NODE_RE.fullmatch(name) is not None


def at(analysis: UmrAnalysis, offset: int) -> Occurrence | None:
    """The occurrence under engine ``offset`` (end inclusive)."""
    found = analysis.sentence_at(offset)
    if found is None:
        return None
    index = found[0].index
    for occurrence in occurrences(analysis, index):
        if occurrence.start <= offset <= occurrence.end:
            return occurrence
    return None


def _all(analysis: UmrAnalysis, name: str) -> list[Occurrence]:
    """Every occurrence of variable ``name`` in the document (words aside)."""
    return [
        o
        for index in range(len(analysis.reads))
        if name in analysis.reads[index].names
        for o in occurrences(analysis, index)
        if o.name == name and o.kind is not Kind.WORD
    ]


def _location(analysis: UmrAnalysis, occurrence: Occurrence) -> types.Location:
    return types.Location(
        uri=analysis.uri, range=analysis.lines.range(occurrence.start, occurrence.end)
    )


# -- navigation --------------------------------------------------------------------


def definition(analysis: UmrAnalysis, offset: int) -> types.Location | None:
    """Where the variable under ``offset`` is defined (in any sentence)."""
    here = at(analysis, offset)
    if here is None or here.kind is Kind.WORD:
        return None
    for occurrence in _all(analysis, here.name):
        if occurrence.kind is Kind.DEFINITION:
            return _location(analysis, occurrence)
    return None


def references(
    analysis: UmrAnalysis, offset: int, include_declaration: bool
) -> list[types.Location]:
    """The variable's occurrences in graphs, alignments and document blocks."""
    here = at(analysis, offset)
    if here is None or here.kind is Kind.WORD:
        return []
    return [
        _location(analysis, o)
        for o in _all(analysis, here.name)
        if include_declaration or o.kind is not Kind.DEFINITION
    ]


# -- outline -----------------------------------------------------------------------


def symbols(analysis: UmrAnalysis) -> list[types.DocumentSymbol]:
    """One symbol per sentence (its number and words), its nodes as children."""
    result = []
    for read in analysis.reads:
        sentence = read.sentence
        whole = analysis.local_range(sentence, sentence.start, sentence.end)
        words = " ".join(w.text for w in sentence.words)
        children = []
        graph = sentence.graph
        if graph is not None:
            for i, ((var, _, concept), kind) in enumerate(
                zip(graph.triples, graph.kinds, strict=True)
            ):
                if kind is TripleKind.INSTANCE:
                    place = analysis.range_of(graph.role_span(i))
                    children.append(
                        types.DocumentSymbol(
                            name=var, detail=concept, kind=types.SymbolKind.Variable,
                            range=place, selection_range=place,
                        )
                    )
        selection = whole
        if sentence.number_places:
            _, start, end = sentence.number_places[0]
            selection = analysis.local_range(sentence, start, end)
        result.append(
            types.DocumentSymbol(
                name=sentence.label,
                detail=words or None,
                kind=types.SymbolKind.Struct,
                range=whole,
                selection_range=selection,
                children=children or None,
            )
        )
    return result


# -- hover -------------------------------------------------------------------------


def hover(analysis: UmrAnalysis, offset: int) -> tuple[str, types.Range] | None:
    """Markdown for the variable or word under ``offset``, and its range."""
    here = at(analysis, offset)
    if here is None:
        return None
    place = analysis.lines.range(here.start, here.end)
    if here.kind is Kind.WORD:
        return _word_hover(analysis, here), place
    return _variable_hover(analysis, here.name), place


def _word_hover(analysis: UmrAnalysis, word: Occurrence) -> str:
    sentence = analysis.reads[word.sentence].sentence
    nodes = concepts(sentence)
    aligned = [
        line.variable for line in sentence.alignments
        if any(a <= word.detail <= b for a, b in line.ranges)
    ]
    lines = [f"word {word.detail} **{word.name}**"]
    lines[0] += "".join(
        f" · {name}: {items[word.detail - 1]}"
        for name, items in word_rows(sentence)
        if 0 < word.detail <= len(items)
    )
    if aligned:
        lines.extend(f"- `{v}` / {nodes.get(v, '?')}" for v in aligned)
    else:
        lines.append("aligned to no node")
    return "\n\n".join(lines[:1]) + "\n\n" + "\n".join(lines[1:])


def concepts(sentence: UmrSentence) -> dict[str, str]:
    """Variable -> concept of the sentence's nodes (those read if its graph is not)."""
    if sentence.graph is not None:
        return sentence.graph.variables()
    return dict(sentence.fallback_nodes)


def _variable_hover(analysis: UmrAnalysis, name: str) -> str:
    parts = []
    relations: list[str] = []
    for read in analysis.reads:
        sentence = read.sentence
        concept = concepts(sentence).get(name)
        if concept is not None:
            parts.append(f"**{name}** / {concept} ({sentence.label})")
            parts.append(aligned_words(sentence, name))
        if name in read.names:
            relations.extend(
                f"- {t.group} `{t.source} {t.relation} {t.target}` ({sentence.label})"
                for t in sentence.document.triples
                if name in (t.source, t.target)
            )
    if not parts:
        parts.append(f"**{name}**")
    if relations:
        more = len(relations) - HOVER_RELATIONS
        shown = relations[:HOVER_RELATIONS]
        if more > 0:
            shown.append(f"- … and {more} more")
        parts.append("document level:\n" + "\n".join(shown))
    return "\n\n".join(parts)


#: interlinear rows with one item per word (a glossed language's glosses,
#: morphemes, parts of speech; UMR 1.0's ``ge``, ``mb``, ``ps``)
_WORD_ROWS = ("Word Gloss", "Morphemes", "Part of Speech", "ge", "mb", "ps")


def word_rows(sentence: UmrSentence) -> list[tuple[str, list[str]]]:
    """The sentence's rows with one item per word, by name (``Word Gloss
    (en)``); a row whose length is not the words' (U108) is left out, as
    its items would gloss the wrong words."""
    count = len(sentence.words)
    return [
        (row.name, [item.text for item in row.items])
        for row in sentence.rows
        if row.header in _WORD_ROWS and len(row.items) == count
    ]


def aligned_words(sentence: UmrSentence, name: str) -> str:
    """``aligned to 2-3 “left Paris”``: what the alignment block says of
    ``name``; in a glossed sentence with each word's gloss (``aligned to 1-1
    “Ninakupenda” (1SG.love)``)."""
    words = sentence.words
    glosses = next(
        (items for row, items in word_rows(sentence) if row.startswith("Word Gloss")),
        None,
    )
    for line in sentence.alignments:
        if line.variable != name:
            continue
        if line.error is not None:
            return f"alignment: {line.error}"
        if line.ranges == [(0, 0)]:
            return "aligned to no word (0-0)"
        texts = []
        for a, b in line.ranges:
            text = f"{a}-{b} “{' '.join(w.text for w in words[a - 1 : b])}”"
            if glosses is not None and glosses[a - 1 : b]:
                text += f" ({' '.join(glosses[a - 1 : b])})"
            texts.append(text)
        return "aligned to " + ", ".join(texts)
    return "no alignment line"


# -- completion --------------------------------------------------------------------

_WORD_RE = re.compile(r'[^\s()"]*$')
_ROLE_BEFORE_RE = re.compile(r"(:[^\s()\"]+)\s+$")


def completion(analysis: UmrAnalysis, offset: int, text: str) -> types.CompletionList:
    """Roles in graphs, relations in document blocks, values after a role."""
    found = analysis.sentence_at(offset)
    empty = types.CompletionList(is_incomplete=False, items=[])
    if found is None:
        return empty
    sentence, local = found
    block = _block_at(sentence, local)
    line_start = text.rfind("\n", 0, offset) + 1
    before = text[line_start:offset]
    typed = _WORD_RE.search(before)
    prefix = typed.group(0) if typed else ""
    if block is BlockKind.GRAPH:
        if prefix.startswith(":"):
            labels = [f":{name}" for name in sorted(ROLES)]
            return _items(labels, types.CompletionItemKind.Field, prefix)
        role = _ROLE_BEFORE_RE.search(before[: len(before) - len(prefix)])
        if role:
            kind = ROLES.get(role.group(1)[1:])
            if kind is not None and kind.values:
                return _items(sorted(kind.values), types.CompletionItemKind.EnumMember,
                              prefix)
        return empty
    if block is BlockKind.DOCUMENT and prefix.startswith(":"):
        labels = sorted(DOCUMENT_RELATIONS) + sorted(
            {r for relations in DOCUMENT_RELATIONS.values() for r in relations}
        )
        return _items(labels, types.CompletionItemKind.Field, prefix)
    return empty


def _block_at(sentence: UmrSentence, local: int) -> BlockKind | None:
    current = None
    for kind, block in sorted(sentence.blocks.items()):
        begin = block.heading[0] if block.heading else block.start
        if begin <= local:
            current = kind
    return current


def _items(
    labels: list[str], kind: types.CompletionItemKind, prefix: str
) -> types.CompletionList:
    return types.CompletionList(
        is_incomplete=False,
        items=[
            types.CompletionItem(label=label, kind=kind)
            for label in labels
            if label.startswith(prefix)
        ],
    )


# -- quick fixes -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class UmrFix:
    title: str
    edits: list[tuple[int, int, str]]  # engine offsets and the new text


def fix_for(analysis: UmrAnalysis, finding: Finding) -> UmrFix | None:
    """The certain fix of ``finding``, if it has one."""
    start, end = analysis.offset_of(finding.span)
    if finding.code == "U001":
        return UmrFix("Remove trailing white space", [(start, end, "")])
    if finding.code == "U006":
        heading = next(
            (h for h in HEADINGS.values() if repr(h) in finding.message), None
        )
        if heading is None:
            return None
        shift = analysis.lines.shift
        line = analysis.lines.text.rfind("\n", 0, start + shift) + 1 - shift
        return UmrFix(f"Add the heading '{heading}'", [(line, line, heading + "\n")])
    if finding.code == "U304":
        variable = finding.span.text
        found = analysis.sentence_at(start)
        if found is None:
            return None
        sentence = found[0]
        block = sentence.blocks.get(BlockKind.ALIGNMENT)
        if block is None:
            return None
        where = analysis.local(sentence, block.end, block.end)[0]
        return UmrFix(f"Add '{variable}: 0-0' (aligned to no word)",
                      [(where, where, f"\n{variable}: 0-0")])
    return None


def code_actions(
    analysis: UmrAnalysis, start: int, end: int
) -> list[types.CodeAction]:
    actions = []
    for finding in analysis.findings:
        first, last = analysis.offset_of(finding.span)
        if last < start or first > end:
            continue
        fix = fix_for(analysis, finding)
        if fix is None:
            continue
        actions.append(
            types.CodeAction(
                title=fix.title,
                kind=types.CodeActionKind.QuickFix,
                diagnostics=[analysis.diagnostic(finding)],
                is_preferred=True,
                edit=types.WorkspaceEdit(
                    changes={
                        analysis.uri: [
                            types.TextEdit(range=analysis.lines.range(a, b), new_text=t)
                            for a, b, t in fix.edits
                        ]
                    }
                ),
            )
        )
    return actions


# -- formatting --------------------------------------------------------------------


def format_edits(
    analysis: UmrAnalysis, unit: str, within: tuple[int, int] | None = None
) -> list[types.TextEdit]:
    """Re-indent the sentence graphs (only their lines' indentation: the
    other blocks and the graphs' line breaks stay as written)."""
    edits = []
    for read in analysis.reads:
        sentence = read.sentence
        graph = sentence.graph
        if graph is None:
            continue
        if within is not None:
            first, last = analysis.offset_of(graph.span)
            if last < within[0] or first > within[1]:
                continue
        for edit in reindent_graph(graph, unit):
            a, b = analysis.offset_of(Span(graph.source, edit.start, edit.end))
            edits.append(
                types.TextEdit(range=analysis.lines.range(a, b), new_text=edit.new_text)
            )
    return edits
