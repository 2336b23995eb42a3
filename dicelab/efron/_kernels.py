"""Compiled kernels of the max-sum cycle search (numba), on a digraph in sparse rows.

The weighted digraph is kept in compressed sparse rows (CSR): the successors of
node ``i`` are ``indices[indptr[i]:indptr[i+1]]`` (ascending), with the step
weights in the same positions of ``weights``. A forbidden step is "minus
infinity", the integer :data:`NEG`; every kernel works in ``int64``.

Max-plus (tropical) algebra: ``(A (x) B)[i, j] = max_k A[i, k] + B[k, j]``; the
``r``-th max-plus power ``R_r`` of the step matrix holds the best ``r``-step walk
between every pair of nodes.
"""

from __future__ import annotations

import numpy as np
from numba import njit

# "Minus infinity" for forbidden steps; the kernels read it as a compile-time constant.
# Sums of a few of them stay far from int64 overflow.
NEG = -(2**40)


def csr(weights: np.ndarray, allowed: np.ndarray):
    """The allowed steps of a dense digraph as ``(indptr, indices, weights)``."""
    rows, cols = np.nonzero(allowed)  # row-major: rows ascending, columns ascending within a row
    indptr = np.zeros(allowed.shape[0] + 1, dtype=np.int64)
    np.cumsum(np.bincount(rows, minlength=allowed.shape[0]), out=indptr[1:])
    return indptr, cols.astype(np.int64), weights[rows, cols].astype(np.int64)


@njit(cache=True)
def csr_equal(indptr, indices, weights, value):
    """The subgraph of the steps whose weight equals ``value``."""
    n = indptr.size - 1
    keep = weights == value
    new_ptr = np.zeros(n + 1, dtype=np.int64)
    for i in range(n):
        new_ptr[i + 1] = new_ptr[i] + keep[indptr[i] : indptr[i + 1]].sum()
    return new_ptr, indices[keep], weights[keep]


@njit(cache=True)
def dense(indptr, indices, weights):
    """``R_1``: the step matrix, ``NEG`` where no step is allowed."""
    n = indptr.size - 1
    R = np.full((n, n), NEG, dtype=np.int64)
    for i in range(n):
        for p in range(indptr[i], indptr[i + 1]):
            R[i, indices[p]] = weights[p]
    return R


@njit(cache=True)
def square(indptr, indices, weights):
    """``R_2 = A (x) A``: best two-step walk between every pair, from the sparse rows only."""
    n = indptr.size - 1
    R = np.full((n, n), NEG, dtype=np.int64)
    for i in range(n):
        for p in range(indptr[i], indptr[i + 1]):
            k = indices[p]
            a = weights[p]
            for q in range(indptr[k], indptr[k + 1]):
                j = indices[q]
                v = a + weights[q]
                if v > R[i, j]:
                    R[i, j] = v
    return R


@njit(cache=True)
def times_dense(indptr, indices, weights, B):
    """``A (x) B`` with ``A`` sparse and ``B`` dense; entries below -inf/2 are -inf again."""
    n = indptr.size - 1
    neg = NEG
    C = np.full((n, B.shape[1]), neg, dtype=np.int64)
    for i in range(n):
        for p in range(indptr[i], indptr[i + 1]):
            k = indices[p]
            a = weights[p]
            for j in range(B.shape[1]):
                v = a + B[k, j]
                if v > C[i, j]:
                    C[i, j] = v
        for j in range(B.shape[1]):
            if C[i, j] < neg // 2:
                C[i, j] = neg
    return C


@njit(cache=True)
def diagonal_bound(indptr, indices, weights, Ra, Rb, a_is_one):
    """``ub[i] = max_k R_a[i, k] + R_b[k, i]``, the best closed walk through ``i``."""
    n = indptr.size - 1
    neg = NEG
    ub = np.full(n, neg, dtype=np.int64)
    for i in range(n):
        best = neg
        if a_is_one:
            for p in range(indptr[i], indptr[i + 1]):
                v = weights[p] + Rb[indices[p], i]
                if v > best:
                    best = v
        else:
            for k in range(n):
                v = Ra[i, k] + Rb[k, i]
                if v > best:
                    best = v
        ub[i] = best if best > neg // 2 else neg
    return ub


