"""SemBleu: BLEU over graph n-grams (Song & Gildea 2019).

A graph's n-grams are its paths: the 1-grams are node labels (concepts
and constants, lower-cased), a k-gram is ``label :role label …`` over k
nodes following edges downwards after every ``-of`` edge has been
reverted. Paths start at every node reachable from the roots (nodes
without a parent once edges are reverted) and never use an edge twice.
The score is corpus BLEU of the candidate's n-grams against the
reference's: clipped n-gram precision for n = 1…``ngram``, uniform weights
(or ``weights``), NIST geometric smoothing (``method3``), weights reset to
uniform over the orders present (``auto_reweigh``), and the brevity
penalty on graph length = number of edges of the reference's graph
encoding (one per node plus one per role). BLEU itself is implemented here
(no nltk).

Default ``ngram=3``, the reference's maximum order; BAMBOO found ``ngram=2``
best (its leaderboard's SemBleu row). SemBleu is asymmetric (the candidate
is the BLEU hypothesis); ``symmetric=True`` averages both directions.

Graphs are read with the shared standardisation (:mod:`amrcheck.standardize`,
strict: lower case, no quotes, ``:X-of`` reverted where penman's AMR model
calls the role inverted — ``:consist-of`` stays —, a set of triples), in
canonical node order, every attribute value a node of its own (a quoted
multi-word value is one node whose tokens follow each other in a gram),
TOP no edge; a graph without a parentless node starts at its top. So a
graph scores exactly the same however it is written.

``compat="reference"`` reads graphs as freesunshine0316/sembleu ``530bc05``
does, so that n-grams are the reference's, quirks included — each of which
makes the n-grams depend on how a graph is written (issue 24): role names
keep their written case; ``:X-of`` edges are kept as written (the cited
reference run did not revert them, although the paper and SPEC §3 do: its
per-pair scores on all 8,347 BAMBOO dev pairs are reproduced exactly only
so, checked in ``test_parity_issue4``); a re-entrant variable written
*before* its definition becomes a separate leaf carrying the concept,
unless its name looks like a variable (a letter and digits); inside quotes
the characters ``( ) : /`` are dropped; and a path starting at node *i*
never uses the edge whose index is *i* (the reference puts the start
node's index into its set of used *edge* indices).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, fields
from typing import ClassVar

from ..canonical import canonicalize
from ..graph import Graph, TripleKind
from ..standardize import TOP_ROLE, standardize
from . import register
from ._protocol import Explanation, Reference, Score, check_reference
from .wlk import standard_nodes

Ngram = tuple[str, ...]

_QUOTED_DROP = str.maketrans("", "", "():/")


def _value_label(text: str) -> str:
    """A constant as the reference's reader keeps it (quotes stripped)."""
    if text.startswith('"') and text.endswith('"') and len(text) > 1:
        return " ".join(text[1:-1].translate(_QUOTED_DROP).split())
    return text


def _looks_like_variable(text: str) -> bool:
    """The reference's ``surface_check_var``: a letter then digits."""
    return "a" <= text[0] <= "z" and (len(text) == 1 or text[1:].isdigit())


@dataclass(slots=True)
class GraphNgrams:
    """A graph's n-gram counts per order (1-based) and its BLEU length."""

    counts: list[Counter[Ngram]]
    length: int


def graph_ngrams(
    graph: Graph, max_order: int, compat: Reference | None = None
) -> GraphNgrams:
    """The n-grams of ``graph`` up to ``max_order`` nodes, as SemBleu counts them.

    Example:
        >>> from amrcheck.reading.corpus import decode
        >>> g = graph_ngrams(decode('(w / want-01 :ARG0 (b / boy))'), 2)
        >>> sorted(g.counts[1]), g.length
        ([('want-01', ':arg0', 'boy')], 3)
        >>> sorted(graph_ngrams(decode('(w / want-01 :ARG0 (b / boy))'), 2,
        ...                     compat="reference").counts[1])
        [('want-01', ':ARG0', 'boy')]
    """
    if compat is None:
        return _paths(*_standard_edges(graph), max_order, own_index_used=False)
    return _paths(*_reference_edges(graph), max_order, own_index_used=True)


#: (head, role, tail, edge id) of a graph's edges
Edges = list[tuple[int, str, int, int]]


def _standard_edges(graph: Graph) -> tuple[list[str], Edges, int, int]:
    """Labels, edges, length and top of the standard graph."""
    standard = canonicalize(standardize(graph))
    wl, _, _ = standard_nodes(standard)
    edges = [(head, role, tail, k) for k, (head, role, tail) in enumerate(wl.edges)]
    top = next(n for n, role, _ in standard.attributes if role == TOP_ROLE)
    # one length unit per node and per edge, as the reference counts
    return wl.labels, edges, len(wl.labels) + len(edges), top


