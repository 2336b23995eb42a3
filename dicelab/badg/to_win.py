"""b.a.d.g. played to win: the strategy that maximises the chance of a low enough score.

Serves the chapter "Playing to win", beyond D. Fetterman's b.a.d.g. paper (2022), whose
Section 3 minimises the *expected* bad points (:func:`~dicelab.badg.solve`). A player wants to
beat the others, a different objective with a different strategy.

Notation
--------
``X``
    the most bad points the game can score, ``sum(s - 1)`` over the dice (:func:`max_points`).
``x``
    the bad points scored so far; a state ``S`` (the dice left) is met with any ``x`` in
    ``0..X - maxpts(S)``, ``maxpts(S)`` the most bad points the dice of ``S`` can still score.
``u``
    a utility of the final bad points, a sequence ``u[0..X]``. ``u[x] = 1 if x <= t`` plays for
    a target ``t`` (:func:`threshold_utility`); the chance of scoring lower than opponents
    with known final-score distributions is :func:`lowest_utility`; ``u[x] = -x`` is the
    expected-points game.
``W(S, x)``
    the largest expected utility from state ``S`` with ``x`` points so far:
    ``W(empty, x) = u[x]`` and ``W(S, x) = E_roll max_T W(S - T, x + pts(T))`` over the non-empty
    takes ``T`` of the roll (``pts(T)``: the bad points of the dice taken).

The shortcut, and its proof
---------------------------
**Claim.** If ``u`` is nonincreasing, so is ``x -> W(S, x)`` for every ``S``. *Proof*, by
induction on the dice of ``S``: ``W(empty, .) = u``. For each roll and take ``T``,
``x -> W(S - T, x + pts(T))`` is nonincreasing by induction; so is a maximum of nonincreasing
functions, and an average of those. **Consequence.** Fix a roll and how many dice ``k_s`` of
each size to take. Every take with these counts leaves the same state (dice of one size are
interchangeable), so its value ``W(S - T, x + pts(T))`` is largest where ``pts(T)`` is smallest:
taking, of each size, the ``k_s`` dice showing the highest faces. The maximum over all takes
is the maximum over the count vectors ``(k_s)``, the structure :func:`~dicelab.badg.solve`
uses; the tests check it against every subset (:func:`dicelab.badg.reference.exact_win_values`).
A utility that is not nonincreasing (``u = 1[x = t]``) breaks the claim and is refused.

Which take, among equals
------------------------
The win policy takes, among the sensible takes (highest faces of each size), those with the
largest win value ``W``; among the ones within a relative ``1e-13`` of it, those with the
largest expected face sum (faces taken plus :meth:`Solution.value <dicelab.badg.Solution.value>`
of the state left: the expected-points policy's own ranking); then the most dice; then the
larger count vector compared from the smallest size (more small dice). Where every take has
the same win value (the target is sure, or out of reach) it is the expected-points policy.
The expected-points policy is ranked the same way without ``W``: this is how its ties are
broken for :func:`~dicelab.badg.points_distribution` (:meth:`Solution.best_action
<dicelab.badg.Solution.best_action>` also takes the most dice; ``policy_statistics`` prefers the
big group's dice instead, which differs only at exact ties of expected value). Exact-fraction
versions: :func:`~dicelab.badg.reference.exact_win_values`,
:func:`~dicelab.badg.reference.exact_points_distribution`.

Every target, one table
-----------------------
For a target ``t``, ``u[x] = 1[x <= t]`` depends only on ``t - x``, and so does ``W``:
``W_t(S, x) = F(S, t - x)``, with ``F(S, b)`` the best chance that the dice of ``S`` score at
most ``b`` more bad points. One solve of the game extended by ``top`` points (utility
``1[x <= top]`` over ``0..X + top``) gives ``F(S, b)`` at every budget ``b <= top``, and with it
the values of every target up to ``top``, each read as a window of its columns: the same
operations on the same numbers, bit for bit, as a solve for that target alone. A game remembers
its table (the last few games): the first target asks for ``top = max(t, X // 4)``, a larger one
doubles it. The forward pass of a target is remembered beside it (a chapter asks for the
distribution of one target in several places).

Values are float64 (``W`` is a probability for a threshold; the exact denominators are as
large as the expected-points solver's).
"""

