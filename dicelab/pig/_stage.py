"""Numba kernels of the stage games of two-player simultaneous Pig (:mod:`dicelab.pig.stage_games`).

At a state ``(i, j)`` A holds at ``k = a + 1`` and B at ``k' = c + 1``; the stage game is
``M(p)[a, c] = A[a, c] + z[a] w[c] p`` with ``z[a] = P(X_k = 0)``, ``w[c] = P(X_k' = 0)`` (both
score 0 and the state returns to itself) and ``p`` the state's own value. The state's value is
the fixed point ``p = val M(p)``; it is unique because ``z w < 1``.

How a stage game is solved (:func:`solve_stage`): a *double oracle*. A restricted game on a few
rows and columns is solved exactly (:func:`_restricted`); if a row or column outside it does
better against the restricted solution in the full ``M(p)``, it joins, and the restricted game
is solved again. The restricted game is solved on square *kernels* (Shapley and Snow: some
equilibrium of every matrix game has a square kernel): on a ``s x s`` kernel both players
equalise, so ``det(M(p) - p J) = 0``, and with ``M(p) - p J = A + p (z w^T - J)`` that is a
quadratic in ``p`` (a rank-two update of ``A``). A ``1 x 1`` kernel is a pure saddle point,
``p = A / (1 - z w)``; a ``2 x 2`` kernel is solved in closed form; larger ones (rare) through
determinants and a null vector. No linear programme and no iteration tolerance are involved:
the only tolerance, ``tol``, is how much an action may gain against a solution before it
counts as better (rounding), and the caller certifies the result globally.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from dicelab.pig._square_kernels import kernel2, kernel_general


@njit(cache=True)
def stage_matrix(i, j, goal, T, W, H, A):
    """Fill ``A[:goal-i, :goal-j]`` at ``(i, j)``, each outcome pair weighted once.

    ``H[x, c]``: A's value after the turn when A's turn total is ``x`` and B holds at ``c + 1``
    (B's 7 outcomes); ``A[a, c]`` then sums A's 7 outcomes. ``W[i, j]`` must be 0 (the
    self-loop is carried by ``z w p``).
    """
    na, nb = goal - i, goal - j
    for x in range(na + 6):
        for c in range(nb):
            kb = c + 1
            h = T[kb, 0] * W[i + x, j]
            for r in range(6):
                h += T[kb, kb + r] * W[i + x, j + kb + r]
            H[x, c] = h
    for a in range(na):
        k = a + 1
        for c in range(nb):
            v = T[k, 0] * H[0, c]
            for r in range(6):
                v += T[k, k + r] * H[k + r, c]
            A[a, c] = v


@njit(cache=True)
def _row_payoff(A, z, w, p, r, kcols, ky, s):
    """A's payoff in ``M(p)`` from row ``r`` against B's kernel strategy (``ky`` on ``kcols[:s]``).

    Column ``c`` against A's kernel strategy is ``_row_payoff(A.T, w, z, p, c, krows, kx, s)``.
    """
    g = 0.0
    for v in range(s):
        c = kcols[v]
        g += ky[v] * (A[r, c] + z[r] * w[c] * p)
    return g


@njit(cache=True)
def _is_restricted_equilibrium(A, z, w, R, nr, C, nc, p, krows, kx, kcols, ky, s, tol):
    """Whether the kernel solution (``kx`` on rows ``krows``, ``ky`` on ``kcols``) is an
    equilibrium of ``M(p)`` restricted to ``R x C``, up to ``tol``."""
    for u in range(nr):
        if _row_payoff(A, z, w, p, R[u], kcols, ky, s) > p + tol:
            return False
    for v in range(nc):
        if _row_payoff(A.T, w, z, p, C[v], krows, kx, s) < p - tol:
            return False
    return True


@njit(cache=True)
def _next_subset(idx, s, n):
    """Advance ``idx[:s]`` to the next ``s``-subset of ``range(n)`` in lexicographic order."""
    t = s - 1
    while t >= 0 and idx[t] == n - s + t:
        t -= 1
    if t < 0:
        return False
    idx[t] += 1
    for u in range(t + 1, s):
        idx[u] = idx[u - 1] + 1
    return True


@njit(cache=True)
def _restricted(A, z, w, R, nr, C, nc, tol, krows, kcols, kx, ky):
    """Solve the stage game restricted to ``R[:nr] x C[:nc]`` on its smallest square kernel.

    Writes the kernel to ``krows``/``kcols`` with weights ``kx``/``ky`` and returns
    ``(s, p)``; ``s = 0`` if no kernel solves it (never for an exact game).
    """
    roots = np.zeros(2)
    xs = np.zeros(2)
    ys = np.zeros(2)
    # kernel sizes as int64 values, not literal constants: one compiled version of each callee
    one, two = np.int64(1), np.int64(2)
    for u in range(nr):  # s = 1: pure saddle points
        for v in range(nc):
            r, c = R[u], C[v]
            p = A[r, c] / (1.0 - z[r] * w[c])
            krows[0], kcols[0], kx[0], ky[0] = r, c, 1.0, 1.0
            if _is_restricted_equilibrium(A, z, w, R, nr, C, nc, p, krows, kx, kcols, ky, one, tol):
                return 1, p
    for u1 in range(nr):  # s = 2: closed form
        for u2 in range(u1 + 1, nr):
            for v1 in range(nc):
                for v2 in range(v1 + 1, nc):
                    r1, r2, c1, c2 = R[u1], R[u2], C[v1], C[v2]
                    n = kernel2(A, z, w, r1, r2, c1, c2, roots, xs, ys)
                    krows[0], krows[1], kcols[0], kcols[1] = r1, r2, c1, c2
                    for t in range(n):
                        kx[0], kx[1], ky[0], ky[1] = xs[t], 1.0 - xs[t], ys[t], 1.0 - ys[t]
                        if _is_restricted_equilibrium(
                            A, z, w, R, nr, C, nc, roots[t], krows, kx, kcols, ky, two, tol
                        ):
                            return 2, roots[t]
    X = np.zeros((2, nr))
    Y = np.zeros((2, nc))
    ri = np.zeros(nr, dtype=np.int64)
    ci = np.zeros(nc, dtype=np.int64)
    for s in range(3, min(nr, nc) + 1):  # s >= 3: determinants and null vectors
        for u in range(s):
            ri[u] = u
        more_r = True
        while more_r:
            for v in range(s):
                ci[v] = v
            more_c = True
            while more_c:
                for u in range(s):
                    krows[u], kcols[u] = R[ri[u]], C[ci[u]]
                n = kernel_general(A, z, w, krows, kcols, s, roots, X, Y)
                for t in range(n):
                    kx[:s] = X[t, :s]
                    ky[:s] = Y[t, :s]
                    if _is_restricted_equilibrium(
                        A, z, w, R, nr, C, nc, roots[t], krows, kx, kcols, ky, s, tol
                    ):
                        return s, roots[t]
                more_c = _next_subset(ci, s, nc)
            more_r = _next_subset(ri, s, nr)
    return 0, 0.0


@njit(cache=True)
def _contains(S, n, e):
    for t in range(n):
        if S[t] == e:
            return True
    return False


@njit(cache=True)
def solve_stage(A, z, w, na, nb, r0, c0, tol, max_iter, x, y):
    """The fixed point ``p = val M(p)`` of the stage game ``A[:na, :nb]`` by a double oracle.

    Starts from row ``r0`` and column ``c0``; each round solves the restricted game
    (:func:`_restricted`) and adds the full game's best reply of each player if it gains more
    than ``tol``. Writes the strategies to ``x[:na]``, ``y[:nb]``.

    Returns ``(status, p, s, rounds, excess)``: ``status`` 0 (solved), 1 (a restricted game
    had no kernel), 2 (an action already in the restricted game gains more than ``tol``:
    rounding) or 3 (``max_iter`` rounds were not enough); ``s`` the kernel's size; ``excess``
    the largest gain of a best reply in the last round.
    """
    cap_r, cap_c = min(na, 12), min(nb, 12)  # restricted games stay small: kernels are enumerated
    R = np.zeros(cap_r, dtype=np.int64)
    C = np.zeros(cap_c, dtype=np.int64)
    krows = np.zeros(min(cap_r, cap_c), dtype=np.int64)
    kcols = np.zeros(min(cap_r, cap_c), dtype=np.int64)
    kx = np.zeros(min(cap_r, cap_c))
    ky = np.zeros(min(cap_r, cap_c))
    R[0], C[0] = r0, c0
    nr, nc = np.int64(1), np.int64(1)  # int64 values, not literal constants: one compiled callee
    excess = np.inf
    for rounds in range(1, max_iter + 1):
        s, p = _restricted(A, z, w, R, nr, C, nc, tol, krows, kcols, kx, ky)
        if s == 0:
            return 1, p, s, rounds, excess
        best_r, best_u = 0, -np.inf  # A's best reply to B's kernel strategy
        for r in range(na):
            g = _row_payoff(A, z, w, p, r, kcols, ky, s)
            if g > best_u:
                best_r, best_u = r, g
        best_c, best_v = 0, np.inf  # B's best reply to A's kernel strategy
        for c in range(nb):
            g = _row_payoff(A.T, w, z, p, c, krows, kx, s)
            if g < best_v:
                best_c, best_v = c, g
        excess = max(best_u - p, p - best_v)
        grew = False
        if best_u > p + tol:
            if _contains(R, nr, best_r) or nr == cap_r:
                return 2, p, s, rounds, excess
            R[nr] = best_r
            nr += 1
            grew = True
        if best_v < p - tol:
            if _contains(C, nc, best_c) or nc == cap_c:
                return 2, p, s, rounds, excess
            C[nc] = best_c
            nc += 1
            grew = True
        if not grew:
            x[:na] = 0.0
            y[:nb] = 0.0
            for u in range(s):
                x[krows[u]] += kx[u]
                y[kcols[u]] += ky[u]
            return 0, p, s, rounds, excess
    return 3, p, 0, max_iter, excess


@njit(cache=True)
def pure_margin(A, z, w, na, nb, p, r, c, twin):
    """How far the pure saddle point ``(r, c)`` is from failing: the least ``M(p)[r, c'] - p``
    and ``p - M(p)[r', c]`` over actions not identical to ``r``/``c`` (``twin``: the first
    action with the same turn-total distribution). ``inf`` if there is none."""
    m = np.inf
    for c2 in range(nb):
        if twin[c2] != twin[c]:
            m = min(m, A[r, c2] + z[r] * w[c2] * p - p)
    for r2 in range(na):
        if twin[r2] != twin[r]:
            m = min(m, p - (A[r2, c] + z[r2] * w[c] * p))
    return m


@njit(cache=True)
def pure_gap(A, z, w, na, nb, p):
    """``min_c max_r M(p) - max_r min_c M(p)``: positive exactly when ``M(p)`` has no pure saddle point."""
    colmax = np.full(nb, -np.inf)
    lower = -np.inf
    for r in range(na):
        rowmin = np.inf
        for c in range(nb):
            m = A[r, c] + z[r] * w[c] * p
            rowmin = min(rowmin, m)
            colmax[c] = max(colmax[c], m)
        lower = max(lower, rowmin)
    return colmax.min() - lower


@njit(cache=True)
def equilibrium_sweep(goal, T, W, order, symmetric, twin, tol, max_iter, row, col, margin, kernel):
    """Every state's stage game, in ``order`` (rows ``(i, j)``), solved by :func:`solve_stage`.

    With ``symmetric`` (ties worth 1/2) only ``i <= j`` is in ``order`` and the mirror state
    gets ``1 - p`` and the strategies swapped. Fills ``W``, ``row``/``col`` (A's and B's
    strategies), ``kernel`` (the kernel's size: 1 for a pure saddle point) and ``margin``
    (:func:`pure_margin` for a pure state, :func:`pure_gap` for a mixed one).

    Returns ``(status, where, rounds, excess)``: ``status`` as :func:`solve_stage` (0: every
    state solved), ``where`` the failing state's index in ``order``, ``rounds`` the most
    rounds any state needed.
    """
    H = np.zeros((goal + 6, goal))
    A = np.zeros((goal, goal))
    z = T[1:, 0].copy()
    x = np.zeros(goal)
    y = np.zeros(goal)
    r0, c0 = 0, 0
    most = 0
    for n in range(order.shape[0]):
        i, j = order[n, 0], order[n, 1]
        na, nb = goal - i, goal - j
        stage_matrix(i, j, goal, T, W, H, A)
        status, p, s, rounds, excess = solve_stage(
            A, z, z, na, nb, min(r0, na - 1), min(c0, nb - 1), tol, max_iter, x, y
        )
        if status != 0:
            return status, n, rounds, excess
        most = max(most, rounds)
        r0, c0 = np.argmax(x[:na]), np.argmax(y[:nb])
        W[i, j] = p
        row[i, j, :na] = x[:na]
        col[i, j, :nb] = y[:nb]
        kernel[i, j] = s
        if s == 1:
            margin[i, j] = pure_margin(A, z, z, na, nb, p, r0, c0, twin)
        else:
            margin[i, j] = pure_gap(A, z, z, na, nb, p)
        if symmetric and i != j:
            W[j, i] = 1.0 - p
            row[j, i, :nb] = y[:nb]
            col[j, i, :na] = x[:na]
            kernel[j, i] = s
            margin[j, i] = margin[i, j]
    return 0, -1, most, 0.0


@njit(cache=True)
def svima_sweep(goal, T, W, tol, max_iter, ka, kb):
    """SVIMA's fixed point ``p = min_c max_r M(p)`` in every state, in reverse order.

    Safeguarded Newton steps from ``p = 1/2`` in the bracket ``[0, 1]``: at ``p`` B picks the
    column whose best row is least, A that best row (first on ties), and the step is that
    cell's own fixed point ``A / (1 - z w)``. Fills ``W`` and the actions ``ka``, ``kb``
    (indices); returns ``(iterations, residual)`` of the worst state.
    """
    H = np.zeros((goal + 6, goal))
    A = np.zeros((goal, goal))
    z = T[1:, 0].copy()
    colmax = np.zeros(goal)
    argrow = np.zeros(goal, dtype=np.int64)
    worst_it, worst_res = 0, 0.0
    for i in range(goal - 1, -1, -1):
        for j in range(goal - 1, -1, -1):
            na, nb = goal - i, goal - j
            stage_matrix(i, j, goal, T, W, H, A)
            lo, hi, v = 0.0, 1.0, 0.5
            res = np.inf
            it = 0
            a, b = 0, 0
            while it < max_iter:
                it += 1
                for c in range(nb):
                    colmax[c] = -np.inf
                for r in range(na):
                    for c in range(nb):
                        m = A[r, c] + z[r] * z[c] * v
                        if m > colmax[c]:
                            colmax[c], argrow[c] = m, r
                b = 0
                for c in range(1, nb):
                    if colmax[c] < colmax[b]:
                        b = c
                a = argrow[b]
                if colmax[b] > v:
                    lo = max(lo, v)
                else:
                    hi = min(hi, v)
                new = A[a, b] / (1.0 - z[a] * z[b])
                if not lo <= new <= hi:
                    new = 0.5 * (lo + hi)
                res = min(abs(new - v), hi - lo)
                v = new
                if res < tol:
                    break
            worst_it = max(worst_it, it)
            worst_res = max(worst_res, res)
            W[i, j], ka[i, j], kb[i, j] = v, a, b
    return worst_it, worst_res
