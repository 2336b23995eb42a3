"""Final-score distributions of b.a.d.g. strategies: the win policy's and the expected-points policy's.

Serves the chapter "Playing to win" (see :mod:`dicelab.badg.to_win` for the notation and the
rule that breaks ties). The distribution of the final bad points under a policy is the forward
pass of :mod:`~dicelab.badg.to_win` over (state, points so far), most dice first; the
expected-points policy is the win policy of a utility that never varies.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from dicelab.badg._common import _active
from dicelab.badg.solver import Solution
from dicelab.badg.to_win import WinSolution, max_points

__all__ = ["points_distribution"]


def points_distribution(solution) -> np.ndarray:
    """The distribution of the final bad points under a solution's policy.

    Parameters
    ----------
    solution : Solution or WinSolution
        :func:`~dicelab.badg.solve`'s expected-points policy (unrestricted; its ties broken as
        :mod:`dicelab.badg.to_win` says), or :func:`~dicelab.badg.solve_to_win`'s win policy.

    Returns
    -------
    float64 array (X + 1,)
        ``p[x]``, the probability of ``x`` final bad points; ``p.cumsum()[t]`` is ``P(bad <= t)``.

    Examples
    --------
    >>> from dicelab import badg
    >>> p = points_distribution(badg.solve((6, 8)))
    >>> round(float(p @ range(p.size)), 6), round(badg.solve((6, 8)).expected_points, 6)
    (4.541667, 4.541667)
    >>> round(float(p[:4].sum()), 6)  # P(at most 3 bad points), below the win policy's 0.422743
    0.395833
    """
    if isinstance(solution, WinSolution):
        return solution.distribution()
    if not isinstance(solution, Solution) or solution.restriction is not None:
        raise ValueError(
            f"solution must be a WinSolution or an unrestricted Solution of solve, got {solution!r}"
        )
    game = solution.game
    X = max_points(game.dice)
    flat = (Fraction(0),) * (X + 1)  # one value for every score: the expected-points policy
    sol = WinSolution(game.dice, None, flat, np.zeros((game.n_states, X + 1)), solution, _active(game, flat))
    return sol.distribution()