from __future__ import annotations

import itertools
import math
import numbers
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property, lru_cache

import numpy as np

from dicelab.badg import _win_kernels
from dicelab.badg._common import (
    _active,
    _check_solver_cost,
    _check_utility,
    _float,
    _group_rolls,
    _n_group_rolls,
    _named,
    _parts,
    _Policy,
    _rolls,
    _shown,
    _solver_cost,
    _state_max_points,
)
from dicelab.badg._win_kernels import TIE
from dicelab.badg.solver import Solution, solve
from dicelab.badg.state import DICE, STANDARD, Game, check_roll, states
from dicelab.badg.tables import SolverTables
from dicelab.core.checks import check_cost, check_float, check_int, check_sequence
from dicelab.core.exact import to_fraction
from dicelab.core.spec import Check, Int, validated

__all__ = [
    "max_points",
    "threshold_utility",
    "lowest_utility",
    "solve_to_win",
    "WinSolution",
    "Differences",
    "Decision",
]


@validated(dice=DICE, example={"dice": (6, 8)})
def max_points(dice=STANDARD) -> int:
    """The most bad points a game with these dice can score: ``sum(s - 1)``.

    Parameters
    ----------
    dice : sequence of int
        The die sizes (default :data:`~dicelab.badg.STANDARD`).

    Returns
    -------
    int
        The utilities of this module have ``max_points(dice) + 1`` entries, ``u[0..X]``.

    Examples
    --------
    >>> max_points(), max_points((6, 6, 8))
    (87, 17)
    """
    game = Game.of(dice)
    return sum(c * (s - 1) for s, c in zip(game.sizes, game.counts, strict=True))


@validated(dice=DICE, example={"target": 3, "dice": (6, 8)})
def threshold_utility(target: int, dice=STANDARD) -> tuple[Fraction, ...]:
    """``u[x] = 1`` if ``x <= target`` else ``0``: playing to score at most ``target`` bad points.

    Parameters
    ----------
    target : int
        The most bad points that still count as a success, ``0..max_points(dice)``.
    dice : sequence of int
        The die sizes.

    Returns
    -------
    tuple of Fraction
        ``u[0..X]``.

    Examples
    --------
    >>> [int(v) for v in threshold_utility(2, (4, 4))]
    [1, 1, 1, 0, 0, 0, 0]
    """
    X = max_points(dice)
    target = check_int("target", target, 0, X)
    return tuple(Fraction(int(x <= target)) for x in range(X + 1))


def _check_tie(name: str, tie) -> Fraction:
    """``tie`` as an exact number in [0, 1]: a rational number as given, a float at its binary value."""
    checked = check_float(name, tie, 0, 1)
    return Fraction(tie) if isinstance(tie, numbers.Rational) else Fraction(checked)


