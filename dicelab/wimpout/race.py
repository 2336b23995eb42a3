"""Two players racing to a target: every turn played to win the game, not for points.

A turn is the decision process of :mod:`dicelab.wimpout.play` (forced states and
:class:`~dicelab.wimpout.Choice` states); here its rewards are the chances to win the game.

The game and the readings of its rules
--------------------------------------
Two players alternate turns from 0; ``i`` and ``j`` (multiples of 5, below the target ``G``)
are the scores of the player to move and of the other. Readings:

* banking ``p`` points adds ``p`` to the mover's score; a Wimpout adds nothing; five 6s
  (Auto Win) wins the game at once, five 10s (Supernova, Auto Lose) loses it at once;
* **the opening roll** (``minimum``, 35 by default, 0 for the game without it): a player with
  score 0 may bank only ``minimum`` turn points or more. As in :func:`solve_turn`, such a
  player may still stop below it, banking nothing (as a Wimpout would);
* **Last Licks**: when the mover banks and reaches ``G`` or more, the other player has one
  last turn and wins when they end it with a strictly higher score, i.e. with turn points
  above the lead (a tie goes to the first player). They play that turn to reach the lead
  plus 5 (banking as soon as they have it, under the opening rule if their score is 0), and
  its instant results count as in any turn. Otherwise the first player wins;
* the mover may keep rolling after reaching ``G``, to leave a larger lead.

The Last Licks turn
-------------------
A turn played to reach ``n`` points never banks before (banking less loses) and always banks
once there: its win chance ``L(n)`` depends only on the points still needed, one recursion over
the need (:func:`reach_probability`). ``L`` decreases to ``L(inf)``, the chance of five 6s in a
turn that never banks: the opponent keeps that chance whatever the lead.

The Bellman equation
--------------------
With ``W(i, j)`` the mover's win chance and ``V(s, q)`` the mover's win chance in turn state
``s`` with ``q = i +`` turn points (``x = 1 - W(j, i)``: what a Wimpout leaves the mover)::

    V(c, q) = max(bank(q), R(c, q))         for a choice c
    V(s, q) = R(s, q)                       for a forced state s
    R(s, q) = sum over outcomes  P(outcome) V(next, q + gain)   (x, 1, 0 at the endings)
    bank(q) = 1 - W(j, q) below G,   1 - L(q - j + 5) from G on,   W(i, j) = V(Roll 5, i)

**The order.** A turn raises ``i + j`` (the mover banks) or swaps ``i`` and ``j`` (a Wimpout): the
pairs of one level ``i + j`` depend only on higher levels and on each other. Levels are solved
from the top down; within one, value iteration on the two values ``W(i, j)``, ``W(j, i)``
converges geometrically (each is a contraction of the other by the chance of a Wimpout).
``method="plain"`` sweeps every state in index order instead, Neller and Presser's plain
value iteration, for comparison.

**Two openings, one interior.** No turn brings a score back to 0, so the pairs with both scores
above 0 (the interior) never meet the opening rule: their values, policy and counts are the same
for every ``minimum``. A levels solve remembers its interior (for the last few races, keyed by
target, rules, horizon, ``tol`` and ``max_iter``), and a solve of the same race with another
``minimum`` iterates only the pairs with a score of 0: the result is the one a solve from
nothing gives, to the last bit, counts included.

**Past the target: a safe total.** If every choice banks from total ``Q`` on, the values there are
known in closed form: ``V(s, q) = P(Auto Win or bank from s) + P(Wimpout) x - M(s, need)``, with
``M(s, n)`` the chance that the opponent makes ``n`` plus the points gained before the banking
choice (one recursion over the need). Banking at ``c`` then beats rolling exactly when
``W(j, i) >= w_c(n) = (L(n) - E_c(n) - P_c(Auto Lose)) / P_c(Wimpout)`` (``E_c`` the opponent's
chance after rolling and banking at the next choice), so the first need from which
``W(j, i)`` is above every ``w_c`` of every larger need gives a total above which banking is a
best reply to banking: the solver starts there (from score 0, no lower than ``minimum``), and
needs no guessed bound. ``W(j, i)`` is at least ``L(inf)`` (the opponent can roll all turn for
five 6s), above ``w_c`` far out; a horizon too short for that is refused.

**The policy.** The best play is *not* always a threshold in the turn points: short of the target
a player may bank a middling turn but roll on with one that leaves the score just short of it,
to reach it; or bank short of ``G`` but roll on on reaching it, to leave a larger lead.
:class:`RaceSolution` gives, for every score pair and choice, the threshold from which it always
banks, and the turn points below it where it banks all the same.

**The horizon.** ``L`` and ``M`` are tabulated up to a need ``H`` (``horizon`` points) and held
constant beyond: a bank reward changes by at most ``L(H) - L(inf)`` (``tail_bound``), and so
does every win chance. By default ``H`` is the first need with ``L(H) - L(inf) <= 10^-16``.

Floats are solved by numba kernels (:mod:`dicelab.wimpout._kernels`);
:func:`~dicelab.wimpout.reference.exact_race` runs the same kernels in ``Fraction``.

Examples
--------
>>> sol = solve_race(50)
>>> 0.5 < sol.value < 0.7 and sol.residual < 1e-12
True
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType

import numpy as np

from dicelab.core.checks import check_cost
from dicelab.core.spec import Int, OneOf, Real, validated
from dicelab.wimpout import _kernels
from dicelab.wimpout._common import RULES
from dicelab.wimpout._race_tables import (
    HORIZON,
    MINIMUM,
    TARGET,
    check_points,
    cost,
    horizon_units,
    points,
    reach,
    tables,
    turn,
)
from dicelab.wimpout.records import Choice, Rules

_FOUR_DICE = Choice(3, True)  # the choice of the policy figure: four dice, 3W + 1B

__all__ = [
    "reach_probability",
    "RaceSolution",
    "solve_race",
]


@validated(points=points(0, 5000), minimum=points(0, 5000), rules=RULES, example={"points": 5})
def reach_probability(points: int, *, minimum: int = 0, rules: Rules = Rules()) -> Fraction:
    """The chance that a turn played to make ``points`` (or more) does, exactly.

    The turn rolls until it can bank at least ``points`` (and ``minimum``, the opening rule)
    and banks then; five 6s count as made, five 10s as missed: the Last Licks turn, needing
    the lead plus 5.

    Parameters
    ----------
    points : int
        The points to make, a multiple of 5 (0: to bank at all), at most 5,000.
    minimum : int
        The least points the player may bank (35 for a player still at 0).
    rules : Rules
        The readings of the rules.

    Returns
    -------
    Fraction

    Examples
    --------
    >>> round(float(reach_probability(100)), 6)
    0.097881
    >>> reach_probability(30, minimum=35) == reach_probability(35)
    True
    """
    need = max(points, minimum) // 5
    check_cost("points", points, memory=400 * need * 42, steps=2e4 * need * need, what="an exact recursion")
    return reach(rules, 20 * (need // 20 + 1), True)[need, 0]  # tables of 20 needs more at a time


@dataclass(frozen=True, eq=False)
class RaceSolution:
    """The optimal race to ``target`` (all scores and turn points in points).

    A state of the race is the pair of scores ``(i, j)`` of the player to move and of the other;
    ``start = (0, 0)``. ``values[i // 5, j // 5]``: the win chance of the player to move at
    ``(i, j)`` (:meth:`value_at`); ``value``: the first player's, ``values[0, 0]``.

    ``thresholds[i // 5, j // 5, c]``: at ``choices[c]`` bank from these turn points on; below, it
    rolls except at the rows ``(i, j, c, p)`` of ``exceptions`` (banks at ``p`` all the same: the
    policy is not always a threshold in the turn points, e.g. it may bank short of the target but
    roll on just reaching it, to leave a larger lead); ``policy``: both, by name;
    :meth:`best_action` reads them. ``irregular``: how many score pairs and choices have such
    exceptions. ``iterations``: the most sweeps one level needed (``method="plain"``: the sweeps);
    ``evaluations``: turns solved; ``change``: the last sweep's largest change; ``residual``: the
    largest change of one more Bellman update of every state; ``horizon`` (points) and
    ``tail_bound``: see the module docstring.
    """

    target: int
    minimum: int
    horizon: int
    rules: Rules
    method: str
    values: np.ndarray
    thresholds: np.ndarray
    exceptions: np.ndarray
    choices: tuple
    irregular: int
    iterations: int
    evaluations: int
    change: float
    residual: float
    tail_bound: float

    @property
    def start(self) -> tuple:
        return (0, 0)

    @property
    def value(self) -> float:
        """The first player's win chance, at ``(0, 0)``."""
        return float(self.values[0, 0])

    @property
    def policy(self) -> MappingProxyType:
        """Optimal play: ``{"thresholds": ..., "exceptions": ...}`` (see the class docstring)."""
        return MappingProxyType({"thresholds": self.thresholds, "exceptions": self.exceptions})

    def _scores(self, i, j, names=("i", "j")) -> tuple:
        return tuple(check_points(n, v, 0, self.target - 5) for n, v in zip(names, (i, j), strict=True))

    def value_at(self, state) -> float:
        """The mover's win chance at ``state = (i, j)``: scores ``i`` against ``j`` (points).

        >>> sol = solve_race(50)
        >>> sol.value_at((0, 0)) == sol.value
        True
        """
        if not isinstance(state, tuple) or len(state) != 2:
            raise ValueError(f"state must be a pair of scores (i, j), such as (0, 0), got {state!r}"[:200])
        i, j = self._scores(*state, names=("state (i)", "state (j)"))
        return float(self.values[i // 5, j // 5])

    def threshold(self, i: int, j: int, choice: Choice) -> int:
        """The turn points from which the mover at ``(i, j)`` banks at ``choice``.

        >>> solve_race(50).threshold(45, 45, Choice(1, False))   # roll one die on, to lead by 25
        25
        """
        i, j = self._scores(i, j)
        return int(self.thresholds[i // 5, j // 5, self.choices.index(_check_choice("choice", choice))])

    def best_action(self, state) -> str:
        """What the mover does at ``state = (i, j, choice, points)``, with ``points`` made in the
        turn at ``choice``: ``"bank"`` or ``"roll"``.

        >>> sol = solve_race(50)
        >>> sol.best_action((45, 45, Choice(1, False), 5)), sol.best_action((45, 45, Choice(1, False), 25))
        ('roll', 'bank')
        """
        if not isinstance(state, tuple) or len(state) != 4:
            raise ValueError(
                f"state must be (i, j, choice, points), such as (0, 0, Choice(1, True), 5), got {state!r}"[
                    :200
                ]
            )
        i, j, choice, points = state
        i, j = self._scores(i, j, names=("state (i)", "state (j)"))
        c = self.choices.index(_check_choice("state (choice)", choice))
        points = check_points("state (points)", points, 5, 10**6)
        if points >= self.thresholds[i // 5, j // 5, c]:
            return "bank"
        ex = self.exceptions
        hit = ((ex[:, 0] == i) & (ex[:, 1] == j) & (ex[:, 2] == c) & (ex[:, 3] == points)).any()
        return "bank" if hit else "roll"

    def threshold_grid(self, choice: Choice = _FOUR_DICE) -> dict:
        """The thresholds at ``choice`` over both scores, for a figure: ``scores`` (points, the
        axes), ``thresholds[i, j]`` (points) and the ``choice``'s dice.

        >>> grid = solve_race(50).threshold_grid()
        >>> grid["thresholds"].shape, grid["dice"]
        ((10, 10), '3W + 1B')
        """
        c = self.choices.index(_check_choice("choice", choice))
        return {
            "scores": np.arange(0, self.target, 5),
            "thresholds": self.thresholds[:, :, c].copy(),
            "dice": choice.dice,
        }


def _check_choice(name: str, choice) -> Choice:
    if not isinstance(choice, Choice):
        raise ValueError(f"{name} must be a Choice, such as Choice(3, True), got {choice!r}")
    return choice


@dataclass(frozen=True)
class _Interior:
    """What a levels solve found for the score pairs with both scores above 0 (in units)."""

    W: np.ndarray
    parts: np.ndarray  # the kernel's counts, interior and border
    T: np.ndarray
    irregular: np.ndarray
    exceptions: np.ndarray
    residual: float


# The interior of the race never reaches a score of 0 (a turn adds points or passes the dice), so
# its values, policy and counts do not depend on the opening minimum: the race solved with and
# without the opening rule shares it, the second solve iterating only the pairs with a 0 score.
_INTERIOR: dict = {}
_INTERIOR_SIZE = 4


def _share(key, W, parts, T, irregular, ex, residual) -> None:
    if len(_INTERIOR) >= _INTERIOR_SIZE:
        _INTERIOR.pop(next(iter(_INTERIOR)))
    W_in = np.full_like(W, 0.5)  # the border at the solve's start value
    T_in, irr_in = np.zeros_like(T), np.zeros_like(irregular)
    W_in[1:, 1:], T_in[1:, 1:], irr_in[1:, 1:] = W[1:, 1:], T[1:, 1:], irregular[1:, 1:]
    _INTERIOR[key] = _Interior(W_in, parts.copy(), T_in, irr_in, ex.copy(), float(residual))


def _clear_interiors() -> None:
    """Forget the shared interiors (for timing a solve afresh)."""
    _INTERIOR.clear()


@validated(
    target=TARGET,
    minimum=MINIMUM,
    horizon=HORIZON,
    rules=RULES,
    tol=Real(0, 1, open_low=True),
    method=OneOf(("levels", "plain")),
    max_iter=Int(1, 10**6),
    example={"target": 20},
)
def solve_race(
    target: int = 500,
    *,
    minimum: int = 35,
    horizon: int | None = None,
    rules: Rules = Rules(),
    tol: float = 1e-12,
    method: str = "levels",
    max_iter: int = 10_000,
) -> RaceSolution:
    """The race to ``target`` played to win by both players: value iteration in floats.

    Parameters
    ----------
    target : int
        The target score ``G`` (a multiple of 5; the official game: 500).
    minimum : int
        The opening rule: the least turn points a player at 0 may bank (0: no such rule).
    horizon : int, optional
        Last Licks needs are tabulated up to this many points (see the module docstring); by
        default where ``L`` is within ``10^-16`` of its limit.
    rules : Rules
        The readings of the rules.
    tol : float
        Value iteration stops when a sweep changes no value by ``tol`` or more.
    method : ``"levels"`` or ``"plain"``
        Level by level in decreasing ``i + j``, or plain sweeps over every state.
    max_iter : int
        The sweeps allowed (per level with ``"levels"``).

    Returns
    -------
    RaceSolution

    Examples
    --------
    >>> sol = solve_race(100)
    >>> 0.5 < sol.value < 0.6, sol.residual < 1e-12
    (True, True)
    """
    NH = horizon_units(minimum, horizon, rules)
    g = target // 5
    rows = cost("target", target, g, NH, 1 if method == "levels" else 4)
    tb = tables(rules, minimum // 5, NH, False)
    S, nf = tb["S"], tb["nf"]
    V, D = _kernels.scratch(rows, S, S - nf)
    args = (tb["tab"], tb["LT2"], tb["MT2"], tb["WSTAR2"])
    key = (g, rules, NH, tol, max_iter)
    shared = _INTERIOR.get(key) if method == "levels" else None
    W = shared.W.copy() if shared else np.full((g, g), 0.5)
    parts = shared.parts.copy() if shared else np.zeros((2, 3))
    parts[1] = 0
    evaluations, iterations, change = _kernels.solve_levels(
        g, minimum // 5, W, *args, tol, max_iter, method == "plain", V, D, shared is not None, parts
    )
    if iterations == -1:
        raise ValueError(f"horizon={5 * NH} is too short: past it no total is safe to bank; raise it")
    if iterations == -2:
        raise ValueError(f"max_iter={max_iter} sweeps did not bring the change below tol={tol}")
    if method == "levels":  # the whole solve's counts, the interior's shared or not
        evaluations, iterations, change = int(parts[:, 0].sum()), int(parts[:, 1].max()), parts[:, 2].max()
    T = shared.T.copy() if shared else np.zeros((g, g, S - nf), dtype=np.int64)
    irregular = shared.irregular.copy() if shared else np.zeros_like(T)
    residuals = np.array([shared.residual, 0.0]) if shared else np.zeros(2)
    ex = np.zeros((4 * g * g + 1024, 4), dtype=np.int64)  # room for every exception, nearly always
    policy = (g, minimum // 5, W.copy(), *args, V, D, T, irregular)
    _kernels.policy_pass(*policy, ex, shared is not None, residuals)
    border = irregular.copy()
    if shared:
        border[1:, 1:] = 0
    if border.sum() > len(ex):
        ex = np.zeros((int(border.sum()), 4), dtype=np.int64)
        _kernels.policy_pass(*policy, ex, shared is not None, residuals)
    ex = ex[: int(border.sum())]
    if shared:
        ex = np.concatenate([ex, shared.exceptions])
        ex = ex[np.lexsort(ex.T[::-1])]  # in the order of a whole pass: by i, j, choice, turn points
    elif method == "levels":
        inner = (ex[:, 0] > 0) & (ex[:, 1] > 0)
        _share(key, W, parts, T, irregular, ex[inner], residuals[0])
    residual = residuals.max()
    ex = ex.copy()
    ex[:, [0, 1, 3]] *= 5
    return RaceSolution(
        target,
        minimum,
        5 * NH,
        rules,
        method,
        W,
        5 * T,
        ex,
        turn(rules).choices,
        int((irregular > 0).sum()),
        int(iterations),
        int(evaluations),
        float(change),
        float(residual),
        float(tb["reach"][NH] - tb["l_inf"]),
    )
