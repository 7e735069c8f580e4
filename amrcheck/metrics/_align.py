"""Variable alignment for triple-matching metrics: seeded search, bounds, ILP.

Layer: metrics (above the graph layer, below any one metric). A metric
turns a graph pair into an :class:`AlignmentProblem` — how much each
candidate node pair ``i -> j`` earns on its own (``unary``: instance and
attribute triples, self-loops) and how much two node pairs earn together
(``pairwise``: relation triples whose two ends both align) — and asks for
the one-to-one mapping with the largest total. Weights may be counts
(smatch) or graded (s2match); nothing here knows about AMR.

Three components, each usable on its own:

* :func:`hill_climb` — best-improvement search with move and swap steps
  from a "smart" start plus seeded random restarts (smatch's search). Move
  and swap gains are computed in O(1) from a table of *local gains*
  ``g(i, j)`` (what ``i -> j`` would earn against the current mapping),
  updated incrementally when an assignment changes;
* :func:`upper_bound` — a cheap proof of optimality: each node pair earns
  its unary weight plus half the best relation gain towards every
  neighbour; the best assignment of those "stars" bounds any mapping;
* :func:`solve_exact` — the ILP (scipy ``milp`` / HiGHS) with a time
  limit, for what the bound cannot settle.

Node pairs are encoded as ints ``p = i * n2 + j``; every structure is a
list or an int-keyed dict, so results never depend on hash seeds.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from typing import Any

#: gains below this are noise (graded weights are floats)
EPSILON = 1e-9


@dataclass(slots=True, eq=False)
class AlignmentProblem:
    """Weights of a graph pair's candidate node pairs (``p = i * n2 + j``).

    ``pairwise[p][q]`` is symmetric and only holds pairs that differ in
    both nodes (two ends of one relation). ``candidates[i]`` lists, in
    increasing order, the nodes ``j`` that ``i`` can earn anything with.
    ``integral`` says all weights are whole numbers, so bounds may be
    rounded down.
    """

    n1: int
    n2: int
    unary: dict[int, float]
    pairwise: dict[int, dict[int, float]]
    integral: bool = True
    candidates: list[list[int]] = field(init=False)

    def __post_init__(self) -> None:
        n2 = self.n2
        found: list[set[int]] = [set() for _ in range(self.n1)]
        for p in (*self.unary, *self.pairwise):
            found[p // n2].add(p % n2)
        self.candidates = [sorted(js) for js in found]

    def value(self, mapping: list[int]) -> float:
        """Total weight earned by ``mapping`` (``mapping[i]`` = j or -1)."""
        n2 = self.n2
        pairs = [i * n2 + j for i, j in enumerate(mapping) if j >= 0]
        total = sum(self.unary.get(p, 0) for p in pairs)
        chosen = set(pairs)
        for p in pairs:
            for q, w in self.pairwise.get(p, {}).items():
                if q > p and q in chosen:
                    total += w
        return total


@dataclass(slots=True)
class Alignment:
    """A mapping with its value and what is known about its optimality."""

    mapping: list[int]
    value: float
    upper_bound: float
    #: how the value was found: "search", "search+bound", "ilp"
    method: str = "search"

    @property
    def optimal(self) -> bool:
        return self.value >= self.upper_bound - EPSILON


class _Climber:
    """Mutable search state: a mapping and its table of local gains."""

    __slots__ = ("n1", "n2", "unary", "pairwise", "candidates", "m", "inv", "gain")

    def __init__(self, problem: AlignmentProblem) -> None:
        self.n1, self.n2 = problem.n1, problem.n2
        self.pairwise = problem.pairwise
        self.candidates = problem.candidates
        flat = [0.0] * (self.n1 * self.n2)
        for p, w in problem.unary.items():
            flat[p] = w
        self.unary = flat
        self.m: list[int] = []
        self.inv: list[int] = []
        self.gain: list[float] = []

    def start(self, mapping: list[int]) -> float:
        """Load ``mapping``; return its value."""
        n2 = self.n2
        self.m = list(mapping)
        self.inv = [-1] * n2
        gain = self.gain = list(self.unary)
        pairwise = self.pairwise
        value = 0.0
        for i, j in enumerate(mapping):
            if j < 0:
                continue
            self.inv[j] = i
            p = i * n2 + j
            value += self.unary[p]
            for q, w in pairwise.get(p, {}).items():
                gain[q] += w
        for i, j in enumerate(mapping):
            if j >= 0:
                p = i * n2 + j
                value += (gain[p] - self.unary[p]) / 2
        return value

    def _assign(self, i: int, j: int) -> float:
        """Align ``i -> j`` (both free); return the value gained."""
        p = i * self.n2 + j
        gained = self.gain[p]
        self.m[i] = j
        self.inv[j] = i
        gain = self.gain
        for q, w in self.pairwise.get(p, {}).items():
            gain[q] += w
        return gained

    def _release(self, i: int) -> float:
        """Unalign ``i``; return the value lost."""
        j = self.m[i]
        p = i * self.n2 + j
        self.m[i] = -1
        self.inv[j] = -1
        gain = self.gain
        for q, w in self.pairwise.get(p, {}).items():
            gain[q] -= w
        return gain[p]

    def climb(self, value: float, stop_at: float) -> float:
        """Climb to a local optimum (or to ``stop_at``); return its value.

        Best-improvement moves and swaps; at their local optimum, one
        :meth:`_edge_step` (first improvement), then moves and swaps again.
        """
        while True:
            value = self._moves_and_swaps(value, stop_at)
            if value >= stop_at - EPSILON:
                return value
            gained = self._edge_step()
            if gained <= EPSILON:
                return value
            value += gained

    def _moves_and_swaps(self, value: float, stop_at: float) -> float:  # noqa: C901
        """Best-improvement moves and swaps until none gains (or ``stop_at``).

        One flat loop on purpose: this is the search's hot path.
        """
        n1, n2 = self.n1, self.n2
        m, inv, gain = self.m, self.inv, self.gain
        candidates, pairwise = self.candidates, self.pairwise
        empty: dict[int, float] = {}
        while value < stop_at - EPSILON:
            best, best_i, best_j = EPSILON, -1, -1
            for i in range(n1):
                a = m[i]
                base = i * n2
                own = gain[base + a] if a >= 0 else 0.0
                for j in candidates[i]:
                    k = inv[j]
                    if k < 0:  # move i -> free j
                        delta = gain[base + j] - own
                    elif k == i:
                        continue
                    elif a < 0:  # i takes j from k, k is left unaligned
                        delta = gain[base + j] - gain[k * n2 + j]
                    else:  # swap: i -> j, k -> a
                        kb = k * n2
                        delta = (
                            gain[base + j]
                            + gain[kb + a]
                            - own
                            - gain[kb + j]
                            + pairwise.get(base + j, empty).get(kb + a, 0.0)
                            + pairwise.get(base + a, empty).get(kb + j, 0.0)
                        )
                    if delta > best:
                        best, best_i, best_j = delta, i, j
            if best_i < 0:
                break
            i, j = best_i, best_j
            a, k = m[i], inv[j]
            if a >= 0:
                self._release(i)
            if k >= 0:
                self._release(k)
            self._assign(i, j)
            if k >= 0 and a >= 0:
                self._assign(k, a)
            value += best
        return value

    def _edge_step(self) -> float:  # noqa: C901
        """Realise one relation match that single moves and swaps cannot.

        A relation earns only when both its ends align, so a mapping can
        be stuck where moving either end alone gains nothing. For each
        pair of node pairs ``(i -> j, k -> t)`` with a relation gain,
        neither end in place yet, and a promising gain before counting
        what displaced nodes lose: align both, the nodes holding ``j`` and
        ``t`` taking the targets that ``i`` and ``k`` vacate (in the better
        of the two orders). The first change that gains is made.
        """
        n2, m, gain = self.n2, self.m, self.gain
        for p, row in self.pairwise.items():
            i, j = divmod(p, n2)
            a = m[i]
            if a == j:  # then moving k alone is a move or swap: done already
                continue
            own_i = gain[i * n2 + a] if a >= 0 else 0.0
            for q, w in row.items():
                k, t = divmod(q, n2)
                b = m[k]
                if q < p or b == t:
                    continue
                own_k = gain[k * n2 + b] if b >= 0 else 0.0
                if gain[p] + gain[q] + w <= own_i + own_k + EPSILON:
                    continue
                best, changes = self._best_edge_change(i, j, k, t)
                if changes:
                    for x, old, _ in changes:
                        if old >= 0:
                            self._release(x)
                    for x, _, new in changes:
                        if new >= 0:
                            self._assign(x, new)
                    return best
        return 0.0

    def _best_edge_change(
        self, i: int, j: int, k: int, t: int
    ) -> tuple[float, list[tuple[int, int, int]]]:
        """The better way to align ``i -> j`` and ``k -> t`` together, if it gains."""
        m, inv = self.m, self.inv
        a, b = m[i], m[k]
        hj, ht = inv[j], inv[t]
        hj = -1 if hj in (i, k) else hj
        ht = -1 if ht in (i, k) else ht
        # the targets i and k vacate (unless they take each other's)
        free_a = -1 if a == t else a
        free_b = -1 if b == j else b
        best, changes = EPSILON, []
        for first, second in ((free_a, free_b), (free_b, free_a)):
            trial = [(i, a, j), (k, b, t)]
            # weights are >= 0, so re-seating a displaced node never loses
            if hj >= 0:
                trial.append((hj, m[hj], first))
            if ht >= 0:
                trial.append((ht, m[ht], second))
            delta = self._delta(trial)
            if delta > best:
                best, changes = delta, trial
            if free_a == free_b or (hj < 0 and ht < 0):
                break  # the other order is the same change
        return best, changes

    def _delta(self, changes: list[tuple[int, int, int]]) -> float:
        """Value change of reassigning nodes ``(node, old, new)`` together.

        ``gain`` counts each node's relations to the *current* positions
        of the other changed nodes, so those terms are taken out and the
        relations among the new positions put in.
        """
        n2, gain, pairwise = self.n2, self.gain, self.pairwise
        empty: dict[int, float] = {}
        olds = [x * n2 + old if old >= 0 else -1 for x, old, _ in changes]
        news = [x * n2 + new if new >= 0 else -1 for x, _, new in changes]
        delta = 0.0
        for p_old, p_new in zip(olds, news, strict=True):
            if p_new >= 0:
                delta += gain[p_new]
            if p_old >= 0:
                delta -= gain[p_old]
        count = len(changes)
        for x in range(count):
            row_old = pairwise.get(olds[x], empty)
            row_new = pairwise.get(news[x], empty)
            for y in range(x + 1, count):
                delta += row_old.get(olds[y], 0.0) + row_new.get(news[y], 0.0)
                delta -= row_new.get(olds[y], 0.0)
                delta -= row_old.get(news[y], 0.0)
        return delta


def smart_start(problem: AlignmentProblem) -> list[int]:
    """Greedy start: node pairs by decreasing unary weight (ties: by index).

    This maps identical concepts first (smatch's "smart" start) and also
    prefers pairs that share attributes and the TOP triple.
    """
    n2 = problem.n2
    mapping = [-1] * problem.n1
    used = [False] * n2
    ranked = sorted(problem.unary.items(), key=lambda pw: (-pw[1], pw[0]))
    for p, _ in ranked:
        i, j = divmod(p, n2)
        if mapping[i] < 0 and not used[j]:
            mapping[i] = j
            used[j] = True
    return mapping


def random_start(problem: AlignmentProblem, rng: random.Random) -> list[int]:
    """Each node, in random order, to a random free candidate (if any)."""
    mapping = [-1] * problem.n1
    used = [False] * problem.n2
    order = list(range(problem.n1))
    rng.shuffle(order)
    for i in order:
        free = [j for j in problem.candidates[i] if not used[j]]
        if free:
            j = free[rng.randrange(len(free))]
            mapping[i] = j
            used[j] = True
    return mapping


def star_weights(problem: AlignmentProblem) -> dict[int, float]:
    """Per node pair: unary weight + half its best relation gain to the neighbours.

    For ``i -> j``, each neighbour ``k`` of ``i`` can align to one node
    only, so it adds at most its best gain; the same holds from the side of
    the neighbours ``t`` of ``j``; the smaller of the two sums is kept.
    """
    n2 = problem.n2
    stars = dict(problem.unary)
    for p, row in problem.pairwise.items():
        by_k: dict[int, float] = {}
        by_t: dict[int, float] = {}
        for q, w in row.items():
            k, t = divmod(q, n2)
            if w > by_k.get(k, 0.0):
                by_k[k] = w
            if w > by_t.get(t, 0.0):
                by_t[t] = w
        best = min(sum(by_k.values()), sum(by_t.values()))
        stars[p] = stars.get(p, 0.0) + best / 2
    return stars


def upper_bound(
    problem: AlignmentProblem,
    known: float = math.inf,
    stars: dict[int, float] | None = None,
) -> float:
    """A cheap upper bound on any mapping's value (at most ``known``).

    The smaller of the sums of row and of column maxima of the star
    weights; :func:`assignment_bound` is the tighter, costlier one.
    """
    if not problem.unary and not problem.pairwise:
        return 0.0
    if stars is None:
        stars = star_weights(problem)
    n2 = problem.n2
    rows: dict[int, float] = {}
    cols: dict[int, float] = {}
    for p, w in stars.items():
        i, j = divmod(p, n2)
        rows[i] = max(rows.get(i, 0.0), w)
        cols[j] = max(cols.get(j, 0.0), w)
    bound = min(known, sum(rows.values()), sum(cols.values()))
    bound = _round_down(problem, bound)
    return bound


def assignment_bound(
    problem: AlignmentProblem, stars: dict[int, float] | None = None
) -> tuple[float, list[int]]:
    """The tighter bound: best one-to-one assignment of star weights.

    Returns the bound and that assignment, which is also a good start.
    """
    import numpy as np
    from scipy.optimize import linear_sum_assignment

    mapping = [-1] * problem.n1
    if not problem.unary and not problem.pairwise:
        return 0.0, mapping
    if stars is None:
        stars = star_weights(problem)
    matrix = np.zeros((problem.n1, problem.n2))
    keys = np.fromiter(stars.keys(), dtype=np.int64, count=len(stars))
    matrix.flat[keys] = np.fromiter(stars.values(), dtype=float, count=len(stars))
    rows, cols = linear_sum_assignment(matrix, maximize=True)
    for i, j in zip(rows.tolist(), cols.tolist(), strict=True):
        if matrix[i, j] > 0:
            mapping[i] = j
    return _round_down(problem, float(matrix[rows, cols].sum())), mapping


def _round_down(problem: AlignmentProblem, bound: float) -> float:
    return math.floor(bound + EPSILON) if problem.integral else bound


def hill_climb(
    problem: AlignmentProblem,
    restarts: int = 4,
    seed: int = 0,
    bound: float | None = None,
) -> Alignment:
    """Smart starts + ``restarts`` seeded random starts, each hill-climbed.

    The smart starts are :func:`smart_start` and, when that climb is not
    proven optimal, the assignment behind :func:`assignment_bound`. The
    search stops as soon as a mapping reaches the upper bound (it is then
    proven optimal). ``bound`` is a known upper bound (e.g. the smaller
    graph's triple count). Same problem and seed give the same result in
    any process.
    """
    climber = _Climber(problem)
    stop = math.inf if bound is None else bound
    value = climber.climb(climber.start(smart_start(problem)), stop)
    best = Alignment(list(climber.m), value, stop)
    if best.optimal:
        return best
    stars = star_weights(problem)
    best.upper_bound = upper_bound(problem, stop, stars)
    starts: list[list[int]] = []
    if not best.optimal:
        tighter, assigned = assignment_bound(problem, stars)
        best.upper_bound = min(best.upper_bound, tighter)
        starts.append(assigned)
    rng = random.Random(seed)
    for run in range(restarts + len(starts)):
        if best.optimal:
            break
        start = starts[run] if run < len(starts) else random_start(problem, rng)
        value = climber.climb(climber.start(start), best.upper_bound)
        if value > best.value + EPSILON:
            best.mapping, best.value = list(climber.m), value
    if best.optimal:
        best.method = "search+bound"
    return best


def _ilp_model(problem: AlignmentProblem) -> tuple[list[int], Any, Any, Any]:
    """(node pair per x column, cost vector, constraint, integrality)."""
    import numpy as np
    from scipy.optimize import LinearConstraint
    from scipy.sparse import coo_matrix

    n2 = problem.n2
    pairs = [i * n2 + j for i, js in enumerate(problem.candidates) for j in js]
    x_index = {p: v for v, p in enumerate(pairs)}
    edges = [
        (p, q, w)
        for p, row in problem.pairwise.items()
        for q, w in row.items()
        if p < q
    ]
    n_x, n_y = len(pairs), len(edges)
    cost = np.zeros(n_x + n_y)
    for p, w in problem.unary.items():
        cost[x_index[p]] = -w
    for e, (_, _, w) in enumerate(edges):
        cost[n_x + e] = -w
    rows: list[int] = []
    cols: list[int] = []
    vals: list[float] = []
    row_of: dict[tuple[int, int], int] = {}

    def entry(key: tuple[int, int], col: int, value: float) -> None:
        rows.append(row_of.setdefault(key, len(row_of)))
        cols.append(col)
        vals.append(value)

    # one-to-one: key (0, i) for rows, (1, -1 - j) for columns of the mapping
    for v, p in enumerate(pairs):
        i, j = divmod(p, n2)
        entry((0, i), v, 1.0)
        entry((1, -1 - j), v, 1.0)
    # y_pq <= x_p summed over the q that use one node k (G1) or t (G2);
    # keys (p + 2, k) and (p + 2, -1 - t) never clash with the above
    for e, (p, q, _) in enumerate(edges):
        for a, b in ((p, q), (q, p)):
            k, t = divmod(b, n2)
            for key in ((a + 2, k), (a + 2, -1 - t)):
                if key not in row_of:
                    entry(key, x_index[a], -1.0)
                entry(key, n_x + e, 1.0)
    matrix = coo_matrix((vals, (rows, cols)), shape=(len(row_of), n_x + n_y))
    upper = [1.0 if key[0] < 2 else 0.0 for key in row_of]
    constraint = LinearConstraint(matrix.tocsr(), -np.inf, upper)
    integrality = np.concatenate([np.ones(n_x), np.zeros(n_y)])
    return pairs, cost, constraint, integrality


def solve_exact(
    problem: AlignmentProblem, incumbent: Alignment, time_limit: float
) -> Alignment:
    """Prove or improve ``incumbent`` with the ILP (HiGHS, ``time_limit`` s).

    Variables: ``x_p`` (binary) per candidate node pair, ``y_pq`` per
    pair of node pairs with a relation gain. Row and column sums of ``x``
    are at most 1; for each ``p`` and each node ``k`` of the other graph,
    the ``y_pq`` whose ``q`` uses ``k`` sum to at most ``x_p`` (tighter
    than ``y <= x`` alone, and it keeps ``y`` integral without declaring
    it so). The better of incumbent and ILP solution is returned, with the
    solver's proven bound.
    """
    if incumbent.optimal:
        return incumbent
    from scipy.optimize import Bounds, milp

    pairs, cost, constraint, integrality = _ilp_model(problem)
    result = milp(
        cost,
        constraints=[constraint],
        integrality=integrality,
        bounds=Bounds(0, 1),
        options={"time_limit": time_limit, "presolve": True},
    )
    bound = incumbent.upper_bound
    dual = getattr(result, "mip_dual_bound", None)
    if result.status == 0 and result.x is not None:
        bound = min(bound, -float(result.fun))
    elif dual is not None and math.isfinite(dual):
        bound = min(bound, -float(dual))
    best = Alignment(
        incumbent.mapping,
        incumbent.value,
        _round_down(problem, bound + EPSILON),
        incumbent.method,
    )
    if result.x is not None:
        mapping = [-1] * problem.n1
        for v, p in enumerate(pairs):
            if result.x[v] > 0.5:
                i, j = divmod(p, problem.n2)
                mapping[i] = j
        value = problem.value(mapping)
        if value > best.value + EPSILON:
            best.mapping, best.value = mapping, value
        best.method = "ilp"
    best.upper_bound = max(best.upper_bound, best.value)
    return best
