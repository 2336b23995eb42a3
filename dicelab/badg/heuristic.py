"""The paper's "parallel games" strategy, and the exact evaluation of any strategy.

Serves D. Fetterman's b.a.d.g. paper (2022), Section 4. With ``N`` dice left, every
die plays its own one-die game (:mod:`dicelab.badg.stopping`) with ``N`` rolls left. A roll where
no die clears its cutoff is a *simultaneous misfortune*: one die must still be taken.

A policy is evaluated by the same dynamic program as :func:`~dicelab.badg.solve`, with the
policy's take in place of the best one, in exact fractions.
"""

from __future__ import annotations

import itertools
import math
import numbers
from dataclasses import dataclass
from fractions import Fraction

from dicelab.badg._common import (
    _capped,
    _check_optimal_cost,
    _float,
    _log2_comb,
    _max_reject,
    _multiset_rolls,
    _optimal,
    _shown,
)
from dicelab.badg.state import DICE, STANDARD, Game, check_roll
from dicelab.core.checks import check_choice, check_cost, check_int
from dicelab.core.spec import OneOf, validated

__all__ = ["FALLBACKS", "HeuristicPolicy", "heuristic_policy", "Evaluation", "evaluate"]

FALLBACKS = ("regret", "points", "face")
"""How :class:`HeuristicPolicy` chooses the one die to take in a misfortune."""


@dataclass(frozen=True)
class HeuristicPolicy:
    """The paper's "parallel games" strategy (Section 4).

    With ``N`` dice left, a die of size ``s`` is taken when its face is above
    ``stopping.max_reject(s, N)``. When no die qualifies (a *simultaneous
    misfortune*) one die must still be taken; the paper does not say which.
    ``fallback`` chooses:

    ``"regret"`` (default)
        the die that loses least against its own one-die game: smallest
        ``E(N-1, s) - face`` -- the parallel-games view of the cost;
    ``"points"``
        the die that scores fewest b.a.d.g. points, smallest ``s - face``;
    ``"face"``
        the die showing the highest face.

    Ties go to the die with more sides. Calling the policy is :meth:`take`.

    Examples
    --------
    >>> policy = HeuristicPolicy()
    >>> policy((6, 6, 8), (6, 4, 5))  # 3 dice left: a d6 needs 5 or more, the d8 6 or more
    (0,)
    """

    fallback: str = "regret"

    def __post_init__(self):
        check_choice("fallback", self.fallback, FALLBACKS)

    def reject_up_to(self, s: int, dice_left: int) -> int:
        """The highest face of a die with ``s`` sides rolled again with ``dice_left`` dice left.

        Parameters
        ----------
        s : int
            Sides of the die (at least 2).
        dice_left : int
            Dice in play (at least 1): the die's one-die game has that many rolls left.

        Returns
        -------
        int

        Examples
        --------
        >>> HeuristicPolicy().reject_up_to(6, 3)
        4
        """
        s, dice_left = check_int("s", s, 2), check_int("dice_left", dice_left, 1)
        _check_optimal_cost("dice_left", dice_left, s, dice_left - 1)
        return self._reject_up_to(s, dice_left)

    def _reject_up_to(self, s: int, dice_left: int) -> int:
        return _max_reject(s, dice_left)

    def score(self, s: int, face: int, dice_left: int) -> Fraction:
        """Fallback score of a die in a misfortune (the lowest score is taken).

        Parameters
        ----------
        s : int
            Sides of the die (at least 2).
        face : int
            Its face, ``1..s``.
        dice_left : int
            Dice in play: at least 2 for ``"regret"`` (a misfortune needs two dice), else at least 1.

        Returns
        -------
        Fraction

        Examples
        --------
        >>> HeuristicPolicy().score(6, 2, 3), HeuristicPolicy("points").score(6, 2, 3)
        (Fraction(9, 4), Fraction(4, 1))
        """
        s = check_int("s", s, 2)
        face = check_int("face", face, 1, s)
        dice_left = check_int("dice_left", dice_left, 2 if self.fallback == "regret" else 1)
        _check_optimal_cost("dice_left", dice_left, s, dice_left - 1)
        return self._score(s, face, dice_left)

    def _score(self, s: int, face: int, dice_left: int) -> Fraction:
        if self.fallback == "regret":
            return _optimal(s, dice_left - 1) - face
        if self.fallback == "points":
            return Fraction(s - face)
        return Fraction(-face)

    def take(self, state, roll) -> tuple[int, ...]:
        """Positions of the dice taken from ``roll`` (one face per die of ``state``).

        Parameters
        ----------
        state : sequence of int
            Dice in play.
        roll : sequence of int
            One face per die of ``state``.

        Returns
        -------
        tuple of int
            Positions in ``roll``, ascending.

        Examples
        --------
        >>> HeuristicPolicy().take((6, 6, 8), (1, 2, 3))  # misfortune: the d6 showing 2 loses least
        (1,)
        >>> HeuristicPolicy("face").take((6, 6, 8), (1, 2, 3))
        (2,)
        """
        state, roll = check_roll(Game.of(state, "state"), state, roll)
        _check_optimal_cost("state", f"{len(state)} dice", max(state), len(state) - 1)
        N = len(state)
        taken = tuple(p for p in range(N) if roll[p] > self._reject_up_to(state[p], N))
        if taken:
            return taken
        best = min(range(N), key=lambda p: (self._score(state[p], roll[p], N), -state[p], p))
        return (best,)

    __call__ = take