@validated(
    dice=DICE,
    tie=Check(
        _check_tie, bad=(math.nan, math.inf, -0.1, 1.5, Fraction(3, 2), "0.5", "split", None, True, [0.5])
    ),
    example={"opponents": [[1]], "dice": (6, 8)},
)
def lowest_utility(opponents, dice=STANDARD, *, tie=0.5) -> tuple[Fraction, ...]:
    """``u[x]``: the chance that ``x`` bad points is the lowest score against the opponents.

    Each opponent's final bad points are independent of ours, with a known distribution
    (e.g. :func:`~dicelab.badg.points_distribution` of the expected-points policy): the opponents play
    before us unseen, or at the same time. A player who sees the others' scores before
    playing wants :func:`threshold_utility` at their lowest score (minus one to win a tie).

    Parameters
    ----------
    opponents : sequence of sequences of numbers
        One distribution per opponent: ``q[y]``, the probability of ``y`` bad points
        (``y = 0, 1, ...``), non-negative, summing to 1 (floats within ``1e-9``).
    dice : sequence of int
        Our die sizes (they set ``X``).
    tie : number in [0, 1]
        What a tie for the lowest score with one opponent is worth: ``0.5`` shares it (the
        default), ``1`` wins it, ``0`` loses it. A tie with ``j`` opponents is drawn by lot, our
        weight ``tie`` against each opponent's ``1 - tie``: it is worth
        ``tie / (tie + j (1 - tie))``, so ``tie=0.5`` shares it equally, ``1 / (j + 1)``.

    Returns
    -------
    tuple of Fraction
        ``u[0..X]``, nonincreasing.

    Examples
    --------
    >>> coin = [Fraction(1, 2), 0, Fraction(1, 2)]  # 0 or 2 points, evenly
    >>> [str(v) for v in lowest_utility([coin], (3,))]
    ['3/4', '1/2', '1/4']
    >>> [str(v) for v in lowest_utility([coin, coin], (3,), tie=0)]
    ['1/4', '1/4', '0']
    """
    X = max_points(dice)
    dists = [
        _check_distribution(f"opponents[{i}]", q)
        for i, q in enumerate(
            check_sequence("opponents", opponents, what="distributions of the opponents' bad points")
        )
    ]
    check_cost("opponents", len(dists), steps=100 * (X + 1) * len(dists) ** 2, what="the tie counts")

    def share(j):  # the part of a win when tied with j opponents
        return Fraction(1) if j == 0 else tie / (tie + j * (1 - tie))

    u = []
    for x in range(X + 1):
        poly = [Fraction(1)]  # poly[j]: P(no opponent below x, exactly j of them at x)
        for q in dists:
            at = q[x] if x < len(q) else Fraction(0)
            above = sum(q[x + 1 :], Fraction(0))  # the tail itself: never below 0, never rising
            poly = [a * above + (poly[j - 1] * at if j else 0) for j, a in enumerate([*poly, Fraction(0)])]
        u.append(sum((p * share(j) for j, p in enumerate(poly)), Fraction(0)))
    return tuple(u)


def _check_distribution(name: str, q) -> tuple[Fraction, ...]:
    """``q`` as exact non-negative probabilities summing to 1 (within ``1e-9``)."""
    q = check_sequence(name, q, what="probabilities")
    check_cost(name, len(q), memory=200 * len(q), what="a distribution")
    q = tuple(to_fraction(v, f"{name}: probability", allow_float=True) for v in q)
    if any(v < 0 for v in q) or abs(sum(q) - 1) > Fraction(1, 10**9):
        raise ValueError(
            f"{name} must hold non-negative probabilities summing to 1, got sum {float(sum(q))!r}"
        )
    return q


