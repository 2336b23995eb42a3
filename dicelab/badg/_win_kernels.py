"""Numba kernels of b.a.d.g. played to win: the value over (state, points so far), and the
forward pass of a policy over the same pairs.

They read the game through the :class:`~dicelab.badg.tables.SolverTables` record ``t`` and
enumerate a state's rolls as :mod:`dicelab.badg._kernels` does: the *big* group (the dice of
the size with most roll outcomes) outside, the joint rolls ``o`` of the *small* groups inside,
against every joint choice ``ks`` of how many to take from each small group. From each group
the highest faces are taken. ``F[i, x]`` is the value of state ``i`` with ``x`` bad points
so far; only ``x <= X - maxpts(i)`` (``X``: the most points of the game) is meaningful.

A take is ranked by the key (win value, expected face sum, dice taken, count vector): the
win value first; within a relative ``TIE`` of it, faces taken plus the expected-points value
``V`` of the state left; then more dice; then the count vector, compared size by size from
the smallest, larger first.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from dicelab.badg._kernels import FREE, NEG, TIE, small_outcomes, state_setup


@njit(cache=True)
def max_points(t, st):
    """The most bad points the dice of state ``st`` can score: ``sum n_i (s_i - 1)``."""
    m = 0
    for i in range(t.sizes.size):
        m += t.state_counts[st, i] * (t.sizes[i] - 1)
    return m


@njit(cache=True)
def small_points(t, smalls, kvec, gain):
    """``spts[o, ks]``: the bad points of the small dice taken by choice ``ks`` on roll ``o``, and
    ``spmax[ks]``: the most they can be."""
    n_out, K = gain.shape
    spts = np.empty((n_out, K), dtype=np.int64)
    spmax = np.zeros(K, dtype=np.int64)
    for ks in range(K):
        size_sum = 0
        for j in range(smalls.size):
            s = t.sizes[smalls[j]]
            size_sum += kvec[ks, j] * s
            spmax[ks] += kvec[ks, j] * (s - 1)
        for o in range(n_out):
            spts[o, ks] = size_sum - int(round(gain[o, ks]))
    return spts, spmax


@njit(cache=True)
def count_vectors(t, st, big, smalls, kvec):
    """``cvec[ks, g]``: the dice of group ``g`` taken by small choice ``ks`` (the big group's 0)."""
    K = kvec.shape[0]
    cvec = np.zeros((K, t.sizes.size), dtype=np.int64)
    for ks in range(K):
        for j in range(smalls.size):
            cvec[ks, smalls[j]] = kvec[ks, j]
    return cvec


@njit(cache=True)
def more_dice(kb1, ks1, kb2, ks2, cvec, big):
    """Whether take ``(kb1, ks1)`` comes before ``(kb2, ks2)`` on the last two keys: more dice,
    then the larger count vector, compared from the smallest size."""
    n1 = kb1
    n2 = kb2
    for g in range(cvec.shape[1]):
        n1 += cvec[ks1, g]
        n2 += cvec[ks2, g]
    if n1 != n2:
        return n1 > n2
    for g in range(cvec.shape[1]):
        c1 = cvec[ks1, g] + (kb1 if g == big else 0)
        c2 = cvec[ks2, g] + (kb2 if g == big else 0)
        if c1 != c2:
            return c1 > c2
    return False


@njit(cache=True)
def win_values(t, u, active):
    """``F[i, x]``: the largest expected utility ``u[final points]`` from state ``i`` with ``x``
    points so far. ``active[i, x]`` is False where ``u`` is constant over every final score
    still possible; there ``F = u[x]`` with no work. States are solved fewest dice first."""
    n_states = t.state_counts.shape[0]
    X = u.size - 1
    F = np.full((n_states, X + 1), np.nan)
    for st in t.order:
        xr = X - max_points(t, st)
        xlo, xhi = -1, -1
        for x in range(xr + 1):
            if active[st, x]:
                if xlo < 0:
                    xlo = x
                xhi = x
            else:
                F[st, x] = u[x]
        if xlo < 0:
            continue
        n, big, smalls, K, base, kvec = state_setup(t, st)
        _, weight, gain, _, _ = small_outcomes(t, n, smalls, K, kvec, FREE)
        spts, spmax = small_points(t, smalls, kvec, gain)
        nx = xhi - xlo + 1
        H = np.empty((K, nx + spmax.max()))
        best = np.empty(nx)
        acc = np.empty(nx)
        total = np.zeros(nx)
        sb = t.sizes[big]
        stride = t.strides[big]
        for r in range(t.offsets[big, n[big]], t.offsets[big, n[big] + 1]):
            for ks in range(K):
                width = nx + spmax[ks]
                H[ks, :width] = NEG
                for kb in range(1 if ks == 0 else 0, n[big] + 1):
                    nxt = base[ks] - kb * stride
                    z0 = xlo + kb * sb - int(round(t.prefix[r, kb]))
                    for zz in range(width):
                        v = F[nxt, z0 + zz]
                        if v > H[ks, zz]:
                            H[ks, zz] = v
            acc[:] = 0.0
            for o in range(weight.size):
                best[:] = NEG
                for ks in range(K):
                    off = spts[o, ks]
                    for xx in range(nx):
                        v = H[ks, xx + off]
                        if v > best[xx]:
                            best[xx] = v
                w = weight[o]
                for xx in range(nx):
                    acc[xx] += w * best[xx]
            p = t.prob[r]
            for xx in range(nx):
                total[xx] += p * acc[xx]
        for xx in range(nx):
            if active[st, xlo + xx]:
                F[st, xlo + xx] = total[xx]
    return F


@njit(cache=True)
def _keep(ex_w, ex_meta, w, meta):
    """Keep ``(w, meta)`` among the heaviest examples (replacing the lightest one)."""
    if ex_w.size == 0:
        return
    low = 0
    for i in range(1, ex_w.size):
        if ex_w[i] < ex_w[low]:
            low = i
    if w > ex_w[low]:
        ex_w[low] = w
        ex_meta[low, :] = meta


@njit(cache=True)
def _tied(v, best):
    """Whether ``v`` is within a relative ``TIE`` of the largest value ``best``."""
    return v >= best - TIE * abs(best)


@njit(cache=True)
def _pick(f, e, kbs, kss, cvec, big):
    """The index of the take chosen among candidates ``i`` (win value ``f[i]``, expected face sum
    ``e[i]``, take ``(kbs[i], kss[i])``) by the key of the module docstring."""
    fmax = NEG
    for i in range(f.size):
        if f[i] > fmax:
            fmax = f[i]
    emax = NEG
    for i in range(f.size):
        if _tied(f[i], fmax) and e[i] > emax:
            emax = e[i]
    pick = -1
    for i in range(f.size):
        if _tied(f[i], fmax) and _tied(e[i], emax):
            if pick < 0 or more_dice(kbs[i], kss[i], kbs[pick], kss[pick], cvec, big):
                pick = i
    return pick


@njit(cache=True)
def policy_pass(t, F, V, active, mass, st, ex_w, ex_meta):
    """Play from state ``st`` with ``mass[x]`` the probability of reaching it with ``x`` points.

    The win policy ranks takes by the full key (module docstring) with the win values ``F``;
    the expected-points policy by the same key without the win value. Where ``active[st, x]``
    is False the two are the same (every win value is equal), and the mass moves by the
    expected-points policy's moves, tabulated once for the state. A take is chosen in two
    stages: from the big group for each small choice ``ks``, then among the ``ks``.

    Returns ``reach[i, x]`` (the mass moved to state ``i`` with ``x`` points), the number of
    decisions ``(x, roll)`` with ``x`` in ``0..X - maxpts(st)`` where the policies take
    differently (a roll counted once per multiset of faces of each size), and the probability
    of meeting one of them under the win policy. ``ex_w``/``ex_meta`` keep the heaviest such
    decisions: ``meta = (st, x, row of each group or -1)``.
    """
    n_states = t.state_counts.shape[0]
    G = t.sizes.size
    X = F.shape[1] - 1
    mp = max_points(t, st)
    xr = X - mp
    reach = np.zeros((n_states, X + 1))
    n, big, smalls, K, base, kvec = state_setup(t, st)
    rows, weight, gain, _, _ = small_outcomes(t, n, smalls, K, kvec, FREE)
    spts, spmax = small_points(t, smalls, kvec, gain)
    cvec = count_vectors(t, st, big, smalls, kvec)
    xs = np.empty(xr + 1, dtype=np.int64)
    nx = 0
    for x in range(xr + 1):
        if active[st, x]:
            xs[nx] = x
            nx += 1
    nb = n[big] + 1
    width = xr + 1 + spmax.max()
    Hf = np.empty((K, width))
    He = np.empty((K, width))
    Hk = np.empty((K, width), dtype=np.int64)
    e_val = np.empty(K)
    e_kb = np.empty(K, dtype=np.int64)
    zeros_b = np.zeros(nb)
    eb = np.empty(nb)
    fb = np.empty(nb)
    kbs = np.arange(nb)
    kss = np.zeros(nb, dtype=np.int64)
    fk = np.empty(K)
    ek = np.empty(K)
    kbk = np.empty(K, dtype=np.int64)
    ksk = np.arange(K)
    moves = np.zeros((n_states, mp + 1))  # the expected-points policy's moves: state left, points
    meta = np.empty(2 + G, dtype=np.int64)
    n_diff = 0
    p_diff = 0.0
    sb = t.sizes[big]
    stride = t.strides[big]
    for r in range(t.offsets[big, n[big]], t.offsets[big, n[big] + 1]):
        for ks in range(K):
            lo = 1 if ks == 0 else 0
            kss[:] = ks
            for kb in range(nb):
                eb[kb] = t.prefix[r, kb] + V[base[ks] - kb * stride] if kb >= lo else NEG
            pick = _pick(zeros_b[lo:], eb[lo:], kbs[lo:], kss[lo:], cvec, big) + lo
            e_val[ks] = eb[pick]
            e_kb[ks] = pick
            if nx == 0:
                continue
            for zz in range(xs[0], xs[nx - 1] + spmax[ks] + 1):
                for kb in range(lo, nb):
                    fb[kb] = F[base[ks] - kb * stride, zz + kb * sb - int(round(t.prefix[r, kb]))]
                pick = _pick(fb[lo:], eb[lo:], kbs[lo:], kss[lo:], cvec, big) + lo
                Hf[ks, zz] = fb[pick]
                He[ks, zz] = eb[pick]
                Hk[ks, zz] = pick
        for o in range(weight.size):
            p = t.prob[r] * weight[o]
            for ks in range(K):
                fk[ks] = 0.0
                ek[ks] = gain[o, ks] + e_val[ks]
                kbk[ks] = e_kb[ks]
            ke = _pick(fk, ek, kbk, ksk, cvec, big)
            kbe = e_kb[ke]
            moves[base[ke] - kbe * stride, spts[o, ke] + kbe * sb - int(round(t.prefix[r, kbe]))] += p
            for i in range(nx):
                x = xs[i]
                fmax = NEG
                kw = 0
                for ks in range(K):
                    f = Hf[ks, x + spts[o, ks]]
                    if f > fmax:
                        fmax = f
                        kw = ks
                ties = 0
                for ks in range(K):
                    if _tied(Hf[ks, x + spts[o, ks]], fmax):
                        ties += 1
                if ties > 1:
                    for ks in range(K):
                        z = x + spts[o, ks]
                        fk[ks] = Hf[ks, z]
                        ek[ks] = gain[o, ks] + He[ks, z]
                        kbk[ks] = Hk[ks, z]
                    kw = _pick(fk, ek, kbk, ksk, cvec, big)
                kbw = Hk[kw, x + spts[o, kw]]
                pts = spts[o, kw] + kbw * sb - int(round(t.prefix[r, kbw]))
                reach[base[kw] - kbw * stride, x + pts] += mass[x] * p
                if kw != ke or kbw != kbe:
                    n_diff += 1
                    p_diff += mass[x] * p
                    meta[0] = st
                    meta[1] = x
                    for g in range(G):
                        meta[2 + g] = -1
                    meta[2 + big] = r
                    for j in range(smalls.size):
                        meta[2 + smalls[j]] = rows[o, j]
                    _keep(ex_w, ex_meta, mass[x] * p, meta)
    for x in range(xr + 1):
        if active[st, x] or mass[x] == 0.0:
            continue
        for i in range(n_states):
            for q in range(mp + 1):
                if moves[i, q] != 0.0:
                    reach[i, x + q] += mass[x] * moves[i, q]
    return reach, n_diff, p_diff
