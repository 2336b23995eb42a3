"""One die, r rolls: the optimal stopping game of b.a.d.g., exactly.

Serves D. Fetterman, "Strategy for bitches (a dice game)" (2022), Section 2, and notebook
``02_badg.ipynb``.

Notation (the paper's)
----------------------
``s``
    sides of the die, faces ``1..s``, each with probability ``1/s``.
``r``
    rolls left, counting the one about to be made (``r >= 1``). With one roll
    left the die must be taken as it lands.
``E(r, s)``
    the expected face of the optimal game with ``r`` rolls left
    (:func:`optimal_value`): take the die when its face is at least the value of
    going on, ``E(r-1, s)``, otherwise roll again.
b.a.d.g. points
    ``s - face``, the paper's (bad) points; maximising the face is the same game.

:func:`solve_stopping` solves the game as a decision problem (the solver protocol of
:mod:`dicelab.core.solution`: a state is ``(s, rolls left)``), with the distributions of the
number of rolls used and of the face kept under optimal play.

All values are exact :class:`fractions.Fraction`; :func:`expected_max_formula` gives
the expected maximum as a closed form in ``s`` (a SymPy expression). The paper's own
(partly wrong) formulas for this game are in :mod:`dicelab.badg.reference`.
"""

from __future__ import annotations

import numbers
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache

import pandas as pd

from dicelab.badg._common import (
    _check_optimal_cost,
    _check_power_sum_cost,
    _max_reject,
    _optimal,
    _value_with_cutoff,
)
from dicelab.core.checks import check_cost, check_float, check_int
from dicelab.core.spec import Int, validated

__all__ = [
    "solve_stopping",
    "StoppingSolution",
    "expected_max",
    "expected_max_formula",
    "optimal_value",
    "max_reject",
    "value_with_cutoff",
    "strategy_table",
]


@dataclass(frozen=True)
class StoppingSolution:
    """The optimal one-die game, from :func:`solve_stopping`: values, cutoffs and how play goes.

    A *state* is ``(s, k)``: an ``s``-sided die with ``k`` rolls left (``1 <= k <= rolls``); the
    action in a state is the highest face rolled again (:func:`max_reject`; 0 with one roll left,
    every face is taken).

    Attributes
    ----------
    sides, rolls : int
        The die and the rolls left at the start.
    values : dict
        ``{(sides, k): E(k, sides)}`` for ``k = 1..rolls`` (:func:`optimal_value`).
    policy : dict
        ``{(sides, k): max_reject(sides, k)}`` for ``k = 1..rolls``.
    rolls_used : dict
        ``{i: P(optimal play keeps the die at roll i)}`` for ``i = 1..rolls`` (exact; they sum to 1).
    face_kept : dict
        ``{f: P(the face kept is f)}`` for ``f = 1..sides`` (exact); its mean is :attr:`value`.
    """

    sides: int
    rolls: int
    values: Mapping = field(repr=False)
    policy: Mapping = field(repr=False)
    rolls_used: Mapping = field(repr=False)
    face_kept: Mapping = field(repr=False)

    @property
    def start(self) -> tuple[int, int]:
        """The state play begins in: ``(sides, rolls)``."""
        return self.sides, self.rolls

    @property
    def value(self) -> Fraction:
        """``E(rolls, sides)``: the expected face kept by optimal play from the start."""
        return self.values[self.start]

    def value_at(self, state) -> Fraction:
        """``E(k, s)`` of a state ``(s, k)`` of this game (``s = sides``, ``1 <= k <= rolls``).

        Examples
        --------
        >>> solve_stopping(6, 3).value_at((6, 2))
        Fraction(17, 4)
        """
        return self.values[self._state(state)]

    def best_action(self, state) -> int:
        """The highest face rolled again in a state ``(s, k)``: :func:`max_reject` ``(s, k)``.

        Examples
        --------
        >>> solve_stopping(6, 3).best_action((6, 3))  # roll a 1..4 again, keep a 5 or 6
        4
        """
        return self.policy[self._state(state)]

    def _state(self, state) -> tuple[int, int]:
        whole = isinstance(state, tuple) and all(
            isinstance(x, numbers.Integral) and not isinstance(x, bool) for x in state
        )
        if not whole or state not in self.values:
            raise ValueError(
                f"state must be (sides, rolls left) with sides {self.sides} and 1..{self.rolls} "
                f"rolls left, got {state!r}"
            )
        return state

    @property
    def expected_rolls(self) -> Fraction:
        """The expected number of rolls optimal play uses."""
        return sum((i * p for i, p in self.rolls_used.items()), Fraction(0))


