"""Nontransitive dice: counting dice, the wins matrix and the max-sum cycle search.

Serves ``efron-dice.txt`` (R. Stebbing, "Finding Efron's dice", 2015) and
notebook ``01_efron_dice.ipynb``.

Notation (the paper's)
----------------------
``S``
    number of sides of every die.
``L``
    number of labels; faces carry the labels ``0, 1, ..., L-1``.
``M``
    number of dice in the nontransitive set (``M = 4`` for Efron's dice).
die
    a vector ``d`` of length ``L`` of non-negative integers summing to ``S``:
    ``d[i]`` is the number of faces labelled ``i``. Its cumulative sum
    ``d~[i]`` is the number of faces labelled ``i`` or less (``d~[L-1] = S``).
    The same die as a *face tuple* lists its ``S`` labels in ascending order.
``N_{L,S}``
    the number of distinct dice, ``N_{L,S} = sum_{i=0}^{S} N_{L-1,i}``.
``W``
    the wins matrix: ``w_ij`` is the number of the ``S**2`` equally likely
    face pairs in which die ``i`` rolls higher than die ``j``.

A set of dice ``l_0 -> l_1 -> ... -> l_{M-1} -> l_0`` is *nontransitive* when each
die beats the next one, ``w > S**2 / 2``. The paper's objective is the largest
sum of wins around the cycle. It solves it by a max-sum (tropical) dynamic
program over *closed walks*; a closed walk may visit a die twice, so this module
searches *simple cycles* with the dynamic program as the bound of a
branch-and-bound (see :func:`max_sum_cycles`).
"""

from __future__ import annotations

import itertools
import numbers
from dataclasses import dataclass
from fractions import Fraction
from math import comb

import numpy as np
from numba import njit

from dicelab._checks import check_int as _check_int

__all__ = [
    "num_unique_dice",
    "num_unique_dice_closed_form",
    "unique_dice",
    "die_faces",
    "die_counts",
    "wins_matrix",
    "p_beats",
    "strict_min_wins",
    "allowed_edges",
    "maxplus_product",
    "same_cycle",
    "CycleSearch",
    "max_sum_cycles",
    "paper_max_sum_walks",
    "best_cycles",
    "search_all",
    "count_cycles",
]


# --------------------------------------------------------------------------- input checks


def _check_faces(name: str, faces) -> tuple[int, ...]:
    """A die given by its faces: a non-empty sequence of integers."""
    try:
        faces = tuple(faces)
    except TypeError:
        raise ValueError(f"{name} must be a sequence of integer faces, got {faces!r}") from None
    if not faces:
        raise ValueError(f"{name} must have at least one face")
    for f in faces:
        if isinstance(f, bool) or not isinstance(f, numbers.Integral):
            raise ValueError(f"{name} must have integer faces, got {f!r} in {faces!r}")
    return tuple(int(f) for f in faces)


# --------------------------------------------------------------------------- counting dice


def num_unique_dice(L: int, S: int) -> int:
    """``N_{L,S}``, the number of distinct ``S``-sided dice with labels ``0..L-1``.

    Computed by the paper's recurrence ``N_{1,s} = 1``,
    ``N_{L,S} = sum_{i=0}^{S} N_{L-1,i}``: a die with ``L`` labels is a die with
    ``L-1`` labels on the ``i`` faces below the top label, for ``i = 0..S``.
    """
    L = _check_int("L", L, 1)
    S = _check_int("S", S, 1)
    row = [1] * (S + 1)  # N_{1,s} for s = 0..S
    for _ in range(L - 1):
        row = list(itertools.accumulate(row))  # N_{l+1,s} = sum_{i<=s} N_{l,i}
    return row[S]


def num_unique_dice_closed_form(L: int, S: int) -> int:
    """``N_{L,S} = C(S+L-1, L-1)``: multisets of size ``S`` from ``L`` labels (stars and bars)."""
    L = _check_int("L", L, 1)
    S = _check_int("S", S, 1)
    return comb(S + L - 1, L - 1)


