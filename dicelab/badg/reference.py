"""The paper's methods done literally, and slow exact cross-checks of the fast solvers.

Serves D. Fetterman's b.a.d.g. paper (2022), Sections 2-3.

``paper_*``
    The paper's own formulas and algorithms as printed, including the ones it gets
    wrong (kept so a notebook can show where they part from the right answer): the
    expected-maximum formula (4) and rule (Section 2.1), the cutoff ``c(r, s)`` of
    Section 2.3, and the pre-compute algorithm of Section 3 (step 2(c) in either reading:
    multiplying by ``p(c)``, or dividing as printed) with its game-time step
    (every ordered roll, every non-empty subset of dice to take, exact fractions).
``exact_*``
    Exact-fraction versions of what :mod:`dicelab.badg` computes in floats, for small
    games and for tests; for play to win (:mod:`dicelab.badg.to_win`), over every subset of
    the dice, which checks the solver's shortcut of taking the highest faces of each size.
"""

from __future__ import annotations

import itertools
import math
import numbers
from collections import Counter
from collections.abc import Mapping
from fractions import Fraction

from dicelab.badg import stopping
from dicelab.badg._common import (
    _capped,
    _check_optimal_cost,
    _check_power_sum_cost,
    _check_utility,
    _float,
    _shown,
)
from dicelab.badg.solver import PolicyStatistics
from dicelab.badg.state import DICE, Game, check_roll, states
from dicelab.badg.to_win import max_points
from dicelab.core.checks import check_cost
from dicelab.core.spec import Bool, Int, validated

__all__ = [
    "paper_expected_max",
    "paper_max_strategy_reject",
    "paper_cutoff",
    "paper_precompute",
    "paper_take_values",
    "exact_policy_statistics",
    "exact_win_values",
    "exact_points_distribution",
]


@validated(s=Int(2), r=Int(1), example={"s": 6, "r": 2})
def paper_expected_max(s: int, r: int) -> Fraction:
    """Eq. (4) as printed: ``sum_k k [k^r - (k-1)^r] / s`` (the denominator should be ``s^r``).

    Parameters
    ----------
    s : int
        Sides of the die (at least 2).
    r : int
        Rolls (at least 1).

    Returns
    -------
    Fraction
        Equal to :func:`dicelab.badg.stopping.expected_max` only when ``r = 1``.

    Examples
    --------
    >>> paper_expected_max(6, 2), stopping.expected_max(6, 2)
    (Fraction(161, 6), Fraction(161, 36))
    """
    _check_power_sum_cost(s, r)
    return sum((k * Fraction(k**r - (k - 1) ** r, s) for k in range(1, s + 1)), Fraction(0))


@validated(s=Int(2), r=Int(1), example={"s": 6, "r": 3})
def paper_max_strategy_reject(s: int, r: int) -> int:
    """Highest face rolled again by the paper's (wrong) expected-maximum rule (Section 2.1).

    The rule takes the die when its face is at least the expected maximum of the
    remaining ``r - 1`` rolls, so it rejects faces below ``E_max(s, r-1)``.

    Parameters
    ----------
    s : int
        Sides of the die (at least 2).
    r : int
        Rolls left, counting the one about to be made (at least 1).

    Returns
    -------
    int
        0 when ``r = 1`` (the last roll is taken as it lands).

    Examples
    --------
    >>> paper_max_strategy_reject(50, 3), stopping.max_reject(50, 3)  # the rule rolls again too often
    (33, 31)
    """
    if r == 1:
        return 0
    _check_power_sum_cost(s, r - 1)
    return math.ceil(stopping.expected_max(s, r - 1)) - 1


@validated(s=Int(2), r=Int(2), example={"s": 6, "r": 3})
def paper_cutoff(s: int, r: int) -> int:
    """The cutoff as Section 2.3 defines it: ``c(r, s) = floor(E(r-1, s)) - 1``.

    One lower than the paper's own tables (and than :func:`dicelab.badg.stopping.max_reject`)
    whenever ``E(r-1, s)`` is not an integer.

    Parameters
    ----------
    s : int
        Sides of the die (at least 2).
    r : int
        Rolls left (at least 2).

    Returns
    -------
    int

    Examples
    --------
    >>> paper_cutoff(6, 2), stopping.max_reject(6, 2)  # floor(3.5) - 1 = 2, but Fig. 4 rejects up to 3
    (2, 3)
    """
    _check_optimal_cost("r", r, s, r - 1)
    return math.floor(stopping.optimal_value(s, r - 1)) - 1


def _take_values(state, roll, E, subsets) -> list:
    """Step (2a): for each subset of positions, faces taken plus ``E`` of the (ascending) state left."""
    n = len(state)
    return [
        sum(roll[p] for p in sub) + E[tuple(state[p] for p in range(n) if p not in sub)] for sub in subsets
    ]


