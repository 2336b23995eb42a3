"""The race's exact reference: :func:`exact_race` solves the race to a small target in fractions.

It runs the race's kernels in ``Fraction`` (their ``py_func``) and solves each level's two
equations exactly: the floats of :func:`~dicelab.wimpout.solve_race` are tested against it on
small targets. (Games played with dice, the other check of the race, are
:func:`~dicelab.wimpout.simulate_race`.)

>>> from dicelab.wimpout import reference
>>> reference.exact_race(5, minimum=0, horizon=150).value
Fraction(...)
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from dicelab.core.checks import check_cost
from dicelab.core.spec import Check, validated
from dicelab.wimpout import _kernels
from dicelab.wimpout._common import RULES
from dicelab.wimpout._race_tables import HORIZON, MINIMUM, STEPS_PER_LEVEL, TARGET, horizon_units, tables
from dicelab.wimpout.race import solve_race
from dicelab.wimpout.records import Rules

__all__ = ["ExactRace", "exact_race"]


@dataclass(frozen=True, eq=False)
class ExactRace:
    """The optimal race solved exactly: ``values[i // 5, j // 5]`` as fractions (an object array).

    ``newton_steps``: the most exact solves one level needed; ``value = values[0, 0]``, the first
    player's win chance.
    """

    target: int
    minimum: int
    horizon: int
    values: np.ndarray
    newton_steps: int

    @property
    def value(self) -> Fraction:
        return self.values[0, 0]


def _check_given_horizon(name: str, horizon) -> int:
    if horizon is None:
        raise ValueError(f"{name} must be given in points (exact tables grow with it), such as 200")
    return HORIZON(name, horizon)


@validated(
    target=TARGET,
    minimum=MINIMUM,
    horizon=Check(_check_given_horizon, bad=(None, *HORIZON.bad)),
    rules=RULES,
)
def exact_race(
    target: int = 20, *, minimum: int = 35, horizon: int = 200, rules: Rules = Rules()
) -> ExactRace:
    """The optimal race to a small target solved exactly, in fractions.

    Runs the kernels of :func:`solve_race` in ``Fraction``. A level's two values are a fixed
    point of piecewise-linear maps: starting from the float solution, each step fixes the
    choices that are best at the current values, solves the two linear equations exactly, and
    stops when the choices best at the solution give back the solution (the Bellman equation
    holds exactly). The horizon is part of the model (see the module docstring).

    Parameters
    ----------
    target : int
        The target score (a multiple of 5).
    minimum : int
        The opening rule's minimum (0: none).
    horizon : int
        Last Licks needs are tabulated up to this many points.
    rules : Rules
        The readings of the rules.

    Returns
    -------
    ExactRace

    Examples
    --------
    >>> ex = exact_race(5, minimum=0, horizon=150)
    >>> abs(float(ex.value) - solve_race(5, minimum=0, horizon=150).value) < 1e-12
    True
    """
    NH = horizon_units(minimum, horizon, rules)
    g, m = target // 5, minimum // 5
    check_cost(
        "target",
        target,
        memory=1e4 * (g + NH) * 42,
        steps=2e3 * STEPS_PER_LEVEL * g * g * (g + NH),
        what="an exact solution in fractions",
    )
    check_cost("horizon", horizon, steps=2e3 * STEPS_PER_LEVEL * NH * NH, what="exact Last Licks tables")
    guess = solve_race(target, minimum=minimum, horizon=5 * NH, rules=rules)
    tb = tables(rules, m, NH, True)
    S, nf = tb["S"], tb["nf"]
    V, D = _kernels.scratch(g + NH + 102, S, S - nf, exact=True)
    D2 = D.copy()  # the choices of the other player of the level
    W = np.full((g, g), Fraction(1, 2), dtype=object)
    turn, top = _kernels.turn_value.py_func, _kernels.top_level.py_func

    def value(a, o, x, D):
        """The mover's exact win chance at ``(a, o)`` when a Wimpout is worth ``x`` to them, and
        ``F(0)`` with the choices best at ``x`` (the turn is linear in ``x`` with them fixed)."""
        oz = int(o > 0)
        Q = top(a, o, 1 - x, g, m, tb["WSTAR2"][oz])
        if Q < 0:
            raise ValueError(f"horizon={5 * NH} is too short: past it no total is safe to bank; raise it")
        kit = (g, m, W, tb["tab"], tb["LT2"][oz], tb["MT2"][oz], Q, D)
        fx = turn(a, o, x, *kit, True, V)
        return fx, (lambda: turn(a, o, Fraction(0), *kit, False, V))

    most = 0
    for level in range(2 * g - 2, -1, -1):
        for i in range(max(0, level - g + 1), level // 2 + 1):
            j = level - i
            u, v = Fraction(guess.values[i, j]), Fraction(guess.values[j, i])
            for steps in range(1, 51):  # noqa: B007 (the count is kept below)
                fu, f0u = value(i, j, 1 - v, D)
                fv, f0v = value(j, i, 1 - u, D2) if i != j else (fu, f0u)
                if (fu, fv) == (u, v):  # the Bellman equations hold exactly
                    break
                a1 = f0u()  # F(x) = a + b x with the choices best at x
                b1 = (fu - a1) / (1 - v)
                if i == j:
                    u = v = (a1 + b1) / (1 + b1)
                    continue
                a2 = f0v()
                b2 = (fv - a2) / (1 - u)
                u = (a1 + b1 - b1 * (a2 + b2)) / (1 - b1 * b2)
                v = a2 + b2 * (1 - u)
            else:
                raise ArithmeticError(f"the exact solve of level {level} did not settle in 50 steps")
            W[i, j], W[j, i] = u, v
            most = max(most, steps)
    return ExactRace(target, minimum, 5 * NH, W, most)
