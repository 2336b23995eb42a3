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


# int16 "minus infinity" of :func:`square_rows`, for weights below ``SMALL`` in absolute value:
# a sum of two real weights stays above ``NEG16 // 2``, a sum with ``NEG16`` below it.
NEG16 = -(2**14)
SMALL = 2**11


@njit(cache=True)
def square_rows(indptr, indices, weights):
    """:func:`square` by whole rows: ``R_2[i] = max_{k in succ(i)} w[i, k] + R_1[k]`` over a dense
    ``int16`` copy of ``R_1``, two successors at a time (the loop over ``j`` runs in SIMD lanes).
    Needs ``|weights| < SMALL``."""
    n = indptr.size - 1
    D = np.full((n, n), NEG16, dtype=np.int16)
    for i in range(n):
        for p in range(indptr[i], indptr[i + 1]):
            D[i, indices[p]] = weights[p]
    R = np.empty((n, n), dtype=np.int64)
    row = np.empty(n, dtype=np.int16)
    for i in range(n):
        row[:] = NEG16
        p, end = indptr[i], indptr[i + 1]
        while p + 1 < end:
            a, b = np.int16(weights[p]), np.int16(weights[p + 1])
            Da, Db = D[indices[p]], D[indices[p + 1]]
            for j in range(n):
                u, v = np.int16(a + Da[j]), np.int16(b + Db[j])
                u = u if u > v else v
                row[j] = u if u > row[j] else row[j]
            p += 2
        if p < end:
            a, Da = np.int16(weights[p]), D[indices[p]]
            for j in range(n):
                u = np.int16(a + Da[j])
                row[j] = u if u > row[j] else row[j]
        for j in range(n):
            R[i, j] = row[j] if row[j] > NEG16 // 2 else NEG
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
        ub[i] = best
    if not a_is_one:  # in square tiles, so that the column of Rb is read from cache
        tile = 64
        for i0 in range(0, n, tile):
            for k0 in range(0, n, tile):
                for i in range(i0, min(i0 + tile, n)):
                    best = ub[i]
                    for k in range(k0, min(k0 + tile, n)):
                        v = Ra[i, k] + Rb[k, i]
                        if v > best:
                            best = v
                    ub[i] = best
    for i in range(n):
        if ub[i] <= neg // 2:
            ub[i] = neg
    return ub


def _rows_pay(indptr, indices) -> bool:
    """Whether :func:`square_rows` (``nnz * n`` steps in SIMD lanes, ~0.4 ns each) beats
    :func:`square` (``sum_k indegree(k) outdegree(k)`` scattered steps, ~4 ns each)."""
    n = indptr.size - 1
    scattered = float(np.dot(np.bincount(indices, minlength=n), np.diff(indptr)))
    return indices.size * n < 10 * scattered


def walk_bounds(indptr, indices, weights, M: int) -> np.ndarray:
    """Per node ``i``: the best closed ``M``-walk through ``i`` (the paper's ``S_{l0,l0}``).

    The walk is split into ``a = M // 2`` and ``b = M - a`` steps, so only the
    max-plus powers ``R_2 .. R_b`` are formed (``R_2`` from the sparse rows of ``R_1``),
    each from the one before, keeping ``R_a`` and ``R_b``.
    """
    a, b = M // 2, M - M // 2
    if b == 1:
        R = dense(indptr, indices, weights)
    elif weights.size and np.abs(weights).max() < SMALL and _rows_pay(indptr, indices):
        R = square_rows(indptr, indices, weights)
    else:
        R = square(indptr, indices, weights)
    Ra = R  # R_a, kept once formed (unused when a == 1); at most three powers are alive at a time
    for r in range(3, b + 1):
        if r - 1 == a:
            Ra = R
        R = times_dense(indptr, indices, weights, R)
    if a == b:
        Ra = R
    return diagonal_bound(indptr, indices, weights, Ra, R, a == 1)


@njit(cache=True)
def transpose(indptr, indices, weights):
    """The predecessors of every node in sparse rows: ``(indptr, indices, weights)`` of the
    reversed digraph (the weight of ``c -> k`` listed under ``k``)."""
    n = indptr.size - 1
    tptr = np.zeros(n + 1, dtype=np.int64)
    for p in range(indices.size):
        tptr[indices[p] + 1] += 1
    for k in range(n):
        tptr[k + 1] += tptr[k]
    fill = tptr[:-1].copy()
    tind = np.empty(indices.size, dtype=np.int64)
    tw = np.empty(indices.size, dtype=np.int64)
    for c in range(n):
        for p in range(indptr[c], indptr[c + 1]):
            k = indices[p]
            tind[fill[k]] = c
            tw[fill[k]] = weights[p]
            fill[k] += 1
    return tptr, tind, tw


