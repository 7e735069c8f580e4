"""A graph as smatch 1.0.4's reader sees it (SEMA; rematch uses its token rules).

rematch (Rematch-RARE) imports smatch 1.0.4's ``amr.py``, and the SEMA
reference scores were produced with the same reader, so both metrics are
built on what that reader keeps, which is not what the graph says:

* ``:X-of`` is stored as ``:X`` the other way round, except
  ``:consist-of``, ``:prep-out-of`` and ``:prep-on-behalf-of``;
* ``:mod`` is stored as an inverted ``:domain``;
* an inverted role (``:mod`` included) pointing at a constant is filed
  under the constant, which is no node, and so disappears;
* relations and attributes are listed node by node (in definition order),
  for each node first the links resolved while reading, then the ones
  resolved at the end (targets not yet defined when read).

Three habits change what a constant or concept *is* for that reader:

* a closing quote appends ``_``: ``"Brown"`` becomes ``Brown_``;
* the value after a role is the first whitespace token, so a quoted
  multi-word value keeps only its first word (``"New York"`` -> ``New``,
  without the ``_``, which went to the last word);
* a concept is read with spaces skipped.

Case is left alone here: smatch lower-cases later (``normalize``), SEMA
never does.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from ..graph import Graph, TripleKind


@lru_cache(maxsize=16384)
def value_token(text: str) -> str:
    """The token a smatch-family reader keeps for the written constant ``text``.

    Example:
        >>> value_token('"Brown"'), value_token('"New York"'), value_token('-')
        ('Brown_', 'New', '-')
    """
    if not text.startswith('"'):
        return text
    inner = text[1:-1] if len(text) > 1 and text.endswith('"') else text[1:]
    parts = inner.split()
    if not parts:
        return "_"
    return parts[0] if len(parts) > 1 else parts[0] + "_"


@lru_cache(maxsize=16384)
def concept_token(text: str) -> str:
    """The token a smatch-family reader keeps for the written concept ``text``."""
    if text.startswith('"'):
        inner = text[1:-1] if len(text) > 1 and text.endswith('"') else text[1:]
        return inner.replace(" ", "") + "_"
    return text


@lru_cache(maxsize=16384)
def smatch_normalize(token: str) -> str:
    """smatch 1.0.4's ``normalize``: lower-case, strip trailing ``_``."""
    return token.lower().rstrip("_")


#: ``-of`` roles smatch 1.0.4 does not invert (they are roles of their own)
SMATCH_NON_INVERTED = frozenset({"prep-on-behalf-of", "prep-out-of", "consist-of"})


@dataclass(slots=True)
class SmatchView:
    """Nodes ``0..n-1`` in definition order and the triples the reader keeps.

    ``concepts`` are concept tokens; ``relations`` are (role, source node,
    target node, written triple index) and ``attributes`` (role, node,
    value token, written triple index), both in the reader's order. Roles
    have no colon and keep their case; TOP is not included.
    """

    variables: list[str]
    concepts: list[str]
    #: written triple index of each node's (first) definition
    definitions: list[int]
    relations: list[tuple[str, int, int, int]]
    attributes: list[tuple[str, int, str, int]]

    @property
    def size(self) -> int:
        return len(self.concepts) + len(self.relations) + len(self.attributes)


@lru_cache(maxsize=4096)
def stored_role(role: str) -> tuple[str, bool]:
    """(role as stored, without colon; whether it is filed under the target)."""
    name = role[1:]
    if name.endswith("-of") and name not in SMATCH_NON_INVERTED:
        return name[:-3], True
    if name == "mod":
        return "domain", True
    return name, False


_INSTANCE = TripleKind.INSTANCE
_RELATION = TripleKind.RELATION


def read_smatch104(graph: Graph) -> SmatchView:  # noqa: C901 -- mirrors the reference's single pass
    """``graph`` as smatch 1.0.4's ``parse_AMR_line`` + ``get_triples`` keep it.

    Example:
        >>> from amrcheck.reading.corpus import decode
        >>> v = read_smatch104(decode('(a / Apple :mod "Big" :ARG0-of (e / eat-01))'))
        >>> v.concepts, v.relations, v.attributes
        (['Apple', 'eat-01'], [('ARG0', 1, 0, 2)], [])

    ISI alignments stay inside the token they follow, as that reader keeps
    them (:func:`amrcheck.standardize.as_smatch_104_reads`).
    """
    # imported here: rematch uses this module's token rules alone, and
    # standardising (with penman's model, ~12 ms to import) only reads so
    from ..standardize import as_smatch_104_reads

    graph = as_smatch_104_reads(graph)
    triples, kinds = graph.triples, graph.kinds
    index: dict[str, int] = {}
    defined_at: dict[str, int] = {}
    concepts: list[str] = []
    definitions: list[int] = []
    for i, kind in enumerate(kinds):
        if kind is _INSTANCE:
            var = triples[i][0]
            if var not in index:
                index[var] = len(concepts)
                defined_at[var] = i  # triple indices are in text order
                concepts.append(concept_token(triples[i][2]))
                definitions.append(i)
    # per node: links resolved while reading, and links resolved at the end
    # (a link is resolved while reading when its target's concept was
    # already read; the defining edge counts as read)
    resolved: dict[int, list[tuple[str, int, int]]] = {}
    deferred: dict[int, list[tuple[str, int, int]]] = {}
    attributes: list[tuple[str, int, str, int]] = []
    for i, kind in enumerate(kinds):
        if kind is _INSTANCE:
            continue
        source, role, target = triples[i]
        name, inverted = stored_role(role)
        if kind is _RELATION:
            # read before this link: defined earlier, or by this very edge
            # (whose node's instance triple comes right after it)
            slots = resolved if defined_at[target] <= i + 1 else deferred
            if inverted:
                slots.setdefault(index[target], []).append((name, index[source], i))
            else:
                slots.setdefault(index[source], []).append((name, index[target], i))
        elif not inverted:
            attributes.append((name, index[source], value_token(target), i))
    relations = []
    for node in sorted(resolved.keys() | deferred.keys()):
        for name, other, i in resolved.get(node, ()):
            relations.append((name, node, other, i))
        for name, other, i in deferred.get(node, ()):
            relations.append((name, node, other, i))
    # attributes are listed node by node, in text order within a node
    attributes.sort(key=lambda a: a[1])
    return SmatchView(list(index), concepts, definitions, relations, attributes)
