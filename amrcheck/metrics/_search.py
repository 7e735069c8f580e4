"""The core of the alignment search: plain Python, compiled by mypyc, or by numba.

Layer: metrics, below :mod:`._align`, which is the only module that calls
it. Everything here works on flat sequences of one alignment problem:

* ``unary[p]`` — weight of node pair ``p = i * n2 + j`` on its own;
* ``row_start``, ``partners``, ``weights`` — the pairwise weights in
  compressed rows: row ``p`` lists, by increasing ``q``, every node pair
  that earns ``weights[e]`` together with ``p`` (symmetric; the two pairs
  differ in both nodes).

The search is smatch's hill climbing, as :mod:`._align` describes it,
with a deadline (the time budget: checked at every step, it stops the
search with the best mapping so far) and a variant for documents
(:data:`LARGE_CELLS`: sweeps, restarts near the best mapping).

Three ways to run the very same functions:

* compiled by mypyc (a compiled install, ``setup.py``; :data:`PACKED`):
  storage is librt's packed vectors (``vec[i64]``, ``vec[float]``), which
  mypyc reads and writes unboxed, and the integers are native ``i64``: as
  fast per pair as numba's, with nothing to load, so such an install never
  loads numba;
* interpreted over Python lists (faster there than vectors): small jobs of
  a pure Python install, the language server;
* :func:`compiled` gives numba-compiled versions over numpy arrays: large
  work of a pure Python install (about 20× the interpreted search, ~0.5 s
  to load; numba ignores the type hints).

So the code keeps to what all three run alike: indexing, integer and float
arithmetic, loops, and the storage helpers below, which have a vector/list
and an array version. Random starts draw from a Lehmer generator in
integer arithmetic, so every version gives the same results from the same
seed.

:func:`build_triple_problem` builds smatch's problem from triples encoded
as integers (one sequence per graph pair).
"""

from __future__ import annotations

import math
import os
import time
from bisect import bisect_left
from types import FunctionType
from typing import TYPE_CHECKING, Any, Final, cast

from librt.vecs import vec
from mypy_extensions import i64

#: gains below this are noise (graded weights are floats)
EPSILON = 1e-9

#: the modulus of the starts' random generator (Lehmer / MINSTD, 48271)
_RANDOM_MODULUS = 2147483647
#: node pairs (``n1 * n2``) from which a problem is large: its climbs take
#: each node's best move at once (sweeps) instead of the best of all moves,
#: and its restarts perturb the best mapping instead of drawing a new one.
#: Far above any sentence's graph (the largest of the shared corpora,
#: ~150 nodes, make 22,500): only documents are large.
LARGE_CELLS = 90_000
#: share of nodes a large problem's restart moves away from the best mapping
_KICK_SHARE = 0.05

#: numba's ``objmode`` and numpy where compiled (:func:`compiled`); unused
#: in plain code, which so does not import numpy
_objmode: Any = None
np: Any = None

#: the storage of plain code: librt's packed vectors, which mypyc reads and
#: writes unboxed, where this module is compiled; Python lists where it is
#: interpreted (faster there than vectors: :func:`as_ints`). numba's code
#: takes numpy arrays in their place. (Aliases for the type checker only:
#: compiled, ``vec[i64]`` is not a value.)
if TYPE_CHECKING:
    Ints = vec[i64]
    Floats = vec[float]
    Flags = vec[bool]


def _is_compiled() -> bool:
    return not isinstance(_is_compiled, FunctionType)


#: whether mypyc compiled this module (then its storage is packed)
PACKED: Final = _is_compiled()

# -- storage: vectors or lists here, numpy arrays where compiled by numba ------


def as_ints(values: list[int]) -> Ints:
    """``values`` as this module's integer storage (numba's: numpy arrays)."""
    if PACKED:
        return vec[i64](values)
    return cast("Ints", values)


def as_floats(values: list[float]) -> Floats:
    """``values`` as this module's float storage."""
    if PACKED:
        return vec[float](values)
    return cast("Floats", values)


def _ints(size: i64, fill: i64) -> Ints:
    if PACKED:  # (written out: mypyc allocates it at once)
        return vec[i64]([fill] * size)
    return cast("Ints", [fill] * size)


def _floats(size: i64) -> Floats:
    if PACKED:
        return vec[float]([0.0] * size)
    return cast("Floats", [0.0] * size)


def _flags(size: i64) -> Flags:
    if PACKED:
        return vec[bool]([False] * size)
    return cast("Flags", [False] * size)


def _copy_ints(values: Ints) -> Ints:
    return values[:]


def _copy_floats(values: Floats) -> Floats:
    return values[:]


def _set_floats(target: Floats, values: Floats) -> None:
    """``target[:] = values`` (same length)."""
    if PACKED:
        for x in range(len(values)):
            target[x] = values[x]
    else:
        cast(list[float], target)[:] = values


def _sorted(values: Ints) -> Ints:
    if not PACKED:
        return as_ints(sorted(values))
    order = _stable_order_ints(values)
    ordered = _ints(len(values), 0)
    for x in range(len(values)):
        ordered[x] = values[order[x]]
    return ordered


def _largest(values: Floats) -> float:
    if not PACKED:
        return max(values, default=0.0)
    largest = 0.0
    for x in range(len(values)):
        if x == 0 or values[x] > largest:
            largest = values[x]
    return largest


