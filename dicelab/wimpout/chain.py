"""A turn as an absorbing Markov chain: states as records, one transition rule (:func:`step`),
the paper's chain and the finer one that keeps each Flash's face."""

from __future__ import annotations

import numbers
from collections.abc import Mapping
from fractions import Fraction

from dicelab.core.checks import check_choice, check_int
from dicelab.core.markov import AbsorbingChain
from dicelab.core.spec import Bool, Check, Int, Text, validated
from dicelab.wimpout import _common
from dicelab.wimpout._common import RULES, check_roll
from dicelab.wimpout.dice import all_rolls
from dicelab.wimpout.records import (
    ABSORBING,
    CLEARING,
    ROLL_5,
    STOP,
    TRANSIENT,
    WHITE_FACES,
    Outcome,
    Rules,
    State,
    Step,
)

_BY_NAME = {str(s): s for s in TRANSIENT + ABSORBING}


@validated(name=Text(), example={"name": "Roll 5; No Flash"})
def state(name: str) -> State:
    """The chain state with the paper's name ``name``.

    >>> state("Flash 5, 10; Reroll 2W")
    State(white=2, black=False, flash=(5, 10), end='')
    """
    try:
        return _BY_NAME[name]
    except KeyError:
        raise ValueError(
            f"name must be the name of one of the 21 states of the chain ({', '.join(_BY_NAME)}), "
            f"got {name!r}"
        ) from None


def _check_transient(name: str, s) -> State:
    """``s`` if it is a transient :class:`State`, or a ValueError naming ``name``."""
    if not isinstance(s, State):
        raise ValueError(f"{name} must be a State, one of the transient states (e.g. ROLL_5), got {s!r}")
    if s.absorbing:
        raise ValueError(f"{name} must be one of the transient states: {s} is absorbing, no roll leaves it")
    return s


def _check_face(name: str, face) -> int:
    """``face`` if it is a face of a white die (2, 3, 4, 5, 6, 10), or a ValueError naming ``name``."""
    return check_choice(name, check_int(name, face, 2, 10), WHITE_FACES)


@validated(
    face=Check(_check_face, bad=(7, 1, 11, 2.0, "3", True, None)),
    white=Int(0, 4),
    black=Bool(),
    rules=RULES,
    example={"face": 4, "white": 1, "black": True},
)
def clearing_state(face: int, white: int, black: bool, *, rules: Rules = Rules()) -> State:
    """The state that clears a Flash of ``face`` by rolling these dice next (all of them: the
    Flash is rolled again with every die, ``rules.white_dice`` white ones and the black one).

    >>> str(clearing_state(4, 1, True))
    'Flash 2, 4, 6; Reroll 1B, 1W'
    """
    if white > rules.white_dice:
        raise ValueError(f"white: the game has {rules.white_dice} white dice, got {white}")
    return _common.clearing_state(face, white, black, rules.white_dice)


def _face_of(s: State, face) -> int | None:
    """The Flash face to clear from ``s``: ``face`` checked against the state, or the state's first."""
    if face is None:
        return s.face
    if not s.flash:
        raise ValueError(f"face must be None for state {str(s)!r}: no Flash is pending, got {face!r}")
    if isinstance(face, bool) or not isinstance(face, numbers.Integral) or face not in s.flash:
        raise ValueError(f"face must be one of {s.flash} for state {str(s)!r}, got {face!r}")
    return int(face)


_TRANSIENT = Check(_check_transient, bad=(None, "Roll 5; No Flash", 3, 2.5, (4, True), STOP))


@validated(s=_TRANSIENT, rules=RULES, example={"s": ROLL_5, "roll": (5, 2, 3, 4, 6)})
def step(s: State, roll, *, face: int | None = None, rules: Rules = Rules()) -> Step:
    """The one transition rule of the chain: where ``roll`` of the dice of ``s`` leads.

    Under the paper's assumptions: reroll only when forced, clear with the black die.
    ``face`` is the Flash to clear (default: the first face of the state's group). The roll
    is scored once, by :func:`score`. While a Flash of 5s or 10s is to be cleared, a sun
    that scores on its own takes the *other* value (it is wild: valued as the Flash's face
    it would repeat the Flash), so clearing a Flash of 10s with the sun scores 5.

    >>> from dicelab.wimpout import ROLL_5
    >>> step(ROLL_5, (3, 3, 3, 5, 6))      # a Flash of 3s: clear it with the black die
    Step(state=State(white=0, black=True, flash=(3,), end=''), points=35, flash=3)
    >>> from dicelab.wimpout import SUN
    >>> step(state("Flash 3; Reroll 1B"), (SUN,)).state == ROLL_5   # scored on all five
    True
    >>> step(state("Flash 5, 10; Reroll 1B"), (SUN,), face=10).points
    5
    """
    face = _face_of(s, face)
    roll, _ = check_roll(roll, s.black)
    if len(roll) != s.n_dice:
        raise ValueError(f"roll: state {s} rolls {s.n_dice} dice, got the roll {roll!r}")
    return _common.step(s, roll, face, rules)


def _check_state(name: str, s) -> State:
    if not isinstance(s, State):
        raise ValueError(f"{name} must be a State, such as ROLL_5, got {s!r}")
    return s


