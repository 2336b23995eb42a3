"""Fixed policies in the race to a target: the turn played for points against the optimal one.

A pair of fixed policies (thresholds, and the optimal policy's exceptions) is evaluated by the
same level-by-level value iteration as :func:`~dicelab.wimpout.solve_race`: with ``W_A(i, j)``
the win chance of A to move and ``W_B`` B's, a turn of A ends in ``1 - W_B(j, i)`` (a Wimpout),
``1 - W_B(j, q)`` (banking to ``q``) or the Last Licks value, with A's choices fixed.
"""

from __future__ import annotations

import functools
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np

from dicelab.core.checks import check_cost, check_float
from dicelab.wimpout import _kernels
from dicelab.wimpout.dice import Rules, _check_rules
from dicelab.wimpout.play import play_for_points
from dicelab.wimpout.race import RaceSolution, _cost, _points, _tables, _turn

__all__ = ["for_points_thresholds", "RaceMatch", "evaluate_race", "ForPointsLoss", "for_points_loss"]


@functools.lru_cache(maxsize=8)
def _for_points(rules: Rules, minimum: int) -> dict:
    return dict(play_for_points(rules, minimum=minimum).thresholds)


def for_points_thresholds(target: int = 500, *, minimum: int = 35, rules: Rules = Rules()) -> np.ndarray:
    """The thresholds of the turn played for points (:func:`play_for_points`) at every score pair.

    The same whatever the scores, but at score 0 those of ``play_for_points(minimum=minimum)``
    (banking below the minimum would bank nothing). Shaped as :attr:`RaceSolution.thresholds`.

    >>> T = for_points_thresholds(50)
    >>> T.shape, int(T[1, 0, 0]), int(T[0, 0, 0])
    ((10, 10, 8), 25, 35)
    """
    target = _points("target", target, 5, 100_000)
    minimum = _points("minimum", minimum, 0, 5000)
    rules = _check_rules(rules)
    g = target // 5
    check_cost("target", target, memory=64 * g * g)
    choices = _turn(rules).choices
    T = np.zeros((g, g, len(choices)), dtype=np.int64)
    anywhere, from_zero = _for_points(rules, 0), _for_points(rules, minimum)
    T[:, :] = [anywhere[c] for c in choices]
    T[0, :] = [from_zero[c] for c in choices]
    return T


@dataclass(frozen=True, eq=False)
class RaceMatch:
    """Two fixed policies against each other: ``first`` (A) moves first.

    ``WA[i // 5, j // 5]``: A's win chance when A is to move with ``i`` against B's ``j``;
    ``WB`` the same for B; ``first_wins = WA[0, 0]``; ``iterations``: the most sweeps of a level;
    ``change``: the last sweep's largest change.
    """

    WA: np.ndarray
    WB: np.ndarray
    iterations: int
    change: float

    @property
    def first_wins(self) -> float:
        return float(self.WA[0, 0])


def _policy(name: str, value, sol: RaceSolution):
    """``(thresholds in units, exceptions (choice, turn units), their pointers by score pair)``."""
    g = sol.target // 5
    if isinstance(value, str) and value == "optimal":
        ex = sol.exceptions[np.lexsort((sol.exceptions[:, 1], sol.exceptions[:, 0]))]
        pairs = ex[:, 0] // 5 * g + ex[:, 1] // 5
        ptr = np.searchsorted(pairs, np.arange(g * g + 1))
        return sol.thresholds // 5, np.ascontiguousarray(ex[:, 2:] // [1, 5]), ptr
    T = None
    if isinstance(value, str) and value == "for points":
        T = for_points_thresholds(sol.target, minimum=sol.minimum, rules=sol.rules)
    elif isinstance(value, np.ndarray) and value.shape == sol.thresholds.shape and value.dtype.kind in "iu":
        if (value >= 5).all() and (value % 5 == 0).all() and (value <= sol.target + sol.horizon).all():
            T = value
    if T is None:
        raise ValueError(
            f"{name} must be 'optimal', 'for points' or an integer array of thresholds shaped "
            f"{(g, g, len(sol.choices))} (points: multiples of 5 from 5 to {sol.target + sol.horizon}), "
            f"got {value!r}"[:300]
        )
    return T.astype(np.int64) // 5, np.zeros((0, 2), dtype=np.int64), np.zeros(g * g + 1, dtype=np.int64)