@njit(cache=True)
def cycle_core(indptr, indices, weights):
    """The nodes that can lie on a closed walk, and the digraph between them in sparse rows.

    A node without a step into it or out of it (among the nodes left) lies on no closed walk;
    removing such nodes until none is left keeps every closed walk. Returns ``(keep, indptr,
    indices, weights)``: the nodes kept, ascending, and their digraph renumbered ``0..len(keep)-1``
    in the same order (so successor lists stay ascending and cycles keep their order).
    """
    n = indptr.size - 1
    tptr, tind, _ = transpose(indptr, indices, weights)
    outdeg = np.empty(n, dtype=np.int64)
    indeg = np.empty(n, dtype=np.int64)
    alive = np.ones(n, dtype=np.bool_)
    stack = np.empty(n, dtype=np.int64)
    top = 0
    for v in range(n):
        outdeg[v] = indptr[v + 1] - indptr[v]
        indeg[v] = tptr[v + 1] - tptr[v]
        if outdeg[v] == 0 or indeg[v] == 0:
            alive[v] = False
            stack[top] = v
            top += 1
    while top > 0:
        top -= 1
        v = stack[top]
        for p in range(indptr[v], indptr[v + 1]):
            w = indices[p]
            if alive[w]:
                indeg[w] -= 1
                if indeg[w] == 0:
                    alive[w] = False
                    stack[top] = w
                    top += 1
        for p in range(tptr[v], tptr[v + 1]):
            u = tind[p]
            if alive[u]:
                outdeg[u] -= 1
                if outdeg[u] == 0:
                    alive[u] = False
                    stack[top] = u
                    top += 1
    if alive.all():  # nothing to remove: the digraph itself, not a copy
        return np.arange(n), indptr, indices, weights
    new_id = np.full(n, -1, dtype=np.int64)
    m = 0
    for v in range(n):
        if alive[v]:
            new_id[v] = m
            m += 1
    keep = np.empty(m, dtype=np.int64)
    new_ptr = np.zeros(m + 1, dtype=np.int64)
    nnz = 0
    for v in range(n):
        if alive[v]:
            keep[new_id[v]] = v
            for p in range(indptr[v], indptr[v + 1]):
                if alive[indices[p]]:
                    nnz += 1
            new_ptr[new_id[v] + 1] = nnz
    new_ind = np.empty(nnz, dtype=np.int64)
    new_w = np.empty(nnz, dtype=np.int64)
    q = 0
    for v in range(n):
        if alive[v]:
            for p in range(indptr[v], indptr[v + 1]):
                if alive[indices[p]]:
                    new_ind[q] = new_id[indices[p]]
                    new_w[q] = weights[p]
                    q += 1
    return keep, new_ptr, new_ind, new_w


@njit(cache=True)
def _walks_home(indptr, indices, weights, tptr, tind, tw, M, l0, col, touched, count):
    """The table of walks home of start ``l0``: ``col[r, c]``, the best ``r``-step walk from
    ``c > l0`` to ``l0`` through nodes ``> l0`` (``NEG``: none).

    Only the entries the search reads are formed. For ``r <= M - 2`` they spread backwards
    from ``l0`` along the predecessors of the nodes reached (``col[r, c] = max_k w[c, k] +
    col[r - 1, k]``), at the cost of the steps into those nodes, not of the whole graph; the
    first step of a cycle reads ``col[M - 1]`` at the successors of ``l0`` only, formed
    forwards from their own successors. ``touched[r, :count[r]]`` lists the entries set, for
    :func:`_clear_home`; ``col`` holds ``NEG`` everywhere else.
    """
    neg = NEG
    count[:] = 0
    reverse = max(M - 2, 1)
    for r in range(1, reverse + 1):
        if r == 1:
            lo, hi = 0, 1
        else:
            lo, hi = 0, count[r - 1]
        for t in range(lo, hi):
            k = l0 if r == 1 else touched[r - 1, t]
            base = 0 if r == 1 else col[r - 1, k]
            for p in range(tptr[k], tptr[k + 1]):
                c = tind[p]
                if c <= l0:
                    continue
                v = tw[p] + base
                if col[r, c] == neg:
                    touched[r, count[r]] = c
                    count[r] += 1
                    col[r, c] = v
                elif v > col[r, c]:
                    col[r, c] = v
    if M >= 3:
        r = M - 1
        for p in range(indptr[l0], indptr[l0 + 1]):
            c = indices[p]
            if c <= l0:
                continue
            b = neg
            for q in range(indptr[c], indptr[c + 1]):
                k = indices[q]
                if k <= l0:
                    continue
                v = weights[q] + col[r - 1, k]
                if v > b:
                    b = v
            if b > neg // 2:
                col[r, c] = b
                touched[r, count[r]] = c
                count[r] += 1


@njit(cache=True)
def _clear_home(col, touched, count):
    """Reset to ``NEG`` the entries of ``col`` that :func:`_walks_home` set."""
    for r in range(count.size):
        for t in range(count[r]):
            col[r, touched[r, t]] = NEG


@njit(cache=True)
def branch_and_bound(indptr, indices, weights, M, order, upper):
    """Branch-and-bound over simple ``M``-cycles ``l0 < l1, ..., l_{M-1}``.

    ``order`` lists the start nodes by decreasing ``upper`` (the closed-walk bound).
    For each start ``l0`` the exact closed-walk bounds restricted to nodes above
    ``l0`` are formed where the search reads them (``col[r, c]``: best ``r``-step walk
    ``c -> l0``, :func:`_walks_home`), then a depth-first search extends the path while
    ``partial + bound >= best``. Returns the best value and all cycles attaining it.
    """
    n = indptr.size - 1
    neg = NEG
    best = neg
    cap = 64
    found = np.empty((cap, M), dtype=np.int64)
    nfound = 0
    tptr, tind, tw = transpose(indptr, indices, weights)
    col = np.full((M, n), neg, dtype=np.int64)
    touched = np.empty((M, n), dtype=np.int64)
    count = np.zeros(M, dtype=np.int64)
    path = np.empty(M, dtype=np.int64)
    partial = np.empty(M, dtype=np.int64)
    ptr = np.empty(M, dtype=np.int64)
    for t in range(order.size):
        l0 = order[t]
        if upper[l0] < best:
            break
        _walks_home(indptr, indices, weights, tptr, tind, tw, M, l0, col, touched, count)
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
        _clear_home(col, touched, count)
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