@validated(s=Check(_check_state, bad=(None, "Roll 5; No Flash", 3, 2.5, (4, True))), example={"s": ROLL_5})
def rolls(s: State):
    """Every ordered roll of the dice ``s`` rolls (6, 36 or 7,776 of them; white dice first).

    >>> len(list(rolls(state("Flash 3; Reroll 1B, 1W"))))
    36
    """
    return all_rolls(s.white, s.black)


def by_face(st: Step) -> State:
    """The state a step leads to, with the Flash to clear given by its own face, not its group.

    >>> from dicelab.wimpout import ROLL_5
    >>> str(by_face(step(ROLL_5, (5, 5, 5, 2, 6))))
    'Flash 5; Reroll 1B, 1W'
    """
    if not isinstance(st, Step):
        raise ValueError(f"st must be a Step, as step returns, got {st!r}")
    return _common.by_face(st)


@validated(s=_TRANSIENT, rules=RULES, faces=Bool(), example={"s": ROLL_5})
def step_outcomes(
    s: State, rules: Rules = Rules(), *, face: int | None = None, faces: bool = False
) -> Mapping[State, Outcome]:
    """Every roll of one step from ``s`` through :func:`step`, tallied by next state.

    The ways sum to ``6 ** s.n_dice``; the points are totals over those rolls. The table is
    computed once per state and rules (cached, read-only) and feeds the chain, the expected
    turn score and the checks, so each roll is scored once. With ``faces=True`` the next
    states keep the Flash's own face (:func:`by_face`), as :func:`turn_chain` needs.

    >>> out = step_outcomes(state("Flash 2, 4, 6; Reroll 1B, 1W"))   # the paper's Table 5
    >>> {str(k): v.ways for k, v in out.items()}
    {'Flash 2, 4, 6; Reroll 1B, 1W': 11, 'Score and Stop': 13, 'Wimpout': 6, 'Roll 5; No Flash': 6}
    """
    return _common.step_outcomes(s, rules, _face_of(s, face), faces)


def clear_caches() -> None:
    """Forget the remembered roll scores, step tables and turn outcomes (to time a computation
    from cold).

    >>> clear_caches()
    """
    _common.clear_caches()


def _paper_states(rules: Rules) -> tuple:
    """The transient states of the paper's chain, in the paper's order: those a turn reaches when
    the game has fewer dice (:class:`Rules`)."""
    if rules.white_dice == 4:
        return TRANSIENT
    start = rules.roll_all
    seen, order = {start}, [start]
    for s in order:
        for nxt in _common.step_outcomes(s, rules, s.face, False):
            if not nxt.absorbing and nxt not in seen:
                seen.add(nxt)
                order.append(nxt)
    all_dice = sorted((s for s in seen if s.all_dice and s.flash), key=lambda s: s.flash)
    return tuple(s for s in CLEARING if s in seen) + tuple(all_dice) + (start,)


@validated(rules=RULES)
def markov_chain(rules: Rules = Rules()) -> AbsorbingChain:
    """The paper's 21-state absorbing chain (Table 6), every probability derived from :func:`step`
    (with fewer dice, :class:`Rules`, the states such a turn reaches, grouped as the paper groups).

    >>> from dicelab.wimpout import ROLL_5, WIMPOUT
    >>> chain = markov_chain()
    >>> chain.absorption_probability(ROLL_5, WIMPOUT)
    Fraction(...)
    """
    transient = _paper_states(rules)
    names = transient + ABSORBING
    P = [[Fraction(0)] * len(names) for _ in names]
    for i, s in enumerate(transient):
        total = 6**s.n_dice
        for nxt, out in _common.step_outcomes(s, rules, s.face, False).items():
            P[i][names.index(nxt)] = Fraction(out.ways, total)
    for i in range(len(transient), len(names)):
        P[i][i] = Fraction(1)
    return AbsorbingChain(P, states=names)


@validated(rules=RULES)
def turn_chain(rules: Rules = Rules()) -> AbsorbingChain:
    """The chain of a turn with each Flash kept by its own face: the states a turn can reach.

    The paper's chain groups Flash faces whose rerolls behave alike; the grouping is exact
    for the probabilities (this chain lumps onto :func:`markov_chain`), but not for the
    points: clearing a Flash of 5s with a 10 scores 10, clearing one of 10s with a 5 scores 5.
    So the expected score of a turn is computed on this finer chain.

    >>> chain = turn_chain()
    >>> len(chain.transient), len(chain.absorbing)
    (31, 4)
    """
    start = rules.roll_all
    seen, order = {start}, [start]
    for s in order:
        for nxt in _common.step_outcomes(s, rules, s.face, True):
            if not nxt.absorbing and nxt not in seen:
                seen.add(nxt)
                order.append(nxt)
    names = order + list(ABSORBING)
    index = {s: k for k, s in enumerate(names)}
    P = [[Fraction(0)] * len(names) for _ in names]
    for i, s in enumerate(order):
        for nxt, out in _common.step_outcomes(s, rules, s.face, True).items():
            P[i][index[nxt]] = Fraction(out.ways, 6**s.n_dice)
    for i in range(len(order), len(names)):
        P[i][i] = Fraction(1)
    return AbsorbingChain(P, states=names)
