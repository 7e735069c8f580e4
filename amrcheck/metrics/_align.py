"""Variable alignment for triple-matching metrics: seeded search, bounds, ILP.

Layer: metrics (above the graph layer, below any one metric). A metric
turns a graph pair into an :class:`AlignmentProblem` — how much each
candidate node pair ``i -> j`` earns on its own (``unary``: instance and
attribute triples, self-loops) and how much two node pairs earn together
(``pairwise``: relation triples whose two ends both align) — and asks for
the one-to-one mapping with the largest total. Weights may be counts
(smatch) or graded (s2match); nothing here knows about AMR.

Three components:

* :func:`hill_climb` — best-improvement search with move and swap steps
  from a "smart" start plus seeded random restarts (smatch's search). Move
  and swap gains are computed in O(1) from a table of *local gains*
  ``g(i, j)`` (what ``i -> j`` would earn against the current mapping),
  updated incrementally when an assignment changes; compiled
  (:mod:`._search`);
* bounds — a cheap proof of optimality: each node pair earns its unary
  weight plus half the best relation gain towards every neighbour; the
  sums of row and column maxima of those "stars", then their best
  one-to-one assignment, bound any mapping;
* :func:`solve_exact` — the ILP (scipy ``milp`` / HiGHS) with a time
  limit, for what the bounds cannot settle.

Node pairs are encoded as ints ``p = i * n2 + j``; results never depend on
hash seeds or on the process.
"""

from __future__ import annotations

import math
import sys
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from . import _search
from ._search import EPSILON

if TYPE_CHECKING:
    import numpy as np

__all__ = [
    "EPSILON",
    "SWITCH_AFTER",
    "Alignment",
    "AlignmentProblem",
    "deadline_after",
    "hill_climb",
    "solve_exact",
    "triple_problem",
    "use_compiled",
]


#: alignments a process does with the plain search before it loads the
#: compiled one (loading costs about 0.5 s, some 1,000 plain alignments)
SWITCH_AFTER = 1000
_compiled: dict[str, Any] | None = None
_plain_alignments = 0
#: this process keeps the plain search: it never loads the compiled one
_plain_only = False
#: the compiled search was not ready when asked for: not asked again
_declined = False


def use_compiled(wait: bool = False) -> bool:
    """Load the compiled search into this process now, if it can be had at
    once; returns whether the process now uses it.

    Where mypyc compiled :mod:`._search` (:data:`._search.PACKED`) that
    search is used throughout, and numba is never loaded (returns False).
    Elsewhere the search runs as plain Python for a process's first
    :data:`SWITCH_AFTER` alignments, then compiled by numba: the same code
    and the same results, ~20× faster, for about 0.5 s of loading (numba's
    import and its first call) that small jobs — a pre-commit hook, an
    editor's first checks — should not pay. Work known to be large calls
    this first (in the parent, so that forked workers inherit it loaded).

    On an install's first run numba would compile the search instead (about
    20 s). No run waits for that: unless this install has the compiled code
    cached (:func:`._search_cache.ready`), this starts compiling it in a
    detached low-priority process, says so on stderr (the one process that
    starts it, so a run says it at most once, whatever its workers do), and
    the process keeps the plain search. ``wait=True`` loads (or compiles)
    here and now, and says so on stderr when it compiles. Loading what is
    cached says nothing, however long a busy machine takes over it.
    """
    global _compiled, _declined
    if _compiled is not None:
        return True
    if _search.PACKED:  # compiled by mypyc: numba's speed, nothing to load
        return False
    if _plain_only and not wait:
        return False
    # numba's cache (platform, pickle, ...): a compiled build never loads it
    from . import _search_cache

    if not wait and not _search_cache.ready():
        if not _declined and _search_cache.prepare_in_background():
            _say_preparing()
        _declined = True
        return False

    import numpy as np

    if not _search_cache.ready():
        _say_compiling()
    compiled = _search.compiled()
    # one call of each entry point, with the argument types of real ones
    unary, row_start, partners, weights, _ = compiled["build_triple_problem"](
        np.array([1, 1, 1, 0, 0, 1, 0, 0, 0, 7, 0, 7], dtype=np.int64), True
    )
    compiled["search"](
        1, 1, unary, row_start, partners, weights, True, 4, 0, 1.0, math.inf
    )
    compiled["mapping_value"](
        1, 1, unary, row_start, partners, weights, np.zeros(1, dtype=np.int64)
    )
    _search_cache.record(compiled)
    _compiled = compiled
    return True


