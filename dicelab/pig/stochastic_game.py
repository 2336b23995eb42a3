"""Both players rational: simultaneous Pig as a zero-sum stochastic game.

Serves the paper's "Mixed-strategy equilibrium" and "Stackelberg value iteration for
multi-agent reinforcement learning" (Table 3, Fig. 4), and goes beyond it with the exact
equilibrium.

At a state ``(i, j)`` both players choose a hold value at once: A's ``k`` and B's ``k'``.
A's continuation value is the *stage game* ``q(k, k') = A[k, k'] + C[k, k'] p(i, j)``
(:func:`stage_game`), where ``C`` is the chance that both score 0 and the game returns to
``(i, j)``. Solving states in reverse order, each stage game's value must equal ``p(i, j)``
itself: a one-dimensional fixed point, found by safeguarded Newton steps.

* :func:`equilibrium` solves every stage game exactly (an LP unless it has a pure saddle point);
* :func:`svima` lets B lead and A follow, in pure strategies (the paper's SVIMA);
* :func:`symmetric_value_iteration` is the paper's value iteration with ``pi_B = pi_A``,
  which cycles instead of converging.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from dicelab._checks import check_int
from dicelab.games import solve_matrix_game
from dicelab.pig import _kernels
from dicelab.pig.policy import Policy, hold_at
from dicelab.pig.solution import Solution, _check_budget, _check_tie, _check_tol, _iterate
from dicelab.pig.turns import GOAL, _check_goal, _hold_table

__all__ = [
    "stage_game",
    "Equilibrium",
    "equilibrium",
    "svima",
    "SymmetricIteration",
    "symmetric_value_iteration",
]

_self_loop = _kernels.self_loop_value.py_func


def _stage_matrices(i, j, W, T, goal):
    """``(A, C)`` at ``(i, j)`` from the padded values ``W`` (terminal past the goal)."""
    X, B = goal - i + 6, goal - j + 6
    V = W[i : i + X, j : j + B].copy()
    V[0, 0] = 0.0  # both score 0: the self-loop, carried by C
    Pa, Pb = T[1 : goal - i + 1, :X], T[1 : goal - j + 1, :B]
    return Pa @ V @ Pb.T, np.outer(Pa[:, 0], Pb[:, 0])


def stage_game(values, i: int, j: int, *, tie=0.5) -> tuple[np.ndarray, np.ndarray]:
    """The stage game at ``(i, j)``: ``q(k, k') = A[k-1, k'-1] + C[k-1, k'-1] p(i, j)``.

    Parameters
    ----------
    values : array_like
        ``p[i, j]`` for every state (shape ``(goal, goal)``); only states after ``(i, j)``
        (higher scores) enter ``A``.
    i, j : int
        The state: A on ``i`` points, B on ``j``.
    tie : float
        A's reward when both reach the goal in the same turn.

    Returns
    -------
    (numpy.ndarray, numpy.ndarray)
        ``A`` and ``C``, shape ``(goal - i, goal - j)``: rows A's hold values ``1..goal-i``,
        columns B's ``1..goal-j``.

    >>> A, C = stage_game(np.zeros((2, 2)), 1, 1)
    >>> A.round(6).tolist(), C.round(6).tolist()
    ([[0.486111]], [[0.027778]])
    """
    values = np.asarray(values, dtype=float)
    if values.ndim != 2 or values.shape[0] != values.shape[1] or values.shape[0] == 0:
        raise ValueError(f"values must be a square (goal, goal) array, got shape {values.shape}")
    goal = values.shape[0]
    i, j = check_int("i", i, 0, goal - 1), check_int("j", j, 0, goal - 1)
    W = _kernels.padded_values(goal, _check_tie(tie))
    W[:goal, :goal] = values
    return _stage_matrices(i, j, W, _hold_table(goal), goal)


def _stage_fixed_point(A, C, stage, tol, max_iter, where):
    """Solve ``v = stage(A + C v)`` by Newton steps safeguarded with a bracket in [0, 1].

    ``stage(M)`` returns ``(value, row strategy, column strategy)``; with those strategies
    the stage value is linear in ``v``, and its fixed point is the Newton step. The residual
    is the smaller of the step and the bracket's width.
    """
    lo, hi, v = 0.0, 1.0, 0.5
    x = y = None

    def step():
        nonlocal lo, hi, v, x, y
        value, x, y = stage(A + C * v)
        if value > v:
            lo = max(lo, v)
        else:
            hi = min(hi, v)
        new = _self_loop(x @ A @ y, x @ C @ y)
        if not lo <= new <= hi:
            new = 0.5 * (lo + hi)
        residual = min(abs(new - v), hi - lo)
        v = new
        return residual

    iterations, _ = _iterate(step, tol=tol, max_iter=max_iter, what=f"the stage-game fixed point at {where}")
    return v, x, y, iterations


@dataclass(frozen=True, eq=False)
class Equilibrium(Solution):
    """Result of :func:`equilibrium` or :func:`svima`: values and strategies for ``i, j < goal``.

    ``values[i, j]``: A's winning probability. ``policy[i, j, k-1]``: A's probability of
    holding at ``k`` in state ``(i, j)``; ``opponent[i, j, k-1]``: B's probability of holding
    at ``k`` in that state (B on ``j`` points). ``pure[i, j]``: whether the state has a pure
    saddle point; ``n_lp``: LPs solved; ``iterations``: the most Newton steps any state needed.

    >>> eq = equilibrium(goal=3)
    >>> round(eq.value, 12), eq.most_likely_policy().table.tolist()
    (0.5, [[3, 3, 3], [1, 1, 1], [1, 1, 1]])
    """

    opponent: np.ndarray
    pure: np.ndarray
    n_lp: int

    def most_likely_policy(self) -> Policy:
        """A's most likely hold value in each state.

        Returns
        -------
        Policy
            ``[i, j]``: the hold value of largest probability in ``policy[i, j]`` (the
            smallest such value on ties); for :func:`svima`, A's pure policy.
        """
        return Policy(self.policy.argmax(axis=2) + 1)

    def most_likely_opponent_policy(self) -> Policy:
        """B's most likely hold value in each state, as a policy on B's own states.

        Returns
        -------
        Policy
            ``[j, i]``: B on ``j`` points, A on ``i`` (``opponent`` transposed to B's seat).

        >>> sv = svima(goal=4)
        >>> sv.most_likely_opponent_policy().table.T.tolist() == (sv.opponent.argmax(axis=2) + 1).tolist()
        True
        """
        return Policy((self.opponent.argmax(axis=2) + 1).T)


def _sweep_stage_games(goal, tie, tol, max_iter, stage):
    """Every state's stage-game fixed point, in reverse order.

    Returns ``(goal, values, row, col, pure, iterations)`` (the most Newton steps of a state).
    """
    goal, tie = _check_goal(goal), _check_tie(tie)
    tol, max_iter = _check_tol(tol), _check_budget(max_iter)
    T = _hold_table(goal)
    W = _kernels.padded_values(goal, tie)
    row = np.zeros((goal, goal, goal))
    col = np.zeros((goal, goal, goal))
    pure = np.zeros((goal, goal), dtype=bool)
    most = 0
    for i in range(goal - 1, -1, -1):
        for j in range(goal - 1, -1, -1):
            A, C = _stage_matrices(i, j, W, T, goal)
            v, x, y, iterations = _stage_fixed_point(A, C, stage, tol, max_iter, (i, j))
            most = max(most, iterations)
            W[i, j] = v
            row[i, j, : x.size] = x
            col[i, j, : y.size] = y
            pure[i, j] = x.max() > 1 - 1e-12 and y.max() > 1 - 1e-12
    return goal, W[:goal, :goal].copy(), row, col, pure, most


def equilibrium(goal: int = GOAL, *, tie=0.5, tol: float = 1e-15, max_iter: int = 200) -> Equilibrium:
    """The exact equilibrium of two-player simultaneous Pig as a zero-sum stochastic game.

    Every stage game is solved as a matrix game (an LP with HiGHS unless it has a pure
    saddle point), states in reverse order; each state's value is the fixed point of its
    stage game, found by safeguarded Newton steps.

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
        Values, both players' mixed strategies, which states are pure, and the LP count.

    >>> eq = equilibrium(goal=6)
    >>> round(eq.value, 12), bool(np.allclose(eq.values + eq.values.T, 1))
    (0.5, True)
    """
    lps = 0

    def stage(M):
        nonlocal lps
        sol = solve_matrix_game(M)
        lps += not sol.pure
        return sol.value, sol.row, sol.col

    goal, values, row, col, pure, iterations = _sweep_stage_games(goal, tie, tol, max_iter, stage)
    return Equilibrium(goal, values, row, iterations, True, col, pure, lps)


def svima(goal: int = GOAL, *, tie=0.5, tol: float = 1e-15, max_iter: int = 200) -> Equilibrium:
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
    tol, max_iter
        As for :func:`equilibrium`.

    Returns
    -------
    Equilibrium
        Pure strategies (one-hot rows), ``pure`` all True, ``n_lp = 0``.

    >>> sv = svima(goal=6)
    >>> bool(sv.pure.all()), sv.most_likely_policy()[0, 0]
    (True, np.int64(6))
    """

    def stage(M):
        best_rows = M.argmax(axis=0)  # A's best reply to each of B's actions
        kb = int(M.max(axis=0).argmin())
        ka = int(best_rows[kb])
        return float(M[ka, kb]), np.eye(M.shape[0])[ka], np.eye(M.shape[1])[kb]

    goal, values, row, col, pure, iterations = _sweep_stage_games(goal, tie, tol, max_iter, stage)
    return Equilibrium(goal, values, row, iterations, True, col, pure, 0)


@dataclass(frozen=True, eq=False)
class SymmetricIteration(Solution):
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
    goal = _check_goal(goal)
    sweeps = check_int("sweeps", sweeps, 2)
    tie, tol = _check_tie(tie), _check_tol(tol)
    T = _hold_table(goal)
    pol = hold_at(check_int("start", start, 1), goal).two_player()
    win = np.zeros((goal, goal))
    policies, values = [pol.copy()], [win.copy()]
    for _ in range(sweeps):
        _kernels.value_iteration_sweep(goal, T, pol, tie, win, pol)  # pi_B is pi_A, updated in place
        policies.append(pol.copy())
        values.append(win.copy())
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
        win.copy(),
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