def walk_bounds(indptr, indices, weights, M: int) -> np.ndarray:
    """Per node ``i``: the best closed ``M``-walk through ``i`` (the paper's ``S_{l0,l0}``).

    The walk is split into ``a = M // 2`` and ``b = M - a`` steps, so only the
    max-plus powers ``R_2 .. R_b`` are formed (``R_2`` from the sparse rows alone),
    each from the one before, keeping ``R_a`` and ``R_b``.
    """
    a, b = M // 2, M - M // 2
    R = dense(indptr, indices, weights) if b == 1 else square(indptr, indices, weights)
    Ra = R  # R_a, kept once formed (unused when a == 1); at most three powers are alive at a time
    for r in range(3, b + 1):
        if r - 1 == a:
            Ra = R
        R = times_dense(indptr, indices, weights, R)
    if a == b:
        Ra = R
    return diagonal_bound(indptr, indices, weights, Ra, R, a == 1)


@njit(cache=True)
def branch_and_bound(indptr, indices, weights, M, order, upper):
    """Branch-and-bound over simple ``M``-cycles ``l0 < l1, ..., l_{M-1}``.

    ``order`` lists the start nodes by decreasing ``upper`` (the closed-walk bound).
    For each start ``l0`` the exact closed-walk bounds restricted to nodes above
    ``l0`` are computed (``col[r, c]``: best ``r``-step walk ``c -> l0``), then a
    depth-first search extends the path while ``partial + bound >= best``.
    Returns the best value and all cycles attaining it.
    """
    n = indptr.size - 1
    neg = NEG
    best = neg
    cap = 64
    found = np.empty((cap, M), dtype=np.int64)
    nfound = 0
    col = np.empty((M, n), dtype=np.int64)
    path = np.empty(M, dtype=np.int64)
    partial = np.empty(M, dtype=np.int64)
    ptr = np.empty(M, dtype=np.int64)
    for t in range(order.size):
        l0 = order[t]
        if upper[l0] < best:
            break
        # col[r, c] for c >= l0: best r-step walk from c to l0 through nodes > l0
        for c in range(n):
            col[0, c] = neg
        col[0, l0] = 0
        for r in range(1, M):
            for c in range(n):
                col[r, c] = neg
            for c in range(l0 + 1, n):
                b = neg
                for p in range(indptr[c], indptr[c + 1]):
                    k = indices[p]
                    if k < l0 or (k == l0 and r > 1):
                        continue
                    v = weights[p] + col[r - 1, k]
                    if v > b:
                        b = v
                col[r, c] = b if b > neg // 2 else neg
        # depth-first search; path[0..d] chosen, ptr[d] walks the successors of path[d]
        path[0] = l0
        partial[0] = 0
        ptr[0] = indptr[l0]
        d = 0
        while d >= 0:
            u = path[d]
            if ptr[d] >= indptr[u + 1]:
                d -= 1
                continue
            p = ptr[d]
            ptr[d] += 1
            c = indices[p]
            if c <= l0:
                continue
            bound = partial[d] + weights[p] + col[M - 1 - d, c]
            if bound < best or col[M - 1 - d, c] == neg:
                continue
            repeated = False
            for e in range(1, d + 1):
                if path[e] == c:
                    repeated = True
                    break
            if repeated:
                continue
            if d == M - 2:  # c is the last die; col[1, c] is the closing step c -> l0
                if bound > best:
                    best = bound
                    nfound = 0
                if nfound == cap:
                    cap *= 2
                    grown = np.empty((cap, M), dtype=np.int64)
                    grown[:nfound] = found[:nfound]
                    found = grown
                found[nfound, : M - 1] = path[: M - 1]
                found[nfound, M - 1] = c
                nfound += 1
            else:
                d += 1
                path[d] = c
                partial[d] = partial[d - 1] + weights[p]
                ptr[d] = indptr[c]
    return best, found[:nfound].copy()


@njit(cache=True)
def maxplus_dense(A, B):
    """``A (x) B`` for dense ``int64`` matrices."""
    n, m = A.shape[0], B.shape[1]
    C = np.empty((n, m), dtype=np.int64)
    for i in range(n):
        for j in range(m):
            C[i, j] = A[i, 0] + B[0, j]
        for k in range(1, A.shape[1]):
            a = A[i, k]
            for j in range(m):
                v = a + B[k, j]
                if v > C[i, j]:
                    C[i, j] = v
    return C