def _subsets(n: int) -> list[tuple[int, ...]]:
    """Every non-empty subset of ``range(n)``, smallest first."""
    return [sub for k in range(1, n + 1) for sub in itertools.combinations(range(n), k)]


# exact-fraction Python work: about 0.7 microseconds a position of a subset, 70 steps at 10^8 a second
# (measured 13 s for the paper's algorithm on 6 d6)
_SUBSET_STEPS = 70


def _check_precompute_cost(game: Game, name: str, passes: int = 1) -> None:
    """Refuse the paper's algorithm on a game beyond the budget, before any work.

    A state with ``a_i`` dice of each size has ``prod_i s_i^{a_i}`` ordered rolls and ``2^n - 1``
    subsets of its ``n`` dice, each summed over up to ``n`` positions: over all states at most
    ``n prod_i sum_{a <= c_i} (2 s_i)^a`` positions. The subsets of the start state are listed at once.
    """
    n_dice = sum(game.counts)
    log2_work = math.log2(n_dice) + sum(  # sum_{a <= c} (2s)^a = ((2s)^(c+1) - 1) / (2s - 1)
        (c + 1) * math.log2(2 * s) - math.log2(2 * s - 1)
        for s, c in zip(game.sizes, game.counts, strict=True)
    )
    subsets = _capped(n_dice)  # 2^n subsets, a tuple of up to n positions each
    memory = subsets * (100 + 8 * n_dice) + _float(game.n_states) * (200 + 8 * n_dice)
    steps = passes * _SUBSET_STEPS * _capped(log2_work)
    check_cost(name, _shown(game), memory=memory, steps=steps, what="the paper's algorithm, every subset")


@validated(dice=DICE, exact=Bool(), as_printed=Bool(), example={"dice": (6,)})
def paper_precompute(
    dice, exact: bool = True, *, as_printed: bool = False
) -> dict[tuple[int, ...], Fraction | float]:
    """The paper's pre-compute algorithm (Section 3), literally.

    For every state (fewest dice first), every ordered roll ``c`` of its dice and every
    non-empty subset of them to take: the best take's value ``E_S(r*, c)``, weighted by the
    roll's probability ``p(c) = 1 / prod(s)`` and summed (steps 2(a)-(c)). Feasible only for
    small games (the work is ``sum over states of prod(s) * 2^n``).

    Step 2(c) as printed *adds* ``E_S(r*, c) / p(c)``; an expectation multiplies by ``p(c)``.
    ``as_printed=True`` runs the printed step, so the two readings can be compared.

    Parameters
    ----------
    dice : sequence of int
        The die sizes.
    exact : bool
        Exact fractions (``True``) or floats.
    as_printed : bool
        Step 2(c) as printed, dividing by ``p(c)`` (wrong); default ``False``: multiplying.

    Returns
    -------
    dict
        ``{state: optimal expected face sum}`` for every state (ascending tuples).

    Examples
    --------
    >>> paper_precompute((6, 8))
    {(): Fraction(0, 1), (8,): Fraction(9, 2), (6,): Fraction(7, 2), (6, 8): Fraction(227, 24)}
    >>> paper_precompute((6,), as_printed=True)[(6,)]  # (1 + ... + 6) / (1/6), not 7/2
    Fraction(126, 1)
    """
    one, divide = Fraction(1) if exact else 1.0, as_printed
    _check_precompute_cost(Game.of(dice), "dice")
    E: dict[tuple[int, ...], Fraction | float] = {}
    for state in states(dice):
        n = len(state)
        if n == 0:
            E[state] = 0 * one
            continue
        p_roll = one / math.prod(state)  # p(c): every ordered roll is equally likely
        total = 0 * one
        subsets = _subsets(n)
        for roll in itertools.product(*(range(1, s + 1) for s in state)):
            best = max(_take_values(state, roll, E, subsets))  # steps 2(a)-(b)
            total += best / p_roll if divide else best * p_roll  # step 2(c)
        E[state] = total
    return E


