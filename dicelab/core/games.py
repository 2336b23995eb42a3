"""Two-player zero-sum matrix games: value and optimal mixed strategies.

Serves the game-theory part of the simultaneous Pig paper (notebook 03, part 2). The row
player maximises ``x^T A y``, the column player minimises it. Solved as a linear
programme with SciPy's HiGHS; a pure saddle point is detected first and needs no LP.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.optimize import linprog

from dicelab.core.checks import check_cost, check_float, check_matrix

__all__ = ["MatrixGameSolution", "solve_matrix_game", "pure_saddle_point"]


@dataclass(frozen=True)
class MatrixGameSolution:
    """The solution of a zero-sum matrix game.

    ``value``: the game's value to the row player; ``row`` / ``col``: optimal mixed
    strategies (probability vectors over rows / columns); ``pure``: whether a pure saddle
    point was found (then no LP was solved).
    """

    value: float
    row: np.ndarray
    col: np.ndarray
    pure: bool


def _check_tol(tol) -> float:
    """``tol``, the relative gap allowed between maximin and minimax, a real number ``>= 0``."""
    return check_float("tol", tol, 0)


def _normalised(A: np.ndarray) -> tuple[np.ndarray, float]:
    """``A / max|A|`` and ``max|A|`` (``A`` itself and 1 for the zero game).

    A game and its multiple by ``c > 0`` share their optimal strategies and their values
    differ by the factor ``c``: solving the normalised game, whose entries lie in
    ``[-1, 1]``, makes every tolerance relative to the game's scale and keeps the LP
    within the range its solver handles (entries of any magnitude from 1e-300 to 1e300).
    """
    scale = float(np.abs(A).max())
    return (A / scale, scale) if scale > 0 else (A, 1.0)


def _saddle(N: np.ndarray, tol: float) -> tuple[int, int] | None:
    """A pure saddle point of the normalised game ``N`` (maximin within ``tol`` of minimax)."""
    row_min = N.min(axis=1)
    col_max = N.max(axis=0)
    r, c = int(row_min.argmax()), int(col_max.argmin())
    return (r, c) if col_max[c] - row_min[r] <= tol else None


def pure_saddle_point(A, tol: float = 1e-13) -> tuple[int, int] | None:
    """A pure saddle point: an entry that is the least of its row and the largest of its column.

    Parameters
    ----------
    A : array_like
        The row player's payoffs, shape ``(m, n)``.
    tol : float
        Maximin and minimax may differ by ``tol`` times the largest ``|entry|`` of ``A``
        (a relative tolerance: scaling ``A`` by a positive factor keeps the answer).

    Returns
    -------
    tuple[int, int] or None
        ``(row, col)`` of a saddle point, or ``None`` if the game has none.

    >>> pure_saddle_point([[3, 1, 4], [2, 2, 3], [0, 1, 5]])
    (1, 1)
    >>> pure_saddle_point([[1, -1], [-1, 1]]) is None
    True
    """
    A, tol = check_matrix(A), _check_tol(tol)
    return _saddle(_normalised(A)[0], tol)


def solve_matrix_game(A, tol: float = 1e-13) -> MatrixGameSolution:
    """Value and optimal strategies of the zero-sum game with row-player payoffs ``A``.

    The row player's LP: maximise ``v`` subject to ``A^T x >= v``, ``sum x = 1``,
    ``x >= 0``; the column player's strategy is read from its dual. It is solved for
    ``A / max|A|`` and its value scaled back, so the answer does not depend on the units
    of the payoffs: ``c A`` (``c > 0``) has value ``c`` times the value of ``A`` and the
    same strategies.

    Parameters
    ----------
    A : array_like
        The row player's payoffs, shape ``(m, n)``, finite.
    tol : float
        Tolerance for recognising a pure saddle point (:func:`pure_saddle_point`), relative
        to the largest ``|entry|``.

    Returns
    -------
    MatrixGameSolution
        The value, both optimal strategies, and whether the solution is pure.

    >>> sol = solve_matrix_game([[0.5, 1.0], [1.0, 0.5]])
    >>> round(sol.value, 12), sol.row.round(12).tolist(), sol.col.round(12).tolist(), sol.pure
    (0.75, [0.5, 0.5], [0.5, 0.5], False)
    """
    A, tol = check_matrix(A), _check_tol(tol)
    m, n = A.shape
    N, scale = _normalised(A)
    saddle = _saddle(N, tol)
    if saddle is not None:
        r, c = saddle
        return MatrixGameSolution(float(A[r, c]), np.eye(m)[r], np.eye(n)[c], True)
    # the LP's constraint matrices (about 2 m n floats) and HiGHS's copies (measured: about 200
    # bytes an entry at the peak, from 100 x 1000 to 800 x 800); the simplex pivots
    # about min(m, n) times over the dense matrix, more often as the game grows (timed on random
    # games from 100 x 100 to 800 x 800: 0.02 to 8 s)
    steps = float(min(m, n)) ** 2 * max(m, n) * (1 + max(m, n) / 1000)
    check_cost("A", A.shape, memory=240.0 * m * n, steps=steps, what="the LP")
    # variables (x_1..x_m, v); minimise -v
    cost = np.zeros(m + 1)
    cost[-1] = -1.0
    A_ub = np.hstack([-N.T, np.ones((n, 1))])  # v - (A^T x)_j <= 0
    A_eq = np.hstack([np.ones((1, m)), np.zeros((1, 1))])
    bounds = [(0, None)] * m + [(None, None)]
    res = linprog(cost, A_ub=A_ub, b_ub=np.zeros(n), A_eq=A_eq, b_eq=[1.0], bounds=bounds, method="highs")
    if res.status != 0:  # pragma: no cover - a bounded feasible LP always solves
        raise RuntimeError(f"the matrix-game LP failed: {res.message}")
    x = np.clip(res.x[:m], 0, None)
    x /= x.sum()
    y = np.clip(-res.ineqlin.marginals, 0, None)
    y = y / y.sum() if y.sum() > 0 else np.full(n, 1.0 / n)
    return MatrixGameSolution(float(res.x[-1]) * scale, x, y, False)
