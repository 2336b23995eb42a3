"""b.a.d.g.: roll the dice left, take at least one, score the faces taken -- solved.

Serves ``badg-strategy.txt`` (D. Fetterman, 2022), Sections 3-5, and notebook
``02_badg.ipynb``. The one-die game of Section 2 is :mod:`dicelab.stopping`.

Notation
--------
dice
    a tuple of die sizes, e.g. :data:`STANDARD` ``= (6,)*12 + (8, 10, 12)``;
    order does not matter. Each die shows ``1..s`` with probability ``1/s``.
state
    the multiset of dice still in play, given as such a tuple (or, inside, as
    the count of dice of each distinct size).
roll
    one face per die of the state, in the order of the state tuple.
take
    the dice removed after a roll (at least one); a die of size ``s`` taken
    showing ``p`` scores ``p`` -- equivalently ``s - p`` b.a.d.g. points, which
    the player wants few of. Maximising the face sum is the same game.

How the exact solution is fast
------------------------------
Dice of one size are interchangeable, so a decision is *how many* of each size
to take, and then the highest faces of that size. A roll of ``a`` equal dice
is a multiset with a multinomial weight (6188 multisets for 12d6 instead of
``6^12``). Per state, the group with the most roll outcomes is enumerated
outside; for each of its rolls the best number to take from it is tabulated
against every choice for the other (small) groups, and the small groups'
rolls are enumerated inside. Values are float64 (their exact denominators
exceed ``10^100``); :func:`paper_precompute` is the paper's algorithm with exact
fractions, for small games and for checking.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache

import numpy as np
from numba import njit
from tqdm import tqdm

from dicelab import stopping
from dicelab._checks import check_int

__all__ = [
    "STANDARD",
    "FALLBACKS",
    "states",
    "count_rolls",
    "Solution",
    "solve",
    "paper_precompute",
    "HeuristicPolicy",
    "heuristic_policy",
    "Evaluation",
    "evaluate",
    "SimulationResult",
    "simulate",
]

STANDARD: tuple[int, ...] = (6,) * 12 + (8, 10, 12)

# --------------------------------------------------------------------------- validation and states


def _check_dice(dice, name: str = "dice") -> tuple[int, ...]:
    try:
        dice = tuple(dice)
    except TypeError:
        raise ValueError(f"{name} must be a sequence of die sizes, got {dice!r}") from None
    if not dice:
        raise ValueError(f"{name} must hold at least one die")
    return tuple(sorted(check_int(f"{name}: die size", s, 2) for s in dice))


@dataclass(frozen=True)
class _Game:
    """The dice grouped by size: ``sizes`` ascending, ``counts`` of each; states by mixed radix."""

    sizes: tuple[int, ...]
    counts: tuple[int, ...]
    strides: tuple[int, ...] = field(init=False)
    n_states: int = field(init=False)

    def __post_init__(self):
        strides, n = [], 1
        for c in self.counts:
            strides.append(n)
            n *= c + 1
        object.__setattr__(self, "strides", tuple(strides))
        object.__setattr__(self, "n_states", n)

    @classmethod
    def of(cls, dice) -> _Game:
        dice = _check_dice(dice)
        tally = Counter(dice)
        sizes = tuple(sorted(tally))
        return cls(sizes, tuple(tally[s] for s in sizes))

    def index(self, counts) -> int:
        return sum(c * st for c, st in zip(counts, self.strides, strict=True))

    def counts_of(self, index: int) -> tuple[int, ...]:
        return tuple((index // st) % (c + 1) for st, c in zip(self.strides, self.counts, strict=True))

    def dice_of(self, counts) -> tuple[int, ...]:
        return tuple(s for s, c in zip(self.sizes, counts, strict=True) for _ in range(c))

    def counts_in(self, state, name: str = "state") -> tuple[int, ...]:
        """The counts of a state given as a dice tuple; it must be a sub-multiset of the game."""
        try:
            state = tuple(state)
        except TypeError:
            raise ValueError(f"{name} must be a tuple of die sizes, got {state!r}") from None
        tally = Counter(state)
        if not set(tally) <= set(self.sizes) or any(
            tally[s] > c for s, c in zip(self.sizes, self.counts, strict=True)
        ):
            raise ValueError(f"{name} {state!r} is not a set of dice from {self.dice_of(self.counts)!r}")
        return tuple(tally[s] for s in self.sizes)


def states(dice=STANDARD) -> list[tuple[int, ...]]:
    """Every state of the game (every sub-multiset of ``dice``, the empty one included), fewest dice first."""
    game = _Game.of(dice)
    all_counts = [game.counts_of(i) for i in range(game.n_states)]
    all_counts.sort(key=lambda c: (sum(c), c))
    return [game.dice_of(c) for c in all_counts]


def count_rolls(state, distinct: bool = True) -> int:
    """How many rolls a state has: multisets per size (``distinct=True``) or ordered rolls."""
    game = _Game.of(state)
    if not distinct:
        return math.prod(s**c for s, c in zip(game.sizes, game.counts, strict=True))
    return math.prod(math.comb(c + s - 1, s - 1) for s, c in zip(game.sizes, game.counts, strict=True))


# --------------------------------------------------------------------------- roll tables


@cache
def _multisets(s: int, a: int) -> tuple[np.ndarray, np.ndarray]:
    """All rolls of ``a`` dice with ``s`` sides as multisets: faces descending, and probabilities."""
    rolls = list(itertools.combinations_with_replacement(range(s, 0, -1), a))
    faces = np.array(rolls, dtype=np.int64).reshape(len(rolls), a)
    counts = np.array(
        [
            math.factorial(a) // math.prod(math.factorial(k) for k in Counter(r).values())
            for r in faces.tolist()
        ]
    )
    return faces, counts / float(s) ** a


def _roll_tables(game: _Game):
    """Flattened roll tables for the numba kernels.

    Rows ``offsets[i, a]:offsets[i, a+1]`` are the rolls of ``a`` dice of size
    ``sizes[i]``; ``prefix[row, k]`` is the sum of the ``k`` highest faces,
    ``nmax`` the number of faces equal to the size, ``nhigh`` the number of
    faces above half the size, ``top`` the faces themselves (descending).
    """
    G, width = len(game.sizes), max(game.counts) + 1
    offsets = np.zeros((G, width + 1), dtype=np.int64)
    blocks = []
    row = 0
    for i, (s, n) in enumerate(zip(game.sizes, game.counts, strict=True)):
        for a in range(n + 1):
            offsets[i, a] = row
            faces, prob = _multisets(s, a)
            blocks.append((faces, prob, s))
            row += faces.shape[0]
        offsets[i, n + 1 :] = row
    prefix = np.zeros((row, width), dtype=np.float64)
    top = np.zeros((row, width), dtype=np.int64)
    prob = np.zeros(row)
    nmax = np.zeros(row, dtype=np.int64)
    nhigh = np.zeros(row, dtype=np.int64)
    r0 = 0
    for faces, p, s in blocks:
        m, a = faces.shape
        prefix[r0 : r0 + m, 1 : a + 1] = np.cumsum(faces, axis=1)
        top[r0 : r0 + m, :a] = faces
        prob[r0 : r0 + m] = p
        nmax[r0 : r0 + m] = (faces == s).sum(axis=1)
        nhigh[r0 : r0 + m] = (2 * faces > s).sum(axis=1)
        r0 += m
    return offsets, prefix, prob, nmax, nhigh, top


# --------------------------------------------------------------------------- the exact solver (numba)

_FREE, _TAKE_MAX, _NO_TWO_LOW = 0, 1, 2
_RESTRICTIONS = {None: _FREE, "take_max_faces": _TAKE_MAX, "no_two_low": _NO_TWO_LOW}


@njit(cache=True)
def _state_setup(st, state_counts, strides, offsets):
    """Present groups of state ``st``, split into the big group and the small ones, and the
    small groups' joint choices: ``base[ks]`` is the state index after taking ``ks`` from them."""
    n = state_counts[st]
    G = n.size
    big = -1
    most = 0
    for i in range(G):
        if n[i] > 0:
            m = offsets[i, n[i] + 1] - offsets[i, n[i]]
            if m > most:
                most = m
                big = i
    smalls = np.empty(G, dtype=np.int64)
    ns = 0
    for i in range(G):
        if n[i] > 0 and i != big:
            smalls[ns] = i
            ns += 1
    smalls = smalls[:ns]
    K = 1
    for j in range(ns):
        K *= n[smalls[j]] + 1
    base = np.empty(K, dtype=np.int64)
    kvec = np.zeros((K, ns), dtype=np.int64)
    for ks in range(K):
        rem = ks
        b = st
        for j in range(ns):
            radix = n[smalls[j]] + 1
            kvec[ks, j] = rem % radix
            rem //= radix
            b -= kvec[ks, j] * strides[smalls[j]]
        base[ks] = b
    return n, big, smalls, K, base, kvec


