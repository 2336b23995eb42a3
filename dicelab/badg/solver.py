"""The exact optimal strategy of b.a.d.g., by dynamic programming over every state.

Serves D. Fetterman's b.a.d.g. paper (2022), Sections 3-3.1: the paper's pre-compute
algorithm (value of a state = expected best, over the takes, of faces taken plus the value
of the state left; states solved fewest dice first), made fast.

Dice of one size are interchangeable, so a decision is *how many* of each size to take,
and then the highest faces of that size; a roll of ``a`` equal dice is a multiset with a
multinomial weight (:mod:`dicelab.badg.tables`). Values are float64: their exact
denominators exceed ``10^100``. :func:`dicelab.badg.reference.paper_precompute` is the
paper's algorithm with exact fractions, for small games and for checking.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from dicelab.badg import _kernels
from dicelab.badg._common import (
    _check_solver_cost,
    _float,
    _group_rolls,
    _kernel_steps,
    _n_group_rolls,
    _named,
    _parts,
    _Policy,
    _shown,
)
from dicelab.badg.state import DICE, STANDARD, Game, check_roll, states
from dicelab.badg.tables import SolverTables, solver_tables
from dicelab.core.checks import check_cost
from dicelab.core.spec import OneOf, validated

__all__ = ["RESTRICTIONS", "Solution", "PolicyStatistics", "solve"]

_RESTRICT_CODES = {
    None: _kernels.FREE,
    "take_max_faces": _kernels.TAKE_MAX,
    "no_two_low": _kernels.NO_TWO_LOW,
}
RESTRICTIONS: tuple[str | None, ...] = tuple(_RESTRICT_CODES)
"""The values of ``solve(restrict=...)``: ``None`` (any take), ``"take_max_faces"``, ``"no_two_low"``."""


@dataclass(frozen=True)
class PolicyStatistics:
    """Facts about optimal play from the start state, from :meth:`Solution.policy_statistics`.

    Attributes
    ----------
    p_zero : float
        Probability of a 0-point game (every die taken showing its maximum face).
    expected_rolls : float
        Expected number of rolls in a game.
    expected_leave_max : float
        Expected number of rolls per game that leave a die showing its maximum face on the table.
    acceptance : dict
        ``acceptance[s][f]``: over all rolls of the game, the probability that a die of
        size ``s`` showing ``f`` is taken.
    """

    p_zero: float
    expected_rolls: float
    expected_leave_max: float
    acceptance: dict[int, dict[int, float]]


@dataclass(frozen=True, eq=False)
class Solution:
    """The optimal strategy of a b.a.d.g. game, from :func:`solve`.

    Attributes
    ----------
    dice : tuple of int
        The start state (all dice, ascending).
    restriction : str or None
        The ``restrict`` argument of :func:`solve`.
    game : Game
        The dice grouped by size and the numbering of the states.
    V : float64 array (n_states,)
        ``V[i]``: the optimal expected face sum from the state with index ``i``.
    tables : SolverTables
        The arrays the solver read, reused by :meth:`policy_statistics`.

    The solver protocol (:mod:`dicelab.core.solution`): :attr:`start` is :attr:`dice`; a *state*
    is the dice still in play, and :attr:`value` and :meth:`value_at` are optimal expected face
    sums (:attr:`expected_points` is ``sum(dice) - value``); :attr:`values` is :attr:`V` by state.
    A *decision* is made after a roll: :meth:`best_action` and :attr:`policy` take the pair
    ``(state, roll)`` and answer the positions in ``roll`` of the dice taken.
    """

    dice: tuple[int, ...]
    restriction: str | None
    game: Game = field(repr=False)
    V: np.ndarray = field(repr=False)
    tables: SolverTables = field(repr=False)

    @property
    def start(self) -> tuple[int, ...]:
        """The state play begins in: every die, ascending (:attr:`dice`)."""
        return self.dice

    @property
    def value(self) -> float:
        """Optimal expected sum of the faces taken, from the start: ``value_at(start)``."""
        return float(self.V[-1])

    @property
    def expected_face_sum(self) -> float:
        """Optimal expected sum of the faces taken, from the start (:attr:`value`, the chapter's name)."""
        return self.value

    @property
    def expected_points(self) -> float:
        """Optimal expected b.a.d.g. points (``sum(s - face)``), from the start."""
        return float(sum(self.dice)) - self.expected_face_sum

    def value_at(self, state) -> float:
        """Optimal expected face sum still to come from ``state`` (a tuple of die sizes).

        Parameters
        ----------
        state : sequence of int
            Dice still in play: a sub-multiset of :attr:`dice` (``()`` has value 0).

        Returns
        -------
        float

        Examples
        --------
        >>> solve((6, 8)).value_at((8,))
        4.5
        """
        return float(self.V[self.game._index(self.game.counts_in(state))])

    def points(self, state) -> float:
        """Optimal expected b.a.d.g. points still to come from ``state``: ``sum(state) - value(state)``.

        Parameters
        ----------
        state : sequence of int
            Dice still in play.

        Returns
        -------
        float

        Examples
        --------
        >>> solve((6, 8)).points((6,))
        2.5
        """
        counts = self.game.counts_in(state)
        dice_sum = sum(s * c for s, c in zip(self.game.sizes, counts, strict=True))
        return float(dice_sum) - float(self.V[self.game._index(counts)])

    @property
    def values(self) -> dict[tuple[int, ...], float]:
        """``{state: value_at(state)}`` for every state, fewest dice first (:attr:`V` by state).

        Examples
        --------
        >>> solve((6, 8)).values
        {(): 0.0, (8,): 4.5, (6,): 3.5, (6, 8): 9.458333333333332}
        """
        game = self.game
        return {s: float(self.V[game._index(game.counts_in(s))]) for s in states(self.dice)}

    def take_values(self, state, roll) -> dict[tuple[int, ...], float]:
        """Every sensible take and its value: faces taken now plus the optimal value of the state left.

        A sensible take removes the highest faces of each size (any other is no better).

        Parameters
        ----------
        state : sequence of int
            Dice in play.
        roll : sequence of int
            One face per die of ``state``.

        Returns
        -------
        dict
            ``{positions taken in roll (ascending): value}``.

        Examples
        --------
        >>> solve((6, 8)).take_values((6, 8), (5, 2))  # take the 5 alone: 5 + value((8,)) = 9.5
        {(1,): 5.5, (0,): 9.5, (0, 1): 7.0}
        """
        state, roll = check_roll(self.game, state, roll)
        return self._take_values(state, roll)

    def _take_values(self, state, roll) -> dict[tuple[int, ...], float]:
        """:meth:`take_values` of a checked ``state`` and ``roll``."""
        game = self.game
        by_size: dict[int, list[int]] = {}
        for pos in sorted(range(len(state)), key=lambda p: (state[p], -roll[p], p)):
            by_size.setdefault(state[pos], []).append(pos)
        sizes = sorted(by_size)
        group = [game.sizes.index(s) for s in sizes]
        start = game._index(game.counts_in(state))
        out = {}
        for ks in itertools.product(*(range(len(by_size[s]) + 1) for s in sizes)):
            if sum(ks) == 0:
                continue
            taken = tuple(sorted(p for s, k in zip(sizes, ks, strict=True) for p in by_size[s][:k]))
            left = start - sum(k * game.strides[g] for g, k in zip(group, ks, strict=True))
            out[taken] = sum(roll[p] for p in taken) + float(self.V[left])
        return out

    def best_action(self, state) -> tuple[int, ...]:
        """The dice to remove under the optimal strategy; among equally good takes, the one taking most.

        Parameters
        ----------
        state : (sequence of int, sequence of int)
            The decision state ``(dice, roll)``: the dice in play and one face per die of them.

        Returns
        -------
        tuple of int
            Positions in ``roll``, ascending.

        Examples
        --------
        >>> solve((6, 8)).best_action(((6, 8), (5, 2)))  # take the 5, roll the d8 again
        (0,)
        """
        dice, roll = _parts(state, 2, "(dice, roll)")
        options = self._take_values(*_named(state, check_roll, self.game, dice, roll))
        best = max(options.values())
        tied = [t for t, v in options.items() if v >= best - _kernels.TIE * abs(best)]
        return max(tied, key=lambda t: (len(t), [-p for p in t]))

    @cached_property
    def policy(self) -> Mapping:
        """Optimal play: ``policy[dice, roll]`` is :meth:`best_action` ``((dice, roll))``.

        A read-only mapping computed on demand; it iterates over every decision state, each
        non-empty state with each of its rolls as a multiset (faces of each size descending).

        Examples
        --------
        >>> policy = solve((6, 8)).policy
        >>> len(policy), policy[(6, 8), (5, 2)]  # 8 + 6 + 48 decisions
        (62, (0,))
        """
        game = self.game

        def keys():
            for state in states(self.dice):
                counts = [(s, c) for s, c in zip(game.sizes, game.counts_in(state), strict=True) if c]
                for roll in _group_rolls(*zip(*counts, strict=True)) if state else ():
                    yield state, roll

        size = sum(_n_group_rolls(game.sizes, game._counts_of(i)) for i in range(1, game.n_states))
        return _Policy(self.best_action, keys, size)

    def policy_statistics(self) -> PolicyStatistics:
        """Facts about optimal (unrestricted) play from the start, by a forward pass over the states.

        Returns
        -------
        PolicyStatistics

        Examples
        --------
        >>> stats = solve((6, 8)).policy_statistics()
        >>> round(stats.p_zero, 6), round(stats.expected_rolls, 6)  # 1/24 and 7/4
        (0.041667, 1.75)
        """
        t = self.tables
        n_states = t.state_counts.shape[0]
        check_cost(  # every state reached adds its row of n_states transition probabilities
            "dice",
            _shown(self.game),
            memory=48 * _float(n_states),
            steps=4 * _float(n_states) ** 2 + 0.45 * _kernel_steps(self.game),  # measured 13 s, 10 d6 + 10 d8
            what="the policy statistics (a pass over every pair of states)",
        )
        start = n_states - 1
        reach = np.zeros(n_states)
        reach[start] = 1.0
        zero_reach = np.zeros(n_states)
        zero_reach[start] = 1.0
        accepted = np.zeros((t.sizes.size, t.sizes.max() + 1))
        shown = np.zeros_like(accepted)
        rolls = leave = 0.0
        for st in np.argsort(-t.state_counts.sum(axis=1), kind="stable"):  # most dice first
            if t.state_counts[st].sum() == 0 or reach[st] == 0:
                continue
            trans, trans_zero, acc, sh, left_max = _kernels.policy_step(t, self.V, st)
            reach += reach[st] * trans
            zero_reach += zero_reach[st] * trans_zero
            accepted += reach[st] * acc
            shown += reach[st] * sh
            rolls += reach[st]
            leave += reach[st] * left_max
        acceptance = {
            int(s): {f: float(accepted[i, f] / shown[i, f]) for f in range(1, s + 1) if shown[i, f] > 0}
            for i, s in enumerate(t.sizes)
        }
        return PolicyStatistics(float(zero_reach[0]), float(rolls), float(leave), acceptance)


@validated(dice=DICE, restrict=OneOf(RESTRICTIONS), example={"dice": (6, 8)})
def solve(dice=STANDARD, *, restrict: str | None = None) -> Solution:
    """The optimal strategy of b.a.d.g. with these dice, by dynamic programming over all states.

    States are solved fewest dice first (every take leads to a state with fewer dice).

    Parameters
    ----------
    dice : sequence of int
        The die sizes (default :data:`~dicelab.badg.STANDARD`: twelve d6, a d8, a d10, a d12).
    restrict : {None, "take_max_faces", "no_two_low"}
        Limits the takes, to test the paper's proposed prunings: ``"take_max_faces"``
        always takes every die showing its maximum, ``"no_two_low"`` never takes two
        dice showing half their size or less. ``None``: any non-empty take.

    Returns
    -------
    Solution
        Float64 values of every state.

    Examples
    --------
    >>> sol = solve((6, 8))
    >>> round(sol.expected_face_sum, 6), round(sol.expected_points, 6)  # 227/24 and 109/24
    (9.458333, 4.541667)
    """
    game = Game.of(dice)
    _check_solver_cost(game, "dice")
    tables = solver_tables(game)
    V = _kernels.solve_values(tables, _RESTRICT_CODES[restrict])
    return Solution(game.dice, restrict, game, V, tables)
