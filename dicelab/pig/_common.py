"""The internals the pig modules share: one turn's exact distributions, the argument checks and the
fixed-point convention of every solver, mixed strategies, and the exact stage game.

Nothing here is for a user (the public calls are in :mod:`dicelab.pig`); every name is used by
more than one module of the package, and each module imports it from here:

* the turn: :func:`hold` (``X_k`` in exact fractions, remembered), :func:`numerators` (the
  paper's recursion over a common denominator), :func:`hold_table` (all of them as floats,
  cached) and its cost :func:`table_cost`; a die has ``sides`` faces, the face 1 ends the turn;
* the arguments every solver shares, declared once (:mod:`dicelab.core.spec`): :data:`GOAL_ARG`,
  :data:`OPTIONAL_GOAL_ARG`, :data:`TIE_ARG`, :data:`SIDES_ARG`, :data:`TOL_ARG`,
  :data:`BUDGET_ARG`; and the checks that need more than one argument or the body's work:
  :func:`check_size` (a solve's memory and time against the budget), :func:`check_goal`,
  :func:`check_tol`, :func:`check_budget`, :func:`check_tie`;
* the fixed-point convention: a loop stops when its residual (the largest change of the last
  step) is below ``tol`` and raises :class:`~dicelab.pig.NotConverged` if ``max_iter`` steps do
  not get there. Python loops use :func:`iterate`; numba kernels return ``(iterations,
  residual)`` of their worst state and the wrapper calls :func:`check_converged` once;
* mixed strategies ``[i, j, k-1]``: :func:`check_strategy`, :func:`sparse` and their memory
  :data:`STRATEGIES_BYTES`;
* the stage game of a state in exact fractions (:func:`exact_stage`) and its pure-strategy
  bounds (:func:`pure_bounds`), which decide whether a state needs mixing, and how a stage
  game's double oracle fails (:func:`solve_failure`).
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable
from fractions import Fraction
from functools import cache

import numpy as np

from dicelab.core.checks import check_array, check_cost, check_float, check_int
from dicelab.core.spec import Check, Int, Real
from dicelab.pig import _kernels
from dicelab.pig.solution import NotConverged

SIDES = 6
"""The paper's die: six faces, the face 1 ends the turn."""

# --------------------------------------------------------------------------- the turn


def check_goal(goal) -> int:
    """``goal >= 1`` as an int, or a ValueError naming it."""
    return check_int("goal", goal, 1)


HOLDS: dict[int, list[tuple[tuple[int, Fraction], ...]]] = {}
"""``HOLDS[sides]``: ``X_1, X_2, ...`` as computed so far (kept up to ``k = KEEP``)."""

KEEP = 1000


def next_hold(k: int, prev: dict[int, int], sides: int = SIDES) -> dict[int, int]:
    """Numerators of ``X_k`` over ``sides^k`` from those of ``X_{k-1}`` over ``sides^(k-1)``: the
    paper's recursion.

    ``X_k`` agrees with ``X_{k-1}`` unless ``X_{k-1} = k - 1``, when one more roll gives ``0`` or
    ``k+1 .. k+sides-1`` with probability ``1/sides`` each. Over the common denominator no
    fraction needs reducing: each step is a few additions of integers of about ``k log2(sides)`` bits.
    """
    base = prev.get(k - 1, 0)  # P(X_{k-1} = k-1): the player must roll again
    dist = {0: sides * prev[0] + base}
    dist[k] = sides * prev.get(k, 0)
    for x in range(k + 1, k + sides - 1):
        dist[x] = sides * prev.get(x, 0) + base
    dist[k + sides - 1] = base  # the corrected last case: (1/sides) P_{X_{k-1}}(k-1)
    return dist


def numerators(last: int, sides: int = SIDES):
    """``(k, {x: n})`` for ``k = 1..last`` with ``P(X_k = x) = n / sides^k``, iteratively (no depth limit)."""
    dist = {0: 1, 1: 0} | {x: 1 for x in range(2, sides + 1)}
    for k in range(1, last + 1):
        if k > 1:
            dist = next_hold(k, dist, sides)
        yield k, dist


