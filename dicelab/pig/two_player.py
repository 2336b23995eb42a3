"""Two players: A's best response to a fixed opponent, and the value of a pair of policies.

Serves the paper's "Optimal strategy given independent opponent strategy" (Figs. 1-3).

With B's policy fixed, A faces a Markov decision process on states ``(i, j)`` (A on ``i``
points, B on ``j``), with ``p(i, j)`` A's winning probability and terminal values 1 (A alone
reaches the goal), ``tie`` (both do; 1/2 by the paper's rules) and 0 (B alone). A turn
never lowers a score, so every state depends only on states with higher scores and on
itself, through the turn in which both players score 0. For A's action ``k`` against B's
``k'`` that self-loop makes ``q_k = a_k + c_k p`` with ``c_k = P(X_k = 0) P(X_{k'} = 0)``,
so ``p = max_k a_k / (1 - c_k)``: one reverse sweep solves the MDP exactly (in float64).
The paper's value iteration (Algorithm 0.1) is
:func:`dicelab.pig.reference.paper_value_iteration`.
"""

from __future__ import annotations

import numpy as np

from dicelab.core.spec import validated
from dicelab.pig import _kernels
from dicelab.pig._common import (
    BUDGET_ARG,
    OPTIONAL_GOAL_ARG,
    SIDES,
    SIDES_ARG,
    TIE_ARG,
    TOL_ARG,
    check_converged,
    check_size,
    check_strategy,
    hold_table,
    sparse,
)
from dicelab.pig.policy import Policy, hold_at, resolve_policies
from dicelab.pig.solution import BestResponse

__all__ = ["solve_best_response", "solve_best_response_mixed", "win_probability", "solve_full_best_response"]


def _sweep_cost(goal: int, sides: int = SIDES) -> tuple[float, float]:
    """``(bytes, steps)`` of one reverse sweep on two players: each of the ``goal^2`` states
    weighs up to ``goal`` hold values (``goal^3`` steps for six sides, each ``sides + 1`` turn
    outcomes), with a few ``(goal, goal)`` arrays."""
    return 64.0 * goal**2, float(goal) ** 3 * (sides + 1) / 7


def _evaluation_cost(goal: int, sides: int = SIDES) -> tuple[float, float]:
    """``(bytes, steps)`` of :func:`win_probability`: one sweep as :func:`_sweep_cost`, with each
    state following one hold value of each player instead of weighing them all (0.27 s at goal
    400, timed: about ``0.4 goal^3`` steps for six sides)."""
    return 64.0 * goal**2, 0.4 * float(goal) ** 3 * (sides + 1) / 7


def _mixed_cost(goal: int, support: int, sides: int = SIDES) -> tuple[float, float]:
    """``(bytes, steps)`` against a mixed opponent ``(goal, goal, goal)`` who mixes at most
    ``support`` hold values in a state: its checked copy, then sorting its weights
    (:func:`dicelab.pig._common.sparse`: the order, the sorted weights and hold
    values, about ``40 goal^3`` bytes at the peak, measured): ``2 + 1.2 log2(goal)`` steps an
    entry when every hold value is mixed, about 2 when few are (the sort meets long runs of
    zeros); then one sweep, in which each state mixes ``support`` turn outcomes over ``goal``
    turn totals (0.08 steps each, timed: 0.8 ns).
    """
    g = float(goal)
    return 40.0 * g**3, g**3 * (2 + 1.2 * np.log2(g) * support / g) + 0.08 * g**3 * (support + sides)


def _stopping_cost(goal: int, max_iter: int, sides: int = SIDES) -> tuple[float, float]:
    """``(bytes, steps)`` of :func:`solve_full_best_response`: ``roll`` (``goal^3`` booleans); in each
    state, iterations of ``goal - i`` turn totals of five rolls each (``sides - 1`` with another
    die; about 8 iterations per state on average at the default ``tol``, measured)."""
    return float(goal) ** 3 + 32.0 * goal**2, 2.5 * float(goal) ** 3 * min(max_iter, 8) * sides / 6


