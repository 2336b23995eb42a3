"""The stage games of simultaneous Pig: building them, and solving their fixed points.

Serves the paper's "Mixed-strategy equilibrium": at a state ``(i, j)`` both players choose a
hold value at once, A's ``k`` and B's ``k'``, and A's continuation value is the *stage game*
``q(k, k') = A[k, k'] + C[k, k'] p(i, j)`` (:func:`stage_game`), where ``C[k, k'] = P(X_k = 0)
P(X_k' = 0)`` is the chance that both score 0 and the game returns to ``(i, j)``. The state's
value is the fixed point ``p = val(A + C p)``, unique because ``C < 1``
(:func:`stage_game_value`; the kernels are in :mod:`dicelab.pig._stage`).
"""

from __future__ import annotations

import numpy as np

from dicelab.core.checks import check_array, check_cost, check_int, check_matrix
from dicelab.core.games import MatrixGameSolution
from dicelab.core.spec import validated
from dicelab.pig import _kernels, _stage
from dicelab.pig._common import BUDGET_ARG, TIE_ARG, TOL_ARG, check_size, hold_table, solve_failure

__all__ = ["stage_game", "stage_game_value"]


def _padded(values, tie) -> np.ndarray:
    """``values`` inside the padded array of :func:`dicelab.pig._kernels.padded_values`."""
    goal = values.shape[0]
    W = _kernels.padded_values(goal, tie)
    W[:goal, :goal] = values
    return W


def _check_values(values) -> np.ndarray:
    """``values`` as a square ``(goal, goal)`` float array of finite numbers, within the budget."""
    values = check_array("values", values, ndim=2, square=True)
    goal = values.shape[0]
    # vectorised over the (goal - i) x (goal - j) entries: about 4 goal^2 steps (0.6 s at goal 3,000)
    check_size("values' goal", goal, goal, memory=40.0 * goal**2, steps=4.0 * goal**2, what="a stage game")
    return values


@validated(tie=TIE_ARG, example={"values": np.zeros((3, 3)), "i": 0, "j": 0})
def stage_game(values, i: int, j: int, *, tie=0.5) -> tuple[np.ndarray, np.ndarray]:
    """The stage game at ``(i, j)``: ``q(k, k') = A[k-1, k'-1] + C[k-1, k'-1] p(i, j)``.

    Parameters
    ----------
    values : array_like
        ``p[i, j]`` for every state (shape ``(goal, goal)``); only states after ``(i, j)``
        (higher scores) enter ``A``.
    i, j : int
        The state: A on ``i`` points, B on ``j``.
    tie : float
        A's reward when both reach the goal in the same turn.

    Returns
    -------
    (numpy.ndarray, numpy.ndarray)
        ``A`` and ``C``, shape ``(goal - i, goal - j)``: rows A's hold values ``1..goal-i``,
        columns B's ``1..goal-j``.

    >>> A, C = stage_game(np.zeros((2, 2)), 1, 1)
    >>> A.round(6).tolist(), C.round(6).tolist()
    ([[0.486111]], [[0.027778]])
    """
    values = _check_values(values)
    goal = values.shape[0]
    i, j = check_int("i", i, 0, goal - 1), check_int("j", j, 0, goal - 1)
    W = _padded(values, tie)
    W[i, j] = 0.0  # the self-loop, carried by C
    T = hold_table(goal)
    A = np.zeros((goal, goal))
    _stage.stage_matrix(i, j, goal, T, W, np.zeros((goal + 6, goal)), A)
    z = T[1:, 0]
    return A[: goal - i, : goal - j].copy(), np.outer(z[: goal - i], z[: goal - j])


def _rank_one(C, shape) -> tuple[np.ndarray, np.ndarray]:
    """``(z, w)`` with ``C = outer(z, w)``, ``0 <= C < 1``, or a ValueError naming ``C``."""
    C = check_matrix(C, "C")
    if C.shape != shape:
        raise ValueError(f"C must have the shape of A, {shape}, got {C.shape}")
    if C.min() < 0 or C.max() >= 1:
        raise ValueError("C must have entries in [0, 1): probabilities of returning to the state")
    r, c = np.unravel_index(C.argmax(), C.shape)
    if C[r, c] == 0:
        return np.zeros(shape[0]), np.zeros(shape[1])
    z, w = C[:, c] / np.sqrt(C[r, c]), C[r, :] / np.sqrt(C[r, c])
    if not np.allclose(np.outer(z, w), C, rtol=1e-12, atol=1e-15):
        raise ValueError("C must be of rank one, C = outer(z, w): both players return independently")
    return z, w


@validated(tol=TOL_ARG, max_iter=BUDGET_ARG, example={"A": [[0.5, 0.9], [0.8, 0.4]], "C": np.zeros((2, 2))})
def stage_game_value(A, C, *, tol: float = 1e-14, max_iter: int = 200) -> MatrixGameSolution:
    """The fixed point ``p = val(A + C p)`` of a stage game, and optimal strategies there.

    Solved by a double oracle: a restricted game on a few rows and columns is solved on its
    smallest square kernel (a pure saddle point ``p = A / (1 - C)``, a ``2 x 2`` kernel in
    closed form: ``det(A + C p - p J) = 0`` is a quadratic in ``p``), and any action that does
    better against that solution in the whole game joins it.

    Parameters
    ----------
    A, C : array_like
        The stage game of :func:`stage_game`; ``C = outer(z, w)`` with entries in ``[0, 1)``.
    tol : float
        How much an action may gain against a solution before it counts as better (rounding).
    max_iter : int
        Rounds of the double oracle; :class:`~dicelab.pig.NotConverged` beyond.

    Returns
    -------
    dicelab.core.games.MatrixGameSolution
        ``value`` (the fixed point ``p``), ``row``/``col`` (optimal strategies of the game
        ``A + C p``), ``pure`` (solved by a pure saddle point).

    >>> sol = stage_game_value([[0.5, 0.9], [0.8, 0.4]], np.zeros((2, 2)))
    >>> round(sol.value, 12), sol.row.round(12).tolist(), sol.pure
    (0.65, [0.5, 0.5], False)
    """
    A = check_matrix(A, "A")
    check_cost("A", A.shape, memory=32.0 * A.size, what="a stage game's checks")
    z, w = _rank_one(C, A.shape)
    (na, nb), x, y = A.shape, np.zeros(A.shape[0]), np.zeros(A.shape[1])
    status, p, s, _, excess = _stage.solve_stage(A, z, w, na, nb, 0, 0, tol, max_iter, x, y)
    if status:
        raise solve_failure(status, "A", excess, tol, max_iter)
    return MatrixGameSolution(float(p), x, y, s == 1)
