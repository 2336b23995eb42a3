"""Fixed policies in the race to a target: the turn played for points against the optimal one.

A pair of fixed policies (thresholds, and the optimal policy's exceptions) is evaluated level by
level in decreasing ``i + j``, as :func:`~dicelab.wimpout.solve_race` solves the race: with
``W_A(i, j)`` the win chance of A to move and ``W_B`` B's, a turn of A ends in ``1 - W_B(j, i)`` (a
Wimpout), ``1 - W_B(j, q)`` (banking to ``q``, a higher level) or the Last Licks value, with A's
choices fixed. So A's turn is worth ``a_1 + b_1 (1 - W_B(j, i))``, a line in what a Wimpout
leaves A (``b_1``: the chance that the turn ends with nothing), and B's at ``(j, i)`` is
``a_2 + b_2 (1 - W_A(i, j))``: each level's two equations are linear, and solved as such
(``method="linear"``, one pass over the turn per player and pair), where the straightforward
method iterates them until a sweep changes them by less than ``tol`` (``method="iterate"``).
"""

from __future__ import annotations

import dataclasses
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np

from dicelab.core.checks import check_choice, check_cost, check_float, check_int
from dicelab.core.sample import Sample
from dicelab.core.spec import validated
from dicelab.wimpout import _common, _kernels
from dicelab.wimpout._common import RULES
from dicelab.wimpout._race_tables import MINIMUM, TARGET, cost, for_points_table, policy, tables
from dicelab.wimpout.race import RaceSolution
from dicelab.wimpout.records import Choice, Rules

__all__ = [
    "for_points_thresholds",
    "RaceMatch",
    "evaluate_race",
    "ForPointsLoss",
    "for_points_loss",
    "simulate_race",
]


@validated(target=TARGET, minimum=MINIMUM, rules=RULES)
def for_points_thresholds(target: int = 500, *, minimum: int = 35, rules: Rules = Rules()) -> np.ndarray:
    """The thresholds of the turn played for points (:func:`solve_turn`) at every score pair.

    The same whatever the scores, but at score 0 those of ``solve_turn(minimum=minimum)``
    (banking below the minimum would bank nothing). Shaped as :attr:`RaceSolution.thresholds`.

    >>> T = for_points_thresholds(50)
    >>> T.shape, int(T[1, 0, 0]), int(T[0, 0, 0])
    ((10, 10, 8), 25, 35)
    """
    return for_points_table(target, minimum, rules)


@dataclass(frozen=True, eq=False)
class RaceMatch:
    """Two fixed policies against each other: ``first`` (A) moves first.

    ``WA[i // 5, j // 5]``: A's win chance when A is to move with ``i`` against B's ``j``;
    ``WB`` the same for B; ``first_wins = WA[0, 0]``; ``iterations``: the most sweeps of a level
    (1 where each level's equations are solved as linear ones, ``method="linear"``); ``change``:
    the last sweep's largest change (0 for ``"linear"``).
    """

    WA: np.ndarray
    WB: np.ndarray
    iterations: int
    change: float

    @property
    def first_wins(self) -> float:
        return float(self.WA[0, 0])