def unique_dice(L: int, S: int) -> np.ndarray:
    """All ``N_{L,S}`` dice as an ``(N, L)`` integer array of label counts.

    Order: the paper's enumeration, ascending lexicographic order of the
    cumulative vector ``d~`` -- equivalently, *descending* lexicographic order of
    the sorted face tuples. Row 0 is the die with every face ``L-1``; the last
    row is the die with every face ``0``. Indices into this array are the dice
    indices used by :func:`wins_matrix` and :func:`max_sum_cycles`.
    """
    L = _check_int("L", L, 1)
    S = _check_int("S", S, 1)
    # d~_0 <= d~_1 <= ... <= d~_{L-2} <= S, in lexicographic order.
    rows = list(itertools.combinations_with_replacement(range(S + 1), L - 1))
    cum = np.array(rows, dtype=np.int64).reshape(len(rows), L - 1)
    cum = np.hstack([cum, np.full((cum.shape[0], 1), S, dtype=np.int64)])
    return np.diff(cum, axis=1, prepend=0)


def die_faces(counts) -> tuple[int, ...]:
    """The ascending face tuple of a die given as label counts: ``[2,0,0,0,4,0,0] -> (0,0,4,4,4,4)``."""
    counts = np.asarray(counts)
    if counts.ndim != 1 or counts.size == 0 or (counts < 0).any():
        raise ValueError(f"counts must be a 1-D vector of non-negative integers, got {counts!r}")
    return tuple(int(label) for label in np.repeat(np.arange(counts.size), counts))


def die_counts(faces, L: int) -> np.ndarray:
    """The label-count vector of a die given by its faces (labels in ``0..L-1``)."""
    L = _check_int("L", L, 1)
    faces = _check_faces("faces", faces)
    if min(faces) < 0 or max(faces) >= L:
        raise ValueError(f"faces must be labels in 0..{L - 1}, got {faces!r}")
    return np.bincount(np.array(faces), minlength=L).astype(np.int64)


# --------------------------------------------------------------------------- what beats what


def wins_matrix(dice) -> np.ndarray:
    """The wins matrix ``W`` of a set of dice given as an ``(N, L)`` array of label counts.

    ``w_ij = sum_b d_j[b] * sum_{a>b} d_i[a]`` counts the face pairs in which die
    ``i`` rolls higher than die ``j``. With ``E[j, a] = sum_{b<a} d_j[b]`` (faces
    of ``j`` strictly below label ``a``) this is the single product ``W = D E^T``.
    """
    D = np.asarray(dice)
    if D.ndim != 2 or D.shape[0] == 0 or D.shape[1] == 0:
        raise ValueError(f"dice must be a non-empty 2-D array (N, L) of label counts, got shape {D.shape}")
    if not np.issubdtype(D.dtype, np.integer):
        raise ValueError(f"dice must hold integer label counts, got dtype {D.dtype}")
    if (D < 0).any():
        raise ValueError("dice must hold non-negative label counts")
    D = D.astype(np.int64)
    below = np.cumsum(D, axis=1) - D  # faces strictly below each label
    return D @ below.T


def p_beats(a, b) -> Fraction:
    """Exact probability that a die with faces ``a`` rolls strictly higher than one with faces ``b``."""
    a = _check_faces("a", a)
    b = _check_faces("b", b)
    wins = sum(1 for x in a for y in b if x > y)
    return Fraction(wins, len(a) * len(b))


# --------------------------------------------------------------------------- the cycle search


def strict_min_wins(S: int) -> int:
    """The least ``w`` with ``w > S**2 / 2``: "beats" means *more* than half of the face pairs."""
    S = _check_int("S", S, 1)
    return S * S // 2 + 1


