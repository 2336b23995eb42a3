"""The internals the race modules share (:mod:`~dicelab.wimpout.race`, :mod:`~dicelab.wimpout.race_match`,
:mod:`~dicelab.wimpout.reference`): the turn's outcome tables with exact probabilities (:func:`turn`),
the tables the race kernels read, in floats or in fractions (:func:`reach`, :func:`tables`), the
default horizon, the checks and cost of a race's arguments (:func:`check_points`, :func:`setup`,
:func:`cost`), and a fixed policy as the kernels read it (:func:`policy`).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
from sympy import QQ
from sympy.polys.matrices import DomainMatrix

from dicelab.core.checks import check_cost, check_int, check_optional_int
from dicelab.core.spec import Check
from dicelab.wimpout import _kernels
from dicelab.wimpout.play import solve_turn, turn_tables
from dicelab.wimpout.records import Rules

TAIL = 1e-16  # the default horizon: L(H) - L(inf) at most this
MAX_HORIZON = 4000  # units of 5 points searched for the default horizon
STEPS_PER_LEVEL = 700  # outcomes of every state at one total, with the closed-form top
# Timed (benchmarks/budgets.py): the level-by-level solve takes about 1,200 g^2 (g/2 + 20)
# (1 + g/150) steps of 10^-8 s for a target of g units of 5 points (some 18 turns solved per
# state); plain sweeps about four times as many.
STEPS_PER_STATE = 1200


def check_points(name: str, value, low: int, high: int) -> int:
    value = check_int(name, value, low, high)
    if value % 5:
        raise ValueError(f"{name}: scores and turn points are multiples of 5, got {value}")
    return value


def solve_exact(A: list, B: list) -> list:
    """``A X = B`` for square ``A`` (fractions), by one exact LU factorisation over the rationals."""
    n, k = len(A), len(B[0])
    qq = [[QQ(v.numerator, v.denominator) for v in row] for row in A]
    rhs = [[QQ(v.numerator, v.denominator) for v in row] for row in B]
    X = DomainMatrix(qq, (n, n), QQ).lu_solve(DomainMatrix(rhs, (n, k), QQ)).to_list()
    return [[Fraction(int(v.numerator), int(v.denominator)) for v in row] for row in X]


@dataclass(frozen=True)
class Turn:
    """The turn's outcome tables with exact probabilities, and where its forced part ends."""

    S: int
    nf: int
    start: np.ndarray
    nxt: np.ndarray
    gain: np.ndarray
    pr: tuple  # Fractions
    choices: tuple
    ends: tuple  # per forced state: (choice, Wimpout, Auto Win, Auto Lose) chances
    ends_c: tuple  # per choice, rolling and banking at the next choice: the same four
    l_inf: Fraction  # the chance of five 6s in a turn that never banks


@functools.lru_cache(maxsize=8)
def turn(rules: Rules) -> Turn:
    t = turn_tables(rules)
    S, nf = len(t.states), int((~t.is_choice).sum())
    owner = np.repeat(np.arange(S), np.diff(t.start))
    pr = tuple(
        Fraction(int(w), 6 ** int(t.n_dice[s]) - int(t.repeat[s])) for w, s in zip(t.ways, owner, strict=True)
    )
    if (t.gain[t.next < S] < 1).any() or t.gain.max() > 100:
        raise AssertionError("a roll that continues the turn gains 5 to 500 points")

    def absorbed(n, is_end):
        """Absorption chances of the first ``n`` states, every state from ``n`` on absorbing."""
        A = [[Fraction(int(r == c)) for c in range(n)] for r in range(n)]
        B = [[Fraction(0)] * 4 for _ in range(n)]
        for s in range(n):
            for k in range(t.start[s], t.start[s + 1]):
                nx = int(t.next[k])
                if nx < n:
                    A[s][nx] -= pr[k]
                else:
                    B[s][is_end(nx)] += pr[k]
        return solve_exact(A, B)

    forced = absorbed(nf, lambda nx: 0 if nx < S else 1 + nx - S)
    ends_c = []
    for s in range(nf, S):
        acc = [Fraction(0)] * 4
        for k in range(t.start[s], t.start[s + 1]):
            nx = int(t.next[k])
            if nx >= S:  # an ending: Wimpout, Auto Win, Auto Lose
                row = [int(nx - S == e - 1) for e in range(4)]
            else:
                row = forced[nx] if nx < nf else [1, 0, 0, 0]
            acc = [a + pr[k] * v for a, v in zip(acc, row, strict=True)]
        ends_c.append(tuple(acc))
    never_bank = absorbed(S, lambda nx: 1 + nx - S)
    return Turn(
        S,
        nf,
        t.start,
        t.next,
        t.gain,
        pr,
        tuple(t.states[nf:]),
        tuple(map(tuple, forced)),
        tuple(ends_c),
        never_bank[0][2],
    )


