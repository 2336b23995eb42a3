"""A turn as an absorbing Markov chain: states as records, one transition rule (:func:`step`),
the paper's chain and the finer one that keeps each Flash's face."""

from __future__ import annotations

import dataclasses
import functools
import numbers
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType

from dicelab.core.checks import check_bool, check_choice, check_int, check_sequence, check_str
from dicelab.core.markov import AbsorbingChain
from dicelab.wimpout.dice import WHITE_FACES, Rules, Score, _check_roll, _check_rules, _score, all_rolls

_ENDS = ("", "Auto Win", "Auto Lose", "Score and Stop", "Wimpout")


def _check_face(name: str, face) -> int:
    """``face`` if it is a face of a die (2, 3, 4, 5, 6, 10), or a ValueError naming ``name``."""
    return check_choice(name, check_int(name, face, 2, 10), WHITE_FACES)


@dataclass(frozen=True)
class State:
    """A state of the paper's turn chain: which dice are rolled next, and the Flash still to clear.

    ``white``/``black``: the white dice (0-4) and whether the black die is rolled next;
    ``flash``: the faces of the Flash to clear (a clearing state groups the Flash faces
    whose rerolls behave alike, e.g. ``(2, 3, 4, 6)``; empty when no Flash is pending);
    ``end``: for the four absorbing states, their name (``"Auto Win"``, ``"Auto Lose"``,
    ``"Score and Stop"``, ``"Wimpout"``), else empty.

    Only states a turn can be in are built: an absorbing state rolls no dice and has no
    Flash; a transient one rolls all five dice, or one or two dice to clear a pending Flash.

    ``str(state)`` is the paper's name for it (Table 4):

    >>> str(State(1, True, (3,)))
    'Flash 3; Reroll 1B, 1W'
    >>> str(ROLL_5)
    'Roll 5; No Flash'
    """

    white: int = 0
    black: bool = False
    flash: tuple[int, ...] = ()
    end: str = ""

    def __post_init__(self):
        object.__setattr__(self, "white", check_int("white", self.white, 0, 4))
        object.__setattr__(self, "black", check_bool("black", self.black))
        flash = check_sequence("flash", self.flash, what="Flash faces", nonempty=False)
        flash = tuple(_check_face("flash", f) for f in flash)
        if len(set(flash)) != len(flash):
            raise ValueError(f"flash must list distinct faces, got {flash!r}")
        object.__setattr__(self, "flash", flash)
        if not isinstance(self.end, str):
            raise ValueError(f"end must be one of {list(_ENDS)}, got {self.end!r}")
        check_choice("end", self.end, _ENDS)
        if self.end and (self.white or self.black or flash):
            raise ValueError(
                f"end: the absorbing state {self.end!r} rolls no dice and has no Flash, got "
                f"white={self.white}, black={self.black}, flash={flash}"
            )
        if not self.end and not self.five_dice:
            if self.n_dice == 0:
                raise ValueError(
                    "white, black: a transient state rolls at least one die (an absorbing one names its end)"
                )
            if self.n_dice > 2:
                raise ValueError(
                    f"white, black: a Flash leaves at most two dice to reroll (or all five), got "
                    f"white={self.white} and black={self.black}"
                )
            if not flash:
                raise ValueError("flash: with fewer than five dice to roll, a Flash must be pending")

    def __hash__(self) -> int:  # states key every tally: hash once
        try:
            return self.__dict__["_hash"]
        except KeyError:
            self.__dict__["_hash"] = h = hash((self.white, self.black, self.flash, self.end))
            return h

    @property
    def absorbing(self) -> bool:
        return bool(self.end)

    @property
    def five_dice(self) -> bool:
        """All five dice are rolled (the start of a turn, or a Flash rolled again under the Futtless rule)."""
        return self.white == 4 and self.black

    @property
    def n_dice(self) -> int:
        return self.white + int(self.black)

    def __str__(self) -> str:
        if self.end:
            return self.end
        faces = ", ".join(str(f) for f in self.flash)
        if self.five_dice:
            return f"Flash {faces}; Reroll 5" if self.flash else "Roll 5; No Flash"
        dice = ", ".join(d for d in ("1B" if self.black else "", f"{self.white}W" if self.white else "") if d)
        return f"Flash {faces}; Reroll {dice}"


ROLL_5 = State(4, True)
AUTO_WIN, AUTO_LOSE, STOP, WIMPOUT = (
    State(end=e) for e in ("Auto Win", "Auto Lose", "Score and Stop", "Wimpout")
)

