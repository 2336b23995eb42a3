"""The max-sum search for nontransitive sets: simple cycles of largest total wins, and cycle counts.

Serves the sections "Defining and optimising the objective" and "Results" of
Stebbing's post.

A set of ``M`` dice ``l_0 -> l_1 -> ... -> l_{M-1} -> l_0`` is *nontransitive*
when each die beats the next. The paper's objective is the largest sum of wins
``sum_m w[l_m, l_{m+1 mod M}]`` around the cycle. It solves it by a max-sum
(tropical) dynamic program over *closed walks*,

    ``S^0 = W (x) W``, ``S^1 = W (x) S^0``, ..., value ``max_{l0} S^{M-2}[l0, l0]``,

with ``(A (x) B)[i, j] = max_k A[i, k] + B[k, j]``. A closed walk may visit a die
twice, so :func:`max_sum_cycles` searches *simple cycles*, with the dynamic
program as the bound of a branch-and-bound; :func:`search_log` runs the same
search in plain Python and records every decision, for reading on small cases.

How many nontransitive cycles there are at all is counted in :mod:`dicelab.efron.cycles`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from dicelab.core.checks import check_cost
from dicelab.core.spec import Check, validated
from dicelab.efron import _kernels
from dicelab.efron._common import (
    DICE,
    LABELS,
    MASK,
    PY_STEP,
    SIDES,
    SIMD_STEP,
    WEIGHTS,
    WINS,
    count_text,
    dice_listing_cost,
    digraph,
    face_array,
    face_tuples,
    int_array,
    log2_num_dice,
    thresholds,
)
from dicelab.efron.dice import unique_dice
from dicelab.efron.sets import DiceSets
from dicelab.efron.wins import allowed_edges, wins_matrix

__all__ = [
    "CycleSearch",
    "SearchStep",
    "maxplus_product",
    "max_sum_cycles",
    "search_log",
    "same_cycle",
    "best_cycles",
    "search_all",
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


@dataclass(frozen=True)
class SearchStep:
    """One decision of the branch-and-bound search, as recorded by :func:`search_log`.

    Attributes
    ----------
    path : tuple of int
        The nodes chosen so far, the start ``l_0`` first; the last one is the node just considered.
    wins : int
        The weight of the steps along ``path``.
    bound : int or None
        ``wins`` plus the best walk from the last node back to ``l_0`` in the
        steps that remain (for a start: the best closed walk through it);
        ``None`` when no such walk exists.
    best : int or None
        The best cycle value found before this decision.
    action : str
        ``"start"`` (a start node is searched), ``"stop"`` (its bound is below
        ``best``: it and every later start are cut), ``"dead end"`` (no walk
        back), ``"prune"`` (``bound < best``), ``"extend"`` (the path grows),
        ``"new best"`` or ``"tie"`` (a whole cycle, of value ``bound``).
    """

    path: tuple[int, ...]
    wins: int
    bound: int | None
    best: int | None
    action: str


def _int_matrix(name: str, value) -> np.ndarray:
    return int_array(name, value, ndim=2, what="integers (maxplus_product takes integer arrays)")


_INT_MATRIX = Check(_int_matrix, bad=WEIGHTS.bad[:12])


@validated(A=_INT_MATRIX, B=_INT_MATRIX, example={"A": [[0, 1], [2, 3]], "B": [[1, 0], [0, 1]]})
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
    if A.shape[1] != B.shape[0]:
        raise ValueError(
            f"A of shape {A.shape} and B of shape {B.shape} do not chain: A needs as many columns as B rows"
        )
    if max(-int(A.min()), int(A.max())) + max(-int(B.min()), int(B.max())) >= 2**63:
        raise ValueError("A and B hold entries so large that their sums overflow int64")
    (n, k), m = A.shape, B.shape[1]
    # the compiled loop runs in SIMD lanes: about 0.5 ns a step (measured 0.11 s for 600 x 600 x 600)
    steps = SIMD_STEP * n * k * m
    check_cost("(A, B) shapes", (A.shape, B.shape), memory=8 * n * m, steps=steps, what="the product")
    return _kernels.maxplus_dense(A, B)


def _search_cost(n: float, nnz: float, M: int) -> tuple[float, float]:
    """``(bytes, steps)`` the compiled search surely spends on ``n`` nodes with ``nnz`` steps.

    The sparse rows; for ``n >= M`` the walk bounds (at most three dense max-plus
    powers alive and an ``int16`` copy of the steps, ``R_r`` from ``R_{r-1}`` in
    ``nnz * n`` steps of a contiguous compiled loop, about 0.2 ns each, timed) and one start's
    table of walks home (``M * nnz`` steps). The depth-first search itself depends on how well
    the bounds prune, and is not counted.
    """
    if n < M:
        return 24 * nnz, 0.0
    b = M - M // 2
    memory = 24 * nnz + 8 * n * n * min(b, 3) + 2 * n * n + 16 * M * n
    steps = b * n * n + 0.02 * max(b - 2, 0) * nnz * n + M * nnz
    return memory, steps


def _cycles_in(indptr, indices, weights, M: int) -> CycleSearch:
    """:func:`max_sum_cycles` on a digraph already in sparse rows."""
    empty = np.empty((0, M), dtype=np.int64)
    if indptr.size - 1 < M or indices.size == 0:
        return CycleSearch(None, empty, None)
    # only the nodes on some closed walk, renumbered in the same order
    keep, indptr, indices, weights = _kernels.cycle_core(indptr, indices, weights)
    if indices.size == 0:
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
    # rows from one start come in ascending order (successors are searched in ascending
    # order): sorting them by their start, stably, sorts them lexicographically
    cycles = keep[cycles[np.argsort(cycles[:, 0], kind="stable")]]
    return CycleSearch(int(best), cycles, walk_value)


_EXAMPLE_GRAPH = {"weights": [[0, 1, 1], [1, 0, 2], [3, 1, 0]], "allowed": [[0, 1, 1], [1, 0, 1], [1, 1, 0]]}


@validated(weights=WEIGHTS, allowed=MASK, dice=DICE, example={**_EXAMPLE_GRAPH, "dice": 3})
def max_sum_cycles(weights, allowed, *, dice: int) -> CycleSearch:
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
    dice : int
        Cycle length ``M`` (the dice of a set), ``M >= 2``.

    Returns
    -------
    CycleSearch
        The best value, every optimal cycle, and the closed-walk maximum.

    Examples
    --------
    A 3-cycle ``0 -> 1 -> 2 -> 0`` of weight 6 beats ``0 -> 2 -> 1 -> 0`` of weight 3:

    >>> res = max_sum_cycles([[0, 1, 1], [1, 0, 2], [3, 1, 0]], [[0, 1, 1], [1, 0, 1], [1, 1, 0]], dice=3)
    >>> res.value, res.cycles.tolist(), res.walk_value
    (6, [[0, 1, 2]], 6)
    """
    M = dice
    weights, allowed = digraph(weights, allowed)
    indptr, indices, w = _kernels.csr(weights, allowed)
    if w.size and int(np.abs(w).max()) * M >= 2**39:
        raise ValueError(
            f"weights up to {int(np.abs(w).max())} around dice = {M} steps are too large for the int64 "
            "max-plus search (|weight| * dice must stay below 2**39)"
        )
    memory, steps = _search_cost(len(allowed), w.size, M)
    check_cost(
        "dice", M, memory=memory, steps=steps, what=f"the search on {len(allowed)} nodes, {w.size} steps"
    )
    return _cycles_in(indptr, indices, w, M)


