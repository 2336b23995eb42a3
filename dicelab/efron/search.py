"""The max-sum search for nontransitive sets: simple cycles of largest total wins, and cycle counts.

Serves the sections "Defining and optimising the objective" and "Results" of
``efron-dice.txt``.

A set of ``M`` dice ``l_0 -> l_1 -> ... -> l_{M-1} -> l_0`` is *nontransitive*
when each die beats the next. The paper's objective is the largest sum of wins
``sum_m w[l_m, l_{m+1 mod M}]`` around the cycle. It solves it by a max-sum
(tropical) dynamic program over *closed walks*,

    ``S^0 = W (x) W``, ``S^1 = W (x) S^0``, ..., value ``max_{l0} S^{M-2}[l0, l0]``,

with ``(A (x) B)[i, j] = max_k A[i, k] + B[k, j]``. A closed walk may visit a die
twice, so :func:`max_sum_cycles` searches *simple cycles*, with the dynamic
program as the bound of a branch-and-bound.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from dicelab._checks import check_int
from dicelab.efron import _kernels
from dicelab.efron.dice import _face_tuples, unique_dice
from dicelab.efron.wins import allowed_edges, strict_min_wins, wins_matrix

__all__ = [
    "CycleSearch",
    "maxplus_product",
    "max_sum_cycles",
    "same_cycle",
    "best_cycles",
    "search_all",
    "count_cycles",
]


@dataclass(frozen=True)
class CycleSearch:
    """Result of :func:`max_sum_cycles`.

    Attributes
    ----------
    value : int or None
        The largest sum of weights around a simple ``M``-cycle (``None`` if none exists).
    cycles : numpy.ndarray
        ``(K, M)`` array of the optimal cycles, one row per cycle up to rotation,
        rotated so that its smallest index comes first, rows in ascending
        lexicographic order.
    walk_value : int or None
        The paper's dynamic-programming maximum over closed walks (``None`` if
        none exists); it equals ``value`` unless the best closed walk repeats a node.
    """

    value: int | None
    cycles: np.ndarray
    walk_value: int | None


def maxplus_product(A, B) -> np.ndarray:
    """The max-plus (tropical) matrix product ``C[i, j] = max_k A[i, k] + B[k, j]``.

    This is the step of the paper's recursion: with the penalised wins matrix
    ``W``, ``S^0 = W (x) W`` and ``S^1 = W (x) S^0`` (indices as in the paper,
    ``S^0[l2, l0] = max_{l3} w[l2, l3] + w[l3, l0]``).

    Parameters
    ----------
    A : array_like of int, shape (n, k)
    B : array_like of int, shape (k, m)

    Returns
    -------
    numpy.ndarray
        ``int64`` array of shape ``(n, m)``.

    Examples
    --------
    >>> maxplus_product([[0, 1], [2, 3]], [[1, 0], [0, 1]])
    array([[1, 2],
           [3, 4]])
    """
    A = np.asarray(A)
    B = np.asarray(B)
    if A.ndim != 2 or B.ndim != 2 or A.shape[1] != B.shape[0] or A.shape[1] == 0:
        raise ValueError(f"shapes {A.shape} and {B.shape} do not chain")
    if not (np.issubdtype(A.dtype, np.integer) and np.issubdtype(B.dtype, np.integer)):
        raise ValueError("maxplus_product takes integer arrays")
    return _kernels.maxplus_dense(A.astype(np.int64), B.astype(np.int64))


def _cycles_in(indptr, indices, weights, M: int) -> CycleSearch:
    """:func:`max_sum_cycles` on a digraph already in sparse rows."""
    empty = np.empty((0, M), dtype=np.int64)
    n = indptr.size - 1
    if n < M or indices.size == 0:
        return CycleSearch(None, empty, None)
    upper = _kernels.walk_bounds(indptr, indices, weights, M)
    walk_value = int(upper.max())
    if walk_value == _kernels.NEG:
        return CycleSearch(None, empty, None)
    order = np.argsort(-upper, kind="stable").astype(np.int64)
    order = order[upper[order] > _kernels.NEG]
    best, cycles = _kernels.branch_and_bound(indptr, indices, weights, M, order, upper)
    if cycles.shape[0] == 0:
        return CycleSearch(None, empty, walk_value)
    cycles = cycles[np.lexsort(cycles.T[::-1])]
    return CycleSearch(int(best), cycles, walk_value)


def max_sum_cycles(weights, allowed, M: int) -> CycleSearch:
    """All maximum-weight simple ``M``-cycles of a weighted digraph.

    This is the paper's max-sum problem with the simple-cycle constraint added:
    a cycle may not use a node twice. The paper's dynamic program over closed
    walks gives an upper bound for every start node (it is exact when the best
    closed walk happens to be simple, as it always is for ``M <= 5`` when no two
    nodes beat each other); a branch-and-bound search over start nodes in
    decreasing order of that bound then finds every simple cycle of maximal
    weight, each once (rotated to start at its smallest node).

    Parameters
    ----------
    weights : array_like of int, shape (n, n)
        ``weights[i, j]`` is the weight of the step ``i -> j``.
    allowed : array_like of bool, shape (n, n)
        Which steps may be taken; the diagonal is ignored.
    M : int
        Cycle length, ``M >= 2``.

    Returns
    -------
    CycleSearch
        The best value, every optimal cycle, and the closed-walk maximum.

    Examples
    --------
    A 3-cycle ``0 -> 1 -> 2 -> 0`` of weight 6 beats ``0 -> 2 -> 1 -> 0`` of weight 3:

    >>> res = max_sum_cycles([[0, 1, 1], [1, 0, 2], [3, 1, 0]], [[0, 1, 1], [1, 0, 1], [1, 1, 0]], 3)
    >>> res.value, res.cycles.tolist(), res.walk_value
    (6, [[0, 1, 2]], 6)
    """
    M = check_int("M", M, 2)
    weights = np.asarray(weights)
    allowed = np.asarray(allowed, dtype=bool)
    if weights.ndim != 2 or weights.shape[0] != weights.shape[1] or allowed.shape != weights.shape:
        raise ValueError("weights and allowed must be square arrays of the same shape")
    if not np.issubdtype(weights.dtype, np.integer):
        raise ValueError(f"weights must be integers, got dtype {weights.dtype}")
    allowed = allowed.copy()
    np.fill_diagonal(allowed, False)
    indptr, indices, w = _kernels.csr(weights, allowed)
    if w.size and np.abs(w).max() * M >= 2**39:
        raise ValueError("weights too large for the int64 max-plus search")
    return _cycles_in(indptr, indices, w, M)


def same_cycle(a, b) -> bool:
    """Whether the cyclic sequences ``a`` and ``b`` are rotations of each other.

    Parameters
    ----------
    a, b : sequence

    Returns
    -------
    bool

    Examples
    --------
    >>> same_cycle("ABCD", "CDAB"), same_cycle("ABCD", "ABDC")
    (True, False)
    """
    a, b = tuple(a), tuple(b)
    return len(a) == len(b) and any(a[k:] + a[:k] == b for k in range(max(len(a), 1)))


def _game(S, L, M, wins=None, min_wins=None, *, M_range=(2, None)) -> tuple[int, int, int, int, int | None]:
    """The checked parameters of a search, ``(S, L, M, min_wins, wins)``.

    ``M`` lies in ``M_range`` (default ``M >= 2``); ``min_wins`` in
    ``ceil(S^2/2)..S^2`` (default: strictly more than half, :func:`strict_min_wins`);
    ``wins``, if given, in ``min_wins..S^2``.
    """
    S = check_int("S", S, 1)
    L = check_int("L", L, 1)
    M = check_int("M", M, *M_range)
    S2 = S * S
    half_up = (S2 + 1) // 2  # ceil(S^2 / 2): "at least half"
    min_wins = check_int("min_wins", strict_min_wins(S) if min_wins is None else min_wins, half_up, S2)
    if wins is not None:
        wins = check_int("wins", wins, min_wins, S2)
    return S, L, M, min_wins, wins


def _as_face_sets(faces: list[tuple[int, ...]], cycles: np.ndarray) -> list[tuple[tuple[int, ...], ...]]:
    return [tuple(map(faces.__getitem__, row)) for row in cycles.tolist()]


def best_cycles(S: int, L: int, M: int, wins: int | None = None, *, min_wins: int | None = None):
    """The best nontransitive sets of ``M`` dice with ``S`` sides and labels ``0..L-1``.

    Every die must beat the next (``l_{M-1}`` the first) in at least ``min_wins``
    of the ``S**2`` face pairs. Among those sets, the ones with the largest
    total of wins are returned. Dice are never repeated within a set.

    Parameters
    ----------
    S : int
        Number of sides, ``S >= 1``.
    L : int
        Number of labels, ``L >= 1``.
    M : int
        Number of dice in a set, ``M >= 2``.
    wins : int or None
        If given, every die beats the next in exactly ``wins`` pairs (the
        paper's equal-probability variant; ``min_wins <= wins <= S**2``).
    min_wins : int or None
        The least number of pairs won; default *strictly more than half*,
        ``S**2 // 2 + 1``; at least ``ceil(S**2 / 2)``.

    Returns
    -------
    list of tuple of tuple of int
        The sets, each a tuple of ``M`` face tuples (faces ascending), unique
        up to rotation. Each set starts with its die that comes first in the
        order of :func:`unique_dice` (the paper's enumeration), and the sets are
        sorted by the dice indices in that order -- so the first set is the
        first one the paper's program prints. Empty when no such set exists.

    Examples
    --------
    The paper's favourite set of three dice:

    >>> best_cycles(3, 5, 3)
    [((2, 2, 2), (1, 1, 4), (0, 3, 3))]
    """
    S, L, M, min_wins, wins = _game(S, L, M, wins, min_wins)
    dice = unique_dice(L, S)
    W = wins_matrix(dice)
    result = max_sum_cycles(W, allowed_edges(W, min_wins, wins), M)
    return _as_face_sets(_face_tuples(dice), result.cycles)


def search_all(S: int = 6, L: int = 7, M: int = 4, *, min_wins: int | None = None) -> dict:
    """The paper's complete run: the unequal case, then every equal-probability value.

    Parameters
    ----------
    S, L, M : int
        Sides, labels and dice per set, as in :func:`best_cycles`; the
        defaults are the paper's run.
    min_wins : int or None
        As in :func:`best_cycles`.

    Returns
    -------
    dict
        ``{None: (value, sets), n: (value, sets), ...}`` where ``None`` is the
        unequal case and ``n`` runs over every value ``w_ij >= min_wins`` that
        occurs in the wins matrix, ascending (the paper's program loops over
        exactly these). ``value`` is the best total of wins (``None`` when no
        set exists) and ``sets`` is as in :func:`best_cycles`.

    Examples
    --------
    Three four-sided dice with labels ``0..5``: one best set overall, and three
    sets in which every die beats the next in exactly 9 of the 16 face pairs.

    >>> out = search_all(4, 6, 3)
    >>> out[None]
    (29, [((2, 2, 2, 5), (1, 1, 4, 4), (0, 3, 3, 3))])
    >>> {n: len(sets) for n, (value, sets) in out.items()}
    {None: 1, 9: 3, 10: 0, 11: 0, 12: 0, 13: 0, 14: 0, 15: 0, 16: 0}
    """
    S, L, M, min_wins, _ = _game(S, L, M, min_wins=min_wins)
    dice = unique_dice(L, S)
    faces = _face_tuples(dice)
    W = wins_matrix(dice)
    graph = _kernels.csr(W, allowed_edges(W, min_wins))  # built once, filtered for each n
    out = {}
    for n in [None, *np.unique(graph[2]).tolist()]:
        sub = graph if n is None else _kernels.csr_equal(*graph, n)
        res = _cycles_in(*sub, M)
        out[n] = (res.value, _as_face_sets(faces, res.cycles))
    return out


def count_cycles(S: int, L: int, M: int, *, min_wins: int | None = None) -> int:
    """The number of nontransitive ``M``-cycles among all ``N_{L,S}`` dice (``M`` = 3, 4 or 5).

    Counts every cyclic sequence ``l_0 -> ... -> l_{M-1} -> l_0`` of distinct dice
    in which each beats the next, each once up to rotation: ``trace(A^M) / M``
    for the 0/1 matrix ``A`` of "beats". That trace counts closed walks; a
    closed walk of length ``M <= 5`` is a simple cycle when no die beats itself
    and no two dice beat each other, which is checked.

    Parameters
    ----------
    S, L : int
        Sides and labels, as in :func:`best_cycles`.
    M : int
        Cycle length, 3, 4 or 5.
    min_wins : int or None
        As in :func:`best_cycles`; a value that lets two dice beat each other
        is refused.

    Returns
    -------
    int
        The number of cycles.

    Examples
    --------
    >>> count_cycles(4, 6, 3), count_cycles(6, 7, 3)
    (6, 9780)
    """
    S, L, M, min_wins, _ = _game(S, L, M, min_wins=min_wins, M_range=(3, 5))
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