def paper_take_values(state, roll, values=None) -> dict[tuple[int, ...], Fraction | float]:
    """The paper's game-time step (2a): the value of every non-empty subset of the dice to take.

    Parameters
    ----------
    state : sequence of int
        The dice in play.
    roll : sequence of int
        One face per die of ``state``.
    values : mapping, optional
        ``{state: value}`` of every sub-state (ascending tuples), e.g. from
        :func:`paper_precompute` or :meth:`Solution.values <dicelab.badg.Solution.values>`;
        by default ``paper_precompute(state)`` (exact).

    Returns
    -------
    dict
        ``{positions taken (ascending): faces taken + value of the state left}``, subsets
        smallest first; the best take is step (2b).

    Examples
    --------
    >>> paper_take_values((8, 6), (2, 5))
    {(0,): Fraction(11, 2), (1,): Fraction(19, 2), (0, 1): Fraction(7, 1)}
    """
    game = Game.of(state, "state")
    state, roll = check_roll(game, state, roll)
    dice = tuple(sorted(state))
    if values is None:
        _check_precompute_cost(game, "state")
        values = paper_precompute(dice)
    else:
        n = len(dice)
        memory, steps = 2 * _capped(n) * (150 + 8 * n), _SUBSET_STEPS * n * _capped(n)  # 2^n subsets
        check_cost("state", _shown(game), memory=memory, steps=steps, what=f"its {_capped(n):.3g} subsets")
        values = _check_values(values, dice)
    perm = sorted(range(len(state)), key=lambda p: state[p])  # positions by size: dice[q] = state[perm[q]]
    subsets = _subsets(len(dice))
    by_subset = _take_values(dice, tuple(roll[p] for p in perm), values, subsets)
    out = {tuple(sorted(perm[q] for q in sub)): v for sub, v in zip(subsets, by_subset, strict=True)}
    return dict(sorted(out.items(), key=lambda kv: (len(kv[0]), kv[0])))


def _check_values(values, dice) -> Mapping:
    """``values`` if it maps every sub-multiset of ``dice`` (an ascending tuple) to a finite number."""
    if not isinstance(values, Mapping):
        raise ValueError(f"values must be a mapping {{state: value}}, got {values!r}"[:300])
    for state in states(dice):
        if state not in values:
            raise ValueError(f"values has no value for the state {state!r} (ascending tuples of die sizes)")
        v = values[state]
        if isinstance(v, bool) or not isinstance(v, numbers.Real) or not math.isfinite(v):
            raise ValueError(f"values[{state!r}] must be a finite number, got {v!r}")
    return values


@validated(dice=DICE, example={"dice": (6, 6)})
def exact_policy_statistics(dice) -> PolicyStatistics:
    """:meth:`Solution.policy_statistics <dicelab.badg.Solution.policy_statistics>` in exact fractions.

    Optimal play by the paper's algorithm over every ordered roll and every subset (among
    equally good takes, the one taking most dice), followed forward from the start state.

    Parameters
    ----------
    dice : sequence of int
        The die sizes (a small game).

    Returns
    -------
    PolicyStatistics
        With ``Fraction`` entries.

    Examples
    --------
    >>> exact_policy_statistics((6, 8)).p_zero
    Fraction(1, 24)
    """
    _check_precompute_cost(Game.of(dice), "dice", passes=2)
    E = paper_precompute(dice)
    reach = dict.fromkeys(E, Fraction(0))
    zero = dict(reach)
    reach[dice] = zero[dice] = Fraction(1)
    accepted: Counter = Counter()
    shown: Counter = Counter()
    rolls = leave = Fraction(0)
    for state in reversed(list(E)):  # most dice first
        n = len(state)
        if n == 0 or reach[state] == 0:
            continue
        rolls += reach[state]
        p = reach[state] / math.prod(state)
        subsets = _subsets(n)
        for roll in itertools.product(*(range(1, s + 1) for s in state)):
            options = dict(zip(subsets, _take_values(state, roll, E, subsets), strict=True))
            best = max(options.values())
            take = max((sub for sub, v in options.items() if v == best), key=len)
            left = tuple(state[q] for q in range(n) if q not in take)
            reach[left] += p
            if all(roll[q] == state[q] for q in take):
                zero[left] += zero[state] / math.prod(state)
            if any(roll[q] == state[q] for q in range(n) if q not in take):
                leave += p
            for q in range(n):
                shown[state[q], roll[q]] += p
                if q in take:
                    accepted[state[q], roll[q]] += p
    acceptance = {
        s: {f: accepted[s, f] / shown[s, f] for f in range(1, s + 1) if shown[s, f]}
        for s in sorted(set(dice))
    }
    return PolicyStatistics(zero[()], rolls, leave, acceptance)


def _left(state, sub) -> tuple[int, ...]:
    """The dice of ``state`` not in the positions ``sub``."""
    return tuple(state[p] for p in range(len(state)) if p not in sub)


def _win_options(state, roll, x, sizes, W, E, subsets) -> list:
    """Every non-empty subset of positions with (state left, points after, win value, expected face
    sum, count key): the count key is (dice taken, count of each game size, smallest first)."""
    out = []
    for sub in subsets:
        left = _left(state, sub)
        after = x + sum(state[p] - roll[p] for p in sub)
        key = (len(sub), tuple(sum(state[p] == s for p in sub) for s in sizes))
        f = W[left, after] if W is not None else 0
        out.append((left, after, f, sum(roll[p] for p in sub) + E[left], key))
    return out


