"""Three players: A's best response to two opponents with simple strategies.

Serves the paper's "Three players with independent strategies" (Fig. 5, Table S4).

States are ``(i, j1, j2)``: A on ``i`` points, opponents B1 and B2 on ``j1`` and ``j2``.
Each opponent plays a *simple* policy (hold values by its own score, e.g. "hold at n").
Players who reach the goal in the same turn share the win: ``1/m`` each for ``m`` of them.
As for two players, scores never fall and the only way back to a state is every player
scoring 0, so one reverse sweep with the self-loop in closed form solves the MDP.
"""

from __future__ import annotations

from dicelab.core.spec import validated
from dicelab.pig import _kernels_3p
from dicelab.pig._common import OPTIONAL_GOAL_ARG, SIDES, SIDES_ARG, hold_table
from dicelab.pig.policy import Policy, hold_at, resolve_policies
from dicelab.pig.solution import BestResponse

__all__ = ["solve_best_response_3p"]


def _sweep_cost(goal: int, sides: int = SIDES) -> tuple[float, float]:
    """``(bytes, steps)`` of the three-player sweep: ``win``, ``policy`` and its copy, and the running
    average ``F`` (``32 goal^3`` bytes); each of the ``goal^3`` states weighs up to ``goal`` hold values,
    about ``goal^4 / 2`` in all at about three a step (SIMD lanes; timed in ``benchmarks/budgets.py``),
    each of ``sides + 1`` turn outcomes."""
    return 32.0 * float(goal) ** 3 + 8.0 * sides * goal**2, float(goal) ** 4 / 6 * (sides + 1) / 7


@validated(
    goal=OPTIONAL_GOAL_ARG,
    sides=SIDES_ARG,
    example={"opponent1": hold_at(2, goal=6), "opponent2": hold_at(3, goal=6)},
)
def solve_best_response_3p(
    opponent1, opponent2, goal: int | None = None, *, sides: int = SIDES
) -> BestResponse:
    """A's best hold-at-k response against two opponents with simple strategies.

    The sweep keeps two running averages: over opponent 2's turn for every solved state, and
    over both opponents' turns for the states of the current column ``(j1, j2)``. A state then
    costs only A's own outcomes for each hold value, not the 49 outcome pairs of the opponents
    (``(sides + 1)^2`` with a die of ``sides`` faces).

    Parameters
    ----------
    opponent1, opponent2 : Policy or array_like
        Simple policies (hold values by own score), e.g. ``hold_at(25)``.
    goal : int, optional
        The target score; by default the opponents'.
    sides : int
        The faces of the die every player rolls (the paper's 6); the face 1 ends the turn.

    Returns
    -------
    BestResponse
        ``values[i, j1, j2]`` (A's chance from the start is ``value``) and ``policy``, A's
        hold values as a three-player :class:`~dicelab.pig.Policy`; ``iterations=1``.

    >>> res = solve_best_response_3p(hold_at(2, goal=6), hold_at(3, goal=6))
    >>> res.values.shape, res.policy[0, 0, 0], round(res.value, 6)
    ((6, 6, 6), np.int64(6), 0.637079)
    """
    policies = {"opponent1": opponent1, "opponent2": opponent2}
    goal, o1, o2 = resolve_policies(
        goal,
        policies,
        simple=True,
        cost=lambda g: _sweep_cost(g, sides),
        what="a three-player best response",
        sides=sides,
    )
    T = hold_table(goal, sides)
    win, pol = _kernels_3p.best_response_3p_sweep(goal, T, o1.table.copy(), o2.table.copy())
    return BestResponse(goal, win, Policy(pol), 1, True)
