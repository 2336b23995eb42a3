"""The paper's algorithms as printed, and slow exact cross-checks of the fast solvers.

* ``paper_*``: the paper's own method, literally. :func:`paper_value_iteration` is its
  Algorithm 0.1 (value iteration: sweep every state with ``p <- max_k q(i, j, k)`` until
  the largest change is below a tolerance). Algorithm 0.2 (SVIMA) is printed only as a
  figure in the stored text; :func:`dicelab.pig.solve_svima` implements its description.
* ``exact_*``: the best responses in exact ``Fraction`` arithmetic, in pure Python, for
  small goals: what the tests hold the float solvers to; and the stage game of a state in
  exact fractions with its pure-strategy bounds, which decide whether the state needs mixing
  (:func:`dicelab.pig.solve_equilibrium` decides the states its floats cannot decide by the
  same computation, :func:`dicelab.pig._common.pure_bounds`).

The best responses return the same :class:`~dicelab.pig.BestResponse` as the fast solvers.
"""

from __future__ import annotations

import math
import numbers
from fractions import Fraction

import numpy as np

from dicelab.core.checks import check_cost, check_int
from dicelab.core.spec import validated
from dicelab.pig import _kernels
from dicelab.pig._common import (
    BOUNDS_STEPS,
    BUDGET_ARG,
    OPTIONAL_GOAL_ARG,
    SIDES,
    SIDES_ARG,
    STAGE_STEPS,
    TIE_ARG,
    TOL_ARG,
    check_tie,
    exact_stage,
    goal_reward,
    hold,
    hold_table,
    iterate,
    pure_bounds,
    self_loop,
)
from dicelab.pig.policy import Policy, hold_at, resolve_policies
from dicelab.pig.solution import BestResponse

__all__ = [
    "paper_value_iteration",
    "exact_best_response",
    "exact_best_response_3p",
    "exact_stage_game",
    "exact_pure_bounds",
]


@validated(
    goal=OPTIONAL_GOAL_ARG,
    tie=TIE_ARG,
    tol=TOL_ARG,
    max_iter=BUDGET_ARG,
    example={"opponent": hold_at(3, goal=8)},
)
def paper_value_iteration(
    opponent, goal: int | None = None, *, tie=0.5, tol: float = 1e-12, max_iter: int = 10_000
) -> BestResponse:
    """The paper's Algorithm 0.1: A's best response to a fixed opponent by value iteration.

    Gauss-Seidel sweeps over ``i``, then ``j``, ascending, from all values 0, until the
    largest change in a sweep is below ``tol``. Slow (a few seconds at goal 100); the same
    answer as :func:`dicelab.pig.solve_best_response`, which needs one sweep.

    Parameters
    ----------
    opponent : Policy or array_like
        B's policy (simple or two-player).
    goal : int, optional
        The target score; by default the opponent policy's.
    tie : float
        A's reward when both reach the goal in the same turn.
    tol : float
        Stop when no value changes by ``tol`` or more in a sweep.
    max_iter : int
        Sweeps allowed; :class:`~dicelab.pig.NotConverged` beyond.

    Returns
    -------
    BestResponse
        ``values``, ``policy`` and ``iterations`` (the sweeps run).

    >>> from dicelab import pig
    >>> h = pig.hold_at(3, goal=8)
    >>> vi = paper_value_iteration(h)
    >>> bool(abs(vi.values - pig.solve_best_response(h).values).max() < 1e-10), vi.iterations > 1
    (True, True)
    """
    goal, opp = resolve_policies(
        goal, {"opponent": opponent}, cost=lambda g: _sweeps_cost(g, max_iter), what="value iteration"
    )
    T, opp = hold_table(goal), opp.two_player()
    W = _kernels.padded_values(goal, tie)
    pol = np.zeros((goal, goal), dtype=np.int64)

    def sweep():
        return _kernels.value_iteration_sweep(goal, T, opp, W, pol)

    iterations, _ = iterate(sweep, tol=tol, max_iter=max_iter, what="value iteration (Algorithm 0.1)")
    return BestResponse(goal, W[:goal, :goal].copy(), Policy(pol), iterations, True)


def _sweeps_cost(goal: int, max_iter: int) -> tuple[float, float]:
    """``(bytes, steps)`` of :func:`paper_value_iteration`: about ``goal^3 / 2`` steps a sweep
    (3.3 s for goal 200, timed); the sweeps needed grow slowly with the goal (56 at goal 50, 78
    at 200, measured: about ``50 + goal / 7``)."""
    return 24.0 * goal**2, 0.5 * float(goal) ** 3 * min(max_iter, 50 + goal / 7)


_FRACTION_BYTES = 500.0
"""Bytes of one value in exact fractions (numerator and denominator of a few hundred bits)."""

_FRACTION_STEPS = 700.0
"""Steps of one ``Fraction`` multiply-add (about 7 microseconds, measured on these values: the
exact best response at goal 20 in 1.1 s, of three players at goal 8 in 5.4 s)."""


