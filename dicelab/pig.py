"""Simultaneous Pig: hold-at-k turns, best responses for two and three players, sequential Pig.

Serves ``simultaneous-pig.txt`` and notebook ``03_simultaneous_pig.ipynb``.

The game
--------
Every player rolls one die at the same time, turn after turn. Within a turn a player
keeps rolling until holding; a 1 wipes the turn total out. When every player has held
or rolled a 1, the turn ends and the turn totals are banked. The first to reach
``goal`` (100) wins; if ``m`` players reach it in the same turn, each gets ``1/m``.

Notation (the paper's)
----------------------
``X_k``
    the turn total of a player who holds at ``k`` (rolls until the total is at
    least ``k``): ``0`` after a 1, otherwise one of ``k, ..., k+5``.
``p(i, j)``
    player A's probability of winning from the start of a turn with A on ``i``
    and B on ``j`` points (ties at the goal worth ``tie``, 1/2 by default).
policy
    an integer array ``policy[own, other]`` of hold values, ``1 <= k <= goal - own``;
    for three players an opponent is a *simple* strategy, ``policy[own]``.

Exactness: the distributions of ``X_k`` are exact fractions; the best responses
are float64, solved in one reverse sweep (scores never decrease; the only way back
to a state is both players scoring 0, a self-loop with a closed form). Small goals
are solved in exact fractions too (:func:`best_response_exact`), for the tests.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

import numpy as np
from numba import njit

from dicelab._checks import check_int

__all__ = [
    "GOAL",
    "hold_distribution",
    "hold_table",
    "HoldAt",
    "check_policy",
    "BestResponse",
    "best_response",
    "best_response_exact",
    "value_iteration",
    "win_probability",
    "best_response_3p",
    "full_best_response",
    "SequentialSolution",
    "sequential_optimal",
]

GOAL = 100


def _check_goal(goal) -> int:
    return check_int("goal", goal, 1)


def _check_tie(tie) -> float:
    try:
        value = float(tie)
    except (TypeError, ValueError):
        raise ValueError(f"tie must be a number in [0, 1], got {tie!r}") from None
    if not 0.0 <= value <= 1.0:
        raise ValueError(f"tie must be in [0, 1], got {tie!r}")
    return value


# --------------------------------------------------------------------------- hold at k


@cache
def _hold(k: int) -> tuple[tuple[int, Fraction], ...]:
    if k == 1:
        dist = {0: Fraction(1, 6), 1: Fraction(0)} | {x: Fraction(1, 6) for x in range(2, 7)}
    else:
        prev = dict(_hold(k - 1))
        base = prev.get(k - 1, Fraction(0))  # P(X_{k-1} = k-1): the player must roll again
        dist = {0: prev[0] + base / 6}
        dist[k] = prev.get(k, Fraction(0))
        for x in range(k + 1, k + 4 + 1):
            dist[x] = prev.get(x, Fraction(0)) + base / 6
        dist[k + 5] = base / 6  # the paper prints (1/6) P_{X_k}(i) here; it must be P_{X_k}(k)
    return tuple(sorted(dist.items()))


def hold_distribution(k: int) -> dict[int, Fraction]:
    """The exact distribution of ``X_k``, the turn total when holding at ``k`` (Table 1 recursion).

    Keys ``0, k, k+1, ..., k+5`` (``P(X_1 = 1) = 0`` is kept, as in the paper).
    The recursion: ``X_{k+1}`` equals ``X_k`` unless ``X_k = k``, in which case one
    more roll gives ``0`` or ``k+2 .. k+6`` with probability 1/6 each.
    """
    k = check_int("k", k, 1)
    return dict(_hold(k))


@cache
def _hold_table_cached(goal: int) -> np.ndarray:
    table = np.zeros((goal + 1, goal + 6))
    for k in range(1, goal + 1):
        for x, p in _hold(k):
            table[k, x] = float(p)
    return table


def hold_table(goal: int = GOAL) -> np.ndarray:
    """``T[k, x] = P(X_k = x)`` as floats, for ``k = 1..goal`` (row 0 unused)."""
    return _hold_table_cached(_check_goal(goal)).copy()


def HoldAt(n: int, goal: int = GOAL, *, cap: bool = True, players: int = 2) -> np.ndarray:  # noqa: N802
    """The "hold at n" policy as an array of hold values.

    With ``cap`` (the paper's rule) a player who needs fewer than ``n`` points holds
    at ``goal - own`` instead; without it the player holds at ``n`` regardless.
    Shape ``(goal, goal)`` indexed ``[own, other]`` for two players, ``(goal,)``
    indexed ``[own]`` (a simple strategy) for use as a three-player opponent.
    """
    goal = _check_goal(goal)
    n = check_int("n", n, 1)
    players = check_int("players", players, 2, 3)
    own = np.arange(goal)
    hold = np.minimum(n, goal - own) if cap else np.full(goal, n)
    if not cap and n > goal:
        raise ValueError(f"n must be at most goal ({goal}) without capping, got {n}")
    hold = hold.astype(np.int64)
    return hold if players == 3 else np.repeat(hold[:, None], goal, axis=1)


def check_policy(policy, goal: int = GOAL, *, simple: bool = False) -> np.ndarray:
    """Validate a policy array: integer hold values in ``1..goal`` of the right shape."""
    goal = _check_goal(goal)
    arr = np.asarray(policy)
    shape = (goal,) if simple else (goal, goal)
    if arr.shape != shape:
        raise ValueError(f"policy must have shape {shape} for goal {goal}, got {arr.shape}")
    if not np.issubdtype(arr.dtype, np.integer):
        raise ValueError(f"policy must hold integer hold values, got dtype {arr.dtype}")
    if arr.min() < 1 or arr.max() > goal:
        raise ValueError(f"hold values must be in 1..{goal}, got {arr.min()}..{arr.max()}")
    return arr.astype(np.int64)


# --------------------------------------------------------------------------- two players


@dataclass(frozen=True)
class BestResponse:
    """Player A's best hold-at-k response: ``policy[i, j]`` and ``win[i, j]`` for ``i, j < goal``."""

    goal: int
    policy: np.ndarray
    win: np.ndarray
    iterations: int = 1

    @property
    def value(self) -> float:
        """A's winning probability from the start, ``p(0, 0)``."""
        return float(self.win[0, 0])


@njit(cache=True)
def _terminal(i, j, goal, tie):
    if i >= goal:
        return tie if j >= goal else 1.0
    return 0.0


@njit(cache=True)
def _turn_outcomes(i, j, kb, goal, T, win, tie, G):
    """Fill ``G[x]`` (A ends the turn with ``x > 0`` points) over B's outcomes when B holds at
    ``kb``; return the value when A scores 0 and B scores, the self-loop left out."""
    for x in range(1, goal - i + 6):
        g = 0.0
        for b in range(kb + 6):
            pb = T[kb, b]
            if pb == 0.0:
                continue
            i2, j2 = i + x, j + b
            g += pb * (_terminal(i2, j2, goal, tie) if (i2 >= goal or j2 >= goal) else win[i2, j2])
        G[x] = g
    g0 = 0.0
    for b in range(1, kb + 6):
        pb = T[kb, b]
        if pb == 0.0:
            continue
        g0 += pb * (0.0 if j + b >= goal else win[i, j + b])
    return g0


@njit(cache=True)
def _br2_kernel(goal, T, opp, tie):
    """One reverse sweep: states by decreasing scores; the self-loop solved per action."""
    win = np.zeros((goal, goal))
    pol = np.zeros((goal, goal), dtype=np.int64)
    G = np.zeros(goal + 6)
    for i in range(goal - 1, -1, -1):
        for j in range(goal - 1, -1, -1):
            kb = opp[j, i]
            g0 = _turn_outcomes(i, j, kb, goal, T, win, tie, G)
            best = -1.0
            best_k = 1
            for k in range(1, goal - i + 1):
                a = T[k, 0] * g0
                for r in range(6):
                    a += T[k, k + r] * G[k + r]
                c = T[k, 0] * T[kb, 0]
                v = a / (1.0 - c)
                if v > best:
                    best = v
                    best_k = k
            win[i, j] = best
            pol[i, j] = best_k
    return win, pol


def best_response(opponent, goal: int = GOAL, *, tie=0.5) -> BestResponse:
    """Player A's optimal hold-at-k policy against a fixed opponent policy (two players).

    Solved exactly (in float64) in one reverse sweep: a turn never lowers a score,
    so every state depends only on states with higher scores and on itself, through
    the turn in which both players score 0. For a fixed opponent action that
    self-loop makes ``q_k = a_k + c_k p``, so ``p = max_k a_k / (1 - c_k)``.
    ``tie`` is A's reward when both reach the goal in the same turn (1/2: shared).
    """
    goal = _check_goal(goal)
    opp = check_policy(opponent, goal)
    win, pol = _br2_kernel(goal, _hold_table_cached(goal), opp, _check_tie(tie))
    return BestResponse(goal, pol, win)


def best_response_exact(opponent, goal: int, *, tie=Fraction(1, 2)) -> BestResponse:
    """The same best response in exact fractions (pure Python: for small goals, e.g. tests)."""
    goal = _check_goal(goal)
    opp = check_policy(opponent, goal)
    tie = Fraction(tie)
    if not 0 <= tie <= 1:
        raise ValueError(f"tie must be in [0, 1], got {tie}")
    dist = {k: dict(_hold(k)) for k in range(1, goal + 1)}
    win: dict = {}

    def value(i, j):
        if i >= goal:
            return tie if j >= goal else Fraction(1)
        if j >= goal:
            return Fraction(0)
        return win[i, j]

    pol = np.zeros((goal, goal), dtype=np.int64)
    for i in range(goal - 1, -1, -1):
        for j in range(goal - 1, -1, -1):
            B = dist[int(opp[j, i])]
            best = best_k = None
            for k in range(1, goal - i + 1):
                A = dist[k]
                a = sum(
                    (pa * pb * value(i + x, j + b) for x, pa in A.items() for b, pb in B.items() if x or b),
                    Fraction(0),
                )
                v = a / (1 - A[0] * B[0])
                if best is None or v > best:
                    best, best_k = v, k
            win[i, j], pol[i, j] = best, best_k
    arr = np.empty((goal, goal), dtype=object)
    for (i, j), v in win.items():
        arr[i, j] = v
    return BestResponse(goal, pol, arr)


@njit(cache=True)
def _continuation(i, j, k, kb, goal, T, win, tie, with_self_loop):
    """Expected value after one turn in which A holds at ``k`` and B at ``kb``; the turn in
    which both score 0 counts ``win[i, j]`` if ``with_self_loop``, else nothing."""
    q = 0.0
    for x in range(k + 6):
        pa = T[k, x]
        if pa == 0.0:
            continue
        for b in range(kb + 6):
            pb = T[kb, b]
            if pb == 0.0 or (x == 0 and b == 0 and not with_self_loop):
                continue
            i2, j2 = i + x, j + b
            q += pa * pb * (_terminal(i2, j2, goal, tie) if (i2 >= goal or j2 >= goal) else win[i2, j2])
    return q


@njit(cache=True)
def _vi_sweep(goal, T, opp, tie, win, pol):
    """One Gauss-Seidel sweep of value iteration over i, then j, ascending; returns the largest change.

    A's greedy values replace ``win`` in place and its actions go to ``pol``. B plays
    ``opp[j, i]``. Passing the same array as ``opp`` and ``pol`` gives the paper's symmetric
    iteration: A's new action at (i, j) is B's action at (j, i) for the states that follow.
    """
    delta = 0.0
    for i in range(goal):
        for j in range(goal):
            kb = opp[j, i]
            best = -1.0
            best_k = 1
            for k in range(1, goal - i + 1):
                q = _continuation(i, j, k, kb, goal, T, win, tie, True)
                if q > best:
                    best = q
                    best_k = k
            delta = max(delta, abs(best - win[i, j]))
            win[i, j] = best
            pol[i, j] = best_k
    return delta


def value_iteration(opponent, goal: int = GOAL, *, tie=0.5, tol: float = 1e-12, max_iter: int = 10_000):
    """The paper's Algorithm 0.1: sweep every state with ``p <- max_k q(i, j, k)`` until the
    largest change is below ``tol``. Kept to compare with :func:`best_response`."""
    goal = _check_goal(goal)
    opp = check_policy(opponent, goal)
    check_int("max_iter", max_iter, 1)
    T = _hold_table_cached(goal)
    win = np.zeros((goal, goal))
    pol = np.zeros((goal, goal), dtype=np.int64)
    for it in range(1, max_iter + 1):
        delta = _vi_sweep(goal, T, opp, _check_tie(tie), win, pol)
        if delta < tol:
            return BestResponse(goal, pol, win, it)
    raise RuntimeError(f"value iteration did not reach tol={tol} in {max_iter} sweeps")


@njit(cache=True)
def _evaluate_kernel(goal, T, pa_pol, pb_pol, tie):
    win = np.zeros((goal, goal))
    for i in range(goal - 1, -1, -1):
        for j in range(goal - 1, -1, -1):
            k, kb = pa_pol[i, j], pb_pol[j, i]
            a = _continuation(i, j, k, kb, goal, T, win, tie, False)
            win[i, j] = a / (1.0 - T[k, 0] * T[kb, 0])
    return win


def win_probability(policy_a, policy_b, goal: int = GOAL, *, tie=0.5) -> np.ndarray:
    """A's winning probability ``p[i, j]`` when A plays ``policy_a`` and B plays ``policy_b``."""
    goal = _check_goal(goal)
    return _evaluate_kernel(
        goal,
        _hold_table_cached(goal),
        check_policy(policy_a, goal),
        check_policy(policy_b, goal),
        _check_tie(tie),
    )


@njit(cache=True)
def _full_br_kernel(goal, T, opp, tie):
    """Best response that may hold at any turn total: optimal stopping within the turn."""
    win = np.zeros((goal, goal))
    V = np.zeros(goal + 6)
    G = np.zeros(goal + 6)
    for i in range(goal - 1, -1, -1):
        for j in range(goal - 1, -1, -1):
            kb = opp[j, i]
            g0 = _turn_outcomes(i, j, kb, goal, T, win, tie, G)
            v = 0.0
            for _ in range(200):  # v = V(0; v): a contraction (both must score 0 to come back)
                bust = g0 + T[kb, 0] * v
                for t in range(goal - i + 5, 0, -1):
                    if i + t >= goal:
                        V[t] = G[t]
                        continue
                    roll = bust / 6.0
                    for r in range(2, 7):
                        roll += V[t + r] / 6.0 if t + r < goal - i + 6 else G[goal - i] / 6.0
                    V[t] = max(G[t], roll)
                new = bust / 6.0
                for r in range(2, 7):
                    new += V[r] / 6.0
                if abs(new - v) < 1e-15:
                    v = new
                    break
                v = new
            win[i, j] = v
    return win


def full_best_response(opponent, goal: int = GOAL, *, tie=0.5) -> np.ndarray:
    """A's best response when A may hold at *any* turn total (not only "hold at k").

    Within a turn A sees only its own rolls, so its choice is an optimal stopping
    problem on its turn total, against the distribution of B's turn. Returns the
    winning probabilities ``p[i, j]``; compare with :func:`best_response`.
    """
    goal = _check_goal(goal)
    return _full_br_kernel(goal, _hold_table_cached(goal), check_policy(opponent, goal), _check_tie(tie))


# --------------------------------------------------------------------------- three players


@njit(cache=True)
def _br3_kernel(goal, T, o1, o2):
    """A against two simple opponents (hold values by own score): one reverse sweep.

    ``agg[i, j1, j2] = sum_b2 P(B2 scores b2) p(i, j1, j2 + b2)`` is kept for every
    finished row, so A's outcomes need only B1's outcomes on top (7 terms, not 49)."""
    win = np.zeros((goal, goal, goal))
    agg = np.zeros((goal, goal, goal))
    G = np.zeros(goal + 6)
    for i in range(goal - 1, -1, -1):
        for j1 in range(goal - 1, -1, -1):
            k1 = o1[j1]
            q1 = 0.0  # P(B1 reaches the goal this turn)
            for b in range(k1, k1 + 6):
                if j1 + b >= goal:
                    q1 += T[k1, b]
            for j2 in range(goal - 1, -1, -1):
                k2 = o2[j2]
                q2 = 0.0
                for b in range(k2, k2 + 6):
                    if j2 + b >= goal:
                        q2 += T[k2, b]
                # A reaches the goal: 1/m for m winners
                w_goal = (1 - q1) * (1 - q2) + (q1 * (1 - q2) + q2 * (1 - q1)) / 2 + q1 * q2 / 3
                for x in range(1, goal - i + 6):
                    if i + x >= goal:
                        G[x] = w_goal
                        continue
                    g = 0.0
                    for b1 in range(k1 + 6):
                        p1 = T[k1, b1]
                        if p1 == 0.0 or j1 + b1 >= goal:
                            continue
                        g += p1 * agg[i + x, j1 + b1, j2]
                    G[x] = g
                g0 = 0.0  # A busts; the self-loop (all three score 0) is left out
                for b1 in range(k1 + 6):
                    p1 = T[k1, b1]
                    if p1 == 0.0 or j1 + b1 >= goal:
                        continue
                    if b1 > 0:
                        g0 += p1 * agg[i, j1 + b1, j2]
                    else:
                        for b2 in range(1, k2 + 6):
                            p2 = T[k2, b2]
                            if p2 == 0.0 or j2 + b2 >= goal:
                                continue
                            g0 += p1 * p2 * win[i, j1, j2 + b2]
                best = -1.0
                for k in range(1, goal - i + 1):
                    a = T[k, 0] * g0
                    for r in range(6):
                        a += T[k, k + r] * G[k + r]
                    v = a / (1.0 - T[k, 0] * T[k1, 0] * T[k2, 0])
                    if v > best:
                        best = v
                win[i, j1, j2] = best
            for j2 in range(goal):  # row (i, j1) is finished: aggregate over B2
                k2 = o2[j2]
                s = 0.0
                for b2 in range(k2 + 6):
                    p2 = T[k2, b2]
                    if p2 == 0.0 or j2 + b2 >= goal:
                        continue
                    s += p2 * win[i, j1, j2 + b2]
                agg[i, j1, j2] = s
    return win


def best_response_3p(opponent1, opponent2, goal: int = GOAL) -> np.ndarray:
    """A's best hold-at-k response against two opponents with simple strategies (three players).

    Opponents are arrays of hold values by their own score (``HoldAt(n, players=3)``),
    as in the paper's Section "Three players with independent strategies". Winners
    at the goal share 1/m. Returns ``p[i, j1, j2]``; A's chance from the start is ``p[0, 0, 0]``.
    """
    goal = _check_goal(goal)
    o1 = check_policy(opponent1, goal, simple=True)
    o2 = check_policy(opponent2, goal, simple=True)
    return _br3_kernel(goal, _hold_table_cached(goal), o1, o2)


def best_response_3p_exact(opponent1, opponent2, goal: int) -> dict:
    """The three-player best response in exact fractions, directly over all 49 opponent
    outcomes (pure Python: small goals, for the tests). Returns ``{(i, j1, j2): p}``."""
    goal = _check_goal(goal)
    o1 = check_policy(opponent1, goal, simple=True)
    o2 = check_policy(opponent2, goal, simple=True)
    dist = {k: dict(_hold(k)) for k in range(1, goal + 1)}
    win: dict = {}

    def value(i, j1, j2):
        if i >= goal:
            return Fraction(1, 1 + (j1 >= goal) + (j2 >= goal))
        if j1 >= goal or j2 >= goal:
            return Fraction(0)
        return win[i, j1, j2]

    for i in range(goal - 1, -1, -1):
        for j1 in range(goal - 1, -1, -1):
            for j2 in range(goal - 1, -1, -1):
                B1, B2 = dist[int(o1[j1])], dist[int(o2[j2])]
                best = None
                for k in range(1, goal - i + 1):
                    A = dist[k]
                    a = sum(
                        (
                            pa * p1 * p2 * value(i + x, j1 + b1, j2 + b2)
                            for x, pa in A.items()
                            for b1, p1 in B1.items()
                            for b2, p2 in B2.items()
                            if x or b1 or b2
                        ),
                        Fraction(0),
                    )
                    v = a / (1 - A[0] * B1[0] * B2[0])
                    best = v if best is None or v > best else best
                win[i, j1, j2] = best
    return win


__all__.append("best_response_3p_exact")

# --------------------------------------------------------------------------- sequential Pig


@dataclass(frozen=True)
class SequentialSolution:
    """Optimal play of classic (turn-taking) Pig: ``win[i, j, t]`` for the player to move with
    ``i`` points, the opponent ``j``, turn total ``t``; ``roll[i, j, t]`` whether to roll."""

    goal: int
    win: np.ndarray
    roll: np.ndarray

    @property
    def first_player(self) -> float:
        return float(self.win[0, 0, 0])

    def hold_at(self, i: int, j: int) -> int:
        """The smallest turn total at which the optimal player holds, from (i, j)."""
        for t in range(1, self.goal - i + 1):
            if not self.roll[i, j, t]:
                return t
        return self.goal - i


@njit(cache=True)
def _turn(i, j, goal, x, win, roll, hold_opp):
    """Fill win[i, j, :] given x = win[j, i, 0] (the opponent's start after a 1 or a hold at 0)."""
    for t in range(goal - i - 1, -1, -1):
        r_val = (1.0 - x) / 6.0
        for r in range(2, 7):
            r_val += (1.0 if i + t + r >= goal else win[i, j, t + r]) / 6.0
        h_val = 1.0 - (x if t == 0 else hold_opp[t])
        if r_val >= h_val:
            win[i, j, t] = r_val
            roll[i, j, t] = True
        else:
            win[i, j, t] = h_val
            roll[i, j, t] = False
    return win[i, j, 0]


@njit(cache=True)
def _sequential_kernel(goal, tol):
    win = np.zeros((goal, goal, goal))
    roll = np.zeros((goal, goal, goal), dtype=np.bool_)
    hold_i = np.zeros(goal + 1)
    hold_j = np.zeros(goal + 1)
    for s in range(2 * goal - 2, -1, -1):
        for i in range(max(0, s - goal + 1), min(goal - 1, s) + 1):
            j = s - i
            if i > j:
                continue
            # holding at t hands the opponent the state (j, i + t): already solved (higher sum)
            for t in range(1, goal - i):
                hold_i[t] = win[j, i + t, 0]
            for t in range(1, goal - j):
                hold_j[t] = win[i, j + t, 0]
            y = 0.5  # win[j, i, 0], iterated to the pair's fixed point
            for _ in range(10_000):
                x = _turn(i, j, goal, y, win, roll, hold_i)
                y_new = _turn(j, i, goal, x, win, roll, hold_j) if i != j else x
                if abs(y_new - y) < tol:
                    y = y_new
                    break
                y = y_new
            _turn(i, j, goal, y, win, roll, hold_i)
    return win, roll


def sequential_optimal(goal: int = GOAL, *, tol: float = 1e-13) -> SequentialSolution:
    """Classic two-player Pig (turns taken in order), optimal play may hold at any turn total.

    Value iteration as Neller and Presser describe, organised by score pairs: the
    states ``(i, j, .)`` and ``(j, i, .)`` feed each other only through the turn
    passing (a 1, or a hold at 0), so each pair is iterated to its fixed point,
    pairs in decreasing order of ``i + j``. ``first_player`` is the chance that the
    player who starts wins.
    """
    goal = _check_goal(goal)
    if not 0 < tol < 1e-3:
        raise ValueError(f"tol must be in (0, 1e-3), got {tol}")
    win, roll = _sequential_kernel(goal, tol)
    return SequentialSolution(goal, win, roll)


def one_turn_win(k: int = GOAL) -> Fraction:
    """Probability of reaching ``k`` points in a single turn when holding at ``k``: ``1 - P(X_k = 0)``."""
    return 1 - hold_distribution(k)[0]


__all__.append("one_turn_win")


def deviation_threshold() -> int:
    """The least number of players ``n`` with ``1/n`` below the one-turn chance of holding at 100."""
    p = one_turn_win(GOAL)
    return math.floor(1 / p) + 1


__all__.append("deviation_threshold")


# --------------------------------------------------------------------------- both players rational (part 2)

__all__ += ["SymmetricIteration", "symmetric_value_iteration", "Equilibrium", "equilibrium", "svima"]


@dataclass(frozen=True)
class SymmetricIteration:
    """The paper's value iteration with pi_B forced equal to pi_A.

    ``policies``: the shared policy after each sweep (``policies[0]`` the start);
    ``values``: the value array after each sweep (``values[0]`` all zero); ``period``: the period of the
    policy sequence at the end (0 if it has not settled into a cycle) and
    ``cycle_start``: the first sweep from which it repeats with that period;
    ``cycling``: boolean mask of the states whose action changes within the cycle.
    """

    policies: list
    values: np.ndarray
    cycle_start: int
    period: int
    cycling: np.ndarray

    @property
    def cycle(self) -> list:
        """The policies of one period of the cycle, in order."""
        return self.policies[self.cycle_start : self.cycle_start + self.period]


def symmetric_value_iteration(goal: int = GOAL, *, max_iter: int = 100, start: int = 25, tie=0.5):
    """The paper's symmetric value iteration: sweep with pi_A greedy and pi_B = pi_A.

    Update order: Gauss-Seidel over i ascending, then j ascending, values and policy in
    place (the paper's (47, 69) is updated before (69, 47) and uses its new action).
    Starts from hold-at-``start`` with all values 0 and runs ``max_iter`` sweeps; the
    period of the policy sequence is read from its tail (at most 10).
    """
    goal = _check_goal(goal)
    max_iter = check_int("max_iter", max_iter, 4)
    T = _hold_table_cached(goal)
    pol = HoldAt(check_int("start", start, 1), goal).copy()
    win = np.zeros((goal, goal))
    history = [pol.copy()]
    values = [win.copy()]
    for _ in range(max_iter):
        _vi_sweep(goal, T, pol, _check_tie(tie), win, pol)  # pi_B is pi_A, updated in place
        history.append(pol.copy())
        values.append(win.copy())
    n = len(history) - 1
    period = next(
        (
            q
            for q in range(1, 11)
            if n - 2 * q >= 0 and all(np.array_equal(history[n - t], history[n - t - q]) for t in range(q))
        ),
        0,
    )
    changing = np.zeros((goal, goal), dtype=bool)
    first = -1
    if period:
        first = n - period
        while first - 1 >= 0 and np.array_equal(history[first - 1], history[first - 1 + period]):
            first -= 1
        for a in history[first : first + period]:
            changing |= a != history[first]
    return SymmetricIteration(history, values, first, period, changing)


def _padded_values(goal: int, tie: float) -> np.ndarray:
    """Values on (i, j) in [0, 2 goal + 6)^2: terminal outside the board, filled inside as solved."""
    W = np.zeros((2 * goal + 6, 2 * goal + 6))
    W[goal:, :goal] = 1.0
    W[goal:, goal:] = tie
    return W


def _stage_matrices(i, j, W, T, goal):
    """Stage game at (i, j): ``q[k, k'] = A[k, k'] + C[k, k'] p(i, j)`` for A's and B's hold values."""
    X, B = goal - i + 6, goal - j + 6
    V = W[i : i + X, j : j + B].copy()
    V[0, 0] = 0.0  # both score 0: the self-loop, carried by C
    Pa, Pb = T[1 : goal - i + 1, :X], T[1 : goal - j + 1, :B]
    return Pa @ V @ Pb.T, np.outer(Pa[:, 0], Pb[:, 0])


def _fixed_point(A, C, stage):
    """Solve ``v = stage(A + C v)`` by Newton steps safeguarded with a bracket in [0, 1].

    ``stage(M)`` returns ``(value, row strategy, column strategy)``; with those strategies
    the stage value is linear in ``v``, and its fixed point is the Newton step."""
    lo, hi, v = 0.0, 1.0, 0.5
    for _ in range(200):
        value, x, y = stage(A + C * v)
        a, c = x @ A @ y, x @ C @ y
        if value > v:
            lo = max(lo, v)
        else:
            hi = min(hi, v)
        new = a / (1.0 - c)
        if not lo <= new <= hi:
            new = 0.5 * (lo + hi)
        if abs(new - v) < 1e-15 or hi - lo < 1e-15:
            return new, x, y
        v = new
    return v, x, y  # pragma: no cover - the bracket halves at worst


@dataclass(frozen=True)
class Equilibrium:
    """Result of :func:`equilibrium` or :func:`svima` (values and strategies for ``i, j < goal``).

    ``value[i, j]``: A's winning probability; ``row[i, j]`` / ``col[i, j]``: A's and B's
    strategies at that state as probability vectors over hold values ``1..`` (index 0 is
    hold-at-1); ``pure[i, j]``: whether the state has a pure saddle point; ``n_lp``: LPs solved.
    """

    goal: int
    value: np.ndarray
    row: np.ndarray
    col: np.ndarray
    pure: np.ndarray
    n_lp: int


def _sweep_stage_games(goal, tie, stage):
    T = _hold_table_cached(goal)
    W = _padded_values(goal, tie)
    row = np.zeros((goal, goal, goal))
    col = np.zeros((goal, goal, goal))
    pure = np.zeros((goal, goal), dtype=bool)
    for i in range(goal - 1, -1, -1):
        for j in range(goal - 1, -1, -1):
            A, C = _stage_matrices(i, j, W, T, goal)
            v, x, y = _fixed_point(A, C, stage)
            W[i, j] = v
            row[i, j, : x.size] = x
            col[i, j, : y.size] = y
            pure[i, j] = x.max() > 1 - 1e-12 and y.max() > 1 - 1e-12
    return W[:goal, :goal].copy(), row, col, pure


def equilibrium(goal: int = GOAL, *, tie=0.5) -> Equilibrium:
    """The exact equilibrium of two-player simultaneous Pig as a zero-sum stochastic game.

    At every state both players choose a hold value at once; the stage game is the
    matrix of continuation values, solved as an LP (HiGHS) unless it has a pure
    saddle point. States are solved in reverse order (scores never fall); the
    self-loop (both score 0) makes the stage matrix depend on the state's own value,
    a one-dimensional fixed point solved by safeguarded Newton steps.
    """
    from dicelab.games import solve_matrix_game

    goal = _check_goal(goal)
    counter = [0]

    def stage(M):
        sol = solve_matrix_game(M)
        counter[0] += not sol.pure
        return sol.value, sol.row, sol.col

    value, row, col, pure = _sweep_stage_games(goal, _check_tie(tie), stage)
    return Equilibrium(goal, value, row, col, pure, counter[0])


def svima(goal: int = GOAL, *, tie=0.5) -> Equilibrium:
    """The paper's Stackelberg value iteration (Algorithm 0.2), state by state.

    B leads: for each of B's hold values A best-responds, and B picks the one that
    leaves A least, ``p = min_k' max_k q(k, k')`` (pure strategies). The value
    iteration's fixed point is computed directly in one reverse sweep.
    """
    goal = _check_goal(goal)

    def stage(M):
        best_rows = M.argmax(axis=0)  # A's best reply to each of B's actions
        kb = int(M.max(axis=0).argmin())
        ka = int(best_rows[kb])
        return float(M[ka, kb]), np.eye(M.shape[0])[ka], np.eye(M.shape[1])[kb]

    value, row, col, pure = _sweep_stage_games(goal, _check_tie(tie), stage)
    return Equilibrium(goal, value, row, col, pure, 0)
