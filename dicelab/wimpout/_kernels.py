"""Numba kernels of :mod:`dicelab.wimpout.race`: the turn played inside the race, and the tables
of the Last Licks turn.

Conventions shared by every kernel (see the docstring of :mod:`dicelab.wimpout.race`):

* the turn's states are those of :func:`~dicelab.wimpout.turn_tables`: ``nf`` forced states
  (``Roll 5`` is 0), then the choices, up to ``S``; the endings Wimpout, Auto Win, Auto Lose
  are ``S``, ``S + 1``, ``S + 2``. Outcome ``k`` leads to ``nxt[k]`` with probability ``pr[k]``
  (the self-repeat of a Flash face already divided out) and gains ``gain[k]`` units of 5
  points, at least 1 unless it ends the turn;
* scores, turn points and needs are in units of 5 points; ``NH`` is the horizon: a Last Licks
  need beyond it counts as ``NH`` (``LT[min(n, NH)]``);
* a value table has three more columns for the endings, so that the inner loop has no branch.

Every kernel only indexes arrays, adds, multiplies, divides and compares, with integer
constants: its ``py_func`` runs the same recursion on object arrays of ``Fraction`` (the exact
solution of :func:`~dicelab.wimpout.reference.exact_race`).
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def reach_table(S, nf, start, nxt, gain, pr, base, NH, R):
    """``R[n, s]``: the chance to bank at least ``n`` units from ``s`` (``n = 0``: to bank at all).

    Rolls until the need is met at a choice; a forced state with the need met is worth
    ``base[s]`` (the chance to reach a choice or an Auto Win before the turn ends).
    """
    for n in range(NH + 1):
        R[n, S] = 0
        R[n, S + 1] = 1
        R[n, S + 2] = 0
    for s in range(S):
        R[0, s] = base[s] if s < nf else 1
    for n in range(1, NH + 1):
        for s in range(S):
            acc = R[n, S] * 0
            for k in range(start[s], start[s + 1]):
                m = n - gain[k]
                if m < 0:
                    m = 0
                acc += pr[k] * R[m, nxt[k]]
            R[n, s] = acc


@njit(cache=True)
def over_tables(S, nf, start, nxt, gain, pr, b, LT, PWc, PALc, MT, WSTAR):
    """The tables of a turn whose choices all bank past the target (``n`` = the opponent's need).

    ``MT[n, s]`` (forced ``s``): the chance that the turn reaches a choice and the opponent
    then makes the need ``n`` plus the points gained on the way; ``WSTAR[n]``: the least
    win chance of the opponent's own turn above which banking beats rolling at every choice,
    for every need from ``n`` on (a running maximum from the horizon down).
    """
    NH = LT.shape[0] - 1
    for s in range(nf):
        MT[NH, s] = b[s] * LT[NH]
    for n in range(NH - 1, 0, -1):
        for s in range(nf):
            acc = LT[n] * 0
            for k in range(start[s], start[s + 1]):
                t = nxt[k]
                if t >= S:
                    continue
                m = min(n + gain[k], NH)
                acc += pr[k] * (LT[m] if t >= nf else MT[m, t])
            MT[n, s] = acc
    for n in range(NH, 0, -1):
        for s in range(nf, S):
            e = LT[n] * 0
            for k in range(start[s], start[s + 1]):
                t = nxt[k]
                if t >= S:
                    continue
                m = min(n + gain[k], NH)
                e += pr[k] * (LT[m] if t >= nf else MT[m, t])
            w = (LT[n] - e - PALc[s - nf]) / PWc[s - nf]
            if s == nf or w > WSTAR[n]:
                WSTAR[n] = w
        if n < NH and WSTAR[n + 1] > WSTAR[n]:
            WSTAR[n] = WSTAR[n + 1]


@njit(cache=True)
def top_level(i, j, w, g, m, WSTAR):
    """The least total (units) from which every choice of the mover at ``(i, j)`` banks, the
    opponent winning their own turn with chance ``w``: at least the target ``g``, and ``m`` from
    score 0 (no bank below it); -1 if no need up to the horizon is safe."""
    NH = WSTAR.shape[0] - 1
    if WSTAR[NH] > w:
        return -1
    lo, hi = 1, NH  # WSTAR never increases: the least n with WSTAR[n] <= w
    while lo < hi:
        mid = (lo + hi) // 2
        if WSTAR[mid] <= w:
            hi = mid
        else:
            lo = mid + 1
    return max(g, j - 1 + lo, m if i == 0 else 0)


@njit(cache=True)
def turn_value(i, j, x, g, m, Wopp, tab, LT, MT, Qtop, D, optimal, V):
    """The mover's win chance at scores ``(i, j)`` when a Wimpout is worth ``x`` to them.

    Solved from the total ``Qtop`` (where every choice banks, in closed form) down to ``i``.
    A choice banks ``1 - Wopp[j, q]`` below the target ``g``, ``1 - LT[need]`` past it, and
    ``x`` (nothing) at 0 points or, from score 0, below ``m``. With ``optimal`` it picks the
    larger (banking on ties) and writes ``D[r, c]`` (banks at turn points ``r``); else it
    follows ``D``. ``V`` is scratch, at least ``Qtop - i + 101`` rows. ``tab``: ``(S, nf, start,
    nxt, gain, pr, AWB, PW)``, with ``AWB``/``PW`` the chances that a forced state reaches a
    choice or five 6s / a Wimpout.
    """
    S, nf, start, nxt, gain, pr, AWB, PW = tab
    NH = LT.shape[0] - 1
    H = Qtop - i
    top = H + 101
    for r in range(H, top):
        n = min(i + r - j + 1, NH)
        for s in range(nf):
            V[r, s] = AWB[s] + PW[s] * x - MT[n, s]
        for s in range(nf, S):
            V[r, s] = 1 - LT[n]
        V[r, S] = x
        V[r, S + 1] = 1
        V[r, S + 2] = 0
    for r in range(H - 1, -1, -1):
        V[r, S] = x
        V[r, S + 1] = 1
        V[r, S + 2] = 0
        q = i + r
        for s in range(S):
            acc = x * 0
            for k in range(start[s], start[s + 1]):
                acc += pr[k] * V[r + gain[k], nxt[k]]
            if s >= nf:
                if r == 0 or (i == 0 and r < m):
                    bank = x
                elif q < g:
                    bank = 1 - Wopp[j, q]
                else:
                    bank = 1 - LT[min(q - j + 1, NH)]
                if optimal:
                    D[r, s - nf] = bank >= acc
                if D[r, s - nf]:
                    acc = bank
            V[r, s] = acc
    return V[0, 0]


@njit(cache=True)
def solve_levels(g, m, W, tab, LT2, MT2, WSTAR2, tol, max_iter, plain, V, D, border_only, parts):
    """Value iteration for the optimal race, in place on ``W`` (start values at least 1/7776).

    ``plain`` False: level by level in decreasing ``i + j``, iterating each pair ``(i, j)``,
    ``(j, i)`` alone until a sweep changes it by less than ``tol``. ``plain`` True: sweeps over
    every state in index order until one changes no value by ``tol``. Returns ``(evaluations
    of a turn, sweeps or the most iterations of one level, last change)``; ``sweeps = -1``
    if a turn has no safe total (horizon too short), ``-2`` past ``max_iter``.

    Levels only: ``parts[0]`` gets the evaluations, most iterations and last change of the pairs
    with both scores above 0 (the interior, which never reaches a score of 0 and so does not
    depend on ``m``), ``parts[1]`` those of the border pairs; ``border_only`` solves the border
    alone, the interior of ``W`` given (solved for another ``m``).
    """
    evaluations, most, change = 0, 0, 0.0
    if plain:
        for sweep in range(1, max_iter + 1):
            change = 0.0
            for i in range(g):
                for j in range(g):
                    jz = 0 if j == 0 else 1
                    Qtop = top_level(i, j, W[j, i], g, m, WSTAR2[jz])
                    if Qtop < 0:
                        return evaluations, -1, change
                    u = turn_value(i, j, 1 - W[j, i], g, m, W, tab, LT2[jz], MT2[jz], Qtop, D, True, V)
                    change = max(change, abs(u - W[i, j]))
                    W[i, j] = u
                    evaluations += 1
            if change < tol:
                return evaluations, sweep, change
        return evaluations, -2, change
    for level in range(2 * g - 2, -1, -1):
        for i in range(max(0, level - g + 1), level // 2 + 1):
            j = level - i
            part = 1 if i == 0 else 0  # i <= j: the pair touches a score of 0 when i does
            if border_only and part == 0:
                continue
            for it in range(1, max_iter + 1):
                step = 0.0
                for who in range(2):
                    a, o = (i, j) if who == 0 else (j, i)
                    oz = 0 if o == 0 else 1
                    Qtop = top_level(a, o, W[o, a], g, m, WSTAR2[oz])
                    if Qtop < 0:
                        return evaluations, -1, step
                    u = turn_value(a, o, 1 - W[o, a], g, m, W, tab, LT2[oz], MT2[oz], Qtop, D, True, V)
                    step = max(step, abs(u - W[a, o]))
                    W[a, o] = u
                    evaluations += 1
                    parts[part, 0] += 1
                    if i == j:
                        break
                if step < tol:
                    most = max(most, it)
                    change = max(change, step)
                    parts[part, 1] = max(parts[part, 1], it)
                    parts[part, 2] = max(parts[part, 2], step)
                    break
                if it == max_iter:
                    return evaluations, -2, step
    return evaluations, most, change


@njit(cache=True)
def policy_pass(g, m, W, tab, LT2, MT2, WSTAR2, V, D, T, irregular, ex, border_only, residuals):
    """One more Bellman update of every state: returns the largest change (the residual).

    Writes the thresholds ``T[i, j, c]`` (units: bank at every turn points from these on, at
    least 1) and ``irregular[i, j, c]``: how many turn points below the threshold bank all the
    same; lists them as ``(i, j, c, r)`` in ``ex``, as many rows as it holds (all of them when it
    has ``irregular.sum()`` rows or more). ``residuals[0]``, ``residuals[1]``: the residual of the
    interior (both scores above 0) and of the border; ``border_only`` updates the border alone.
    """
    C = tab[0] - tab[1]
    residual = 0.0
    row = 0
    for i in range(g):
        for j in range(g):
            part = 1 if i == 0 or j == 0 else 0
            if border_only and part == 0:
                continue
            jz = 0 if j == 0 else 1
            Qtop = top_level(i, j, W[j, i], g, m, WSTAR2[jz])
            u = turn_value(i, j, 1 - W[j, i], g, m, W, tab, LT2[jz], MT2[jz], Qtop, D, True, V)
            residual = max(residual, abs(u - W[i, j]))
            residuals[part] = max(residuals[part], abs(u - W[i, j]))
            H = Qtop - i
            for c in range(C):
                t = 1
                for r in range(H - 1, 0, -1):
                    if not D[r, c]:
                        t = r + 1
                        break
                T[i, j, c] = t
                count = 0
                for r in range(1, t):
                    if D[r, c]:
                        count += 1
                        if ex.shape[0] > row:
                            ex[row, 0], ex[row, 1], ex[row, 2], ex[row, 3] = i, j, c, r
                        row += 1
                irregular[i, j, c] = count
    return residual


@njit(cache=True, nogil=True)
def evaluate_pair(g, m, WA, WB, TA, TB, XA, PA, XB, PB, tab, LT2, MT2, tol, max_iter, V, D, same=False):
    """The win chances of two fixed policies, level by level, in place on ``WA``/``WB``, by
    iterating each level's two equations (``evaluate_race(method="iterate")``; :func:`solve_pair`
    solves them).

    ``WA[i, j]``: A to move with ``i`` against B's ``j``; A banks at choice ``c`` from turn
    points ``TA[i, j, c]`` (units) on, and at the turn points ``XA[k, 1]`` of choice
    ``XA[k, 0]`` for ``k`` in ``PA[i * g + j] .. PA[i * g + j + 1]``; B likewise. ``same``: A and
    B play one policy (``WA`` and ``WB`` are then one array and ``TA``, ``TB`` one table), so that
    ``W(i, j)`` and ``W(j, i)`` are iterated once per pair, as in :func:`solve_levels`. Returns
    ``(evaluations, most iterations of a level, last change)``, ``-2`` past ``max_iter``.
    """
    evaluations, most, change = 0, 0, 0.0
    for level in range(2 * g - 2, -1, -1):
        last = level // 2 if same else min(level, g - 1)
        for i in range(max(0, level - g + 1), last + 1):
            j = level - i
            for it in range(1, max_iter + 1):
                step = 0.0
                for who in range(2):
                    if same and who == 1 and i == j:
                        break
                    if who == 0:
                        a, o, Wm, Wo, T, X, P = i, j, WA, WB, TA, XA, PA
                    else:
                        a, o, Wm, Wo, T, X, P = j, i, WB, WA, TB, XB, PB
                    oz = 0 if o == 0 else 1
                    Qtop = fixed_bank(a, o, g, m, T, X, P, D)
                    u = turn_value(a, o, 1 - Wo[o, a], g, m, Wo, tab, LT2[oz], MT2[oz], Qtop, D, False, V)
                    step = max(step, abs(u - Wm[a, o]))
                    Wm[a, o] = u
                    evaluations += 1
                if step < tol:
                    most = max(most, it)
                    change = max(change, step)
                    break
                if it == max_iter:
                    return evaluations, -2, step
    return evaluations, most, change


def scratch(rows: int, S: int, C: int, exact: bool = False):
    """The value table and the bank decisions a turn needs (object arrays for fractions)."""
    if exact:
        return np.zeros((rows, S + 3), dtype=object), np.zeros((rows, C), dtype=bool)
    return np.zeros((rows, S + 3)), np.zeros((rows, C), dtype=np.bool_)


@njit(cache=True, nogil=True)
def turn_line(i, j, g, m, Wopp, tab, LT, MT, Qtop, D, V, V1):
    """The mover's win chance at ``(i, j)`` under the fixed bank decisions ``D``, as a line in
    what a Wimpout is worth to them: ``(a, b)`` with the win chance ``a + b x``.

    The recursion of :func:`turn_value` (with ``optimal`` False) run on the two coefficients at
    once: ``V`` holds the constants, ``V1`` the coefficients of ``x`` (the chance to end the turn
    with nothing: a Wimpout, or a stop that banks nothing). Every bank value ``1 - Wopp[j, q]``
    it reads has ``q > i``, a higher level, so with ``D`` fixed the turn is exactly affine in
    ``x``. ``V``, ``V1``: scratch, as in :func:`turn_value`.
    """
    S, nf, start, nxt, gain, pr, AWB, PW = tab
    NH = LT.shape[0] - 1
    zero = LT[0] * 0  # of the tables' number type (floats, or fractions)
    one = zero + 1
    H = Qtop - i
    top = H + 101
    for r in range(H, top):
        n = min(i + r - j + 1, NH)
        for s in range(nf):
            V[r, s], V1[r, s] = AWB[s] - MT[n, s], PW[s]
        for s in range(nf, S):
            V[r, s], V1[r, s] = 1 - LT[n], zero
    for r in range(top):  # the endings: Wimpout (x), Auto Win, Auto Lose
        V[r, S], V1[r, S] = zero, one
        V[r, S + 1], V1[r, S + 1] = one, zero
        V[r, S + 2], V1[r, S + 2] = zero, zero
    for r in range(H - 1, -1, -1):
        q = i + r
        for s in range(S):
            acc, acc1 = zero, zero
            for k in range(start[s], start[s + 1]):
                acc += pr[k] * V[r + gain[k], nxt[k]]
                acc1 += pr[k] * V1[r + gain[k], nxt[k]]
            if s >= nf and D[r, s - nf]:
                if r == 0 or (i == 0 and r < m):
                    acc, acc1 = zero, one  # banks nothing: worth x
                elif q < g:
                    acc, acc1 = 1 - Wopp[j, q], zero
                else:
                    acc, acc1 = 1 - LT[min(q - j + 1, NH)], zero
            V[r, s], V1[r, s] = acc, acc1
    return V[0, 0], V1[0, 0]


@njit(cache=True, nogil=True)
def fixed_bank(a, o, g, m, T, X, P, D):
    """Write the bank decisions ``D`` of a fixed policy (as :func:`evaluate_pair` reads it) at
    ``(a, o)``; returns the total ``Qtop`` from which every choice banks."""
    C = T.shape[2]
    top = 0
    for c in range(C):
        top = max(top, T[a, o, c])
    Qtop = max(g, a + top, m if a == 0 else 0)
    for r in range(Qtop - a):
        for c in range(C):
            D[r, c] = r >= T[a, o, c]
    for k in range(P[a * g + o], P[a * g + o + 1]):
        D[X[k, 1], X[k, 0]] = True
    return Qtop


@njit(cache=True, nogil=True)
def solve_pair(g, m, WA, WB, TA, TB, XA, PA, XB, PB, tab, LT2, MT2, V, V1, D, same=False):
    """The win chances of two fixed policies, level by level, in place on ``WA``/``WB``: the
    arguments of :func:`evaluate_pair`, each level's two equations solved exactly.

    With the policies fixed, A's turn at ``(i, j)`` is worth ``a1 + b1 (1 - WB[j, i])``
    (:func:`turn_line`) and B's at ``(j, i)`` is ``a2 + b2 (1 - WA[i, j])``: so
    ``WA[i, j] = (a1 + b1 (1 - a2 - b2)) / (1 - b1 b2)``, and ``(a1 + b1) / (1 + b1)`` where
    ``i = j`` and the players are one (``same``). Returns the pairs solved.
    """
    pairs = 0
    for level in range(2 * g - 2, -1, -1):
        last = level // 2 if same else min(level, g - 1)
        for i in range(max(0, level - g + 1), last + 1):
            j = level - i
            jz = 0 if j == 0 else 1
            Qtop = fixed_bank(i, j, g, m, TA, XA, PA, D)
            a1, b1 = turn_line(i, j, g, m, WB, tab, LT2[jz], MT2[jz], Qtop, D, V, V1)
            if same and i == j:
                WA[i, j] = (a1 + b1) / (1 + b1)
                pairs += 1
                continue
            iz = 0 if i == 0 else 1
            Qtop = fixed_bank(j, i, g, m, TB, XB, PB, D)
            a2, b2 = turn_line(j, i, g, m, WA, tab, LT2[iz], MT2[iz], Qtop, D, V, V1)
            WA[i, j] = (a1 + b1 * (1 - a2 - b2)) / (1 - b1 * b2)
            WB[j, i] = a2 + b2 * (1 - WA[i, j])
            pairs += 1
    return pairs