def _stable_order(values: Floats) -> Ints:
    """Indices of ``values`` by increasing value, ties by index."""
    if not PACKED:
        return as_ints(sorted(range(len(values)), key=values.__getitem__))
    # compiled, a merge sort on unboxed values beats sorted()'s key calls;
    # the same as _stable_order_ints but for the values' type
    size = len(values)
    order, merged = _ints(size, 0), _ints(size, 0)
    for x in range(size):
        order[x] = x
    width: i64 = 1
    while width < size:
        for low in range(0, size, 2 * width):
            middle, high = min(low + width, size), min(low + 2 * width, size)
            a, b = low, middle
            for out in range(low, high):
                if b >= high or (a < middle and values[order[a]] <= values[order[b]]):
                    merged[out] = order[a]
                    a += 1
                else:
                    merged[out] = order[b]
                    b += 1
        order, merged = merged, order
        width *= 2
    return order


def _stable_order_ints(values: Ints) -> Ints:
    """Indices of ``values`` by increasing value, ties by index."""
    if not PACKED:
        return as_ints(sorted(range(len(values)), key=values.__getitem__))
    size = len(values)
    order, merged = _ints(size, 0), _ints(size, 0)
    for x in range(size):
        order[x] = x
    width: i64 = 1
    while width < size:
        for low in range(0, size, 2 * width):
            middle, high = min(low + width, size), min(low + 2 * width, size)
            a, b = low, middle
            for out in range(low, high):
                if b >= high or (a < middle and values[order[a]] <= values[order[b]]):
                    merged[out] = order[a]
                    a += 1
                else:
                    merged[out] = order[b]
                    b += 1
        order, merged = merged, order
        width *= 2
    return order


def _array_ints(size: int, fill: int) -> Any:
    return np.full(size, fill, dtype=np.int64)


def _array_floats(size: int) -> Any:
    return np.zeros(size)


def _array_flags(size: int) -> Any:
    return np.zeros(size, dtype=np.bool_)


def _array_copy_ints(values: Any) -> Any:
    return values.copy()


def _array_copy_floats(values: Any) -> Any:
    return values.copy()


def _array_set_floats(target: Any, values: Any) -> None:
    target[:] = values


def _array_sorted(values: Any) -> Any:
    return np.sort(values)


def _array_largest(values: Any) -> Any:
    return values.max() if len(values) else 0.0


def _array_stable_order(values: Any) -> Any:
    return np.argsort(values, kind="mergesort")


def _array_stable_order_ints(values: Any) -> Any:
    return np.argsort(values, kind="mergesort")


def _now() -> float:
    return time.perf_counter()


def _array_now() -> float:
    # numba has no clock: the interpreter reads it (about 1 us a call)
    with _objmode(now="float64"):
        now = time.perf_counter()
    return now


def _out_of_time(deadline: float, cut: Ints) -> bool:
    """Whether ``deadline`` (``time.perf_counter()`` seconds) has passed;
    then also ``cut[0] = 1``."""
    if deadline < math.inf and _now() >= deadline:
        cut[0] = 1
        return True
    return False


def _random_below(state: Ints, bound: i64) -> i64:
    """A draw in ``[0, bound)`` from the Lehmer generator in ``state[0]``.

    Integer arithmetic only, so the plain and the compiled search draw the
    same numbers from the same seed.
    """
    state[0] = state[0] * 48271 % _RANDOM_MODULUS
    return state[0] % bound


def _put_change(changes: Ints, row: i64, node: i64, old: i64, new: i64) -> None:
    """Row ``row`` of the flat (node, old target, new target) table ``changes``."""
    changes[3 * row], changes[3 * row + 1], changes[3 * row + 2] = node, old, new


# -- pairwise lookups and the climber's state ---------------------------------


def _pair_weight(
    row_start: Ints, partners: Ints, weights: Floats, p: i64, q: i64
) -> float:
    """Weight of node pairs ``p`` and ``q`` together (0 if none or p, q < 0)."""
    if p < 0 or q < 0:
        return 0.0
    low, high = row_start[p], row_start[p + 1]
    if not PACKED:  # interpreted, bisect's C beats a loop
        low = bisect_left(partners, q, low, high)
        return weights[low] if low < high and partners[low] == q else 0.0
    while low < high:
        middle = (low + high) // 2
        found = partners[middle]
        if found < q:
            low = middle + 1
        elif found > q:
            high = middle
        else:
            return weights[middle]
    return 0.0


def _array_pair_weight(
    row_start: Any, partners: Any, weights: Any, p: int, q: int
) -> Any:
    # :func:`_pair_weight` compiled: numba has no ``bisect``
    if p < 0 or q < 0:
        return 0.0
    low, high = row_start[p], row_start[p + 1]
    while low < high:
        middle = (low + high) // 2
        found = partners[middle]
        if found < q:
            low = middle + 1
        elif found > q:
            high = middle
        else:
            return weights[middle]
    return 0.0


def _load(
    n1: i64, n2: i64, unary: Floats, row_start: Ints, partners: Ints,
    weights: Floats, mapping: Ints, m: Ints, inv: Ints, gain: Floats,
) -> float:
    """Load ``mapping`` into ``m``/``inv``/``gain``; return its value.

    ``gain[p]`` is what node pair ``p`` would earn against the current
    mapping: its unary weight plus its weights with every aligned pair.
    """
    for j in range(n2):
        inv[j] = -1
    _set_floats(gain, unary)
    value = 0.0
    for i in range(n1):
        j = mapping[i]
        m[i] = j
        if j < 0:
            continue
        inv[j] = i
        p = i * n2 + j
        value += unary[p]
        for e in range(row_start[p], row_start[p + 1]):
            gain[partners[e]] += weights[e]
    for i in range(n1):
        j = m[i]
        if j >= 0:
            p = i * n2 + j
            value += (gain[p] - unary[p]) / 2
    return value