def kit(exact: bool):
    """Numbers, arrays and kernels: floats and compiled, or fractions and the kernels' Python."""
    if exact:
        return (
            lambda v: np.array(list(v), dtype=object),
            lambda *shape: np.full(shape, Fraction(0), dtype=object),
            lambda f: f.py_func,
        )
    return (lambda v: np.array([float(x) for x in v]), lambda *shape: np.zeros(shape), lambda f: f)


@functools.lru_cache(maxsize=16)
def reach(rules: Rules, NH: int, exact: bool) -> np.ndarray:
    """``R[n, s]``: the chance to make ``n`` units from state ``s`` (:func:`_kernels.reach_table`)."""
    tu = turn(rules)
    arr, zeros, kern = kit(exact)
    base = arr([e[0] + e[2] for e in tu.ends] + [1] * (tu.S - tu.nf))
    R = zeros(NH + 1, tu.S + 3)
    kern(_kernels.reach_table)(tu.S, tu.nf, tu.start, tu.nxt, tu.gain, arr(tu.pr), base, NH, R)
    return R


@functools.lru_cache(maxsize=16)
def tables(rules: Rules, m: int, NH: int, exact: bool) -> dict:
    """Every table the race kernels read, for an opening minimum ``m`` and horizon ``NH`` (units)."""
    tu = turn(rules)
    arr, zeros, kern = kit(exact)
    pr, S, nf = arr(tu.pr), tu.S, tu.nf
    b = arr([e[0] for e in tu.ends])
    R = reach(rules, max(NH, m), exact)
    LT2, MT2, WSTAR2 = zeros(2, NH + 1), zeros(2, NH + 1, nf), zeros(2, NH + 1)
    pw, pal = arr([e[1] for e in tu.ends_c]), arr([e[3] for e in tu.ends_c])
    for z, shift in ((0, m), (1, 0)):  # the opponent at score 0 (opening rule) or not
        LT2[z] = [R[max(n, shift), 0] for n in range(NH + 1)]
        kern(_kernels.over_tables)(
            S, nf, tu.start, tu.nxt, tu.gain, pr, b, LT2[z], pw, pal, MT2[z], WSTAR2[z]
        )
    awb, pw_forced = arr([e[0] + e[2] for e in tu.ends]), arr([e[1] for e in tu.ends])
    tab = (S, nf, tu.start, tu.nxt, tu.gain, pr, awb, pw_forced)
    l_inf = tu.l_inf if exact else float(tu.l_inf)
    return {
        "S": S,
        "nf": nf,
        "tab": tab,
        "LT2": LT2,
        "MT2": MT2,
        "WSTAR2": WSTAR2,
        "reach": R[:, 0],
        "l_inf": l_inf,
    }


@functools.lru_cache(maxsize=8)
def default_horizon(rules: Rules) -> int:
    """The first need (units) with ``L(need) - L(inf) <= 10^-16``."""
    tu = turn(rules)
    L = reach(rules, MAX_HORIZON, False)[:, 0] - float(tu.l_inf)
    return int(np.argmax(L <= TAIL)) if (L <= TAIL).any() else MAX_HORIZON


