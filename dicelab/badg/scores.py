"""Final-score distributions of b.a.d.g. strategies, and where the win policy parts from the
expected-points policy.

Serves the chapter "Playing to win" (see :mod:`dicelab.badg.to_win` for the notation and the
rule that breaks ties). The distribution of the final bad points under a policy is a forward
pass over (state, points so far), most dice first: the probability of reaching each pair,
moved roll by roll to the pair the policy's take leads to.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from dicelab.badg import _win_kernels
from dicelab.badg.solver import Solution
from dicelab.badg.state import _float, _shown
from dicelab.badg.to_win import WinSolution, _active, _pick, _work, max_points
from dicelab.core.checks import check_cost

__all__ = ["Decision", "Differences", "points_distribution"]


@dataclass(frozen=True)
class Decision:
    """One decision where the win policy and the expected-points policy take differently.

    Attributes
    ----------
    state : tuple of int
        The dice rolled (ascending sizes).
    points : int
        Bad points scored before this roll.
    roll : tuple of int
        One face per die of ``state``.
    probability : float
        Probability that a game played by the win policy meets this state, points and roll
        (the roll as a multiset of faces of each size).
    win_take, expected_take : tuple of int
        The positions in ``roll`` each policy takes.
    win_values : (float, float)
        The win value (expected utility; ``P(bad <= t)`` for a target) of each take, win's first.
    expected_points : (float, float)
        Expected final bad points after each take, played for fewest points thereafter.
    """

    state: tuple[int, ...]
    points: int
    roll: tuple[int, ...]
    probability: float
    win_take: tuple[int, ...]
    expected_take: tuple[int, ...]
    win_values: tuple[float, float]
    expected_points: tuple[float, float]

    def __str__(self) -> str:
        def shown(take):
            return " ".join(f"d{self.state[p]}:{self.roll[p]}" for p in take)

        roll = " ".join(f"d{s}:{f}" for s, f in zip(self.state, self.roll, strict=True))
        return (
            f"{len(self.state)} dice, {self.points} points so far, roll {roll}\n"
            f"  to win:    take {shown(self.win_take):28s} win {self.win_values[0]:.4f}, "
            f"E[points] {self.expected_points[0]:.3f}\n"
            f"  on points: take {shown(self.expected_take):28s} win {self.win_values[1]:.4f}, "
            f"E[points] {self.expected_points[1]:.3f}"
        )


@dataclass(frozen=True)
class Differences:
    """Where the win policy's take differs from the expected-points policy's, from
    :meth:`WinSolution.differences`.

    Attributes
    ----------
    count : int
        Decisions ``(state, points so far, roll)`` where they differ: every state, every points
        total some play reaches it with, every roll as a multiset of faces of each size.
    expected_count : float
        Expected number of such decisions in a game played by the win policy.
    examples : tuple of Decision
        The most likely of them under the win policy, most likely first.
    """

    count: int
    expected_count: float
    examples: tuple[Decision, ...]


_EXAMPLES = 20  # decisions kept by the forward pass unless more are asked for


def _forward(sol: WinSolution, n_examples: int):
    """The forward pass: final distribution, differing decisions and the heaviest of them."""
    game, t = sol.game, sol.tables
    check_cost(
        "dice",
        _shown(game),
        memory=48 * _float(game.n_states) * sol.W.shape[1],
        steps=_work(game, sol.active, forward=True),
        what="the policy's forward pass",
    )
    reach = np.zeros_like(sol.W)
    reach[-1, 0] = 1.0
    n_diff, p_diff = 0, 0.0
    ex_w = np.zeros(n_examples)
    ex_meta = np.zeros((n_examples, 2 + len(game.sizes)), dtype=np.int64)
    for st in t.order[::-1]:  # most dice first
        if st == 0 or (not reach[st].any() and not sol.active[st].any()):
            continue
        moved, nd, pd = _win_kernels.policy_pass(
            t, sol.W, sol.expected.V, sol.active, reach[st], st, ex_w, ex_meta
        )
        reach += moved
        if reach.min() < -1e-12:
            raise AssertionError(f"negative probability {reach.min()} in the forward pass")
        np.maximum(reach, 0.0, out=reach)  # rounding where a move's mass went wholly to the win take
        n_diff += nd
        p_diff += pd
    keep = np.argsort(-ex_w, kind="stable")
    decisions = [_decision(sol, ex_meta[i], float(ex_w[i])) for i in keep if ex_w[i] > 0]
    return reach[0], n_diff, p_diff, decisions


def _decision(sol: WinSolution, meta: np.ndarray, weight: float) -> Decision:
    t = sol.tables
    state, roll = [], []
    for g, s in enumerate(t.sizes):
        c = int(t.state_counts[meta[0], g])
        state += [int(s)] * c
        roll += [int(f) for f in t.top[meta[2 + g], :c]] if c else []
    x = int(meta[1])
    options = sol._options(state, x, roll)
    takes = (_pick(options, use_win=True), _pick(options, use_win=False))

    def final_points(take):
        left = tuple(s for p, s in enumerate(state) if p not in take)
        return x + sum(state[p] - roll[p] for p in take) + sol.expected.points(left)

    return Decision(
        tuple(state),
        x,
        tuple(roll),
        weight,
        *takes,
        tuple(options[k][0] for k in takes),
        tuple(final_points(k) for k in takes),
    )


def points_distribution(solution) -> np.ndarray:
    """The distribution of the final bad points under a solution's policy.

    Parameters
    ----------
    solution : Solution or WinSolution
        :func:`~dicelab.badg.solve`'s expected-points policy (unrestricted; its ties broken as
        :mod:`dicelab.badg.to_win` says), or :func:`~dicelab.badg.solve_to_win`'s win policy.

    Returns
    -------
    float64 array (X + 1,)
        ``p[x]``, the probability of ``x`` final bad points; ``p.cumsum()[t]`` is ``P(bad <= t)``.

    Examples
    --------
    >>> from dicelab import badg
    >>> p = points_distribution(badg.solve((6, 8)))
    >>> round(float(p @ range(p.size)), 6), round(badg.solve((6, 8)).expected_points, 6)
    (4.541667, 4.541667)
    >>> round(float(p[:4].sum()), 6)  # P(at most 3 bad points), below the win policy's 0.422743
    0.395833
    """
    if isinstance(solution, WinSolution):
        return solution.distribution()
    if not isinstance(solution, Solution) or solution.restriction is not None:
        raise ValueError(
            f"solution must be a WinSolution or an unrestricted Solution of solve, got {solution!r}"
        )
    game = solution.game
    X = max_points(game.dice)
    flat = (Fraction(0),) * (X + 1)  # one value for every score: the expected-points policy
    sol = WinSolution(game.dice, None, flat, np.zeros((game.n_states, X + 1)), solution, _active(game, flat))
    return sol.distribution()