@validated(s=Int(2), r=Int(1), example={"s": 6, "r": 3})
def solve_stopping(s: int, r: int) -> StoppingSolution:
    """The optimal one-die game with an ``s``-sided die and ``r`` rolls left, exactly.

    The values ``E(k, s)`` and cutoffs for ``k = 1..r`` rolls left, and how optimal play goes
    from the start: with ``k`` rolls left it rolls again on faces ``<= max_reject(s, k)``, so it
    reaches roll ``i`` with probability ``prod_{j < i} c_j / s`` (``c_j`` the cutoff at roll
    ``j``), keeps the die there with probability ``(s - c_i) / s``, and keeps each face
    ``f > c_i`` with probability ``1 / s`` of that.

    Parameters
    ----------
    s : int
        Sides of the die (at least 2).
    r : int
        Rolls left at the start (at least 1).

    Returns
    -------
    StoppingSolution

    Examples
    --------
    >>> game = solve_stopping(6, 3)
    >>> game.value, game.best_action(game.start)  # Fig. 4: keep a 5 or a 6 first
    (Fraction(14, 3), 4)
    >>> [str(p) for p in game.rolls_used.values()]  # keep at roll 1, 2 or 3
    ['1/3', '1/3', '1/3']
    >>> [str(p) for p in game.face_kept.values()]  # faces 1..6
    ['1/18', '1/18', '1/18', '1/6', '1/3', '1/3']
    """
    # the values and cutoffs (a pass over E(1..r, s)), then r fraction products with denominators
    # up to s^r, and s face probabilities, each a sum of such fractions
    _check_optimal_cost("r", r, s, r, passes=3, per_row=1000)
    check_cost("s", s, memory=200.0 * s + 100.0 * r, steps=1000.0 * s, what="the face probabilities")
    values = {(s, k): _optimal(s, k) for k in range(1, r + 1)}
    policy = {(s, k): _max_reject(s, k) for k in range(1, r + 1)}
    rolls_used, starts = {}, [Fraction(0)] * (s + 2)  # starts[c + 1]: reach / s of faces above c
    reach = Fraction(1)
    for i in range(1, r + 1):
        c = policy[s, r - i + 1]
        rolls_used[i] = reach * (s - c) / s
        starts[c + 1] += reach / s
        reach *= Fraction(c, s)
    face_kept, running = {}, Fraction(0)
    for f in range(1, s + 1):
        running += starts[f]
        face_kept[f] = running
    return StoppingSolution(s, r, values, policy, rolls_used, face_kept)


@validated(s=Int(2), r=Int(1), example={"s": 6, "r": 2})
def expected_max(s: int, r: int) -> Fraction:
    """Expected maximum of ``r`` rolls of an ``s``-sided die (the paper's Fig. 3).

    ``P(max <= k) = (k/s)^r``, so ``E = sum_k k [k^r - (k-1)^r] / s^r``. The
    paper's formula (4) prints the denominator as ``s``; it must be ``s^r``.

    Parameters
    ----------
    s : int
        Sides of the die (at least 2).
    r : int
        Number of rolls (at least 1).

    Returns
    -------
    Fraction

    Examples
    --------
    >>> expected_max(6, 2)
    Fraction(161, 36)
    """
    _check_power_sum_cost(s, r)
    return Fraction(sum(k * (k**r - (k - 1) ** r) for k in range(1, s + 1)), s**r)


@validated(r=Int(1), example={"r": 2})
def expected_max_formula(r: int):
    """``E_max(s, r)`` as a closed form in ``s``: a SymPy expression, for one fixed number of rolls ``r``.

    Summed symbolically from ``E = sum_{k=1}^{s} k [k^r - (k-1)^r] / s^r`` (Faulhaber's
    sums of powers) and factored; it equals :func:`expected_max` at every ``s >= 1``.

    Parameters
    ----------
    r : int
        Number of rolls (at least 1).

    Returns
    -------
    sympy.Expr
        A rational function of the symbol ``s`` (``sympy.Symbol("s", integer=True,
        positive=True)``, the number of sides).

    Examples
    --------
    >>> expected_max_formula(2)
    (s + 1)*(4*s - 1)/(6*s)
    >>> import sympy
    >>> s = sympy.Symbol("s", integer=True, positive=True)
    >>> expected_max_formula(3).subs(s, 6), expected_max(6, 3)
    (119/24, Fraction(119, 24))
    """
    # SymPy's Faulhaber sum and factoring of a degree-(r + 1) polynomial: measured 3 s at r = 40,
    # 66 s at r = 120, about 10^4 r^2.8 steps
    check_cost("r", r, steps=1e4 * min(r, 10**100) ** 2.8, what="the symbolic sum")
    return _expected_max_formula(r)


@cache
def _expected_max_formula(r: int):
    import sympy

    s = sympy.Symbol("s", integer=True, positive=True)
    k = sympy.Symbol("k", integer=True, positive=True)
    return sympy.factor(sympy.summation(k * (k**r - (k - 1) ** r), (k, 1, s)) / s**r)


