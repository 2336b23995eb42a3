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

from dicelab.core.checks import check_cost, check_int
from dicelab.core.spec import validated
from dicelab.pig import _kernels
from dicelab.pig._common import BUDGET_ARG, GOAL_ARG, TOL_ARG, check_converged
from dicelab.pig.solution import PigSolution
from dicelab.pig.turns import GOAL

__all__ = ["SequentialSolution", "solve_sequential"]


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
