"""Numba kernels of :mod:`dicelab.pig`: the loops over score states behind the solvers.

Conventions shared by every kernel:

* ``T = hold_table(goal)``, ``T[k, x] = P(X_k = x)``; arrays of values ``win[i, j]`` cover
  the scores below ``goal``; past the goal :func:`goal_reward` gives the value.
* ``opp[j, i]`` is B's hold value when B has ``j`` points and A has ``i``.
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
def padded_values(goal, tie):
    """Values on ``(i, j)`` in ``[0, 2 goal + 6)^2``: :func:`goal_reward` past the goal, 0 inside."""
    n = 2 * goal + 6
    W = np.zeros((n, n))
    for i in range(n):
        for j in range(n):
            if i >= goal or j >= goal:
                W[i, j] = goal_reward(1.0, i >= goal, j >= goal, tie)
    return W


@njit(cache=True)
def _weighted(i, j, goal, win, tie, p):
    """``p`` times the value at ``(i, j)``: the reward past the goal, else the solved ``win[i, j]``."""
    if i >= goal or j >= goal:
        return goal_reward(p, i >= goal, j >= goal, tie)
    return p * win[i, j]


@njit(cache=True)
def _best_hold(i, goal, T, g0, G, bust1, bust2):
    """A's best hold value ``k`` on ``i`` points and its value ``max_k a_k / (1 - c_k)``.

    ``G[x]``: the value when A ends the turn with ``x > 0`` points, ``g0``: when A scores 0
    and some opponent does not; ``bust1``, ``bust2``: the opponents' chances of scoring 0
    (``bust2 = 1`` with one opponent), so ``c_k = P(X_k = 0) bust1 bust2``. Ties go to the
    smallest ``k``.
    """
    best = -1.0
    best_k = 1
    for k in range(1, goal - i + 1):
        a = T[k, 0] * g0
        for r in range(6):
            a += T[k, k + r] * G[k + r]
        v = self_loop_value(a, T[k, 0] * bust1 * bust2)
        if v > best:
            best = v
            best_k = k
    return best, best_k


# --------------------------------------------------------------------------- two players


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
            g += _weighted(i + x, j + b, goal, win, tie, pb)
        G[x] = g
    g0 = 0.0
    for b in range(1, kb + 6):
        pb = T[kb, b]
        if pb == 0.0:
            continue
        g0 += _weighted(i, j + b, goal, win, tie, pb)
    return g0


@njit(cache=True)
def best_response_sweep(goal, T, opp, tie):
    """A's best hold value in one reverse sweep: states by decreasing scores, each action's
    self-loop solved by :func:`self_loop_value`. Returns ``(win, policy)``."""
    win = np.zeros((goal, goal))
    pol = np.zeros((goal, goal), dtype=np.int64)
    G = np.zeros(goal + 6)
    for i in range(goal - 1, -1, -1):
        for j in range(goal - 1, -1, -1):
            kb = opp[j, i]
            g0 = _turn_outcomes(i, j, kb, goal, T, win, tie, G)
            win[i, j], pol[i, j] = _best_hold(i, goal, T, g0, G, T[kb, 0], 1.0)
    return win, pol


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
            q += _weighted(i + x, j + b, goal, win, tie, pa * pb)
    return q


@njit(cache=True)
def value_iteration_sweep(goal, T, opp, tie, win, pol):
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


@njit(cache=True)
def evaluate(goal, T, pa_pol, pb_pol, tie):
    """A's winning probability when A plays ``pa_pol[i, j]`` and B ``pb_pol[j, i]``: one reverse sweep."""
    win = np.zeros((goal, goal))
    for i in range(goal - 1, -1, -1):
        for j in range(goal - 1, -1, -1):
            k, kb = pa_pol[i, j], pb_pol[j, i]
            a = _continuation(i, j, k, kb, goal, T, win, tie, False)
            win[i, j] = self_loop_value(a, T[k, 0] * T[kb, 0])
    return win


@njit(cache=True)
def stopping_response(goal, T, opp, tie, tol, max_iter):
    """Best response that may hold at any turn total: optimal stopping within the turn.

    In each state A's value ``v`` solves ``v = V(0; v)``, where ``V(t; v)`` is the optimal
    stopping value at turn total ``t`` when a 1 is worth ``v`` (both players scoring 0 returns
    to the state): a contraction, iterated until the change is below ``tol``. Returns
    ``(win, roll, iterations, residual)``; ``roll[i, j, t]`` is True where A rolls on.
    """
    win = np.zeros((goal, goal))
    roll = np.zeros((goal, goal, goal), dtype=np.bool_)
    V = np.zeros(goal + 6)
    G = np.zeros(goal + 6)
    worst_it, worst_res = 0, 0.0
    for i in range(goal - 1, -1, -1):
        for j in range(goal - 1, -1, -1):
            kb = opp[j, i]
            g0 = _turn_outcomes(i, j, kb, goal, T, win, tie, G)
            roll[i, j, 0] = True  # a player rolls at least once
            v = 0.0
            res = np.inf
            it = 0
            while it < max_iter:
                it += 1
                bust = g0 + T[kb, 0] * v
                for t in range(goal - i + 5, 0, -1):
                    if i + t >= goal:
                        V[t] = G[t]
                        continue
                    go_on = bust / 6.0
                    for r in range(2, 7):
                        go_on += V[t + r] / 6.0 if t + r < goal - i + 6 else G[goal - i] / 6.0
                    V[t] = max(G[t], go_on)
                    roll[i, j, t] = go_on > G[t]
                new = bust / 6.0
                for r in range(2, 7):
                    new += V[r] / 6.0
                res = abs(new - v)
                v = new
                if res < tol:
                    break
            worst_it = max(worst_it, it)
            worst_res = max(worst_res, res)
            win[i, j] = v
    return win, roll, worst_it, worst_res


# --------------------------------------------------------------------------- three players


@njit(cache=True)
def best_response_3p_sweep(goal, T, o1, o2):
    """A against two simple opponents (hold values by own score): one reverse sweep.

    ``agg[i, j1, j2] = sum_b2 P(B2 scores b2) p(i, j1, j2 + b2)`` is kept for every
    finished row, so A's outcomes need only B1's outcomes on top (7 terms, not 49).
    Returns ``(win, policy)``.
    """
    win = np.zeros((goal, goal, goal))
    pol = np.zeros((goal, goal, goal), dtype=np.int64)
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
                # A reaches the goal with none, one or both opponents (two winners share 1/2)
                w_goal = (
                    goal_reward((1 - q1) * (1 - q2), True, 0, 0.5)
                    + goal_reward(q1 * (1 - q2) + q2 * (1 - q1), True, 1, 0.5)
                    + goal_reward(q1 * q2, True, 2, 0.5)
                )
                for x in range(1, goal - i + 6):
                    if i + x >= goal:
                        G[x] = w_goal
                        continue
                    g = 0.0
                    for b1 in range(k1 + 6):
                        p1 = T[k1, b1]
                        if p1 == 0.0 or j1 + b1 >= goal:  # B1 alone at the goal: A gets 0
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
                win[i, j1, j2], pol[i, j1, j2] = _best_hold(i, goal, T, g0, G, T[k1, 0], T[k2, 0])
            for j2 in range(goal):  # row (i, j1) is finished: aggregate over B2
                k2 = o2[j2]
                s = 0.0
                for b2 in range(k2 + 6):
                    p2 = T[k2, b2]
                    if p2 == 0.0 or j2 + b2 >= goal:
                        continue
                    s += p2 * win[i, j1, j2 + b2]
                agg[i, j1, j2] = s
    return win, pol


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