def _walks_home(l0: int, w, succ, steps: int, above: bool) -> list[list[int | None]]:
    """``home[r][c]``: the best ``r``-step walk from ``c`` to ``l0`` (``None``: none); with
    ``above``, only walks from ``c > l0`` through nodes ``> l0``."""
    n = len(succ)
    home = [[None] * n for _ in range(steps + 1)]
    home[0][l0] = 0
    for r in range(1, steps + 1):
        for c in range(n):
            if not (above and c <= l0):
                options = [w[c][k] + home[r - 1][k] for k in succ[c] if home[r - 1][k] is not None]
                home[r][c] = max(options, default=None)
    return home


@validated(weights=WEIGHTS, allowed=MASK, dice=DICE, example={**_EXAMPLE_GRAPH, "dice": 3})
def search_log(weights, allowed, *, dice: int) -> list[SearchStep]:
    """The branch-and-bound of :func:`max_sum_cycles` in plain Python, every decision recorded.

    Each simple cycle is found from its smallest node ``l_0``. The start nodes
    are taken by decreasing *bound*, the best closed ``M``-walk through them
    (the paper's ``S`` matrices); once a start's bound is below the best cycle
    found, no cycle through it or any later start can do better, and the search
    stops. From a start, a depth-first search extends a path of distinct
    nodes above ``l_0``. A path with ``wins`` so far, whose last node is ``c``,
    can at best be completed by the best walk from ``c`` back to ``l_0`` in the
    remaining steps (repeats allowed, so it is at least as good as any real
    completion): if ``wins + that`` is below the best cycle found, the branch
    is pruned. Ties are kept, so every optimal cycle is found.

    Meant for reading the search on small graphs (tens of nodes); the compiled
    :func:`max_sum_cycles` makes the same decisions.

    Parameters
    ----------
    weights : array_like of int, shape (n, n)
        ``weights[i, j]`` is the weight of the step ``i -> j``.
    allowed : array_like of bool, shape (n, n)
        Which steps may be taken; the diagonal is ignored.
    dice : int
        Cycle length ``M`` (the dice of a set), ``M >= 2``.

    Returns
    -------
    list of SearchStep
        The decisions in the order they are made. The optimal cycles are the
        paths of the last ``"new best"`` step and of the ``"tie"`` steps after it.

    Examples
    --------
    >>> log = search_log([[0, 1, 1], [1, 0, 2], [3, 1, 0]], [[0, 1, 1], [1, 0, 1], [1, 1, 0]], dice=3)
    >>> [(step.path, step.bound, step.action) for step in log]
    [((0,), 6, 'start'), ((0, 1), 6, 'extend'), ((0, 1, 2), 6, 'new best'), ((0, 2), 3, 'prune'),
     ((1,), 6, 'start'), ((1, 2), None, 'dead end'), ((2,), 6, 'start')]
    """
    M = dice
    weights, allowed = digraph(weights, allowed)
    n, nnz = len(allowed), int(allowed.sum())
    check_cost(
        "dice",
        M,
        memory=40 * (M + 1) * n,
        steps=0.6 * PY_STEP * n * M * (n + nnz),  # measured 0.96 s on 252 nodes, M = 3
        what=f"the walks home in Python over {n} nodes",
    )
    w = weights.tolist()
    succ = [np.flatnonzero(row).tolist() for row in allowed]
    n = len(succ)
    upper = [_walks_home(l0, w, succ, M, above=False)[M][l0] for l0 in range(n)]
    log: list[SearchStep] = []
    best: int | None = None

    def extend(path: tuple[int, ...], wins: int, home) -> None:
        nonlocal best
        for c in succ[path[-1]]:
            if c <= path[0] or c in path:
                continue
            step, rest = wins + w[path[-1]][c], home[M - len(path)][c]
            bound = None if rest is None else step + rest
            if bound is None or (best is not None and bound < best):
                action = "dead end" if bound is None else "prune"
            elif len(path) == M - 1:  # c closes the cycle: the bound is its value
                action, step = ("tie" if bound == best else "new best"), bound
            else:
                action = "extend"
            log.append(SearchStep(path + (c,), step, bound, best, action))
            if action == "extend":
                extend(path + (c,), step, home)
            elif action in ("tie", "new best"):
                best = bound

    for l0 in sorted((i for i in range(n) if upper[i] is not None), key=lambda i: -upper[i]):
        if best is not None and upper[l0] < best:
            log.append(SearchStep((l0,), 0, upper[l0], best, "stop"))
            break
        log.append(SearchStep((l0,), 0, upper[l0], best, "start"))
        extend((l0,), 0, _walks_home(l0, w, succ, M - 1, above=True))
    return log