def stay_plain() -> None:
    """Keep the plain search in this process for good.

    For a server that must answer every keystroke at once: loading the
    compiled search takes about 0.5 s, during which it would answer
    nothing; its small, steady work is quick enough plain.
    """
    global _plain_only
    _plain_only = True


def _numba(cells: int = 0) -> dict[str, Any] | None:
    """numba's compiled search (it takes numpy arrays) where this process
    uses it now, else None: the plain search, :mod:`._search` itself.

    A problem of ``cells`` >= :data:`._search.LARGE_CELLS` node pairs (a
    document, not a sentence) loads the compiled search at once where it is
    ready: some 20× faster, it is worth its 0.5 s of loading on one such
    pair.

    The plain search is called as ``_search.f(...)``, never through a table
    of its functions: where mypyc compiled it, that is a native call, while
    a Python-level call into a compiled function that takes a ``vec`` never
    releases the vector it unboxes (mypyc 2.4 / librt 0.17): every pair's
    problem leaked (``tests/metrics/test_memory.py``).
    """
    if _compiled is None and not _declined and not _search.PACKED and (
        _plain_alignments >= SWITCH_AFTER or cells >= _search.LARGE_CELLS
    ):
        use_compiled()
    return _compiled


def _say_compiling() -> None:
    print(
        "amrcheck: compiling the alignment search for this machine "
        "(first run only, about 20 s; cached afterwards) ...",
        file=sys.stderr,
        flush=True,
    )


def _say_preparing() -> None:
    print(
        "amrcheck: the compiled alignment search is being prepared for this "
        "machine in the background (once, about 20 s); until it is ready, "
        "runs use the plain search (same scores, slower on large work)",
        file=sys.stderr,
        flush=True,
    )