def _fractions(k: int, dist: dict[int, int], sides: int) -> tuple[tuple[int, Fraction], ...]:
    return tuple(sorted((x, Fraction(n, sides**k)) for x, n in dist.items()))


def hold(k: int, sides: int = SIDES) -> tuple[tuple[int, Fraction], ...]:
    """``X_k`` as sorted (value, probability) pairs: ``0`` and ``k .. k+sides-1``."""
    held = HOLDS.setdefault(sides, [])
    if k <= len(held):
        return held[k - 1]
    for j, dist in numerators(k, sides):
        if j > len(held) and j <= KEEP:
            held.append(_fractions(j, dist, sides))
    return held[k - 1] if k <= KEEP else _fractions(k, dist, sides)


@cache
def hold_table(goal: int, sides: int = SIDES) -> np.ndarray:
    """``T[k, x] = P(X_k = x)`` for ``k = 1..goal`` (row 0 unused), shape ``(goal + 1, goal + sides)``.

    Cached and shared: callers never write to it (the public :func:`dicelab.pig.hold_table` copies).
    """
    table = np.zeros((goal + 1, goal + sides))
    for k, dist in numerators(goal, sides):
        d = sides**k
        for x, n in dist.items():
            table[k, x] = n / d  # int / int rounds correctly: float(Fraction(n, d))
    return table


def table_cost(goal: int, sides: int = SIDES) -> tuple[float, float]:
    """``(bytes, steps)`` of :func:`hold_table` ``(goal)``: the float table, and ``sides + 1`` exact
    divisions a row of integers of up to ``2.6 goal`` bits (timed for six sides: 0.009 s at goal
    1,000, 0.43 s at 4,000, 1.4 s at 8,000, about ``0.05 goal^2.45`` steps; more sides, more
    outcomes and longer integers)."""
    scale = (sides + 1) / 7 * max(1.0, np.log2(sides) / np.log2(6))
    return 8.0 * (goal + 1) * (goal + sides), 0.05 * float(goal) ** 2.45 * scale


# --------------------------------------------------------------------------- the checks


def check_tol(tol, name: str = "tol") -> float:
    """``tol`` as a float in (0, 1e-3), or a ValueError naming it."""
    if isinstance(tol, bool) or not isinstance(tol, numbers.Real) or not 0 < tol < 1e-3:
        raise ValueError(f"{name} must be a number in (0, 1e-3), got {tol!r}")
    return float(tol)


def check_budget(max_iter, name: str = "max_iter") -> int:
    """``max_iter >= 1`` as an int, at most ``2^63 - 1`` (the kernels count in int64; no loop gets there)."""
    return min(check_int(name, max_iter, 1), 2**63 - 1)


def check_tie(tie) -> float:
    """``tie`` (A's reward when both players reach the goal together) as a float in [0, 1]."""
    return check_float("tie", tie, 0, 1)


GOAL_ARG = Int(1)
"""``goal``: the target score, ``>= 1`` (its cost is checked by the solver, with the other arguments)."""

OPTIONAL_GOAL_ARG = Int(1, optional=True)
"""``goal`` of a solver that takes policies: ``None`` reads it from the policies."""

TIE_ARG = Real(0, 1)
"""``tie``: A's reward when both players reach the goal in the same turn, in [0, 1]."""

SIDES_ARG = Int(2, 100)
"""``sides``: the faces of the die; the face 1 ends the turn, the faces ``2..sides`` add."""

TOL_ARG = Check(
    lambda name, value: check_tol(value, name),
    bad=(0, -1e-9, 0.01, math.nan, math.inf, -math.inf, "0.5", None, True, [0.5]),
)
"""``tol``: the residual a fixed point must get below, in (0, 1e-3)."""

