"""Absorbing Markov chains, exactly: canonical form, fundamental matrix, absorption.

Serves the Cosmic Wimpout paper (Section 5, Tables 6-9) and is general: any finite
absorbing chain. Notation as in Grinstead and Snell, *Introduction to Probability*,
Chapter 11 (the paper's reference [2]):

``P = [[Q, R], [0, I]]``
    the transition matrix in canonical form, transient states first;
``N = (I - Q)^-1``
    the fundamental matrix: ``N[i, j]`` is the expected number of visits to
    transient state ``j`` starting from ``i``;
``B = N R``
    ``B[i, k]`` is the probability of being absorbed in absorbing state ``k``;
``t = N 1``
    the expected number of steps before absorption.

All entries are exact :class:`fractions.Fraction`; the inverse is computed with
SymPy's ``DomainMatrix`` over the rationals. ``float_view`` gives numpy arrays
for display.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np
from sympy import QQ
from sympy.polys.matrices import DomainMatrix

from dicelab.core.checks import check_cost, check_int, check_sequence
from dicelab.core.exact import to_fraction

__all__ = ["AbsorbingChain", "ChainSample"]

# Exact arithmetic runs in pure Python: one rational operation (SymPy's QQ, Fraction) takes
# about a microsecond, i.e. some 100 of the 10^8 steps a second the cost check counts, and an
# exact entry (a Fraction and its pointer) some 150 bytes.
_EXACT_STEP = 100
_EXACT_BYTES = 150


def _rows(P) -> list[list]:
    """``P`` as a list of rows, or a ValueError naming ``P``."""
    bad = ValueError(f"P must be a square matrix (nested lists or an array), got {P!r}"[:300])
    if P is None or isinstance(P, str | bytes | dict):
        raise bad
    try:
        rows = P if isinstance(P, list) else np.asarray(P, dtype=object)
        if any(r is None or isinstance(r, str | bytes | dict) for r in rows):
            raise bad
        return [list(r) for r in rows]
    except (TypeError, ValueError):
        raise bad from None


def _check_states(states, n: int) -> tuple:
    """``states`` as a tuple of ``n`` distinct hashable names (default ``0, 1, ...``)."""
    if states is None:
        return tuple(range(n))
    states = check_sequence("states", states, what="state names")
    try:
        distinct = len(set(states)) == len(states)
    except TypeError:
        raise ValueError(f"states must be hashable names, got {states!r}") from None
    if len(states) != n or not distinct:
        raise ValueError(f"states must name the {n} rows of P once each, got {states!r}")
    return states


def _check_size(rows: list[list]) -> None:
    """Refuse a chain whose exact fundamental matrix is beyond the budget: the inverse of the
    ``m x m`` matrix ``I - Q`` by Gauss-Jordan elimination takes some ``3 m^3`` rational operations."""
    n = len(rows)
    m = sum(1 for i in range(n) if to_fraction(rows[i][i], f"P[{i}, {i}]", allow_float=True) != 1)
    check_cost(
        "len(P)",
        n,
        memory=_EXACT_BYTES * (n * n + 4 * m * m + 2 * m * n),
        steps=_EXACT_STEP * (n * n + 3 * m**3 + m * m * n),
        what=f"the exact fundamental matrix of {m} transient states",
    )


def _reaching(exact: list[list], absorbing: list[int]) -> set[int]:
    """The states from which some absorbing state can be reached (a search backwards along the
    transitions of positive probability)."""
    n = len(exact)
    into: list[list[int]] = [[] for _ in range(n)]
    for i, row in enumerate(exact):
        for j, v in enumerate(row):
            if v > 0 and i != j:
                into[j].append(i)
    reach, todo = set(absorbing), list(absorbing)
    while todo:
        for i in into[todo.pop()]:
            if i not in reach:
                reach.add(i)
                todo.append(i)
    return reach


def simulation_cost(n_runs: int, n_states: int, mean_steps: float) -> dict:
    """Memory and steps of :meth:`AbsorbingChain.simulate`: per run a few 8-byte arrays, and at
    each step a row of cumulative probabilities gathered (8 bytes a state) and compared (1 byte);
    each run lasts ``mean_steps`` steps on average, each step some ``10 + n_states / 16`` operations
    (vectorised over the runs; timed at 0.5 s for 10^5 runs of 57 steps on 20 states, and 0.37 s
    for 10^6 runs of 1.6 steps on 282 states)."""
    return {
        "memory": n_runs * (64 + 9 * n_states),
        "steps": n_runs * mean_steps * (10 + n_states / 16),
    }


def _check_random_state(random_state):
    """``None``, a non-negative integer seed (or a sequence of them), or a numpy Generator
    (BitGenerator, SeedSequence); else a ValueError naming ``random_state``."""
    if random_state is None or isinstance(
        random_state, np.random.Generator | np.random.BitGenerator | np.random.SeedSequence
    ):
        return random_state
    if isinstance(random_state, list | tuple):
        seeds = check_sequence("random_state", random_state, what="non-negative integer seeds")
        return [check_int("random_state", v, 0) for v in seeds]
    return check_int("random_state", random_state, 0)


def _to_dm(rows) -> DomainMatrix:
    return DomainMatrix(
        [[QQ(v.numerator, v.denominator) for v in row] for row in rows],
        (len(rows), len(rows[0]) if rows else 0),
        QQ,
    )


def _from_dm(dm: DomainMatrix) -> np.ndarray:
    rows = dm.to_list()
    out = np.empty((len(rows), len(rows[0]) if rows else 0), dtype=object)
    for i, row in enumerate(rows):
        for j, v in enumerate(row):
            out[i, j] = Fraction(int(v.numerator), int(v.denominator))
    return out


@dataclass(frozen=True)
class ChainSample:
    """Runs of a chain until absorption: per run, the absorbing state reached and the steps taken.

    ``absorbed[r]`` indexes ``chain.absorbing``; ``steps[r]`` counts the steps of run ``r``.

    >>> chain = AbsorbingChain([["1/2", "1/4", "1/4"], [0, 1, 0], [0, 0, 1]], states=["go", "a", "b"])
    >>> sample = chain.simulate(4000, "go", random_state=2)
    >>> abs(sample.frequencies["a"] - 0.5) < 0.05
    True
    """

    chain: AbsorbingChain
    absorbed: np.ndarray
    steps: np.ndarray

    @property
    def frequencies(self) -> dict:
        """The share of runs absorbed in each absorbing state."""
        counts = np.bincount(self.absorbed, minlength=len(self.chain.absorbing))
        return dict(zip(self.chain.absorbing, (counts / self.absorbed.size).tolist(), strict=True))

    @property
    def mean_steps(self) -> float:
        return float(self.steps.mean())

    @property
    def steps_stderr(self) -> float:
        """The standard error of :attr:`mean_steps` (0 for a single run)."""
        n = self.steps.size
        return float(self.steps.std(ddof=1) / np.sqrt(n)) if n > 1 else 0.0


@dataclass(frozen=True)
class AbsorbingChain:
    """An absorbing Markov chain with exact ``Q, R, N, B, t``.

    ``P`` is a square row-stochastic matrix (rows sum to exactly 1) of exact numbers
    (int, Fraction, SymPy Rational or a string like ``"1/6"``; a float is taken at its
    exact binary value); ``states`` names its rows. A state is absorbing when
    ``P[i, i] = 1``. Every transient state must be able to reach an absorbing one.

    Parameters
    ----------
    P : square matrix (nested lists or array) of exact numbers
        The transition matrix, rows summing to exactly 1. The exact inverse of ``I - Q``
        takes some ``3 m^3`` rational operations for ``m`` transient states: beyond about
        a thousand of them the chain is refused up front (over an hour's work).
    states : sequence, optional
        Names of the rows (default ``0, 1, ...``), hashable and distinct.

    Examples
    --------
    A fair coin flipped until heads: one transient state, one absorbing.

    >>> chain = AbsorbingChain([["1/2", "1/2"], [0, 1]], states=["flip", "heads"])
    >>> chain.N, chain.expected_steps("flip")
    (array([[Fraction(2, 1)]], dtype=object), Fraction(2, 1))
    """

    P: np.ndarray
    states: tuple
    transient: tuple = field(init=False)
    absorbing: tuple = field(init=False)
    Q: np.ndarray = field(init=False, repr=False)
    R: np.ndarray = field(init=False, repr=False)
    N: np.ndarray = field(init=False, repr=False)
    B: np.ndarray = field(init=False, repr=False)
    t: np.ndarray = field(init=False, repr=False)

    def __init__(self, P, states=None):
        rows = _rows(P)
        n = len(rows)
        if n == 0 or any(len(r) != n for r in rows):
            raise ValueError(
                f"P must be a non-empty square matrix, got {n} rows of lengths "
                f"{sorted({len(r) for r in rows})}"
            )
        states = _check_states(states, n)
        _check_size(rows)
        exact = [
            [to_fraction(v, f"P[{i}, {j}]", allow_float=True) for j, v in enumerate(r)]
            for i, r in enumerate(rows)
        ]
        for i, r in enumerate(exact):
            if any(v < 0 or v > 1 for v in r):
                raise ValueError(f"row {states[i]!r} of P has an entry outside [0, 1]")
            if sum(r) != 1:
                raise ValueError(f"row {states[i]!r} of P sums to {sum(r)}, not 1: P is not stochastic")
        absorbing = [i for i in range(n) if exact[i][i] == 1]
        if not absorbing:
            raise ValueError("the chain has no absorbing state (no row with P[i, i] = 1)")
        transient = [i for i in range(n) if i not in absorbing]
        # every transient state must reach an absorbing one, or I - Q is singular
        reach = _reaching(exact, absorbing)
        stuck = [states[i] for i in transient if i not in reach]
        if stuck:
            raise ValueError(
                f"P: transient states {stuck!r} never reach an absorbing state: not an absorbing chain"
            )
        Q = [[exact[i][j] for j in transient] for i in transient]
        R = [[exact[i][j] for j in absorbing] for i in transient]
        m = len(transient)
        if m:
            I_minus_Q = [[Fraction(int(a == b)) - Q[a][b] for b in range(m)] for a in range(m)]
            N_dm = _to_dm(I_minus_Q).inv()
            N = _from_dm(N_dm)
            B = _from_dm(N_dm * _to_dm(R))
            t = _from_dm(N_dm * _to_dm([[Fraction(1)] for _ in range(m)]))[:, 0]
        else:
            N = np.empty((0, 0), dtype=object)
            B = np.empty((0, len(absorbing)), dtype=object)
            t = np.empty(0, dtype=object)
        P_arr = np.empty((n, n), dtype=object)
        for i in range(n):
            for j in range(n):
                P_arr[i, j] = exact[i][j]
        object.__setattr__(self, "P", P_arr)
        object.__setattr__(self, "states", states)
        object.__setattr__(self, "transient", tuple(states[i] for i in transient))
        object.__setattr__(self, "absorbing", tuple(states[i] for i in absorbing))
        object.__setattr__(self, "Q", np.array(Q, dtype=object).reshape(m, m))
        object.__setattr__(self, "R", np.array(R, dtype=object).reshape(m, len(absorbing)))
        object.__setattr__(self, "N", N)
        object.__setattr__(self, "B", B)
        object.__setattr__(self, "t", t)

    def canonical(self) -> np.ndarray:
        """``P`` reordered as ``[[Q, R], [0, I]]`` (transient states first)."""
        order = [self.states.index(s) for s in self.transient + self.absorbing]
        return self.P[np.ix_(order, order)]

    def float_view(self, name: str) -> np.ndarray:
        """One of ``"P", "Q", "R", "N", "B", "t"`` as a float array.

        >>> AbsorbingChain([["1/2", "1/2"], [0, 1]]).float_view("t")
        array([2.])
        """
        if not isinstance(name, str) or name not in ("P", "Q", "R", "N", "B", "t"):
            raise ValueError(f"name must be one of P, Q, R, N, B, t; got {name!r}")
        return getattr(self, name).astype(float)

    def simulate(self, n_runs: int, start, *, random_state=None, max_steps: int = 100_000) -> ChainSample:
        """Run the chain ``n_runs`` times from transient ``start`` until absorption.

        Vectorised over runs; ``random_state`` (``None``, a non-negative integer) seeds a
        :class:`numpy.random.Generator` (or is one). Raises ``RuntimeError`` if some run is
        still transient after ``max_steps`` steps. Each run needs some ``64 + 9 n`` bytes of
        working memory (``n`` states): ``n_runs`` beyond the memory budget is refused.

        Examples
        --------
        >>> chain = AbsorbingChain([["1/2", "1/2"], [0, 1]], states=["flip", "done"])
        >>> sample = chain.simulate(10_000, "flip", random_state=1)
        >>> abs(sample.mean_steps - float(chain.expected_steps("flip"))) < 4 * sample.steps_stderr
        True
        """
        n_runs = check_int("n_runs", n_runs, 1)
        max_steps = check_int("max_steps", max_steps, 1)
        here = self._index(self.transient, start, "start")
        random_state = _check_random_state(random_state)
        cost = simulation_cost(n_runs, len(self.states), float(self.t[here]))
        check_cost("n_runs", n_runs, **cost, what="the simulated runs")
        rng = (
            random_state
            if isinstance(random_state, np.random.Generator)
            else np.random.default_rng(random_state)
        )
        cum = np.cumsum(self.canonical().astype(float), axis=1)
        cum[:, -1] = 1.0  # guard against rounding in the last column
        m = len(self.transient)
        state = np.full(n_runs, here)
        steps = np.zeros(n_runs, dtype=np.int64)
        alive = np.ones(n_runs, dtype=bool)
        for _ in range(max_steps):
            idx = np.flatnonzero(alive)
            if idx.size == 0:
                break
            u = rng.random(idx.size)
            state[idx] = (u[:, None] >= cum[state[idx]]).sum(axis=1)
            steps[idx] += 1
            alive[idx] = state[idx] < m
        else:
            if alive.any():
                raise RuntimeError(f"{int(alive.sum())} runs not absorbed after max_steps={max_steps} steps")
        return ChainSample(self, state - m, steps)

    def absorption_probability(self, start, end) -> Fraction:
        """Probability that the chain started in transient ``start`` is absorbed in ``end``.

        >>> chain = AbsorbingChain([["1/2", "1/4", "1/4"], [0, 1, 0], [0, 0, 1]], states=["go", "a", "b"])
        >>> chain.absorption_probability("go", "a")
        Fraction(1, 2)
        """
        return self.B[self._index(self.transient, start, "start"), self._index(self.absorbing, end, "end")]

    def expected_steps(self, start) -> Fraction:
        """Expected number of steps from transient ``start`` until absorption.

        >>> AbsorbingChain([["5/6", "1/6"], [0, 1]], states=["roll", "six"]).expected_steps("roll")
        Fraction(6, 1)
        """
        return self.t[self._index(self.transient, start, "start")]

    @staticmethod
    def _index(group, state, name):
        try:
            return group.index(state)
        except Exception:  # noqa: BLE001 - not a state, or a value whose comparison fails
            raise ValueError(f"{name} must be one of {group!r}, got {state!r}") from None