# Flash faces whose clearing rerolls behave alike: on a white die every non-scoring face,
# on the black die 3 apart (the black die has no 3), and the scoring faces 5 and 10.
_GROUPS = {False: ((2, 3, 4, 6), (5, 10)), True: ((2, 4, 6), (3,), (5, 10))}
_CLEARING = tuple(
    State(white, black, faces)
    for white, black in ((1, False), (0, True), (2, False), (1, True))
    for faces in _GROUPS[black]
)
TRANSIENT: tuple[State, ...] = (
    _CLEARING + tuple(State(4, True, (f,)) for f in (2, 3, 4, 5, 6, 10)) + (ROLL_5,)
)
ABSORBING: tuple[State, ...] = (AUTO_WIN, AUTO_LOSE, STOP, WIMPOUT)
_BY_NAME = {str(s): s for s in TRANSIENT + ABSORBING}
_FIVE_DICE = {s.flash[0]: s for s in TRANSIENT if s.five_dice and s.flash}


def state(name: str) -> State:
    """The chain state with the paper's name ``name``.

    >>> state("Flash 5, 10; Reroll 2W")
    State(white=2, black=False, flash=(5, 10), end='')
    """
    try:
        return _BY_NAME[check_str("name", name)]
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


def clearing_state(face: int, white: int, black: bool) -> State:
    """The state that clears a Flash of ``face`` by rolling these dice next.

    >>> str(clearing_state(4, 1, True))
    'Flash 2, 4, 6; Reroll 1B, 1W'
    """
    face = _check_face("face", face)
    return _clearing_state(face, check_int("white", white, 0, 4), check_bool("black", black))


def _clearing_state(face: int, white: int, black: bool) -> State:
    if white == 4 and black or white == 0 and not black:
        return _FIVE_DICE[face]  # every die scored: roll all five, the Flash still to clear
    for s in _CLEARING:
        if face in s.flash and (s.white, s.black) == (white, black):
            return s
    raise ValueError(
        f"white, black: a Flash leaves 0 to 2 dice to reroll, or all five; none clears a Flash of {face} "
        f"with white={white} and black={black}"
    )


@dataclass(frozen=True)
class Step:
    """What one roll does: the next ``state``, the ``points`` it adds to the turn, and the
    Flash face (``flash``) still to clear afterwards (``None`` when none is pending).

    >>> step(ROLL_5, (5, 2, 3, 4, 6))
    Step(state=State(white=0, black=False, flash=(), end='Score and Stop'), points=5, flash=None)
    """

    state: State
    points: int
    flash: int | None


def _face_of(s: State, face) -> int | None:
    """The Flash face to clear from ``s``: ``face`` checked against the state, or the state's first."""
    if face is None:
        return s.flash[0] if s.flash else None
    if not s.flash:
        raise ValueError(f"face must be None for state {str(s)!r}: no Flash is pending, got {face!r}")
    if isinstance(face, bool) or not isinstance(face, numbers.Integral) or face not in s.flash:
        raise ValueError(f"face must be one of {s.flash} for state {str(s)!r}, got {face!r}")
    return int(face)


@functools.lru_cache(maxsize=16_384)
def _scored(roll: tuple, has_black: bool, rules: Rules) -> Score:
    """:func:`score`, remembered: the seven five-dice states roll the same 7,776 rolls."""
    return _score(roll, has_black, rules)


def step(s: State, roll, *, face: int | None = None, rules: Rules = Rules()) -> Step:
    """The one transition rule of the chain: where ``roll`` of the dice of ``s`` leads.

    Under the paper's assumptions: reroll only when forced, clear with the black die.
    ``face`` is the Flash to clear (default: the first face of the state's group). The roll
    is scored once, by :func:`score`. While a Flash of 5s or 10s is to be cleared, a sun
    that scores on its own takes the *other* value (it is wild: valued as the Flash's face
    it would repeat the Flash), so clearing a Flash of 10s with the sun scores 5.

    >>> step(ROLL_5, (3, 3, 3, 5, 6))      # a Flash of 3s: clear it with the black die
    Step(state=State(white=0, black=True, flash=(3,), end=''), points=35, flash=3)
    >>> from dicelab.wimpout import SUN
    >>> step(state("Flash 3; Reroll 1B"), (SUN,)).state == ROLL_5   # scored on all five
    True
    >>> step(state("Flash 5, 10; Reroll 1B"), (SUN,), face=10).points
    5
    """
    s = _check_transient("s", s)
    face = _face_of(s, face)
    roll, _ = _check_roll(roll, s.black)
    if len(roll) != s.n_dice:
        raise ValueError(f"roll: state {s} rolls {s.n_dice} dice, got the roll {roll!r}")
    return _step(s, roll, face, _check_rules(rules))