def allowed_edges(W: np.ndarray, min_wins: int, wins: int | None = None) -> np.ndarray:
    """Boolean mask of the pairs ``i -> j`` allowed in a cycle (``i != j``).

    ``wins=None``: every pair with ``w_ij >= min_wins``; ``wins=n``: only pairs
    with ``w_ij == n`` (the paper's equal-probability variant).
    """
    W = np.asarray(W)
    mask = (W >= min_wins) if wins is None else (W == wins)
    np.fill_diagonal(mask, False)
    return mask


@dataclass(frozen=True)
class CycleSearch:
    """Result of :func:`max_sum_cycles`.

    ``value``
        the largest sum of weights around a simple ``M``-cycle (``None`` if none exists).
    ``cycles``
        an ``(K, M)`` array of the optimal cycles, one row per cycle up to
        rotation, rotated so that its smallest index comes first, rows in
        ascending lexicographic order.
    ``walk_value``
        the paper's dynamic-programming maximum over closed walks (``None`` if
        none exists); it equals ``value`` unless the best closed walk repeats a node.
    """

    value: int | None
    cycles: np.ndarray
    walk_value: int | None


# "Minus infinity" for forbidden steps; numba kernels read it as a compile-time constant.
# Sums of a few of them stay far from int64 overflow.
_NEG = -(2**40)

# The weighted digraph is kept in compressed sparse rows: the successors of node i are
# indices[indptr[i]:indptr[i+1]] (ascending), with step weights in the same positions.


def _csr(weights: np.ndarray, allowed: np.ndarray):
    rows, cols = np.nonzero(allowed)  # row-major: rows ascending, columns ascending within a row
    indptr = np.zeros(allowed.shape[0] + 1, dtype=np.int64)
    np.cumsum(np.bincount(rows, minlength=allowed.shape[0]), out=indptr[1:])
    return indptr, cols.astype(np.int64), weights[rows, cols].astype(np.int64)


@njit(cache=True)
def _csr_equal(indptr, indices, weights, value):
    """The subgraph of the steps whose weight equals ``value``."""
    n = indptr.size - 1
    keep = weights == value
    new_ptr = np.zeros(n + 1, dtype=np.int64)
    for i in range(n):
        new_ptr[i + 1] = new_ptr[i] + keep[indptr[i] : indptr[i + 1]].sum()
    return new_ptr, indices[keep], weights[keep]


@njit(cache=True)
def _dense(indptr, indices, weights):
    n = indptr.size - 1
    R = np.full((n, n), _NEG, dtype=np.int64)
    for i in range(n):
        for p in range(indptr[i], indptr[i + 1]):
            R[i, indices[p]] = weights[p]
    return R


@njit(cache=True)
def _square(indptr, indices, weights):
    """``R_2 = A (x) A``: best two-step walk between every pair, from the sparse rows only."""
    n = indptr.size - 1
    R = np.full((n, n), _NEG, dtype=np.int64)
    for i in range(n):
        for p in range(indptr[i], indptr[i + 1]):
            k = indices[p]
            a = weights[p]
            for q in range(indptr[k], indptr[k + 1]):
                j = indices[q]
                v = a + weights[q]
                if v > R[i, j]:
                    R[i, j] = v
    return R


@njit(cache=True)
def _times_dense(indptr, indices, weights, B):
    """``A (x) B`` with ``A`` sparse and ``B`` dense; entries below -inf/2 are -inf again."""
    n = indptr.size - 1
    neg = _NEG
    C = np.full((n, B.shape[1]), neg, dtype=np.int64)
    for i in range(n):
        for p in range(indptr[i], indptr[i + 1]):
            k = indices[p]
            a = weights[p]
            for j in range(B.shape[1]):
                v = a + B[k, j]
                if v > C[i, j]:
                    C[i, j] = v
        for j in range(B.shape[1]):
            if C[i, j] < neg // 2:
                C[i, j] = neg
    return C