def _check_win_cost(game: Game, X: int) -> None:
    """The paper's algorithm's work, once for every points total so far."""
    _check_precompute_cost(game, "dice", passes=X + 2)


@validated(dice=DICE, example={"dice": (6,), "utility": [1, 1, 1, 0, 0, 0]})
def exact_win_values(dice, utility) -> dict[tuple[tuple[int, ...], int], Fraction]:
    """The win values of :func:`~dicelab.badg.solve_to_win` in exact fractions, over every subset.

    ``W(S, x) = E_roll max_T W(S - T, x + pts(T))`` over every ordered roll and every non-empty
    subset ``T`` of the dice (no shortcut), ``W((), x) = utility[x]``.

    Parameters
    ----------
    dice : sequence of int
        The die sizes (a small game).
    utility : sequence of numbers
        ``u[0..X]``, nonincreasing, ``X = max_points(dice)`` (e.g. ``threshold_utility``).

    Returns
    -------
    dict
        ``{(state, points so far): Fraction}`` for every state (ascending tuple) and every
        ``points`` in ``0..X - maxpts(state)``.

    Examples
    --------
    >>> from dicelab.badg import threshold_utility
    >>> exact_win_values((6, 8), threshold_utility(3, (6, 8)))[(6, 8), 0]  # P(at most 3 points)
    Fraction(487, 1152)
    """
    X = max_points(dice)
    game = Game.of(dice)
    _check_win_cost(game, X)
    u = _check_utility(utility, X)
    W: dict[tuple[tuple[int, ...], int], Fraction] = {}
    for state in states(dice):
        n = len(state)
        subsets = _subsets(n)
        for x in range(X - sum(s - 1 for s in state) + 1):
            if n == 0:
                W[state, x] = u[x]
                continue
            total = Fraction(0)
            for roll in itertools.product(*(range(1, s + 1) for s in state)):
                total += max(
                    W[_left(state, sub), x + sum(state[p] - roll[p] for p in sub)] for sub in subsets
                )
            W[state, x] = total / math.prod(state)
    return W


@validated(dice=DICE, example={"dice": (6,)})
def exact_points_distribution(dice, utility=None) -> tuple[Fraction, ...]:
    """The distribution of the final bad points under a policy, in exact fractions.

    ``utility=None``: the expected-points policy; otherwise the win policy of ``utility``
    (:func:`~dicelab.badg.solve_to_win`). Among every subset of the dice, the policy takes the
    largest win value (:func:`exact_win_values`); among equals, the largest expected face sum
    (faces taken plus :func:`paper_precompute` of the state left); then the most dice; then
    the most dice of the smallest size, and so on -- the rule of :mod:`dicelab.badg.to_win`,
    with exact equality for its tolerance.

    Parameters
    ----------
    dice : sequence of int
        The die sizes (a small game).
    utility : sequence of numbers, optional
        ``u[0..X]``, nonincreasing.

    Returns
    -------
    tuple of Fraction
        ``p[0..X]``: the probability of each final number of bad points.

    Examples
    --------
    >>> from dicelab.badg import threshold_utility
    >>> p = exact_points_distribution((6, 8), threshold_utility(3, (6, 8)))
    >>> sum(p[:4]), sum(x * q for x, q in enumerate(p))  # P(at most 3), expected bad points
    (Fraction(487, 1152), Fraction(55, 12))
    """
    X = max_points(dice)
    game = Game.of(dice)
    _check_win_cost(game, X)
    W = None if utility is None else exact_win_values(dice, utility)
    E = paper_precompute(dice)
    reach: Counter = Counter({(dice, 0): Fraction(1)})
    dist = [Fraction(0)] * (X + 1)
    for state in reversed(states(dice)):  # most dice first
        n = len(state)
        subsets = _subsets(n)
        for x in range(X - sum(s - 1 for s in state) + 1):
            mass = reach[state, x]
            if mass == 0:
                continue
            if n == 0:
                dist[x] += mass
                continue
            p = mass / math.prod(state)
            for roll in itertools.product(*(range(1, s + 1) for s in state)):
                options = _win_options(state, roll, x, game.sizes, W, E, subsets)
                fmax = max(o[2] for o in options)
                emax = max(o[3] for o in options if o[2] == fmax)
                tied = (o for o in options if o[2] == fmax and o[3] == emax)
                left, after, *_ = max(tied, key=lambda o: o[4])
                reach[left, after] += p
    return tuple(dist)
