"""A turn played for points: the player may keep rolling the dice that did not score.

The paper's chain (and :func:`expected_turn_score`) lets a player reroll only when the
rules force it. In the game a player who is not forced may also *choose* to roll the dice
that did not score: each scoring roll adds points, a roll that scores nothing (a Wimpout)
loses every point of the turn. This module makes that choice a decision and solves it.

The turn as a Markov decision process
-------------------------------------
A turn is in one of two kinds of state, with ``p`` points made so far in the turn:

* a **forced** state, a :class:`~dicelab.wimpout.State` of :func:`turn_chain`: roll all five
  dice (``Roll 5``, perhaps with a Flash still to clear), or the one or two dice that clear a
  Flash. The rules leave no choice;
* a **choice**, :class:`Choice`: the last roll scored but not on every die, and no Flash is
  pending. The player banks ``p`` (*stop*) or rolls the ``white`` white dice and, if
  ``black``, the black die that did not score (*roll*).

One roll from any state leads, with probability ``ways / 6^n``, to a next state and adds
``gain`` points (:func:`turn_outcomes`); a Wimpout ends the turn with nothing, and so do the
instant results (five 6s, five 10s) for the points of a turn, as in the paper's chain.
Rolling the free dice follows the same scoring rules as any roll (:func:`score`): a Flash
among them must be cleared, dice that all score must be followed by all five.

Readings of the rules (beside those of :class:`Rules`):

* all scoring dice are set aside and every non-scoring die is rolled together (the player
  does not choose a subset);
* the sun that scores on its own counts ``rules.sun_value`` and is set aside (the paper's
  first assumption; the rules would also let a player reroll it);
* a player may bank only when the turn's points reach ``minimum`` (0 by default; 35 is the
  opening-roll rule of a player not yet on the board).

The Bellman equation
--------------------
With ``V(s, p)`` the largest expected points banked from state ``s`` with ``p`` points::

    V(c, p) = max(p, R(c, p))                  for a choice c (p only if p >= minimum)
    V(s, p) = R(s, p)                          for a forced state s
    R(s, p) = sum over outcomes  ways / 6^n * V(next, p + gain)

with ``V = 0`` at a Wimpout and at an instant result.

**Thresholds.** ``R(c, p) - p`` never increases with ``p``: the slope of ``R`` in ``p`` is the
probability that the points carried are banked, at most 1. So for each choice there is a
threshold ``T(c)``: roll below it, bank from it on.

**A cap above which banking is optimal.** If every choice banks from ``p`` on, the value of a
forced state is linear, ``V(s, p) = b(s) p + g(s)`` (``b`` the chance to bank; the paper's
chain). Rolling from a choice then gives ``R(c, p) = a(c) p + e(c)`` with ``a(c) < 1``, which
is at most ``p`` exactly when ``p >= e(c) / (1 - a(c))``. The cap is the first multiple of 5
at or past every such bound: above it banking is a best reply to banking, so the linear
values solve the Bellman equation there and the solver needs no guessed bound. Below the cap
the values are computed level by level, from high ``p`` down: every roll that does not
repeat its own state gains at least 5 points, and a roll that repeats it (the Flash face
rolled again) is solved by dividing by ``1 - P(repeat)``.

Examples
--------
>>> best = solve_turn()
>>> round(float(best.value), 4)
24.4543
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType

import numpy as np
from sympy import QQ
from sympy.polys.matrices import DomainMatrix

from dicelab.core.checks import check_int
from dicelab.core.spec import Check, validated
from dicelab.wimpout import _common
from dicelab.wimpout._common import ENDINGS as _ENDINGS
from dicelab.wimpout._common import RULES, check_roll
from dicelab.wimpout.records import AUTO_WIN, ROLL_5, Choice, Rules, State

__all__ = [
    "TurnSolution",
    "TurnTables",
    "turn_outcomes",
    "turn_step",
    "turn_states",
    "turn_tables",
    "solve_turn",
]


def _check_turn_state(name: str, s):
    if (
        isinstance(s, Choice)
        or isinstance(s, State)
        and not s.absorbing
        and (s.all_dice or len(s.flash) == 1)
    ):
        return s
    raise ValueError(
        f"{name} must be a Choice or a forced state of turn_chain() (Roll 5, or a Flash of one face "
        f"to clear), got {s!r}"
    )


@validated(s=Check(_check_turn_state, bad=(None, "Roll 5; No Flash", 3)), rules=RULES, example={"s": ROLL_5})
def turn_outcomes(s, rules: Rules = Rules()):
    """Every roll from ``s`` (a forced :class:`State` of :func:`turn_chain` or a :class:`Choice`,
    rolled), tallied by (next state, points gained): a read-only mapping to the number of rolls.

    The counts sum to ``6 ** n`` for the ``n`` dice rolled.

    >>> out = turn_outcomes(Choice(1, False))     # one white die: 5 or 10 scores, else Wimpout
    >>> {(str(k), g): n for (k, g), n in out.items()}
    {('Wimpout', 0): 4, ('Roll 5; No Flash', 5): 1, ('Roll 5; No Flash', 10): 1}
    """
    return _common.turn_outcomes(s, rules)


@validated(
    s=Check(_check_turn_state, bad=(None, "Roll 5; No Flash", 3, AUTO_WIN)),
    rules=RULES,
    example={"s": ROLL_5, "roll": (5, 2, 3, 4, 6)},
)
def turn_step(s, roll, *, rules: Rules = Rules()) -> tuple:
    """Where one roll leads in a turn played for points: ``(next state, points gained)``.

    ``s`` is a forced state of :func:`turn_chain` (its dice must be rolled) or a :class:`Choice`
    (its free dice rolled instead of banking); ``roll`` lists the faces of those dice, white
    first, the black die last. A roll the paper's chain would stop on leads to the
    :class:`Choice` of the dice that did not score.

    >>> turn_step(ROLL_5, (5, 2, 3, 4, 6))     # one 5: bank 5, or roll the other four
    (Choice(white=3, black=True), 5)
    >>> turn_step(Choice(1, False), (2,))
    (State(white=0, black=False, flash=(), end='Wimpout'), 0)
    """
    roll, _ = check_roll(roll, s.black)
    if len(roll) != s.n_dice:
        raise ValueError(f"roll: {s} rolls {s.n_dice} dice (the black die last), got {len(roll)}: {roll!r}")
    return _common.turn_step(s, roll, rules)


@validated(rules=RULES)
def turn_states(rules: Rules = Rules()) -> tuple:
    """Every state a turn can reach from ``Roll 5``: the forced states, then the choices.

    >>> states = turn_states()
    >>> sum(isinstance(s, Choice) for s in states), sum(isinstance(s, State) for s in states)
    (8, 31)
    """
    found = _common.turn_states(rules)
    return tuple(s for s in found if isinstance(s, State)) + tuple(
        sorted(s for s in found if isinstance(s, Choice))
    )


def _check_points(name: str, points) -> int:
    points = check_int(name, points, 0)
    if points % 5:
        raise ValueError(f"{name}: a turn's points are a multiple of 5, got {points}")
    return points


@dataclass(frozen=True)
class TurnSolution:
    """The best way to play a turn for points (:func:`solve_turn`).

    A state of the turn is a pair ``(s, points)``: ``s`` one of :func:`turn_states` (or an
    ending), ``points`` the points made so far in the turn (a multiple of 5).

    ``start``: ``(ROLL_5, 0)`` (all the dice rolled, ``rules.roll_all``); ``value``: the largest
    expected points banked in a turn, from ``start``; ``value_at((s, points))``: the same from
    any state; ``values``: the value table below the cap, ``values[s][points // 5]`` (from the
    cap on the values are linear, see :meth:`value_at`); ``thresholds`` (also ``policy``): for
    each :class:`Choice`, the smallest points from which banking is best (roll below it);
    ``best_action((s, points))``: ``"bank"`` or ``"roll"``.

    Also: ``cap``: from these points on every choice banks and the values are linear (see the
    module docstring); ``stop_when_allowed``: the paper's policy's value, for comparison;
    ``bank_chance``: for each forced state, the chance ``b(s)`` that the points held are banked
    when every choice banks (the paper's policy); ``bounds``: for each choice, ``e / (1 - a)``,
    the points from which banking beats rolling once every later choice banks (the cap is the
    first multiple of 5 past them all); ``minimum``: the least points a player may bank.
    """

    value: Fraction
    thresholds: MappingProxyType
    cap: int
    stop_when_allowed: Fraction
    bank_chance: MappingProxyType
    bounds: MappingProxyType
    minimum: int
    rules: Rules
    _values: MappingProxyType

    @property
    def start(self) -> tuple:
        return (self.rules.roll_all, 0)

    @property
    def policy(self) -> MappingProxyType:
        """Optimal play: at each choice, bank from these points on (:attr:`thresholds`)."""
        return self.thresholds

    @property
    def values(self) -> MappingProxyType:
        """``values[s][points // 5]``: the value of ``(s, points)`` for points below :attr:`cap`."""
        return MappingProxyType({s: v["below"] for s, v in self._values.items()})

    def _state(self, name: str, state) -> tuple:
        if not isinstance(state, tuple) or len(state) != 2:
            raise ValueError(f"{name} must be a pair (s, points), such as (ROLL_5, 0), got {state!r}"[:200])
        s, points = state
        if not isinstance(s, Choice | State) or not (s in _ENDINGS or s in self._values):
            raise ValueError(f"{name}: s must be one of turn_states(), or an ending, got {s!r}")
        return s, _check_points(name, points)

    def value_at(self, state) -> Fraction:
        """The largest expected points banked from ``state = (s, points)``, ``points`` made so far.

        >>> best = solve_turn()
        >>> best.value_at((Choice(1, False), 0))   # one white die, nothing to lose: roll it
        Fraction(...)
        """
        s, points = self._state("state", state)
        if s in _ENDINGS:
            return Fraction(0)
        if points >= self.cap:
            b, g = self._values[s]["linear"]
            return Fraction(points) if isinstance(s, Choice) else b * points + g
        return self._values[s]["below"][points // 5]

    def best_action(self, state) -> str:
        """What the best play does at ``state = (s, points)``: ``"bank"`` or ``"roll"`` (a forced
        state always rolls; an ending has no action, ``None``).

        >>> solve_turn().best_action((Choice(1, False), 10)), solve_turn().best_action((Choice(1, False), 15))
        ('roll', 'bank')
        """
        s, points = self._state("state", state)
        if s in _ENDINGS:
            return None
        if isinstance(s, State):
            return "roll"
        return "roll" if points < self.thresholds[s] else "bank"

    def roll_value(self, c: Choice, points: int) -> Fraction:
        """The expected points banked if the player rolls the free dice of ``c`` now (and plays
        best afterwards), whether or not rolling is best.

        >>> best = solve_turn()
        >>> best.roll_value(Choice(1, False), 0) > 0
        True
        """
        if not isinstance(c, Choice) or c not in self._values:
            raise ValueError(f"c must be a Choice, such as Choice(2, True), got {c!r}")
        points = _check_points("points", points)
        if points >= self.cap:
            a, e = self._values[c]["rolling_line"]
            return a * points + e
        return self._values[c]["rolling"][points // 5]


def _linear(states: tuple, rules: Rules):
    """``(b, g)`` with ``V(s, p) = b p + g`` for the forced states when every choice banks.

    One roll gives ``b = Q b + r_b`` and ``g = Q g + r_g``: ``r_b`` the chance to reach a
    choice (and bank) at once, ``r_g`` the points gained times the ``b`` of where they lead.
    Both are solved exactly with one factorisation of ``I - Q`` over the rationals.
    """
    forced = [s for s in states if isinstance(s, State)]
    index = {s: k for k, s in enumerate(forced)}
    n = len(forced)
    A = [[QQ(int(i == j)) for j in range(n)] for i in range(n)]
    r_b = [[QQ(0)] for _ in range(n)]
    for s in forced:
        total = 6**s.n_dice
        for (nxt, _gain), ways in _common.turn_outcomes(s, rules).items():
            if nxt in index:
                A[index[s]][index[nxt]] -= QQ(ways, total)
            elif isinstance(nxt, Choice):
                r_b[index[s]][0] += QQ(ways, total)
    lu = DomainMatrix(A, (n, n), QQ)
    b_col = lu.lu_solve(DomainMatrix(r_b, (n, 1), QQ)).to_list_flat()
    b = {s: Fraction(int(x.numerator), int(x.denominator)) for s, x in zip(forced, b_col, strict=True)}
    r_g = [[QQ(0)] for _ in range(n)]
    for s in forced:
        total = 6**s.n_dice
        for (nxt, gain), ways in _common.turn_outcomes(s, rules).items():
            to_bank = 1 if isinstance(nxt, Choice) else b.get(nxt, 0)
            r_g[index[s]][0] += QQ(ways * gain, total) * QQ(to_bank.numerator, to_bank.denominator)
    g_col = lu.lu_solve(DomainMatrix(r_g, (n, 1), QQ)).to_list_flat()
    g = {s: Fraction(int(x.numerator), int(x.denominator)) for s, x in zip(forced, g_col, strict=True)}
    return b, g


@validated(rules=RULES)
def banking_lines(rules: Rules = Rules()) -> MappingProxyType:
    """Each forced state's value when every choice banks: ``{s: (b, g)}``, ``V(s, p) = b p + g``.

    ``b(s)`` is the chance that the points held are banked (the chain's chance to reach Score and
    Stop, :func:`turn_chain`) and ``g(s)`` the points still to come, on average: exact fractions,
    the solution of one roll's equations (:func:`solve_turn` works down from these lines).

    >>> b, g = banking_lines()[ROLL_5]
    >>> round(float(b), 4), round(float(g), 4)
    (0.7719, 19.2177)
    """
    b, g = _linear(_common.turn_states(rules), rules)
    return MappingProxyType({s: (b[s], g[s]) for s in b})


def _rolling_lines(states: tuple, rules: Rules, b: dict, g: dict) -> dict:
    """``{choice: (a, e)}``: rolling from a choice is worth ``a p + e`` when every later choice banks."""
    lines = {}
    for c in states:
        if not isinstance(c, Choice):
            continue
        a = e = Fraction(0)
        for (nxt, gain), ways in _common.turn_outcomes(c, rules).items():
            pr = Fraction(ways, 6**c.n_dice)
            if isinstance(nxt, Choice):
                a, e = a + pr, e + pr * gain
            elif nxt not in _ENDINGS:
                a, e = a + pr * b[nxt], e + pr * (b[nxt] * gain + g[nxt])
        lines[c] = (a, e)
    return lines


def _check_minimum(name: str, minimum) -> int:
    minimum = check_int(name, minimum, 0, 10_000)
    if minimum % 5:
        raise ValueError(f"{name}: a turn's points are a multiple of 5, got {minimum}")
    return minimum


@validated(
    rules=RULES,
    minimum=Check(_check_minimum, bad=(-1, 7, 10_005, 2.0, "3", True, None)),
    example={"rules": Rules(), "minimum": 0},
)
def solve_turn(rules: Rules = Rules(), *, minimum: int = 0) -> TurnSolution:
    """The turn played for points: the policy that banks the most points on average, exactly.

    Parameters
    ----------
    rules : Rules
        The readings of the rules.
    minimum : int
        The least points a player may bank (a multiple of 5; 35 for a player not yet on the
        board under the opening-roll rule). Below it, stopping banks nothing.

    Returns
    -------
    TurnSolution

    Examples
    --------
    >>> best = solve_turn()
    >>> {c.dice: t for c, t in best.thresholds.items()}["1W"]
    15
    """
    return _solve(rules, minimum, None)


def _solve(rules: Rules, minimum: int, cap: int | None) -> TurnSolution:
    """:func:`solve_turn` of checked arguments; ``cap`` raises the proven cap (for tests)."""
    states, start = _common.turn_states(rules), rules.roll_all
    b, g = _linear(states, rules)
    lines = _rolling_lines(states, rules, b, g)
    bounds = {c: e / (1 - a) for c, (a, e) in lines.items()}  # a p + e <= p from here on
    cap = max(5 * math.ceil(max([minimum, *bounds.values()]) / 5), cap or 0)
    levels = cap // 5
    below = {s: [Fraction(0)] * levels for s in states}
    rolling = {c: [Fraction(0)] * levels for c in lines}
    thresholds = {c: cap for c in states if isinstance(c, Choice)}

    def value(nxt, q: int) -> Fraction:
        if nxt in _ENDINGS:
            return Fraction(0)
        if q < cap:
            return below[nxt][q // 5]
        return Fraction(q) if isinstance(nxt, Choice) else b[nxt] * q + g[nxt]

    for level in range(levels - 1, -1, -1):
        p = 5 * level
        for s in sorted(states, key=lambda s: isinstance(s, Choice)):  # forced first: choices read them
            total, repeat, acc = 6**s.n_dice, 0, Fraction(0)
            for (nxt, gain), ways in _common.turn_outcomes(s, rules).items():
                if nxt == s and gain == 0:
                    repeat += ways
                else:
                    acc += ways * value(nxt, p + gain)
            roll = acc / (total - repeat)
            if isinstance(s, Choice):
                rolling[s][level] = roll
                bank = Fraction(p) if p >= minimum else Fraction(0)
                if bank >= roll and thresholds[s] == p + 5:
                    thresholds[s] = p  # banking is best from p on (ties bank)
                roll = max(roll, bank)
            below[s][level] = roll
    values = {s: {"below": tuple(below[s]), "linear": (b.get(s, 1), g.get(s, 0))} for s in states}
    for c, (a, e) in lines.items():
        values[c] |= {"rolling": tuple(rolling[c]), "rolling_line": (a, e)}
    return TurnSolution(
        value=below[start][0] if levels else g[start],
        thresholds=MappingProxyType(dict(sorted(thresholds.items()))),
        cap=cap,
        stop_when_allowed=g[start],
        bank_chance=MappingProxyType(b),
        bounds=MappingProxyType(dict(sorted(bounds.items()))),
        minimum=minimum,
        rules=rules,
        _values=MappingProxyType(values),
    )


@dataclass(frozen=True)
class TurnTables:
    """:func:`turn_outcomes` of every state as flat integer arrays, for array and numba solvers.

    ``states``: as :func:`turn_states` (forced states first, then the choices); the endings
    are numbered after them: ``WIMPOUT``, ``AUTO_WIN``, ``AUTO_LOSE`` (``n_states`` + 0, 1, 2).
    Outcome ``k`` of state ``i`` (for ``start[i] <= k < start[i + 1]``) leads to ``next[k]``,
    gains ``gain[k]`` points in units of 5, in ``ways[k]`` of the ``6 ** n_dice[i]`` rolls;
    a roll that repeats its own state with no gain is not listed but counted in
    ``repeat[i]``. ``is_choice[i]`` marks the choices.
    """

    states: tuple
    start: np.ndarray
    next: np.ndarray
    gain: np.ndarray
    ways: np.ndarray
    repeat: np.ndarray
    n_dice: np.ndarray
    is_choice: np.ndarray


@validated(rules=RULES)
def turn_tables(rules: Rules = Rules()) -> TurnTables:
    """Every state's outcomes as arrays (see :class:`TurnTables`).

    >>> t = turn_tables()
    >>> int(t.ways[t.start[0]:t.start[1]].sum() + t.repeat[0]) == 6 ** 5
    True
    """
    states = turn_states(rules)
    index = {s: k for k, s in enumerate(states)} | {e: len(states) + k for k, e in enumerate(_ENDINGS)}
    start, nxt, gain, ways, repeat = [0], [], [], [], []
    for s in states:
        rep = 0
        for (to, g), n in sorted(
            _common.turn_outcomes(s, rules).items(), key=lambda kv: (index[kv[0][0]], kv[0][1])
        ):
            if to == s and g == 0:
                rep += n
                continue
            nxt.append(index[to])
            gain.append(g // 5)
            ways.append(n)
        repeat.append(rep)
        start.append(len(nxt))
    return TurnTables(
        states=states,
        start=np.array(start, dtype=np.int64),
        next=np.array(nxt, dtype=np.int64),
        gain=np.array(gain, dtype=np.int64),
        ways=np.array(ways, dtype=np.int64),
        repeat=np.array(repeat, dtype=np.int64),
        n_dice=np.array([s.n_dice for s in states], dtype=np.int64),
        is_choice=np.array([isinstance(s, Choice) for s in states]),
    )


def _plain_float_iteration(top: int = 1500, rules: Rules = Rules()) -> float:
    """The best turn's expected points by plain float value iteration over (state, points below
    ``top``), levels from the top down, a repeated roll iterated to its fixed point, and no cap
    theory (above ``top`` a choice banks and a forced state is worth nothing): the independent
    method the exact solver is tested and timed against. Truncation costs about 1e-8 at 1,500.
    """
    states, V = _common.turn_states(rules), {}

    def value(nxt, q):
        if nxt in _ENDINGS:
            return 0.0
        return V.get((nxt, q), float(q) if isinstance(nxt, Choice) else 0.0)

    for p in range(top - 5, -1, -5):
        for s in states:
            out = _common.turn_outcomes(s, rules)
            rest = sum(n * value(nxt, p + g) for (nxt, g), n in out.items() if (nxt, g) != (s, 0))
            repeat, x = out.get((s, 0), 0), 0.0
            for _ in range(400):
                x = (rest + repeat * x) / 6**s.n_dice
            V[s, p] = max(x, p) if isinstance(s, Choice) else x
    return V[rules.roll_all, 0]