@njit(cache=True)
def _diagonal_bound(indptr, indices, weights, Ra, Rb, a_is_one):
    """``ub[i] = max_k R_a[i, k] + R_b[k, i]``, the best closed walk through ``i``."""
    n = indptr.size - 1
    neg = _NEG
    ub = np.full(n, neg, dtype=np.int64)
    for i in range(n):
        best = neg
        if a_is_one:
            for p in range(indptr[i], indptr[i + 1]):
                v = weights[p] + Rb[indices[p], i]
                if v > best:
                    best = v
        else:
            for k in range(n):
                v = Ra[i, k] + Rb[k, i]
                if v > best:
                    best = v
        ub[i] = best if best > neg // 2 else neg
    return ub


def _walk_bounds(indptr, indices, weights, M: int) -> np.ndarray:
    """Per node ``i``: the best closed ``M``-walk through ``i`` (the paper's ``S_{l0,l0}``).

    The walk is split into ``a = M // 2`` and ``b = M - a`` steps, so only the
    max-plus powers ``R_2 .. R_b`` are formed (``R_2`` from the sparse rows alone).
    """
    a, b = M // 2, M - M // 2
    powers = {1: _dense(indptr, indices, weights)} if b == 1 else {}
    if b >= 2:
        powers[2] = _square(indptr, indices, weights)
    for r in range(3, b + 1):
        powers[r] = _times_dense(indptr, indices, weights, powers[r - 1])
    Ra = powers[a] if a > 1 else powers[b]  # Ra unused when a == 1
    return _diagonal_bound(indptr, indices, weights, Ra, powers[b], a == 1)


@njit(cache=True)
def _search(indptr, indices, weights, M, order, upper):
    """Branch-and-bound over simple ``M``-cycles ``l0 < l1, ..., l_{M-1}``.

    ``order`` lists the start nodes by decreasing ``upper`` (the closed-walk bound).
    For each start ``l0`` the exact closed-walk bounds restricted to nodes above
    ``l0`` are computed (``col[r, c]``: best ``r``-step walk ``c -> l0``), then a
    depth-first search extends the path while ``partial + bound >= best``.
    Returns the best value and all cycles attaining it.
    """
    n = indptr.size - 1
    neg = _NEG
    best = neg
    cap = 64
    found = np.empty((cap, M), dtype=np.int64)
    nfound = 0
    col = np.empty((M, n), dtype=np.int64)
    path = np.empty(M, dtype=np.int64)
    partial = np.empty(M, dtype=np.int64)
    ptr = np.empty(M, dtype=np.int64)
    for t in range(order.size):
        l0 = order[t]
        if upper[l0] < best:
            break
        # col[r, c] for c >= l0: best r-step walk from c to l0 through nodes > l0
        for c in range(n):
            col[0, c] = neg
        col[0, l0] = 0
        for r in range(1, M):
            for c in range(n):
                col[r, c] = neg
            for c in range(l0 + 1, n):
                b = neg
                for p in range(indptr[c], indptr[c + 1]):
                    k = indices[p]
                    if k < l0 or (k == l0 and r > 1):
                        continue
                    v = weights[p] + col[r - 1, k]
                    if v > b:
                        b = v
                col[r, c] = b if b > neg // 2 else neg
        # depth-first search; path[0..d] chosen, ptr[d] walks the successors of path[d]
        path[0] = l0
        partial[0] = 0
        ptr[0] = indptr[l0]
        d = 0
        while d >= 0:
            u = path[d]
            if ptr[d] >= indptr[u + 1]:
                d -= 1
                continue
            p = ptr[d]
            ptr[d] += 1
            c = indices[p]
            if c <= l0:
                continue
            bound = partial[d] + weights[p] + col[M - 1 - d, c]
            if bound < best or col[M - 1 - d, c] == neg:
                continue
            repeated = False
            for e in range(1, d + 1):
                if path[e] == c:
                    repeated = True
                    break
            if repeated:
                continue
            if d == M - 2:  # c is the last die; col[1, c] is the closing step c -> l0
                if bound > best:
                    best = bound
                    nfound = 0
                if nfound == cap:
                    cap *= 2
                    grown = np.empty((cap, M), dtype=np.int64)
                    grown[:nfound] = found[:nfound]
                    found = grown
                found[nfound, : M - 1] = path[: M - 1]
                found[nfound, M - 1] = c
                nfound += 1
            else:
                d += 1
                path[d] = c
                partial[d] = partial[d - 1] + weights[p]
                ptr[d] = indptr[c]
    return best, found[:nfound].copy()