def _cyclic(name: str, value) -> tuple:
    """A cyclic sequence as a tuple; sets and mappings have no order and are refused."""
    if isinstance(value, set | frozenset | dict) or not isinstance(value, Iterable):
        raise ValueError(f"{name} must be a sequence (the dice in cyclic order), got {value!r}")
    return tuple(value)


_CYCLE = Check(_cyclic, bad=(None, 3, 2.5, True, {1, 2}, {1: 2}))


@validated(a=_CYCLE, b=_CYCLE, example={"a": "ABCD", "b": "CDAB"})
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
    return len(a) == len(b) and any(a[k:] + a[:k] == b for k in range(max(len(a), 1)))


def _check_dice_search(S: int, L: int, M: int) -> None:
    """Refuse a search over all ``N_{L,S}`` dice that cannot fit: listing them and their faces, the wins
    matrix (``N^2 L`` steps), its masks and the walk bounds of :func:`_search_cost`."""
    N, memory, steps = dice_listing_cost(S, L)
    search_memory, search_steps = _search_cost(N, 0, M)
    check_cost(
        "(sides, labels, dice)",
        (S, L, M),
        memory=memory + N * (56 + 8 * S) + 10 * N * N + search_memory,
        # the wins matrix, its masks and sparse rows: about 0.6 N^2 L steps in all (0.95 s for L = 9, S = 6)
        steps=steps + 0.6 * N * N * L + search_steps,
        what=f"the search over {count_text(log2_num_dice(S, L))} dice",
    )