@njit(cache=True)
def _small_outcomes(n, smalls, K, kvec, offsets, prefix, prob, nmax, nhigh, restrict):
    """Every joint roll of the small groups: its probability, and for each choice ``ks`` the
    faces taken (``gain``), the low dice taken and whether the choice is allowed."""
    ns = smalls.size
    n_out = 1
    for j in range(ns):
        i = smalls[j]
        n_out *= offsets[i, n[i] + 1] - offsets[i, n[i]]
    weight = np.ones(n_out)
    gain = np.zeros((n_out, K))
    lows = np.zeros((n_out, K), dtype=np.int64)
    ok = np.ones((n_out, K), dtype=np.bool_)
    rows = np.empty(ns, dtype=np.int64)
    for o in range(n_out):
        rem = o
        for j in range(ns):
            i = smalls[j]
            m = offsets[i, n[i] + 1] - offsets[i, n[i]]
            rows[j] = offsets[i, n[i]] + rem % m
            rem //= m
            weight[o] *= prob[rows[j]]
        for ks in range(K):
            for j in range(ns):
                k = kvec[ks, j]
                r = rows[j]
                gain[o, ks] += prefix[r, k]
                if k > nhigh[r]:
                    lows[o, ks] += k - nhigh[r]
                if restrict == 1 and k < nmax[r]:
                    ok[o, ks] = False
            if restrict == 2 and lows[o, ks] > 1:
                ok[o, ks] = False
    return weight, gain, lows, ok