def _step(s: State, roll: tuple, face: int | None, rules: Rules) -> Step:
    """:func:`step` of a checked transient state, roll and Flash face."""
    if face is not None and face in roll:
        return Step(s, 0, face)  # the Futtless rule: the Flash face again, reroll the same dice
    if (
        face is not None and face == rules.sun_value
    ):  # the wild sun takes the other value, or it would repeat the Flash
        rules = dataclasses.replace(rules, sun_value=15 - face)
    sc = _scored(roll, s.black, rules)
    if sc.outcome in ("win", "lose", "wimpout"):
        return Step({"win": AUTO_WIN, "lose": AUTO_LOSE, "wimpout": WIMPOUT}[sc.outcome], 0, None)
    if s.five_dice and sc.flash is not None:
        left = [k for k in range(5) if not sc.scoring[k]]
        nxt = _clearing_state(sc.flash, sum(1 for k in left if k < 4), 4 in left)
        return Step(nxt, sc.points, sc.flash)
    if sc.all_scoring:
        return Step(ROLL_5, sc.points, None)  # YMNWTBYM: every die scored, roll all five again
    return Step(STOP, sc.points, None)  # reroll only when forced


def rolls(s: State):
    """Every ordered roll of the dice ``s`` rolls (6, 36 or 7,776 of them; white dice first).

    >>> len(list(rolls(state("Flash 3; Reroll 1B, 1W"))))
    36
    """
    if not isinstance(s, State):
        raise ValueError(f"s must be a State, such as ROLL_5, got {s!r}")
    return all_rolls(s.white, s.black)


@dataclass(frozen=True)
class Outcome:
    """The rolls of one step that lead to one next state: how many (``ways``) and their total ``points``.

    >>> step_outcomes(state("Flash 3; Reroll 1B"))[WIMPOUT]
    Outcome(ways=3, points=0)
    """

    ways: int
    points: int


def by_face(st: Step) -> State:
    """The state a step leads to, with the Flash to clear given by its own face, not its group.

    >>> str(by_face(step(ROLL_5, (5, 5, 5, 2, 6))))
    'Flash 5; Reroll 1B, 1W'
    """
    if not isinstance(st, Step):
        raise ValueError(f"st must be a Step, as step returns, got {st!r}")
    return _by_face(st)


def _by_face(st: Step) -> State:
    if st.flash is None or st.state.absorbing:
        return st.state
    return _state_of(st.state.white, st.state.black, st.flash)


@functools.lru_cache(maxsize=256)
def _state_of(white: int, black: bool, face: int) -> State:
    return State(white, black, (face,))


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
    s = _check_transient("s", s)
    face = _face_of(s, face)
    return _step_outcomes(s, _check_rules(rules), face, check_bool("faces", faces))


@functools.lru_cache(maxsize=256)
def _step_outcomes(s: State, rules: Rules, face: int | None, faces: bool) -> Mapping[State, Outcome]:
    """:func:`step_outcomes` of a checked transient state, rules and Flash face, remembered."""
    tally: dict[State, list[int]] = {}
    for roll in all_rolls(s.white, s.black):
        st = _step(s, roll, face, rules)
        entry = tally.setdefault(_by_face(st) if faces else st.state, [0, 0])
        entry[0] += 1
        entry[1] += st.points
    return MappingProxyType({k: Outcome(ways, points) for k, (ways, points) in tally.items()})


def clear_caches() -> None:
    """Forget the remembered roll scores and step tables (to time a computation from cold).

    >>> clear_caches()
    """
    _scored.cache_clear()
    _step_outcomes.cache_clear()


def markov_chain(rules: Rules = Rules()) -> AbsorbingChain:
    """The paper's 21-state absorbing chain (Table 6), every probability derived from :func:`step`.

    >>> chain = markov_chain()
    >>> chain.absorption_probability(ROLL_5, WIMPOUT)
    Fraction(...)
    """
    _check_rules(rules)
    names = TRANSIENT + ABSORBING
    P = [[Fraction(0)] * len(names) for _ in names]
    for i, s in enumerate(TRANSIENT):
        total = 6**s.n_dice
        for nxt, out in _step_outcomes(s, rules, _face_of(s, None), False).items():
            P[i][names.index(nxt)] = Fraction(out.ways, total)
    for i in range(len(TRANSIENT), len(names)):
        P[i][i] = Fraction(1)
    return AbsorbingChain(P, states=names)


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
    _check_rules(rules)
    seen, order = {ROLL_5}, [ROLL_5]
    for s in order:
        for nxt in _step_outcomes(s, rules, _face_of(s, None), True):
            if not nxt.absorbing and nxt not in seen:
                seen.add(nxt)
                order.append(nxt)
    names = order + list(ABSORBING)
    index = {s: k for k, s in enumerate(names)}
    P = [[Fraction(0)] * len(names) for _ in names]
    for i, s in enumerate(order):
        for nxt, out in _step_outcomes(s, rules, _face_of(s, None), True).items():
            P[i][index[nxt]] = Fraction(out.ways, 6**s.n_dice)
    for i in range(len(order), len(names)):
        P[i][i] = Fraction(1)
    return AbsorbingChain(P, states=names)