@njit(cache=True)
def _maxplus_dense(A, B):
    n, m = A.shape[0], B.shape[1]
    C = np.empty((n, m), dtype=np.int64)
    for i in range(n):
        for j in range(m):
            C[i, j] = A[i, 0] + B[0, j]
        for k in range(1, A.shape[1]):
            a = A[i, k]
            for j in range(m):
                v = a + B[k, j]
                if v > C[i, j]:
                    C[i, j] = v
    return C


def maxplus_product(A, B) -> np.ndarray:
    """The max-plus (tropical) matrix product ``C[i, j] = max_k A[i, k] + B[k, j]`` of integer arrays.

    This is the step of the paper's recursion: with the penalised wins matrix
    ``W``, ``S^0 = W (x) W`` and ``S^1 = W (x) S^0`` (indices as in the paper,
    ``S^0[l2, l0] = max_{l3} w[l2, l3] + w[l3, l0]``).
    """
    A = np.asarray(A)
    B = np.asarray(B)
    if A.ndim != 2 or B.ndim != 2 or A.shape[1] != B.shape[0] or A.shape[1] == 0:
        raise ValueError(f"shapes {A.shape} and {B.shape} do not chain")
    if not (np.issubdtype(A.dtype, np.integer) and np.issubdtype(B.dtype, np.integer)):
        raise ValueError("maxplus_product takes integer arrays")
    return _maxplus_dense(A.astype(np.int64), B.astype(np.int64))


def same_cycle(a, b) -> bool:
    """Whether the cyclic sequences ``a`` and ``b`` are rotations of each other."""
    a, b = tuple(a), tuple(b)
    return len(a) == len(b) and any(a[k:] + a[:k] == b for k in range(max(len(a), 1)))


def _cycles_in(indptr, indices, weights, M: int) -> CycleSearch:
    empty = np.empty((0, M), dtype=np.int64)
    n = indptr.size - 1
    if n < M or indices.size == 0:
        return CycleSearch(None, empty, None)
    upper = _walk_bounds(indptr, indices, weights, M)
    walk_value = int(upper.max())
    if walk_value == _NEG:
        return CycleSearch(None, empty, None)
    order = np.argsort(-upper, kind="stable").astype(np.int64)
    order = order[upper[order] > _NEG]
    best, cycles = _search(indptr, indices, weights, M, order, upper)
    if cycles.shape[0] == 0:
        return CycleSearch(None, empty, walk_value)
    cycles = cycles[np.lexsort(cycles.T[::-1])]
    return CycleSearch(int(best), cycles, walk_value)


def max_sum_cycles(weights, allowed, M: int) -> CycleSearch:
    """All maximum-weight simple ``M``-cycles of a weighted digraph.

    ``weights[i, j]`` is the weight of the step ``i -> j`` where ``allowed[i, j]``
    is true. This is the paper's max-sum problem with the simple-cycle
    constraint added: a cycle may not use a node twice. The paper's dynamic
    program over closed walks gives an upper bound for every start node (it is
    exact when the best closed walk happens to be simple, as it always is for
    ``M <= 5`` when no two nodes beat each other); a branch-and-bound search over
    start nodes in decreasing order of that bound then finds every simple
    cycle of maximal weight, each once (rotated to start at its smallest node).
    """
    M = _check_int("M", M, 2)
    weights = np.asarray(weights)
    allowed = np.asarray(allowed, dtype=bool)
    if weights.ndim != 2 or weights.shape[0] != weights.shape[1] or allowed.shape != weights.shape:
        raise ValueError("weights and allowed must be square arrays of the same shape")
    if not np.issubdtype(weights.dtype, np.integer):
        raise ValueError(f"weights must be integers, got dtype {weights.dtype}")
    allowed = allowed.copy()
    np.fill_diagonal(allowed, False)
    indptr, indices, w = _csr(weights, allowed)
    if w.size and np.abs(w).max() * M >= 2**39:
        raise ValueError("weights too large for the int64 max-plus search")
    return _cycles_in(indptr, indices, w, M)