def _assign(
    n2: i64, row_start: Ints, partners: Ints, weights: Floats, m: Ints,
    inv: Ints, gain: Floats, i: i64, j: i64,
) -> float:
    """Align ``i -> j`` (both free); return the value gained."""
    p = i * n2 + j
    gained = gain[p]
    m[i] = j
    inv[j] = i
    for e in range(row_start[p], row_start[p + 1]):
        gain[partners[e]] += weights[e]
    return gained


def _release(
    n2: i64, row_start: Ints, partners: Ints, weights: Floats, m: Ints,
    inv: Ints, gain: Floats, i: i64,
) -> float:
    """Unalign ``i``; return the value lost."""
    j = m[i]
    p = i * n2 + j
    m[i] = -1
    inv[j] = -1
    for e in range(row_start[p], row_start[p + 1]):
        gain[partners[e]] -= weights[e]
    return gain[p]


# -- the climb ----------------------------------------------------------------


def _apply_move(
    n2: i64, row_start: Ints, partners: Ints, weights: Floats, m: Ints,
    inv: Ints, gain: Floats, i: i64, j: i64,
) -> None:
    """Align ``i -> j``; the node holding ``j`` takes ``i``'s old target."""
    a, k = m[i], inv[j]
    if a >= 0:
        _release(n2, row_start, partners, weights, m, inv, gain, i)
    if k >= 0:
        _release(n2, row_start, partners, weights, m, inv, gain, k)
    _assign(n2, row_start, partners, weights, m, inv, gain, i, j)
    if k >= 0 and a >= 0:
        _assign(n2, row_start, partners, weights, m, inv, gain, k, a)


def _moves_and_swaps(  # noqa: C901 (hot path)
    n1: i64, n2: i64, row_start: Ints, partners: Ints, weights: Floats,
    cand_start: Ints, cand: Ints, m: Ints, inv: Ints, gain: Floats, value: float,
    stop_at: float, sweep: bool, deadline: float, cut: Ints,
) -> float:
    """Best-improvement moves and swaps until none gains (or ``stop_at``).

    A move sends ``i`` to a free ``j`` (or takes ``j`` from ``k``, leaving
    ``k`` unaligned when ``i`` was); a swap exchanges the targets of ``i``
    and ``k``. Gains come from ``gain`` in O(1), plus the relation between
    the two swapped pairs. Ties go to the first ``(i, j)``. With ``sweep``
    (large problems), each node's best move is made as soon as its
    candidates are scanned: a pass over all candidates then makes many
    moves, not one. Stops early, cut, at ``deadline``.
    """
    # a swap's two relation weights are looked up only when, at their
    # heaviest, the swap could beat the best so far (each <= heaviest, and
    # rounding is monotonic: skipping never changes the choice)
    heaviest = _largest(weights)
    while value < stop_at - EPSILON:
        if _out_of_time(deadline, cut):
            break
        best, best_i, best_j = EPSILON, -1, -1
        moved = False
        for i in range(n1):
            a = m[i]
            base = i * n2
            own = gain[base + a] if a >= 0 else 0.0
            for c in range(cand_start[i], cand_start[i + 1]):
                j = cand[c]
                k = inv[j]
                if k < 0:
                    delta = gain[base + j] - own
                elif k == i:
                    continue
                elif a < 0:
                    delta = gain[base + j] - gain[k * n2 + j]
                else:
                    kb = k * n2
                    delta = gain[base + j] + gain[kb + a] - own - gain[kb + j]
                    if delta + heaviest + heaviest <= best:
                        continue
                    delta = (
                        delta
                        + _pair_weight(row_start, partners, weights, base + j, kb + a)
                        + _pair_weight(row_start, partners, weights, base + a, kb + j)
                    )
                if delta > best:
                    best, best_i, best_j = delta, i, j
            if sweep and best_i >= 0:
                _apply_move(
                    n2, row_start, partners, weights, m, inv, gain, best_i, best_j
                )
                value += best
                moved = True
                best, best_i, best_j = EPSILON, -1, -1
                if value >= stop_at - EPSILON or _out_of_time(deadline, cut):
                    return value
        if sweep:
            if not moved:
                break
            continue
        if best_i < 0:
            break
        _apply_move(n2, row_start, partners, weights, m, inv, gain, best_i, best_j)
        value += best
    return value


def _change_value(
    n2: i64, row_start: Ints, partners: Ints, weights: Floats, gain: Floats,
    changes: Ints, count: i64,
) -> float:
    """Value change of reassigning ``changes[:count]`` = (node, old, new) together.

    ``gain`` counts each node's relations to the *current* positions of the
    other changed nodes, so those terms are taken out and the relations
    among the new positions put in.
    """
    delta = 0.0
    for x in range(count):
        node, old, new = changes[3 * x], changes[3 * x + 1], changes[3 * x + 2]
        if new >= 0:
            delta += gain[node * n2 + new]
        if old >= 0:
            delta -= gain[node * n2 + old]
    for x in range(count):
        # the node pairs before and after (-1: unaligned), written out
        # inline: this loop is the plain search's hot spot
        row, old, new = changes[3 * x] * n2, changes[3 * x + 1], changes[3 * x + 2]
        old_x = row + old if old >= 0 else -1
        new_x = row + new if new >= 0 else -1
        for y in range(x + 1, count):
            row, old, new = changes[3 * y] * n2, changes[3 * y + 1], changes[3 * y + 2]
            old_y = row + old if old >= 0 else -1
            new_y = row + new if new >= 0 else -1
            # (a pair with an unaligned side weighs 0: not looked up)
            if old_x >= 0 and old_y >= 0:
                delta += _pair_weight(row_start, partners, weights, old_x, old_y)
            if new_x >= 0 and new_y >= 0:
                delta += _pair_weight(row_start, partners, weights, new_x, new_y)
            if new_x >= 0 and old_y >= 0:
                delta -= _pair_weight(row_start, partners, weights, new_x, old_y)
            if old_x >= 0 and new_y >= 0:
                delta -= _pair_weight(row_start, partners, weights, old_x, new_y)
    return delta


