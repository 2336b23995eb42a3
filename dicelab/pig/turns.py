"""One turn of Pig under "hold at k": the exact distribution of the turn total ``X_k``.

Serves the paper's section "Distribution calculation" (Tables 1 and 2) and "Infinite number
of players" (``simultaneous-pig.txt``).

``X_k`` is the turn total of a player who rolls until the total is at least ``k``: ``0`` after
a 1, otherwise one of ``k, ..., k+5``. The paper's recursion builds ``X_{k+1}`` from ``X_k``:
the two agree unless ``X_k = k``, when one more roll gives ``0`` or ``k+2 .. k+6`` with
probability 1/6 each. (The paper prints the last case as ``(1/6) P_{X_k}(i)`` at
``i = k+6``, which is 0; it must be ``(1/6) P_{X_k}(k)``, as its own ``X_3`` example shows.)
"""

from __future__ import annotations

import math
from fractions import Fraction
from functools import cache

import numpy as np

from dicelab._checks import check_int

__all__ = ["GOAL", "hold_distribution", "hold_table", "one_turn_win", "deviation_threshold"]

GOAL = 100
"""The paper's target score."""


def _check_goal(goal) -> int:
    return check_int("goal", goal, 1)


_HOLDS: list[tuple[tuple[int, Fraction], ...]] = []  # X_1, X_2, ... as computed so far (kept up to k = 1000)
_KEEP = 1000


def _next_hold(k: int, prev: dict[int, Fraction]) -> dict[int, Fraction]:
    """The distribution of ``X_k`` from that of ``X_{k-1}`` (the paper's recursion)."""
    base = prev.get(k - 1, Fraction(0))  # P(X_{k-1} = k-1): the player must roll again
    dist = {0: prev[0] + base / 6}
    dist[k] = prev.get(k, Fraction(0))
    for x in range(k + 1, k + 4 + 1):
        dist[x] = prev.get(x, Fraction(0)) + base / 6
    dist[k + 5] = base / 6  # the corrected last case: (1/6) P_{X_{k-1}}(k-1)
    return dist


def _hold(k: int) -> tuple[tuple[int, Fraction], ...]:
    """``X_k`` as sorted (value, probability) pairs, iteratively: no recursion depth limit."""
    if not _HOLDS:
        _HOLDS.append(
            tuple(
                sorted(
                    ({0: Fraction(1, 6), 1: Fraction(0)} | {x: Fraction(1, 6) for x in range(2, 7)}).items()
                )
            )
        )
    if k <= len(_HOLDS):
        return _HOLDS[k - 1]
    j, dist = len(_HOLDS), dict(_HOLDS[-1])
    while j < k:
        j += 1
        dist = _next_hold(j, dist)
        if j <= _KEEP:
            _HOLDS.append(tuple(sorted(dist.items())))
    return tuple(sorted(dist.items()))


def hold_distribution(k: int) -> dict[int, Fraction]:
    """The exact distribution of ``X_k``, the turn total when holding at ``k`` (Table 1 recursion).

    Parameters
    ----------
    k : int
        The hold value, ``k >= 1``.

    Returns
    -------
    dict[int, Fraction]
        ``{x: P(X_k = x)}`` for ``x`` in ``0, k, k+1, ..., k+5`` (``P(X_1 = 1) = 0`` is kept,
        as in the paper).

    >>> x3 = hold_distribution(3)
    >>> x3[0], x3[3], x3[8]
    (Fraction(7, 36), Fraction(1, 6), Fraction(1, 36))
    """
    k = check_int("k", k, 1)
    return dict(_hold(k))


@cache
def _hold_table(goal: int) -> np.ndarray:
    table = np.zeros((goal + 1, goal + 6))
    for k in range(1, goal + 1):
        for x, p in _hold(k):
            table[k, x] = float(p)
    return table


def hold_table(goal: int = GOAL) -> np.ndarray:
    """All the hold-at-k distributions as one float table.

    Parameters
    ----------
    goal : int
        The largest hold value, ``goal >= 1``.

    Returns
    -------
    numpy.ndarray
        ``T[k, x] = P(X_k = x)``, shape ``(goal + 1, goal + 6)``, for ``k = 1..goal`` (row 0 unused).

    >>> T = hold_table(6)
    >>> T.shape, bool(T[3, 8] == 1 / 36), T[1:].sum(axis=1).round(12).tolist()
    ((7, 12), True, [1.0, 1.0, 1.0, 1.0, 1.0, 1.0])
    """
    return _hold_table(_check_goal(goal)).copy()


def one_turn_win(k: int = GOAL) -> Fraction:
    """The probability of reaching ``k`` points in a single turn when holding at ``k``.

    Parameters
    ----------
    k : int
        The points needed, ``k >= 1``.

    Returns
    -------
    Fraction
        ``1 - P(X_k = 0)``.

    >>> one_turn_win(2)
    Fraction(5, 6)
    """
    return 1 - hold_distribution(k)[0]


def deviation_threshold(goal: int = GOAL) -> int:
    """The least number of players ``n`` with ``1/n`` below the chance of winning in one turn.

    If all ``n`` players play alike, each wins with probability ``1/n``; a player who holds
    at ``goal`` from the start wins in the first turn with probability
    :func:`one_turn_win` ``(goal)`` (nobody else can reach the goal in one turn without
    holding at it), so deviating pays from this ``n`` on.

    Parameters
    ----------
    goal : int
        The target score.

    Returns
    -------
    int
        ``floor(1 / p) + 1`` with ``p = one_turn_win(goal)``, in exact arithmetic.

    >>> deviation_threshold()
    99
    """
    return math.floor(1 / one_turn_win(_check_goal(goal))) + 1
