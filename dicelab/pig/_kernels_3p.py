"""Numba kernels of :mod:`dicelab.pig.three_player`: A's best response to two simple opponents.

Conventions as in :mod:`dicelab.pig._kernels` (``T = hold_table(goal)``, an opponent's turn as
outcomes ``bs[:m]`` with probabilities ``ps[:m]``, ``bs[0] = 0``). The sweep keeps A's values
after the opponents' turn for the current column ``(j1, j2)`` in one short vector, so each
state's hold values read numbers that are already in cache.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from dicelab.pig._kernels import goal_reward, pure_outcomes, sides_of


@njit(cache=True)
def hold_columns(T):
    """``T`` by hold value in columns: ``C[0, k] = P(X_k = 0)``, ``C[1 + r, k] = P(X_k = k + r)``
    (``r = 0..sides-1``), so that :func:`best_hold_narrowed` reads every row at consecutive ``k``."""
    n, s = T.shape[0], sides_of(T)
    C = np.zeros((s + 1, n))
    for k in range(1, n):
        C[0, k] = T[k, 0]
        for r in range(s):
            C[1 + r, k] = T[k, k + r]
    return C


# Relative margin of :func:`best_hold_narrowed`: a hold value whose ``a_k / d_k`` falls below the
# guess by more than this is never compared. Rounding moves the quotients by about 1e-16.
NARROW = 1e-9


@njit(cache=True)
def best_hold_narrowed(na, C, G, d, a, guess):
    """:func:`~dicelab.pig._kernels.best_hold` with the same result, comparing only hold values
    near the maximum.

    ``d[k] = 1 - P(X_k = 0) bust1 bust2`` is given (it is the same for every state of a
    column ``(j1, j2)``; formed by the caller as :func:`~dicelab.pig._kernels.best_hold`
    forms it). First every ``a_k`` (the same operations, in the same order, as
    :func:`~dicelab.pig._kernels.after_hold`; independent across ``k``, so they run in SIMD
    lanes), then ``e = a_g / d_g`` for the hold value ``g = guess`` (any ``1 <= g <= na``; the
    sweep passes the previous state's choice): one of the values compared, so a lower bound
    of the largest, ``h = max_k a_k / d_k``, up to one rounding. Then
    :func:`~dicelab.pig._kernels.best_hold`'s scan, cross-multiplied comparisons in ascending
    ``k``, over the *candidates* only: ``a_k >= (1 - NARROW) e d_k``, which holds for every
    ``k`` within ``NARROW`` (relatively) of ``h``.

    Why the result is :func:`~dicelab.pig._kernels.best_hold`'s. Every comparison and ``e`` are
    exact up to a relative error of a few units of ``2**-53``, far below ``NARROW``. A hold
    value outside the candidates falls short of ``e``, hence of ``h``, by more than ``NARROW``:
    it can be the running best of the full scan only while no candidate has been seen, or in
    place of a candidate within rounding of it (both near the threshold). Either way the first
    hold value within rounding of ``h`` is taken over it in both scans, and from then on both
    scans hold the same best and make the same comparisons: the later non-candidates lose to it
    in the full scan, and the narrowed scan never sees them. The scans end on the same ``k``
    and return the same ``a_k / d_k``. (When ``h = 0`` every ``a_k = 0``, every hold value is
    a candidate and the scans are one.) How good the guess is changes only how many hold
    values are compared, never the result.

    ``a``: a scratch array of length at least ``na + 1``.
    """
    g0 = G[0]
    for k in range(1, na + 1):
        x = C[0, k] * g0
        x += C[1, k] * G[k]
        x += C[2, k] * G[k + 1]
        x += C[3, k] * G[k + 2]
        x += C[4, k] * G[k + 3]
        x += C[5, k] * G[k + 4]
        x += C[6, k] * G[k + 5]
        a[k] = x
    return _narrowed_scan(na, d, a, guess)


@njit(cache=True)
def best_hold_narrowed_any(na, C, G, d, a, guess):
    """:func:`best_hold_narrowed` for a die of any number of sides (``C`` of ``sides + 1`` rows):
    the same sums in the same order, in a loop instead of unrolled for six sides."""
    g0 = G[0]
    for k in range(1, na + 1):
        x = C[0, k] * g0
        for r in range(C.shape[0] - 1):
            x += C[1 + r, k] * G[k + r]
        a[k] = x
    return _narrowed_scan(na, d, a, guess)


@njit(cache=True, inline="always")
def _narrowed_scan(na, d, a, guess):
    """The scan of :func:`best_hold_narrowed` over the candidates, once every ``a_k`` is formed."""
    threshold = (1 - NARROW) * (a[guess] / d[guess])
    best_a, best_d = -1.0, 1.0
    best_k = 1
    for k in range(1, na + 1):
        if a[k] >= threshold * d[k] and a[k] * best_d > best_a * d[k]:
            best_a, best_d, best_k = a[k], d[k], k
    return best_a / best_d, best_k


@njit(cache=True)
def _simple_outcomes(T, o):
    """The outcomes of every score's turn under a simple policy ``o``: ``(bs, ps, m)`` by score."""
    goal, s = o.shape[0], sides_of(T)
    bs = np.zeros((goal, s + 1), dtype=np.int64)
    ps = np.zeros((goal, s + 1))
    m = np.zeros(goal, dtype=np.int64)
    for j in range(goal):
        m[j] = pure_outcomes(T, o[j], bs[j], ps[j])
    return bs, ps, m


@njit(cache=True)
def _reach_chances(goal, bs, ps, m):
    """``q[j]``: the chance that an opponent on ``j`` points reaches the goal this turn."""
    q = np.zeros(goal)
    for j in range(goal):
        for t in range(m[j]):
            q[j] += ps[j, t] if j + bs[j, t] >= goal else 0.0
    return q


@njit(cache=True)
def best_response_3p_sweep(goal, T, o1, o2):
    """A against two simple opponents (hold values by own score): one reverse sweep.

    States are solved column by column: ``j1`` descending, then ``j2``, then ``i`` (every
    state a turn leads to has each score at least as high, so every order descending in all
    three is a reverse order). Two running averages make each state cost only A's own hold
    values: ``F[j1, j2, i] = sum_b2 P(B2 scores b2) p(i, j1, j2 + b2)``, stored as soon as
    ``(i, j1, j2)`` is solved, and ``E[i] = sum_b1 P(b1) F[j1 + b1, j2, i]``, A's value after
    the turn with A on ``i`` for the current column (0 where an opponent alone reaches the
    goal; ``i >= goal``: A at the goal, alone or sharing). While ``(i, j1, j2)`` is solved,
    ``E[i]`` holds its ``G[0]`` with the self-loop left out. Each sum adds the same terms in
    the same order as when the sweep went plane by plane in ``i``, so the values are the same
    to the last bit; only the memory traffic differs (``E`` is a vector in cache, and ``F``
    is read along ``i``). Returns ``(win, policy)``, indexed ``[i, j1, j2]``.
    """
    win = np.zeros((goal, goal, goal))
    pol = np.zeros((goal, goal, goal), dtype=np.int64)
    n = sides_of(T)
    F = np.zeros((goal, goal, goal))  # F[j1, j2, i]: contiguous along i
    E = np.zeros(goal + n)
    C = hold_columns(T)
    a_k, d_k = np.zeros(goal + 1), np.zeros(goal + 1)
    b1s, p1s, m1s = _simple_outcomes(T, o1)
    b2s, p2s, m2s = _simple_outcomes(T, o2)
    q1, q2 = _reach_chances(goal, b1s, p1s, m1s), _reach_chances(goal, b2s, p2s, m2s)
    for j1 in range(goal - 1, -1, -1):
        b1, p1, m1 = b1s[j1], p1s[j1], m1s[j1]
        for j2 in range(goal - 1, -1, -1):
            b2, p2, m2 = b2s[j2], p2s[j2], m2s[j2]
            a, b = q1[j1], q2[j2]  # A at the goal with none, one or both opponents (two winners share 1/2)
            w = (
                goal_reward((1 - a) * (1 - b), True, 0, 0.5)
                + goal_reward(a * (1 - b) + b * (1 - a), True, 1, 0.5)
                + goal_reward(a * b, True, 2, 0.5)
            )
            for x in range(goal, goal + n):
                E[x] = w
            for k in range(1, goal + 1):
                d_k[k] = 1 - C[0, k] * p1[0] * p2[0]
            guess = 1
            for i in range(goal - 1, -1, -1):
                g0 = 0.0  # A scores 0; the self-loop (all three score 0) is left out
                for t in range(1, m2):
                    if j2 + b2[t] < goal:
                        g0 += p1[0] * p2[t] * win[i, j1, j2 + b2[t]]
                for t in range(1, m1):
                    if j1 + b1[t] < goal:  # B1 alone at the goal: A gets 0
                        g0 += p1[t] * F[j1 + b1[t], j2, i]
                G = E[i:]
                G[0] = g0
                if n == 6:
                    v, guess = best_hold_narrowed(goal - i, C, G, d_k, a_k, min(guess, goal - i))
                else:
                    v, guess = best_hold_narrowed_any(goal - i, C, G, d_k, a_k, min(guess, goal - i))
                win[i, j1, j2], pol[i, j1, j2] = v, guess
                s = 0.0  # average over B2
                for t in range(m2):
                    if j2 + b2[t] < goal:
                        s += p2[t] * win[i, j1, j2 + b2[t]]
                F[j1, j2, i] = s
                s = 0.0  # average over B1
                for t in range(m1):
                    if j1 + b1[t] < goal:
                        s += p1[t] * F[j1 + b1[t], j2, i]
                E[i] = s
    return win, pol