@validated(fallback=OneOf(FALLBACKS), example={})
def heuristic_policy(fallback: str = "regret") -> HeuristicPolicy:
    """The paper's parallel-games strategy.

    Parameters
    ----------
    fallback : {"regret", "points", "face"}
        Which die a misfortune takes; see :class:`HeuristicPolicy`.

    Returns
    -------
    HeuristicPolicy

    Examples
    --------
    >>> heuristic_policy("points")
    HeuristicPolicy(fallback='points')
    """
    return HeuristicPolicy(fallback)


@dataclass(frozen=True)
class Evaluation:
    """Exact results of a policy from :func:`evaluate`, at the start state.

    Attributes
    ----------
    dice : tuple of int
        The start state.
    expected_points, expected_face_sum : Fraction
        Expected b.a.d.g. points and expected sum of the faces taken.
    p_zero : Fraction
        Probability of a 0-point game.
    expected_misfortunes : Fraction or None
        Expected number of rolls where no die qualifies (heuristic policies only).
    values : dict
        ``{state: expected face sum from it}`` for every state.
    expected_shortfall : Fraction or None
        Expected total, over the misfortunes of a game, of ``E(s, N - 1) - face`` for the die taken
        (its face against the value of rolling it on alone with the other ``N - 1`` rolls);
        heuristic policies only.
    expected_fortune_cost : Fraction or None
        Expected total, over the rolls of a game that take ``k >= 2`` dice, of
        ``E(s, N - 1) - E(s, N - k)`` for every die left (the rolls its one-die game loses);
        heuristic policies only. The parallel games' sum plus the shortfall plus this cost is the
        expected points.
    """

    dice: tuple[int, ...]
    expected_points: Fraction
    expected_face_sum: Fraction
    p_zero: Fraction
    expected_misfortunes: Fraction | None
    values: dict
    expected_shortfall: Fraction | None = None
    expected_fortune_cost: Fraction | None = None


def _by_dice_count(game: Game) -> list[tuple[int, ...]]:
    return sorted(game.state_counts(), key=sum)


def _misfortune_fallback(policy: HeuristicPolicy, game: Game, counts, cut, V, Mf, Sh, Fo):
    """Given a misfortune at ``counts``: expected face plus value after the fallback take,
    expected misfortunes after it, expected shortfall (this one's and those after it) and
    expected fortune cost after it. Each
    group's highest face ``m_i <= cut_i`` has ``P(m_i <= x) = (x / cut_i)^a``; the fallback takes
    the lowest-scoring group's highest die."""
    sizes, N = game.sizes, sum(counts)
    present = [i for i, c in enumerate(counts) if c]

    def pmf(i, x):
        a, c = counts[i], cut[i]
        return Fraction(x**a - (x - 1) ** a, c**a)

    fall_v = fall_m = fall_sh = fall_fo = Fraction(0)
    for i in present:
        for x in range(1, cut[i] + 1):
            key = (policy._score(sizes[i], x, N), -sizes[i])
            p = pmf(i, x)
            for j in present:
                if j != i:
                    p *= sum(
                        (
                            pmf(j, y)
                            for y in range(1, cut[j] + 1)
                            if (policy._score(sizes[j], y, N), -sizes[j]) > key
                        ),
                        Fraction(0),
                    )
            if p:
                nxt = list(counts)
                nxt[i] -= 1
                nxt = tuple(nxt)
                fall_v += p * (x + V[nxt])
                fall_m += p * Mf[nxt]
                fall_sh += p * (_optimal(sizes[i], N - 1) - x + Sh[nxt])
                fall_fo += p * Fo[nxt]
    return fall_v, fall_m, fall_sh, fall_fo