def evaluate_race(
    solution: RaceSolution,
    first="for points",
    second="optimal",
    *,
    tol: float = 1e-12,
    method: str = "linear",
) -> RaceMatch:
    """Two fixed threshold policies against each other, level by level as in :func:`solve_race`.

    Parameters
    ----------
    solution : RaceSolution
        Gives the target, the rules, the horizon and the ``"optimal"`` thresholds.
    first, second : ``"optimal"``, ``"for points"`` or an array of thresholds
        The policies of the first player to move and of the other (thresholds in points, shaped
        as ``solution.thresholds``).
    tol : float
        With ``method="iterate"``, a level's iteration stops when a sweep changes its values by
        less than ``tol``.
    method : ``"linear"`` or ``"iterate"``
        Solve each level's two equations, linear with the policies fixed (see the module
        docstring), or iterate them as :func:`solve_race` does: the same values to about ``tol``.

    Returns
    -------
    RaceMatch

    Examples
    --------
    >>> from dicelab.wimpout import solve_race
    >>> sol = solve_race(50)
    >>> match = evaluate_race(sol, "optimal", "optimal")
    >>> abs(match.first_wins - sol.value) < 1e-12
    True
    >>> abs(evaluate_race(sol, method="iterate").first_wins - evaluate_race(sol).first_wins) < 1e-12
    True
    """
    if not isinstance(solution, RaceSolution):
        raise ValueError(f"solution must be a RaceSolution from solve_race, got {solution!r}"[:200])
    (TA, XA, PA), (TB, XB, PB) = policy("first", first, solution), policy("second", second, solution)
    tol = check_float("tol", tol, 0, 1, open_low=True)
    method = check_choice("method", method, ("linear", "iterate"))
    return _evaluate(solution, TA, XA, PA, TB, XB, PB, tol, method)