def _best_edge_change(
    n2: i64, row_start: Ints, partners: Ints, weights: Floats, m: Ints, inv: Ints,
    gain: Floats, i: i64, j: i64, k: i64, t: i64, trial: Ints, chosen: Ints,
) -> tuple[float, int]:
    """The better way to align ``i -> j`` and ``k -> t`` together, if it gains.

    The nodes holding ``j`` and ``t`` take the targets that ``i`` and ``k``
    vacate, in either order. Returns (gain, number of rows of ``chosen``).
    """
    a, b = m[i], m[k]
    hj, ht = inv[j], inv[t]
    if hj == i or hj == k:
        hj = -1
    if ht == i or ht == k:
        ht = -1
    free_a = -1 if a == t else a
    free_b = -1 if b == j else b
    best, best_count = EPSILON, 0
    for order in range(2):
        first, second = (free_a, free_b) if order == 0 else (free_b, free_a)
        _put_change(trial, 0, i, a, j)
        _put_change(trial, 1, k, b, t)
        count = 2
        # weights are >= 0, so re-seating a displaced node never loses
        if hj >= 0:
            _put_change(trial, count, hj, m[hj], first)
            count += 1
        if ht >= 0:
            _put_change(trial, count, ht, m[ht], second)
            count += 1
        delta = _change_value(n2, row_start, partners, weights, gain, trial, count)
        if delta > best:
            best, best_count = delta, count
            for x in range(3 * count):
                chosen[x] = trial[x]
        if free_a == free_b or (hj < 0 and ht < 0):
            break  # the other order is the same change
    return best, best_count


def _edge_step(  # noqa: C901 (hot path)
    n2: i64, row_start: Ints, partners: Ints, weights: Floats, related: Ints,
    m: Ints, inv: Ints, gain: Floats, trial: Ints, chosen: Ints,
) -> float:
    """Realise one relation match that single moves and swaps cannot.

    A relation earns only when both its ends align, so a mapping can be
    stuck where moving either end alone gains nothing. For each pair of
    node pairs ``(i -> j, k -> t)`` with a relation weight, neither in place
    yet, and a promising gain before counting what displaced nodes lose:
    align both (:func:`_best_edge_change`). The first change that gains is
    made; returns its gain (0 if none). ``related``: the node pairs with a
    relation weight, increasing.
    """
    for p in related:
        i, j = p // n2, p % n2
        a = m[i]
        if a == j:  # then moving k alone is a move or swap: done already
            continue
        own_i = gain[i * n2 + a] if a >= 0 else 0.0
        for e in range(row_start[p], row_start[p + 1]):
            q = partners[e]
            k, t = q // n2, q % n2
            b = m[k]
            if q < p or b == t:
                continue
            own_k = gain[k * n2 + b] if b >= 0 else 0.0
            if gain[p] + gain[q] + weights[e] <= own_i + own_k + EPSILON:
                continue
            best, count = _best_edge_change(
                n2, row_start, partners, weights, m, inv, gain,
                i, j, k, t, trial, chosen,
            )
            if count:
                for x in range(count):
                    if chosen[3 * x + 1] >= 0:
                        node = chosen[3 * x]
                        _release(n2, row_start, partners, weights, m, inv, gain, node)
                for x in range(count):
                    if chosen[3 * x + 2] >= 0:
                        _assign(
                            n2,
                            row_start,
                            partners,
                            weights,
                            m,
                            inv,
                            gain,
                            chosen[3 * x],
                            chosen[3 * x + 2],
                        )
                return best
    return 0.0


def _climb(
    n1: i64, n2: i64, row_start: Ints, partners: Ints, weights: Floats,
    cand_start: Ints, cand: Ints, related: Ints, m: Ints, inv: Ints, gain: Floats,
    value: float, stop_at: float, trial: Ints, chosen: Ints, sweep: bool,
    deadline: float, cut: Ints,
) -> float:
    """Climb to a local optimum (or to ``stop_at``); return its value.

    Best-improvement moves and swaps (sweeps where ``sweep``); at their
    local optimum, one edge step (first improvement), then moves and swaps
    again. At ``deadline`` it stops where it is, cut (``cut[0] = 1``).
    """
    while True:
        value = _moves_and_swaps(
            n1, n2, row_start, partners, weights, cand_start, cand, m, inv, gain,
            value, stop_at, sweep, deadline, cut,
        )
        if value >= stop_at - EPSILON or cut[0]:
            return value
        gained = _edge_step(
            n2, row_start, partners, weights, related, m, inv, gain, trial, chosen
        )
        if gained <= EPSILON:
            return value
        value += gained


# -- starts and bounds --------------------------------------------------------


def _candidates(n1: i64, n2: i64, unary: Floats, row_start: Ints) -> tuple[Ints, Ints]:
    """Per node ``i``, the nodes ``j`` it can earn anything with (CSR)."""
    cand_start = _ints(n1 + 1, 0)
    cand = _ints(n1 * n2, 0)
    count = 0
    for i in range(n1):
        for j in range(n2):
            p = i * n2 + j
            if unary[p] != 0.0 or row_start[p + 1] > row_start[p]:
                cand[count] = j
                count += 1
        cand_start[i + 1] = count
    return cand_start, cand[:count]