BUDGET_ARG = Check(
    lambda name, value: check_budget(value, name), bad=(0, -1, 2.0, "3", True, None, math.nan, [1])
)
"""``max_iter``: the iterations allowed, ``>= 1``."""


def check_size(
    name: str, value, goal: int, *, memory: float = 0.0, steps: float = 0.0, what: str, sides: int = SIDES
) -> None:
    """Refuse a solve on ``goal`` beyond the budget (:func:`dicelab.core.checks.check_cost`).

    ``memory`` and ``steps`` are the solver's own; every solver also builds the hold table
    (:func:`table_cost`) and the padded values, ``(2 goal + sides)^2`` floats. A step is one pass
    of a kernel's innermost loop over hold values or turn totals (a few multiply-adds), timed at
    about ``10^8`` a second.
    """
    table_memory, table_steps = table_cost(goal, sides)
    memory += table_memory + 8.0 * (2 * goal + sides) ** 2
    check_cost(name, value, memory=memory, steps=steps + table_steps, what=what)


# --------------------------------------------------------------------------- fixed points


def check_converged(what: str, iterations: int, residual: float, tol: float, max_iter: int) -> int:
    """``iterations`` if ``residual < tol``, else raise :class:`~dicelab.pig.NotConverged`."""
    if not residual < tol:
        raise NotConverged(what, float(residual), tol, max_iter)
    return int(iterations)


def iterate(step: Callable[[], float], *, tol: float, max_iter: int, what: str) -> tuple[int, float]:
    """Call ``step()`` (one update, returning its residual) until the residual is below ``tol``.

    Returns ``(iterations, residual)``; raises :class:`~dicelab.pig.NotConverged` after ``max_iter`` steps.
    """
    residual = float("inf")
    for iterations in range(1, max_iter + 1):
        residual = step()
        if residual < tol:
            return iterations, residual
    raise NotConverged(what, float(residual), tol, max_iter)


# --------------------------------------------------------------------------- mixed strategies


STRATEGIES_BYTES = 48.0
"""Bytes per ``goal^3`` of the equilibrium and SVIMA: both players' strategies (``16 goal^3``),
and the mixed strategies sorted for the exploitability (at most ``32 goal^3``)."""


def check_strategy(name, strategy, goal=None) -> np.ndarray:
    """``strategy[i, j, k-1]`` as a ``(goal, goal, goal)`` float array of probabilities in [0, 1]
    that sum to 1 in every state (the goal its own side unless given), or a ValueError naming it."""
    s = check_array(name, strategy, ndim=3)
    goal = s.shape[0] if goal is None else goal
    if s.shape != (goal, goal, goal):
        raise ValueError(f"{name} must have shape (goal, goal, goal) = {(goal,) * 3}, got {s.shape}")
    if s.min() < 0 or s.max() > 1 + 1e-9 or not np.allclose(s.sum(axis=2), 1, rtol=0, atol=1e-9):
        raise ValueError(f"{name} must hold probabilities in [0, 1] that sum to 1 in every state")
    return s


def sparse(strategy) -> tuple[np.ndarray, np.ndarray]:
    """Mixed strategies ``strategy[i, j, k-1]`` as ``(ks, ws)``: hold values and weights, support first."""
    S = max(1, int((strategy > 0).sum(axis=2).max()))
    order = np.argsort(-strategy, axis=2, kind="stable")[:, :, :S]
    ws = np.take_along_axis(strategy, order, axis=2)
    return np.where(ws > 0, order + 1, 1), np.ascontiguousarray(ws)


# --------------------------------------------------------------------------- the stage game


def solve_failure(status, where, excess, tol, max_iter) -> Exception:
    """The error of a stage game's double oracle (:func:`dicelab.pig._stage.solve_stage`'s ``status``)."""
    if status == 3:
        return NotConverged(f"the stage-game double oracle at {where}", excess, tol, max_iter)
    what = "no square kernel solves" if status == 1 else f"rounding beyond tol={tol:g} in"
    return RuntimeError(f"{what} the stage game at {where} (best reply gains {excess:.3g})")


