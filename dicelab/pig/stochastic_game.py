"""Both players rational: simultaneous Pig as a zero-sum stochastic game.

Serves the paper's "Mixed-strategy equilibrium" and "Stackelberg value iteration for
multi-agent reinforcement learning" (Table 3, Fig. 4), and goes beyond it with the
equilibrium, certified.

At a state ``(i, j)`` both players choose a hold value at once: A's ``k`` and B's ``k'``.
A's continuation value is the *stage game* ``q(k, k') = A[k, k'] + C[k, k'] p(i, j)``
(:func:`stage_game`), where ``C[k, k'] = P(X_k = 0) P(X_k' = 0)`` is the chance that both
score 0 and the game returns to ``(i, j)``. Solving states in reverse order, each stage game's
value must equal ``p(i, j)`` itself: the fixed point ``p = val(A + C p)``, unique because
``C < 1`` (:func:`~dicelab.pig.stage_game_value`).

* :func:`solve_equilibrium` solves every stage game's fixed point exactly (closed forms on the
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
state is from the other kind (``Equilibrium.margin``) and bounds the rounding error of that
measure (:func:`_margin_error_bound`); a state whose margin does not exceed its bound is
decided in exact ``Fraction`` arithmetic on its stage game, built from the computed values of
the states after it.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from dicelab.core.checks import check_cost
from dicelab.core.spec import Real, validated
from dicelab.pig import _kernels, _stage
from dicelab.pig._common import (
    BOUNDS_STEPS,
    BUDGET_ARG,
    GOAL_ARG,
    STRATEGIES_BYTES,
    TIE_ARG,
    TOL_ARG,
    check_size,
    check_strategy,
    hold,
    hold_table,
    pure_bounds,
    solve_failure,
    sparse,
)
from dicelab.pig.policy import Policy
from dicelab.pig.solution import PigSolution
from dicelab.pig.turns import GOAL

__all__ = ["exploitability", "Equilibrium", "solve_equilibrium"]


def _response_values(strategy, tie) -> np.ndarray:
    """A's values when A best-responds to an opponent who holds at ``k`` with probability
    ``strategy[i, j, k-1]`` in state ``(i, j)``."""
    goal = strategy.shape[0]
    W = _kernels.padded_values(goal, tie)
    _kernels.response_sweep(goal, hold_table(goal), W, *sparse(strategy))
    return W[:goal, :goal].copy()


@validated(tie=TIE_ARG, example={"policy": np.full((3, 3, 3), 1 / 3), "opponent": np.full((3, 3, 3), 1 / 3)})
def exploitability(policy, opponent, *, tie=0.5) -> float:
    """How much a best response gains against a pair of mixed hold-at-k strategies, at worst.

    Each player's exact best response to the other's strategy (an MDP: one reverse sweep, as
    :func:`~dicelab.pig.solve_best_response`) gives A's value ``hi[i, j]`` when A best-responds and
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
    policy = check_strategy("policy", policy)
    opponent = check_strategy("opponent", opponent, policy.shape[0])
    goal = policy.shape[0]
    steps = 2 * float(goal) ** 3 * (2 + np.log2(goal))  # two best responses to mixed strategies
    check_size("policy's goal", goal, goal, memory=40.0 * goal**3, steps=steps, what="the exploitability")
    hi = _response_values(opponent, tie)
    lo = 1.0 - _response_values(policy.transpose(1, 0, 2), 1.0 - tie).T
    return float((hi - lo).max())