def _work(game: Game, active: np.ndarray, forward: bool) -> float:
    """Inner-loop steps of the kernels, per state: the big group's rolls ``R_b`` times the work of
    one big roll -- the big group's choices ``K (n_b + 1)`` over the ``z`` range (the ``x`` range
    worked, ``span``, plus the most points of the small dice, ``tail``), the levels' maxima
    (``(n_out / R_last) K`` over the ``z`` range, ``n_out (c_last + 1)`` over the ``x`` range), the
    sum over the small joint rolls ``n_out`` -- and, for the forward pass, each joint roll's
    expected-points take (``2 K`` a roll: one pass over the choices, where none ties), its
    checks over the ``x`` range, the big group's takes (``8 K (n_b + 1)`` a big roll) and the
    moves over every pair of states. The maxima run about ten to a step (vectorised), the
    forward pass's takes about three."""
    counts = np.array(game.counts)
    n = (np.arange(game.n_states)[:, None] // np.array(game.strides)) % (counts + 1)
    R = np.ones(n.shape)
    for i, (s, c) in enumerate(zip(game.sizes, game.counts, strict=True)):
        R[:, i] = np.array([_rolls(s, a) for a in range(c + 1)])[n[:, i]]
    rows = np.arange(n.shape[0])
    big = R.argmax(axis=1)
    R_big, n_big = R[rows, big], n[rows, big]
    n_out, K = R.prod(axis=1) / R_big, (n + 1).prod(axis=1) / (n_big + 1)
    small = (n > 0) & (np.arange(n.shape[1]) != big[:, None])
    last = np.where(small.any(axis=1), n.shape[1] - 1 - small[:, ::-1].argmax(axis=1), big)
    R_last, c_last = np.where(last == big, 1, R[rows, last]), np.where(last == big, 0, n[rows, last])
    X = active.shape[1] - 1
    has = active.any(axis=1)
    lo, hi = active.argmax(axis=1), X - active[:, ::-1].argmax(axis=1)
    span = np.where(has, hi - lo + 1, 0)
    tail = (n * (np.array(game.sizes) - 1)).sum(axis=1) - n_big * (np.array(game.sizes)[big] - 1)
    z = span + tail
    levels = K * (n_big + 1) * z + n_out / R_last * K * z + n_out * (c_last + 2) * span
    work = 0.1 * float(np.sum(R_big * np.where(has, levels, 0))) + 100 * game.n_states
    if not forward:
        return work
    mp = (n * (np.array(game.sizes) - 1)).sum(axis=1)
    moves = game.n_states * float(np.sum((X - mp + 1) * (mp + 1)))
    return work + 0.3 * float(np.sum(R_big * (n_out * (2 * K + span) + 8 * K * (n_big + 1)))) + moves


@dataclass(frozen=True, eq=False)
class WinSolution:
    """The strategy maximising the expected utility of the final bad points, from :func:`solve_to_win`.

    Attributes
    ----------
    dice : tuple of int
        The start state (ascending).
    target : int or None
        The target of a threshold utility, else ``None``.
    utility : tuple of Fraction
        ``u[0..X]``.
    W : float64 array (n_states, X + 1)
        ``W[i, x]``: the win value of state ``i`` (numbered as :class:`~dicelab.badg.state.Game`)
        with ``x`` points so far; NaN where ``x > X - maxpts(i)``.
    expected : Solution
        The expected-points solution, whose values break ties.

    The solver protocol (:mod:`dicelab.core.solution`): a *state* is ``(dice, points)``, the dice
    still in play and the bad points scored so far; :attr:`start` is ``(dice, 0)``, and
    :attr:`value`, :meth:`value_at` and :attr:`values` (:attr:`W` by state) are win values. A
    *decision* is made after a roll: :meth:`best_action` and :attr:`policy` take
    ``(dice, points, roll)`` and answer the positions in ``roll`` of the dice taken.
    """

    dice: tuple[int, ...]
    target: int | None
    utility: tuple[Fraction, ...] = field(repr=False)
    W: np.ndarray = field(repr=False)
    expected: Solution = field(repr=False)
    active: np.ndarray = field(repr=False)

    @property
    def game(self) -> Game:
        """The dice grouped by size and the numbering of the states."""
        return self.expected.game

    @property
    def tables(self) -> SolverTables:
        """The roll tables the kernels read."""
        return self.expected.tables

    @property
    def start(self) -> tuple[tuple[int, ...], int]:
        """The state play begins in: every die, no points yet."""
        return self.dice, 0

    @property
    def value(self) -> float:
        """The win value from the start: ``P(bad <= target)`` for a target, ``E[u]`` in general."""
        return float(self.W[-1, 0])

    def value_at(self, state) -> float:
        """The win value of a state: dice still in play, with bad points scored so far.

        Parameters
        ----------
        state : (sequence of int, int)
            ``(dice, points)``: the dice in play (``()``: the game is over, the value is
            ``u[points]``) and the bad points so far, ``0..X - maxpts(dice)``.

        Returns
        -------
        float

        Examples
        --------
        >>> solve_to_win((6, 8), target=3).value_at(((8,), 1))  # faces 6..8 of the d8
        0.375
        """
        dice, points = _parts(state, 2, "(dice, points)")
        index, points = _named(state, self._state_points, dice, points)
        return float(self.W[index, points])

    @cached_property
    def values(self) -> dict[tuple[tuple[int, ...], int], float]:
        """``{(dice, points): value_at((dice, points))}`` for every state, fewest dice first.

        Examples
        --------
        >>> win = solve_to_win((6,), target=2)
        >>> round(win.values[(6,), 0], 12), win.values[(), 2], len(win.values)  # faces 4..6; 6 + 1 states
        (0.5, 1.0, 7)
        """
        game, X = self.game, len(self.utility) - 1
        out = {}
        for state in states(self.dice):
            counts = game.counts_in(state)
            index = game._index(counts)
            for x in range(X - sum(c * (s - 1) for s, c in zip(game.sizes, counts, strict=True)) + 1):
                out[state, x] = float(self.W[index, x])
        return out

    def _state_points(self, state, points) -> tuple[int, int]:
        counts = self.game.counts_in(state)
        most = len(self.utility) - 1 - sum(c * (s - 1) for s, c in zip(self.game.sizes, counts, strict=True))
        return self.game._index(counts), check_int("points", points, 0, most)

    def take_values(self, state, points: int, roll) -> dict[tuple[int, ...], float]:
        """Every sensible take (highest faces of each size) and its win value.

        Parameters
        ----------
        state : sequence of int
            Dice in play.
        points : int
            Bad points so far.
        roll : sequence of int
            One face per die of ``state``.

        Returns
        -------
        dict
            ``{positions taken (ascending): win value of the state left}``.

        Examples
        --------
        >>> solve_to_win((6, 8), target=3).take_values((6, 8), 0, (5, 2))
        {(1,): 0.0, (0,): 0.375, (0, 1): 0.0}
        """
        return {take: f for take, (f, _, _) in self._options(state, points, roll).items()}

    def _options(self, state, points, roll) -> dict:
        """``{take: (win value, expected face sum, count key)}`` of the sensible takes."""
        game = self.game
        _, points = self._state_points(state, points)
        state, roll = check_roll(game, state, roll)
        by_size: dict[int, list[int]] = {}
        for pos in sorted(range(len(state)), key=lambda p: (state[p], -roll[p], p)):
            by_size.setdefault(state[pos], []).append(pos)
        sizes = sorted(by_size)
        start = game._index(game.counts_in(state))
        out = {}
        for ks in itertools.product(*(range(len(by_size[s]) + 1) for s in sizes)):
            if sum(ks) == 0:
                continue
            taken = tuple(sorted(p for s, k in zip(sizes, ks, strict=True) for p in by_size[s][:k]))
            left = start - sum(k * game.strides[game.sizes.index(s)] for s, k in zip(sizes, ks, strict=True))
            pts = sum(state[p] - roll[p] for p in taken)
            faces = sum(roll[p] for p in taken)
            out[taken] = (
                float(self.W[left, points + pts]),
                faces + float(self.expected.V[left]),
                (sum(ks), ks),
            )
        return out

    def best_action(self, state) -> tuple[int, ...]:
        """The dice the win policy removes (ties broken as the module docstring says).

        Parameters
        ----------
        state : (sequence of int, int, sequence of int)
            The decision state ``(dice, points, roll)``: the dice in play, the bad points so far
            and one face per die of ``dice``.

        Returns
        -------
        tuple of int
            Positions in ``roll``, ascending.

        Examples
        --------
        >>> solve_to_win((6, 8), target=3).best_action(((6, 8), 0, (5, 2)))  # the d6 scores 1 point
        (0,)
        """
        dice, points, roll = _parts(state, 3, "(dice, points, roll)")
        return _pick(_named(state, self._options, dice, points, roll), use_win=True)

    @cached_property
    def policy(self) -> Mapping:
        """The win policy: ``policy[dice, points, roll]`` is :meth:`best_action` ``((dice, points, roll))``.

        A read-only mapping computed on demand; it iterates over every decision state, each
        non-empty state with each points total and each roll as a multiset (faces of each size
        descending).

        Examples
        --------
        >>> policy = solve_to_win((6, 8), target=3).policy
        >>> len(policy), policy[(6, 8), 0, (5, 2)]
        (144, (0,))
        """
        game, X = self.game, len(self.utility) - 1

        def most(counts):
            return X - sum(c * (s - 1) for s, c in zip(game.sizes, counts, strict=True))

        def keys():
            for state in states(self.dice):
                counts = game.counts_in(state)
                present = [(s, c) for s, c in zip(game.sizes, counts, strict=True) if c]
                for x in range(most(counts) + 1) if state else ():
                    for roll in _group_rolls(*zip(*present, strict=True)):
                        yield state, x, roll

        size = 0
        for i in range(1, game.n_states):
            counts = game._counts_of(i)
            size += (most(counts) + 1) * _n_group_rolls(game.sizes, counts)
        return _Policy(self.best_action, keys, size)

    @cached_property
    def _forward(self):
        if self.target is None:
            return _forward(self, n_examples=_EXAMPLES)
        passes = _TARGETS[self.dice].passes if self.dice in _TARGETS else {}
        if self.target not in passes:  # the values are the table's, whatever its top: so is the pass
            passes[self.target] = _forward(self, n_examples=_EXAMPLES)
        return passes[self.target]

    def distribution(self) -> np.ndarray:
        """The distribution of the final bad points under the win policy.

        Returns
        -------
        float64 array (X + 1,)
            ``p[x]``; ``p[: t + 1].sum()`` is :attr:`value` for a target ``t``.

        Examples
        --------
        >>> win = solve_to_win((6, 8), target=3)
        >>> round(float(win.distribution()[:4].sum()), 6), round(win.value, 6)
        (0.422743, 0.422743)
        """
        return self._forward[0].copy()

    @property
    def expected_points(self) -> float:
        """Expected final bad points under the win policy."""
        p = self._forward[0]
        return float(p @ np.arange(p.size))

    def differences(self, examples: int = 5):
        """Where the win policy takes differently from the expected-points policy.

        Parameters
        ----------
        examples : int
            How many of those decisions to show, the most likely first (``0..1000``).

        Returns
        -------
        Differences

        Examples
        --------
        >>> diff = solve_to_win((6, 8), target=3).differences(1)
        >>> diff.count, round(diff.expected_count, 6)
        (4, 0.083333)
        >>> print(diff.examples[0])  # 3 points now make the target sure
        2 dice, 0 points so far, roll d6:3 d8:8
          to win:    take d6:3 d8:8                    win 1.0000, E[points] 3.000
          on points: take d8:8                         win 0.6667, E[points] 2.500
        """
        examples = check_int("examples", examples, 0, 1000)
        found = self._forward if examples <= _EXAMPLES else _forward(self, n_examples=examples)
        _, count, expected_count, decisions = found
        return Differences(count, expected_count, tuple(decisions[:examples]))


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
    decisions = tuple(_decision(sol, ex_meta[i], float(ex_w[i])) for i in keep if ex_w[i] > 0)
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


def _pick(options: dict, use_win: bool) -> tuple[int, ...]:
    """The take chosen among ``options`` (:meth:`WinSolution._options`) by the tie rule."""
    f = {t: (v if use_win else 0.0) for t, (v, _, _) in options.items()}
    fmax = max(f.values())
    tied = [t for t in options if f[t] >= fmax - TIE * abs(fmax)]
    emax = max(options[t][1] for t in tied)
    tied = [t for t in tied if options[t][1] >= emax - TIE * abs(emax)]
    return max(tied, key=lambda t: options[t][2])


@lru_cache(maxsize=4)
def _expected(dice: tuple[int, ...]) -> Solution:
    """The expected-points solution whose values break the win policy's ties, solved once per game
    (a chapter plays the same game to many targets)."""
    return solve(dice)


@dataclass
class _Targets:
    """A game's table of every target up to ``top`` (module docstring, "Every target, one table"):
    ``W[i, top - b]`` is ``F(i, b)``, the values of the game extended by ``top`` points; ``passes``:
    the forward passes solved so far, by target."""

    top: int
    W: np.ndarray
    passes: dict = field(default_factory=dict)


_TARGETS: dict[tuple[int, ...], _Targets] = {}  # by dice, the most recently used last
_TARGETS_SIZE = 4


def _clear_targets() -> None:
    """Forget the games' tables of targets (for timing a solve afresh)."""
    _TARGETS.clear()


def _target_values(game: Game, X: int, target: int) -> np.ndarray:
    """``W`` of ``u = 1[x <= target]``: a window of the game's table of targets, solved first when
    the game has none up to ``target``."""
    table = _TARGETS.pop(game.dice, None)
    if table is None or table.top < target:
        top = min(X, max(target, X // 4, 2 * table.top if table else 0))
        u = tuple(Fraction(int(x <= top)) for x in range(X + top + 1))
        active = _active(game, u)
        check_cost(
            "dice",
            _shown(game),
            memory=24 * _float(game.n_states) * (X + top + 1),
            steps=_solver_cost(game)[1] + _work(game, active, forward=False),
            what="the win values of every target up to " + str(top),
        )
        expected = _expected(game.dice)
        W = _win_kernels.win_values(expected.tables, np.array([float(v) for v in u]), active)
        table = _Targets(top, W, table.passes if table else {})
    _TARGETS[game.dice] = table
    while len(_TARGETS) > _TARGETS_SIZE:
        _TARGETS.pop(next(iter(_TARGETS)))
    shift = table.top - target  # W_t(i, x) = F(i, target - x) = table.W[i, x + shift]
    W = table.W[:, shift : shift + X + 1].copy()
    W[np.arange(X + 1)[None, :] > X - _state_max_points(game)[:, None]] = np.nan
    return W


@validated(dice=DICE, target=Int(0, optional=True), example={"dice": (6, 8), "target": 3})
def solve_to_win(dice=STANDARD, *, target: int | None = None, utility=None) -> WinSolution:
    """The strategy maximising ``P(final bad points <= target)``, or ``E[utility[final bad points]]``.

    Dynamic programming over (dice left, bad points so far), fewest dice first, taking the
    highest faces of each size (proof in the module docstring).

    Parameters
    ----------
    dice : sequence of int
        The die sizes (default :data:`~dicelab.badg.STANDARD`).
    target : int, optional
        Play to score at most ``target`` bad points (:func:`threshold_utility`).
    utility : sequence of numbers, optional
        ``u[0..X]``, nonincreasing (:func:`lowest_utility`, or ``[-x for x in range(X + 1)]``).
        Give exactly one of ``target`` and ``utility``.

    Returns
    -------
    WinSolution

    Examples
    --------
    >>> win = solve_to_win((6, 6, 8), target=4)
    >>> round(win.value, 6)  # P(at most 4 bad points)
    0.485426
    """
    game = Game.of(dice)
    X = max_points(game.dice)
    if (target is None) == (utility is None):
        raise ValueError("give exactly one of target and utility (target=None, utility=None)")
    _check_solver_cost(game, "dice")
    check_cost("dice", _shown(game), memory=24 * _float(game.n_states) * (X + 1), what="the win values")
    if target is not None:
        target = check_int("target", target, 0, X)
        u = threshold_utility(target, game.dice)
        W = _target_values(game, X, target)  # its own cost check, when it solves
        return WinSolution(game.dice, target, u, W, _expected(game.dice), _active(game, u))
    u = _check_utility(utility, X)
    active = _active(game, u)
    steps = _solver_cost(game)[1] + _work(game, active, forward=False)
    check_cost("dice", _shown(game), steps=steps, what="the win values")
    expected = _expected(game.dice)
    W = _win_kernels.win_values(expected.tables, np.array([float(v) for v in u]), active)
    return WinSolution(game.dice, target, u, W, expected, active)
