"""Completion: roles (frame-aware ``:ARGn``), concepts, and the graph's variables.

Completion runs while the annotator types, so the graph under the cursor
is usually unfinished and the engine has no decoded graph for it. The
context (what is being typed, which node encloses the cursor) is read
from the raw text with a small scanner that knows strings and comments;
the vocabulary comes from the engine (the PropBank inventory) and
penman's AMR role model.
"""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass

from lsprotocol import types
from penman.models.amr import model as _amr_model

from amrcheck import Entry
from amrcheck.reading.tokens import (
    BRACKET_SCAN_RE,
    NODE_HEAD_RE,
    OPEN_ROLE_RE,
    PARTIAL_TOKEN_RE,
)
from amrcheck.validation.propbank import FrameInventory

from .convert import LineIndex

#: most items returned for a concept prefix (the list is marked incomplete)
MAX_CONCEPTS = 100

_PATTERN_CHARS = set("[]()+*?\\")


def _amr_roles() -> list[str]:
    """penman's role inventory with its patterns spelled out (``:ARG0``…)."""
    roles = [r for r in _amr_model.roles if not _PATTERN_CHARS & set(r)]
    roles += [f":ARG{n}" for n in range(6)]
    roles += [f":op{n}" for n in range(1, 6)]
    roles += [f":snt{n}" for n in range(1, 4)]
    return sorted(set(roles))


ROLES = _amr_roles()


@dataclass(frozen=True, slots=True)
class Context:
    """What is being typed at the cursor."""

    kind: str  # "role", "concept", "variable" or "none"
    prefix: str
    prefix_start: int
    #: concept of the innermost open node (for frame-aware :ARGn)
    node_concept: str | None


def context_at(text: str, start: int, offset: int) -> Context:
    """Read the typing context of ``text[start:offset]`` (one entry's text).

    Example:
        >>> c = context_at("(w / want-01 :AR", 0, 16)
        >>> c.kind, c.prefix, c.node_concept
        ('role', ':AR', 'want-01')
        >>> context_at("(w / wa", 0, 7).kind
        'concept'
    """
    before = text[start:offset]
    match = PARTIAL_TOKEN_RE.search(before)
    prefix = match.group(0) if match else ""
    prefix_start = offset - len(prefix)
    rest = before[: len(before) - len(prefix)].rstrip()
    open_nodes: list[int] = []
    for token in BRACKET_SCAN_RE.finditer(before):
        if token.group() == "(":
            open_nodes.append(token.start())
        elif token.group() == ")" and open_nodes:
            open_nodes.pop()
    concept = None
    if open_nodes:
        node = NODE_HEAD_RE.match(before, open_nodes[-1])
        concept = node.group(2) if node else None
    if prefix.startswith(":"):
        kind = "role"
    elif rest.endswith("/"):
        kind = "concept"
    elif OPEN_ROLE_RE.search(rest):
        kind = "variable"
    else:
        kind = "none"
    return Context(kind, prefix, prefix_start, concept)


def complete(
    entry: Entry | None,
    text: str,
    offset: int,
    lines: LineIndex,
    frames: FrameInventory,
    frame_names: list[str],
) -> types.CompletionList:
    """Completion items at ``offset`` of the engine ``text``."""
    start = entry.start if entry is not None else 0
    context = context_at(text, start, offset)
    replace = lines.range(context.prefix_start, offset)
    if context.kind == "role":
        items = _role_items(context, frames)
        incomplete = False
    elif context.kind == "concept":
        items, incomplete = _concept_items(context.prefix, frames, frame_names)
    elif context.kind == "variable":
        items = _variable_items(entry, text, offset)
        incomplete = False
    else:
        return types.CompletionList(is_incomplete=False, items=[])
    for item in items:
        item.text_edit = types.TextEdit(range=replace, new_text=item.label)
    return types.CompletionList(is_incomplete=incomplete, items=items)


def _role_items(context: Context, frames: FrameInventory) -> list[types.CompletionItem]:
    items: list[types.CompletionItem] = []
    frame = frames.get(context.node_concept) if context.node_concept else None
    framed: set[str] = set()
    if frame is not None:
        for argument in frame.arguments:
            if not argument.label.startswith("ARG") or "-" in argument.label:
                continue
            role = f":{argument.label}"
            framed.add(role)
            items.append(
                types.CompletionItem(
                    label=role,
                    kind=types.CompletionItemKind.Field,
                    detail=f"{frame.concept}: {argument.description}",
                    sort_text=f"0{role}",
                    filter_text=role,
                )
            )
    for role in ROLES:
        if role in framed:
            continue
        items.append(
            types.CompletionItem(
                label=role,
                kind=types.CompletionItemKind.Property,
                sort_text=f"1{role}",
                filter_text=role,
            )
        )
    return items


def _concept_items(
    prefix: str, frames: FrameInventory, frame_names: list[str]
) -> tuple[list[types.CompletionItem], bool]:
    at = bisect_left(frame_names, prefix)
    names: list[str] = []
    while at < len(frame_names) and frame_names[at].startswith(prefix):
        names.append(frame_names[at])
        at += 1
        if len(names) > MAX_CONCEPTS:
            break
    items = []
    for name in names[:MAX_CONCEPTS]:
        frame = frames[name]
        items.append(
            types.CompletionItem(
                label=name,
                kind=types.CompletionItemKind.Class,
                detail=frame.name or None,
                documentation=frame.describe() or None,
                filter_text=name,
            )
        )
    return items, len(names) > MAX_CONCEPTS


def _variable_items(
    entry: Entry | None, text: str, offset: int
) -> list[types.CompletionItem]:
    if entry is None:
        return []
    if entry.graph is not None:
        variables = entry.graph.variables()
    else:  # an unfinished graph: read its nodes from the text
        variables = {}
        for node in NODE_HEAD_RE.finditer(text, entry.start, max(entry.end, offset)):
            variables.setdefault(node.group(1), node.group(2))
    return [
        types.CompletionItem(
            label=variable,
            kind=types.CompletionItemKind.Variable,
            detail=concept,
            filter_text=variable,
        )
        for variable, concept in variables.items()
    ]