def paper_max_sum_walks(weights, allowed, M: int) -> tuple[int | None, list[tuple[int, ...]]]:
    """The paper's method, as described in its text, kept as the reference to check and time against.

    For every start die ``l0`` in turn it runs the max-sum recursion
    ``S^0, S^1, ...`` back to ``l0`` one row at a time (``max`` and ``argmax`` of
    each row in Python), keeps the starts whose value is the overall maximum,
    and backtracks through every ``argmax`` to list *all* maximal closed walks
    ``(l0, ..., l_{M-1})`` -- every rotation of every set, and, for ``M >= 6``,
    walks that repeat a die. Returns ``(value, walks)``; ``value`` is ``None``
    when the maximum is negative (no nontransitive set).
    """
    M = _check_int("M", M, 2)
    weights = np.asarray(weights, dtype=np.int64)
    allowed = np.asarray(allowed, dtype=bool).copy()
    np.fill_diagonal(allowed, False)
    n = weights.shape[0]
    penalty = -M * (int(np.abs(weights).max(initial=0)) + 1)  # one forbidden step makes the sum negative
    Wp = np.where(allowed, weights, penalty)
    best, walks = None, []
    for l0 in range(n):
        # V[x]: best value of the remaining steps from x back to l0; arg[m][x]: maximising successors
        V = Wp[:, l0].copy()
        args = []
        for _ in range(M - 2):
            Z = Wp + V[np.newaxis, :]
            newV = np.empty(n, dtype=np.int64)
            arg = []
            for x in range(n):  # row by row, as the paper's program does
                row = Z[x]
                m = row.max()
                newV[x] = m
                arg.append(np.flatnonzero(row == m))
            V = newV
            args.append(arg)
        first = Wp[l0] + V
        value = int(first.max())
        if value < 0 or (best is not None and value < best):
            continue
        if best is None or value > best:
            best, walks = value, []
        stack = [(l0, int(l1)) for l1 in np.flatnonzero(first == value)]
        while stack:
            walk = stack.pop()
            if len(walk) == M:
                walks.append(walk)
                continue
            step = args[M - 1 - len(walk)]
            stack.extend(walk + (int(nxt),) for nxt in step[walk[-1]][::-1])
    walks.sort(key=lambda walk: walk)  # the paper lists starts ascending, each in argmax order
    return best, walks


# --------------------------------------------------------------------------- dice-level API


def _resolve_thresholds(S: int, wins: int | None, min_wins: int | None) -> tuple[int, int | None]:
    S2 = S * S
    half_up = (S2 + 1) // 2  # ceil(S^2 / 2): "at least half"
    if min_wins is None:
        min_wins = strict_min_wins(S)
    min_wins = _check_int("min_wins", min_wins, half_up, S2)
    if wins is not None:
        wins = _check_int("wins", wins, min_wins, S2)
    return min_wins, wins


def _as_face_sets(dice: np.ndarray, cycles: np.ndarray) -> list[tuple[tuple[int, ...], ...]]:
    faces = [die_faces(d) for d in dice]
    return [tuple(map(faces.__getitem__, row)) for row in cycles.tolist()]


