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

Beyond absorption, for any set ``A`` of states (transient or absorbing) and the hitting time
``T_A = min{n >= 0 : X_n in A}``:

``h_A = P(T_A < infinity)``
    :meth:`AbsorbingChain.hitting_probability`, the least non-negative solution of
    ``h = 1`` on ``A``, ``h = P h`` elsewhere (Norris, *Markov Chains*, Theorem 1.3.2);
``P(T_A = k)``, ``k = 0, 1, ...``
    :meth:`AbsorbingChain.first_passage`, the chance that the chain first enters ``A`` at
    step ``k``: ``P(T_A > k) = (P_{NN}^k 1)`` for the states ``N`` outside ``A``.

All entries are exact :class:`fractions.Fraction`; the inverse is computed with
SymPy's ``DomainMatrix`` over the rationals. ``float_view`` gives numpy arrays
for display.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import NamedTuple

import numpy as np
from sympy import QQ
from sympy.polys.matrices import DomainMatrix

from dicelab.core.checks import check_cost, check_sequence
from dicelab.core.exact import to_fraction
from dicelab.core.sample import Sample
from dicelab.core.spec import Int, OneOf, validated

__all__ = ["AbsorbingChain", "FirstPassage"]

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


class FirstPassage(NamedTuple):
    """The law of a first passage time ``T`` up to ``k = steps``, from
    :meth:`AbsorbingChain.first_passage`: ``pmf[k] = P(T = k)`` for ``k = 0..steps`` and
    ``tail = P(T > steps)``, exact; ``sum(pmf) + tail == 1``."""

    pmf: tuple
    tail: Fraction


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

    @validated(name=OneOf(("P", "Q", "R", "N", "B", "t")))
    def float_view(self, name: str) -> np.ndarray:
        """One of ``"P", "Q", "R", "N", "B", "t"`` as a float array.

        >>> AbsorbingChain([["1/2", "1/2"], [0, 1]]).float_view("t")
        array([2.])
        """
        return getattr(self, name).astype(float)

    @validated(n=Int(1), seed=Int(0), max_steps=Int(1))
    def simulate(self, n: int, *, seed: int, start=None, max_steps: int = 100_000) -> Sample:
        """Run the chain ``n`` times from ``start`` until absorption.

        Parameters
        ----------
        n : int
            How many runs, at least 1. Each needs some ``64 + 9 m`` bytes of working memory
            (``m`` states): ``n`` beyond the memory budget is refused.
        seed : int
            Seed of the :class:`numpy.random.Generator` (a non-negative integer): the same seed
            draws the same runs.
        start : state, optional
            The transient state every run starts from; default the first transient state, in
            the order of ``P``'s rows.
        max_steps : int
            Raises ``RuntimeError`` if some run is still transient after this many steps.

        Returns
        -------
        dicelab.core.sample.Sample
            Columns ``"absorbed"`` (the absorbing state reached, as its index in
            :attr:`absorbing`) and ``"steps"`` (the steps of each run).

        Examples
        --------
        >>> chain = AbsorbingChain([["1/2", "1/4", "1/4"], [0, 1, 0], [0, 0, 1]], states=["go", "a", "b"])
        >>> sample = chain.simulate(10_000, seed=1, start="go")
        >>> abs(sample.mean("steps") - float(chain.expected_steps("go"))) < 4 * sample.stderr("steps")
        True
        >>> chain.absorbing[0], abs(sample.share("absorbed", 0) - 0.5) < 0.05
        ('a', True)
        """
        if not self.transient:
            raise ValueError("start: the chain has no transient state to start from")
        here = 0 if start is None else self._index(self.transient, start, "start")
        cost = simulation_cost(n, len(self.states), float(self.t[here]))
        check_cost("n", n, **cost, what="the simulated runs")
        rng = np.random.default_rng(seed)
        cum = np.cumsum(self.canonical().astype(float), axis=1)
        cum[:, -1] = 1.0  # guard against rounding in the last column
        m = len(self.transient)
        state = np.full(n, here)
        steps = np.zeros(n, dtype=np.int64)
        alive = np.ones(n, dtype=bool)
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
        return Sample(n=n, seed=seed, columns={"absorbed": state - m, "steps": steps})

    def _targets(self, targets) -> list[int]:
        """The indices in :attr:`states` of one state, or of a non-empty collection of states."""
        try:
            one = targets in self.states
        except Exception:  # noqa: BLE001 - a value whose comparison with a state fails
            one = False
        if one:
            return [self.states.index(targets)]
        if targets is None or isinstance(targets, str | bytes | dict) or not isinstance(targets, Iterable):
            raise ValueError(
                f"targets must be a state or a collection of states of {self.states!r}, got {targets!r}"[:300]
            )
        items = list(targets)
        if not items:
            raise ValueError("targets must name at least one state, got an empty collection")
        return sorted({self._index(self.states, t, "targets") for t in items})

    def hitting_probability(self, targets, start=None):
        """The chance of ever being in ``targets``: ``P(T < infinity)``, ``T = min{n >= 0 : X_n in targets}``.

        ``h = 1`` on the targets, ``h[i] = sum_j P[i, j] h[j]`` elsewhere, and ``h = 0`` on the
        states from which no path of positive probability leads to a target; on the other states
        ``(I - P_CC) h_C = P_CA 1`` has one solution (from each of them the chain leaves ``C``
        with positive probability), solved exactly. A start inside the targets counts as a hit
        at step 0.

        Parameters
        ----------
        targets : state or collection of states
            The set ``A``: any states, transient or absorbing.
        start : state, optional
            Where the chain starts; default: every state.

        Returns
        -------
        fractions.Fraction or dict
            ``P(T < infinity)`` from ``start``; without ``start``, ``{state: P(T < infinity)}``
            for every state, in the order of :attr:`states`.

        Examples
        --------
        The drunkard's walk on 0..4 (0 and 4 absorb): from 1, the chance of ever reaching 3.

        >>> P = [[1, 0, 0, 0, 0], ["1/2", 0, "1/2", 0, 0], [0, "1/2", 0, "1/2", 0],
        ...      [0, 0, "1/2", 0, "1/2"], [0, 0, 0, 0, 1]]
        >>> walk = AbsorbingChain(P)
        >>> walk.hitting_probability(3, start=1)
        Fraction(1, 3)
        >>> walk.hitting_probability([0, 4]) == {0: 1, 1: 1, 2: 1, 3: 1, 4: 1}
        True
        """
        hit = self._targets(targets)
        here = None if start is None else self._index(self.states, start, "start")
        rows = self.P.tolist()
        reach = _reaching(rows, hit)
        inside = set(hit)
        C = [i for i in range(len(rows)) if i in reach and i not in inside]
        m = len(C)
        check_cost(
            "targets",
            f"{m} states that may reach them",
            memory=_EXACT_BYTES * (2 * m * m + 2 * m),
            steps=_EXACT_STEP * (len(rows) ** 2 + m**3),
            what="the exact hitting probabilities",
        )
        h = [Fraction(1) if i in inside else Fraction(0) for i in range(len(rows))]
        if m:
            I_minus_P = [[Fraction(int(a == b)) - rows[a][b] for b in C] for a in C]
            into = [[sum((rows[a][t] for t in hit), Fraction(0))] for a in C]
            solved = _from_dm(_to_dm(I_minus_P).lu_solve(_to_dm(into)))[:, 0]
            for i, v in zip(C, solved, strict=True):
                h[i] = v
        if here is not None:
            return h[here]
        return dict(zip(self.states, h, strict=True))

    @validated(steps=Int(0))
    def first_passage(self, targets, steps: int, start=None):
        """The law of the first time in ``targets``, ``T = min{n >= 0 : X_n in targets}``, up to ``steps``.

        ``P(T > k)`` is the chance of ``k`` steps among the other states ``N``: ``P_{NN}^k 1``
        from each state (a start in the targets has ``T = 0``); ``P(T = k) = P(T > k-1) - P(T > k)``.
        Exact, one vector-matrix product over the non-zero entries of ``P_{NN}`` a step.

        Parameters
        ----------
        targets : state or collection of states
            The set entered: any states, transient or absorbing.
        steps : int
            The last ``k`` whose ``P(T = k)`` is listed, ``steps >= 0``.
        start : state, optional
            Where the chain starts; default: every state.

        Returns
        -------
        FirstPassage or dict
            From ``start``: ``pmf``, the tuple ``P(T = k)`` for ``k = 0..steps``, and ``tail``,
            ``P(T > steps)`` (with ``T = infinity`` when the chain never gets there); they sum
            to 1. Without ``start``, ``{state: FirstPassage}`` for every state.

        Examples
        --------
        A die rolled until the first six:

        >>> roll = AbsorbingChain([["5/6", "1/6"], [0, 1]], states=["roll", "six"])
        >>> pmf, tail = roll.first_passage("six", 3, start="roll")
        >>> pmf, tail
        ((Fraction(0, 1), Fraction(1, 6), Fraction(5, 36), Fraction(25, 216)), Fraction(125, 216))
        """
        hit = set(self._targets(targets))
        here = None if start is None else self._index(self.states, start, "start")
        rows = self.P.tolist()
        n = len(rows)
        N = [i for i in range(n) if i not in hit]
        sparse = {i: [(j, rows[i][j]) for j in N if rows[i][j] != 0] for i in N}
        nnz = sum(len(r) for r in sparse.values())
        # the probabilities after k steps have denominators of about k times the bits of P's
        bits = max((v.denominator.bit_length() for r in sparse.values() for _, v in r), default=1)
        size = 1 + steps * bits / 64  # machine words of an entry at the last step
        kept = n * (steps + 1) if here is None else steps + 1
        check_cost(
            "steps",
            steps,
            memory=_EXACT_BYTES * (2 * n + kept) * size,
            steps=_EXACT_STEP * steps * (nnz + n) * (1 + size / 30),
            what=f"the first-passage law over {len(N)} states",
        )
        if here is not None:
            if here in hit:
                return FirstPassage((Fraction(1),) + (Fraction(0),) * steps, Fraction(0))
            # forward: the chance of being in each state of N after k steps, never in the targets
            mass = {here: Fraction(1)}
            pmf, left = [Fraction(0)], Fraction(1)
            for _ in range(steps):
                nxt: dict[int, Fraction] = {}
                for i, p in mass.items():
                    for j, q in sparse[i]:
                        nxt[j] = nxt.get(j, Fraction(0)) + p * q
                mass = {j: v for j, v in nxt.items() if v}
                now = sum(mass.values(), Fraction(0))
                pmf.append(left - now)
                left = now
            return FirstPassage(tuple(pmf), left)
        # backward: u[i] = P_i(T > k) for every i in N at once
        u = {i: Fraction(1) for i in N}
        laws = {i: [Fraction(0)] for i in N}
        for _ in range(steps):
            nxt = {i: sum((q * u[j] for j, q in sparse[i]), Fraction(0)) for i in N}
            for i in N:
                laws[i].append(u[i] - nxt[i])
            u = nxt
        out = {}
        for k, s in enumerate(self.states):
            if k in hit:
                out[s] = FirstPassage((Fraction(1),) + (Fraction(0),) * steps, Fraction(0))
            else:
                out[s] = FirstPassage(tuple(laws[k]), u[k])
        return out

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