def _related(cells: i64, row_start: Ints) -> Ints:
    """The node pairs with a relation weight, increasing."""
    count = 0
    for p in range(cells):
        if row_start[p + 1] > row_start[p]:
            count += 1
    related = _ints(count, 0)
    count = 0
    for p in range(cells):
        if row_start[p + 1] > row_start[p]:
            related[count] = p
            count += 1
    return related


def _smart_start(n1: i64, n2: i64, unary: Floats) -> Ints:
    """Greedy start: node pairs by decreasing unary weight (ties: by index)."""
    mapping = _ints(n1, -1)
    used = _flags(n2)
    count = 0
    for p in range(n1 * n2):
        if unary[p] != 0.0:
            count += 1
    nonzero = _ints(count, 0)
    negated = _floats(count)
    count = 0
    for p in range(n1 * n2):
        if unary[p] != 0.0:
            nonzero[count], negated[count] = p, -unary[p]
            count += 1
    for o in _stable_order(negated):
        p = nonzero[o]
        i, j = p // n2, p % n2
        if mapping[i] < 0 and not used[j]:
            mapping[i] = j
            used[j] = True
    return mapping


def _random_start(
    n1: i64, n2: i64, cand_start: Ints, cand: Ints, rng: Ints
) -> Ints:
    """Each node, in random order, to a random free candidate (if any)."""
    mapping = _ints(n1, -1)
    used = _flags(n2)
    free = _ints(n2, 0)
    order = _ints(n1, 0)
    for i in range(n1):
        order[i] = i
    for i in range(n1 - 1, 0, -1):  # Fisher-Yates
        k = _random_below(rng, i + 1)
        order[i], order[k] = order[k], order[i]
    for i in order:
        _to_random_free(i, mapping, used, free, cand_start, cand, rng)
    return mapping


def _kicked_start(
    n1: i64, n2: i64, best: Ints, cand_start: Ints, cand: Ints, rng: Ints
) -> Ints:
    """``best`` with a random :data:`_KICK_SHARE` of its nodes sent to
    random free candidates (or left unaligned if none is free): a large
    problem's restart, near a good mapping rather than anywhere."""
    mapping = _copy_ints(best)
    used = _flags(n2)
    for i in range(n1):
        if mapping[i] >= 0:
            used[mapping[i]] = True
    free = _ints(n2, 0)
    kicks = int(float(n1) * _KICK_SHARE) + 1
    for _ in range(kicks):
        i = _random_below(rng, n1)
        if mapping[i] >= 0:
            used[mapping[i]] = False
            mapping[i] = -1
        _to_random_free(i, mapping, used, free, cand_start, cand, rng)
    return mapping


def _to_random_free(
    i: i64, mapping: Ints, used: Flags, free: Ints, cand_start: Ints,
    cand: Ints, rng: Ints,
) -> None:
    """Node ``i`` to a random one of its candidates not ``used`` (left as
    it is when none is free); ``free`` is scratch space of ``n2`` slots."""
    count = 0
    for c in range(cand_start[i], cand_start[i + 1]):
        if not used[cand[c]]:
            free[count] = cand[c]
            count += 1
    if count:
        j = free[_random_below(rng, count)]
        mapping[i] = j
        used[j] = True


def star_weights(
    n1: i64, n2: i64, unary: Floats, row_start: Ints, partners: Ints,
    weights: Floats,
) -> Floats:
    """Per node pair: unary weight + half its best relation gain to the neighbours.

    For ``i -> j``, each neighbour ``k`` of ``i`` can align to one node
    only, so it adds at most its best weight; the same holds from the side
    of the neighbours ``t`` of ``j``; the smaller of the two sums is kept.
    """
    stars = _copy_floats(unary)
    by_k = _floats(n1)
    by_t = _floats(n2)
    for p in range(n1 * n2):
        low, high = row_start[p], row_start[p + 1]
        if low == high:
            continue
        for e in range(low, high):
            k, t = partners[e] // n2, partners[e] % n2
            if weights[e] > by_k[k]:  # (a comparison, not max(): plain speed)
                by_k[k] = weights[e]
            if weights[e] > by_t[t]:
                by_t[t] = weights[e]
        sum_k, sum_t = 0.0, 0.0
        for e in range(low, high):  # each neighbour once, then cleared
            k, t = partners[e] // n2, partners[e] % n2
            sum_k += by_k[k]
            sum_t += by_t[t]
            by_k[k] = 0.0
            by_t[t] = 0.0
        stars[p] += min(sum_k, sum_t) / 2
    return stars


def _round_down(bound: float, integral: bool) -> float:
    return float(math.floor(bound + EPSILON)) if integral else bound


def line_bound(
    n1: i64, n2: i64, stars: Floats, known: float, integral: bool
) -> float:
    """The smaller of the sums of row and of column maxima of ``stars``."""
    rows = _floats(n1)
    cols = _floats(n2)
    for i in range(n1):
        for j in range(n2):
            w = stars[i * n2 + j]
            if w > rows[i]:  # (a comparison, not max(): plain speed)
                rows[i] = w
            if w > cols[j]:
                cols[j] = w
    row_sum, col_sum = 0.0, 0.0
    for i in range(n1):
        row_sum += rows[i]
    for j in range(n2):
        col_sum += cols[j]
    return _round_down(min(known, row_sum, col_sum), integral)