@njit(cache=True)
def _big_options(r, ks, n_big, stride_big, base, V, prefix, nmax, nhigh, restrict):
    """Best value over how many to take from the big group, for small choice ``ks``:
    (any number of low dice, at most one low die, no low die)."""
    neg = -1e300
    lo = 1 if ks == 0 else 0
    if restrict == 1 and nmax[r] > lo:
        lo = nmax[r]
    best_any, best_one, best_none = neg, neg, neg
    for kb in range(lo, n_big + 1):
        v = prefix[r, kb] + V[base[ks] - kb * stride_big]
        low = kb - nhigh[r] if kb > nhigh[r] else 0
        if v > best_any:
            best_any = v
        if low <= 1 and v > best_one:
            best_one = v
        if low == 0 and v > best_none:
            best_none = v
    return best_any, best_one, best_none


@njit(cache=True)
def _solve_kernel(order, state_counts, strides, offsets, prefix, prob, nmax, nhigh, restrict):
    n_states = state_counts.shape[0]
    V = np.zeros(n_states)
    neg = -1e300
    for t in range(order.size):
        st = order[t]
        if state_counts[st].sum() == 0:
            continue
        n, big, smalls, K, base, kvec = _state_setup(st, state_counts, strides, offsets)
        weight, gain, lows, ok = _small_outcomes(
            n, smalls, K, kvec, offsets, prefix, prob, nmax, nhigh, restrict
        )
        g_one = np.empty(K)
        g_none = np.empty(K)
        total = 0.0
        for r in range(offsets[big, n[big]], offsets[big, n[big] + 1]):
            for ks in range(K):
                best_any, best_one, best_none = _big_options(
                    r, ks, n[big], strides[big], base, V, prefix, nmax, nhigh, restrict
                )
                g_one[ks] = best_any if restrict != 2 else best_one
                g_none[ks] = best_none
            acc = 0.0
            for o in range(weight.size):
                best = neg
                for ks in range(K):
                    if not ok[o, ks]:
                        continue
                    g = g_none[ks] if (restrict == 2 and lows[o, ks] == 1) else g_one[ks]
                    v = gain[o, ks] + g
                    if v > best:
                        best = v
                acc += weight[o] * best
            total += prob[r] * acc
        V[st] = total
    return V


