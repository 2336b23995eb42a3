"""Counting nontransitive cycles: closed walks and the trace ``tr(A^M) / M``.

Serves the question behind the search of Stebbing's post: how many
nontransitive sets of ``M`` dice are there at all?

Let ``A`` be the 0/1 matrix of "beats". ``(A^M)[i, i]`` counts the closed walks
``i -> l_1 -> ... -> l_{M-1} -> i`` in which each die beats the next, so
``trace(A^M)`` counts every closed walk of length ``M``; a cycle of ``M``
distinct dice is ``M`` of them, one from each of its dice. A closed walk that
repeats a die splits into two shorter closed walks, and for ``M <= 5`` one of
them has length 1 or 2: a die that beats itself, or two dice that beat each
other. Neither exists, so for ``M <= 5`` ``trace(A^M) / M`` counts cycles.
"""

from __future__ import annotations

import math

import numpy as np

from dicelab.core.checks import check_cost
from dicelab.core.spec import Int, validated
from dicelab.efron._common import (
    BLAS_RATE,
    LABELS,
    MASK,
    PY_STEP,
    SIDES,
    VECTOR_STEP,
    WINS,
    count_text,
    dice_listing_cost,
    log2_num_dice,
    thresholds,
)
from dicelab.efron.dice import unique_dice
from dicelab.efron.wins import allowed_edges, wins_matrix

__all__ = ["closed_walks", "count_cycles"]


def _walk_powers(A: np.ndarray, a: int, b: int) -> tuple[np.ndarray, np.ndarray]:
    """``(A^a, A^b)`` for a 0/1 matrix and ``1 <= a <= b``, exactly, from ``b - 1`` products.

    The powers ``A^2, ..., A^b`` are formed one from the other, keeping ``A^a`` on the way:
    in float64 while every entry stays below ``2**53`` (float products of whole numbers below
    that are exact), else all again in Python integers.
    """
    left, P = A, A
    for r in range(2, b + 1):
        P = P @ A
        if P.max(initial=0) >= 2**53:
            exact = A.astype(np.int64).astype(object)
            left = P = exact
            for s in range(2, b + 1):
                P = P.dot(exact)
                if s == a:
                    left = P
            return left, P
        if r == a:
            left = P
    return left, P


def _walk_cost(A: np.ndarray, M: int) -> tuple[float, float]:
    """``(bytes, steps)`` of :func:`closed_walks`: ``M - M // 2 - 1`` float products of ``n x n``
    matrices, and Python-integer products when the counts of a half walk pass ``2**53``.

    The counts of ``k``-step walks grow like ``rho**k`` for the spectral radius ``rho``
    of ``A`` (at most the largest out-degree; computed when that bound alone does not
    settle it), and the longer half walk has ``k = M - M // 2`` steps.
    """
    n, k = len(A), M - M // 2
    memory = 24.0 * n * n * (k + 1)  # floats alive at the peak: 8.7 n^2 for k = 3, 10.7 n^2 for 4 (measured)
    steps = max(k - 1, 1) * (n**3 / BLAS_RATE + n * n + 100)
    degree = float(A.sum(axis=1).max())
    if degree < 2 or k * math.log2(degree) < 53:
        return memory, steps
    rho = degree if n > 2000 else float(np.abs(np.linalg.eigvals(A)).max())
    bits = k * math.log2(max(rho, 1.0))
    if bits >= 53:  # the exact products: Python integers of up to `bits` bits, average half of it
        memory += 3 * n * n * (32 + bits / 8)
        steps += PY_STEP * n**3 * k * (1 + bits / 128)
    return memory, steps


