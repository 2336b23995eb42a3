"""Cross-checks of :mod:`dicelab.wimpout.race`: the race solved exactly, and games played with dice.

* :func:`exact_race` runs the race's kernels in ``Fraction`` (their ``py_func``) and solves each
  level's two equations exactly: the floats of :func:`~dicelab.wimpout.solve_race` are tested
  against it on small targets;
* :func:`simulate_race` plays whole games with random dice, every roll scored by
  :func:`~dicelab.wimpout.score` and the turn's flow written out from the rules (not read from
  the outcome tables), under the solved policies.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from dicelab.core.checks import check_cost, check_int
from dicelab.wimpout import _kernels
from dicelab.wimpout.dice import BLACK_FACES, WHITE_FACES, Rules, score
from dicelab.wimpout.play import Choice
from dicelab.wimpout.race import _STEPS_PER_LEVEL, RaceSolution, _setup, _tables, solve_race
from dicelab.wimpout.race_match import _policy

__all__ = ["simulate_race", "ExactRace", "exact_race"]


def _roll_step(white: int, black: bool, flash, roll: tuple, rules: Rules):
    """One roll of a turn scored by :func:`score`: ``(kind, white, black, flash, points)``.

    ``kind``: ``"repeat"`` (the Flash face again: the same dice, no points), ``"win"``,
    ``"lose"``, ``"wimpout"``, ``"forced"`` (roll the returned dice: a Flash to clear, or all
    five after every die scored) or ``"choice"`` (bank, or roll the dice that did not score).
    """
    if flash is not None and flash in roll:
        return "repeat", white, black, flash, 0
    if flash is not None and flash == rules.sun_value:  # the wild sun must not repeat the Flash
        rules = Rules(15 - flash, rules.fourth_scores, rules.two_pairs)
    sc = score(roll, has_black=black, rules=rules)
    if sc.outcome != "points":
        return sc.outcome, 0, False, None, 0
    left_white = sum(1 for k in range(white) if not sc.scoring[k])
    left_black = black and not sc.scoring[-1]
    if left_white == 0 and not left_black:
        return "forced", 4, True, sc.flash, sc.points
    return ("forced" if sc.flash is not None else "choice"), left_white, left_black, sc.flash, sc.points


def _play_turn(rng, rules: Rules, banks):
    """A turn with random dice: ``(ending, points)``; ``banks(choice, points)`` decides at a choice."""
    white, black, flash, points = 4, True, None, 0
    while True:
        roll = tuple(WHITE_FACES[k] for k in rng.integers(6, size=white))
        roll += (BLACK_FACES[rng.integers(6)],) if black else ()
        kind, white2, black2, flash2, gained = _roll_step(white, black, flash, roll, rules)
        if kind in ("win", "lose", "wimpout"):
            return kind, 0
        white, black, flash, points = white2, black2, flash2, points + gained
        if kind == "choice" and banks(Choice(white, black), points):
            return "bank", points


def simulate_race(
    solution: RaceSolution, n_games: int, seed: int, *, first="optimal", second="optimal"
) -> dict:
    """Play whole games with random dice, each roll scored by :func:`score` (not the tables).

    The players follow ``first`` and ``second`` (as in :func:`evaluate_race`); the Last Licks
    turn rolls until it can bank the lead plus 5. About 0.5 ms a game to 50 points.

    Parameters
    ----------
    solution : RaceSolution
        The race: target, rules and the ``"optimal"`` policy.
    n_games : int
        How many games (at least 2).
    seed : int
        Seed of the random generator (a non-negative integer).
    first, second : ``"optimal"``, ``"for points"`` or an array of thresholds
        The policies of the first mover and of the other.

    Returns
    -------
    dict
        ``first_wins``: the first mover's share of wins, and its ``stderr``.

    Examples
    --------
    >>> out = simulate_race(solve_race(20), 200, seed=1)
    >>> 0 < out["first_wins"] < 1
    True
    """
    if not isinstance(solution, RaceSolution):
        raise ValueError(f"solution must be a RaceSolution from solve_race, got {solution!r}"[:200])
    n_games, seed = check_int("n_games", n_games, 2), check_int("seed", seed, 0)
    policies = [_policy("first", first, solution), _policy("second", second, solution)]
    check_cost(
        "n_games", n_games, steps=5e4 * n_games * (2 + solution.target / 10), what="games played in Python"
    )
    G, m5, rules = solution.target // 5, solution.minimum // 5, solution.rules
    index = {c: k for k, c in enumerate(solution.choices)}
    rng = np.random.default_rng(seed)

    def banks(player, i, j):
        T, X, P = policies[player]
        extra = {(int(c), int(r)) for c, r in X[P[i * G + j] : P[i * G + j + 1]]}
        return lambda c, p: p // 5 >= T[i, j, index[c]] or (index[c], p // 5) in extra

    wins = np.zeros(n_games)
    for game in range(n_games):
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
        wins[game] = winner == 0
    return {"first_wins": float(wins.mean()), "stderr": float(wins.std(ddof=1) / np.sqrt(n_games))}


@dataclass(frozen=True, eq=False)
class ExactRace:
    """The optimal race solved exactly: ``W[i // 5, j // 5]`` as fractions (an object array).

    ``newton_steps``: the most exact solves one level needed; ``first_player = W[0, 0]``.
    """

    target: int
    minimum: int
    horizon: int
    W: np.ndarray
    newton_steps: int

    @property
    def first_player(self) -> Fraction:
        return self.W[0, 0]


def exact_race(
    target: int = 20, *, minimum: int = 35, horizon: int = 200, rules: Rules = Rules()
) -> ExactRace:
    """The optimal race to a small target solved exactly, in fractions.

    Runs the kernels of :func:`solve_race` in ``Fraction``. A level's two values are a fixed
    point of piecewise-linear maps: starting from the float solution, each step fixes the
    choices that are best at the current values, solves the two linear equations exactly, and
    stops when the choices best at the solution give back the solution (the Bellman equation
    holds exactly). The horizon is part of the model (see the module docstring).

    Parameters
    ----------
    target : int
        The target score (a multiple of 5).
    minimum : int
        The opening rule's minimum (0: none).
    horizon : int
        Last Licks needs are tabulated up to this many points.
    rules : Rules
        The readings of the rules.

    Returns
    -------
    ExactRace

    Examples
    --------
    >>> ex = exact_race(5, minimum=0, horizon=150)
    >>> abs(float(ex.first_player) - solve_race(5, minimum=0, horizon=150).first_player) < 1e-12
    True
    """
    if horizon is None:
        raise ValueError("horizon must be given in points (exact tables grow with it), such as 200")
    target, minimum, rules, NH = _setup(target, minimum, horizon, rules)
    g, m = target // 5, minimum // 5
    check_cost(
        "target",
        target,
        memory=1e4 * (g + NH) * 42,
        steps=2e3 * _STEPS_PER_LEVEL * g * g * (g + NH),
        what="an exact solution in fractions",
    )
    check_cost("horizon", horizon, steps=2e3 * _STEPS_PER_LEVEL * NH * NH, what="exact Last Licks tables")
    guess = solve_race(target, minimum=minimum, horizon=5 * NH, rules=rules)
    tb = _tables(rules, m, NH, True)
    S, nf = tb["S"], tb["nf"]
    V, D = _kernels.scratch(g + NH + 102, S, S - nf, exact=True)
    D2 = D.copy()  # the choices of the other player of the level
    W = np.full((g, g), Fraction(1, 2), dtype=object)
    turn, top = _kernels.turn_value.py_func, _kernels.top_level.py_func

    def value(a, o, x, D):
        """The mover's exact win chance at ``(a, o)`` when a Wimpout is worth ``x`` to them, and
        ``F(0)`` with the choices best at ``x`` (the turn is linear in ``x`` with them fixed)."""
        oz = int(o > 0)
        Q = top(a, o, 1 - x, g, m, tb["WSTAR2"][oz])
        if Q < 0:
            raise ValueError(f"horizon={5 * NH} is too short: past it no total is safe to bank; raise it")
        kit = (g, m, W, tb["tab"], tb["LT2"][oz], tb["MT2"][oz], Q, D)
        fx = turn(a, o, x, *kit, True, V)
        return fx, (lambda: turn(a, o, Fraction(0), *kit, False, V))

    most = 0
    for level in range(2 * g - 2, -1, -1):
        for i in range(max(0, level - g + 1), level // 2 + 1):
            j = level - i
            u, v = Fraction(guess.W[i, j]), Fraction(guess.W[j, i])
            for steps in range(1, 51):  # noqa: B007 (the count is kept below)
                fu, f0u = value(i, j, 1 - v, D)
                fv, f0v = value(j, i, 1 - u, D2) if i != j else (fu, f0u)
                if (fu, fv) == (u, v):  # the Bellman equations hold exactly
                    break
                a1 = f0u()  # F(x) = a + b x with the choices best at x
                b1 = (fu - a1) / (1 - v)
                if i == j:
                    u = v = (a1 + b1) / (1 + b1)
                    continue
                a2 = f0v()
                b2 = (fv - a2) / (1 - u)
                u = (a1 + b1 - b1 * (a2 + b2)) / (1 - b1 * b2)
                v = a2 + b2 * (1 - u)
            else:
                raise ArithmeticError(f"the exact solve of level {level} did not settle in 50 steps")
            W[i, j], W[j, i] = u, v
            most = max(most, steps)
    return ExactRace(target, minimum, 5 * NH, W, most)
