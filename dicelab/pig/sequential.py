"""Classic (turn-taking) Pig, optimal play: the baseline the paper starts from.

Serves the paper's introduction (Neller and Presser's solution of two-player Pig).

The state is ``(i, j, t)``: the player to move has ``i`` points, the opponent ``j``, and the
turn total is ``t``. Rolling a 1 or holding passes the turn; the first to ``goal`` wins.
The states ``(i, j, .)`` and ``(j, i, .)`` feed each other only through the turn passing,
so each pair of score states is iterated to its fixed point, pairs in decreasing order of
``i + j`` (value iteration as Neller and Presser describe, organised by score pairs).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from dicelab.core.checks import check_cost, check_int
from dicelab.core.spec import Int, validated
from dicelab.pig import _kernels
from dicelab.pig._common import BUDGET_ARG, GOAL_ARG, TOL_ARG, check_converged
from dicelab.pig.solution import NotConverged, PigSolution
from dicelab.pig.turns import GOAL

__all__ = ["HoldRace", "SequentialSolution", "race_against_hold", "solve_sequential"]


@dataclass(frozen=True, eq=False)
class SequentialSolution(PigSolution):
    """Optimal play of classic Pig.

    ``values[i, j, t]``: the winning probability of the player to move with ``i`` points,
    the opponent on ``j`` and turn total ``t``; ``policy[i, j, t]``: True where that player
    rolls (ties go to rolling); ``value``: the chance that the player who starts wins.

    >>> sol = solve_sequential(goal=4)
    >>> round(sol.value, 6), sol.first_hold(0, 0)
    (0.818182, 4)
    """

    def first_hold(self, i: int, j: int) -> int:
        """The smallest turn total at which the optimal player on ``i`` points (opponent on ``j``) holds.

        Parameters
        ----------
        i, j : int
            The scores of the player to move and of the opponent, below ``goal``.

        Returns
        -------
        int
            The least ``t >= 1`` with ``policy[i, j, t]`` False, or ``goal - i``.

        >>> solve_sequential(goal=20).first_hold(10, 0)
        10
        """
        i, j = check_int("i", i, 0, self.goal - 1), check_int("j", j, 0, self.goal - 1)
        for t in range(1, self.goal - i):
            if not self.policy[i, j, t]:
                return t
        return self.goal - i


@validated(goal=GOAL_ARG, tol=TOL_ARG, max_iter=BUDGET_ARG, example={"goal": 10})
def solve_sequential(goal: int = GOAL, *, tol: float = 1e-13, max_iter: int = 10_000) -> SequentialSolution:
    """Classic two-player Pig (turns taken in order); optimal play may hold at any turn total.

    Parameters
    ----------
    goal : int
        The target score.
    tol : float
        Each pair of score states is iterated until the change is below ``tol``.
    max_iter : int
        Iterations allowed per pair; :class:`~dicelab.pig.NotConverged` beyond.

    Returns
    -------
    SequentialSolution
        ``values``, ``policy`` (roll or hold) and ``iterations`` (the most any pair needed).

    >>> round(solve_sequential(goal=20).value, 6)
    0.615559
    """
    # values (float) and decisions (bool) for every (i, j, t); each pair of score states iterates
    # two turns of up to goal turn totals, five rolls each (about 8 iterations a pair on average
    # at the default tol, measured)
    steps = 2.5 * float(goal) ** 3 * min(max_iter, 8)
    check_cost("goal", goal, memory=9.0 * float(goal) ** 3, steps=steps, what="classic Pig's optimal play")
    win, roll, iterations, residual = _kernels.sequential_pairs(goal, tol, max_iter)
    iterations = check_converged("sequential Pig's pair iteration", iterations, residual, tol, max_iter)
    return SequentialSolution(goal, win, roll, iterations, True)


@dataclass(frozen=True)
class HoldRace:
    """Classic Pig between a player who always holds at ``hold`` and a best responder.

    ``first`` and ``second``: the hold player's chance to win, moving first and moving second.
    """

    goal: int
    hold: int
    first: float
    second: float


@validated(hold=Int(1), goal=GOAL_ARG, tol=TOL_ARG, max_iter=BUDGET_ARG, example={"hold": 2, "goal": 6})
def race_against_hold(hold: int, goal: int = GOAL, *, tol: float = 1e-12, max_iter: int = 10_000) -> HoldRace:
    """Classic Pig to ``goal``: one player holds at ``hold`` turn points (or once holding reaches the
    goal), the other plays the best response to that.

    Two tables, the hold player's and the responder's chance to win on the move at ``(i, j)``, solved
    together pair level by pair level (``i + j`` from the top), each level swept until no value
    changes by more than ``tol``: the solver of Chapter 5's Exercise 5.9, in plain Python.

    Parameters
    ----------
    hold : int
        The hold player's hold value, ``>= 1``.
    goal : int
        The target score; the first to hold ``goal`` or more wins at once.
    tol, max_iter : float, int
        The sweep tolerance and the sweeps allowed per level (:class:`NotConverged` beyond).

    Returns
    -------
    HoldRace

    >>> race = race_against_hold(20, goal=40)
    >>> round(race.first, 4), round(race.second, 4)
    (0.5111, 0.4021)
    """
    check_cost("goal", goal, memory=16.0 * float(goal) ** 2, steps=60.0 * float(goal) ** 3,
               what="hold at k against a best response")
    tables = {True: np.zeros((goal, goal)), False: np.zeros((goal, goal))}  # hold player moves?

    def turn(i, j, holds):  # the mover's chance at (i, j); the ends are worth 1 - the other table
        other, win = tables[not holds], np.ones(goal - i + 6)
        for p in range(goal - i - 1, -1, -1):
            roll = (1 - other[j, i]) / 6 + win[p + 2 : p + 7].sum() / 6  # a 1 passes the move
            stay = 1 - other[j, i + p]  # hold: the opponent moves at (j, i + p)
            if p == 0:
                win[p] = roll  # a turn starts with a roll
            elif holds:
                win[p] = stay if p >= hold else roll  # hold at k
            else:
                win[p] = max(stay, roll)  # the best response
        return win[0]

    for level in range(2 * goal - 2, -1, -1):
        pairs = [(i, level - i) for i in range(goal) if 0 <= level - i < goal]
        for _ in range(max_iter):
            change = 0.0
            for i, j in pairs:
                for holds in (True, False):
                    new = turn(i, j, holds)
                    change = max(change, abs(new - tables[holds][i, j]))
                    tables[holds][i, j] = new
            if change < tol:
                break
        else:
            raise NotConverged(f"hold at {hold} against its best response: level {level}, {max_iter} sweeps")
    return HoldRace(goal, hold, float(tables[True][0, 0]), float(1 - tables[False][0, 0]))