@validated(goal=OPTIONAL_GOAL_ARG, tie=TIE_ARG, sides=SIDES_ARG, example={"opponent": hold_at(3, goal=8)})
def solve_best_response(opponent, goal: int | None = None, *, tie=0.5, sides: int = SIDES) -> BestResponse:
    """Player A's optimal hold-at-k policy against a fixed opponent policy (two players).

    Parameters
    ----------
    opponent : Policy or array_like
        B's policy: simple (``[own]``) or two-player (``opponent[j, i]`` with B on ``j``).
    goal : int, optional
        The target score; by default the opponent policy's.
    tie : float
        A's reward when both reach the goal in the same turn (1/2: shared).
    sides : int
        The faces of the die both players roll (the paper's 6); the face 1 ends the turn.

    Returns
    -------
    BestResponse
        ``values[i, j]`` (``p(i, j)``), ``policy`` (A's hold values), ``iterations=1``.

    >>> res = solve_best_response(hold_at(25))
    >>> res.policy[0, 0], round(res.value, 7)
    (np.int64(21), 0.5231393)
    >>> round(solve_best_response(hold_at(25), sides=8).value, 4)  # a 1 is rarer: hold at 25 stops early
    0.6068
    """
    goal, opp = resolve_policies(
        goal,
        {"opponent": opponent},
        cost=lambda g: _sweep_cost(g, sides),
        what="a best response",
        sides=sides,
    )
    W = _kernels.padded_values(goal, tie, sides)
    ks = np.ascontiguousarray(opp.two_player().T[:, :, None])  # B's hold value in state (i, j)
    pol = _kernels.response_sweep(goal, hold_table(goal, sides), W, ks, np.ones(ks.shape))
    return BestResponse(goal, W[:goal, :goal].copy(), Policy(pol), 1, True)


@validated(
    tie=TIE_ARG, sides=SIDES_ARG, example={"opponent": np.eye(8)[hold_at(3, goal=8).two_player().T - 1]}
)
def solve_best_response_mixed(opponent, *, tie=0.5, sides: int = SIDES) -> BestResponse:
    """Player A's optimal hold-at-k policy against an opponent who mixes hold values.

    In state ``(i, j)`` B holds at ``k'`` with probability ``opponent[i, j, k'-1]``, so A's
    action value averages over B's choice (the paper's ``q(i, j, k) = sum_l (...) p_{k_l}``):
    the turn outcomes of B are mixed once per state and the same reverse sweep as
    :func:`solve_best_response` solves the MDP.

    Parameters
    ----------
    opponent : array_like
        B's strategy, shape ``(goal, goal, goal)``: ``opponent[i, j, k-1]`` is the probability
        that B holds at ``k`` when A is on ``i`` and B on ``j`` (as ``Equilibrium.opponent``).
    tie : float
        A's reward when both reach the goal in the same turn.
    sides : int
        The faces of the die both players roll; the face 1 ends the turn.

    Returns
    -------
    BestResponse
        ``values[i, j]`` and A's pure ``policy``; ``iterations=1``.

    >>> pure = np.eye(20)[hold_at(5, goal=20).two_player().T - 1]  # B holds at 5, as a mixed strategy
    >>> mixed = solve_best_response_mixed(pure).values
    >>> bool(np.allclose(mixed, solve_best_response(hold_at(5, goal=20)).values))
    True
    """
    opponent = check_strategy("opponent", opponent)
    goal = opponent.shape[0]
    memory, steps = _mixed_cost(goal, int((opponent > 0).sum(axis=2).max()), sides)
    what = "a best response"
    check_size("opponent's goal", goal, goal, memory=memory, steps=steps, what=what, sides=sides)
    W = _kernels.padded_values(goal, tie, sides)
    pol = _kernels.response_sweep(goal, hold_table(goal, sides), W, *sparse(opponent))
    return BestResponse(goal, W[:goal, :goal].copy(), Policy(pol), 1, True)