def _evaluate(solution, TA, XA, PA, TB, XB, PB, tol, method="linear") -> RaceMatch:
    """The match of two policies in units (see :func:`_policy`); one policy is solved once for both."""
    same = TA is TB or (np.array_equal(TA, TB) and np.array_equal(XA, XB) and np.array_equal(PA, PB))
    g, NH = solution.target // 5, solution.horizon // 5
    top = int(max(TA.max(), TB.max()))
    # the linear solve evaluates each turn once (two coefficients): about a fifth of a levels solve
    rows = cost("solution", g, g, max(NH, top), 0.2 if method == "linear" else 1)
    tb = tables(solution.rules, solution.minimum // 5, NH, False)
    S, nf = tb["S"], tb["nf"]
    V, D = _kernels.scratch(rows, S, S - nf)
    WA = np.full((g, g), 0.5)
    WB = WA if same else np.full((g, g), 0.5)
    m = solution.minimum // 5
    if method == "linear":
        tabs = (tb["tab"], tb["LT2"], tb["MT2"])
        _kernels.solve_pair(g, m, WA, WB, TA, TB, XA, PA, XB, PB, *tabs, V, np.zeros_like(V), D, same)
        return RaceMatch(WA, WA.copy() if same else WB, 1, 0.0)
    _, iterations, change = _kernels.evaluate_pair(
        g,
        m,
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
    """The win chance given up by playing each turn for points (:func:`solve_turn`).

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
    # The two matches are independent: solved side by side (the kernels release the GIL), each
    # level's equations solved as linear ones (evaluate_race's method="linear").
    fp, opt = policy("first", "for points", solution), policy("second", "optimal", solution)
    with ThreadPoolExecutor(max_workers=2) as pool:
        mixed = pool.submit(_evaluate, solution, *fp, *opt, 1e-12)
        alike = pool.submit(_evaluate, solution, *fp, *fp, 1e-12)
        mixed, alike = mixed.result(), alike.result()
    return ForPointsLoss(solution.value, mixed.first_wins, float(mixed.WB[0, 0]), alike.first_wins)


# --------------------------------------------------------------------------- games played with dice


def _roll_step(white: int, black: bool, flash, roll: tuple, rules: Rules):
    """One roll of a turn scored by the rules engine: ``(kind, white, black, flash, points)``.

    Written out from the rules, not read from the outcome tables; the roll is scored as
    :func:`~dicelab.wimpout.score` scores it, without its checks (the dice made the roll) and
    remembered (``_common.scored``). ``kind`` is ``"repeat"`` (the Flash face again: the same
    dice, no points), ``"win"``, ``"lose"``, ``"wimpout"``, ``"forced"`` (roll the returned dice:
    a Flash to clear, or all five after every die scored) or ``"choice"`` (bank, or roll the
    dice that did not score).
    """
    if flash is not None and flash in roll:
        return "repeat", white, black, flash, 0
    if flash is not None and flash == rules.sun_value:  # the wild sun must not repeat the Flash
        rules = dataclasses.replace(rules, sun_value=15 - flash)
    sc = _common.scored(roll, black, rules)
    if sc.outcome != "points":
        return sc.outcome, 0, False, None, 0
    left_white = sum(1 for k in range(white) if not sc.scoring[k])
    left_black = black and not sc.scoring[-1]
    if left_white == 0 and not left_black:
        return "forced", rules.white_dice, True, sc.flash, sc.points
    return ("forced" if sc.flash is not None else "choice"), left_white, left_black, sc.flash, sc.points


def _play_turn(rng, rules: Rules, banks):
    """A turn with random dice: ``(ending, points)``; ``banks(choice, points)`` decides at a choice."""
    white, black, flash, points = rules.white_dice, True, None, 0
    while True:
        roll = _common.roll_dice(rng, white, black)
        kind, white2, black2, flash2, gained = _roll_step(white, black, flash, roll, rules)
        if kind in ("win", "lose", "wimpout"):
            return kind, 0
        white, black, flash, points = white2, black2, flash2, points + gained
        if kind == "choice" and banks(Choice(white, black), points):
            return "bank", points


def simulate_race(solution: RaceSolution, n: int, *, seed: int, first="optimal", second="optimal") -> Sample:
    """Play ``n`` whole games with random dice, each roll scored by the rules engine (not the tables).

    The players follow ``first`` and ``second`` (as in :func:`evaluate_race`); the Last Licks
    turn rolls until it can bank the lead plus 5. About 0.2 ms a game to 50 points.

    Parameters
    ----------
    solution : RaceSolution
        The race: target, rules and the ``"optimal"`` policy.
    n : int
        How many games (at least 2).
    seed : int
        Seed of the random generator (a non-negative integer).
    first, second : ``"optimal"``, ``"for points"`` or an array of thresholds
        The policies of the first mover and of the other.

    Returns
    -------
    Sample
        Per game, ``"won"``: 1 if the first mover won, else 0.

    Examples
    --------
    >>> from dicelab.wimpout import solve_race
    >>> played = simulate_race(solve_race(20), 200, seed=1)
    >>> 0 < played.mean("won") < 1
    True
    """
    if not isinstance(solution, RaceSolution):
        raise ValueError(f"solution must be a RaceSolution from solve_race, got {solution!r}"[:200])
    n, seed = check_int("n", n, 2), check_int("seed", seed, 0)
    policies = [policy("first", first, solution), policy("second", second, solution)]
    check_cost("n", n, steps=5e4 * n * (2 + solution.target / 10), what="games played in Python")
    G, m5, rules = solution.target // 5, solution.minimum // 5, solution.rules
    index = {c: k for k, c in enumerate(solution.choices)}
    rng = np.random.default_rng(seed)

    def banks(player, i, j):
        T, X, P = policies[player]
        extra = {(int(c), int(r)) for c, r in X[P[i * G + j] : P[i * G + j + 1]]}
        return lambda c, p: p // 5 >= T[i, j, index[c]] or (index[c], p // 5) in extra

    won = np.zeros(n, dtype=np.int64)
    for game in range(n):
        score5, mover = [0, 0], 0
        while True:
            i, j = score5[mover], score5[1 - mover]
            kind, points = _play_turn(rng, rules, banks(mover, i, j))
            if kind in ("win", "lose"):
                winner = mover if kind == "win" else 1 - mover
                break
            if kind == "bank" and (i > 0 or points // 5 >= m5):
                score5[mover] += points // 5
            if score5[mover] >= G:  # Last Licks: the other needs the lead plus 5
                need = score5[mover] - j + 1
                need = max(need, m5) if j == 0 else need
                kind, points = _play_turn(rng, rules, lambda c, p, need=need: p // 5 >= need)
                winner = 1 - mover if kind in ("win", "bank") else mover
                break
            mover = 1 - mover
        won[game] = winner == 0
    return Sample(n=n, seed=seed, columns={"won": won})
