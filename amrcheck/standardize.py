"""The one standardisation step every metric shares (SPEC §2).

A :class:`Graph` keeps triples as written. Metrics compare *standardised*
triples, made here once, with explicit switches:

* comparison: labels, roles and constants are case-folded; quotes are
  dropped, so ``"Paris"`` equals ``Paris``; a quoted multi-word value stays
  one value;
* inversion: ``:X-of`` becomes ``:X`` with source and target swapped when
  penman's AMR model says the role is inverted (``:consist-of`` is not);
  ``:domain`` is written as the inverse of ``:mod`` so both spellings of
  that relation compare equal;
* root: ``variable`` (smatch 1.0.4: a TOP triple that matches whenever
  root aligns with root) or ``concept`` (smatch++ / BAMBOO leaderboard:
  the TOP triple carries the root concept);
* duplicates: a set by default; a multiset only in compatibility mode;
* ``compat="smatch-1.0.4"`` reproduces that tool's reader: multiset,
  ``:mod`` stored as inverted ``:domain``, inverse roles with a constant
  target (``:mod`` with a constant included) dropped, only the first
  whitespace token of a quoted value, trailing ``_`` stripped, ISI
  alignments (``~e.3``) kept inside the label they follow (a concept,
  role or constant: ``want-01~e.2`` is not ``want-01``; a variable with
  one, ``b~e.5``, is read as a constant); and its
  counting: every matching pair of triples counts (``counting="product"``),
  so duplicates multiply and F1 can exceed 1;
* ``compat="raw"`` is *no* standardisation, as smatch++ scores with its
  ``DoNothingStandardizer``: roles, case and quotes as written (``:ARG0-of``
  stays inverse), duplicates kept and matched one-to-one
  (``counting="min"``). With ``root="concept"`` it is smatch++'s
  "concept as root" setting.

Every standardised triple remembers the index of the written triple it
came from (``-1`` for the TOP triple), so explanations point at source.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, TypeVar

from penman.models.amr import model as _amr_model

from .graph import Graph, TripleKind

RootPolicy = Literal["variable", "concept"]
Compat = Literal["smatch-1.0.4", "raw"]
COMPAT_MODES: tuple[str, ...] = ("smatch-1.0.4", "raw")
ROOT_POLICIES: tuple[str, ...] = ("variable", "concept")
TOP_ROLE = "TOP"
TOP_VALUE = "top"


@dataclass(frozen=True, slots=True)
class Standardization:
    """Switches of the shared standardisation step (defaults: strict)."""

    root: RootPolicy = "variable"
    compat: Compat | None = None

    @property
    def multiset(self) -> bool:
        return self.compat is not None

    @property
    def counting(self) -> Literal["min", "product"]:
        """How many matches ``c1`` equal triples against ``c2`` make.

        ``min`` pairs triples one-to-one (with sets, always 0 or 1);
        ``product`` is smatch 1.0.4's "every matching pair counts".
        """
        return "product" if self.compat == "smatch-1.0.4" else "min"

    def describe(self) -> str:
        parts = [f"root={self.root}", "multiset" if self.multiset else "set"]
        if self.compat:
            parts.append(f"compat={self.compat}")
        return ", ".join(parts)


STRICT = Standardization()
SMATCH_104 = Standardization(compat="smatch-1.0.4")


@dataclass(slots=True, eq=False, init=False)
class StandardGraph:
    """Standardised triples over node indices ``0..n-1`` (variables in order).

    ``instances``: (node, concept); ``attributes``: (node, role, value),
    the TOP triple included; ``relations``: (source node, role, target
    node). Each list has a parallel ``*_origin`` list of written-triple
    indices in ``graph`` (-1 for the TOP triple).

    ``__init__`` is written out: the one ``dataclass`` would make runs as
    interpreted code even in the compiled build (~1 µs a graph more).
    """

    graph: Graph
    variables: list[str]
    instances: list[tuple[int, str]]
    attributes: list[tuple[int, str, str]]
    relations: list[tuple[int, str, int]]
    instance_origin: list[int]
    attribute_origin: list[int]
    relation_origin: list[int]
    options: Standardization

    def __init__(
        self,
        graph: Graph,
        variables: list[str],
        instances: list[tuple[int, str]],
        attributes: list[tuple[int, str, str]],
        relations: list[tuple[int, str, int]],
        instance_origin: list[int],
        attribute_origin: list[int],
        relation_origin: list[int],
        options: Standardization,
    ) -> None:
        self.graph = graph
        self.variables = variables
        self.instances = instances
        self.attributes = attributes
        self.relations = relations
        self.instance_origin = instance_origin
        self.attribute_origin = attribute_origin
        self.relation_origin = relation_origin
        self.options = options

    @property
    def size(self) -> int:
        """Number of triples, as precision and recall count them."""
        return len(self.instances) + len(self.attributes) + len(self.relations)

    def concept(self, node: int) -> str | None:
        for n, concept in self.instances:
            if n == node:
                return concept
        return None


#: :func:`_role` and :func:`_label` of what was seen, per compat mode: a
#: dict lookup where the compiled module calls no wrapper and builds no key
#: tuple; each table starts over past :data:`_CACHE_SIZE` entries (a
#: long-lived process meets new labels with every edit)
_ROLES: dict[str | None, dict[str, tuple[str, bool]]] = {}
_LABELS: dict[str | None, dict[str, str]] = {}
_CACHE_SIZE = 1 << 14
_T = TypeVar("_T")


def _table(
    tables: dict[str | None, dict[str, _T]], compat: str | None
) -> dict[str, _T]:
    """``compat``'s table of ``tables``, empty when new or past :data:`_CACHE_SIZE`."""
    table = tables.get(compat)
    if table is None or len(table) > _CACHE_SIZE:
        table = tables[compat] = {}
    return table


