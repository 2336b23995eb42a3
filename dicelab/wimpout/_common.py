"""The internals the Cosmic Wimpout modules share: the rules engine without its argument checks.

Every public function of :mod:`dicelab.wimpout` checks its arguments, then calls these on checked
values; they are remembered (cached) where the same rolls are scored again and again:

* the argument checks of a roll, a rules record and a written roll: :func:`check_rules`,
  :data:`RULES` (its declared spec), :func:`check_roll`, :func:`parse_roll`;
* the scoring of one roll: :func:`score_roll`, and :func:`scored`, the same remembered;
* one roll of the paper's chain: :func:`step`, tallied over every roll by :func:`step_outcomes`;
  a Flash kept by its own face: :func:`by_face`, :func:`state_of`, :func:`clearing_state`;
* one roll of a turn played for points: :func:`choice_step` (the free dice rolled at a choice),
  :func:`forced_step` (a roll the rules force), tallied by :func:`turn_outcomes`; the states a
  turn reaches: :func:`turn_states`;
* :func:`roll_dice`: the dice of a state rolled at random (the simulations' one stream of draws);
* :func:`clear_caches` forgets every remembered table.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import math
import numbers
from collections import Counter
from types import MappingProxyType

from dicelab.core.checks import check_sequence
from dicelab.core.spec import Check
from dicelab.wimpout.records import (
    AUTO_LOSE,
    AUTO_WIN,
    BLACK_FACES,
    CLEARING,
    ROLL_5,
    SCORING,
    STOP,
    SUN,
    WHITE_FACES,
    WIMPOUT,
    Choice,
    Outcome,
    Rules,
    Score,
    State,
    Step,
)

ENDINGS = (WIMPOUT, AUTO_WIN, AUTO_LOSE)  # the ends of a turn played for points, besides banking


# --------------------------------------------------------------------------- argument checks


def check_rules(name: str, rules) -> Rules:
    """``rules`` if it is a :class:`Rules` record, or a ValueError naming ``name``."""
    if not isinstance(rules, Rules):
        raise ValueError(f"{name} must be a Rules record, such as Rules(sun_value=5), got {rules!r}")
    return rules


RULES = Check(check_rules, bad=(None, "max", 10, {"sun_value": 5}, (10, True, "max"), ROLL_5))
"""The declared spec of a ``rules`` argument (:func:`dicelab.core.spec.validated`)."""


def is_face(f, faces) -> bool:
    """Whether ``f`` is one of ``faces``: the sun itself, or an integer (not a bool, not 5.0)."""
    if f is SUN:
        return SUN in faces
    return isinstance(f, numbers.Integral) and not isinstance(f, bool) and f in faces


def check_roll(roll, has_black, name: str = "roll"):
    """``(roll as a tuple, has_black)``, or a ValueError naming ``name``: 1 to 5 faces, white dice
    first, the black die last (when ``has_black``; by default when five dice or the sun is last)."""
    roll = check_sequence(name, roll, what="faces", nonempty=False)
    if not 1 <= len(roll) <= 5:
        raise ValueError(f"{name}: a roll has 1 to 5 dice, got {len(roll)}: {roll!r}")
    if has_black is None:
        has_black = len(roll) == 5 or roll[-1] is SUN
    whites = roll[:-1] if has_black else roll
    if len(whites) > 4:
        raise ValueError(f"{name}: there are only four white dice, got {len(whites)} in {roll!r}")
    for f in whites:
        if not is_face(f, WHITE_FACES):
            raise ValueError(f"{name}: {f!r} is not a face of a white die (faces {WHITE_FACES}) in {roll!r}")
    if has_black and not is_face(roll[-1], BLACK_FACES):
        raise ValueError(
            f"{name}: {roll[-1]!r} is not a face of the black die (2, SUN, 4, 5, 6, 10) in {roll!r}"
        )
    return roll, has_black


def tokens(text: str, name: str) -> tuple:
    """The faces written in ``text`` (any number of them), or a ValueError naming ``name``."""
    out = []
    for token in text.replace(",", " ").split():
        if token == "*":
            out.append(SUN)
        elif token.isascii() and token.isdigit() and int(token) in WHITE_FACES:
            out.append(int(token))
        else:
            raise ValueError(
                f"{name}: {token!r} is not a face (2, 3, 4, 5, 6, 10 or * for the sun) in {text!r}"
            )
    return tuple(out)


def parse_roll(text, name: str, has_black: bool | None = None) -> tuple:
    """A roll written as text (``*`` for the sun), checked as :func:`check_roll` checks it; the
    messages name ``name``."""
    if not isinstance(text, str):
        raise ValueError(f"{name} must be a string such as '4 4 2 6 *', got {text!r}")
    roll = tokens(text, name)
    if not roll:
        raise ValueError(f"{name} must write a roll of 1 to 5 faces, such as '4 4 2 6 *', got {text!r}")
    return check_roll(roll, has_black, name)[0]


# --------------------------------------------------------------------------- scoring one roll


def score_roll(roll: tuple, has_black: bool, rules: Rules) -> Score:
    """:func:`dicelab.wimpout.score` of a checked roll."""
    n = len(roll)
    sun_at = n - 1 if has_black and roll[-1] is SUN else None
    faces = [f for k, f in enumerate(roll) if k != sun_at]
    counts = Counter(faces)
    if n == 5 and sun_at is None and len(counts) == 1:
        face = roll[0]
        if face == 6:
            return Score("win", 0, None, True, (True,) * 5)
        if face == 10:
            return Score("lose", 0, None, True, (True,) * 5)
        return Score("points", 100 * face, None, True, (True,) * 5)
    candidates = [f for f, c in counts.items() if c >= 3]
    if not candidates and sun_at is not None:
        candidates = [f for f, c in counts.items() if c == 2]
    if candidates:
        options = [_flash(roll, f, sun_at, rules) for f in candidates]
        tie_key = (
            (lambda s: (s.points, s.flash)) if rules.two_pairs == "max" else (lambda s: (s.points, -s.flash))
        )
        return max(options, key=tie_key)
    scoring = tuple(f is SUN or f in SCORING for f in roll)
    points = sum(rules.sun_value if f is SUN else f for f in roll if f is SUN or f in SCORING)
    return Score("points" if points else "wimpout", points, None, False, scoring)


def _flash(roll, face, sun_at, rules) -> Score:
    """The roll scored as a Flash of ``face``: three of them (white dice first, so that a black
    die matching the Flash is the one left to reroll), or a pair completed by the sun."""
    order = [k for k in range(len(roll)) if roll[k] == face and k != sun_at]
    in_flash = set(order[:3]) if len(order) >= 3 else set(order) | {sun_at}  # white dice come first
    points = 10 * face
    scoring = []
    for k, f in enumerate(roll):
        if k in in_flash:
            scoring.append(True)
        elif f is SUN:
            scoring.append(True)
            points += rules.sun_value
        elif f == face:  # a fourth matching die
            counts = rules.fourth_scores and f in SCORING
            scoring.append(counts)
            points += f if counts else 0
        elif f in SCORING:
            scoring.append(True)
            points += f
        else:
            scoring.append(False)
    return Score("points", points, face, False, tuple(scoring))


@functools.lru_cache(maxsize=16_384)
def scored(roll: tuple, has_black: bool, rules: Rules) -> Score:
    """:func:`score_roll`, remembered: the five-dice states roll the same 7,776 rolls."""
    return score_roll(roll, has_black, rules)


def rolls_of(white: int, black: bool):
    """Every ordered roll of ``white`` white dice and, if ``black``, the black die."""
    return itertools.product(*([WHITE_FACES] * white + ([BLACK_FACES] if black else [])))


def roll_dice(rng, white: int, black: bool) -> tuple:
    """The dice rolled at random: the white ones in one draw, then the black one."""
    roll = tuple(WHITE_FACES[k] for k in rng.integers(6, size=white))
    return roll + ((BLACK_FACES[rng.integers(6)],) if black else ())


# --------------------------------------------------------------------------- the paper's chain

_CLEARING = {(face, s.white, s.black): s for s in CLEARING for face in s.flash}


def clearing_state(face: int, white: int, black: bool, n_white: int = 4) -> State:
    """The state of the paper's chain that clears a Flash of ``face`` with these dice, in a game
    of ``n_white`` white dice and the black one."""
    if white == n_white and black or white == 0 and not black:
        return state_of(n_white, True, face)  # every die scored: roll them all, the Flash still to clear
    try:
        return _CLEARING[face, white, black]
    except KeyError:
        raise ValueError(
            f"white, black: a Flash leaves 0 to 2 dice to reroll, or all {n_white + 1}; none clears a "
            f"Flash of {face} with white={white} and black={black}"
        ) from None


def step(s: State, roll: tuple, face: int | None, rules: Rules) -> Step:
    """:func:`dicelab.wimpout.step` of a checked transient state, roll and Flash face."""
    if face is not None and face in roll:
        return Step(s, 0, face)  # the Futtless rule: the Flash face again, reroll the same dice
    if face is not None and face == rules.sun_value:
        rules = dataclasses.replace(rules, sun_value=15 - face)  # the wild sun must not repeat the Flash
    sc = scored(roll, s.black, rules)
    if sc.outcome in ("win", "lose", "wimpout"):
        return Step({"win": AUTO_WIN, "lose": AUTO_LOSE, "wimpout": WIMPOUT}[sc.outcome], 0, None)
    if s.all_dice and sc.flash is not None:
        last = len(roll) - 1  # the black die
        left = [k for k in range(len(roll)) if not sc.scoring[k]]
        nxt = clearing_state(sc.flash, sum(1 for k in left if k < last), last in left, rules.white_dice)
        return Step(nxt, sc.points, sc.flash)
    if sc.all_scoring:
        return Step(rules.roll_all, sc.points, None)  # YMNWTBYM: every die scored, roll them all again
    return Step(STOP, sc.points, None)  # reroll only when forced


@functools.lru_cache(maxsize=256)
def state_of(white: int, black: bool, face: int) -> State:
    """``State(white, black, (face,))``, remembered."""
    return State(white, black, (face,))


def by_face(st: Step) -> State:
    """The state a step leads to, with the Flash to clear given by its own face."""
    if st.flash is None or st.state.absorbing:
        return st.state
    return state_of(st.state.white, st.state.black, st.flash)


@functools.lru_cache(maxsize=256)
def step_outcomes(s: State, rules: Rules, face: int | None, faces: bool):
    """:func:`dicelab.wimpout.step_outcomes` of a checked transient state, rules and Flash face:
    ``{next state: Outcome}`` (read-only), remembered."""
    tally: dict[State, list[int]] = {}
    for roll in rolls_of(s.white, s.black):
        st = step(s, roll, face, rules)
        entry = tally.setdefault(by_face(st) if faces else st.state, [0, 0])
        entry[0] += 1
        entry[1] += st.points
    return MappingProxyType({k: Outcome(ways, points) for k, (ways, points) in tally.items()})


# --------------------------------------------------------------------------- a turn played for points


def left(scoring: tuple[bool, ...], has_black: bool) -> tuple[int, bool]:
    """The dice that did not score: (white dice, whether the black die is among them)."""
    black = has_black and not scoring[-1]
    white = sum(1 for k in range(len(scoring) - int(has_black)) if not scoring[k])
    return white, black


def choice_step(c: Choice, roll: tuple, rules: Rules):
    """Where a roll of the free dice of ``c`` leads: (next state, points gained)."""
    sc = scored(roll, c.black, rules)
    if sc.outcome == "wimpout":
        return WIMPOUT, 0
    white, black = left(sc.scoring, c.black)
    if sc.flash is not None:  # the Futtless rule: clear it with the dice that did not score
        if white == 0 and not black:
            return state_of(rules.white_dice, True, sc.flash), sc.points
        return state_of(white, black, sc.flash), sc.points
    if white == 0 and not black:
        return rules.roll_all, sc.points  # every die scored: all of them again
    return Choice(white, black), sc.points


def forced_step(s: State, roll: tuple, rules: Rules):
    """Where a roll from a forced state leads; a roll the chain would stop on becomes a choice."""
    face = s.face
    st = step(s, roll, face, rules)
    if st.state.end == "Score and Stop":
        sun_rules = rules
        if face is not None and face == rules.sun_value:
            sun_rules = dataclasses.replace(rules, sun_value=15 - face)
        white, black = left(scored(roll, s.black, sun_rules).scoring, s.black)
        return Choice(white, black), st.points
    if st.flash is not None and not st.state.absorbing:
        return state_of(st.state.white, st.state.black, st.flash), st.points
    return st.state, st.points


def turn_step(s, roll: tuple, rules: Rules):
    """:func:`choice_step` or :func:`forced_step`, as ``s`` is a choice or a forced state."""
    return (choice_step if isinstance(s, Choice) else forced_step)(s, roll, rules)


def weighted_rolls(white: int, black: bool):
    """The rolls of ``white`` white dice (as sorted multisets) and the black die, each with the
    number of ordered rolls it stands for: where a roll leads depends only on how many white dice
    show each face, so 7,776 ordered rolls of five dice are 756 cases."""
    for whites in itertools.combinations_with_replacement(WHITE_FACES, white):
        orders = math.factorial(white)
        for count in Counter(whites).values():
            orders //= math.factorial(count)
        for last in BLACK_FACES if black else (None,):
            yield whites + ((last,) if black else ()), orders


@functools.lru_cache(maxsize=256)
def turn_outcomes(s, rules: Rules):
    """:func:`dicelab.wimpout.turn_outcomes` of a checked state: ``{(next, gain): rolls}``, remembered."""
    tally: dict = {}
    for roll, orders in weighted_rolls(s.white, s.black):
        key = turn_step(s, roll, rules)
        tally[key] = tally.get(key, 0) + orders
    return MappingProxyType(tally)


@functools.lru_cache(maxsize=8)
def turn_states(rules: Rules) -> tuple:
    """The states a turn played for points reaches from rolling all the dice (``Roll 5``), in the
    order they are found."""
    start = rules.roll_all
    seen, order = {start}, [start]
    for s in order:
        for nxt, _ in turn_outcomes(s, rules):
            if nxt not in ENDINGS and nxt not in seen:
                seen.add(nxt)
                order.append(nxt)
    return tuple(order)


def clear_caches() -> None:
    """Forget the remembered roll scores, step tables and turn outcomes."""
    scored.cache_clear()
    step_outcomes.cache_clear()
    turn_outcomes.cache_clear()
    turn_states.cache_clear()