def _exact_cost(players: int, sides: int = SIDES):
    """``cost(goal)`` of the exact best response with ``players`` players: a ``Fraction`` per state;
    each of the ``goal^(players-1)`` states weighs up to ``goal`` hold values against the
    ``(sides + 1)^players`` outcomes of a turn."""

    def cost(goal: int) -> tuple[float, float]:
        states = float(goal) ** players
        return _FRACTION_BYTES * states, _FRACTION_STEPS * (sides + 1) ** players * states * goal / 2

    return cost


def _exact_tie(tie) -> Fraction:
    """``tie`` as an exact fraction in [0, 1] (a float converts to the number it holds)."""
    check_tie(tie)
    return Fraction(tie) if isinstance(tie, numbers.Rational) else Fraction(float(tie))


def _exact_values(values) -> np.ndarray:
    """``values`` as a square object array of finite fractions and floats, or a ValueError naming it."""
    square = "values must be a square (goal, goal) array of numbers (floats or fractions)"
    if values is None or isinstance(values, str | bytes | dict):
        raise ValueError(f"{square}, got {values!r}")
    try:
        arr = np.asarray(values, dtype=object)
    except ValueError:  # ragged nested lists
        raise ValueError(f"{square}, got {values!r}"[:300]) from None
    if arr.ndim != 2 or arr.shape[0] != arr.shape[1] or arr.size == 0:
        raise ValueError(f"{square}, got shape {arr.shape}")
    out = np.empty(arr.shape, dtype=object)
    for index, v in np.ndenumerate(arr):
        if isinstance(v, bool | np.bool_) or not isinstance(v, numbers.Real) or not math.isfinite(v):
            raise ValueError(f"values must hold finite numbers (floats or fractions), got {v!r} at {index}")
        out[index] = v if isinstance(v, numbers.Rational) else float(v)
    return out


def _exact_state(values, i, j, tie, steps: float) -> tuple:
    """``(values, i, j, tie)`` checked for the exact stage game at ``(i, j)``, which costs
    ``steps`` steps and a few ``Fraction`` values per entry."""
    values = _exact_values(values)
    goal = values.shape[0]
    i, j = check_int("i", i, 0, goal - 1), check_int("j", j, 0, goal - 1)
    entries = float(goal - i) * (goal - j)
    what = "a stage game in exact fractions"
    check_cost("values' goal", goal, memory=3 * _FRACTION_BYTES * entries, steps=steps * entries, what=what)
    return values, i, j, _exact_tie(tie)


@validated(goal=OPTIONAL_GOAL_ARG, sides=SIDES_ARG, example={"opponent": hold_at(2, goal=4)})
def exact_best_response(
    opponent, goal: int | None = None, *, tie=Fraction(1, 2), sides: int = SIDES
) -> BestResponse:
    """A's best hold-at-k response in exact fractions (pure Python: small goals, e.g. tests).

    Each state ``(i, j)``, in reverse order, takes ``max_k a_k / (1 - c_k)`` over the full
    product of A's and B's turn outcomes.

    Parameters
    ----------
    opponent : Policy or array_like
        B's policy (simple or two-player).
    goal : int, optional
        The target score; by default the opponent policy's.
    tie : Fraction
        A's reward when both reach the goal in the same turn.
    sides : int
        The faces of the die both players roll (the paper's 6); the face 1 ends the turn.

    Returns
    -------
    BestResponse
        ``values`` as an object array of ``Fraction``; ``policy``; ``iterations=1``.

    >>> res = exact_best_response(hold_at(2, goal=4))
    >>> res.value, res.policy[0, 0]
    (Fraction(217, 338), np.int64(4))
    """
    tie = _exact_tie(tie)
    goal, opp = resolve_policies(
        goal, {"opponent": opponent}, cost=_exact_cost(2, sides), what="the exact best response", sides=sides
    )
    opp = opp.two_player()
    dist = {k: dict(hold(k, sides)) for k in range(1, goal + 1)}
    win = np.empty((goal, goal), dtype=object)

    def weighted(i, j, p):
        if i >= goal or j >= goal:
            return goal_reward(p, i >= goal, j >= goal, tie)
        return p * win[i, j]

    pol = np.zeros((goal, goal), dtype=np.int64)
    for i in range(goal - 1, -1, -1):
        for j in range(goal - 1, -1, -1):
            B = dist[int(opp[j, i])]
            best = best_k = None
            for k in range(1, goal - i + 1):
                A = dist[k]
                pairs = ((x, pa, b, pb) for x, pa in A.items() for b, pb in B.items() if x or b)
                a = sum((weighted(i + x, j + b, pa * pb) for x, pa, b, pb in pairs), Fraction(0))
                v = self_loop(a, A[0] * B[0])
                if best is None or v > best:
                    best, best_k = v, k
            win[i, j], pol[i, j] = best, best_k
    return BestResponse(goal, win, Policy(pol), 1, True)


