"""The internals the b.a.d.g. modules share (not a public API; every name here is private).

* Counts as floats for cost estimates: ``_float``, ``_capped``, ``_log2_comb``, ``_rolls`` (the
  number of multiset rolls of ``a`` dice with ``s`` sides), and ``_multiset_rolls`` (those rolls,
  unchecked and remembered; :func:`dicelab.badg.multiset_rolls` checks them).
* ``_shown``: a game's dice for an error message.
* The exact solver's cost model: ``KERNEL_STEP``, ``_kernel_steps``, ``_solver_cost`` and
  ``_check_solver_cost`` (read by :func:`~dicelab.badg.solve`, :func:`~dicelab.badg.solve_to_win`,
  :func:`~dicelab.badg.tables.solver_tables` and the policy statistics).
* The one-die game's values without the checks: ``_optimal`` (``E(r, s)``, remembered in
  ``_VALUES``), ``_max_reject``, ``_value_with_cutoff``, and their cost checks
  ``_check_optimal_cost`` and ``_check_power_sum_cost`` (read by :mod:`~dicelab.badg.stopping`,
  the parallel-games heuristic, the simulation and :mod:`~dicelab.badg.reference`).
* The solvers' results: ``_Policy`` (optimal play as a mapping computed on demand),
  ``_group_rolls`` and ``_n_group_rolls`` (the multiset rolls of a state, its decision states),
  ``_parts`` and ``_named`` (a protocol state as its parts; errors naming it).
* Play to win: ``_check_utility`` (a utility as exact nonincreasing numbers) and ``_active`` (the
  (state, points) pairs where the utility still varies), read by :mod:`~dicelab.badg.to_win`,
  :mod:`~dicelab.badg.scores` and :mod:`~dicelab.badg.reference`.

A game is passed as a :class:`~dicelab.badg.state.Game` (its ``sizes``, ``counts``, ``strides``,
``n_states`` and ``dice`` are read); this module imports no other b.a.d.g. module.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Mapping
from fractions import Fraction
from functools import cache

import numpy as np

from dicelab.core.checks import check_cost, check_sequence
from dicelab.core.exact import to_fraction


def _log2_comb(n: int, k: int) -> float:
    """``log2 C(n, k)``, from the log-gamma function (exact enough for cost estimates).

    Beyond floats (``n > 10^300``) it is at least ``log2(n)``, already far beyond any budget,
    unless ``C(n, k) = 1``.
    """
    if k < 0 or k > n:
        return -math.inf
    k = min(k, n - k)
    if k == 0:
        return 0.0
    if n > 10**300:
        return k * math.log2(n)
    if n < 2**40:
        return (math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)) / math.log(2)
    # lgamma(n + 1) - lgamma(n - k + 1) cancels for large n; Stirling's formula for the pair,
    # with a = n + 1 and b = n - k + 1: (b - 1/2) log(a / b) + k (log a - 1), log(a / b) by log1p
    a, b = float(n + 1), float(n - k + 1)
    log_ratio = (b - 0.5) * math.log1p(k / b) + k * (math.log(a) - 1)
    return (log_ratio - math.lgamma(k + 1)) / math.log(2)


def _capped(log2_value: float) -> float:
    """``2**log2_value`` as a float, capped at ``1e300`` (a size far beyond any budget)."""
    return 2.0 ** min(log2_value, 996.0) if log2_value > -math.inf else 0.0


def _float(n: int) -> float:
    """A (possibly huge) count as a float for cost estimates, capped at ``1e300``."""
    return float(n) if n < 10**300 else 1e300


def _rolls(s: int, a: int) -> float:
    """How many multisets of faces ``a`` dice with ``s`` sides show: ``C(a + s - 1, s - 1)``."""
    return _capped(_log2_comb(a + s - 1, s - 1))


@cache
def _multiset_rolls(s: int, a: int) -> tuple[tuple[tuple[int, ...], int], ...]:
    """:func:`~dicelab.badg.multiset_rolls` without the checks, remembered."""
    if a == 0:
        return (((), 1),)  # the one empty roll
    return tuple(
        (faces, math.factorial(a) // math.prod(math.factorial(k) for k in Counter(faces).values()))
        for faces in itertools.combinations_with_replacement(range(s, 0, -1), a)
    )


def _shown(game) -> tuple[int, ...] | str:
    """The game's dice for an error message: the tuple, or how many dice of which sizes."""
    if sum(game.counts) <= 30:
        return game.dice
    return ", ".join(f"{c} d{s}" for s, c in zip(game.sizes, game.counts, strict=True))[:200]


# A step of :func:`_kernel_steps` is a compiled comparison or multiply-add, about 1 ns: a tenth
# of :func:`~dicelab.core.checks.check_cost`'s step (measured 2.8 s for 10 d6 + 10 d8, 29 s for
# 8 d6 + 4 d8 + 4 d10)
KERNEL_STEP = 0.1