def _reference_edges(graph: Graph) -> tuple[list[str], Edges, int, int]:
    """Labels, edges, length and start node as the reference reads them."""
    triples, kinds = graph.triples, graph.kinds
    node_of: dict[str, int] = {}
    concept: dict[str, str] = {}
    defined_at: dict[str, int] = {}
    by_source: dict[str, list[int]] = {}
    for i, (source, _, target) in enumerate(triples):
        if kinds[i] is TripleKind.INSTANCE:
            if source not in node_of:
                node_of[source] = len(node_of)
                concept[source] = target
                defined_at[source] = i  # triple indices are in text order
                by_source[source] = []
        else:
            by_source.setdefault(source, []).append(i)
    # node labels and edges, indexed exactly as the reference builds them:
    # edges 0..V-1 are the variables' own label edges, then per variable
    # (in definition order) its roles in text order; a constant adds a node
    # and its label edge just before the role's edge
    labels = [concept[var].lower() for var in node_of]
    n_edges = len(node_of)
    edges: Edges = []
    for var, head in node_of.items():
        for i in by_source.get(var, ()):
            _, role, target = triples[i]
            tail = -1
            if kinds[i] is TripleKind.RELATION:
                # defined earlier, or by this very edge (whose node's
                # instance triple comes right after it)
                if defined_at[target] <= i + 1 or _looks_like_variable(target):
                    tail = node_of[target]
            if tail < 0:
                value = _value_label(target)
                label = concept.get(value, value)  # reference looks names up
                tail = len(labels)
                labels.append(label.lower())
                n_edges += 1
            edges.append((head, role, tail, n_edges))
            n_edges += 1
    return labels, edges, n_edges, 0


def _paths(
    labels: list[str],
    edges: Edges,
    length: int,
    start: int,
    max_order: int,
    own_index_used: bool,
) -> GraphNgrams:
    """Every path of up to ``max_order`` nodes from each node reachable from
    the roots (nodes without a parent, else ``start``), no edge used twice.
    ``own_index_used``: the reference's quirk of taking a path's start node
    index for a used edge index."""
    children: list[list[tuple[int, str, int]]] = [[] for _ in labels]
    has_parent = [False] * len(labels)
    for head, role, tail, edge_id in edges:
        children[head].append((edge_id, role, tail))
        has_parent[tail] = True
    tokens = [tuple(label.split()) for label in labels]
    counts: list[Counter[Ngram]] = [Counter() for _ in range(max_order + 1)]

    def walk(node: int, gram: Ngram, order: int, used: set[int]) -> None:
        counts[order][gram] += 1
        if order == max_order:
            return
        for edge_id, role, tail in children[node]:
            if edge_id not in used:
                used.add(edge_id)
                walk(tail, gram + (role,) + tokens[tail], order + 1, used)
                used.discard(edge_id)

    roots = [n for n, parent in enumerate(has_parent) if not parent] or [start]
    seen = set(roots)
    queue = list(roots)
    for node in queue:  # breadth first; the list grows while we read it
        walk(node, tokens[node], 1, {node} if own_index_used else set())
        for _, _, tail in children[node]:
            if tail not in seen:
                seen.add(tail)
                queue.append(tail)
    return GraphNgrams(counts=counts[1:], length=length)


def _clipped(hyp: Counter[Ngram], ref: Counter[Ngram]) -> int:
    return sum(min(count, ref[gram]) for gram, count in hyp.items() if gram in ref)


def bleu(
    matches: Sequence[int],
    totals: Sequence[int],
    hyp_length: int,
    ref_length: int,
    weights: Sequence[float],
) -> float:
    """BLEU from n-gram statistics, as the reference's ``corpus_bleu`` computes it.

    ``matches[k]``/``totals[k]`` are the clipped and total (k+1)-gram counts
    of the hypothesis; smoothing is NIST geometric (``method3``), weights
    are reset to uniform over the orders present (``auto_reweigh``).

    Example:
        >>> round(bleu([3, 1], [4, 2], 4, 5, (0.5, 0.5)), 6)
        0.476916
    """
    present = [k for k, total in enumerate(totals) if total > 0]
    if not present or matches[0] == 0:
        return 0.0
    max_order = present[-1] + 1
    if max_order < len(weights):
        weights = (1.0 / max_order,) * max_order
    if hyp_length > ref_length:
        penalty = 1.0
    elif hyp_length == 0:
        penalty = 0.0
    else:
        penalty = math.exp(1 - ref_length / hyp_length)
    logs = []
    smooth = 1
    for k, weight in enumerate(weights):
        if matches[k] == 0:
            precision = 1 / (2**smooth * max(1.0, totals[k]))
            smooth += 1
        else:
            precision = matches[k] / totals[k]
        logs.append(weight * math.log(precision))
    return penalty * math.exp(math.fsum(logs))