@validated(
    goal=OPTIONAL_GOAL_ARG,
    sides=SIDES_ARG,
    example={"opponent1": hold_at(1, goal=3), "opponent2": hold_at(2, goal=3)},
)
def exact_best_response_3p(
    opponent1, opponent2, goal: int | None = None, *, sides: int = SIDES
) -> BestResponse:
    """The three-player best response in exact fractions, over all 49 opponent outcomes
    (``(sides + 1)^2`` with a die of ``sides`` faces).

    Pure Python, for small goals (the tests). Winners at the goal share ``1/m``.

    Parameters
    ----------
    opponent1, opponent2 : Policy or array_like
        Simple policies (hold values by own score).
    goal : int, optional
        The target score; by default the opponents'.
    sides : int
        The faces of the die every player rolls (the paper's 6); the face 1 ends the turn.

    Returns
    -------
    BestResponse
        ``values[i, j1, j2]`` as ``Fraction``; ``policy`` a three-player policy; ``iterations=1``.

    >>> exact_best_response_3p(hold_at(1, goal=3), hold_at(2, goal=3)).value
    Fraction(2541544253, 6425101707)
    """
    policies = {"opponent1": opponent1, "opponent2": opponent2}
    goal, o1, o2 = resolve_policies(
        goal, policies, simple=True, cost=_exact_cost(3, sides), what="the exact best response", sides=sides
    )
    dist = {k: dict(hold(k, sides)) for k in range(1, goal + 1)}
    win = np.empty((goal, goal, goal), dtype=object)
    pol = np.zeros((goal, goal, goal), dtype=np.int64)

    def weighted(i, j1, j2, p):
        if i >= goal or j1 >= goal or j2 >= goal:
            return goal_reward(p, i >= goal, (j1 >= goal) + (j2 >= goal), Fraction(1, 2))
        return p * win[i, j1, j2]

    for i in range(goal - 1, -1, -1):
        for j1 in range(goal - 1, -1, -1):
            for j2 in range(goal - 1, -1, -1):
                B1, B2 = dist[int(o1[j1])], dist[int(o2[j2])]
                best = best_k = None
                for k in range(1, goal - i + 1):
                    A = dist[k]
                    outcomes = (
                        (x, b1, b2, pa * p1 * p2)
                        for x, pa in A.items()
                        for b1, p1 in B1.items()
                        for b2, p2 in B2.items()
                        if x or b1 or b2
                    )
                    a = sum((weighted(i + x, j1 + b1, j2 + b2, p) for x, b1, b2, p in outcomes), Fraction(0))
                    v = self_loop(a, A[0] * B1[0] * B2[0])
                    if best is None or v > best:
                        best, best_k = v, k
                win[i, j1, j2], pol[i, j1, j2] = best, best_k
    return BestResponse(goal, win, Policy(pol), 1, True)


def exact_stage_game(values, i: int, j: int, *, tie=Fraction(1, 2)) -> tuple[np.ndarray, np.ndarray]:
    """The stage game at ``(i, j)`` in exact fractions, for given values of the later states.

    As :func:`dicelab.pig.stage_game`, ``q(k, k') = A[k-1, k'-1] + C[k-1, k'-1] p(i, j)``, but
    every probability is a ``Fraction`` and each value ``values[i', j']`` is taken as the
    exact number it holds (a float converts to the fraction it represents): the stage game
    *of those values*, with no rounding.

    Parameters
    ----------
    values : array_like
        ``p[i, j]`` for every state, floats or fractions (shape ``(goal, goal)``).
    i, j : int
        The state: A on ``i`` points, B on ``j``.
    tie : Fraction
        A's reward when both reach the goal in the same turn.

    Returns
    -------
    (numpy.ndarray, numpy.ndarray)
        ``A`` and ``C`` as object arrays of ``Fraction``, shape ``(goal - i, goal - j)``.

    >>> A, C = exact_stage_game(np.zeros((2, 2)), 1, 1)
    >>> A[0, 0], C[0, 0]
    (Fraction(35, 72), Fraction(1, 36))
    """
    return exact_stage(*_exact_state(values, i, j, tie, STAGE_STEPS))


def exact_pure_bounds(values, i: int, j: int, *, tie=Fraction(1, 2)) -> tuple[Fraction, Fraction]:
    """The pure-strategy bounds of the state's value, in exact fractions.

    ``lower`` is the fixed point of ``p = max_k min_k' q(k, k')`` (A commits to a pure hold
    value first), ``upper`` that of ``p = min_k' max_k q(k, k')`` (B commits first, as in
    SVIMA), on :func:`exact_stage_game`. The equilibrium value lies between them, and the
    stage game has a pure saddle point at its fixed point exactly when ``lower == upper``:
    the state needs mixing exactly when ``lower < upper``.

    Parameters
    ----------
    values : array_like
        ``p[i, j]`` for every state (floats or fractions); ``values[i, j]`` is where the
        Newton steps start.
    i, j : int
        The state.
    tie : Fraction
        A's reward when both reach the goal in the same turn.

    Returns
    -------
    (Fraction, Fraction)
        ``(lower, upper)``.

    >>> from dicelab import pig
    >>> eq = pig.solve_equilibrium(goal=6)
    >>> lower, upper = exact_pure_bounds(eq.values, 0, 0)
    >>> lower == upper == Fraction(1, 2)
    True
    """
    return pure_bounds(*_exact_state(values, i, j, tie, BOUNDS_STEPS))
