"""The paper's value iterations for two rational players: SVIMA and the symmetric iteration.

Serves the paper's "Stackelberg value iteration for multi-agent reinforcement learning"
(Algorithm 0.2, Table 3) and its value iteration with ``pi_B = pi_A`` (Fig. 4):

* :func:`solve_svima` lets B lead and A follow, in pure strategies;
* :func:`symmetric_value_iteration` forces B's policy equal to A's, and cycles instead of
  converging.

The equilibrium they approximate is :func:`dicelab.pig.solve_equilibrium`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from dicelab.core.spec import Int, validated
from dicelab.pig import _kernels, _stage
from dicelab.pig._common import (
    BUDGET_ARG,
    GOAL_ARG,
    STRATEGIES_BYTES,
    TIE_ARG,
    TOL_ARG,
    check_size,
    hold_table,
)
from dicelab.pig.policy import Policy, hold_at
from dicelab.pig.solution import NotConverged, PigSolution
from dicelab.pig.stochastic_game import Equilibrium, exploitability
from dicelab.pig.turns import GOAL

__all__ = ["solve_svima", "SymmetricIteration", "symmetric_value_iteration"]


@validated(goal=GOAL_ARG, tie=TIE_ARG, tol=TOL_ARG, max_iter=BUDGET_ARG, example={"goal": 6})
def solve_svima(goal: int = GOAL, *, tie=0.5, tol: float = 1e-15, max_iter: int = 200) -> Equilibrium:
    """The paper's Stackelberg value iteration for multi-agent RL (SVIMA, Algorithm 0.2), state by state.

    B leads: for each of B's hold values A best-responds, and B picks the one that leaves A
    least, ``p = min_k' max_k q(k, k')`` (pure strategies). The value iteration's fixed point
    is computed directly in one reverse sweep, each state's by safeguarded Newton steps.

    Parameters
    ----------
    goal : int
        The target score.
    tie : float
        A's reward when both reach the goal in the same turn.
    tol : float
        Stop a state's Newton steps when the step (or the bracket) is below ``tol``.
    max_iter : int
        Newton steps allowed per state; :class:`~dicelab.pig.NotConverged` beyond.

    Returns
    -------
    Equilibrium
        Pure strategies (one-hot rows), ``pure`` all True, ``margin`` NaN, and the
        exploitability of the two pure policies.

    >>> sv = solve_svima(goal=6)
    >>> bool(sv.pure.all()), sv.most_likely_policy()[0, 0]
    (True, np.int64(6))
    """
    check_size("goal", goal, goal, memory=STRATEGIES_BYTES * goal**3, steps=goal**4 / 2, what="SVIMA")
    W = _kernels.padded_values(goal, tie)
    ka, kb = np.zeros((goal, goal), dtype=np.int64), np.zeros((goal, goal), dtype=np.int64)
    iterations, residual = _stage.svima_sweep(goal, hold_table(goal), W, tol, max_iter, ka, kb)
    if not residual < tol:
        raise NotConverged("the stage-game fixed point (SVIMA's Newton steps)", residual, tol, max_iter)
    row, col = np.eye(goal)[ka], np.eye(goal)[kb]
    certificate = exploitability(row, col, tie=tie)
    nan = np.full((goal, goal), np.nan)
    return Equilibrium(
        goal,
        W[:goal, :goal].copy(),
        row,
        int(iterations),
        True,
        col,
        np.ones((goal, goal), bool),
        nan,
        0,
        certificate,
    )


@dataclass(frozen=True, eq=False)
class SymmetricIteration(PigSolution):
    """The paper's value iteration with ``pi_B`` forced equal to ``pi_A``, sweep by sweep.

    ``values`` / ``policy``: after the last sweep; ``iterations``: sweeps run;
    ``converged``: whether the policy settled (period 1) and the last sweep changed no value
    by ``tol`` or more. ``value_history[s]`` / ``policy_history[s]``: after sweep ``s``
    (``s = 0``: the start). ``period``: the period of the policy sequence at the end (0 if it
    has not settled into a cycle of at most 10); ``cycle_start``: the first sweep from which
    it repeats with that period (-1 if none); ``cycling``: the states whose action changes
    within the cycle; ``residual``: the largest change of a value in the last sweep.

    >>> res = symmetric_value_iteration(goal=2, sweeps=30, start=1)
    >>> res.period, res.converged, res.policy.table.tolist()
    (1, True, [[1, 1], [1, 1]])
    """

    value_history: np.ndarray
    policy_history: np.ndarray
    cycle_start: int
    period: int
    cycling: np.ndarray
    residual: float

    @property
    def cycle(self) -> list[Policy]:
        """The policies of one period of the cycle, in order."""
        return [Policy(p) for p in self.policy_history[self.cycle_start : self.cycle_start + self.period]]


def _period(history, longest: int = 10) -> int:
    """The least ``q <= longest`` with the last ``q`` entries repeating the ``q`` before; 0 if none."""
    n = len(history) - 1
    for q in range(1, longest + 1):
        if n - 2 * q >= 0 and all(np.array_equal(history[n - t], history[n - t - q]) for t in range(q)):
            return q
    return 0


@validated(
    goal=GOAL_ARG,
    sweeps=Int(2),
    start=Int(1),
    tie=TIE_ARG,
    tol=TOL_ARG,
    example={"goal": 6, "sweeps": 4},
)
def symmetric_value_iteration(
    goal: int = GOAL, *, sweeps: int = 100, start: int = 25, tie=0.5, tol: float = 1e-12
) -> SymmetricIteration:
    """The paper's symmetric value iteration: sweep with ``pi_A`` greedy and ``pi_B = pi_A``.

    Update order: Gauss-Seidel over ``i`` ascending, then ``j`` ascending, values and policy
    in place (the paper's (47, 69) is updated before (69, 47) and uses its new action).
    Starts from hold-at-``start`` with all values 0 and runs exactly ``sweeps`` sweeps: the
    iteration need not converge (the paper finds a 2-cycle), so it reports what it did
    rather than raising.

    Parameters
    ----------
    goal : int
        The target score.
    sweeps : int
        The number of sweeps, ``>= 2``.
    start : int
        The starting policy is hold at ``start``.
    tie : float
        A's reward when both reach the goal in the same turn.
    tol : float
        The largest change of a value in the last sweep for ``converged``.

    Returns
    -------
    SymmetricIteration
        The last values and policy, every sweep's, and the cycle the policies end in.

    >>> res = symmetric_value_iteration(goal=6, sweeps=12)
    >>> res.iterations, res.value_history.shape, res.period
    (12, (13, 6, 6), 1)
    """
    kept = 32.0 * goal**2  # the values and policies of a sweep, kept and then stacked
    check_size("goal", goal, goal, memory=2 * kept, steps=float(goal) ** 3, what="a sweep")
    what = f"the sweeps at goal {goal}"
    check_size("sweeps", sweeps, goal, memory=(sweeps + 1) * kept, steps=sweeps * float(goal) ** 3, what=what)
    T = hold_table(goal)
    pol = hold_at(start, goal).two_player()
    W = _kernels.padded_values(goal, tie)
    policies, values = [pol.copy()], [W[:goal, :goal].copy()]
    for _ in range(sweeps):
        _kernels.value_iteration_sweep(goal, T, pol, W, pol)  # pi_B is pi_A, updated in place
        policies.append(pol.copy())
        values.append(W[:goal, :goal].copy())
    period = _period(policies)
    cycling = np.zeros((goal, goal), dtype=bool)
    first = -1
    if period:
        first = len(policies) - 1 - period
        while first - 1 >= 0 and np.array_equal(policies[first - 1], policies[first - 1 + period]):
            first -= 1
        for a in policies[first : first + period]:
            cycling |= a != policies[first]
    residual = float(np.abs(values[-1] - values[-2]).max())
    return SymmetricIteration(
        goal,
        values[-1].copy(),
        Policy(pol),
        sweeps,
        period == 1 and residual < tol,
        np.array(values),
        np.array(policies),
        first,
        period,
        cycling,
        residual,
    )
