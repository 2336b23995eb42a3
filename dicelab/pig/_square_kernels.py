"""Square kernels of the stage games (:mod:`dicelab.pig._stage`): fully mixed fixed points.

On an ``s x s`` kernel ``(rows, cols)`` of the stage game ``M(p) = A + z w^T p`` both players
equalise, so ``det(A_K + p B_K) = 0`` with ``B = z w^T - J``: a quadratic in ``p``. Its roots
whose equalising weights are probabilities are the kernel's candidate fixed points:
:func:`kernel2` in closed form for ``s = 2``, :func:`kernel_general` through determinants
and null vectors for ``s >= 3``.
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def _quadratic_roots(c2, c1, c0, out):
    """Real roots of ``c2 p^2 + c1 p + c0`` (stable formula) into ``out``; returns how many."""
    if c2 == 0.0:
        if c1 == 0.0:
            return 0
        out[0] = -c0 / c1
        return 1
    disc = c1 * c1 - 4.0 * c2 * c0
    if disc < 0.0:
        return 0
    q = -0.5 * (c1 + np.copysign(np.sqrt(disc), c1))
    out[0] = q / c2
    if q == 0.0:
        return 1
    out[1] = c0 / q
    return 2


@njit(cache=True)
def kernel2(A, z, w, r1, r2, c1, c2, roots, xs, ys):
    """Fixed points of the fully mixed ``2 x 2`` kernel ``(r1, r2) x (c1, c2)``.

    ``det(A + p (z w^T - J)) = 0`` restricted to the kernel, with ``x1``, ``y1`` the
    equalising weights at each root; returns how many roots have weights in ``[0, 1]``.
    """
    a11, a12, a21, a22 = A[r1, c1], A[r1, c2], A[r2, c1], A[r2, c2]
    b11, b12 = z[r1] * w[c1] - 1.0, z[r1] * w[c2] - 1.0
    b21, b22 = z[r2] * w[c1] - 1.0, z[r2] * w[c2] - 1.0
    n = _quadratic_roots(
        b11 * b22 - b12 * b21,
        a11 * b22 + a22 * b11 - a12 * b21 - a21 * b12,
        a11 * a22 - a12 * a21,
        roots,
    )
    kept = 0
    for t in range(n):
        p = roots[t]
        for step in range(3):  # two Newton steps polish the root, then the weights at it
            m11, m12, m21, m22 = a11 + b11 * p, a12 + b12 * p, a21 + b21 * p, a22 + b22 * p
            den = m11 + m22 - m12 - m21
            if den == 0.0:
                break
            x1, y1 = (m22 - m21) / den, (m22 - m12) / den
            if step < 2:  # with these weights the value is linear in p: its fixed point
                x2, y2 = 1.0 - x1, 1.0 - y1
                a = x1 * (y1 * a11 + y2 * a12) + x2 * (y1 * a21 + y2 * a22)
                p = a / (1.0 - (x1 * z[r1] + x2 * z[r2]) * (y1 * w[c1] + y2 * w[c2]))
        if den == 0.0:
            continue
        if -1e-15 <= x1 <= 1 + 1e-15 and -1e-15 <= y1 <= 1 + 1e-15:
            roots[kept] = p
            xs[kept] = min(max(x1, 0.0), 1.0)
            ys[kept] = min(max(y1, 0.0), 1.0)
            kept += 1
    return kept


@njit(cache=True)
def _det(M, s, LU):
    """``det M[:s, :s]`` by Gaussian elimination with partial pivoting (in the scratch ``LU``)."""
    for u in range(s):
        for v in range(s):
            LU[u, v] = M[u, v]
    det = 1.0
    for c in range(s):
        piv = c
        for u in range(c + 1, s):
            if abs(LU[u, c]) > abs(LU[piv, c]):
                piv = u
        if LU[piv, c] == 0.0:
            return 0.0
        if piv != c:
            det = -det
            for v in range(s):
                LU[c, v], LU[piv, v] = LU[piv, v], LU[c, v]
        det *= LU[c, c]
        for u in range(c + 1, s):
            f = LU[u, c] / LU[c, c]
            for v in range(c + 1, s):
                LU[u, v] -= f * LU[c, v]
    return det


@njit(cache=True)
def _null_vector(M, s, transpose, LU, perm, out):
    """A vector ``v`` with ``M v = 0`` (``v M = 0`` if ``transpose``) for a singular ``M[:s, :s]``.

    Gaussian elimination with complete pivoting: the last pivot is the smallest, and is taken
    as 0; the unknown of its column is set to 1 and the others solved by back substitution.
    """
    for u in range(s):
        perm[u] = u
        for v in range(s):
            LU[u, v] = M[v, u] if transpose else M[u, v]
    for c in range(s - 1):
        pr, pc, big = c, c, -1.0
        for u in range(c, s):
            for v in range(c, s):
                if abs(LU[u, v]) > big:
                    pr, pc, big = u, v, abs(LU[u, v])
        if big == 0.0:
            break
        for v in range(s):
            LU[c, v], LU[pr, v] = LU[pr, v], LU[c, v]
        for u in range(s):
            LU[u, c], LU[u, pc] = LU[u, pc], LU[u, c]
        perm[c], perm[pc] = perm[pc], perm[c]
        for u in range(c + 1, s):
            f = LU[u, c] / LU[c, c]
            for v in range(c, s):
                LU[u, v] -= f * LU[c, v]
    t = np.zeros(s)
    t[s - 1] = 1.0
    for c in range(s - 2, -1, -1):
        acc = 0.0
        for v in range(c + 1, s):
            acc += LU[c, v] * t[v]
        t[c] = -acc / LU[c, c] if LU[c, c] != 0.0 else 0.0
    for c in range(s):
        out[perm[c]] = t[c]


@njit(cache=True)
def kernel_general(A, z, w, rows, cols, s, roots, X, Y):
    """Fixed points of a fully mixed ``s x s`` kernel (``s >= 3``), weights in ``X``/``Y`` rows.

    ``f(p) = det(A_K + p B_K)``, ``B = z w^T - J``, is a quadratic: its coefficients come from
    ``f(0)``, ``f(1)``, ``f(-1)``; at a root the weights are the null vectors of the kernel
    (elimination with complete pivoting, :func:`_null_vector`). Plain loops, no LAPACK: the
    kernels are at most 12 x 12, and numba compiles loops far faster than its linear algebra.
    """
    AK = np.empty((s, s))
    BK = np.empty((s, s))
    K = np.empty((s, s))
    LU = np.empty((s, s))
    perm = np.empty(s, dtype=np.int64)
    for u in range(s):
        for v in range(s):
            AK[u, v] = A[rows[u], cols[v]]
            BK[u, v] = z[rows[u]] * w[cols[v]] - 1.0
    f0 = _det(AK, s, LU)
    for u in range(s):
        for v in range(s):
            K[u, v] = AK[u, v] + BK[u, v]
    fp = _det(K, s, LU)
    for u in range(s):
        for v in range(s):
            K[u, v] = AK[u, v] - BK[u, v]
    fm = _det(K, s, LU)
    n = _quadratic_roots(0.5 * (fp + fm) - f0, 0.5 * (fp - fm), f0, roots)
    kept = 0
    x, y = np.empty(s), np.empty(s)
    for t in range(n):
        p = roots[t]
        ok = True
        for step in range(3):  # two Newton steps polish the root, then the weights at it
            for u in range(s):
                for v in range(s):
                    K[u, v] = AK[u, v] + p * BK[u, v]
            _null_vector(K, s, True, LU, perm, x)
            _null_vector(K, s, False, LU, perm, y)
            sx, sy = x.sum(), y.sum()
            if sx == 0.0 or sy == 0.0:
                ok = False
                break
            for u in range(s):
                x[u] /= sx
                y[u] /= sy
            if step < 2:
                xay, xz, yw = 0.0, 0.0, 0.0
                for u in range(s):
                    xz += x[u] * z[rows[u]]
                    yw += y[u] * w[cols[u]]
                    for v in range(s):
                        xay += x[u] * AK[u, v] * y[v]
                p = xay / (1.0 - xz * yw)
        if not ok or x.min() < -1e-12 or y.min() < -1e-12:
            continue
        roots[kept] = p
        sx, sy = 0.0, 0.0
        for u in range(s):
            sx += max(x[u], 0.0)
            sy += max(y[u], 0.0)
        for u in range(s):
            X[kept, u] = max(x[u], 0.0) / sx
            Y[kept, u] = max(y[u], 0.0) / sy
        kept += 1
    return kept