class AlignmentProblem:
    """Weights of a graph pair's candidate node pairs (``p = i * n2 + j``).

    ``unary`` has one weight per node pair (``n1 * n2``). The pairwise
    weights are compressed rows: row ``p`` is
    ``partners[row_start[p]:row_start[p + 1]]`` (increasing) with their
    ``weights``; symmetric, and only between pairs that differ in both
    nodes (two ends of one relation). All weights are >= 0. ``integral``
    says they are whole numbers, so bounds may be rounded down.

    The four are numpy arrays; a problem the plain search built
    (:meth:`built`) keeps its sequences and makes the arrays only when
    asked for them, so that smatch's path needs no numpy at all.
    """

    __slots__ = ("_arrays", "_plain", "integral", "n1", "n2")

    def __init__(
        self,
        n1: int,
        n2: int,
        unary: np.ndarray[Any, np.dtype[np.float64]] | None,
        row_start: np.ndarray[Any, np.dtype[np.int64]] | None,
        partners: np.ndarray[Any, np.dtype[np.int64]] | None,
        weights: np.ndarray[Any, np.dtype[np.float64]] | None,
        integral: bool = True,
        plain: tuple[Any, Any, Any, Any] | None = None,
    ) -> None:
        self.n1, self.n2, self.integral = n1, n2, integral
        #: the four as numpy arrays; None for a problem :meth:`built` (made
        #: from ``plain`` when asked for)
        self._arrays: tuple[Any, Any, Any, Any] | None = (
            None if plain is not None else (unary, row_start, partners, weights)
        )
        #: the four as the plain search takes them, once made
        self._plain = plain

    @classmethod
    def built(
        cls, n1: int, n2: int, plain: tuple[Any, Any, Any, Any], integral: bool
    ) -> AlignmentProblem:
        """A problem from the plain search's own sequences (unary,
        row_start, partners, weights: :data:`._search.Ints` and
        :data:`._search.Floats`)."""
        # through __init__ (no ``__new__``): the compiled build's classes
        # are made only by their constructor
        return cls(n1, n2, None, None, None, None, integral, plain)

    @property
    def unary(self) -> np.ndarray[Any, np.dtype[np.float64]]:
        return self._numpy()[0]  # type: ignore[no-any-return]

    @property
    def row_start(self) -> np.ndarray[Any, np.dtype[np.int64]]:
        return self._numpy()[1]  # type: ignore[no-any-return]

    @property
    def partners(self) -> np.ndarray[Any, np.dtype[np.int64]]:
        return self._numpy()[2]  # type: ignore[no-any-return]

    @property
    def weights(self) -> np.ndarray[Any, np.dtype[np.float64]]:
        return self._numpy()[3]  # type: ignore[no-any-return]

    def _numpy(self) -> tuple[Any, Any, Any, Any]:
        if self._arrays is None:
            import numpy as np

            assert self._plain is not None
            unary, row_start, partners, weights = self._plain
            self._arrays = (
                np.array(unary, dtype=np.float64),
                np.array(row_start, dtype=np.int64),
                np.array(partners, dtype=np.int64),
                np.array(weights, dtype=np.float64),
            )
            # from now on the arrays are the problem (a caller may change
            # them in place: s2match adds its graded weights to ``unary``)
            self._plain = None
        return self._arrays

    def check(self) -> None:
        """Raise ``ValueError`` unless the arrays describe a valid problem."""
        cells = self.n1 * self.n2
        if self.unary.shape != (cells,) or self.row_start.shape != (cells + 1,):
            raise ValueError("unary and row_start must have n1 * n2 (+ 1) entries")
        if (self.unary < 0).any() or (self.weights < 0).any():
            raise ValueError("alignment weights must be >= 0")

    def edges(self) -> list[tuple[int, int, float]]:
        """Each pairwise weight once: ``(p, q, w)`` with ``p < q``."""
        import numpy as np

        owners = np.repeat(np.arange(self.n1 * self.n2), np.diff(self.row_start))
        keep = owners < self.partners
        return list(
            zip(
                owners[keep].tolist(),
                self.partners[keep].tolist(),
                self.weights[keep].tolist(),
                strict=True,
            )
        )

    def value(self, mapping: list[int]) -> float:
        """Total weight earned by ``mapping`` (``mapping[i]`` = j or -1)."""
        numba = _numba()
        if numba is not None:
            import numpy as np

            taken = np.asarray(mapping, dtype=np.int64)
            return float(
                numba["mapping_value"](self.n1, self.n2, *self._numpy(), taken)
            )
        unary, row_start, partners, weights = self._plain_storage()
        return _search.mapping_value(
            self.n1,
            self.n2,
            unary,
            row_start,
            partners,
            weights,
            _search.as_ints(list(mapping)),
        )

    def _plain_storage(self) -> tuple[Any, Any, Any, Any]:
        """unary, row_start, partners, weights as the plain search takes them
        (:data:`._search.Ints`, :data:`._search.Floats`)."""
        if self._plain is None:
            self._plain = (
                _search.as_floats(self.unary.tolist()),
                _search.as_ints(self.row_start.tolist()),
                _search.as_ints(self.partners.tolist()),
                _search.as_floats(self.weights.tolist()),
            )
        return self._plain


@dataclass(slots=True, init=False)
class Alignment:
    """A mapping with its value and what is known about its optimality.

    ``__init__`` is written out: the one ``dataclass`` would make runs as
    interpreted code even in the compiled build (two alignments a pair).
    """

    mapping: list[int]
    value: float
    upper_bound: float
    #: how the value was found: "search", "search+bound", "ilp"
    method: str = "search"
    #: the time budget stopped the search (or the ILP) before it was done
    cut: bool = False

    def __init__(
        self,
        mapping: list[int],
        value: float,
        upper_bound: float,
        method: str = "search",
        cut: bool = False,
    ) -> None:
        self.mapping = mapping
        self.value = value
        self.upper_bound = upper_bound
        self.method = method
        self.cut = cut

    @property
    def optimal(self) -> bool:
        return self.value >= self.upper_bound - EPSILON


def deadline_after(budget: float | None) -> float:
    """The ``time.perf_counter()`` at which a budget of ``budget`` seconds
    started now runs out (``math.inf`` for None: no budget)."""
    return math.inf if budget is None else time.perf_counter() + budget