@dataclass(frozen=True, eq=False)
class Equilibrium(PigSolution):
    """Result of :func:`solve_equilibrium` or :func:`~dicelab.pig.solve_svima`: values and strategies
    for ``i, j < goal``.

    ``values[i, j]``: A's winning probability. ``policy[i, j, k-1]``: A's probability of
    holding at ``k`` in state ``(i, j)``; ``opponent[i, j, k-1]``: B's probability of holding
    at ``k`` in that state (B on ``j`` points). ``pure[i, j]``: whether the stage game has a
    pure saddle point. ``margin[i, j]``: for a state solved by a pure saddle point, the least
    amount by which another action falls short of it; for a mixed state, the pure minimax
    minus the pure maximin of its stage game (NaN for :func:`~dicelab.pig.solve_svima`). ``n_exact``: states
    whose pure/mixed decision was made in exact arithmetic. ``exploitability``: the certificate
    of :func:`exploitability`. ``iterations``: the most rounds (double oracle) or Newton steps
    (SVIMA) any state needed.

    >>> eq = solve_equilibrium(goal=3)
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
            smallest such value on ties); for :func:`~dicelab.pig.solve_svima`, A's pure policy.
        """
        return Policy(self.policy.argmax(axis=2) + 1)

    def most_likely_opponent_policy(self) -> Policy:
        """B's most likely hold value in each state, as a policy on B's own states.

        Returns
        -------
        Policy
            ``[j, i]``: B on ``j`` points, A on ``i`` (``opponent`` transposed to B's seat).

        >>> from dicelab.pig import solve_svima
        >>> sv = solve_svima(goal=4)
        >>> sv.most_likely_opponent_policy().table.T.tolist() == (sv.opponent.argmax(axis=2) + 1).tolist()
        True
        """
        return Policy((self.opponent.argmax(axis=2) + 1).T)


def _state_order(goal: int, symmetric: bool) -> np.ndarray:
    """States in reverse order (``i`` then ``j`` descending); only ``j >= i`` if ``symmetric``."""
    return np.array(
        [(i, j) for i in range(goal - 1, -1, -1) for j in range(goal - 1, (i if symmetric else 0) - 1, -1)],
        dtype=np.int64,
    ).reshape(-1, 2)


def _twins(goal: int) -> np.ndarray:
    """``twin[k-1]``: the least hold value whose turn total has the same distribution as ``X_k``."""
    first = {}
    support = (tuple((x, p) for x, p in hold(k) if p) for k in range(1, goal + 1))
    return np.array([first.setdefault(dist, k) for k, dist in enumerate(support)], dtype=np.int64)


_U = 2.0**-53
"""The unit roundoff of float64."""