def points(low: int, high: int) -> Check:
    """The declared spec of a score, a target or turn points: a multiple of 5 in ``low..high``."""
    return Check(
        lambda name, value: check_points(name, value, low, high),
        bad=(low - 5, 3, high + 5, 10.0, "5", True, None, [5]),
    )


def _check_horizon(name: str, horizon):
    horizon = check_optional_int(name, horizon, 5, 5 * MAX_HORIZON)
    if horizon is not None and horizon % 5:
        raise ValueError(f"{name}: a need in points, a multiple of 5, got {horizon}")
    return horizon


TARGET, MINIMUM = points(5, 100_000), points(0, 5000)
HORIZON = Check(_check_horizon, bad=(0, 7, 5 * MAX_HORIZON + 5, 10.0, "5", True, [5]))
"""Declared specs of a race's target, opening minimum and horizon (points; the horizon optional)."""


def horizon_units(minimum: int, horizon: int | None, rules: Rules) -> int:
    """The horizon in units of 5 points (the default one when ``horizon`` is None), at least the
    opening ``minimum``."""
    NH = max(default_horizon(rules), minimum // 5) if horizon is None else horizon // 5
    if NH < minimum // 5:
        raise ValueError(f"horizon must be at least minimum ({minimum}), got {5 * NH}")
    return NH


def cost(name, value, g, NH, sweeps):
    """Memory and steps of solving a race of ``g`` units (``sweeps``: relative to the levels)."""
    rows = g + NH + 102
    check_cost(
        name,
        value,
        memory=8 * (40 * rows + 12 * g * g),
        steps=STEPS_PER_STATE * sweeps * g * g * (g / 2 + 20) * (1 + g / 150),
        what="the race's value iteration",
    )
    return rows


@functools.lru_cache(maxsize=8)
def _for_points(rules: Rules, minimum: int) -> dict:
    return dict(solve_turn(rules, minimum=minimum).thresholds)


def for_points_table(target: int, minimum: int, rules: Rules) -> np.ndarray:
    """:func:`~dicelab.wimpout.for_points_thresholds` of checked arguments (points)."""
    g = target // 5
    check_cost("target", target, memory=64 * g * g)
    choices = turn(rules).choices
    T = np.zeros((g, g, len(choices)), dtype=np.int64)
    anywhere, from_zero = _for_points(rules, 0), _for_points(rules, minimum)
    T[:, :] = [anywhere[c] for c in choices]
    T[0, :] = [from_zero[c] for c in choices]
    return T


def policy(name: str, value, sol):
    """A policy of the race solved as ``sol`` (a RaceSolution), as the kernels read it:
    ``(thresholds in units, exceptions (choice, turn units), their pointers by score pair)``.
    ``value``: ``"optimal"``, ``"for points"`` or an integer array of thresholds (points)."""
    g = sol.target // 5
    if isinstance(value, str) and value == "optimal":
        ex = sol.exceptions[np.lexsort((sol.exceptions[:, 1], sol.exceptions[:, 0]))]
        pairs = ex[:, 0] // 5 * g + ex[:, 1] // 5
        ptr = np.searchsorted(pairs, np.arange(g * g + 1))
        return sol.thresholds // 5, np.ascontiguousarray(ex[:, 2:] // [1, 5]), ptr
    T = None
    if isinstance(value, str) and value == "for points":
        T = for_points_table(sol.target, sol.minimum, sol.rules)
    elif isinstance(value, np.ndarray) and value.shape == sol.thresholds.shape and value.dtype.kind in "iu":
        if (value >= 5).all() and (value % 5 == 0).all() and (value <= sol.target + sol.horizon).all():
            T = value
    if T is None:
        raise ValueError(
            f"{name} must be 'optimal', 'for points' or an integer array of thresholds shaped "
            f"{(g, g, len(sol.choices))} (points: multiples of 5 from 5 to {sol.target + sol.horizon}), "
            f"got {value!r}"[:300]
        )
    return T.astype(np.int64) // 5, np.zeros((0, 2), dtype=np.int64), np.zeros(g * g + 1, dtype=np.int64)
