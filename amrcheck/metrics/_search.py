"""The compiled core of the alignment search (numba, cached on disk).

Layer: metrics, below :mod:`._align`, which is the only module that calls
it. Everything here works on flat arrays of one alignment problem:

* ``unary[p]`` — weight of node pair ``p = i * n2 + j`` on its own;
* ``row_start``, ``partners``, ``weights`` — the pairwise weights in
  compressed rows: row ``p`` lists, by increasing ``q``, every node pair
  that earns ``weights[e]`` together with ``p`` (symmetric; the two pairs
  differ in both nodes).

The search is smatch's hill climbing, as :mod:`._align` describes it; it
is compiled because it is the hot path of every smatch-family metric (a
pure-Python climb was 380 µs per pair of 10-node graphs; this is ~100×
less). numba writes the machine code to a cache beside this file (or the
user's cache directory when that is read-only) on first use, so only the
first run on a machine pays the compilation (a few seconds).

:func:`build_triple_problem` builds smatch's problem from triples encoded
as integers (one array per graph pair, see :func:`build_triple_problem`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ._align import EPSILON

# -- pairwise lookups and the climber's state ---------------------------------


@njit(cache=True)
def _pair_weight(row_start, partners, weights, p, q):  # type: ignore[no-untyped-def]
    """Weight of node pairs ``p`` and ``q`` together (0 if none or p, q < 0)."""
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


@njit(cache=True)
def _load(n1, n2, unary, row_start, partners, weights, mapping, m, inv, gain):  # type: ignore[no-untyped-def]
    """Load ``mapping`` into ``m``/``inv``/``gain``; return its value.

    ``gain[p]`` is what node pair ``p`` would earn against the current
    mapping: its unary weight plus its weights with every aligned pair.
    """
    inv[:] = -1
    gain[:] = unary
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


@njit(cache=True)
def _assign(n2, row_start, partners, weights, m, inv, gain, i, j):  # type: ignore[no-untyped-def]
    """Align ``i -> j`` (both free); return the value gained."""
    p = i * n2 + j
    gained = gain[p]
    m[i] = j
    inv[j] = i
    for e in range(row_start[p], row_start[p + 1]):
        gain[partners[e]] += weights[e]
    return gained


@njit(cache=True)
def _release(n2, row_start, partners, weights, m, inv, gain, i):  # type: ignore[no-untyped-def]
    """Unalign ``i``; return the value lost."""
    j = m[i]
    p = i * n2 + j
    m[i] = -1
    inv[j] = -1
    for e in range(row_start[p], row_start[p + 1]):
        gain[partners[e]] -= weights[e]
    return gain[p]


# -- the climb ----------------------------------------------------------------


@njit(cache=True)
def _moves_and_swaps(  # type: ignore[no-untyped-def]  # noqa: C901 (hot path)
    n1, n2, row_start, partners, weights, cand_start, cand, m, inv, gain, value, stop_at
):
    """Best-improvement moves and swaps until none gains (or ``stop_at``).

    A move sends ``i`` to a free ``j`` (or takes ``j`` from ``k``, leaving
    ``k`` unaligned when ``i`` was); a swap exchanges the targets of ``i``
    and ``k``. Gains come from ``gain`` in O(1), plus the relation between
    the two swapped pairs. Ties go to the first ``(i, j)``.
    """
    while value < stop_at - EPSILON:
        best, best_i, best_j = EPSILON, -1, -1
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
                    delta = (
                        gain[base + j]
                        + gain[kb + a]
                        - own
                        - gain[kb + j]
                        + _pair_weight(row_start, partners, weights, base + j, kb + a)
                        + _pair_weight(row_start, partners, weights, base + a, kb + j)
                    )
                if delta > best:
                    best, best_i, best_j = delta, i, j
        if best_i < 0:
            break
        a, k = m[best_i], inv[best_j]
        if a >= 0:
            _release(n2, row_start, partners, weights, m, inv, gain, best_i)
        if k >= 0:
            _release(n2, row_start, partners, weights, m, inv, gain, k)
        _assign(n2, row_start, partners, weights, m, inv, gain, best_i, best_j)
        if k >= 0 and a >= 0:
            _assign(n2, row_start, partners, weights, m, inv, gain, k, a)
        value += best
    return value


@njit(cache=True)
def _change_value(n2, row_start, partners, weights, gain, changes, count):  # type: ignore[no-untyped-def]
    """Value change of reassigning ``changes[:count]`` = (node, old, new) together.

    ``gain`` counts each node's relations to the *current* positions of the
    other changed nodes, so those terms are taken out and the relations
    among the new positions put in.
    """
    delta = 0.0
    for x in range(count):
        node, old, new = changes[x, 0], changes[x, 1], changes[x, 2]
        if new >= 0:
            delta += gain[node * n2 + new]
        if old >= 0:
            delta -= gain[node * n2 + old]
    for x in range(count):
        old_x = changes[x, 0] * n2 + changes[x, 1] if changes[x, 1] >= 0 else -1
        new_x = changes[x, 0] * n2 + changes[x, 2] if changes[x, 2] >= 0 else -1
        for y in range(x + 1, count):
            old_y = changes[y, 0] * n2 + changes[y, 1] if changes[y, 1] >= 0 else -1
            new_y = changes[y, 0] * n2 + changes[y, 2] if changes[y, 2] >= 0 else -1
            delta += _pair_weight(row_start, partners, weights, old_x, old_y)
            delta += _pair_weight(row_start, partners, weights, new_x, new_y)
            delta -= _pair_weight(row_start, partners, weights, new_x, old_y)
            delta -= _pair_weight(row_start, partners, weights, old_x, new_y)
    return delta


@njit(cache=True)
def _best_edge_change(  # type: ignore[no-untyped-def]
    n2, row_start, partners, weights, m, inv, gain, i, j, k, t, trial, chosen
):
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
        trial[0, 0], trial[0, 1], trial[0, 2] = i, a, j
        trial[1, 0], trial[1, 1], trial[1, 2] = k, b, t
        count = 2
        # weights are >= 0, so re-seating a displaced node never loses
        if hj >= 0:
            trial[count, 0], trial[count, 1], trial[count, 2] = hj, m[hj], first
            count += 1
        if ht >= 0:
            trial[count, 0], trial[count, 1], trial[count, 2] = ht, m[ht], second
            count += 1
        delta = _change_value(n2, row_start, partners, weights, gain, trial, count)
        if delta > best:
            best, best_count = delta, count
            chosen[:count] = trial[:count]
        if free_a == free_b or (hj < 0 and ht < 0):
            break  # the other order is the same change
    return best, best_count


@njit(cache=True)
def _edge_step(  # type: ignore[no-untyped-def]  # noqa: C901 (hot path)
    n1, n2, row_start, partners, weights, m, inv, gain, trial, chosen
):
    """Realise one relation match that single moves and swaps cannot.

    A relation earns only when both its ends align, so a mapping can be
    stuck where moving either end alone gains nothing. For each pair of
    node pairs ``(i -> j, k -> t)`` with a relation weight, neither in place
    yet, and a promising gain before counting what displaced nodes lose:
    align both (:func:`_best_edge_change`). The first change that gains is
    made; returns its gain (0 if none).
    """
    for p in range(n1 * n2):
        if row_start[p] == row_start[p + 1]:
            continue
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
                    if chosen[x, 1] >= 0:
                        _release(
                            n2, row_start, partners, weights, m, inv, gain, chosen[x, 0]
                        )
                for x in range(count):
                    if chosen[x, 2] >= 0:
                        _assign(
                            n2,
                            row_start,
                            partners,
                            weights,
                            m,
                            inv,
                            gain,
                            chosen[x, 0],
                            chosen[x, 2],
                        )
                return best
    return 0.0


@njit(cache=True)
def _climb(  # type: ignore[no-untyped-def]
    n1, n2, row_start, partners, weights, cand_start, cand, m, inv, gain,
    value, stop_at, trial, chosen,
):
    """Climb to a local optimum (or to ``stop_at``); return its value.

    Best-improvement moves and swaps; at their local optimum, one edge step
    (first improvement), then moves and swaps again.
    """
    while True:
        value = _moves_and_swaps(
            n1, n2, row_start, partners, weights, cand_start, cand, m, inv, gain,
            value, stop_at,
        )
        if value >= stop_at - EPSILON:
            return value
        gained = _edge_step(
            n1, n2, row_start, partners, weights, m, inv, gain, trial, chosen
        )
        if gained <= EPSILON:
            return value
        value += gained


# -- starts and bounds --------------------------------------------------------


@njit(cache=True)
def _candidates(n1, n2, unary, row_start):  # type: ignore[no-untyped-def]
    """Per node ``i``, the nodes ``j`` it can earn anything with (CSR)."""
    cand_start = np.zeros(n1 + 1, dtype=np.int64)
    cand = np.empty(n1 * n2, dtype=np.int64)
    count = 0
    for i in range(n1):
        for j in range(n2):
            p = i * n2 + j
            if unary[p] != 0.0 or row_start[p + 1] > row_start[p]:
                cand[count] = j
                count += 1
        cand_start[i + 1] = count
    return cand_start, cand[:count]


@njit(cache=True)
def _smart_start(n1, n2, unary):  # type: ignore[no-untyped-def]
    """Greedy start: node pairs by decreasing unary weight (ties: by index)."""
    mapping = np.full(n1, -1, dtype=np.int64)
    used = np.zeros(n2, dtype=np.bool_)
    nonzero = np.nonzero(unary)[0]
    order = np.argsort(-unary[nonzero], kind="mergesort")
    for o in order:
        p = nonzero[o]
        i, j = p // n2, p % n2
        if mapping[i] < 0 and not used[j]:
            mapping[i] = j
            used[j] = True
    return mapping


@njit(cache=True)
def _random_start(n1, n2, cand_start, cand):  # type: ignore[no-untyped-def]
    """Each node, in random order, to a random free candidate (if any)."""
    mapping = np.full(n1, -1, dtype=np.int64)
    used = np.zeros(n2, dtype=np.bool_)
    free = np.empty(n2, dtype=np.int64)
    for i in np.random.permutation(n1):
        count = 0
        for c in range(cand_start[i], cand_start[i + 1]):
            if not used[cand[c]]:
                free[count] = cand[c]
                count += 1
        if count:
            j = free[np.random.randint(0, count)]
            mapping[i] = j
            used[j] = True
    return mapping


@njit(cache=True)
def star_weights(n1, n2, unary, row_start, partners, weights):  # type: ignore[no-untyped-def]
    """Per node pair: unary weight + half its best relation gain to the neighbours.

    For ``i -> j``, each neighbour ``k`` of ``i`` can align to one node
    only, so it adds at most its best weight; the same holds from the side
    of the neighbours ``t`` of ``j``; the smaller of the two sums is kept.
    """
    stars = unary.copy()
    by_k = np.zeros(n1)
    by_t = np.zeros(n2)
    for p in range(n1 * n2):
        low, high = row_start[p], row_start[p + 1]
        if low == high:
            continue
        for e in range(low, high):
            k, t = partners[e] // n2, partners[e] % n2
            by_k[k] = max(by_k[k], weights[e])
            by_t[t] = max(by_t[t], weights[e])
        sum_k, sum_t = 0.0, 0.0
        for e in range(low, high):  # each neighbour once, then cleared
            k, t = partners[e] // n2, partners[e] % n2
            sum_k += by_k[k]
            sum_t += by_t[t]
            by_k[k] = 0.0
            by_t[t] = 0.0
        stars[p] += min(sum_k, sum_t) / 2
    return stars


@njit(cache=True)
def _round_down(bound, integral):  # type: ignore[no-untyped-def]
    return np.floor(bound + EPSILON) if integral else bound


@njit(cache=True)
def line_bound(n1, n2, stars, known, integral):  # type: ignore[no-untyped-def]
    """The smaller of the sums of row and of column maxima of ``stars``."""
    rows = np.zeros(n1)
    cols = np.zeros(n2)
    for i in range(n1):
        for j in range(n2):
            w = stars[i * n2 + j]
            rows[i] = max(rows[i], w)
            cols[j] = max(cols[j], w)
    return _round_down(min(known, rows.sum(), cols.sum()), integral)


@njit(cache=True)
def _min_cost_assignment(cost):  # type: ignore[no-untyped-def]  # noqa: C901
    """Column of each row in a minimum-cost assignment (rows <= columns).

    Shortest augmenting paths with potentials (the Hungarian method in
    its O(n^2 m) form).
    """
    n, w = cost.shape
    u = np.zeros(n + 1)
    v = np.zeros(w + 1)
    owner = np.zeros(w + 1, dtype=np.int64)  # row (1-based) holding column
    way = np.zeros(w + 1, dtype=np.int64)
    min_v = np.empty(w + 1)
    used = np.empty(w + 1, dtype=np.bool_)
    for row in range(1, n + 1):
        owner[0] = row
        col0 = 0
        min_v[:] = np.inf
        used[:] = False
        while True:
            used[col0] = True
            row0 = owner[col0]
            delta, col1 = np.inf, 0
            for col in range(1, w + 1):
                if not used[col]:
                    reduced = cost[row0 - 1, col - 1] - u[row0] - v[col]
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
    assigned = np.full(n, -1, dtype=np.int64)
    for col in range(1, w + 1):
        if owner[col] != 0:
            assigned[owner[col] - 1] = col - 1
    return assigned


@njit(cache=True)
def assignment_bound(n1, n2, stars, integral):  # type: ignore[no-untyped-def]
    """The best one-to-one assignment of ``stars``: (bound, that mapping).

    The mapping keeps only pairs with a positive star weight; it is also a
    good start for the search.
    """
    matrix = stars.reshape(n1, n2)
    mapping = np.full(n1, -1, dtype=np.int64)
    total = 0.0
    if n1 <= n2:
        columns = _min_cost_assignment(-matrix)
        for i in range(n1):
            total += matrix[i, columns[i]]
            if matrix[i, columns[i]] > 0:
                mapping[i] = columns[i]
    else:
        rows = _min_cost_assignment(-matrix.T.copy())
        for j in range(n2):
            total += matrix[rows[j], j]
            if matrix[rows[j], j] > 0:
                mapping[rows[j]] = j
    return _round_down(total, integral), mapping


# -- the search ---------------------------------------------------------------


@njit(cache=True)
def mapping_value(n1, n2, unary, row_start, partners, weights, mapping):  # type: ignore[no-untyped-def]
    """Total weight earned by ``mapping`` (``mapping[i]`` = j or -1)."""
    m = np.empty(n1, dtype=np.int64)
    inv = np.empty(n2, dtype=np.int64)
    gain = np.empty(n1 * n2)
    return _load(n1, n2, unary, row_start, partners, weights, mapping, m, inv, gain)


@njit(cache=True)
def search(  # type: ignore[no-untyped-def]
    n1, n2, unary, row_start, partners, weights, integral, restarts, seed, known
):
    """Smart starts + ``restarts`` seeded random starts, each climbed.

    Returns (mapping, value, upper bound, proven by the bound after the
    first climb: 0, or later: 1). The first climb starts from
    :func:`_smart_start`; when it is not proven optimal against ``known``,
    the assignment behind :func:`assignment_bound` is climbed, then the
    random starts (seeded with ``seed`` for each problem), stopping as soon
    as a mapping reaches the bound.
    """
    m = np.empty(n1, dtype=np.int64)
    inv = np.empty(n2, dtype=np.int64)
    gain = np.empty(n1 * n2)
    trial = np.empty((4, 3), dtype=np.int64)
    chosen = np.empty((4, 3), dtype=np.int64)
    cand_start, cand = _candidates(n1, n2, unary, row_start)
    value = _load(
        n1, n2, unary, row_start, partners, weights, _smart_start(n1, n2, unary),
        m, inv, gain,
    )
    value = _climb(
        n1, n2, row_start, partners, weights, cand_start, cand, m, inv, gain,
        value, known, trial, chosen,
    )
    best, best_value, bound = m.copy(), value, known
    if best_value >= bound - EPSILON:
        return best, best_value, bound, 0
    stars = star_weights(n1, n2, unary, row_start, partners, weights)
    bound = line_bound(n1, n2, stars, known, integral)
    if best_value >= bound - EPSILON:
        return best, best_value, bound, 1
    tighter, start = assignment_bound(n1, n2, stars, integral)
    bound = min(bound, tighter)
    np.random.seed(seed)
    for run in range(restarts + 1):
        if best_value >= bound - EPSILON:
            break
        if run > 0:
            start = _random_start(n1, n2, cand_start, cand)
        value = _load(n1, n2, unary, row_start, partners, weights, start, m, inv, gain)
        value = _climb(
            n1, n2, row_start, partners, weights, cand_start, cand, m, inv, gain,
            value, bound, trial, chosen,
        )
        if value > best_value + EPSILON:
            best[:] = m
            best_value = value
    return best, best_value, bound, 1 if best_value >= bound - EPSILON else 0


# -- smatch's problem from encoded triples -------------------------------------


@njit(cache=True)
def _runs(keys):  # type: ignore[no-untyped-def]
    """Sorted distinct ``keys`` and how often each occurs."""
    ordered = np.sort(keys)
    distinct = np.empty(len(ordered), dtype=np.int64)
    counts = np.empty(len(ordered), dtype=np.int64)
    size = 0
    for x in ordered:
        if size and distinct[size - 1] == x:
            counts[size - 1] += 1
        else:
            distinct[size] = x
            counts[size] = 1
            size += 1
    return distinct[:size], counts[:size]


@njit(cache=True)
def _combine(ours, theirs, product):  # type: ignore[no-untyped-def]
    return ours * theirs if product else min(ours, theirs)


@njit(cache=True)
def _label_matches(ours, our_counts, theirs, their_counts, scale):  # type: ignore[no-untyped-def]
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


@njit(cache=True)
def _keyed_triples(encoded):  # type: ignore[no-untyped-def]
    """Per graph and kind, the distinct triple keys (label first) and counts.

    Instance and attribute keys are ``label * scale + node``, relation keys
    ``(role * scale + source) * scale + target``.
    """
    n1, n2 = encoded[0], encoded[1]
    scale = max(n1, n2, 1)
    at = 8
    keyed = []  # candidate's 3 kinds, then the reference's
    for graph in range(2):
        for kind in range(3):
            size = encoded[2 + 3 * graph + kind]
            nodes = encoded[at : at + size]
            labels = encoded[at + size : at + 2 * size]
            if kind < 2:
                keyed.append(_runs(labels * scale + nodes))
                at += 2 * size
            else:
                targets = encoded[at + 2 * size : at + 3 * size]
                keyed.append(_runs((labels * scale + nodes) * scale + targets))
                at += 3 * size
    return keyed


@njit(cache=True)
def _relation_rows(  # type: ignore[no-untyped-def]  # noqa: C901 (one pass)
    ours, our_counts, theirs, their_counts, n1, n2, scale, product, unary
):
    """The pairwise weights of matching relation triples, as compressed rows.

    Self-loops matched by self-loops earn their node pair a unary weight.
    """
    square = scale * scale
    capacity = 0
    for x in range(len(ours)):
        for y in range(len(theirs)):
            if ours[x] // square == theirs[y] // square:
                capacity += 2
    cells = n1 * n2
    pair_keys = np.empty(capacity, dtype=np.int64)
    pair_weights = np.empty(capacity)
    size = 0
    for x in range(len(ours)):
        i, k = (ours[x] // scale) % scale, ours[x] % scale
        for y in range(len(theirs)):
            if ours[x] // square != theirs[y] // square:
                continue
            j, t = (theirs[y] // scale) % scale, theirs[y] % scale
            w = _combine(our_counts[x], their_counts[y], product)
            if i == k and j == t:  # self-loop: earned by one node pair
                unary[i * n2 + j] += w
            elif i != k and j != t:  # else the two ends can never both align
                p, q = i * n2 + j, k * n2 + t
                pair_keys[size], pair_weights[size] = p * cells + q, w
                pair_keys[size + 1], pair_weights[size + 1] = q * cells + p, w
                size += 2
    order = np.argsort(pair_keys[:size])
    row_start = np.zeros(cells + 1, dtype=np.int64)
    partners = np.empty(size, dtype=np.int64)
    weights = np.empty(size)
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


@njit(cache=True)
def build_triple_problem(encoded, product):  # type: ignore[no-untyped-def]
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
    unary = np.zeros(n1 * n2)
    duplicates = False
    bound = 0
    for kind in range(3):
        ours, our_counts = keyed[kind]
        theirs, their_counts = keyed[3 + kind]
        duplicates |= (our_counts > 1).any() or (their_counts > 1).any()
        label_scale = scale if kind < 2 else scale * scale
        bound += _label_matches(ours, our_counts, theirs, their_counts, label_scale)
        if kind == 2:
            break
        for x in range(len(ours)):
            for y in range(len(theirs)):
                if ours[x] // scale == theirs[y] // scale:
                    p = (ours[x] % scale) * n2 + theirs[y] % scale
                    unary[p] += _combine(our_counts[x], their_counts[y], product)
    ours, our_counts = keyed[2]
    theirs, their_counts = keyed[5]
    row_start, partners, weights = _relation_rows(
        ours, our_counts, theirs, their_counts, n1, n2, scale, product, unary
    )
    label_bound = -1.0 if product and duplicates else float(bound)
    return unary, row_start, partners, weights, label_bound