def _min_cost_assignment(  # noqa: C901
    cost: Floats, n: i64, w: i64, deadline: float, cut: Ints
) -> Ints:
    """Column of each row in a minimum-cost assignment of the ``n`` x ``w``
    matrix ``cost`` (flat, rows <= columns); None-like (all -1) when
    ``deadline`` stops it (``cut[0] = 1``).

    Shortest augmenting paths with potentials (the Hungarian method in
    its O(n^2 m) form).
    """
    u = _floats(n + 1)
    v = _floats(w + 1)
    owner = _ints(w + 1, 0)  # row (1-based) holding column
    way = _ints(w + 1, 0)
    min_v = _floats(w + 1)
    used = _flags(w + 1)
    for row in range(1, n + 1):
        if _out_of_time(deadline, cut):
            return _ints(n, -1)
        owner[0] = row
        col0 = 0
        for col in range(w + 1):
            min_v[col] = math.inf
            used[col] = False
        while True:
            used[col0] = True
            row0 = owner[col0]
            delta, col1 = math.inf, 0
            for col in range(1, w + 1):
                if not used[col]:
                    reduced = cost[(row0 - 1) * w + col - 1] - u[row0] - v[col]
                    if reduced < min_v[col]:
                        min_v[col] = reduced
                        way[col] = col0
                    if min_v[col] < delta:
                        delta, col1 = min_v[col], col
            for col in range(w + 1):
                if used[col]:
                    u[owner[col]] += delta
                    v[col] -= delta
                else:
                    min_v[col] -= delta
            col0 = col1
            if owner[col0] == 0:
                break
        while col0 != 0:
            col1 = way[col0]
            owner[col0] = owner[col1]
            col0 = col1
    assigned = _ints(n, -1)
    for col in range(1, w + 1):
        if owner[col] != 0:
            assigned[owner[col] - 1] = col - 1
    return assigned


def assignment_bound(  # noqa: C901
    n1: i64, n2: i64, stars: Floats, integral: bool, deadline: float, cut: Ints
) -> tuple[float, Ints]:
    """The best one-to-one assignment of ``stars``: (bound, that mapping).

    The mapping keeps only pairs with a positive star weight; it is also a
    good start for the search. When ``deadline`` stops it (O(n^3): the
    search's one step that is not near-linear), the bound is ``math.inf``
    and the mapping empty.
    """
    mapping = _ints(n1, -1)
    cost = _floats(n1 * n2)
    total = 0.0
    if n1 <= n2:
        for p in range(n1 * n2):
            cost[p] = -stars[p]
        columns = _min_cost_assignment(cost, n1, n2, deadline, cut)
        if cut[0]:
            return math.inf, mapping
        for i in range(n1):
            p = i * n2 + columns[i]
            total += stars[p]
            if stars[p] > 0:
                mapping[i] = columns[i]
    else:  # transposed, so that rows <= columns
        for i in range(n1):
            for j in range(n2):
                cost[j * n1 + i] = -stars[i * n2 + j]
        rows = _min_cost_assignment(cost, n2, n1, deadline, cut)
        if cut[0]:
            return math.inf, mapping
        for j in range(n2):
            p = rows[j] * n2 + j
            total += stars[p]
            if stars[p] > 0:
                mapping[rows[j]] = j
    return _round_down(total, integral), mapping


# -- the search ---------------------------------------------------------------


def mapping_value(
    n1: i64, n2: i64, unary: Floats, row_start: Ints, partners: Ints,
    weights: Floats, mapping: Ints,
) -> float:
    """Total weight earned by ``mapping`` (``mapping[i]`` = j or -1)."""
    m, inv, gain = _ints(n1, -1), _ints(n2, -1), _floats(n1 * n2)
    return _load(n1, n2, unary, row_start, partners, weights, mapping, m, inv, gain)


def search(
    n1: i64, n2: i64, unary: Floats, row_start: Ints, partners: Ints,
    weights: Floats, integral: bool, restarts: int, seed: int, known: float,
    deadline: float,
) -> tuple[Ints, float, float, int, int]:
    """Smart starts + ``restarts`` seeded random starts, each climbed.

    Returns (mapping, value, upper bound, proven by the bound after the
    first climb: 0, or later: 1, cut: 1 when ``deadline`` stopped it). The
    first climb starts from :func:`_smart_start`; when it is not proven
    optimal against ``known``, the assignment behind
    :func:`assignment_bound` is climbed, then the random starts (seeded
    with ``seed`` for each problem), stopping as soon as a mapping reaches
    the bound. A large problem (:data:`LARGE_CELLS`) climbs by sweeps, and
    its restarts perturb the best mapping (:func:`_kicked_start`).
    ``deadline`` (``time.perf_counter()`` seconds, ``math.inf`` for none)
    stops the search where it is: the best mapping so far is returned, and
    the bound is computed all the same.
    """
    m, inv, gain = _ints(n1, -1), _ints(n2, -1), _floats(n1 * n2)
    trial, chosen = _ints(12, 0), _ints(12, 0)  # up to 4 (node, old, new)
    cut = _ints(1, 0)
    sweep = n1 * n2 >= LARGE_CELLS
    cand_start, cand = _candidates(n1, n2, unary, row_start)
    related = _related(n1 * n2, row_start)
    value = _load(
        n1, n2, unary, row_start, partners, weights, _smart_start(n1, n2, unary),
        m, inv, gain,
    )
    value = _climb(
        n1, n2, row_start, partners, weights, cand_start, cand, related, m, inv,
        gain, value, known, trial, chosen, sweep, deadline, cut,
    )
    best, best_value, bound = _copy_ints(m), value, known
    if best_value >= bound - EPSILON:
        return best, best_value, bound, 0, 0
    stars = star_weights(n1, n2, unary, row_start, partners, weights)
    bound = line_bound(n1, n2, stars, known, integral)
    if best_value >= bound - EPSILON:
        return best, best_value, bound, 1, 0
    if cut[0]:  # out of time: the assignment would not be climbed
        return best, best_value, bound, 0, 1
    tighter, start = assignment_bound(n1, n2, stars, integral, deadline, cut)
    bound = min(bound, tighter)
    rng = _ints(1, seed % (_RANDOM_MODULUS - 1) + 1)
    for run in range(restarts + 1):
        if best_value >= bound - EPSILON or _out_of_time(deadline, cut):
            break
        if run > 0 and sweep:
            start = _kicked_start(n1, n2, best, cand_start, cand, rng)
        elif run > 0:
            start = _random_start(n1, n2, cand_start, cand, rng)
        value = _load(n1, n2, unary, row_start, partners, weights, start, m, inv, gain)
        value = _climb(
            n1, n2, row_start, partners, weights, cand_start, cand, related, m, inv,
            gain, value, bound, trial, chosen, sweep, deadline, cut,
        )
        if value > best_value + EPSILON:
            for i in range(n1):
                best[i] = m[i]
            best_value = value
    proven = 1 if best_value >= bound - EPSILON else 0
    return best, best_value, bound, proven, 0 if proven else cut[0]