@register("sembleu")
class SemBleu:
    """SemBleu: BLEU of candidate graph n-grams against the reference's."""

    name: ClassVar[str] = "sembleu"

    @dataclass(frozen=True, slots=True)
    class Options:
        """SemBleu settings.

        ``ngram``: maximum n-gram order, 1…4 (default 3, the reference's;
        BAMBOO recommends 2). ``weights``: one weight per order; None =
        uniform ``1/ngram`` (the reference CLI's own default for n=3 is
        ``(0.34, 0.33, 0.34)``). ``symmetric``: mean of both directions.
        ``compat="reference"``: graphs read as the reference run read them
        (see the module docstring).
        """

        ngram: int = 3
        weights: tuple[float, ...] | None = None
        symmetric: bool = False
        compat: Reference | None = None

    def __init__(
        self,
        ngram: int = 3,
        weights: tuple[float, ...] | None = None,
        symmetric: bool = False,
        compat: str | None = None,
    ) -> None:
        ngram = int(ngram)
        if not 1 <= ngram <= 4:
            raise ValueError(f"ngram must be 1 to 4, not {ngram}")
        if weights is not None and len(weights) != ngram:
            raise ValueError(f"need {ngram} weights, got {len(weights)}")
        self.options = self.Options(
            ngram,
            tuple(weights) if weights is not None else None,
            bool(symmetric),
            check_reference(compat),
        )
        self._weights = self.options.weights or (1.0 / ngram,) * ngram

    @classmethod
    def from_options(cls, options: SemBleu.Options) -> SemBleu:
        return cls(**{f.name: getattr(options, f.name) for f in fields(options)})

    def _stats(self, hyp: GraphNgrams, ref: GraphNgrams) -> dict[str, float]:
        counts: dict[str, float] = {
            "hyp_length": float(hyp.length),
            "ref_length": float(ref.length),
        }
        for k in range(self.options.ngram):
            counts[f"match{k + 1}"] = float(_clipped(hyp.counts[k], ref.counts[k]))
            counts[f"total{k + 1}"] = float(sum(hyp.counts[k].values()))
        return counts

    def _bleu(self, counts: dict[str, float], prefix: str = "") -> float:
        orders = range(1, self.options.ngram + 1)
        return bleu(
            [int(counts[f"{prefix}match{k}"]) for k in orders],
            [int(counts[f"{prefix}total{k}"]) for k in orders],
            int(counts[f"{prefix}hyp_length"]),
            int(counts[f"{prefix}ref_length"]),
            self._weights,
        )

    def score(self, candidate: Graph, reference: Graph, explain: bool = False) -> Score:
        """BLEU of ``candidate``'s n-grams against ``reference``'s.

        Example:
            >>> from amrcheck.reading.corpus import decode
            >>> g = decode('(w / want-01 :ARG0 (b / boy))')
            >>> SemBleu().score(g, g).f1
            1.0
        """
        opts = self.options
        cand = graph_ngrams(candidate, opts.ngram, opts.compat)
        ref = graph_ngrams(reference, opts.ngram, opts.compat)
        counts = self._stats(cand, ref)
        value = self._bleu(counts)
        if self.options.symmetric:
            backward = self._stats(ref, cand)
            counts.update({f"rev_{key}": v for key, v in backward.items()})
            value = (value + self._bleu(counts, "rev_")) / 2
        result = Score(f1=value, counts=counts)
        if explain:
            result.explanation = _explain(cand, ref)
        return result

    def aggregate(self, pairs: Sequence[Score]) -> Score:
        """Corpus BLEU from summed n-gram statistics (the reference's mode)."""
        totals: dict[str, float] = {}
        for pair in pairs:
            for key, value in pair.counts.items():
                totals[key] = totals.get(key, 0.0) + value
        if not pairs:
            return Score(f1=0.0, counts=totals)
        value = self._bleu(totals)
        if self.options.symmetric:
            value = (value + self._bleu(totals, "rev_")) / 2
        return Score(f1=value, counts=totals)


def _explain(cand: GraphNgrams, ref: GraphNgrams) -> Explanation:
    """Matched and unmatched n-grams with their counts, per order."""
    matched: list[tuple[str, int]] = []
    missing: list[tuple[str, int]] = []
    extra: list[tuple[str, int]] = []
    precision: dict[int, float] = {}
    orders = zip(cand.counts, ref.counts, strict=True)
    for k, (hyp, gold) in enumerate(orders, start=1):
        for gram in sorted(hyp.keys() | gold.keys()):
            text = " ".join(gram)
            shared = min(hyp[gram], gold[gram])
            if shared:
                matched.append((text, shared))
            if hyp[gram] > shared:
                extra.append((text, hyp[gram] - shared))
            if gold[gram] > shared:
                missing.append((text, gold[gram] - shared))
        total = sum(hyp.values())
        if total:
            precision[k] = _clipped(hyp, gold) / total
    return Explanation(
        units={"matched": matched, "missing": missing, "extra": extra},
        details={
            "unit": "n-gram",
            "precision": precision,
            "candidate_length": cand.length,
            "reference_length": ref.length,
        },
    )