@njit(cache=True)
def _policy_kernel(st, V, state_counts, strides, offsets, prefix, prob, nmax, nhigh, top, sizes):
    """The optimal policy at state ``st``: where it goes, and what it takes.

    Returns ``trans[s']`` (probability of moving to ``s'``), ``trans_zero[s']`` (the same,
    restricted to takes of maximum faces only), ``accepted[i, f]`` / ``shown[i, f]``
    (expected number of dice of group ``i`` showing ``f`` that are taken / rolled) and the
    probability that a maximum face is left on the table. Ties (within 1e-12) go to
    taking more dice from the big group, then to the later choice for the small ones.
    """
    n_states = state_counts.shape[0]
    G = sizes.size
    smax = sizes.max()
    trans = np.zeros(n_states)
    trans_zero = np.zeros(n_states)
    accepted = np.zeros((G, smax + 1))
    shown = np.zeros((G, smax + 1))
    left_max = 0.0
    n, big, smalls, K, base, kvec = _state_setup(st, state_counts, strides, offsets)
    weight, gain, lows, ok = _small_outcomes(n, smalls, K, kvec, offsets, prefix, prob, nmax, nhigh, 0)
    ns = smalls.size
    n_out = weight.size
    # per small outcome and choice: the small rows, whether only maxima are taken / a maximum is left
    rows = np.empty((n_out, ns), dtype=np.int64)
    all_max = np.ones((n_out, K), dtype=np.bool_)
    leaves = np.zeros((n_out, K), dtype=np.bool_)
    for o in range(n_out):
        rem = o
        for j in range(ns):
            i = smalls[j]
            m = offsets[i, n[i] + 1] - offsets[i, n[i]]
            rows[o, j] = offsets[i, n[i]] + rem % m
            rem //= m
        for ks in range(K):
            for j in range(ns):
                k = kvec[ks, j]
                if k > nmax[rows[o, j]]:
                    all_max[o, ks] = False
                if k < nmax[rows[o, j]]:
                    leaves[o, ks] = True
    small_mass = np.zeros((n_out, K))
    g = np.empty(K)
    kb_best = np.empty(K, dtype=np.int64)
    for r in range(offsets[big, n[big]], offsets[big, n[big] + 1]):
        for ks in range(K):
            lo = 1 if ks == 0 else 0
            best = -1e300
            for kb in range(n[big], lo - 1, -1):
                v = prefix[r, kb] + V[base[ks] - kb * strides[big]]
                if v > best + 1e-12 * abs(best):
                    best = v
                    kb_best[ks] = kb
            g[ks] = best
        mass = np.zeros(K)
        for o in range(n_out):
            best = -1e300
            ks_best = 0
            for ks in range(K - 1, -1, -1):
                v = gain[o, ks] + g[ks]
                if v > best + 1e-12 * abs(best):
                    best = v
                    ks_best = ks
            p = prob[r] * weight[o]
            mass[ks_best] += weight[o]
            small_mass[o, ks_best] += prob[r]
            kb = kb_best[ks_best]
            nxt = base[ks_best] - kb * strides[big]
            trans[nxt] += p
            if kb <= nmax[r] and all_max[o, ks_best]:
                trans_zero[nxt] += p
            if kb < nmax[r] or leaves[o, ks_best]:
                left_max += p
        for f in range(n[big]):
            shown[big, top[r, f]] += prob[r]
        for ks in range(K):
            for f in range(kb_best[ks]):
                accepted[big, top[r, f]] += prob[r] * mass[ks]
    for o in range(n_out):
        for j in range(ns):
            i = smalls[j]
            for f in range(n[i]):
                shown[i, top[rows[o, j], f]] += weight[o]
        for ks in range(K):
            if small_mass[o, ks] == 0.0:
                continue
            for j in range(ns):
                i = smalls[j]
                for f in range(kvec[ks, j]):
                    accepted[i, top[rows[o, j], f]] += weight[o] * small_mass[o, ks]
    return trans, trans_zero, accepted, shown, left_max


# --------------------------------------------------------------------------- the exact solution


