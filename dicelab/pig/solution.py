"""What every solver of :mod:`dicelab.pig` returns, and how its iterations stop.

One result record per kind of solve, all with the same first fields (:class:`Solution`):
``goal``, ``values`` (winning probabilities by state), ``policy``, ``iterations`` and
``converged``. :class:`BestResponse` is the record of every best-response solver, for two
or three players, fast or exact; the sequential, symmetric-iteration and equilibrium
solvers add their own fields to the same four.

One fixed-point convention: a loop stops when its residual (the largest change of the
last step) is below ``tol``, and raises :class:`NotConverged` if ``max_iter`` steps do not
get there. Python loops use :func:`_iterate`; numba kernels return ``(iterations,
residual)`` of their worst state and the wrapper calls :func:`_check_converged` once.
"""

from __future__ import annotations

import numbers
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from dicelab.core.checks import check_cost, check_float, check_int
from dicelab.pig.turns import _table_cost

__all__ = ["NotConverged", "Solution", "BestResponse"]


class NotConverged(RuntimeError):
    """A fixed-point iteration did not get its residual below ``tol`` within ``max_iter`` steps.

    Attributes ``what``, ``residual``, ``tol`` and ``max_iter`` say which loop, how far it got,
    and what it was asked for.

    >>> raise NotConverged("value iteration", 0.25, 1e-12, 3)
    Traceback (most recent call last):
    ...
    dicelab.pig.solution.NotConverged: value iteration did not converge: residual 0.25 is not below ...
    """

    def __init__(self, what: str, residual: float, tol: float, max_iter: int):
        self.what, self.residual, self.tol, self.max_iter = what, residual, tol, max_iter
        super().__init__(
            f"{what} did not converge: residual {residual:.3g} is not below tol={tol:g} "
            f"after max_iter={max_iter} iterations"
        )


def _check_converged(what: str, iterations: int, residual: float, tol: float, max_iter: int) -> int:
    """``iterations`` if ``residual < tol``, else raise :class:`NotConverged`."""
    if not residual < tol:
        raise NotConverged(what, float(residual), tol, max_iter)
    return int(iterations)


def _iterate(step: Callable[[], float], *, tol: float, max_iter: int, what: str) -> tuple[int, float]:
    """Call ``step()`` (one update, returning its residual) until the residual is below ``tol``.

    Returns ``(iterations, residual)``; raises :class:`NotConverged` after ``max_iter`` steps.
    """
    residual = float("inf")
    for iterations in range(1, max_iter + 1):
        residual = step()
        if residual < tol:
            return iterations, residual
    raise NotConverged(what, float(residual), tol, max_iter)


def _check_tol(tol) -> float:
    """``tol`` as a float in (0, 1e-3), or a ValueError naming it."""
    if isinstance(tol, bool) or not isinstance(tol, numbers.Real) or not 0 < tol < 1e-3:
        raise ValueError(f"tol must be a number in (0, 1e-3), got {tol!r}")
    return float(tol)


def _check_budget(max_iter) -> int:
    """``max_iter >= 1`` as an int, at most ``2^63 - 1`` (the kernels count in int64; no loop gets there)."""
    return min(check_int("max_iter", max_iter, 1), 2**63 - 1)


def _check_tie(tie) -> float:
    """``tie`` (A's reward when both players reach the goal together) as a float in [0, 1]."""
    return check_float("tie", tie, 0, 1)


def _check_size(name: str, value, goal: int, *, memory: float = 0.0, steps: float = 0.0, what: str) -> None:
    """Refuse a solve on ``goal`` beyond the budget (:func:`dicelab.core.checks.check_cost`).

    ``memory`` and ``steps`` are the solver's own; every solver also builds the hold table
    (:func:`dicelab.pig.turns._table_cost`) and the padded values, ``(2 goal + 6)^2`` floats.
    A step is one pass of a kernel's innermost loop over hold values or turn totals (a few
    multiply-adds), timed at about ``10^8`` a second.
    """
    table_memory, table_steps = _table_cost(goal)
    memory += table_memory + 8.0 * (2 * goal + 6) ** 2
    check_cost(name, value, memory=memory, steps=steps + table_steps, what=what)


@dataclass(frozen=True, eq=False)
class Solution:
    """The fields every solver of :mod:`dicelab.pig` returns.

    Attributes
    ----------
    goal : int
        The target score.
    values : numpy.ndarray
        Player A's winning probability in each state (scores below ``goal``), e.g.
        ``values[i, j]`` with A on ``i`` and B on ``j`` points; ``dtype=object`` of
        ``Fraction`` for the exact solvers.
    policy
        A's optimal play in each state; the record's own docstring says in what form.
    iterations : int
        Fixed-point iterations: the largest number any state needed (1 for a single sweep).
    converged : bool
        Whether the iteration met its tolerance (solvers that cannot meet it raise
        :class:`NotConverged` instead, so this is ``False`` only where a record says so).

    >>> from dicelab import pig
    >>> res = pig.sequential_optimal(goal=10)
    >>> isinstance(res, Solution), res.values.shape, res.converged, res.iterations > 1
    (True, (10, 10, 10), True, True)
    """

    goal: int
    values: np.ndarray
    policy: object
    iterations: int
    converged: bool

    @property
    def value(self):
        """A's winning probability from the start of the game (every score 0)."""
        v = self.values[(0,) * self.values.ndim]
        return v if self.values.dtype == object else float(v)


@dataclass(frozen=True, eq=False)
class BestResponse(Solution):
    """Player A's best response to fixed opponents (two or three players).

    ``values[i, j]`` (or ``values[i, j1, j2]``) is A's winning probability; ``policy`` is
    a :class:`~dicelab.pig.Policy` of A's best hold values for the hold-at-k solvers, and a
    boolean array ``policy[i, j, t]`` (True: roll on at turn total ``t``) for
    :func:`~dicelab.pig.full_best_response`. Ties between hold values go to the smallest.

    >>> from dicelab import pig
    >>> res = pig.best_response(pig.hold_at(25))
    >>> res.policy[0, 0], round(res.value, 4), res.iterations, res.converged
    (np.int64(21), 0.5231, 1, True)
    """
