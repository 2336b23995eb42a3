"""Both players rational: simultaneous Pig as a zero-sum stochastic game.

Serves the paper's "Mixed-strategy equilibrium" and "Stackelberg value iteration for
multi-agent reinforcement learning" (Table 3, Fig. 4), and goes beyond it with the
equilibrium, certified.

At a state ``(i, j)`` both players choose a hold value at once: A's ``k`` and B's ``k'``.
A's continuation value is the *stage game* ``q(k, k') = A[k, k'] + C[k, k'] p(i, j)``
(:func:`stage_game`), where ``C[k, k'] = P(X_k = 0) P(X_k' = 0)`` is the chance that both
score 0 and the game returns to ``(i, j)``. Solving states in reverse order, each stage game's
value must equal ``p(i, j)`` itself: the fixed point ``p = val(A + C p)``, unique because
``C < 1`` (:func:`solve_stage_game`).

* :func:`equilibrium` solves every stage game's fixed point exactly (closed forms on the
  equilibrium's support, no LP) and certifies the result by :func:`exploitability`;
* the stage games themselves are built and solved in :mod:`dicelab.pig.stage_games`, the
  paper's value iterations (SVIMA, the symmetric iteration) are in
  :mod:`dicelab.pig.value_iteration`.

When a state needs mixing
-------------------------
A state needs mixing when its stage game, at the state's own value, has no pure saddle
point; equivalently, when the fixed point of the pure maximin ``max_k min_k' q`` lies strictly
below that of the pure minimax ``min_k' max_k q``
(:func:`dicelab.pig.reference.exact_pure_bounds`). The float solution measures how far each
state is from the other kind (``Equilibrium.margin``); every state closer than ``exact_band``
is decided in exact ``Fraction`` arithmetic on its stage game, built from the computed values
of the states after it.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from dicelab._checks import check_array, check_cost, check_float
from dicelab.pig import _kernels, _stage
from dicelab.pig.policy import Policy
from dicelab.pig.reference import _BOUNDS_STEPS, _pure_bounds
from dicelab.pig.solution import Solution, _check_budget, _check_size, _check_tie, _check_tol
from dicelab.pig.stage_games import _solve_failure
from dicelab.pig.turns import GOAL, _check_goal, _hold, _hold_table

__all__ = ["exploitability", "Equilibrium", "equilibrium"]


def _sparse(strategy) -> tuple[np.ndarray, np.ndarray]:
    """Mixed strategies ``strategy[i, j, k-1]`` as ``(ks, ws)``: hold values and weights, support first."""
    S = max(1, int((strategy > 0).sum(axis=2).max()))
    order = np.argsort(-strategy, axis=2, kind="stable")[:, :, :S]
    ws = np.take_along_axis(strategy, order, axis=2)
    return np.where(ws > 0, order + 1, 1), np.ascontiguousarray(ws)


def _response_values(strategy, tie) -> np.ndarray:
    """A's values when A best-responds to an opponent who holds at ``k`` with probability
    ``strategy[i, j, k-1]`` in state ``(i, j)``."""
    goal = strategy.shape[0]
    W = _kernels.padded_values(goal, tie)
    _kernels.response_sweep(goal, _hold_table(goal), W, *_sparse(strategy))
    return W[:goal, :goal].copy()


def _check_strategy(name, strategy, goal=None) -> np.ndarray:
    """``strategy[i, j, k-1]`` as a ``(goal, goal, goal)`` float array of probabilities in [0, 1]
    that sum to 1 in every state (the goal its own side unless given), or a ValueError naming it."""
    s = check_array(name, strategy, ndim=3)
    goal = s.shape[0] if goal is None else goal
    if s.shape != (goal, goal, goal):
        raise ValueError(f"{name} must have shape (goal, goal, goal) = {(goal,) * 3}, got {s.shape}")
    if s.min() < 0 or s.max() > 1 + 1e-9 or not np.allclose(s.sum(axis=2), 1, rtol=0, atol=1e-9):
        raise ValueError(f"{name} must hold probabilities in [0, 1] that sum to 1 in every state")
    return s


def exploitability(policy, opponent, *, tie=0.5) -> float:
    """How much a best response gains against a pair of mixed hold-at-k strategies, at worst.

    Each player's exact best response to the other's strategy (an MDP: one reverse sweep, as
    :func:`~dicelab.pig.best_response`) gives A's value ``hi[i, j]`` when A best-responds and
    ``lo[i, j]`` when B does. Their difference is what the two players together gain by
    deviating from ``(policy, opponent)`` in state ``(i, j)``: 0 at an equilibrium, positive
    otherwise.

    Parameters
    ----------
    policy, opponent : array_like
        A's and B's strategies ``[i, j, k-1]``: the probability of holding at ``k`` in state
        ``(i, j)`` (A on ``i`` points, B on ``j``), as in :class:`Equilibrium`.
    tie : float
        A's reward when both reach the goal in the same turn.

    Returns
    -------
    float
        ``max over (i, j) of hi[i, j] - lo[i, j]``.

    >>> from dicelab.pig import hold_at
    >>> pure = lambda p: np.eye(p.goal)[p.two_player() - 1]
    >>> h = pure(hold_at(2, goal=6))
    >>> exploitability(h, h.transpose(1, 0, 2)) > 0.01
    True
    """
    policy = _check_strategy("policy", policy)
    opponent = _check_strategy("opponent", opponent, policy.shape[0])
    tie, goal = _check_tie(tie), policy.shape[0]
    steps = 2 * float(goal) ** 3 * (2 + np.log2(goal))  # two best responses to mixed strategies
    _check_size("policy's goal", goal, goal, memory=40.0 * goal**3, steps=steps, what="the exploitability")
    hi = _response_values(opponent, tie)
    lo = 1.0 - _response_values(policy.transpose(1, 0, 2), 1.0 - tie).T
    return float((hi - lo).max())


@dataclass(frozen=True, eq=False)
class Equilibrium(Solution):
    """Result of :func:`equilibrium` or :func:`svima`: values and strategies for ``i, j < goal``.

    ``values[i, j]``: A's winning probability. ``policy[i, j, k-1]``: A's probability of
    holding at ``k`` in state ``(i, j)``; ``opponent[i, j, k-1]``: B's probability of holding
    at ``k`` in that state (B on ``j`` points). ``pure[i, j]``: whether the stage game has a
    pure saddle point. ``margin[i, j]``: for a state solved by a pure saddle point, the least
    amount by which another action falls short of it; for a mixed state, the pure minimax
    minus the pure maximin of its stage game (NaN for :func:`svima`). ``n_exact``: states
    whose pure/mixed decision was made in exact arithmetic. ``exploitability``: the certificate
    of :func:`exploitability`. ``iterations``: the most rounds (double oracle) or Newton steps
    (SVIMA) any state needed.

    >>> eq = equilibrium(goal=3)
    >>> round(eq.value, 12), eq.most_likely_policy().table.tolist()
    (0.5, [[3, 3, 3], [1, 1, 1], [1, 1, 1]])
    """

    opponent: np.ndarray
    pure: np.ndarray
    margin: np.ndarray
    n_exact: int
    exploitability: float

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

        >>> from dicelab.pig import svima
        >>> sv = svima(goal=4)
        >>> sv.most_likely_opponent_policy().table.T.tolist() == (sv.opponent.argmax(axis=2) + 1).tolist()
        True
        """
        return Policy((self.opponent.argmax(axis=2) + 1).T)


