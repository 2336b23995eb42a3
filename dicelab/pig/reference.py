"""The paper's algorithms as printed, and slow exact cross-checks of the fast solvers.

* ``paper_*``: the paper's own method, literally. :func:`paper_value_iteration` is its
  Algorithm 0.1 (value iteration: sweep every state with ``p <- max_k q(i, j, k)`` until
  the largest change is below a tolerance). Algorithm 0.2 (SVIMA) is printed only as a
  figure in the stored text; :func:`dicelab.pig.svima` implements its description.
* ``exact_*``: the best responses in exact ``Fraction`` arithmetic, in pure Python, for
  small goals: what the tests hold the float solvers to.

Both return the same :class:`~dicelab.pig.BestResponse` as the fast solvers.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from dicelab.pig import _kernels
from dicelab.pig.policy import Policy, _resolve
from dicelab.pig.solution import BestResponse, _check_budget, _check_tie, _check_tol, _iterate
from dicelab.pig.turns import _hold, _hold_table

__all__ = ["paper_value_iteration", "exact_best_response", "exact_best_response_3p"]

_goal_reward = _kernels.goal_reward.py_func
_self_loop = _kernels.self_loop_value.py_func


def paper_value_iteration(
    opponent, goal: int | None = None, *, tie=0.5, tol: float = 1e-12, max_iter: int = 10_000
) -> BestResponse:
    """The paper's Algorithm 0.1: A's best response to a fixed opponent by value iteration.

    Gauss-Seidel sweeps over ``i``, then ``j``, ascending, from all values 0, until the
    largest change in a sweep is below ``tol``. Slow (a few seconds at goal 100); the same
    answer as :func:`dicelab.pig.best_response`, which needs one sweep.

    Parameters
    ----------
    opponent : Policy or array_like
        B's policy (simple or two-player).
    goal : int, optional
        The target score; by default the opponent policy's.
    tie : float
        A's reward when both reach the goal in the same turn.
    tol : float
        Stop when no value changes by ``tol`` or more in a sweep.
    max_iter : int
        Sweeps allowed; :class:`~dicelab.pig.NotConverged` beyond.

    Returns
    -------
    BestResponse
        ``values``, ``policy`` and ``iterations`` (the sweeps run).

    >>> from dicelab import pig
    >>> h = pig.hold_at(3, goal=8)
    >>> vi = paper_value_iteration(h)
    >>> bool(abs(vi.values - pig.best_response(h).values).max() < 1e-10), vi.iterations > 1
    (True, True)
    """
    goal, opp = _resolve(goal, {"opponent": opponent})
    tie, tol, max_iter = _check_tie(tie), _check_tol(tol), _check_budget(max_iter)
    T, opp = _hold_table(goal), opp.two_player()
    win = np.zeros((goal, goal))
    pol = np.zeros((goal, goal), dtype=np.int64)

    def sweep():
        return _kernels.value_iteration_sweep(goal, T, opp, tie, win, pol)

    iterations, _ = _iterate(sweep, tol=tol, max_iter=max_iter, what="value iteration (Algorithm 0.1)")
    return BestResponse(goal, win, Policy(pol), iterations, True)


def _exact_tie(tie) -> Fraction:
    _check_tie(tie)
    return Fraction(tie)


def exact_best_response(opponent, goal: int | None = None, *, tie=Fraction(1, 2)) -> BestResponse:
    """A's best hold-at-k response in exact fractions (pure Python: small goals, e.g. tests).

    Each state ``(i, j)``, in reverse order, takes ``max_k a_k / (1 - c_k)`` over the full
    product of A's and B's turn outcomes.

    Parameters
    ----------
    opponent : Policy or array_like
        B's policy (simple or two-player).
    goal : int, optional
        The target score; by default the opponent policy's.
    tie : Fraction
        A's reward when both reach the goal in the same turn.

    Returns
    -------
    BestResponse
        ``values`` as an object array of ``Fraction``; ``policy``; ``iterations=1``.

    >>> from dicelab.pig import hold_at
    >>> res = exact_best_response(hold_at(2, goal=4))
    >>> res.value, res.policy[0, 0]
    (Fraction(217, 338), np.int64(4))
    """
    goal, opp = _resolve(goal, {"opponent": opponent})
    tie, opp = _exact_tie(tie), opp.two_player()
    dist = {k: dict(_hold(k)) for k in range(1, goal + 1)}
    win = np.empty((goal, goal), dtype=object)

    def weighted(i, j, p):
        if i >= goal or j >= goal:
            return _goal_reward(p, i >= goal, j >= goal, tie)
        return p * win[i, j]

    pol = np.zeros((goal, goal), dtype=np.int64)
    for i in range(goal - 1, -1, -1):
        for j in range(goal - 1, -1, -1):
            B = dist[int(opp[j, i])]
            best = best_k = None
            for k in range(1, goal - i + 1):
                A = dist[k]
                pairs = ((x, pa, b, pb) for x, pa in A.items() for b, pb in B.items() if x or b)
                a = sum((weighted(i + x, j + b, pa * pb) for x, pa, b, pb in pairs), Fraction(0))
                v = _self_loop(a, A[0] * B[0])
                if best is None or v > best:
                    best, best_k = v, k
            win[i, j], pol[i, j] = best, best_k
    return BestResponse(goal, win, Policy(pol), 1, True)


def exact_best_response_3p(opponent1, opponent2, goal: int | None = None) -> BestResponse:
    """The three-player best response in exact fractions, over all 49 opponent outcomes.

    Pure Python, for small goals (the tests). Winners at the goal share ``1/m``.

    Parameters
    ----------
    opponent1, opponent2 : Policy or array_like
        Simple policies (hold values by own score).
    goal : int, optional
        The target score; by default the opponents'.

    Returns
    -------
    BestResponse
        ``values[i, j1, j2]`` as ``Fraction``; ``policy`` a three-player policy; ``iterations=1``.

    >>> from dicelab.pig import hold_at
    >>> exact_best_response_3p(hold_at(1, goal=3), hold_at(2, goal=3)).value
    Fraction(2541544253, 6425101707)
    """
    goal, o1, o2 = _resolve(goal, {"opponent1": opponent1, "opponent2": opponent2}, simple=True)
    dist = {k: dict(_hold(k)) for k in range(1, goal + 1)}
    win = np.empty((goal, goal, goal), dtype=object)
    pol = np.zeros((goal, goal, goal), dtype=np.int64)

    def weighted(i, j1, j2, p):
        if i >= goal or j1 >= goal or j2 >= goal:
            return _goal_reward(p, i >= goal, (j1 >= goal) + (j2 >= goal), Fraction(1, 2))
        return p * win[i, j1, j2]

    for i in range(goal - 1, -1, -1):
        for j1 in range(goal - 1, -1, -1):
            for j2 in range(goal - 1, -1, -1):
                B1, B2 = dist[int(o1[j1])], dist[int(o2[j2])]
                best = best_k = None
                for k in range(1, goal - i + 1):
                    A = dist[k]
                    outcomes = (
                        (x, b1, b2, pa * p1 * p2)
                        for x, pa in A.items()
                        for b1, p1 in B1.items()
                        for b2, p2 in B2.items()
                        if x or b1 or b2
                    )
                    a = sum((weighted(i + x, j1 + b1, j2 + b2, p) for x, b1, b2, p in outcomes), Fraction(0))
                    v = _self_loop(a, A[0] * B1[0] * B2[0])
                    if best is None or v > best:
                        best, best_k = v, k
                win[i, j1, j2], pol[i, j1, j2] = best, best_k
    return BestResponse(goal, win, Policy(pol), 1, True)
