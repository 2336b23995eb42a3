"""One turn of Pig under "hold at k": the exact distribution of the turn total ``X_k``.

Serves the paper's section "Distribution calculation" (Tables 1 and 2) and "Infinite number
of players" (the simultaneous Pig paper).

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

from dicelab.core.checks import check_cost, check_int

__all__ = ["GOAL", "hold_distribution", "hold_table", "one_turn_win", "deviation_threshold"]

GOAL = 100
"""The paper's target score."""


def _check_goal(goal) -> int:
    return check_int("goal", goal, 1)


_HOLDS: list[tuple[tuple[int, Fraction], ...]] = []  # X_1, X_2, ... as computed so far (kept up to k = 1000)
_KEEP = 1000


def _next_hold(k: int, prev: dict[int, int]) -> dict[int, int]:
    """Numerators of ``X_k`` over ``6^k`` from those of ``X_{k-1}`` over ``6^(k-1)``: the paper's recursion.

    Over the common denominator ``6^k`` no fraction needs reducing: each step is a few
    additions of integers of about ``2.6 k`` bits.
    """
    base = prev.get(k - 1, 0)  # P(X_{k-1} = k-1): the player must roll again
    dist = {0: 6 * prev[0] + base}
    dist[k] = 6 * prev.get(k, 0)
    for x in range(k + 1, k + 4 + 1):
        dist[x] = 6 * prev.get(x, 0) + base
    dist[k + 5] = base  # the corrected last case: (1/6) P_{X_{k-1}}(k-1)
    return dist


def _numerators(last: int):
    """``(k, {x: n})`` for ``k = 1..last`` with ``P(X_k = x) = n / 6^k``, iteratively (no depth limit)."""
    dist = {0: 1, 1: 0} | {x: 1 for x in range(2, 7)}
    for k in range(1, last + 1):
        if k > 1:
            dist = _next_hold(k, dist)
        yield k, dist


def _fractions(k: int, dist: dict[int, int]) -> tuple[tuple[int, Fraction], ...]:
    return tuple(sorted((x, Fraction(n, 6**k)) for x, n in dist.items()))


def _hold(k: int) -> tuple[tuple[int, Fraction], ...]:
    """``X_k`` as sorted (value, probability) pairs."""
    if k <= len(_HOLDS):
        return _HOLDS[k - 1]
    for j, dist in _numerators(k):
        if j > len(_HOLDS) and j <= _KEEP:
            _HOLDS.append(_fractions(j, dist))
    return _HOLDS[k - 1] if k <= _KEEP else _fractions(k, dist)


def _check_k(name: str, k) -> int:
    """``k >= 1`` whose distribution ``X_k`` fits the budget: ``k`` steps on seven integers of
    about ``2.6 k`` bits each (timed at about ``k^2 / 5`` steps in all), and the distributions
    ``X_1 .. X_min(k, 1000)`` remembered as fractions, a gcd each (about ``7.5 min(k, 1000)^2``
    steps in all: 0.075 s for ``k = 1000``, timed)."""
    k = check_int(name, k, 1)
    steps = k * k / 5 + 7.5 * min(k, _KEEP) ** 2
    check_cost(name, k, memory=21.0 * k, steps=steps, what="the distribution of X_k in exact fractions")
    return k


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
    return dict(_hold(_check_k("k", k)))


@cache
def _hold_table(goal: int) -> np.ndarray:
    table = np.zeros((goal + 1, goal + 6))
    for k, dist in _numerators(goal):
        d = 6**k
        for x, n in dist.items():
            table[k, x] = n / d  # int / int rounds correctly: float(Fraction(n, d))
    return table


def _table_cost(goal: int) -> tuple[float, float]:
    """``(bytes, steps)`` of :func:`_hold_table` ``(goal)``: the float table, and ``7 goal`` exact
    divisions of integers of up to ``2.6 goal`` bits (timed: 0.009 s at goal 1,000, 0.43 s at
    4,000, 1.4 s at 8,000, about ``0.05 goal^2.45`` steps)."""
    return 8.0 * (goal + 1) * (goal + 6), 0.05 * float(goal) ** 2.45


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
    goal = _check_goal(goal)
    memory, steps = _table_cost(goal)
    check_cost("goal", goal, memory=2 * memory, steps=steps, what="the hold table")
    return _hold_table(goal).copy()


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
    return math.floor(1 / (1 - dict(_hold(_check_k("goal", goal)))[0])) + 1
