"""Numba kernels of the exact b.a.d.g. solver and of the forward pass over optimal play.

Every kernel reads the game through one :class:`~dicelab.badg.tables.SolverTables` record
``t``. Per state, the group (dice of one size) with the most roll outcomes is the *big*
group, enumerated outside; the other, *small*, groups' joint rolls are enumerated inside,
against every joint choice ``ks`` of how many to take from each small group (``base[ks]``
is the state left by that choice). From each group the highest faces are taken. A die is
*low* when it shows half its size or less.
"""

from __future__ import annotations

import numpy as np
from numba import njit

# what the takes may be (``restrict``)
FREE = 0  # any non-empty take
TAKE_MAX = 1  # every die showing its maximum face is taken
NO_TWO_LOW = 2  # at most one low die is taken

NEG = -1e300  # below every value
TIE = 1e-12  # relative tolerance under which two values tie


@njit(cache=True)
def state_setup(t, st):
    """Counts ``n`` of state ``st``, its big group, its small groups, their number of joint
    choices ``K``, ``base[ks]`` (the state after taking choice ``ks`` from the small groups)
    and ``kvec[ks, j]`` (how many that choice takes from small group ``j``)."""
    n = t.state_counts[st]
    G = n.size
    big = -1
    most = 0
    for i in range(G):
        if n[i] > 0:
            m = t.offsets[i, n[i] + 1] - t.offsets[i, n[i]]
            if m > most:
                most = m
                big = i
    smalls = np.empty(G, dtype=np.int64)
    ns = 0
    for i in range(G):
        if n[i] > 0 and i != big:
            smalls[ns] = i
            ns += 1
    smalls = smalls[:ns]
    K = 1
    for j in range(ns):
        K *= n[smalls[j]] + 1
    base = np.empty(K, dtype=np.int64)
    kvec = np.zeros((K, ns), dtype=np.int64)
    for ks in range(K):
        rem = ks
        b = st
        for j in range(ns):
            radix = n[smalls[j]] + 1
            kvec[ks, j] = rem % radix
            rem //= radix
            b -= kvec[ks, j] * t.strides[smalls[j]]
        base[ks] = b
    return n, big, smalls, K, base, kvec


@njit(cache=True)
def small_outcomes(t, n, smalls, K, kvec, restrict):
    """Every joint roll ``o`` of the small groups: its table rows ``rows[o, j]``, its probability
    ``weight[o]``, and for each choice ``ks`` the faces taken (``gain``), the low dice taken
    (``lows``) and whether ``restrict`` allows it (``ok``)."""
    ns = smalls.size
    n_out = 1
    for j in range(ns):
        i = smalls[j]
        n_out *= t.offsets[i, n[i] + 1] - t.offsets[i, n[i]]
    rows = np.empty((n_out, ns), dtype=np.int64)
    weight = np.ones(n_out)
    gain = np.zeros((n_out, K))
    lows = np.zeros((n_out, K), dtype=np.int64)
    ok = np.ones((n_out, K), dtype=np.bool_)
    for o in range(n_out):
        rem = o
        for j in range(ns):
            i = smalls[j]
            m = t.offsets[i, n[i] + 1] - t.offsets[i, n[i]]
            rows[o, j] = t.offsets[i, n[i]] + rem % m
            rem //= m
            weight[o] *= t.prob[rows[o, j]]
        for ks in range(K):
            for j in range(ns):
                k = kvec[ks, j]
                r = rows[o, j]
                gain[o, ks] += t.prefix[r, k]
                if k > t.nhigh[r]:
                    lows[o, ks] += k - t.nhigh[r]
                if restrict == TAKE_MAX and k < t.nmax[r]:
                    ok[o, ks] = False
            if restrict == NO_TWO_LOW and lows[o, ks] > 1:
                ok[o, ks] = False
    return rows, weight, gain, lows, ok


@njit(cache=True)
def big_options(t, V, r, ks, n_big, stride_big, base, restrict):
    """Best value over how many to take from the big group (roll row ``r``) after small choice
    ``ks``: (any number of low dice, at most one low die, no low die)."""
    lo = 1 if ks == 0 else 0
    if restrict == TAKE_MAX and t.nmax[r] > lo:
        lo = t.nmax[r]
    best_any, best_one, best_none = NEG, NEG, NEG
    for kb in range(lo, n_big + 1):
        v = t.prefix[r, kb] + V[base[ks] - kb * stride_big]
        low = kb - t.nhigh[r] if kb > t.nhigh[r] else 0
        if v > best_any:
            best_any = v
        if low <= 1 and v > best_one:
            best_one = v
        if low == 0 and v > best_none:
            best_none = v
    return best_any, best_one, best_none