def _evaluate_heuristic(policy: HeuristicPolicy, game: Game) -> Evaluation:
    """Binomial counts per group: a heuristic take depends on a group's roll only through how
    many of its faces clear the cutoff (uniform above it)."""
    V: dict = {}
    Z: dict = {}
    Mf: dict = {}
    Sh: dict = {}  # expected shortfall E(s, N - 1) - face, summed over the misfortunes to come
    Fo: dict = {}  # expected E(s, N - 1) - E(s, N - k) of the dice left by rolls taking k >= 2
    sizes = game.sizes
    for counts in _by_dice_count(game):
        N = sum(counts)
        if N == 0:
            V[counts], Z[counts], Mf[counts] = Fraction(0), Fraction(1), Fraction(0)
            Sh[counts] = Fo[counts] = Fraction(0)
            continue
        present = [i for i, c in enumerate(counts) if c]
        cut = {i: policy._reject_up_to(sizes[i], N) for i in present}
        # per group: P(q accepted), E[sum of accepted | q], P(q accepted, all at the maximum face)
        per_group = {}
        for i in present:
            s, a, c = sizes[i], counts[i], cut[i]
            above, below = Fraction(s - c, s), Fraction(c, s)
            per_group[i] = [
                (
                    math.comb(a, q) * above**q * below ** (a - q),
                    Fraction(q * (c + 1 + s), 2),
                    math.comb(a, q) * Fraction(1, s) ** q * below ** (a - q),
                )
                for q in range(a + 1)
            ]
        v = z = m = sh = fo = Fraction(0)
        for qs in itertools.product(*(range(counts[i] + 1) for i in present)):
            if sum(qs) == 0:
                continue
            p = p_max = Fraction(1)
            gain = Fraction(0)
            for i, q in zip(present, qs, strict=True):
                pq, sigma, pmax = per_group[i][q]
                p *= pq
                p_max *= pmax
                gain += sigma
            nxt = list(counts)
            for i, q in zip(present, qs, strict=True):
                nxt[i] -= q
            nxt = tuple(nxt)
            v += p * (gain + V[nxt])
            z += p_max * Z[nxt]
            m += p * Mf[nxt]
            sh += p * Sh[nxt]
            k = sum(qs)  # dice taken: each die left has N - k rolls, not N - 1
            if 2 <= k < N:
                fo += p * sum(nxt[i] * (_optimal(sizes[i], N - 1) - _optimal(sizes[i], N - k))
                              for i in present if nxt[i])
            fo += p * Fo[nxt]
        p_mis = math.prod(Fraction(cut[i], sizes[i]) ** counts[i] for i in present)
        if p_mis:
            fall_v, fall_m, fall_sh, fall_fo = _misfortune_fallback(policy, game, counts, cut, V, Mf, Sh, Fo)
            v += p_mis * fall_v
            m += p_mis * (1 + fall_m)
            sh += p_mis * fall_sh
            fo += p_mis * fall_fo
        V[counts], Z[counts], Mf[counts], Sh[counts], Fo[counts] = v, z, m, sh, fo
    start = game.counts
    face_sum = V[start]
    return Evaluation(
        game.dice,
        sum(game.dice) - face_sum,
        face_sum,
        Z[start],
        Mf[start],
        {game._dice_of(c): val for c, val in V.items()},
        Sh[start],
        Fo[start],
    )


def _policy_take(policy, state, roll) -> tuple[int, ...]:
    """``policy(state, roll)`` as a tuple of positions, or a ``ValueError`` naming the policy."""
    try:
        taken = tuple(policy(state, roll))
    except (TypeError, ValueError) as err:
        raise ValueError(
            f"policy(state, roll) must return the positions taken; on state {state!r} and roll "
            f"{roll!r} it raised {type(err).__name__}: {err}"
        ) from err
    legal = all(isinstance(t, numbers.Integral) and not isinstance(t, bool) for t in taken)
    if not (taken and legal and len(set(taken)) == len(taken) and all(0 <= t < len(state) for t in taken)):
        raise ValueError(f"policy took {taken!r} from roll {roll!r} of state {state!r}: not a legal take")
    return taken


def _evaluate_rolls(policy, game: Game) -> Evaluation:
    """Any policy ``policy(state, roll) -> positions``, over every roll (multisets per size, faces
    descending within a size, with multinomial weights)."""
    V: dict = {}
    Z: dict = {}
    for counts in _by_dice_count(game):
        state = game._dice_of(counts)
        if not state:
            V[state], Z[state] = Fraction(0), Fraction(1)
            continue
        groups = [(s, c) for s, c in zip(game.sizes, counts, strict=True) if c]
        v = z = Fraction(0)
        for parts in itertools.product(*(_multiset_rolls(s, c) for s, c in groups)):
            weights = (Fraction(mult, s**c) for (s, c), (_, mult) in zip(groups, parts, strict=True))
            p = math.prod(weights, start=Fraction(1))
            roll = tuple(f for part, _ in parts for f in part)
            taken = _policy_take(policy, state, roll)
            left = tuple(sorted(state[p] for p in range(len(state)) if p not in taken))
            v += p * (sum(roll[t] for t in taken) + V[left])
            if all(roll[t] == state[t] for t in taken):
                z += p * Z[left]
        V[state], Z[state] = v, z
    start = game.dice
    return Evaluation(start, sum(start) - V[start], V[start], Z[start], None, dict(V))