def _known_role(
    table: dict[str, tuple[str, bool]], role: str, compat: str | None
) -> tuple[str, bool]:
    found = table.get(role)
    if found is None:
        found = table[role] = _role(role, compat)
    return found


def _known_label(table: dict[str, str], text: str, compat: str | None) -> str:
    if compat == "raw" or (
        # already its own label (lower case, unquoted, no trailing "_" to
        # strip): most concepts; ``str.islower`` implies ``lower`` changes
        # nothing. A lookup in the table, tens of thousands of labels,
        # misses the CPU's caches: this costs a scan of a short string
        text.islower()
        and text[0] != '"'
        and (compat is None or text[-1] != "_")
    ):
        return text
    found = table.get(text)
    if found is None:
        found = table[text] = _label(text, compat)
    return found


def _role(role: str, compat: str | None) -> tuple[str, bool]:
    """(standard role without colon; whether it was inverted)."""
    if compat == "raw":
        return role[1:] if role.startswith(":") else role, False
    name = role[1:].lower() if role.startswith(":") else role.lower()
    if compat is not None:
        if name.endswith("-of") and name not in (
            "prep-on-behalf-of", "prep-out-of", "consist-of"
        ):
            return name[:-3], True
        if name == "mod":
            return "domain", True
        return name, False
    if _amr_model.is_role_inverted(":" + name):
        name, inverted = name[:-3], True
    else:
        inverted = False
    if name == "domain":  # one spelling for :mod / :domain-of
        return "mod", not inverted
    return name, inverted


def _label(text: str, compat: str | None) -> str:
    if compat == "raw":
        return text
    return normalize_label(text, compat is not None)


def normalize_label(text: str, compat: bool = False) -> str:
    """Case-fold and unquote a concept or constant (SPEC §2 comparison).

    Example:
        >>> normalize_label('"New York"'), normalize_label('"New York"', compat=True)
        ('new york', 'new')
    """
    if text.startswith('"'):
        inner = text[1:-1] if len(text) > 1 and text.endswith('"') else text[1:]
        if compat:
            tokens = inner.split()
            inner = tokens[0] if tokens else inner
        text = inner
    text = text.lower()
    return text.rstrip("_") if compat else text


def standardize(graph: Graph, options: Standardization = STRICT) -> StandardGraph:
    """Standardise ``graph`` for scoring under ``options``.

    Example:
        >>> from amrcheck.reading.corpus import decode
        >>> g = standardize(decode('(a / Apple :ARG0-of (e / eat-01))'))
        >>> g.instances, g.relations, g.attributes
        ([(0, 'apple'), (1, 'eat-01')], [(1, 'arg0', 0)], [(0, 'TOP', 'top')])
    """
    if options.compat == "smatch-1.0.4" and graph.alignments:
        return _standardize_aligned(graph, options)
    return _standardize_written(graph, options)