@validated(allowed=MASK, dice=Int(1), example={"allowed": [[0, 1, 0], [0, 0, 1], [1, 0, 0]], "dice": 3})
def closed_walks(allowed, *, dice: int) -> int:
    """The number of closed walks of length ``M`` in a digraph: ``trace(A^M)``, exactly.

    ``(A^M)[i, i]`` counts the walks ``i -> l_1 -> ... -> l_{M-1} -> i``. A
    simple cycle of ``M`` distinct nodes gives ``M`` of them, one from each of
    its nodes; a closed walk may also visit a node twice. When no node has a
    loop and no two nodes point at each other, every closed walk of length
    ``M <= 5`` is a simple cycle (a repeated node would split it into two
    shorter closed walks, one of length 1 or 2), so ``closed_walks(A, dice=M) // M``
    is the number of ``M``-cycles (:func:`count_cycles`).

    Parameters
    ----------
    allowed : array_like of bool, shape (n, n)
        The adjacency matrix: ``allowed[i, j]`` when the step ``i -> j`` exists.
    dice : int
        Walk length ``M`` (the dice on the walk, counted with repeats), ``M >= 1``.

    Returns
    -------
    int
        ``trace(A^M)``.

    Examples
    --------
    One 3-cycle ``0 -> 1 -> 2 -> 0``: three closed walks of length 3 (one per
    start), and three of length 6 (twice round), though there is no 6-cycle.

    >>> A = [[0, 1, 0], [0, 0, 1], [1, 0, 0]]
    >>> closed_walks(A, dice=3), closed_walks(A, dice=6)
    (3, 3)
    """
    M = dice
    A = allowed.astype(np.float64)
    memory, steps = _walk_cost(A, M)
    check_cost("dice", M, memory=memory, steps=steps, what=f"the walk counts on {len(A)} nodes")
    if M == 1:
        return int(np.trace(A))
    # trace(A^a A^b) = sum_ij (A^a)[i, j] (A^b)[j, i]: the last product is never formed
    left, right = _walk_powers(A, M // 2, M - M // 2)
    if left.max(initial=0) * right.max(initial=0) * len(A) < 2**53:
        return int(round(np.einsum("ij,ji->", left, right)))
    # exact integers: a half still in float64 holds whole numbers below 2**53
    left, right = (x if x.dtype == object else x.astype(np.int64).astype(object) for x in (left, right))
    return int((left * right.T).sum())


@validated(
    sides=SIDES,
    labels=LABELS,
    dice=Int(3, 5),
    min_wins=WINS,
    example={"sides": 4, "labels": 6, "dice": 3},
)
def count_cycles(*, sides: int, labels: int, dice: int, min_wins: int | None = None) -> int:
    """The number of nontransitive ``M``-cycles among all ``N_{L,S}`` dice (``M`` = 3, 4 or 5).

    Counts every cyclic sequence ``l_0 -> ... -> l_{M-1} -> l_0`` of distinct dice
    in which each beats the next, each once up to rotation: ``trace(A^M) / M``
    for the 0/1 matrix ``A`` of "beats" (:func:`closed_walks`). That trace counts
    closed walks; a closed walk of length ``M <= 5`` is a simple cycle when no
    die beats itself and no two dice beat each other, which is checked.

    Parameters
    ----------
    sides, labels : int
        Sides ``S`` and labels ``L``, as in :func:`best_cycles`.
    dice : int
        Cycle length ``M``, 3, 4 or 5.
    min_wins : int or None
        As in :func:`best_cycles`; a value that lets two dice beat each other
        is refused.

    Returns
    -------
    int
        The number of cycles.

    Examples
    --------
    >>> count_cycles(sides=4, labels=6, dice=3), count_cycles(sides=6, labels=7, dice=3)
    (6, 9780)
    """
    S, L, M = sides, labels, dice
    min_wins, _ = thresholds(S, min_wins, None)
    N, memory, steps = dice_listing_cost(S, L)
    check_cost(
        "(sides, labels, dice)",
        (S, L, M),
        memory=memory + 43 * N * N,  # the wins matrix, two masks, four float matrices
        steps=steps + VECTOR_STEP * N * N * L + max(M - M // 2 - 1, 1) * N**3 / BLAS_RATE,
        what=f"the walk counts on {count_text(log2_num_dice(S, L))} dice",
    )
    W = wins_matrix(unique_dice(sides=S, labels=L))
    A = allowed_edges(W, min_wins=min_wins)
    if (A & A.T).any():
        raise ValueError("min_wins admits pairs of dice that beat each other; trace counting needs none")
    closed = closed_walks(A, dice=M)
    assert closed % M == 0
    return closed // M