def _as_face_sets(faces: list[tuple[int, ...]], cycles: np.ndarray) -> list[tuple[tuple[int, ...], ...]]:
    return [tuple(map(faces.__getitem__, row)) for row in cycles.tolist()]


_GAME = {"sides": SIDES, "labels": LABELS, "dice": DICE, "min_wins": WINS}


@validated(**_GAME, wins=WINS, example={"sides": 3, "labels": 5, "dice": 3})
def best_cycles(*, sides: int, labels: int, dice: int, wins: int | None = None, min_wins: int | None = None):
    """The best nontransitive sets of ``M`` dice with ``S`` sides and labels ``0..L-1``.

    Every die must beat the next (``l_{M-1}`` the first) in at least ``min_wins``
    of the ``S**2`` face pairs. Among those sets, the ones with the largest
    total of wins are returned. Dice are never repeated within a set.

    Parameters
    ----------
    sides : int
        Number of sides ``S``, ``S >= 1``.
    labels : int
        Number of labels ``L``, ``L >= 1``.
    dice : int
        Number of dice ``M`` in a set, ``M >= 2``.
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

    >>> best_cycles(sides=3, labels=5, dice=3)
    [((2, 2, 2), (1, 1, 4), (0, 3, 3))]
    """
    S, L, M = sides, labels, dice
    min_wins, wins = thresholds(S, min_wins, wins)
    _check_dice_search(S, L, M)
    counts = unique_dice(sides=S, labels=L)
    W = wins_matrix(counts)
    result = max_sum_cycles(W, allowed_edges(W, min_wins=min_wins, wins=wins), dice=M)
    return _as_face_sets(face_tuples(counts), result.cycles)


@validated(**_GAME, example={"sides": 4, "labels": 6, "dice": 3})
def search_all(*, sides: int = 6, labels: int = 7, dice: int = 4, min_wins: int | None = None) -> dict:
    """The paper's complete run: the unequal case, then every equal-probability value.

    Parameters
    ----------
    sides, labels, dice : int
        Sides ``S``, labels ``L`` and dice per set ``M``, as in :func:`best_cycles`; the
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
        set exists) and ``sets`` is a :class:`~dicelab.efron.DiceSets`: the sets of
        :func:`best_cycles` held as arrays (a search can find millions), read as
        that list -- same length, items, order, printed form and ``==``.

    Examples
    --------
    Three four-sided dice with labels ``0..5``: one best set overall, and three
    sets in which every die beats the next in exactly 9 of the 16 face pairs.

    >>> out = search_all(sides=4, labels=6, dice=3)
    >>> out[None]
    (29, [((2, 2, 2, 5), (1, 1, 4, 4), (0, 3, 3, 3))])
    >>> {n: len(sets) for n, (value, sets) in out.items()}
    {None: 1, 9: 3, 10: 0, 11: 0, 12: 0, 13: 0, 14: 0, 15: 0, 16: 0}
    """
    S, L, M = sides, labels, dice
    min_wins, _ = thresholds(S, min_wins, None)
    _check_dice_search(S, L, M)
    counts = unique_dice(sides=S, labels=L)
    faces = face_array(counts)
    W = wins_matrix(counts)
    graph = _kernels.csr(W, allowed_edges(W, min_wins=min_wins))  # built once, filtered for each n
    del W  # the dense matrix is not needed again
    values = np.unique(graph[2]).tolist()
    memory, steps = _search_cost(len(counts), graph[2].size, M)
    # the dense walk bounds, formed again for each value: on a subgraph of few steps mostly the
    # filling of the n x n tables, about a tenth of a step an entry (timed)
    dense = 0.1 * _search_cost(len(counts), 0, M)[1]
    steps = 2 * steps + max(len(values) - 1, 0) * dense  # the subgraphs share out the steps once
    check_cost(
        "(sides, labels, dice)", (S, L, M), memory=memory, steps=steps, what=f"{len(values) + 1} searches"
    )
    out = {}
    for n in [None, *values]:
        sub = graph if n is None else _kernels.csr_equal(*graph, n)
        res = _cycles_in(*sub, M)
        out[n] = (res.value, DiceSets(faces, res.cycles.astype(np.int32)))  # N < 2**31: half the memory
    return out