def hill_climb(
    problem: AlignmentProblem,
    restarts: int = 4,
    seed: int = 0,
    bound: float | None = None,
    deadline: float = math.inf,
) -> Alignment:
    """Smart starts + ``restarts`` seeded random starts, each hill-climbed.

    The smart starts are a greedy one (node pairs by decreasing unary
    weight) and, when that climb is not proven optimal, the assignment
    behind the star bound. The search stops as soon as a mapping reaches
    the upper bound (it is then proven optimal). ``bound`` is a known upper
    bound (e.g. the smaller graph's triple count). Same problem and seed
    give the same result in any process. At ``deadline``
    (:func:`deadline_after`) the search stops with the best mapping found,
    ``cut`` (an upper bound is computed all the same), and the result then
    depends on the machine's speed.
    """
    global _plain_alignments
    numba = _numba(problem.n1 * problem.n2)
    limit = math.inf if bound is None else float(bound)
    if numba is not None:
        mapping, value, upper, proven, cut = numba["search"](
            problem.n1,
            problem.n2,
            *problem._numpy(),
            problem.integral,
            restarts,
            seed,
            limit,
            deadline,
        )
    else:
        _plain_alignments += 1
        unary, row_start, partners, weights = problem._plain_storage()
        mapping, value, upper, proven, cut = _search.search(
            problem.n1,
            problem.n2,
            unary,
            row_start,
            partners,
            weights,
            problem.integral,
            restarts,
            seed,
            limit,
            deadline,
        )
    method = "search+bound" if proven else "search"
    return Alignment(
        list(map(int, mapping)), float(value), float(upper), method, bool(cut)
    )


def triple_problem(
    encoded: list[int], product: bool
) -> tuple[AlignmentProblem, float | None]:
    """smatch's problem from a graph pair's triples encoded as ints, and its
    label bound (None where it bounds nothing); see
    :func:`._search.build_triple_problem` for the encoding."""
    n1, n2 = int(encoded[0]), int(encoded[1])
    numba = _numba(n1 * n2)
    if numba is not None:
        import numpy as np

        data = np.array(encoded, dtype=np.int64)
        unary, row_start, partners, weights, bound = numba["build_triple_problem"](
            data, product
        )
        problem = AlignmentProblem(n1, n2, unary, row_start, partners, weights)
    else:
        built = _search.build_triple_problem(_search.as_ints(encoded), product)
        problem = AlignmentProblem.built(n1, n2, built[:4], True)
        bound = built[4]
    return problem, (None if bound < 0 else float(bound))


def _ilp_model(problem: AlignmentProblem) -> tuple[list[int], Any, Any, Any]:
    """(node pair per x column, cost vector, constraint, integrality)."""
    import numpy as np
    from scipy.optimize import LinearConstraint
    from scipy.sparse import coo_matrix


    n2 = problem.n2
    # the node pairs the search considers (the plain search's own list)
    unary, row_start, _, _ = problem._plain_storage()
    starts, targets = _search._candidates(problem.n1, n2, unary, row_start)
    pairs = [
        i * n2 + targets[c]
        for i in range(problem.n1)
        for c in range(starts[i], starts[i + 1])
    ]
    x_index = {p: v for v, p in enumerate(pairs)}
    edges = problem.edges()
    n_x, n_y = len(pairs), len(edges)
    cost = np.zeros(n_x + n_y)
    cost[:n_x] = -problem.unary[pairs]
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
    solver's proven bound (its dual bound when the time limit stops it:
    then ``cut``, unless the incumbent reaches that bound).
    """
    if incumbent.optimal:
        return incumbent
    from scipy.optimize import Bounds, milp

    started = time.perf_counter()
    pairs, cost, constraint, integrality = _ilp_model(problem)
    # the model's making counts against the limit (seconds on a document)
    left = max(time_limit - (time.perf_counter() - started), 0.01)
    result = milp(
        cost,
        constraints=[constraint],
        integrality=integrality,
        bounds=Bounds(0, 1),
        options={"time_limit": left, "presolve": True},
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
        _search._round_down(bound + EPSILON, problem.integral),
        incumbent.method,
        incumbent.cut or result.status == 1,  # 1: HiGHS's time limit
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
    best.cut = best.cut and not best.optimal
    return best