@dataclass(frozen=True)
class Solution:
    """The optimal strategy of a b.a.d.g. game, from :func:`solve`.

    ``expected_face_sum`` and ``expected_points`` are at the start state (all
    dice); ``value(state)`` is the optimal expected face sum from any state.
    """

    dice: tuple[int, ...]
    restriction: str | None
    _game: _Game = field(repr=False)
    _values: np.ndarray = field(repr=False)
    _tables: tuple = field(repr=False)

    @property
    def expected_face_sum(self) -> float:
        return float(self._values[self._game.index(self._game.counts)])

    @property
    def expected_points(self) -> float:
        return float(sum(self.dice)) - self.expected_face_sum

    def value(self, state) -> float:
        """Optimal expected face sum still to come from ``state`` (a tuple of die sizes)."""
        return float(self._values[self._game.index(self._game.counts_in(state))])

    def points(self, state) -> float:
        """Optimal expected b.a.d.g. points still to come from ``state``."""
        return float(sum(state)) - self.value(state)

    def values(self) -> dict[tuple[int, ...], float]:
        """``{state: value}`` for every state."""
        return {s: self.value(s) for s in states(self.dice)}

    def take_values(self, state, roll) -> dict[tuple[int, ...], float]:
        """Every legal take (as positions in ``roll``, highest faces of each size) and its value:
        faces taken now plus the optimal value of the state left."""
        state, roll = _check_roll(self._game, state, roll)
        by_size: dict[int, list[int]] = {}
        for pos in sorted(range(len(state)), key=lambda p: (state[p], -roll[p], p)):
            by_size.setdefault(state[pos], []).append(pos)
        sizes = sorted(by_size)
        out = {}
        for ks in itertools.product(*(range(len(by_size[s]) + 1) for s in sizes)):
            if sum(ks) == 0:
                continue
            taken = tuple(sorted(p for s, k in zip(sizes, ks, strict=True) for p in by_size[s][:k]))
            left = tuple(sorted(state[p] for p in range(len(state)) if p not in taken))
            value = sum(roll[p] for p in taken) + (self.value(left) if left else 0.0)
            out[taken] = value
        return out

    def best_take(self, state, roll) -> tuple[int, ...]:
        """The dice to remove (positions in ``roll``) under the optimal strategy.

        Among equally good takes (within 1e-12), the one taking the most dice.
        """
        options = self.take_values(state, roll)
        best = max(options.values())
        tied = [t for t, v in options.items() if v >= best - 1e-12 * abs(best)]
        return max(tied, key=lambda t: (len(t), [-p for p in t]))

    def policy_statistics(self) -> dict:
        """Facts about optimal play from the start, by a forward pass over the states.

        ``p_zero``: probability of a 0-point game; ``expected_rolls``;
        ``expected_leave_max``: expected number of rolls per game that leave a die
        showing its maximum face on the table; ``acceptance``: for each die
        size and face, the probability that a die showing that face is taken, over all
        rolls of the game.
        """
        game, V = self._game, self._values
        offsets, prefix, prob, nmax, nhigh, top = self._tables
        state_counts = np.array([game.counts_of(i) for i in range(game.n_states)], dtype=np.int64)
        strides = np.array(game.strides, dtype=np.int64)
        sizes = np.array(game.sizes, dtype=np.int64)
        order = sorted(range(game.n_states), key=lambda i: -sum(game.counts_of(i)))
        reach = np.zeros(game.n_states)
        reach[order[0]] = 1.0
        zero_reach = np.zeros(game.n_states)
        zero_reach[order[0]] = 1.0
        accepted = np.zeros((len(sizes), sizes.max() + 1))
        shown = np.zeros_like(accepted)
        rolls = leave = 0.0
        for st in order:
            if sum(game.counts_of(st)) == 0 or reach[st] == 0:
                continue
            trans, trans_zero, acc, sh, left_max = _policy_kernel(
                st, V, state_counts, strides, offsets, prefix, prob, nmax, nhigh, top, sizes
            )
            reach += reach[st] * trans
            zero_reach += zero_reach[st] * trans_zero
            accepted += reach[st] * acc
            shown += reach[st] * sh
            rolls += reach[st]
            leave += reach[st] * left_max
        empty = game.index((0,) * len(sizes))
        acceptance = {
            int(s): {f: accepted[i, f] / shown[i, f] for f in range(1, s + 1) if shown[i, f] > 0}
            for i, s in enumerate(sizes)
        }
        return {
            "p_zero": float(zero_reach[empty]),
            "expected_rolls": float(rolls),
            "expected_leave_max": float(leave),
            "acceptance": acceptance,
        }


def _check_roll(game: _Game, state, roll) -> tuple[tuple[int, ...], tuple[int, ...]]:
    game.counts_in(state)
    state = tuple(state)
    try:
        roll = tuple(roll)
    except TypeError:
        raise ValueError(f"roll must be a tuple of faces, got {roll!r}") from None
    if len(roll) != len(state) or not state:
        raise ValueError(
            f"roll {roll!r} must give one face for each of the {len(state)} dice of state {state!r}"
        )
    for s, f in zip(state, roll, strict=True):
        check_int("roll: face", f, 1)
        if f > s:
            raise ValueError(f"roll {roll!r} shows {f} on a die with {s} sides (state {state!r})")
    return state, tuple(int(f) for f in roll)


