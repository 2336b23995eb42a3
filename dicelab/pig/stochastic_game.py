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
* :func:`svima` lets B lead and A follow, in pure strategies (the paper's SVIMA);
* :func:`symmetric_value_iteration` is the paper's value iteration with ``pi_B = pi_A``,
  which cycles instead of converging.

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

from dicelab._checks import check_array, check_cost, check_float, check_int
from dicelab.games import MatrixGameSolution, _check_matrix
from dicelab.pig import _kernels, _stage
from dicelab.pig.policy import Policy, hold_at
from dicelab.pig.reference import _BOUNDS_STEPS, _pure_bounds
from dicelab.pig.solution import NotConverged, Solution, _check_budget, _check_size, _check_tie, _check_tol
from dicelab.pig.turns import GOAL, _check_goal, _hold, _hold_table

__all__ = [
    "stage_game",
    "solve_stage_game",
    "exploitability",
    "Equilibrium",
    "equilibrium",
    "svima",
    "SymmetricIteration",
    "symmetric_value_iteration",
]


def _padded(values, tie) -> np.ndarray:
    """``values`` inside the padded array of :func:`dicelab.pig._kernels.padded_values`."""
    goal = values.shape[0]
    W = _kernels.padded_values(goal, tie)
    W[:goal, :goal] = values
    return W


def _check_values(values) -> np.ndarray:
    """``values`` as a square ``(goal, goal)`` float array of finite numbers, within the budget."""
    values = check_array("values", values, ndim=2, square=True)
    goal = values.shape[0]
    _check_size("values' goal", goal, goal, memory=24.0 * goal**2, steps=14.0 * goal**2, what="a stage game")
    return values


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
    values = _check_values(values)
    goal = values.shape[0]
    i, j = check_int("i", i, 0, goal - 1), check_int("j", j, 0, goal - 1)
    W = _padded(values, _check_tie(tie))
    W[i, j] = 0.0  # the self-loop, carried by C
    T = _hold_table(goal)
    A = np.zeros((goal, goal))
    _stage.stage_matrix(i, j, goal, T, W, np.zeros((goal + 6, goal)), A)
    z = T[1:, 0]
    return A[: goal - i, : goal - j].copy(), np.outer(z[: goal - i], z[: goal - j])


def _rank_one(C, shape) -> tuple[np.ndarray, np.ndarray]:
    """``(z, w)`` with ``C = outer(z, w)``, ``0 <= C < 1``, or a ValueError naming ``C``."""
    C = _check_matrix(C, "C")
    if C.shape != shape:
        raise ValueError(f"C must have the shape of A, {shape}, got {C.shape}")
    if C.min() < 0 or C.max() >= 1:
        raise ValueError("C must have entries in [0, 1): probabilities of returning to the state")
    r, c = np.unravel_index(C.argmax(), C.shape)
    if C[r, c] == 0:
        return np.zeros(shape[0]), np.zeros(shape[1])
    z, w = C[:, c] / np.sqrt(C[r, c]), C[r, :] / np.sqrt(C[r, c])
    if not np.allclose(np.outer(z, w), C, rtol=1e-12, atol=1e-15):
        raise ValueError("C must be of rank one, C = outer(z, w): both players return independently")
    return z, w


def _solve_failure(status, where, excess, tol, max_iter) -> Exception:
    if status == 3:
        return NotConverged(f"the stage-game double oracle at {where}", excess, tol, max_iter)
    what = "no square kernel solves" if status == 1 else f"rounding beyond tol={tol:g} in"
    return RuntimeError(f"{what} the stage game at {where} (best reply gains {excess:.3g})")


def solve_stage_game(A, C, *, tol: float = 1e-14, max_iter: int = 200) -> MatrixGameSolution:
    """The fixed point ``p = val(A + C p)`` of a stage game, and optimal strategies there.

    Solved by a double oracle: a restricted game on a few rows and columns is solved on its
    smallest square kernel (a pure saddle point ``p = A / (1 - C)``, a ``2 x 2`` kernel in
    closed form: ``det(A + C p - p J) = 0`` is a quadratic in ``p``), and any action that does
    better against that solution in the whole game joins it.

    Parameters
    ----------
    A, C : array_like
        The stage game of :func:`stage_game`; ``C = outer(z, w)`` with entries in ``[0, 1)``.
    tol : float
        How much an action may gain against a solution before it counts as better (rounding).
    max_iter : int
        Rounds of the double oracle; :class:`~dicelab.pig.NotConverged` beyond.

    Returns
    -------
    dicelab.games.MatrixGameSolution
        ``value`` (the fixed point ``p``), ``row``/``col`` (optimal strategies of the game
        ``A + C p``), ``pure`` (solved by a pure saddle point).

    >>> sol = solve_stage_game([[0.5, 0.9], [0.8, 0.4]], np.zeros((2, 2)))
    >>> round(sol.value, 12), sol.row.round(12).tolist(), sol.pure
    (0.65, [0.5, 0.5], False)
    """
    A = _check_matrix(A, "A")
    check_cost("A", A.shape, memory=32.0 * A.size, what="a stage game's checks")
    z, w = _rank_one(C, A.shape)
    tol, max_iter = _check_tol(tol), _check_budget(max_iter)
    (na, nb), x, y = A.shape, np.zeros(A.shape[0]), np.zeros(A.shape[1])
    status, p, s, _, excess = _stage.solve_stage(A, z, w, na, nb, 0, 0, tol, max_iter, x, y)
    if status:
        raise _solve_failure(status, "A", excess, tol, max_iter)
    return MatrixGameSolution(float(p), x, y, s == 1)


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
    tol : float
        Stop a state's Newton steps when the step (or the bracket) is below ``tol``.
    max_iter : int
        Newton steps allowed per state; :class:`~dicelab.pig.NotConverged` beyond.

    Returns
    -------
    Equilibrium
        Pure strategies (one-hot rows), ``pure`` all True, ``margin`` NaN, and the
        exploitability of the two pure policies.

    >>> sv = svima(goal=6)
    >>> bool(sv.pure.all()), sv.most_likely_policy()[0, 0]
    (True, np.int64(6))
    """
    goal, tie = _check_goal(goal), _check_tie(tie)
    tol, max_iter = _check_tol(tol), _check_budget(max_iter)
    _check_size("goal", goal, goal, memory=_STRATEGIES_BYTES * goal**3, steps=goal**4 / 2, what="SVIMA")
    W = _kernels.padded_values(goal, tie)
    ka, kb = np.zeros((goal, goal), dtype=np.int64), np.zeros((goal, goal), dtype=np.int64)
    iterations, residual = _stage.svima_sweep(goal, _hold_table(goal), W, tol, max_iter, ka, kb)
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
    tie, tol, start = _check_tie(tie), _check_tol(tol), check_int("start", start, 1)
    kept = 32.0 * goal**2  # the values and policies of a sweep, kept and then stacked
    _check_size("goal", goal, goal, memory=2 * kept, steps=float(goal) ** 3, what="a sweep")
    what = f"the sweeps at goal {goal}"
    _check_size(
        "sweeps", sweeps, goal, memory=(sweeps + 1) * kept, steps=sweeps * float(goal) ** 3, what=what
    )
    T = _hold_table(goal)
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