# -- smatch's problem from encoded triples -------------------------------------


def _runs(keys: Ints) -> tuple[Ints, Ints]:
    """Sorted distinct ``keys`` and how often each occurs."""
    ordered = _sorted(keys)
    distinct = _ints(len(ordered), 0)
    counts = _ints(len(ordered), 0)
    size = 0
    for x in ordered:
        if size and distinct[size - 1] == x:
            counts[size - 1] += 1
        else:
            distinct[size] = x
            counts[size] = 1
            size += 1
    return distinct[:size], counts[:size]


def _combine(ours: i64, theirs: i64, product: bool) -> i64:
    return ours * theirs if product else min(ours, theirs)


def _label_matches(
    ours: Ints, our_counts: Ints, theirs: Ints, their_counts: Ints, scale: i64
) -> i64:
    """Sum over labels of the smaller count (keys are ``label * scale + …``)."""
    total = 0
    x = y = 0
    while x < len(ours) and y < len(theirs):
        label_x, label_y = ours[x] // scale, theirs[y] // scale
        if label_x < label_y:
            x += 1
        elif label_x > label_y:
            y += 1
        else:
            mine = 0
            while x < len(ours) and ours[x] // scale == label_x:
                mine += our_counts[x]
                x += 1
            other = 0
            while y < len(theirs) and theirs[y] // scale == label_y:
                other += their_counts[y]
                y += 1
            total += min(mine, other)
    return total


def _keyed_triples(encoded: Ints) -> list[tuple[Ints, Ints]]:
    """Per graph and kind, the distinct triple keys (label first) and counts.

    Instance and attribute keys are ``label * scale + node``, relation keys
    ``(role * scale + source) * scale + target``.
    """
    n1, n2 = encoded[0], encoded[1]
    scale = max(n1, n2, 1)
    at = 8
    keyed: list[tuple[Ints, Ints]] = []  # candidate's 3 kinds, then the reference's
    for graph in range(2):
        for kind in range(3):
            size = encoded[2 + 3 * graph + kind]
            keys = _ints(size, 0)
            for x in range(size):  # label, then node
                keys[x] = encoded[at + size + x] * scale + encoded[at + x]
            if kind < 2:
                at += 2 * size
            else:  # then target
                for x in range(size):
                    keys[x] = keys[x] * scale + encoded[at + 2 * size + x]
                at += 3 * size
            keyed.append(_runs(keys))
    return keyed


def _run_end(keys: Ints, start: i64, divisor: i64) -> i64:
    """End of the run of sorted ``keys`` from ``start`` with its label
    (``key // divisor``)."""
    label = keys[start] // divisor
    end = start + 1
    while end < len(keys) and keys[end] // divisor == label:
        end += 1
    return end


def _matched_runs(
    ours: Ints, theirs: Ints, divisor: i64
) -> tuple[Ints, Ints, Ints, Ints, int]:
    """The runs of each label (``key // divisor``) found in both sorted key
    lists, by increasing label: (x starts, x ends, y starts, y ends, count).

    Pairing each x of a run with each y of its partner run visits the
    equal-label pairs in the order of a double loop over x then y, without
    comparing every x with every y.
    """
    size = min(len(ours), len(theirs))
    x_from, x_to = _ints(size, 0), _ints(size, 0)
    y_from, y_to = _ints(size, 0), _ints(size, 0)
    count = 0
    x = y = 0
    while x < len(ours) and y < len(theirs):
        label_x, label_y = ours[x] // divisor, theirs[y] // divisor
        if label_x < label_y:
            x = _run_end(ours, x, divisor)
        elif label_x > label_y:
            y = _run_end(theirs, y, divisor)
        else:
            x_from[count], y_from[count] = x, y
            x, y = _run_end(ours, x, divisor), _run_end(theirs, y, divisor)
            x_to[count], y_to[count] = x, y
            count += 1
    return x_from, x_to, y_from, y_to, count