def solve(dice=STANDARD, *, restrict: str | None = None) -> Solution:
    """The optimal strategy of b.a.d.g. with these dice, by dynamic programming over all states.

    States are solved fewest dice first (reverse topological order: every take
    leads to a state with fewer dice). ``restrict`` limits the takes, to test the
    paper's proposed prunings: ``"take_max_faces"`` (always take every die
    showing its maximum) or ``"no_two_low"`` (never take two dice showing half
    their size or less). Float64 values.
    """
    if restrict not in _RESTRICTIONS:
        raise ValueError(f"restrict must be one of {list(_RESTRICTIONS)}, got {restrict!r}")
    game = _Game.of(dice)
    tables = _roll_tables(game)
    offsets, prefix, prob, nmax, nhigh, _ = tables
    state_counts = np.array([game.counts_of(i) for i in range(game.n_states)], dtype=np.int64)
    order = np.array(sorted(range(game.n_states), key=lambda i: sum(game.counts_of(i))), dtype=np.int64)
    V = _solve_kernel(
        order,
        state_counts,
        np.array(game.strides, dtype=np.int64),
        offsets,
        prefix,
        prob,
        nmax,
        nhigh,
        _RESTRICTIONS[restrict],
    )
    return Solution(game.dice_of(game.counts), restrict, game, V, tables)


def paper_precompute(dice, exact: bool = True) -> dict[tuple[int, ...], Fraction | float]:
    """The paper's pre-compute algorithm, done literally: for every state (fewest dice first), every
    ordered roll of its dice and every non-empty subset of them to take; exact fractions.

    Feasible only for small games (the work is ``sum over states of prod(s) * 2^n``).
    Returns ``{state: optimal expected face sum}``.
    """
    game = _Game.of(dice)
    one = Fraction(1) if exact else 1.0
    E: dict[tuple[int, ...], Fraction | float] = {}
    for state in states(dice):
        n = len(state)
        if n == 0:
            E[state] = 0 * one
            continue
        weight = one / math.prod(state)
        total = 0 * one
        subsets = [sub for k in range(1, n + 1) for sub in itertools.combinations(range(n), k)]
        for roll in itertools.product(*(range(1, s + 1) for s in state)):
            best = None
            for sub in subsets:
                left = tuple(state[p] for p in range(n) if p not in sub)
                value = sum(roll[p] for p in sub) + E[left]
                if best is None or value > best:
                    best = value
            total += weight * best
        E[state] = total
    del game
    return E


# --------------------------------------------------------------------------- the paper's heuristic

FALLBACKS = ("regret", "points", "face")


@dataclass(frozen=True)
class HeuristicPolicy:
    """The paper's "parallel games" strategy (Section 4).

    With ``N`` dice left, every die plays its own one-die game with ``N`` rolls
    left: take it if its face is above ``stopping.max_reject(s, N)``. When no die
    qualifies (a *simultaneous misfortune*) one die must still be taken; the
    paper does not say which. ``fallback`` chooses:

    ``"regret"`` (default)
        the die that loses least against its own one-die game: smallest
        ``E(N-1, s) - face`` -- the parallel-games view of the cost;
    ``"points"``
        the die that scores fewest b.a.d.g. points, smallest ``s - face``;
    ``"face"``
        the die showing the highest face.

    Ties go to the die with more sides.
    """

    fallback: str = "regret"

    def __post_init__(self):
        if self.fallback not in FALLBACKS:
            raise ValueError(f"fallback must be one of {FALLBACKS}, got {self.fallback!r}")

    def reject_up_to(self, s: int, dice_left: int) -> int:
        return stopping.max_reject(s, dice_left)

    def score(self, s: int, face: int, dice_left: int) -> Fraction:
        """Fallback score of a die (lower is taken first)."""
        if self.fallback == "regret":
            return stopping.optimal_value(s, dice_left - 1) - face
        if self.fallback == "points":
            return Fraction(s - face)
        return Fraction(-face)

    def take(self, state, roll) -> tuple[int, ...]:
        """Positions of the dice taken from ``roll`` (one face per die of ``state``)."""
        state, roll = tuple(state), tuple(roll)
        N = len(state)
        taken = tuple(p for p in range(N) if roll[p] > self.reject_up_to(state[p], N))
        if taken:
            return taken
        best = min(range(N), key=lambda p: (self.score(state[p], roll[p], N), -state[p], p))
        return (best,)

    __call__ = take


def heuristic_policy(fallback: str = "regret") -> HeuristicPolicy:
    """The paper's parallel-games strategy; see :class:`HeuristicPolicy` for ``fallback``."""
    return HeuristicPolicy(fallback)


# --------------------------------------------------------------------------- exact policy evaluation


@dataclass(frozen=True)
class Evaluation:
    """Exact results of a policy from :func:`evaluate` (all at the start state).

    ``expected_points`` and ``expected_face_sum`` (``Fraction``), ``p_zero`` the
    probability of a 0-point game, ``expected_misfortunes`` the expected number of
    rolls where no die qualifies (heuristic policies only; ``None`` otherwise),
    and ``values``: the expected face sum from every state.
    """

    dice: tuple[int, ...]
    expected_points: Fraction
    expected_face_sum: Fraction
    p_zero: Fraction
    expected_misfortunes: Fraction | None
    values: dict


