"""What every solver of :mod:`dicelab.pig` returns, and how its iterations stop.

One result record per kind of solve, all with the same first fields (:class:`PigSolution`):
``goal``, ``values`` (winning probabilities by state), ``policy``, ``iterations`` and
``converged``, and the members of the solver protocol (:class:`dicelab.core.solution.Solved`):
``start``, ``value``, ``value_at(state)``, ``best_action(state)``. :class:`BestResponse` is the
record of every best-response solver, for two or three players, fast or exact; the sequential,
symmetric-iteration and equilibrium solvers add their own fields to the same four.

One fixed-point convention: a loop stops when its residual (the largest change of the
last step) is below ``tol``, and raises :class:`NotConverged` if ``max_iter`` steps do not
get there (the loops are in :mod:`dicelab.pig._common`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from dicelab.core.checks import check_int

__all__ = ["NotConverged", "PigSolution", "BestResponse"]


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


@dataclass(frozen=True, eq=False)
class PigSolution:
    """A solved game of Pig: A's winning probability and optimal play in every score state.

    The fields every solver of :mod:`dicelab.pig` returns, and the solver protocol
    (:class:`dicelab.core.solution.Solved`): a state is an index of ``values`` (``(i, j)``,
    ``(i, j1, j2)`` for three players, ``(i, j, t)`` for classic Pig), ``start`` is every score 0.

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
    >>> res = pig.solve_sequential(goal=10)
    >>> isinstance(res, PigSolution), res.values.shape, res.converged, res.iterations > 1
    (True, (10, 10, 10), True, True)
    >>> res.start, res.value_at(res.start) == res.value, bool(res.best_action((0, 0, 0)))
    ((0, 0, 0), True, True)
    """

    goal: int
    values: np.ndarray
    policy: object
    iterations: int
    converged: bool

    @property
    def start(self) -> tuple[int, ...]:
        """The state play begins in: every score (and the turn total) 0."""
        return (0,) * self.values.ndim

    @property
    def value(self):
        """A's winning probability from the start of the game (every score 0)."""
        return self.value_at(self.start)

    def _state(self, state) -> tuple[int, ...]:
        shape = self.values.shape
        if not isinstance(state, tuple | list) or len(state) != len(shape):
            raise ValueError(f"state must be a tuple of {len(shape)} scores, got {state!r}")
        return tuple(
            check_int(f"state[{n}]", s, 0, size - 1)
            for n, (s, size) in enumerate(zip(state, shape, strict=True))
        )

    def value_at(self, state):
        """A's winning probability in ``state`` (a ``Fraction`` for the exact solvers)."""
        v = self.values[self._state(state)]
        return v if self.values.dtype == object else float(v)

    def best_action(self, state):
        """What A's optimal play does in ``state``: ``policy[state]`` (a hold value; a mixed
        strategy over hold values ``1..goal`` for the equilibrium; whether to roll on at each
        turn total for :func:`~dicelab.pig.solve_full_best_response`; whether to roll for classic Pig)."""
        return self.policy[self._state(state)]


@dataclass(frozen=True, eq=False)
class BestResponse(PigSolution):
    """Player A's best response to fixed opponents (two or three players).

    ``values[i, j]`` (or ``values[i, j1, j2]``) is A's winning probability; ``policy`` is
    a :class:`~dicelab.pig.Policy` of A's best hold values for the hold-at-k solvers, and a
    boolean array ``policy[i, j, t]`` (True: roll on at turn total ``t``) for
    :func:`~dicelab.pig.solve_full_best_response`. Ties between hold values go to the smallest.

    >>> from dicelab import pig
    >>> res = pig.solve_best_response(pig.hold_at(25))
    >>> res.policy[0, 0], round(res.value, 4), res.iterations, res.converged
    (np.int64(21), 0.5231, 1, True)
    """