def _kernel_steps(game) -> float:
    """Inner-loop steps of :func:`~dicelab.badg._kernels.solve_values` over every state.

    A state with big group ``b`` (the most rolls ``R_b``), ``K`` joint choices of how many to take
    from its small groups and ``n_out`` joint rolls of them costs ``R_b K (n_b + 1)`` steps for the
    big group's takes, ``R_b n_out K`` for the best take of every roll, and ``n_out K`` to tabulate
    the small groups' rolls. Summed exactly (vectorised) up to ``10^6`` states; beyond, bounded by
    ``prod_i sum_{a <= c_i} 2 (a + 1) R_i(a)``, the product form of the same sum with ``b`` any group,
    where ``sum_{a <= c} (a + 1) R(a) = C(c + s, s) + s C(c + s, s + 1)``.
    """
    pairs = list(zip(game.sizes, game.counts, strict=True))
    if game.n_states > 10**6:
        log2_sums = (
            math.log2(2 * _capped(_log2_comb(c + s, s)) + 2 * _float(s) * _capped(_log2_comb(c + s, s + 1)))
            for s, c in pairs
        )
        return _capped(sum(log2_sums))
    counts = np.array(game.counts)
    n = (np.arange(game.n_states)[:, None] // np.array(game.strides)) % (counts + 1)  # (states, G)
    R = np.ones(n.shape)
    for i, (s, c) in enumerate(pairs):
        R[:, i] = np.array([_rolls(s, a) for a in range(c + 1)])[n[:, i]]
    rows = np.arange(n.shape[0])
    big = R.argmax(axis=1)
    R_big, n_big = R[rows, big], n[rows, big]
    n_out = R.prod(axis=1) / R_big
    K = (n + 1).prod(axis=1) / (n_big + 1)
    return float(np.sum(R_big * K * (n_big + 1) + R_big * n_out * K + n_out * K * len(pairs)))


def _solver_cost(game) -> tuple[float, float]:
    """Bytes and steps of solving ``game``: its tables, the kernels' work (:func:`_kernel_steps`).

    The tables hold ``sum_i C(c_i + s_i, s_i)`` rolls (every multiset of ``0..c_i`` dice of size
    ``s_i``), a row of ``max(c) + 1`` faces and prefix sums each, plus the Python tuples they are
    built from (about 30 steps a face). The largest transient arrays are the start state's joint
    rolls of its small groups, against every choice of how many to take from them.
    """
    pairs = list(zip(game.sizes, game.counts, strict=True))
    G, width = len(pairs), max(game.counts) + 1
    rows = sum(_capped(_log2_comb(c + s, s)) for s, c in pairs)
    R = [_rolls(s, c) for s, c in pairs]
    big = max(range(G), key=R.__getitem__)
    n_out = math.prod(r for i, r in enumerate(R) if i != big)
    K = math.prod(c + 1 for i, (_, c) in enumerate(pairs) if i != big)
    n_states = _float(game.n_states)
    memory = rows * (32 * width + 200) + n_states * (16 * G + 120) + n_out * K * 25 + (n_out + K) * G * 8
    steps = KERNEL_STEP * _kernel_steps(game) + rows * (width + 2) * 30
    return min(memory, 1e300), min(steps, 1e300)


def _check_solver_cost(game, name: str) -> None:
    """Refuse, before building anything, a game whose solver tables or work are beyond the budget."""
    memory, steps = _solver_cost(game)
    check_cost(name, _shown(game), memory=memory, steps=steps, what="the exact solver")


def _check_optimal_cost(name: str, value, s: int, r: int, *, passes: float = 1, per_row: float = 0) -> None:
    """Refuse computing ``E(1, s) .. E(r, s)`` when the fractions kept would not fit, or take too long.

    ``E(k, s)`` has a numerator and a denominator of about ``k log2(s)`` bits each (the
    denominator divides ``s^k``), and every value is remembered: about ``r^2 log2(s) / 8``
    bytes in all. Step ``k`` does fraction arithmetic on numbers of that size, measured at
    about 0.12 steps (1.2 ns) a bit: ``0.12 r^2 log2(s)`` steps. A caller that goes over the values
    again says how many ``passes`` in all, and ``per_row`` steps of its own for each ``k``.
    """
    r = min(r, 10**100)  # beyond any budget already
    bits = r * r * math.log2(s)
    steps = passes * 0.12 * bits + per_row * r
    check_cost(name, value, memory=bits / 8 + 150 * r, steps=steps, what=f"the exact E(1..{r}, {s})")


def _check_power_sum_cost(s: int, r: int) -> None:
    """Refuse ``sum_{k <= s} k (k^r - (k-1)^r)`` when its integers would not fit, or take too long.

    The terms have ``w = r log2(s) / 64`` machine words: ``s`` powers by repeated squaring cost
    about ``2 w^1.585`` steps each (Karatsuba), and reducing the sum over ``s^r`` one gcd of
    about ``w^2``.
    """
    r_, s_ = min(r, 10**100), min(s, 10**100)  # beyond any budget already
    words = r_ * math.log2(s) / 64 + 1
    check_cost("r", r, memory=32 * words, steps=words**2, what="the exact power sums")
    check_cost("s", s, steps=2 * s_ * words**1.585, what=f"the exact sum of {s} powers")


_VALUES: dict[int, list[Fraction]] = {}  # s -> [E(1, s), E(2, s), ...], extended on demand


def _optimal(s: int, r: int) -> Fraction:
    """``E(r, s)`` by the recursion, iteratively (no recursion depth limit), remembering every value."""
    values = _VALUES.setdefault(s, [Fraction(s + 1, 2)])
    while len(values) < r:
        previous = values[-1]
        values.append(_value_with_cutoff(s, math.ceil(previous) - 1, previous))
    return values[r - 1]


def _max_reject(s: int, r: int) -> int:
    if r == 1:
        return 0
    return math.ceil(_optimal(s, r - 1)) - 1  # roll again exactly when the face is below E(r-1, s)


def _value_with_cutoff(s: int, c: int, continuation) -> Fraction:
    accepted = Fraction((c + 1 + s) * (s - c), 2 * s)  # sum_{k=c+1}^{s} k / s
    return accepted + Fraction(c, s) * Fraction(continuation)


def _check_utility(utility, X: int) -> tuple[Fraction, ...]:
    """``utility`` as ``X + 1`` exact numbers, nonincreasing (the shortcut's condition)."""
    u = check_sequence("utility", utility, what="numbers, one per final score")
    if len(u) != X + 1:
        raise ValueError(f"utility must give one number for each final score 0..{X}, got {len(u)} numbers")
    u = tuple(to_fraction(v, "utility: value", allow_float=True) for v in u)
    for x in range(X):
        if u[x + 1] > u[x]:
            raise ValueError(
                f"utility must be nonincreasing in the bad points (fewer is never worse), "
                f"but u[{x + 1}] = {u[x + 1]} > u[{x}] = {u[x]}"
            )
    return u


def _active(game, u: tuple[Fraction, ...]) -> np.ndarray:
    """``active[i, x]``: state ``i`` met with ``x`` points, where ``u`` still varies over the final
    scores possible (elsewhere ``W = u[x]`` and the win policy is the expected-points one)."""
    X = len(u) - 1
    change = np.full(X + 1, X + 1)  # change[x]: the first y > x with u[y] != u[x]
    for x in range(X - 1, -1, -1):
        change[x] = x + 1 if u[x + 1] != u[x] else change[x + 1]
    mp = _state_max_points(game)
    x = np.arange(X + 1)
    return (x[None, :] <= X - mp[:, None]) & (change[None, :] <= x[None, :] + mp[:, None])


def _state_max_points(game) -> np.ndarray:
    counts = np.array(game.counts)
    n = (np.arange(game.n_states)[:, None] // np.array(game.strides)) % (counts + 1)
    return n @ (np.array(game.sizes) - 1)


def _parts(state, n: int, what: str) -> tuple:
    """``state`` as a tuple of ``n`` parts (``what`` names them in the error message)."""
    parts = check_sequence("state", state, what=what)
    if len(parts) != n:
        raise ValueError(f"state must be a tuple {what}, got {state!r}")
    return tuple(parts)


def _named(state, fn, *args):
    """``fn(*args)``, its ``ValueError`` or ``TypeError`` prefixed by the ``state`` it was about."""
    try:
        return fn(*args)
    except (ValueError, TypeError) as error:
        raise type(error)(f"state {state!r}: {error}") from None


class _Policy(Mapping):
    """Optimal play as a read-only mapping ``{decision state: action}``, computed on demand.

    ``best`` answers one state (raising ``ValueError`` or ``TypeError`` for a state that is not
    one, turned into a ``KeyError`` here); ``keys`` iterates over every decision state in a
    canonical form, and ``size`` counts them.
    """

    def __init__(self, best, keys, size: int):
        self._best, self._keys, self._size = best, keys, size

    def __getitem__(self, state):
        try:
            return self._best(state)
        except (ValueError, TypeError):
            raise KeyError(state) from None

    def __iter__(self):
        return iter(self._keys())

    def __len__(self) -> int:
        return self._size

    def __repr__(self) -> str:
        return f"<optimal play: {self._size} decision states, each computed when asked>"


def _group_rolls(sizes, counts):
    """Every roll of the dice with ``counts[i]`` dice of size ``sizes[i]`` as a multiset: the faces
    of each size descending, the sizes ascending (one face per die of the ascending state)."""
    groups = [
        list(itertools.combinations_with_replacement(range(s, 0, -1), c))
        for s, c in zip(sizes, counts, strict=True)
    ]
    for parts in itertools.product(*groups):
        yield tuple(f for part in parts for f in part)


def _n_group_rolls(sizes, counts) -> int:
    """How many rolls :func:`_group_rolls` yields: ``prod C(c + s - 1, s - 1)``."""
    return math.prod(math.comb(c + s - 1, s - 1) for s, c in zip(sizes, counts, strict=True))