@validated(
    goal=OPTIONAL_GOAL_ARG,
    tie=TIE_ARG,
    sides=SIDES_ARG,
    example={"policy_a": hold_at(2, goal=5), "policy_b": hold_at(3, goal=5)},
)
def win_probability(
    policy_a, policy_b, goal: int | None = None, *, tie=0.5, sides: int = SIDES
) -> np.ndarray:
    """A's winning probability ``p[i, j]`` when A plays ``policy_a`` and B plays ``policy_b``.

    Parameters
    ----------
    policy_a, policy_b : Policy or array_like
        Each player's policy on its own states (``[own, other]``, or simple ``[own]``).
    goal : int, optional
        The target score; by default the policies'.
    tie : float
        A's reward when both reach the goal in the same turn.
    sides : int
        The faces of the die both players roll; the face 1 ends the turn.

    Returns
    -------
    numpy.ndarray
        ``p[i, j]`` for ``i, j < goal``, solved exactly (in float64) in one reverse sweep.

    >>> h = hold_at(2, goal=5)
    >>> round(float(win_probability(h, h)[0, 0]), 12)
    0.5
    """
    goal, pa, pb = resolve_policies(
        goal,
        {"policy_a": policy_a, "policy_b": policy_b},
        cost=lambda g: _evaluation_cost(g, sides),
        what="the win probabilities",
        sides=sides,
    )
    W = _kernels.padded_values(goal, tie, sides)
    _kernels.evaluate(goal, hold_table(goal, sides), W, pa.two_player(), pb.two_player())
    return W[:goal, :goal].copy()


@validated(
    goal=OPTIONAL_GOAL_ARG,
    tie=TIE_ARG,
    tol=TOL_ARG,
    max_iter=BUDGET_ARG,
    sides=SIDES_ARG,
    example={"opponent": hold_at(3, goal=8)},
)
def solve_full_best_response(
    opponent,
    goal: int | None = None,
    *,
    tie=0.5,
    tol: float = 1e-15,
    max_iter: int = 10_000,
    sides: int = SIDES,
) -> BestResponse:
    """A's best response when A may hold at *any* turn total (not only "hold at k").

    Within a turn A sees only its own rolls, so its choice is an optimal stopping problem on
    its turn total, against the distribution of B's turn. In each state the value solves
    ``v = V(0; v)`` (a 1 costs the turn and, if B also scores 0, returns to the state),
    iterated until the change is below ``tol``.

    Parameters
    ----------
    opponent : Policy or array_like
        B's hold-at-k policy (simple or two-player).
    goal : int, optional
        The target score; by default the opponent policy's.
    tie : float
        A's reward when both reach the goal in the same turn.
    tol : float
        Stop each state's iteration when the change is below ``tol``.
    max_iter : int
        Iterations allowed per state; :class:`~dicelab.pig.NotConverged` beyond.
    sides : int
        The faces of the die both players roll (the paper's 6); the face 1 ends the turn.

    Returns
    -------
    BestResponse
        ``values[i, j]``; ``policy[i, j, t]`` is True where A rolls on at turn total ``t``;
        ``iterations``: the most any state needed.

    >>> h = hold_at(3, goal=8)
    >>> full = solve_full_best_response(h)
    >>> bool((full.values >= solve_best_response(h).values - 1e-12).all())
    True
    """
    goal, opp = resolve_policies(
        goal,
        {"opponent": opponent},
        cost=lambda g: _stopping_cost(g, max_iter, sides),
        what="a full best response",
        sides=sides,
    )
    W = _kernels.padded_values(goal, tie, sides)
    roll, iterations, residual = _kernels.stopping_response(
        goal, hold_table(goal, sides), W, opp.two_player(), tol, max_iter
    )
    iterations = check_converged("the within-turn stopping iteration", iterations, residual, tol, max_iter)
    return BestResponse(goal, W[:goal, :goal].copy(), roll, iterations, True)