def _margin_error_bound(T, values, kernel, row, col, tol: float) -> np.ndarray:
    """For every state, a bound below which its float ``margin`` cannot decide the state.

    The decision to reproduce is the exact one of :func:`~dicelab.pig.reference.exact_pure_bounds`
    on the *exact* stage game ``A_e + C_e p`` built from the same float values of the later
    states; the floats have ``A_f``, ``C_f = fl(z_k z_k')`` and the state's value ``p_f``. Let
    ``u = 2^-53``.

    *Entries.* ``T`` is correctly rounded (``|T_f - T| <= u T``). ``stage_matrix`` forms each
    ``H`` and each ``A`` entry as a sum of 7 non-negative products with weights summing to 1, of
    values in ``[0, 1]``, so (the standard bound ``gamma_n = n u / (1 - n u)`` for a sum of
    products, with one more ``u`` for ``T``) ``|H_f - H_e| <= gamma_8`` and
    ``|A_f - A_e| <= gamma_8 + u + gamma_8 (1 + gamma_7) < 20 u``. An entry of ``M(p) = A + C p``
    at a float ``p`` in ``[0, 1]`` is formed with ``C_f`` (``|C_f - C_e| <= 3 u``) and two more
    roundings: ``|M_f(p) - M_e(p)| <= delta = 32 u``.

    *A pure state* (kernel 1, saddle cell ``(r, c)``, ``p_f = fl(A_f[r, c] / fl(1 - C_f[r, c]))``).
    Its margin is the least of ``M_f(p_f)[r, c'] - p_f`` and ``p_f - M_f(p_f)[r', c]`` over the
    actions not identical to ``c``, ``r``, each rounded once more (``u``). The exact stage game
    has the candidate value ``p_e = A_e[r, c] / (1 - C_e[r, c])``, and ``(r, c)`` is a saddle
    point of ``M_e(p_e)`` (so ``p_e`` is both pure fixed points, and the state is pure) if every
    ``M_e(p_e)[r, c'] - p_e = (M_e(p_f)[r, c'] - p_f) - (1 - C_e[r, c']) (p_e - p_f)`` is
    ``>= 0``, and likewise for the rows. Since ``p_e - p_f = (M_e(p_f)[r, c] - p_f) / (1 - C_e[r, c])``,
    ``|A_f[r, c] - (1 - C_f[r, c]) p_f| <= 3 u`` (a subtraction and a division) and
    ``|M_e(p_f)[r, c] - p_f| <= 20 u + 3 u + 3 u``, ``|p_e - p_f| <= (4 u + delta) / (1 - C_e[r, c])``:
    the state is pure whenever ``margin > delta + u + (4 u + delta) / (1 - C[r, c])``.

    *A mixed state* (kernel of size ``>= 2``). Its margin is ``gap = g - h`` with
    ``g = min_c max_r M_f(p_f) - p_f`` and ``h = max_r min_c M_f(p_f) - p_f``; min and max are
    1-Lipschitz, so the exact ``g_e``, ``h_e`` (on ``M_e(p_f)``) are within ``delta + u`` of
    them. The pure fixed points solve ``p = f(p)`` for ``f`` the pure minimax (``p_hi``) or
    maximin (``p_lo``) of ``M_e(p)``; each ``f`` is non-decreasing with slope at most
    ``c_max = max C_e < 1`` on the stage game, so ``p_hi - p_f`` is ``g_e / s`` and ``p_lo - p_f``
    is ``h_e / s'`` for some ``s, s'`` in ``[1 - c_max, 1]``. The double oracle stopped with no
    action gaining more than ``tol`` against the kernel strategies, so the value of
    ``M_f(p_f)`` is within ``tol + 32 u`` of ``p_f`` (payoffs are sums of at most 12 rounded
    products, and the weights sum to 1 up to ``12 u``), and ``rho = val M_e(p_f) - p_f`` is
    within ``rho_max = tol + 32 u + delta`` of 0; ``h_e <= rho <= g_e``. If
    ``h_e <= 0 <= g_e``, ``p_hi - p_lo >= g_e - h_e``; if
    ``g_e < 0`` (then ``h_e < g_e < 0``), ``p_hi - p_lo >= g_e / (1 - c_max) - h_e
    >= g_e - h_e - rho_max c_max / (1 - c_max)``, and symmetrically for ``h_e > 0``. So
    ``p_lo < p_hi`` (the state needs mixing) whenever
    ``margin > 2 (delta + u) + rho_max c_max / (1 - c_max)``.

    Values outside ``[0, 1]`` (rounding) scale ``delta`` by their largest size ``wmax``.
    Returns the bound for each state's kind (``inf`` for a saddle cell with ``C = 1``); a
    mixed state whose margin is not positive is never a float decision.
    ``tests/test_pig.py`` checks the float decisions against exact arithmetic.
    """
    goal = kernel.shape[0]
    u = _U
    delta = 32 * u * max(1.0, float(np.abs(values).max()))
    z = T[1 : goal + 1, 0]
    zmax = np.maximum.accumulate(z) * (1 + 4 * u)  # C_e <= fl(z z') (1 + 3 u)
    k = np.arange(goal)
    c_max = np.minimum(np.outer(zmax[goal - 1 - k], zmax[goal - 1 - k]), 1.0)
    r, c = row.argmax(axis=2), col.argmax(axis=2)
    c_rc = np.minimum(z[r] * z[c] * (1 + 4 * u), 1.0)
    with np.errstate(divide="ignore"):
        pure = delta + u + (4 * u + delta) / (1 - c_rc)
        rho_max = tol + 32 * u + delta
        mixed = 2 * (delta + u) + rho_max * c_max / (1 - c_max)
    return np.where(kernel == 1, pure, mixed)