@validated(dice=DICE, example={"policy": HeuristicPolicy(), "dice": (6, 6)})
def evaluate(policy, dice=STANDARD) -> Evaluation:
    """Exact expected points of a policy, by the same dynamic program (policy evaluation).

    Parameters
    ----------
    policy : HeuristicPolicy or callable
        A :class:`HeuristicPolicy` is evaluated exactly and fast: its takes depend on
        each size's roll only through how many faces clear the cutoff, so binomial
        counts replace the rolls. Any other policy is a callable
        ``policy(state, roll) -> positions taken`` and is evaluated over every roll
        (for small games).
    dice : sequence of int
        The die sizes (default :data:`~dicelab.badg.STANDARD`).

    Returns
    -------
    Evaluation

    Examples
    --------
    >>> ev = evaluate(heuristic_policy(), (6, 8))
    >>> ev.expected_points, ev.p_zero, ev.expected_misfortunes
    (Fraction(109, 24), Fraction(1, 24), Fraction(1, 4))
    >>> evaluate(lambda state, roll: tuple(range(len(state))), (6, 8)).expected_points  # take all at once
    Fraction(6, 1)
    """
    if not callable(policy):
        raise TypeError(
            f"policy must be a HeuristicPolicy or a callable (state, roll) -> take, got {policy!r}"
        )
    game = Game.of(dice)
    if isinstance(policy, HeuristicPolicy):
        _check_heuristic_cost(game)
        return _evaluate_heuristic(policy, game)
    _check_rolls_cost(game)
    return _evaluate_rolls(policy, game)


# Python work with exact fractions: about 10 microseconds an operation, 1000 steps at 10^8 a second
_FRACTION_STEPS = 1000


def _check_heuristic_cost(game: Game) -> None:
    """Refuse a game whose heuristic evaluation is beyond the budget.

    A state with ``n_i`` dice of each size sums over ``prod_i (n_i + 1)`` numbers accepted per size
    (``G`` fraction products each): over all states ``prod_i (c_i + 1)(c_i + 2) / 2``. A misfortune
    compares every face at or below one cutoff with every other size's (about ``(sum s_i / 2)^2``
    small fractions a state, the cutoffs being near half the faces), then adds ``2 sum s_i``
    values. The cutoffs need ``E(N, s)`` up to ``N = len(dice)``. A state's values are fractions
    whose denominators gather the ``s^a`` of every roll on the way down from it, about
    ``b = log2(max s) N (N + 1) / 2`` bits for ``N`` dice (505 bits for 20 d6, 18,554 for 120),
    and an operation on them costs about ``(b / 64)^2`` steps (a gcd) beyond the fixed cost.
    """
    G, n_dice, n_states = len(game.sizes), sum(game.counts), _float(game.n_states)
    bits = math.log2(max(game.sizes)) * n_dice * (n_dice + 1) / 2
    combos = _capped(sum(math.log2((c + 1) * (c + 2) / 2) for c in game.counts))
    per_op = _FRACTION_STEPS + (bits / 64) ** 2
    faces = _float(sum(game.sizes))
    misfortunes = n_states * (_FRACTION_STEPS * faces**2 / 4 + 2 * faces * per_op)
    steps = per_op * G * combos + misfortunes
    memory = n_states * (3 * (bits / 4 + 100) + 8 * G + 200)
    check_cost("dice", _shown(game), memory=memory, steps=steps, what="the exact heuristic evaluation")
    _check_optimal_cost("dice", _shown(game), max(game.sizes), n_dice)


def _check_rolls_cost(game: Game) -> None:
    """Refuse a game whose roll-by-roll evaluation is beyond the budget: every multiset roll of every
    state, ``prod_i C(c_i + s_i, s_i)`` in all, each a call of the policy and a few fraction sums."""
    n_dice, n_states = sum(game.counts), _float(game.n_states)
    pairs = list(zip(game.sizes, game.counts, strict=True))
    rolls = _capped(sum(_log2_comb(c + s, s) for s, c in pairs))
    table = sum(_capped(_log2_comb(c + s, s)) for s, c in pairs)  # the remembered multisets per size
    memory = table * (140 + 8 * n_dice) + n_states * (2 * (n_dice * 8 + 100) + 8 * n_dice + 200)
    steps = 0.45 * _FRACTION_STEPS * (n_dice + 1) * rolls  # measured 0.29 s for 3 d6 + 3 d8
    check_cost("dice", _shown(game), memory=memory, steps=steps, what="the exact roll-by-roll evaluation")