goal_reward = _kernels.goal_reward.py_func
""":func:`dicelab.pig._kernels.goal_reward` in whatever arithmetic its arguments are (fractions)."""

self_loop = _kernels.self_loop_value.py_func
""":func:`dicelab.pig._kernels.self_loop_value` in whatever arithmetic its arguments are (fractions)."""

STAGE_STEPS = 15_000.0
"""Steps per entry of :func:`exact_stage`: about 13 ``Fraction`` operations (11,000 to 14,000
steps, measured at goals 50 to 200)."""

BOUNDS_STEPS = 17_000.0
"""Steps per entry of :func:`pure_bounds`: the stage game and a few exact Newton steps
(measured: 16,800 at state (0, 0) of goal 200; 13,000 on average over the states that
:func:`dicelab.pig.solve_equilibrium` decides exactly at goals 250 and 300)."""


def exact_stage(values, i: int, j: int, tie: Fraction) -> tuple[np.ndarray, np.ndarray]:
    """The stage game ``(A, C)`` at ``(i, j)`` in exact fractions, on checked arguments
    (``values`` an object array; :func:`dicelab.pig.reference.exact_stage_game` checks them)."""
    goal = values.shape[0]
    dist = {k: [(x, p) for x, p in hold(k) if p] for k in range(1, goal + 1)}
    na, nb = goal - i, goal - j

    @cache
    def value(a, b):
        if a >= goal or b >= goal:
            return goal_reward(Fraction(1), a >= goal, b >= goal, tie)
        return Fraction(0) if (a, b) == (i, j) else Fraction(values[a, b])  # the self-loop is in C

    H = [
        [sum(p * value(i + x, j + b) for b, p in dist[kb]) for kb in range(1, nb + 1)] for x in range(na + 6)
    ]
    A = np.empty((na, nb), dtype=object)
    C = np.empty((na, nb), dtype=object)
    for k in range(1, na + 1):
        for kb in range(1, nb + 1):
            A[k - 1, kb - 1] = sum(p * H[x][kb - 1] for x, p in dist[k])
            C[k - 1, kb - 1] = dist[k][0][1] * dist[kb][0][1]  # P(X_k = 0) P(X_k' = 0)
    return A, C


def pure_fixed_point(A, C, p: Fraction, leader: str) -> Fraction:
    """The fixed point of ``p -> max_r min_c (A + C p)`` (``leader="B"``: ``min_c max_r``), exactly.

    Newton steps: the step is the own fixed point ``A / (1 - C)`` of the cell that attains the
    pure value at ``p``; it stops when that value is ``p`` itself.
    """
    na, nb = A.shape
    for _ in range(100):
        M = [[A[r, c] + C[r, c] * p for c in range(nb)] for r in range(na)]
        if leader == "A":
            mins = [min(row) for row in M]
            r = max(range(na), key=mins.__getitem__)
            c = min(range(nb), key=M[r].__getitem__)
        else:
            maxs = [max(M[r][c] for r in range(na)) for c in range(nb)]
            c = min(range(nb), key=maxs.__getitem__)
            r = max(range(na), key=lambda r: M[r][c])
        if M[r][c] == p:
            return p
        p = self_loop(A[r, c], C[r, c])
    raise RuntimeError("the exact pure fixed point did not settle in 100 Newton steps")  # pragma: no cover


def pure_bounds(values, i: int, j: int, tie: Fraction) -> tuple[Fraction, Fraction]:
    """``(lower, upper)``: the pure maximin and minimax fixed points of the exact stage game at
    ``(i, j)``, on checked arguments (:func:`dicelab.pig.reference.exact_pure_bounds` checks them)."""
    A, C = exact_stage(values, i, j, tie)
    start = Fraction(values[i, j])
    return pure_fixed_point(A, C, start, "A"), pure_fixed_point(A, C, start, "B")