def best_cycles(S: int, L: int, M: int, wins: int | None = None, *, min_wins: int | None = None):
    """The best nontransitive sets of ``M`` dice with ``S`` sides and labels ``0..L-1``.

    Every die must beat the next (``l_{M-1}`` the first) in at least ``min_wins``
    of the ``S**2`` face pairs; the default is *strictly more than half*,
    ``S**2 // 2 + 1``. Among those, the sets with the largest total of wins are
    returned. With ``wins=n`` every die beats the next in exactly ``n`` pairs
    (the paper's equal-probability variant; ``min_wins <= n <= S**2``).

    Returns a list of sets, each a tuple of ``M`` face tuples (faces ascending),
    unique up to rotation. Each set starts with its die that comes first in the
    order of :func:`unique_dice` (the paper's enumeration), and the sets are
    sorted by the dice indices in that order -- so the first set is the first
    one the paper's program prints. Dice are never repeated within a set.
    Empty when no such set exists.
    """
    S = _check_int("S", S, 1)
    L = _check_int("L", L, 1)
    M = _check_int("M", M, 2)
    min_wins, wins = _resolve_thresholds(S, wins, min_wins)
    dice = unique_dice(L, S)
    W = wins_matrix(dice)
    result = max_sum_cycles(W, allowed_edges(W, min_wins, wins), M)
    return _as_face_sets(dice, result.cycles)


def search_all(S: int = 6, L: int = 7, M: int = 4, *, min_wins: int | None = None) -> dict:
    """The paper's complete run: the unequal case, then every equal-probability value.

    Returns ``{None: (value, sets), n: (value, sets), ...}`` where ``None`` is the
    unequal case and ``n`` runs over every value ``w_ij >= min_wins`` that occurs
    in the wins matrix, ascending (the paper's program loops over exactly these).
    ``value`` is the best total of wins (``None`` when no set exists) and
    ``sets`` is as in :func:`best_cycles`.
    """
    S = _check_int("S", S, 1)
    L = _check_int("L", L, 1)
    M = _check_int("M", M, 2)
    min_wins, _ = _resolve_thresholds(S, None, min_wins)
    dice = unique_dice(L, S)
    W = wins_matrix(dice)
    graph = _csr(W, allowed_edges(W, min_wins))  # built once, filtered for each n
    out = {}
    for n in [None, *np.unique(graph[2]).tolist()]:
        sub = graph if n is None else _csr_equal(*graph, n)
        res = _cycles_in(*sub, M)
        out[n] = (res.value, _as_face_sets(dice, res.cycles))
    return out


def count_cycles(S: int, L: int, M: int, *, min_wins: int | None = None) -> int:
    """The number of nontransitive ``M``-cycles among all ``N_{L,S}`` dice (``M`` = 3, 4 or 5).

    Counts every cyclic sequence ``l_0 -> ... -> l_{M-1} -> l_0`` of distinct dice
    in which each beats the next (at least ``min_wins`` pairs, default strictly
    more than half), each once up to rotation: ``trace(A^M) / M`` for the 0/1
    matrix ``A`` of "beats". That trace counts closed walks; a closed walk of
    length ``M <= 5`` is a simple cycle when no die beats itself and no two dice
    beat each other, which is checked.
    """
    S = _check_int("S", S, 1)
    L = _check_int("L", L, 1)
    M = _check_int("M", M, 3, 5)
    min_wins, _ = _resolve_thresholds(S, None, min_wins)
    W = wins_matrix(unique_dice(L, S))
    A = allowed_edges(W, min_wins).astype(np.float64)
    if (A * A.T).any():
        raise ValueError("min_wins admits pairs of dice that beat each other; trace counting needs none")
    A2 = A @ A  # exact: integer entries below 2**53
    if M == 3:
        closed = np.einsum("ij,ji->", A2, A)
    elif M == 4:
        closed = np.einsum("ij,ji->", A2, A2)
    else:
        closed = np.einsum("ij,ji->", A2 @ A, A2)
    closed = int(round(closed))
    assert closed % M == 0
    return closed // M