_STRATEGIES_BYTES = 48.0
"""Bytes per ``goal^3`` of :func:`equilibrium` and :func:`svima`: both players' strategies
(``16 goal^3``), and the mixed strategies sorted for :func:`exploitability` (at most ``32 goal^3``)."""


def _state_order(goal: int, symmetric: bool) -> np.ndarray:
    """States in reverse order (``i`` then ``j`` descending); only ``j >= i`` if ``symmetric``."""
    return np.array(
        [(i, j) for i in range(goal - 1, -1, -1) for j in range(goal - 1, (i if symmetric else 0) - 1, -1)],
        dtype=np.int64,
    ).reshape(-1, 2)


def _twins(goal: int) -> np.ndarray:
    """``twin[k-1]``: the least hold value whose turn total has the same distribution as ``X_k``."""
    first = {}
    support = (tuple((x, p) for x, p in _hold(k) if p) for k in range(1, goal + 1))
    return np.array([first.setdefault(dist, k) for k, dist in enumerate(support)], dtype=np.int64)


def equilibrium(
    goal: int = GOAL, *, tie=0.5, tol: float = 1e-14, max_iter: int = 200, exact_band: float = 1e-9
) -> Equilibrium:
    """The equilibrium of two-player simultaneous Pig as a zero-sum stochastic game, certified.

    States are solved in reverse order; each state's value is the fixed point of its stage
    game, solved by :func:`solve_stage_game` (closed forms on the equilibrium's support: a
    pure saddle point, or a ``2 x 2`` kernel whose value solves a quadratic). With ties worth
    1/2 the game is symmetric, ``p(j, i) = 1 - p(i, j)``: only ``i <= j`` is solved and the
    mirror state gets ``1 - p`` and the strategies swapped.

    The rule for mixing: a state needs mixing when its stage game at the state's value has no
    pure saddle point. States whose ``margin`` from the other kind is below ``exact_band``
    are decided in exact ``Fraction`` arithmetic
    (:func:`~dicelab.pig.reference.exact_pure_bounds`). The result is certified by both
    players' exact best responses to each other's strategy (``exploitability``).

    Parameters
    ----------
    goal : int
        The target score.
    tie : float
        A's reward when both reach the goal in the same turn.
    tol : float
        How much an action may gain against a stage game's solution before it counts as
        better (rounding).
    max_iter : int
        Rounds of the double oracle per state; :class:`~dicelab.pig.NotConverged` beyond.
    exact_band : float
        States whose margin is below it are classified pure or mixed in exact arithmetic,
        in ``[0, 1]``. Their number is known only after the float sweep, and a goal whose
        exact decisions would exceed the time budget is refused then (at the default band,
        goals beyond about 330: their number grows fast, 82 at goal 200, 2,598 at 300).

    Returns
    -------
    Equilibrium
        Values, both players' mixed strategies, which states are pure, their margins, and
        the exploitability of the strategies.

    >>> eq = equilibrium(goal=6)
    >>> abs(eq.value - 0.5) < 1e-15, float(abs(eq.values + eq.values.T - 1).max()) < 1e-15
    (True, True)
    >>> eq.exploitability < 1e-14
    True
    """
    goal, tie = _check_goal(goal), _check_tie(tie)
    tol, max_iter = _check_tol(tol), _check_budget(max_iter)
    exact_band = check_float("exact_band", exact_band, 0, 1)
    _check_size(
        "goal", goal, goal, memory=_STRATEGIES_BYTES * goal**3, steps=goal**4 / 2, what="the equilibrium"
    )
    symmetric = tie == 0.5
    T = _hold_table(goal)
    W = _kernels.padded_values(goal, tie)
    row, col = np.zeros((goal, goal, goal)), np.zeros((goal, goal, goal))
    margin, kernel = np.zeros((goal, goal)), np.zeros((goal, goal), dtype=np.int64)
    order = _state_order(goal, symmetric)
    status, where, rounds, excess = _stage.equilibrium_sweep(
        goal, T, W, order, symmetric, _twins(goal), tol, max_iter, row, col, margin, kernel
    )
    if status:
        raise _solve_failure(status, tuple(int(v) for v in order[where]), excess, tol, max_iter)
    values = W[:goal, :goal].copy()
    pure = (kernel == 1) | (margin <= 0)
    close = [(i, j) for i, j in order if margin[i, j] < exact_band]
    steps = _BOUNDS_STEPS * sum(float(goal - i) * (goal - j) for i, j in close)
    check_cost(
        "goal", goal, steps=steps, what=f"deciding {len(close)} states in exact fractions (exact_band)"
    )
    exact_values = values.astype(object)
    for i, j in close:  # decided exactly: a pure saddle point exists iff the pure bounds meet
        lower, upper = _pure_bounds(exact_values, int(i), int(j), Fraction(tie))
        pure[i, j] = lower == upper
        if symmetric:
            pure[j, i] = pure[i, j]
    n_exact = len({(i, j) for i, j in close} | ({(j, i) for i, j in close} if symmetric else set()))
    certificate = exploitability(row, col, tie=tie)
    return Equilibrium(goal, values, row, rounds, True, col, pure, margin, n_exact, certificate)

