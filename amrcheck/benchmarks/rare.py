"""RARE (Kachwala et al. 2024): how well a metric tracks graded structural damage.

Layer: engine (benchmarks). The generator rewires the edges of each graph
of a corpus step by step while keeping every node's in- and out-degree
(SPEC §5):

* an **attribute swap** exchanges the *sources* of two attributes
  ``(a :r1 v1), (b :r2 v2) → (a :r2 v2), (b :r1 v1)``;
* a **relation swap** exchanges the *targets* of two relations
  ``(a :r1 x), (b :r2 y) → (a :r1 y), (b :r2 x)``, and is kept only if
  the graph stays connected and gains no cycle and no multi-edge (a
  second relation between the same two nodes);
* a swap never recreates a triple of the original graph or duplicates
  one of the current graph.

Relations are read as penman reads them (``:ARG0-of`` edges
de-inverted). The edges are visited once in a seeded random order; each
still-original edge is swapped with the first partner (also in seeded
random order) that satisfies the constraints, and after every swap the
rewired graph is written as one pair with its ground truth
``(|E| − |E′|) / |E|`` (``E``: attributes and relations of the original,
``E′``: original edges moved so far). Each graph also contributes one
self pair (ground truth 1) when it could be rewired at all. A metric is
scored by Spearman's ρ × 100 between its scores (rewired against
original) and the ground truth.

Differences from the reference generator (Rematch-RARE ``fbd1a55``,
``randomize_amr_rewire.py``), whose constraints this follows: cycles
are checked exactly (a relation swap must keep the relation graph
acyclic; graphs that already have a cycle get attribute swaps only)
instead of through node heights, and every graph draws from its own
seeded generator, so the output does not depend on corpus order.

Example:
    >>> from amrcheck.reading.corpus import read_string
    >>> corpus = read_string(
    ...     "# ::id g\\n(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-02 :ARG0 b)"
    ...     " :polarity - :time (n / now))\\n")
    >>> pairs = make_rare(corpus, seed=1)
    >>> [(p.id, p.swapped, p.edges, round(p.similarity, 2)) for p in pairs]
    [('g.1', 2, 5, 0.6), ('g.4', 3, 5, 0.4), ('g.self', 0, 5, 1.0)]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import penman

from ..errors import InputError
from ..execution import Jobs, Progress
from ..metrics import Metric
from ..pairing.graphs import Gap
from ..reading.corpus import Corpus
from ..reading.files import read_input_text
from ..workflows.evaluate import evaluate

Triple = tuple[str, str, str]

#: file names inside a RARE folder
ORIGINAL, REWIRED, TRUTH = "original.amr", "rewired.amr", "similarity.tsv"


@dataclass(frozen=True, slots=True)
class RarePair:
    """One rewired graph, the original it came from, and the ground truth."""

    id: str
    source_id: str
    original: str
    rewired: str
    swapped: int
    edges: int

    @property
    def similarity(self) -> float:
        return (self.edges - self.swapped) / self.edges


def _connected(nodes: Sequence[str], relations: Sequence[Triple]) -> bool:
    """Whether every node is reachable from the first, ignoring direction."""
    if not nodes:
        return False
    neighbours: dict[str, set[str]] = {node: set() for node in nodes}
    for source, _, target in relations:
        neighbours.setdefault(source, set()).add(target)
        neighbours.setdefault(target, set()).add(source)
    seen = {nodes[0]}
    todo = [nodes[0]]
    while todo:
        for other in neighbours[todo.pop()] - seen:
            seen.add(other)
            todo.append(other)
    return len(seen) == len(neighbours)


def _acyclic(relations: Sequence[Triple]) -> bool:
    """Whether the directed relations have no cycle (Kahn's algorithm)."""
    children: dict[str, list[str]] = {}
    indegree: dict[str, int] = {}
    for source, _, target in relations:
        children.setdefault(source, []).append(target)
        indegree.setdefault(source, 0)
        indegree[target] = indegree.get(target, 0) + 1
    ready = [node for node, degree in indegree.items() if degree == 0]
    removed = 0
    while ready:
        node = ready.pop()
        removed += 1
        for child in children.get(node, ()):
            indegree[child] -= 1
            if indegree[child] == 0:
                ready.append(child)
    return removed == len(indegree)


def _new_multi_edge(kept: Sequence[Triple], new: Sequence[Triple]) -> bool:
    """Whether a new relation joins two nodes that another relation already joins."""
    ends = [(s, t) for s, _, t in new]
    return len(set(ends)) < len(ends) or bool(set(ends) & {(s, t) for s, _, t in kept})


class _Rewiring:
    """The state of one graph being rewired."""

    def __init__(self, graph: penman.Graph, rng: np.random.Generator) -> None:
        self.graph = graph
        self.rng = rng
        self.instances = graph.instances()
        self.nodes = [i.source for i in self.instances]
        self.attributes: list[Triple] = [tuple(a) for a in graph.attributes()]
        self.relations: list[Triple] = [tuple(e) for e in graph.edges()]
        self.original = set(self.attributes) | set(self.relations)
        self.edges = len(self.attributes) + len(self.relations)
        self.moved: set[Triple] = set()  # current triples that are results of swaps
        self.swapped = 0
        self.may_rewire_relations = _acyclic(self.relations)

    def _count(self, old: tuple[Triple, Triple], new: tuple[Triple, Triple]) -> None:
        # an original edge counts once, when it is first moved
        for triple in old:
            if triple in self.moved:
                self.moved.discard(triple)
            else:
                self.swapped += 1
        self.moved.update(new)

    def _shuffled(self, triples: list[Triple]) -> list[Triple]:
        order = self.rng.permutation(len(triples))
        return [triples[i] for i in order]

    def swap_attribute(self, first: Triple) -> bool:
        source1, role1, value1 = first
        for second in self._shuffled(self.attributes):
            source2, role2, value2 = second
            new = ((source1, role2, value2), (source2, role1, value1))
            current = set(self.attributes)
            if source1 == source2 or any(
                t in self.original or t in current for t in new
            ):
                continue
            self.attributes = [t for t in self.attributes if t not in (first, second)]
            self.attributes += new
            self._count((first, second), new)
            return True
        return False

    def swap_relation(self, first: Triple) -> bool:
        if not self.may_rewire_relations:
            return False
        source1, role1, target1 = first
        for second in self._shuffled(self.relations):
            source2, role2, target2 = second
            new = ((source1, role1, target2), (source2, role2, target1))
            current = set(self.relations)
            if target1 == target2 or any(
                t in self.original or t in current for t in new
            ):
                continue
            kept = [t for t in self.relations if t not in (first, second)]
            updated = kept + list(new)
            if (
                not _new_multi_edge(kept, new)
                and _acyclic(updated)
                and _connected(self.nodes, updated)
            ):
                self.relations = updated
                self._count((first, second), new)
                return True
        return False

    def encode(self) -> str:
        triples = list(self.instances) + self.attributes + self.relations
        return str(penman.encode(penman.Graph(triples, top=self.graph.top)))


def rewire(text: str, key: str, seed: int, index: int) -> list[RarePair]:
    """The rewired versions of one graph (PENMAN ``text``), then its self pair."""
    graph = penman.decode(text)
    state = _Rewiring(graph, np.random.default_rng([seed, index]))
    if state.edges == 0:
        return []
    original = penman.encode(graph)
    pairs = []
    visit = state._shuffled(state.attributes + state.relations)
    for step, triple in enumerate(visit):
        before = state.swapped
        if triple in state.attributes:
            state.swap_attribute(triple)
        elif triple in state.relations:
            state.swap_relation(triple)
        if state.swapped > before:
            pairs.append(
                RarePair(
                    f"{key}.{step + 1}",
                    key,
                    original,
                    state.encode(),
                    state.swapped,
                    state.edges,
                )
            )
    if pairs:
        pairs.append(RarePair(f"{key}.self", key, original, original, 0, state.edges))
    return pairs


def make_rare(corpus: Corpus, seed: int = 0) -> list[RarePair]:
    """Rewired pairs for every graph of ``corpus`` that parses and has edges."""
    pairs: list[RarePair] = []
    for entry in corpus:
        if entry.graph is not None:
            pairs += rewire(entry.graph.text, entry.label, seed, entry.index)
    return pairs


def write_rare(pairs: Sequence[RarePair], folder: str | Path) -> None:
    """Write ``original.amr``, ``rewired.amr`` and ``similarity.tsv`` to ``folder``."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    with (
        (folder / ORIGINAL).open("w", encoding="utf-8") as original,
        (folder / REWIRED).open("w", encoding="utf-8") as rewired,
        (folder / TRUTH).open("w", encoding="utf-8") as truth,
    ):
        truth.write("id\tsource\tsimilarity\tswapped\tedges\n")
        for pair in pairs:
            original.write(f"# ::id {pair.id}\n# ::source {pair.source_id}\n")
            original.write(pair.original + "\n\n")
            rewired.write(
                f"# ::id {pair.id}\n# ::rare-similarity {pair.similarity!r}\n"
            )
            rewired.write(pair.rewired + "\n\n")
            truth.write(
                f"{pair.id}\t{pair.source_id}\t{pair.similarity!r}\t"
                f"{pair.swapped}\t{pair.edges}\n"
            )


@dataclass(slots=True)
class RareResult:
    """A metric on a RARE folder: Spearman ρ × 100 and the per-pair scores."""

    spearman: float
    pairs: int
    truth: list[float]
    scores: list[float]
    #: rewired graphs that cannot be read (counted as empty graphs: score
    #: 0) and pairs whose original cannot be read (left out)
    gaps: list[Gap] = field(default_factory=list)
    #: pairs whose alignment search the time budget stopped (their scores
    #: are the best alignment found: lower bounds)
    cut: int = 0


def read_truth(folder: str | Path) -> dict[str, float]:
    path = Path(folder) / TRUTH
    lines = read_input_text(path).splitlines()[1:]
    return {row[0]: float(row[2]) for row in (line.split("\t") for line in lines)}


def score_rare(
    folder: str | Path,
    metric: Metric,
    jobs: Jobs = 1,
    progress: Progress | None = None,
) -> RareResult:
    """Score every rewired graph against its original; Spearman × 100 with the truth.

    A rewired graph that cannot be read (or is missing) counts as an empty
    graph, as in ``amrcheck score``; a pair whose original cannot be read
    is left out. :attr:`RareResult.gaps` lists both.

    Raises:
        InputError: a file of the folder is missing or the files disagree.
    """
    folder = Path(folder)
    truth = read_truth(folder)
    # streamed: the graphs held at once do not grow with the files (issue 6)
    report = evaluate(
        folder / ORIGINAL,
        [folder / REWIRED],
        [metric],
        jobs=jobs,
        progress=progress,
    )
    (result,) = report.results
    (pairing,) = report.pairings.values()
    left_out = [gap.key for gap in pairing.gaps if not gap.counts_as_empty()]
    missing = [key for key in result.ids if key not in truth]
    if missing or len(result.ids) + len(left_out) != len(truth):
        raise InputError(
            f"{len(result.ids)} pairs but {len(truth)} rows"
            + (f"; no row for {missing[0]}" if missing else ""),
            str(folder / TRUTH),
        )
    scores = [score.f1 for score in result.corpus.pairs]
    expected = [truth[key] for key in result.ids]
    from scipy.stats import spearmanr  # slow to import: only when scoring

    rho = float(spearmanr(scores, expected)[0])
    cut = int(result.corpus.micro.counts.get("cut", 0))
    return RareResult(
        rho * 100, len(result.ids), expected, scores, pairing.gaps, cut
    )
