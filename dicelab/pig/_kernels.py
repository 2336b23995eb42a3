"""Numba kernels of :mod:`dicelab.pig`: the loops over score states behind the solvers.

Conventions shared by every kernel:

* ``T = hold_table(goal, sides)``, ``T[k, x] = P(X_k = x)``: ``X_k`` is ``0`` or one of
  ``k..k+sides-1`` (``k..k+5`` for the paper's die); the die's ``sides`` is read from the
  table's shape (:func:`sides_of`). The kernels of the two-player best responses (hold at k, and
  the within-turn stopping) and of a pair of policies take any die; the others (three players,
  classic Pig, the stage games) are written for six sides.
* ``W = padded_values(goal, tie, sides)`` holds A's values on ``(i, j)`` in ``[0, 2 goal + sides)^2``: the
  reward :func:`goal_reward` past the goal, the solved ``p(i, j)`` inside (0 until solved).
  Reverse sweeps rely on that 0: while ``(i, j)`` is being solved, the turn in which both
  players score 0 (the self-loop) contributes nothing and is solved in closed form instead.
* An opponent's turn is a list of outcomes ``bs[:m]`` with probabilities ``ps[:m]``
  (:func:`pure_outcomes`, :func:`mixed_outcomes`), ``bs[0] = 0``. A's value after the turn, averaged over the
  opponent's outcomes *once per state*, is ``G[x]`` for A's turn total ``x``
  (:func:`after_turn`); each hold value ``k`` then costs its own ``sides + 1`` outcomes (:func:`hold_value`).
* A kernel that iterates to a fixed point returns ``(iterations, residual)`` of its worst
  state; the Python wrapper checks them once against the tolerance and the budget.

:func:`goal_reward` and :func:`self_loop_value` are also called in exact fractions through
their ``py_func``: one formula, whatever the arithmetic.
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def goal_reward(p, a_reached, others_reached, tie):
    """A's expected reward from probability ``p`` of the game ending with these players at the goal.

    ``0`` if A has not reached the goal; ``p`` if A is alone there; ``p * tie`` if one other
    player is there too (``tie`` is 1/2 under the paper's rules); ``p / m`` for ``m >= 3``
    players at the goal together, who share the win equally.
    """
    if not a_reached:
        return 0 * p
    if others_reached == 0:
        return p
    if others_reached == 1:
        return p * tie
    return p / (others_reached + 1)


@njit(cache=True)
def self_loop_value(a, c):
    """The solution ``p = a / (1 - c)`` of ``p = a + c p``: a state that returns to itself with
    probability ``c`` (every player scores 0) and is worth ``a`` otherwise."""
    return a / (1 - c)


@njit(cache=True)
def sides_of(T):
    """The faces of the die of a hold table ``T`` of shape ``(goal + 1, goal + sides)``."""
    return T.shape[1] - T.shape[0] + 1


@njit(cache=True)
def padded_values(goal, tie, sides=6):
    """Values on ``(i, j)`` in ``[0, 2 goal + sides)^2``: :func:`goal_reward` past the goal, 0 inside."""
    n = 2 * goal + sides
    W = np.zeros((n, n))
    for i in range(n):
        for j in range(n):
            if i >= goal or j >= goal:
                W[i, j] = goal_reward(1.0, i >= goal, j >= goal, tie)
    return W


# --------------------------------------------------------------------------- one turn


@njit(cache=True)
def mixed_outcomes(T, ks, ws, s, d, bs, ps):
    """The turn total of a player who holds at ``ks[t]`` with probability ``ws[t]`` (``t < s``).

    Writes its outcomes of positive probability to ``bs``/``ps`` (0 first) and returns their
    number. ``d`` is a scratch array of zeros, left zeroed.
    """
    n = sides_of(T)
    for t in range(s):
        k, w = ks[t], ws[t]
        d[0] += w * T[k, 0]
        for r in range(n):
            d[k + r] += w * T[k, k + r]
    bs[0], ps[0], d[0] = 0, d[0], 0.0
    m = 1
    for t in range(s):
        for x in range(ks[t], ks[t] + n):
            if d[x] != 0.0:
                bs[m], ps[m], d[x] = x, d[x], 0.0
                m += 1
    return m


@njit(cache=True)
def pure_outcomes(T, k, bs, ps):
    """The outcomes of ``X_k`` of positive probability into ``bs``/``ps`` (0 first); returns their number."""
    bs[0], ps[0] = 0, T[k, 0]
    m = 1
    for x in range(k, k + sides_of(T)):
        if T[k, x] != 0.0:
            bs[m], ps[m] = x, T[k, x]
            m += 1
    return m


@njit(cache=True)
def after_turn(i, j, na, bs, ps, m, W, G, sides=6):
    """``G[x] = sum_t ps[t] W[i + x, j + bs[t]]`` for A's turn totals ``x = 0..na+sides-1``."""
    for x in range(na + sides):
        g = 0.0
        for t in range(m):
            g += ps[t] * W[i + x, j + bs[t]]
        G[x] = g


@njit(cache=True)
def after_hold(k, T, G):
    """``a_k = E[G[X_k]]``: A's value after a turn holding at ``k``, the self-loop left out."""
    a = T[k, 0] * G[0]
    for r in range(sides_of(T)):
        a += T[k, k + r] * G[k + r]
    return a


@njit(cache=True)
def hold_value(k, T, G, bust1, bust2):
    """A's value when holding at ``k``: ``a_k / (1 - P(X_k = 0) bust1 bust2)`` (:func:`after_hold`).

    ``bust1``, ``bust2``: the chances that the opponents score 0 (``bust2 = 1`` with one
    opponent); ``bust1 = 0`` where ``G[0]`` already carries the state's own value (value
    iteration).
    """
    return self_loop_value(after_hold(k, T, G), T[k, 0] * bust1 * bust2)


@njit(cache=True)
def best_hold(na, T, G, bust1, bust2):
    """``max_k`` :func:`hold_value` over ``k = 1..na`` and the first ``k`` attaining it.

    The values ``a_k / d_k`` are compared as ``a_k d_best > a_best d_k`` (every ``d > 0``):
    one division, for the best ``k``, instead of one for every ``k``.
    """
    best_a, best_d = -1.0, 1.0
    best_k = 1
    for k in range(1, na + 1):
        a = after_hold(k, T, G)
        d = 1 - T[k, 0] * bust1 * bust2
        if a * best_d > best_a * d:
            best_a, best_d, best_k = a, d, k
    return best_a / best_d, best_k  # self_loop_value, with 1 - c already formed


# --------------------------------------------------------------------------- two players


@njit(cache=True)
def response_sweep(goal, T, W, ks, ws):
    """A's best hold value against an opponent who holds at ``ks[i, j, t]`` with probability
    ``ws[i, j, t]`` in state ``(i, j)``: one reverse sweep, filling ``W``. Returns the policy."""
    n = sides_of(T)
    pol = np.zeros((goal, goal), dtype=np.int64)
    d = np.zeros(goal + n)
    bs = np.zeros(goal + n, dtype=np.int64)
    ps = np.zeros(goal + n)
    G = np.zeros(goal + n)
    s = ks.shape[2]
    for i in range(goal - 1, -1, -1):
        for j in range(goal - 1, -1, -1):
            m = mixed_outcomes(T, ks[i, j], ws[i, j], s, d, bs, ps)
            after_turn(i, j, goal - i, bs, ps, m, W, G, n)
            W[i, j], pol[i, j] = best_hold(goal - i, T, G, ps[0], 1.0)
    return pol


@njit(cache=True)
def value_iteration_sweep(goal, T, opp, W, pol):
    """One Gauss-Seidel sweep of value iteration over i, then j, ascending; returns the largest change.

    A's greedy values replace ``W`` in place and its actions go to ``pol``; the self-loop is
    iterated like any other transition (``G[0]`` holds the state's current value). B plays
    ``opp[j, i]``. Passing the same array as ``opp`` and ``pol`` gives the paper's symmetric
    iteration: A's new action at (i, j) is B's action at (j, i) for the states that follow.
    """
    bs, ps, G = np.zeros(7, dtype=np.int64), np.zeros(7), np.zeros(goal + 6)
    delta = 0.0
    for i in range(goal):
        for j in range(goal):
            m = pure_outcomes(T, opp[j, i], bs, ps)
            after_turn(i, j, goal - i, bs, ps, m, W, G)
            best, best_k = best_hold(goal - i, T, G, 0.0, 1.0)
            delta = max(delta, abs(best - W[i, j]))
            W[i, j] = best
            pol[i, j] = best_k
    return delta


@njit(cache=True)
def evaluate(goal, T, W, pa_pol, pb_pol):
    """A's winning probability when A plays ``pa_pol[i, j]`` and B ``pb_pol[j, i]``: one reverse
    sweep into ``W``."""
    n = sides_of(T)
    bs, ps, G = np.zeros(n + 1, dtype=np.int64), np.zeros(n + 1), np.zeros(goal + n)
    for i in range(goal - 1, -1, -1):
        for j in range(goal - 1, -1, -1):
            m = pure_outcomes(T, pb_pol[j, i], bs, ps)
            after_turn(i, j, goal - i, bs, ps, m, W, G, n)
            W[i, j] = hold_value(pa_pol[i, j], T, G, ps[0], 1.0)


@njit(cache=True)
def stopping_response(goal, T, W, opp, tol, max_iter):
    """Best response that may hold at any turn total: optimal stopping within the turn.

    In each state A's value ``v`` solves ``v = V(0; v)``, where ``V(t; v)`` is the optimal
    stopping value at turn total ``t`` when a 1 is worth ``v`` (both players scoring 0 returns
    to the state): a contraction, iterated until the change is below ``tol``. Fills ``W``;
    returns ``(roll, iterations, residual)``; ``roll[i, j, t]`` is True where A rolls on.
    """
    n = sides_of(T)
    roll = np.zeros((goal, goal, goal), dtype=np.bool_)
    V = np.zeros(goal + n)
    bs, ps, G = np.zeros(n + 1, dtype=np.int64), np.zeros(n + 1), np.zeros(goal + n)
    worst_it, worst_res = 0, 0.0
    for i in range(goal - 1, -1, -1):
        for j in range(goal - 1, -1, -1):
            m = pure_outcomes(T, opp[j, i], bs, ps)
            after_turn(i, j, goal - i, bs, ps, m, W, G, n)
            g0, bust = G[0], ps[0]
            roll[i, j, 0] = True  # a player rolls at least once
            v = 0.0
            res = np.inf
            it = 0
            while it < max_iter:
                it += 1
                lost = g0 + bust * v
                for t in range(goal - i + n - 1, 0, -1):
                    if i + t >= goal:
                        V[t] = G[t]
                        continue
                    go_on = lost / n
                    for r in range(2, n + 1):
                        go_on += V[t + r] / n if t + r < goal - i + n else G[goal - i] / n
                    V[t] = max(G[t], go_on)
                    roll[i, j, t] = go_on > G[t]
                new = lost / n
                for r in range(2, n + 1):
                    new += V[r] / n
                res = abs(new - v)
                v = new
                if res < tol:
                    break
            worst_it = max(worst_it, it)
            worst_res = max(worst_res, res)
            W[i, j] = v
    return roll, worst_it, worst_res


# --------------------------------------------------------------------------- sequential Pig


@njit(cache=True)
def _sequential_turn(i, j, goal, x, win, roll, hold_opp):
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
def sequential_pairs(goal, tol, max_iter):
    """Optimal classic Pig, score pairs in decreasing order of ``i + j``, each iterated to its
    fixed point. Returns ``(win, roll, iterations, residual)``."""
    win = np.zeros((goal, goal, goal))
    roll = np.zeros((goal, goal, goal), dtype=np.bool_)
    hold_i = np.zeros(goal + 1)
    hold_j = np.zeros(goal + 1)
    worst_it, worst_res = 0, 0.0
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
            res = np.inf
            it = 0
            while it < max_iter:
                it += 1
                x = _sequential_turn(i, j, goal, y, win, roll, hold_i)
                y_new = _sequential_turn(j, i, goal, x, win, roll, hold_j) if i != j else x
                res = abs(y_new - y)
                y = y_new
                if res < tol:
                    break
            worst_it = max(worst_it, it)
            worst_res = max(worst_res, res)
            _sequential_turn(i, j, goal, y, win, roll, hold_i)
    return win, roll, worst_it, worst_res