def _standardize_written(graph: Graph, options: Standardization) -> StandardGraph:
    """:func:`standardize` of the triples as they are (alignments aside)."""
    compat = options.compat
    roles, labels = _table(_ROLES, compat), _table(_LABELS, compat)
    index: dict[str, int] = {}
    instances: list[tuple[int, str]] = []
    instance_origin: list[int] = []
    kinds = graph.kinds
    others: list[int] = []
    instance_kind, relation_kind = TripleKind.INSTANCE, TripleKind.RELATION
    for i, (var, _, concept) in enumerate(graph.triples):
        if kinds[i] is instance_kind:
            node = index.get(var)
            if node is None:
                node = index[var] = len(index)
            instances.append((node, _known_label(labels, concept, compat)))
            instance_origin.append(i)
        else:
            others.append(i)
    root = index[graph.top]
    root_value = TOP_VALUE
    if options.root == "concept":
        root_value = next(c for n, c in instances if n == root)
    attributes = [(root, TOP_ROLE, root_value)]
    attribute_origin = [-1]
    relations: list[tuple[int, str, int]] = []
    relation_origin: list[int] = []
    triples = graph.triples
    for i in others:
        source, role, target = triples[i]
        name, inverted = _known_role(roles, role, compat)
        if kinds[i] is relation_kind:
            a, b = index[source], index[target]
            relations.append((b, name, a) if inverted else (a, name, b))
            relation_origin.append(i)
        elif inverted and compat is not None:
            continue  # smatch 1.0.4 silently drops these
        else:
            if inverted:  # an inverse role cannot point at a constant: keep it
                name = role[1:].lower()
            value = _known_label(labels, target, compat)
            attributes.append((index[source], name, value))
            attribute_origin.append(i)
    standard = StandardGraph(
        graph=graph,
        variables=list(index),
        instances=instances,
        attributes=attributes,
        relations=relations,
        instance_origin=instance_origin,
        attribute_origin=attribute_origin,
        relation_origin=relation_origin,
        options=options,
    )
    return standard if options.multiset else _as_sets(standard)


def _as_sets(standard: StandardGraph) -> StandardGraph:
    """``standard`` with each triple once (the first one's origin kept)."""
    # two equal instance triples need a variable defined twice
    if len(standard.instances) > len(standard.variables):
        standard.instances, standard.instance_origin = _dedupe(
            standard.instances, standard.instance_origin
        )
    standard.attributes, standard.attribute_origin = _dedupe(
        standard.attributes, standard.attribute_origin
    )
    standard.relations, standard.relation_origin = _dedupe(
        standard.relations, standard.relation_origin
    )
    return standard


def _standardize_aligned(graph: Graph, options: Standardization) -> StandardGraph:
    """:func:`standardize` for smatch 1.0.4 of a graph with ISI alignments."""
    standard = _standardize_written(as_smatch_104_reads(graph), options)
    standard.graph = graph
    return standard


def as_smatch_104_reads(graph: Graph) -> Graph:
    """``graph`` with each ISI alignment inside the token it follows, as
    smatch 1.0.4's reader keeps it (the reader of the metrics' reference
    runs built on it, too): ``want-01~e.2``, ``:ARG0~e.1``,
    ``"BRAF"~e.5`` -> ``BRAF_~e.5``, and a variable with one (``b~e.5``)
    is a constant to it. Triple indices are kept; ``graph`` itself when it
    has no alignments.

    Example:
        >>> from amrcheck.reading.corpus import decode
        >>> read = as_smatch_104_reads(decode('(n / name~e.1 :op1~e.2 "BRAF"~e.5)'))
        >>> read.triples
        [('n', ':instance', 'name~e.1'), ('n', ':op1~e.2', 'BRAF_~e.5')]
    """
    aligned = graph.alignments
    if not aligned:
        return graph
    triples, kinds = [], []
    for i, (source, role, target) in enumerate(graph.triples):
        kind = graph.kinds[i]
        role += aligned.get((i, "role"), "")
        after = aligned.get((i, "target"))
        if after is not None:
            if kind is TripleKind.RELATION:  # "b~e.5" is no variable to it
                kind = TripleKind.ATTRIBUTE
            target = _aligned_token(target, after)
        triples.append((source, role, target))
        kinds.append(kind)
    return Graph(graph.source, graph.top, triples, kinds, graph.start, graph.end)


def _aligned_token(text: str, alignment: str) -> str:
    """What smatch 1.0.4 reads for ``text`` followed by ``alignment``: a
    closing quote becomes ``_`` (``"BRAF"~e.5`` -> ``BRAF_~e.5``); a quoted
    value of several words keeps its first word only, alignment lost."""
    if not text.startswith('"'):
        return text + alignment
    inner = text[1:-1] if len(text) > 1 and text.endswith('"') else text[1:]
    words = inner.split()
    if len(words) > 1:
        return words[0]
    return (words[0] if words else "") + "_" + alignment


def _dedupe(items: list[_T], origin: list[int]) -> tuple[list[_T], list[int]]:
    # one item (a graph's TOP triple alone, often) needs no set
    if len(items) < 2 or len(set(items)) == len(items):
        return items, origin
    seen: dict[_T, int] = {}
    for item, source in zip(items, origin, strict=True):
        seen.setdefault(item, source)
    return list(seen), list(seen.values())