@njit(cache=True)
def solve_values(t, restrict):
    """``V[i]``: the optimal expected face sum from state ``i``, states solved in ``t.order``."""
    V = np.zeros(t.state_counts.shape[0])
    for st in t.order:
        if t.state_counts[st].sum() == 0:
            continue
        n, big, smalls, K, base, kvec = state_setup(t, st)
        _, weight, gain, lows, ok = small_outcomes(t, n, smalls, K, kvec, restrict)
        g_one = np.empty(K)
        g_none = np.empty(K)
        total = 0.0
        for r in range(t.offsets[big, n[big]], t.offsets[big, n[big] + 1]):
            for ks in range(K):
                best_any, best_one, best_none = big_options(
                    t, V, r, ks, n[big], t.strides[big], base, restrict
                )
                g_one[ks] = best_any if restrict != NO_TWO_LOW else best_one
                g_none[ks] = best_none
            acc = 0.0
            for o in range(weight.size):
                best = NEG
                for ks in range(K):
                    if not ok[o, ks]:
                        continue
                    g = g_none[ks] if (restrict == NO_TWO_LOW and lows[o, ks] == 1) else g_one[ks]
                    v = gain[o, ks] + g
                    if v > best:
                        best = v
                acc += weight[o] * best
            total += t.prob[r] * acc
        V[st] = total
    return V


@njit(cache=True)
def policy_step(t, V, st):
    """Optimal (unrestricted) play at state ``st``: where it goes, and what it takes.

    Returns ``trans[s']`` (probability of moving to ``s'``), ``trans_zero[s']`` (the same,
    restricted to takes of maximum faces only), ``accepted[g, f]`` / ``shown[g, f]``
    (expected number of dice of group ``g`` showing ``f`` that are taken / rolled) and the
    probability that a maximum face is left on the table. Ties (within ``TIE``) go to
    taking more dice from the big group, then to the later choice for the small ones.
    """
    n_states = t.state_counts.shape[0]
    G = t.sizes.size
    trans = np.zeros(n_states)
    trans_zero = np.zeros(n_states)
    accepted = np.zeros((G, t.sizes.max() + 1))
    shown = np.zeros((G, t.sizes.max() + 1))
    left_max = 0.0
    n, big, smalls, K, base, kvec = state_setup(t, st)
    rows, weight, gain, _, _ = small_outcomes(t, n, smalls, K, kvec, FREE)
    ns = smalls.size
    n_out = weight.size
    # per small outcome and choice: whether only maxima are taken / a maximum is left
    all_max = np.ones((n_out, K), dtype=np.bool_)
    leaves = np.zeros((n_out, K), dtype=np.bool_)
    for o in range(n_out):
        for ks in range(K):
            for j in range(ns):
                k = kvec[ks, j]
                if k > t.nmax[rows[o, j]]:
                    all_max[o, ks] = False
                if k < t.nmax[rows[o, j]]:
                    leaves[o, ks] = True
    small_mass = np.zeros((n_out, K))
    g = np.empty(K)
    kb_best = np.empty(K, dtype=np.int64)
    for r in range(t.offsets[big, n[big]], t.offsets[big, n[big] + 1]):
        for ks in range(K):
            lo = 1 if ks == 0 else 0
            best = NEG
            for kb in range(n[big], lo - 1, -1):
                v = t.prefix[r, kb] + V[base[ks] - kb * t.strides[big]]
                if v > best + TIE * abs(best):
                    best = v
                    kb_best[ks] = kb
            g[ks] = best
        mass = np.zeros(K)
        for o in range(n_out):
            best = NEG
            ks_best = 0
            for ks in range(K - 1, -1, -1):
                v = gain[o, ks] + g[ks]
                if v > best + TIE * abs(best):
                    best = v
                    ks_best = ks
            p = t.prob[r] * weight[o]
            mass[ks_best] += weight[o]
            small_mass[o, ks_best] += t.prob[r]
            kb = kb_best[ks_best]
            nxt = base[ks_best] - kb * t.strides[big]
            trans[nxt] += p
            if kb <= t.nmax[r] and all_max[o, ks_best]:
                trans_zero[nxt] += p
            if kb < t.nmax[r] or leaves[o, ks_best]:
                left_max += p
        for f in range(n[big]):
            shown[big, t.top[r, f]] += t.prob[r]
        for ks in range(K):
            for f in range(kb_best[ks]):
                accepted[big, t.top[r, f]] += t.prob[r] * mass[ks]
    for o in range(n_out):
        for j in range(ns):
            i = smalls[j]
            for f in range(n[i]):
                shown[i, t.top[rows[o, j], f]] += weight[o]
        for ks in range(K):
            if small_mass[o, ks] == 0.0:
                continue
            for j in range(ns):
                i = smalls[j]
                for f in range(kvec[ks, j]):
                    accepted[i, t.top[rows[o, j], f]] += weight[o] * small_mass[o, ks]
    return trans, trans_zero, accepted, shown, left_max