def evaluate_race(
    solution: RaceSolution, first="for points", second="optimal", *, tol: float = 1e-12
) -> RaceMatch:
    """Two fixed threshold policies against each other, by the same level-by-level value iteration.

    Parameters
    ----------
    solution : RaceSolution
        Gives the target, the rules, the horizon and the ``"optimal"`` thresholds.
    first, second : ``"optimal"``, ``"for points"`` or an array of thresholds
        The policies of the first player to move and of the other (thresholds in points, shaped
        as ``solution.thresholds``).
    tol : float
        A level's iteration stops when a sweep changes its values by less than ``tol``.

    Returns
    -------
    RaceMatch

    Examples
    --------
    >>> from dicelab.wimpout import solve_race
    >>> sol = solve_race(50)
    >>> match = evaluate_race(sol, "optimal", "optimal")
    >>> abs(match.first_wins - sol.first_player) < 1e-12
    True
    """
    if not isinstance(solution, RaceSolution):
        raise ValueError(f"solution must be a RaceSolution from solve_race, got {solution!r}"[:200])
    (TA, XA, PA), (TB, XB, PB) = _policy("first", first, solution), _policy("second", second, solution)
    tol = check_float("tol", tol, 0, 1, open_low=True)
    return _evaluate(solution, TA, XA, PA, TB, XB, PB, tol)


def _evaluate(solution, TA, XA, PA, TB, XB, PB, tol) -> RaceMatch:
    """The match of two policies in units (see :func:`_policy`); one policy is solved once for both."""
    same = TA is TB or (
        np.array_equal(TA, TB) and np.array_equal(XA, XB) and np.array_equal(PA, PB)
    )
    g, NH = solution.target // 5, solution.horizon // 5
    top = int(max(TA.max(), TB.max()))
    rows = _cost("solution", g, g, max(NH, top), 1)
    tb = _tables(solution.rules, solution.minimum // 5, NH, False)
    S, nf = tb["S"], tb["nf"]
    V, D = _kernels.scratch(rows, S, S - nf)
    WA = np.full((g, g), 0.5)
    WB = WA if same else np.full((g, g), 0.5)
    _, iterations, change = _kernels.evaluate_pair(
        g,
        solution.minimum // 5,
        WA,
        WB,
        TA,
        TB,
        XA,
        PA,
        XB,
        PB,
        tb["tab"],
        tb["LT2"],
        tb["MT2"],
        tol,
        10_000,
        V,
        D,
        same,
    )
    if iterations == -2:
        raise ValueError("the fixed policies' value iteration did not converge in 10,000 sweeps of a level")
    return RaceMatch(WA, WA.copy() if same else WB, int(iterations), float(change))


@dataclass(frozen=True)
class ForPointsLoss:
    """The first mover's win chance in four matches, and what playing for points gives up.

    ``optimal``: both optimal (``W(0, 0)``); ``for_points_vs_optimal``: the first mover plays for
    points, the other optimally; ``optimal_vs_for_points`` and ``for_points_vs_for_points``
    likewise. ``against_optimal = optimal - for_points_vs_optimal``: given up by the first
    mover playing for points against an optimal player; ``against_for_points =
    optimal_vs_for_points - for_points_vs_for_points``: the same against a player for points.
    """

    optimal: float
    for_points_vs_optimal: float
    optimal_vs_for_points: float
    for_points_vs_for_points: float

    @property
    def against_optimal(self) -> float:
        return self.optimal - self.for_points_vs_optimal

    @property
    def against_for_points(self) -> float:
        return self.optimal_vs_for_points - self.for_points_vs_for_points


def for_points_loss(solution: RaceSolution) -> ForPointsLoss:
    """The win chance given up by playing each turn for points (:func:`play_for_points`).

    Two matches: the one of the player for points against the optimal one gives both orders of
    play (each player's win chance as the mover, at every score pair), and the player for points
    against itself is one policy, solved as such.

    >>> from dicelab.wimpout import solve_race
    >>> loss = for_points_loss(solve_race(100))
    >>> loss.against_optimal > 0 and loss.against_for_points > 0
    True
    """
    if not isinstance(solution, RaceSolution):
        raise ValueError(f"solution must be a RaceSolution from solve_race, got {solution!r}"[:200])
    # One match of the two policies gives both first movers: WA[0, 0] with the player for points
    # first, WB[0, 0] (the optimal player to move at 0 against 0) with the optimal player first.
    # The two matches are independent: solved side by side (the kernel releases the GIL).
    fp, opt = _policy("first", "for points", solution), _policy("second", "optimal", solution)
    with ThreadPoolExecutor(max_workers=2) as pool:
        mixed = pool.submit(_evaluate, solution, *fp, *opt, 1e-12)
        alike = pool.submit(_evaluate, solution, *fp, *fp, 1e-12)
        mixed, alike = mixed.result(), alike.result()
    return ForPointsLoss(solution.first_player, mixed.first_wins, float(mixed.WB[0, 0]), alike.first_wins)