def _evaluate_heuristic(policy: HeuristicPolicy, game: _Game) -> Evaluation:
    V: dict = {}
    Z: dict = {}
    Mf: dict = {}
    sizes = game.sizes
    for counts in sorted((game.counts_of(i) for i in range(game.n_states)), key=sum):
        N = sum(counts)
        if N == 0:
            V[counts], Z[counts], Mf[counts] = Fraction(0), Fraction(1), Fraction(0)
            continue
        present = [i for i, c in enumerate(counts) if c]
        cut = {i: policy.reject_up_to(sizes[i], N) for i in present}
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
        v = z = m = Fraction(0)
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
        p_mis = math.prod(Fraction(cut[i], sizes[i]) ** counts[i] for i in present)
        if p_mis:
            # given misfortune, each group's highest face m_i <= cut_i has P(m_i <= x) = (x / cut_i)^a
            def pmf(i, x, counts=counts, cut=cut):
                a, c = counts[i], cut[i]
                return Fraction(x**a - (x - 1) ** a, c**a)

            fall_v = fall_m = Fraction(0)
            for i in present:
                for x in range(1, cut[i] + 1):
                    key = (policy.score(sizes[i], x, N), -sizes[i])
                    p = pmf(i, x)
                    for j in present:
                        if j != i:
                            p *= sum(
                                (
                                    pmf(j, y)
                                    for y in range(1, cut[j] + 1)
                                    if (policy.score(sizes[j], y, N), -sizes[j]) > key
                                ),
                                Fraction(0),
                            )
                    if p:
                        nxt = list(counts)
                        nxt[i] -= 1
                        nxt = tuple(nxt)
                        fall_v += p * (x + V[nxt])
                        fall_m += p * Mf[nxt]
            v += p_mis * fall_v
            m += p_mis * (1 + fall_m)
        V[counts], Z[counts], Mf[counts] = v, z, m
    start = game.counts
    face_sum = V[start]
    return Evaluation(
        game.dice_of(start),
        sum(game.dice_of(start)) - face_sum,
        face_sum,
        Z[start],
        Mf[start],
        {game.dice_of(c): val for c, val in V.items()},
    )


def _evaluate_any(policy, game: _Game) -> Evaluation:
    """Any policy ``policy(state, roll) -> positions``, over every roll (multisets per size, faces
    descending within a size, with multinomial weights). For small games."""
    V: dict = {}
    Z: dict = {}
    for counts in sorted((game.counts_of(i) for i in range(game.n_states)), key=sum):
        state = game.dice_of(counts)
        if not state:
            V[state], Z[state] = Fraction(0), Fraction(1)
            continue
        groups = [(s, c) for s, c in zip(game.sizes, counts, strict=True) if c]
        v = z = Fraction(0)
        for parts in itertools.product(
            *(itertools.combinations_with_replacement(range(s, 0, -1), c) for s, c in groups)
        ):
            p = Fraction(1)
            for (s, c), part in zip(groups, parts, strict=True):
                mult = math.factorial(c) // math.prod(math.factorial(k) for k in Counter(part).values())
                p *= Fraction(mult, s**c)
            roll = tuple(f for part in parts for f in part)
            taken = tuple(policy(state, roll))
            if not taken or len(set(taken)) != len(taken) or not all(0 <= t < len(state) for t in taken):
                raise ValueError(
                    f"policy took {taken!r} from roll {roll!r} of state {state!r}: not a legal take"
                )
            left = tuple(sorted(state[p] for p in range(len(state)) if p not in taken))
            v += p * (sum(roll[t] for t in taken) + V[left])
            if all(roll[t] == state[t] for t in taken):
                z += p * Z[left]
        V[state], Z[state] = v, z
    start = game.dice_of(game.counts)
    return Evaluation(start, sum(start) - V[start], V[start], Z[start], None, dict(V))


def evaluate(policy, dice=STANDARD) -> Evaluation:
    """Exact expected points of a policy, by the same dynamic program (policy evaluation).

    A :class:`HeuristicPolicy` is evaluated exactly and fast: its takes depend on
    each size's roll only through how many faces clear the cutoff, so binomial
    counts replace the rolls. Any other policy is a callable
    ``policy(state, roll) -> positions taken`` and is evaluated over every roll;
    that is for small games.
    """
    game = _Game.of(dice)
    if isinstance(policy, HeuristicPolicy):
        return _evaluate_heuristic(policy, game)
    if not callable(policy):
        raise TypeError(
            f"policy must be a HeuristicPolicy or a callable (state, roll) -> take, got {policy!r}"
        )
    return _evaluate_any(policy, game)


