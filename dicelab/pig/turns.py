"""One turn of Pig under "hold at k": the exact distribution of the turn total ``X_k``.

Serves the paper's section "Distribution calculation" (Tables 1 and 2) and "Infinite number
of players" (the simultaneous Pig paper).

``X_k`` is the turn total of a player who rolls until the total is at least ``k``: ``0`` after
a 1, otherwise one of ``k, ..., k+5`` (``k, ..., k+sides-1`` with a die of ``sides`` faces, every
function's ``sides``; the face 1 always ends the turn). The paper's recursion builds ``X_{k+1}`` from ``X_k``:
the two agree unless ``X_k = k``, when one more roll gives ``0`` or ``k+2 .. k+6`` with
probability 1/6 each. (The paper prints the last case as ``(1/6) P_{X_k}(i)`` at
``i = k+6``, which is 0; it must be ``(1/6) P_{X_k}(k)``, as its own ``X_3`` example shows.)
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from dicelab.core.checks import check_cost
from dicelab.core.spec import validated
from dicelab.pig import _common
from dicelab.pig._common import GOAL_ARG, SIDES_ARG

__all__ = ["GOAL", "hold_distribution", "hold_table", "one_turn_win", "deviation_threshold"]

GOAL = 100
"""The paper's target score."""


def _check_k(name: str, k: int, sides: int = _common.SIDES) -> int:
    """``k`` (an int ``>= 1``) whose distribution ``X_k`` fits the budget: ``k`` steps on ``sides + 1``
    integers of about ``k log2(sides)`` bits each (timed for six sides at about ``k^2 / 5`` steps in all), and
    the distributions ``X_1 .. X_min(k, 1000)`` remembered as fractions, a gcd each (about
    ``7.5 min(k, 1000)^2`` steps in all: 0.075 s for ``k = 1000``, timed)."""
    scale = (sides + 1) / 7 * max(1.0, math.log2(sides) / math.log2(6))
    steps = (k * k / 5 + 7.5 * min(k, _common.KEEP) ** 2) * scale
    memory = 3.0 * k * (sides + 1) * max(1.0, math.log2(sides) / math.log2(6))
    check_cost(name, k, memory=memory, steps=steps, what="the distribution of X_k in exact fractions")
    return k


@validated(k=GOAL_ARG, sides=SIDES_ARG, example={"k": 3})
def hold_distribution(k: int, *, sides: int = _common.SIDES) -> dict[int, Fraction]:
    """The exact distribution of ``X_k``, the turn total when holding at ``k`` (Table 1 recursion).

    Parameters
    ----------
    k : int
        The hold value, ``k >= 1``.
    sides : int
        The faces of the die (the paper's 6); the face 1 ends the turn, the faces ``2..sides``
        add to the turn total.

    Returns
    -------
    dict[int, Fraction]
        ``{x: P(X_k = x)}`` for ``x`` in ``0, k, k+1, ..., k+sides-1`` (``P(X_1 = 1) = 0`` is kept,
        as in the paper).

    >>> x3 = hold_distribution(3)
    >>> x3[0], x3[3], x3[8]
    (Fraction(7, 36), Fraction(1, 6), Fraction(1, 36))
    >>> hold_distribution(2, sides=4)
    {0: Fraction(1, 4), 2: Fraction(1, 4), 3: Fraction(1, 4), 4: Fraction(1, 4), 5: Fraction(0, 1)}
    """
    return dict(_common.hold(_check_k("k", k, sides), sides))


@validated(goal=GOAL_ARG, sides=SIDES_ARG, example={"goal": 6})
def hold_table(goal: int = GOAL, *, sides: int = _common.SIDES) -> np.ndarray:
    """All the hold-at-k distributions as one float table.

    Parameters
    ----------
    goal : int
        The largest hold value, ``goal >= 1``.
    sides : int
        The faces of the die (the face 1 ends the turn).

    Returns
    -------
    numpy.ndarray
        ``T[k, x] = P(X_k = x)``, shape ``(goal + 1, goal + sides)``, for ``k = 1..goal`` (row 0 unused).

    >>> T = hold_table(6)
    >>> T.shape, bool(T[3, 8] == 1 / 36), T[1:].sum(axis=1).round(12).tolist()
    ((7, 12), True, [1.0, 1.0, 1.0, 1.0, 1.0, 1.0])
    """
    memory, steps = _common.table_cost(goal, sides)
    check_cost("goal", goal, memory=2 * memory, steps=steps, what="the hold table")
    return _common.hold_table(goal, sides).copy()


@validated(k=GOAL_ARG, sides=SIDES_ARG, example={"k": 2})
def one_turn_win(k: int = GOAL, *, sides: int = _common.SIDES) -> Fraction:
    """The probability of reaching ``k`` points in a single turn when holding at ``k``.

    Parameters
    ----------
    k : int
        The points needed, ``k >= 1``.
    sides : int
        The faces of the die (the face 1 ends the turn).

    Returns
    -------
    Fraction
        ``1 - P(X_k = 0)``.

    >>> one_turn_win(2)
    Fraction(5, 6)
    >>> one_turn_win(2, sides=2)
    Fraction(1, 2)
    """
    return 1 - hold_distribution(k, sides=sides)[0]


@validated(goal=GOAL_ARG, sides=SIDES_ARG, example={"goal": 20})
def deviation_threshold(goal: int = GOAL, *, sides: int = _common.SIDES) -> int:
    """The least number of players ``n`` with ``1/n`` below the chance of winning in one turn.

    If all ``n`` players play alike, each wins with probability ``1/n``; a player who holds
    at ``goal`` from the start wins in the first turn with probability
    :func:`one_turn_win` ``(goal)`` (nobody else can reach the goal in one turn without
    holding at it), so deviating pays from this ``n`` on.

    Parameters
    ----------
    goal : int
        The target score.
    sides : int
        The faces of the die (the face 1 ends the turn).

    Returns
    -------
    int
        ``floor(1 / p) + 1`` with ``p = one_turn_win(goal)``, in exact arithmetic.

    >>> deviation_threshold()
    99
    """
    return math.floor(1 / (1 - dict(_common.hold(_check_k("goal", goal, sides), sides))[0])) + 1