@validated(s=Int(2), r=Int(1), example={"s": 6, "r": 2})
def optimal_value(s: int, r: int) -> Fraction:
    """``E(r, s)``: the expected face of the optimal one-die game with ``r`` rolls left (eqs. 13-14).

    Parameters
    ----------
    s : int
        Sides of the die (at least 2).
    r : int
        Rolls left, counting the one about to be made (at least 1).

    Returns
    -------
    Fraction

    Examples
    --------
    >>> optimal_value(6, 1), optimal_value(6, 2), optimal_value(6, 3)
    (Fraction(7, 2), Fraction(17, 4), Fraction(14, 3))
    """
    _check_optimal_cost("r", r, s, r)
    return _optimal(s, r)


@validated(s=Int(2), r=Int(1), example={"s": 6, "r": 2})
def max_reject(s: int, r: int) -> int:
    """The highest face the optimal player rolls again with ``r`` rolls left (0 when ``r = 1``).

    Optimal play takes the die when its face is at least ``E(r-1, s)``, so the
    highest face rejected is ``ceil(E(r-1, s)) - 1`` (a face equal to ``E(r-1, s)``
    is a tie; taking it is as good as rolling). The paper defines the cutoff as
    ``floor(E(r-1, s)) - 1``, one lower than its own tables whenever ``E(r-1, s)``
    is not an integer (:func:`dicelab.badg.reference.paper_cutoff`).

    Parameters
    ----------
    s : int
        Sides of the die (at least 2).
    r : int
        Rolls left (at least 1).

    Returns
    -------
    int

    Examples
    --------
    >>> [max_reject(6, r) for r in range(1, 6)]  # Fig. 4
    [0, 3, 4, 4, 4]
    """
    _check_optimal_cost("r", r, s, r - 1)
    return _max_reject(s, r)


@validated(s=Int(2), example={"s": 6, "reject_up_to": 3, "continuation": 3})
def value_with_cutoff(s: int, reject_up_to: int, continuation) -> Fraction:
    """Expected face of one roll that is rolled again at faces ``<= reject_up_to``.

    ``sum_{k > c} k/s + (c/s) * continuation``, with ``continuation`` the value of
    rolling again (the paper's eqs. 5 and 7-11).

    Parameters
    ----------
    s : int
        Sides of the die (at least 2).
    reject_up_to : int
        The cutoff ``c``, in ``0..s-1``.
    continuation : number
        The value of rolling again, in ``[1, s]``: an int, a ``Fraction`` or a finite
        float (converted to ``Fraction`` exactly).

    Returns
    -------
    Fraction

    Examples
    --------
    >>> value_with_cutoff(50, 31, optimal_value(50, 2))  # the paper's strategy B, eq. (8)
    Fraction(7053, 200)
    """
    c = check_int("reject_up_to", reject_up_to, 0, s - 1)
    return _value_with_cutoff(s, c, _check_fraction("continuation", continuation, 1, s))


def _check_fraction(name: str, value, low: int, high: int) -> Fraction:
    """``value`` as an exact ``Fraction`` in ``[low, high]``: a rational number (not a bool) or a
    finite float; anything else is refused with a ``ValueError`` naming ``name``."""
    if isinstance(value, numbers.Rational) and not isinstance(value, bool):
        exact = Fraction(value)
    else:
        exact = Fraction(check_float(name, value))
    if not low <= exact <= high:
        raise ValueError(f"{name} must be in [{low}, {high}], got {value!r}")
    return exact


@validated(s=Int(2), r_max=Int(1), example={"s": 6, "r_max": 3})
def strategy_table(s: int, r_max: int = 15) -> pd.DataFrame:
    """The paper's Figs. 4-7 for an ``s``-sided die: one row per number of rolls left.

    Parameters
    ----------
    s : int
        Sides of the die (at least 2).
    r_max : int
        The last row: rolls left ``1..r_max``.

    Returns
    -------
    pandas.DataFrame
        Indexed by ``rolls left``; columns ``max reject`` (``<NA>`` with one roll left:
        every face is taken), ``expected face`` ``E(r, s)`` and ``expected points``
        ``s - E(r, s)``, exact.

    Examples
    --------
    >>> strategy_table(6, 3)["expected face"].tolist()
    [Fraction(7, 2), Fraction(17, 4), Fraction(14, 3)]
    """
    # each row takes a ceiling and a difference of E(r, s) (a second pass over the fractions) and
    # builds a table row, about 10 microseconds
    _check_optimal_cost("r_max", r_max, s, r_max, passes=2, per_row=1000)
    rows = []
    for r in range(1, r_max + 1):
        value = _optimal(s, r)
        rows.append((r, _max_reject(s, r) if r > 1 else None, value, s - value))
    columns = ["rolls left", "max reject", "expected face", "expected points"]
    table = pd.DataFrame(rows, columns=columns).set_index("rolls left")
    table["max reject"] = table["max reject"].astype("Int64")  # <NA> with one roll left
    return table