# --------------------------------------------------------------------------- simulation


@dataclass(frozen=True)
class SimulationResult:
    """Monte Carlo results: ``mean_points`` with its ``stderr``, the ``distribution`` of
    points (``distribution[k]`` games scored ``k``), and the mean number of misfortunes
    (rolls where no die cleared its cutoff) with its standard error."""

    n_games: int
    mean_points: float
    stderr: float
    distribution: np.ndarray
    mean_misfortunes: float
    misfortunes_stderr: float

    @property
    def p_zero(self) -> float:
        return float(self.distribution[0] / self.n_games)


def simulate(policy, n_games: int, seed: int, dice=STANDARD, *, chunk: int = 200_000, progress: bool = True):
    """Play ``n_games`` games of b.a.d.g. with a :class:`HeuristicPolicy`, vectorised over games.

    Games are played in chunks, all games of a chunk in lock-step (one roll of
    every game at a time, at most ``len(dice)`` rolls); ``progress`` shows a tqdm
    bar over the chunks. Reproducible for a given ``seed``.
    """
    if not isinstance(policy, HeuristicPolicy):
        raise TypeError(f"simulate plays a HeuristicPolicy, got {policy!r}")
    n_games = check_int("n_games", n_games, 1)
    check_int("seed", seed, 0)
    chunk = check_int("chunk", chunk, 1)
    dice = np.array(_check_dice(dice), dtype=np.int64)
    n_dice, s_max = dice.size, int(dice.max())
    # cutoff[d, N]: highest face of die d rolled again with N dice left; fallback score likewise
    cutoff = np.zeros((n_dice, n_dice + 1), dtype=np.int64)
    score = np.zeros((n_dice, n_dice + 1, s_max + 1))
    for d, s in enumerate(dice.tolist()):
        for N in range(1, n_dice + 1):
            cutoff[d, N] = policy.reject_up_to(s, N)
            for f in range(1, s + 1):
                score[d, N, f] = float(policy.score(s, f, N)) if N > 1 else 0.0
    # ties in the fallback go to the die with more sides (dice are sorted ascending: later is larger)
    tie_break = np.arange(n_dice) * 1e-9
    rng = np.random.default_rng(seed)
    distribution = np.zeros(int((dice - 1).sum()) + 1, dtype=np.int64)
    total = total_sq = misfortunes = misfortunes_sq = 0.0

    with tqdm(total=n_games, disable=not progress, unit="game", desc="b.a.d.g.") as bar:
        done = 0
        while done < n_games:
            m = min(chunk, n_games - done)
            alive = np.ones((m, n_dice), dtype=bool)
            points = np.zeros(m, dtype=np.int64)
            unlucky = np.zeros(m, dtype=np.int64)
            rows = np.arange(m)
            for _ in range(n_dice):
                left = alive.sum(axis=1)
                if not left.any():
                    break
                faces = rng.integers(1, dice + 1, size=(m, n_dice))
                take = alive & (faces > cutoff[np.arange(n_dice), left[:, None]])
                stuck = (left > 0) & ~take.any(axis=1)
                if stuck.any():
                    idx = rows[stuck]
                    sc = score[np.arange(n_dice), left[idx, None], faces[idx]] - tie_break
                    sc[~alive[idx]] = np.inf
                    take[idx, sc.argmin(axis=1)] = True
                    unlucky[stuck] += 1
                points += ((dice - faces) * take).sum(axis=1)
                alive &= ~take
            distribution += np.bincount(points, minlength=distribution.size)
            total += points.sum()
            total_sq += (points.astype(np.float64) ** 2).sum()
            misfortunes += unlucky.sum()
            misfortunes_sq += (unlucky.astype(np.float64) ** 2).sum()
            done += m
            bar.update(m)

    def mean_and_stderr(s1, s2):
        mean = s1 / n_games
        var = max(s2 / n_games - mean**2, 0.0) * n_games / max(n_games - 1, 1)
        return mean, math.sqrt(var / n_games)

    mean, stderr = mean_and_stderr(total, total_sq)
    mis, mis_se = mean_and_stderr(misfortunes, misfortunes_sq)
    return SimulationResult(n_games, mean, stderr, distribution, mis, mis_se)