def _relation_rows(  # noqa: C901 (one pass)
    ours: Ints, our_counts: Ints, theirs: Ints, their_counts: Ints, n1: i64,
    n2: i64, scale: i64, product: bool, unary: Floats,
) -> tuple[Ints, Ints, Floats]:
    """The pairwise weights of matching relation triples, as compressed rows.

    Self-loops matched by self-loops earn their node pair a unary weight.
    """
    x_from, x_to, y_from, y_to, runs = _matched_runs(ours, theirs, scale * scale)
    capacity = 0
    for run in range(runs):
        capacity += 2 * (x_to[run] - x_from[run]) * (y_to[run] - y_from[run])
    cells = n1 * n2
    pair_keys = _ints(capacity, 0)
    pair_weights = _floats(capacity)
    size = 0
    for run in range(runs):
        for x in range(x_from[run], x_to[run]):
            i, k = (ours[x] // scale) % scale, ours[x] % scale
            for y in range(y_from[run], y_to[run]):
                j, t = (theirs[y] // scale) % scale, theirs[y] % scale
                w = float(_combine(our_counts[x], their_counts[y], product))
                if i == k and j == t:  # self-loop: earned by one node pair
                    unary[i * n2 + j] += w
                elif i != k and j != t:  # else the two ends can never both align
                    p, q = i * n2 + j, k * n2 + t
                    pair_keys[size], pair_weights[size] = p * cells + q, w
                    pair_keys[size + 1], pair_weights[size + 1] = q * cells + p, w
                    size += 2
    order = _stable_order_ints(pair_keys[:size])
    row_start = _ints(cells + 1, 0)
    partners = _ints(size, 0)
    weights = _floats(size)
    kept, last = 0, -1
    for o in order:
        key = pair_keys[o]
        if key == last:  # the same two node pairs through another role
            weights[kept - 1] += pair_weights[o]
            continue
        last = key
        partners[kept] = key % cells
        weights[kept] = pair_weights[o]
        kept += 1
        row_start[key // cells + 1] += 1
    for p in range(cells):
        row_start[p + 1] += row_start[p]
    return row_start, partners[:kept], weights[:kept]


def build_triple_problem(
    encoded: Ints, product: bool
) -> tuple[Floats, Ints, Ints, Floats, float]:
    """smatch's alignment problem from one encoded graph pair.

    ``encoded`` = ``[n1, n2, I1, A1, R1, I2, A2, R2]`` followed by the
    candidate's then the reference's triples: the ``I`` instance nodes,
    then their labels; the ``A`` attribute nodes, then their (role, value)
    labels; the ``R`` relation sources, roles, then targets. Labels are
    ints, equal exactly when the labels are. Equal triples make
    ``min(c1, c2)`` matches, or ``c1 * c2`` with ``product`` (smatch
    1.0.4's counting).

    Returns (unary, row_start, partners, weights, label bound); the label
    bound — matches possible if only labels had to agree — is -1 where it
    bounds nothing (product counting with a duplicate triple).
    """
    n1, n2 = encoded[0], encoded[1]
    scale = max(n1, n2, 1)
    keyed = _keyed_triples(encoded)
    unary = _floats(n1 * n2)
    duplicates = False
    bound = 0
    for kind in range(3):
        ours, our_counts = keyed[kind]
        theirs, their_counts = keyed[3 + kind]
        for counts in (our_counts, their_counts):
            for count in counts:
                duplicates = duplicates or count > 1
        label_scale = scale if kind < 2 else scale * scale
        bound += _label_matches(ours, our_counts, theirs, their_counts, label_scale)
        if kind == 2:
            break
        x_from, x_to, y_from, y_to, runs = _matched_runs(ours, theirs, scale)
        for run in range(runs):
            for x in range(x_from[run], x_to[run]):
                for y in range(y_from[run], y_to[run]):
                    p = (ours[x] % scale) * n2 + theirs[y] % scale
                    weight = float(_combine(our_counts[x], their_counts[y], product))
                    unary[p] += weight
    ours, our_counts = keyed[2]
    theirs, their_counts = keyed[5]
    row_start, partners, weights = _relation_rows(
        ours, our_counts, theirs, their_counts, n1, n2, scale, product, unary
    )
    label_bound = -1.0 if product and duplicates else float(bound)
    return unary, row_start, partners, weights, label_bound


# -- the compiled namespace ---------------------------------------------------

#: functions with a plain (list) and a compiled (``_array_``) version
_STORAGE = (
    "_ints",
    "_floats",
    "_flags",
    "_copy_ints",
    "_copy_floats",
    "_set_floats",
    "_sorted",
    "_stable_order",
    "_stable_order_ints",
    "_largest",
    "_pair_weight",
    "_now",
)


def compiled() -> dict[str, Any]:
    """This module's functions compiled by numba, storage on numpy arrays.

    Each function is compiled from its own code, with globals in which
    every name of this module is the compiled one (the storage helpers
    being their ``_array_`` versions), so both namespaces run the same
    search and give the same results. Compiled code is cached beside this
    file (numba keys it on this file alone, which holds all of it).
    """
    import numpy
    from numba import njit, objmode

    source = _python_namespace()
    namespace = dict(source)
    namespace["_objmode"] = objmode
    namespace["np"] = numpy
    for name, function in source.items():
        if (
            not isinstance(function, FunctionType)
            or function.__module__ != source["__name__"]
            or name == "compiled"
            or name.startswith("_array_")
        ):
            continue
        code = namespace["_array" + name] if name in _STORAGE else function
        copy = FunctionType(code.__code__, namespace, name, code.__defaults__)
        namespace[name] = njit(cache=True)(copy)
    return namespace


def _python_namespace() -> dict[str, Any]:
    """This module's names, its functions as Python functions: numba
    compiles their code. Where mypyc compiled this module (``setup.py``)
    its functions are C, without code: then its ``.py`` source, which the
    build keeps beside it, is loaded apart."""
    if isinstance(_python_namespace, FunctionType):
        return globals()
    from importlib.util import module_from_spec, spec_from_file_location

    path = os.path.join(os.path.dirname(__file__), "_search.py")
    # under this module's own name, not registered: numba finds the globals
    # of an interpreted block (the clock), in this process and in those that
    # load its cache, through the module of that name (this one, compiled;
    # the same names) and keys its cache on the file: the two builds of one
    # install share it
    spec = spec_from_file_location(__name__, path)
    assert spec is not None and spec.loader is not None
    module = module_from_spec(spec)
    spec.loader.exec_module(module)
    return vars(module)