@validated(
    goal=GOAL_ARG, tie=TIE_ARG, tol=TOL_ARG, max_iter=BUDGET_ARG, exact_band=Real(0, 1), example={"goal": 6}
)
def solve_equilibrium(
    goal: int = GOAL, *, tie=0.5, tol: float = 1e-14, max_iter: int = 200, exact_band: float = 0.0
) -> Equilibrium:
    """The equilibrium of two-player simultaneous Pig as a zero-sum stochastic game, certified.

    States are solved in reverse order; each state's value is the fixed point of its stage
    game, solved by :func:`~dicelab.pig.stage_game_value` (closed forms on the equilibrium's support: a
    pure saddle point, or a ``2 x 2`` kernel whose value solves a quadratic). With ties worth
    1/2 the game is symmetric, ``p(j, i) = 1 - p(i, j)``: only ``i <= j`` is solved and the
    mirror state gets ``1 - p`` and the strategies swapped.

    The rule for mixing: a state needs mixing when its stage game at the state's value has no
    pure saddle point. The float solution decides a state when its ``margin`` from the other
    kind exceeds a rigorous bound on the rounding error of the margin
    (:func:`_margin_error_bound`: a few units of ``2**-53``, larger where the players may
    hold at values that almost surely end in a 1); the other states, and those whose margin
    is below ``exact_band``, are decided in exact ``Fraction`` arithmetic
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
        States whose margin is below it are also classified in exact arithmetic, in
        ``[0, 1]`` (0: only those the error bound cannot decide). The number of exact
        decisions is known only after the float sweep, and a goal whose exact decisions
        would exceed the time budget is refused then.

    Returns
    -------
    Equilibrium
        Values, both players' mixed strategies, which states are pure, their margins, and
        the exploitability of the strategies.

    >>> eq = solve_equilibrium(goal=6)
    >>> abs(eq.value - 0.5) < 1e-15, float(abs(eq.values + eq.values.T - 1).max()) < 1e-15
    (True, True)
    >>> eq.exploitability < 1e-14
    True
    """
    check_size(  # steps: the stage games' goal^4 / 2 entries, a few a step (timed in benchmarks/budgets.py)
        "goal", goal, goal, memory=STRATEGIES_BYTES * goal**3, steps=goal**4 / 6, what="the equilibrium"
    )
    symmetric = tie == 0.5
    T = hold_table(goal)
    W = _kernels.padded_values(goal, tie)
    row, col = np.zeros((goal, goal, goal)), np.zeros((goal, goal, goal))
    margin, kernel = np.zeros((goal, goal)), np.zeros((goal, goal), dtype=np.int64)
    order = _state_order(goal, symmetric)
    status, where, rounds, excess = _stage.equilibrium_sweep(
        goal, T, W, order, symmetric, _twins(goal), tol, max_iter, row, col, margin, kernel
    )
    if status:
        raise solve_failure(status, tuple(int(v) for v in order[where]), excess, tol, max_iter)
    values = W[:goal, :goal].copy()
    pure = (kernel == 1) | (margin <= 0)
    bound = _margin_error_bound(T, values, kernel, row, col, tol)
    close = [(i, j) for i, j in order if not (margin[i, j] > bound[i, j] and margin[i, j] >= exact_band)]
    steps = BOUNDS_STEPS * sum(float(goal - i) * (goal - j) for i, j in close)
    check_cost("goal", goal, steps=steps, what=f"deciding {len(close)} states in exact fractions")
    exact_values = values.astype(object)
    for i, j in close:  # decided exactly: a pure saddle point exists iff the pure bounds meet
        lower, upper = pure_bounds(exact_values, int(i), int(j), Fraction(tie))
        pure[i, j] = lower == upper
        if symmetric:
            pure[j, i] = pure[i, j]
    n_exact = len({(i, j) for i, j in close} | ({(j, i) for i, j in close} if symmetric else set()))
    certificate = exploitability(row, col, tie=tie)
    return Equilibrium(goal, values, row, rounds, True, col, pure, margin, n_exact, certificate)
