"""Numba kernels of b.a.d.g. played to win: the value over (state, points so far), and the
forward pass of the policies over the same pairs.

They read the game through the :class:`~dicelab.badg.tables.SolverTables` record ``t``. Per
state, the *big* group (the dice of the size with most roll outcomes, as in
:mod:`dicelab.badg._kernels`) is enumerated outside, roll ``r`` by roll; from each group the
highest faces are taken. ``W[i, x]`` is the win value of state ``i`` with ``x`` bad points so
far, meaningful for ``x <= X - maxpts(i)`` (``X``: the most points of the game); the ``x``
worked at once are a range ``xlo..xhi``, an index ``zz`` standing for ``z = xlo + zz``.

The best take of a roll is a maximum over how many dice ``k_j`` to take from every group. For
one big roll, the *levels* take the maxima group by group: level 0 holds, for every choice
``ks`` of the small groups, the best over the big group's ``kb`` (a table over ``z``); level
``j + 1`` holds, for every joint roll of small groups ``0..j`` and every choice of the groups
after ``j``, the best over ``k_j`` of level ``j`` shifted by the points of the ``k_j`` dice.
The last level is the best take of every joint roll ``o`` of the small groups, for every
``x``; its cost is ``n_out (c + 1) nx`` (``c`` the last group's count) instead of
``n_out K nx`` over every joint choice at once.

The forward pass follows the expected-points policy (its moves do not depend on ``x``) and,
where the win policy differs from it -- where the expected-points take's win value is below
the best by more than a relative ``TIE = 1e-13`` -- moves that mass to the win policy's take. A take
is ranked by (win value, expected face sum, dice taken, count vector), each key within a
relative ``TIE`` of the best passed on to the next (:func:`pick`); where the expected-points
take ties for the best win value, the win policy's take is the same one.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from dicelab.badg._kernels import NEG, state_setup

TIE = 1e-13  # relative tolerance under which two values tie (win values, expected face sums)


@njit(cache=True)
def max_points(t, st):
    """The most bad points the dice of state ``st`` can score: ``sum n_i (s_i - 1)``."""
    m = 0
    for i in range(t.sizes.size):
        m += t.state_counts[st, i] * (t.sizes[i] - 1)
    return m


@njit(cache=True)
def small_tables(t, n, smalls):
    """Per small group ``j``: its rolls ``R[j]``, first table row ``row0[j]``, ``pts[j, o_j, k]``
    (points of its ``k`` highest faces), ``spmax[j]`` (its most points) and ``tail[j]`` (the most
    points of groups ``j..``); and the joint rolls: ``n_out``, ``weight[o]``, ``rolls[o, j]`` (the
    roll of group ``j``; group 0 most significant)."""
    ns = smalls.size
    R = np.ones(ns, dtype=np.int64)
    row0 = np.zeros(ns, dtype=np.int64)
    cmax = 0
    rmax = 1
    for j in range(ns):
        i = smalls[j]
        row0[j] = t.offsets[i, n[i]]
        R[j] = t.offsets[i, n[i] + 1] - row0[j]
        cmax = max(cmax, n[i])
        rmax = max(rmax, R[j])
    pts = np.zeros((max(ns, 1), rmax, cmax + 1), dtype=np.int64)
    spmax = np.zeros(ns + 1, dtype=np.int64)
    tail = np.zeros(ns + 1, dtype=np.int64)
    for j in range(ns):
        i = smalls[j]
        s = t.sizes[i]
        spmax[j] = n[i] * (s - 1)
        for o in range(R[j]):
            for k in range(n[i] + 1):
                pts[j, o, k] = k * s - int(round(t.prefix[row0[j] + o, k]))
    for j in range(ns - 1, -1, -1):
        tail[j] = tail[j + 1] + spmax[j]
    n_out = 1
    for j in range(ns):
        n_out *= R[j]
    weight = np.ones(n_out)
    rolls = np.zeros((n_out, max(ns, 1)), dtype=np.int64)
    for o in range(n_out):
        rem = o
        for j in range(ns - 1, -1, -1):
            rolls[o, j] = rem % R[j]
            rem //= R[j]
            weight[o] *= t.prob[row0[j] + rolls[o, j]]
    return R, row0, pts, spmax, tail, n_out, weight, rolls


@njit(cache=True)
def level_max(t, W, st, r, n, big, smalls, base, xlo, nx, R, pts, tail, buf_a, buf_b, best):
    """``best[o, xx]``: the largest ``W`` over every take of big roll ``r`` and small joint roll
    ``o``, with ``x = xlo + xx`` points so far (the levels of the module docstring)."""
    ns = smalls.size
    K = base.size
    sb = t.sizes[big]
    stride = t.strides[big]
    width = nx + tail[0]
    A = buf_a[: K * width].reshape((1, K, width))
    for ks in range(K):
        A[0, ks, :] = NEG
        for kb in range(1 if ks == 0 else 0, n[big] + 1):
            nxt = base[ks] - kb * stride
            z0 = xlo + kb * sb - int(round(t.prefix[r, kb]))
            for zz in range(width):
                A[0, ks, zz] = max(A[0, ks, zz], W[nxt, z0 + zz])
    if ns == 0:
        for xx in range(nx):
            best[0, xx] = A[0, 0, xx]
        return
    n_prev = 1
    k_ge = K
    for j in range(ns):
        c = n[smalls[j]]
        k_next = k_ge // (c + 1)
        w_next = nx + tail[j + 1]
        last = j == ns - 1
        out = buf_b if j % 2 == 0 else buf_a
        B = out[: n_prev * R[j] * k_next * w_next].reshape((n_prev * R[j], k_next, w_next))
        for op in range(n_prev):
            for oj in range(R[j]):
                oo = op * R[j] + oj
                for kn in range(k_next):
                    dst = best[oo, :] if last else B[oo, kn, :]
                    dst[:] = NEG
                    for k in range(c + 1):
                        shift = pts[j, oj, k]
                        src = A[op, k + (c + 1) * kn, :]
                        for zz in range(w_next):
                            dst[zz] = max(dst[zz], src[zz + shift])
        A = B
        n_prev *= R[j]
        k_ge = k_next


@njit(cache=True)
def _range(active, st, xr):
    """The first and last ``x`` in ``0..xr`` where state ``st`` is active, or ``(-1, -1)``."""
    xlo, xhi = -1, -1
    for x in range(xr + 1):
        if active[st, x]:
            if xlo < 0:
                xlo = x
            xhi = x
    return xlo, xhi


@njit(cache=True)
def _buffers(K, n_out, nx, tail, R):
    """Two scratch buffers large enough for every level."""
    size = K * (nx + tail[0])
    n_prev = 1
    for j in range(R.size):
        n_prev *= R[j]
        size = max(size, n_prev * K * (nx + tail[j + 1]))
    return np.empty(size), np.empty(size), np.empty((n_out, max(nx, 1)))


@njit(cache=True)
def win_values(t, u, active):
    """``W[i, x]``: the largest expected utility ``u[final points]`` from state ``i`` with ``x``
    points so far. ``active[i, x]`` is False where ``u`` is constant over every final score
    still possible; there ``W = u[x]`` with no work. States are solved fewest dice first."""
    n_states = t.state_counts.shape[0]
    X = u.size - 1
    W = np.full((n_states, X + 1), np.nan)
    for st in t.order:
        xr = X - max_points(t, st)
        for x in range(xr + 1):
            W[st, x] = u[x]
        xlo, xhi = _range(active, st, xr)
        if xlo < 0:
            continue
        n, big, smalls, K, base, kvec = state_setup(t, st)
        R, row0, pts, spmax, tail, n_out, weight, rolls = small_tables(t, n, smalls)
        nx = xhi - xlo + 1
        buf_a, buf_b, best = _buffers(K, n_out, nx, tail, R)
        total = np.zeros(nx)
        acc = np.empty(nx)
        mass = 0.0  # the roll probabilities' sum: 1 but for rounding, divided out
        for r in range(t.offsets[big, n[big]], t.offsets[big, n[big] + 1]):
            level_max(t, W, st, r, n, big, smalls, base, xlo, nx, R, pts, tail, buf_a, buf_b, best)
            acc[:] = 0.0  # summed per big roll first: less rounding than one long sum
            for o in range(n_out):
                w = weight[o]
                for xx in range(nx):
                    acc[xx] += w * best[o, xx]
            p = t.prob[r]
            mass += p * weight.sum()
            for xx in range(nx):
                total[xx] += p * acc[xx]
        total /= mass
        for xx in range(nx):
            if active[st, xlo + xx]:  # an average of u: within u's range (rounding may leave it)
                W[st, xlo + xx] = min(max(total[xx], u.min()), u.max())
    return W


@njit(cache=True)
def more_dice(c1, c2):
    """Whether count vector ``c1`` comes before ``c2``: more dice, then larger from the smallest size."""
    if c1.sum() != c2.sum():
        return c1.sum() > c2.sum()
    for g in range(c1.size):
        if c1[g] != c2[g]:
            return c1[g] > c2[g]
    return False


@njit(cache=True)
def _tied(v, best):
    """Whether ``v`` is within a relative ``TIE`` of the largest value ``best``."""
    return v >= best - TIE * abs(best)


@njit(cache=True)
def pick(f, e, counts):
    """The index of the take chosen among candidates ``i`` (win value ``f[i]``, expected face sum
    ``e[i]``, count vector ``counts[i]``): the largest ``f``; among those within ``TIE``, the
    largest ``e``; among those within ``TIE``, the one first by :func:`more_dice`."""
    fmax = f.max()
    emax = NEG
    for i in range(f.size):
        if _tied(f[i], fmax) and e[i] > emax:
            emax = e[i]
    chosen = -1
    for i in range(f.size):
        if _tied(f[i], fmax) and _tied(e[i], emax):
            if chosen < 0 or more_dice(counts[i], counts[chosen]):
                chosen = i
    return chosen


@njit(cache=True)
def small_takes(t, n, smalls, kvec, row0, pts, rolls):
    """Per joint small roll ``o`` and choice ``ks``: the faces taken ``gain[o, ks]`` and their points
    ``spts[o, ks]``; and ``cvec[ks, g]``, the count vector of the choice (big group 0)."""
    n_out = rolls.shape[0]
    K = kvec.shape[0]
    gain = np.zeros((n_out, K))
    spts = np.zeros((n_out, K), dtype=np.int64)
    cvec = np.zeros((K, t.sizes.size), dtype=np.int64)
    for ks in range(K):
        for j in range(smalls.size):
            cvec[ks, smalls[j]] = kvec[ks, j]
        for o in range(n_out):
            for j in range(smalls.size):
                k = kvec[ks, j]
                gain[o, ks] += t.prefix[row0[j] + rolls[o, j], k]
                spts[o, ks] += pts[j, rolls[o, j], k]
    return gain, spts, cvec


@njit(cache=True)
def pick_big(f, e, lo, nb):
    """:func:`pick` among the big group's takes ``kb`` in ``lo..nb - 1`` of one small choice: their
    count vectors differ only in ``kb``, so the one first by :func:`more_dice` is the largest
    ``kb`` (the most dice) among those tied on both values."""
    fmax = NEG
    for kb in range(lo, nb):
        fmax = max(fmax, f[kb])
    emax = NEG
    for kb in range(lo, nb):
        if _tied(f[kb], fmax) and e[kb] > emax:
            emax = e[kb]
    for kb in range(nb - 1, lo - 1, -1):
        if _tied(f[kb], fmax) and _tied(e[kb], emax):
            return kb
    return lo - 1


@njit(cache=True)
def big_choices(t, W, V, r, n, big, base, xlo, width, use_w, Hf, He, Hk, f, e):
    """For every small choice ``ks`` (and ``z = xlo + zz`` points, ``zz < width``, if ``use_w``): the
    big group's take chosen by :func:`pick` (:func:`pick_big`) -- its win value ``Hf``, expected
    face sum ``He`` and dice ``Hk`` (index ``[ks, zz]``; column 0 only without ``use_w``). ``f``,
    ``e``: scratch arrays of ``n_b + 1`` rows."""
    K = base.size
    nb = n[big] + 1
    sb = t.sizes[big]
    stride = t.strides[big]
    shift = np.empty(nb, dtype=np.int64)  # the bad points of the kb highest faces
    for kb in range(nb):
        shift[kb] = kb * sb - int(round(t.prefix[r, kb]))
    f[:] = 0.0
    for ks in range(K):
        lo = 1 if ks == 0 else 0
        for kb in range(nb):
            e[kb] = t.prefix[r, kb] + V[base[ks] - kb * stride]
        for zz in range(width if use_w else 1):
            if use_w:
                for kb in range(lo, nb):
                    f[kb] = W[base[ks] - kb * stride, xlo + zz + shift[kb]]
            kb = pick_big(f, e, lo, nb)
            Hf[ks, zz] = f[kb]
            He[ks, zz] = e[kb]
            Hk[ks, zz] = kb


@njit(cache=True)
def small_choice(Hf, He, Hk, gain, spts, cvec, big, o, zz, use_w, f, e, counts):
    """The small choice ``ks`` picked on joint roll ``o``, the big group's take being ``Hk``
    (``zz``: the points so far, as in :func:`big_choices`; column 0 without ``use_w``)."""
    K = gain.shape[1]
    fmax = NEG
    for ks in range(K):
        z = zz + spts[o, ks] if use_w else 0
        f[ks] = Hf[ks, z] if use_w else 0.0
        e[ks] = gain[o, ks] + He[ks, z]
        fmax = max(fmax, f[ks])
    emax = NEG
    for ks in range(K):
        if _tied(f[ks], fmax):
            emax = max(emax, e[ks])
    chosen = -1
    for ks in range(K):
        if _tied(f[ks], fmax) and _tied(e[ks], emax):
            if chosen >= 0:  # a tie on both values: the dice decide
                for i in range(K):
                    z = zz + spts[o, i] if use_w else 0
                    counts[i, :] = cvec[i, :]
                    counts[i, big] = Hk[i, z]
                return pick(f, e, counts)
            chosen = ks
    return chosen


@njit(cache=True)
def expected_take(He, gain, o):
    """:func:`small_choice` without ``W`` (the expected-points take) on joint roll ``o``, in one
    pass: the choice with the largest expected face sum where no other is within ``TIE`` of it;
    ``-1`` where one is (:func:`small_choice` then breaks the tie)."""
    first = -1
    m1, m2 = NEG, NEG  # the largest and the second largest sums (equal when two are equal)
    for ks in range(gain.shape[1]):
        v = gain[o, ks] + He[ks, 0]
        if v > m1:
            m1, m2, first = v, m1, ks
        elif v > m2:
            m2 = v
    return -1 if _tied(m2, m1) else first


@njit(cache=True)
def win_take(Hf, He, gain, spts, o, zz, f, e):
    """:func:`small_choice` with ``W`` (the win policy's take) on joint roll ``o`` with ``zz`` points,
    in two passes: among the choices with the largest win value (within ``TIE``), the one with
    the largest expected face sum where no other of them is within ``TIE`` of it; ``-1`` where
    one is (:func:`small_choice` then breaks the tie)."""
    K = gain.shape[1]
    fmax = NEG
    for ks in range(K):
        z = zz + spts[o, ks]
        f[ks] = Hf[ks, z]
        e[ks] = gain[o, ks] + He[ks, z]
        fmax = max(fmax, f[ks])
    first = -1
    m1, m2 = NEG, NEG  # the largest and second largest sums of the best win values
    for ks in range(K):
        if _tied(f[ks], fmax):
            if e[ks] > m1:
                m1, m2, first = e[ks], m1, ks
            elif e[ks] > m2:
                m2 = e[ks]
    return -1 if _tied(m2, m1) else first


@njit(cache=True)
def _lightest(ex_w):
    """The first index of the lightest kept example (0 when none are kept)."""
    low = 0
    for i in range(1, ex_w.size):
        if ex_w[i] < ex_w[low]:
            low = i
    return low


@njit(cache=True)
def _keep(ex_w, ex_meta, w, meta, low):
    """Keep ``(w, meta)`` among the heaviest examples (replacing the lightest one, ``ex_w[low]``);
    returns the lightest one's index after."""
    if ex_w.size == 0 or w <= ex_w[low]:
        return low
    ex_w[low] = w
    ex_meta[low, :] = meta
    return _lightest(ex_w)


@njit(cache=True)
def policy_pass(t, W, V, active, mass, st, ex_w, ex_meta):
    """Play from state ``st`` with ``mass[x]`` the probability of reaching it with ``x`` points.

    Returns ``reach[i, x]`` (the mass moved to state ``i`` with ``x`` points), the number of
    decisions ``(x, roll)`` with ``x`` in ``0..X - maxpts(st)`` where the two policies take
    differently (a roll counted once per multiset of faces of each size), and the probability
    of meeting one under the win policy. ``ex_w``/``ex_meta`` keep the heaviest such decisions:
    ``meta = (st, x, table row of each group or -1)``. Each policy's take is chosen in two
    stages: the big group's for every small choice (:func:`big_choices`), then the small choice.
    """
    n_states = t.state_counts.shape[0]
    G = t.sizes.size
    X = W.shape[1] - 1
    mp = max_points(t, st)
    xr = X - mp
    reach = np.zeros((n_states, X + 1))
    n, big, smalls, K, base, kvec = state_setup(t, st)
    R, row0, pts, spmax, tail, n_out, weight, rolls = small_tables(t, n, smalls)
    gain, spts, cvec = small_takes(t, n, smalls, kvec, row0, pts, rolls)
    xlo, xhi = _range(active, st, xr)
    nx = xhi - xlo + 1 if xlo >= 0 else 0
    width = nx + tail[0]
    buf_a, buf_b, best = _buffers(K, n_out, nx, tail, R)
    Ef = np.zeros((K, 1))
    Ee = np.empty((K, 1))
    Ek = np.empty((K, 1), dtype=np.int64)
    Hf = np.empty((K, max(width, 1)))
    He = np.empty((K, max(width, 1)))
    Hk = np.empty((K, max(width, 1)), dtype=np.int64)
    f = np.empty(K)
    e = np.empty(K)
    counts = np.zeros((K, G), dtype=np.int64)
    fb = np.zeros(n[big] + 1)
    eb = np.empty(n[big] + 1)
    moves = np.zeros((n_states, mp + 1))  # the expected-points policy's moves: state left, points
    moves_c = np.zeros((n_states, mp + 1))
    meta = np.empty(2 + G, dtype=np.int64)
    n_diff = 0
    p_diff = 0.0
    low = _lightest(ex_w)
    sb = t.sizes[big]
    stride = t.strides[big]
    for r in range(t.offsets[big, n[big]], t.offsets[big, n[big] + 1]):
        big_choices(t, W, V, r, n, big, base, xlo, width, False, Ef, Ee, Ek, fb, eb)
        if nx > 0:
            level_max(t, W, st, r, n, big, smalls, base, xlo, nx, R, pts, tail, buf_a, buf_b, best)
        win_ready = False
        for o in range(n_out):
            p = t.prob[r] * weight[o]
            ke = expected_take(Ee, gain, o)
            if ke < 0:
                ke = small_choice(Ef, Ee, Ek, gain, spts, cvec, big, o, 0, False, f, e, counts)
            kbe = Ek[ke, 0]
            se = base[ke] - kbe * stride
            pe = spts[o, ke] + kbe * sb - int(round(t.prefix[r, kbe]))
            y = p - moves_c[se, pe]  # compensated (Kahan) sum: millions of small terms
            sum_ = moves[se, pe] + y
            moves_c[se, pe] = (sum_ - moves[se, pe]) - y
            moves[se, pe] = sum_
            for xx in range(nx):
                x = xlo + xx
                if not active[st, x] or _tied(W[se, x + pe], best[o, xx]):
                    continue
                n_diff += 1
                if mass[x] == 0.0:
                    continue
                p_diff += mass[x] * p
                if not win_ready:
                    big_choices(t, W, V, r, n, big, base, xlo, width, True, Hf, He, Hk, fb, eb)
                    win_ready = True
                kw = win_take(Hf, He, gain, spts, o, xx, f, e)
                if kw < 0:
                    kw = small_choice(Hf, He, Hk, gain, spts, cvec, big, o, xx, True, f, e, counts)
                kbw = Hk[kw, xx + spts[o, kw]]
                pw = spts[o, kw] + kbw * sb - int(round(t.prefix[r, kbw]))
                reach[base[kw] - kbw * stride, x + pw] += mass[x] * p
                reach[se, x + pe] -= mass[x] * p
                if ex_w.size == 0 or mass[x] * p <= ex_w[low]:
                    continue  # lighter than every example kept
                meta[0] = st
                meta[1] = x
                meta[2:] = -1
                meta[2 + big] = r
                for j in range(smalls.size):
                    meta[2 + smalls[j]] = row0[j] + rolls[o, j]
                low = _keep(ex_w, ex_meta, mass[x] * p, meta, low)
    for x in range(xr + 1):
        if mass[x] == 0.0:
            continue
        for i in range(n_states):
            for q in range(mp + 1):
                if moves[i, q] != 0.0:
                    reach[i, x + q] += mass[x] * moves[i, q]
    total = moves.sum()  # the roll probabilities' sum: 1 but for rounding, divided out
    reach /= total
    return reach, n_diff, p_diff / total
