"""A turn as an absorbing Markov chain: states as records, one transition rule (:func:`step`),
the paper's chain and the finer one that keeps each Flash's face."""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType

from dicelab.markov import AbsorbingChain
from dicelab.wimpout.dice import Rules, Score, all_rolls, score


@dataclass(frozen=True)
class State:
    """A state of the paper's turn chain: which dice are rolled next, and the Flash still to clear.

    ``white``/``black``: the white dice (0-4) and whether the black die is rolled next;
    ``flash``: the faces of the Flash to clear (a clearing state groups the Flash faces
    whose rerolls behave alike, e.g. ``(2, 3, 4, 6)``; empty when no Flash is pending);
    ``end``: for the four absorbing states, their name (``"Auto Win"``, ``"Auto Lose"``,
    ``"Score and Stop"``, ``"Wimpout"``), else empty.

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


def state(name: str) -> State:
    """The chain state with the paper's name ``name``.

    >>> state("Flash 5, 10; Reroll 2W")
    State(white=2, black=False, flash=(5, 10), end='')
    """
    for s in TRANSIENT + ABSORBING:
        if str(s) == name:
            return s
    raise ValueError(
        f"state must be one of the 21 states of the chain ({', '.join(map(str, TRANSIENT + ABSORBING))}), "
        f"got {name!r}"
    )


def clearing_state(face: int, white: int, black: bool) -> State:
    """The state that clears a Flash of ``face`` by rolling these dice next.

    >>> str(clearing_state(4, 1, True))
    'Flash 2, 4, 6; Reroll 1B, 1W'
    """
    if white == 4 and black or white == 0 and not black:
        return State(4, True, (face,))  # every die scored: roll all five, the Flash still to clear
    for s in _CLEARING:
        if face in s.flash and (s.white, s.black) == (white, black):
            return s
    raise ValueError(f"no state clears a Flash of {face!r} with {white} white dice and black={black!r}")


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
    if not s.flash:
        return None
    if face is None:
        return s.flash[0]
    if face not in s.flash:
        raise ValueError(f"face must be one of {s.flash} for state {str(s)!r}, got {face!r}")
    return face


@functools.lru_cache(maxsize=16_384)
def _scored(roll: tuple, has_black: bool, rules: Rules) -> Score:
    """:func:`score`, remembered: the seven five-dice states roll the same 7,776 rolls."""
    return score(roll, has_black=has_black, rules=rules)


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
    if s.absorbing:
        raise ValueError(f"{s} is absorbing: no roll leaves it")
    face = _face_of(s, face)
    roll = tuple(roll)
    if len(roll) != s.n_dice:
        raise ValueError(f"state {s} rolls {s.n_dice} dice, got the roll {roll!r}")
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
        nxt = clearing_state(sc.flash, sum(1 for k in left if k < 4), 4 in left)
        return Step(nxt, sc.points, sc.flash)
    if sc.all_scoring:
        return Step(ROLL_5, sc.points, None)  # YMNWTBYM: every die scored, roll all five again
    return Step(STOP, sc.points, None)  # reroll only when forced


def rolls(s: State):
    """Every ordered roll of the dice ``s`` rolls (6, 36 or 7,776 of them; white dice first).

    >>> len(list(rolls(state("Flash 3; Reroll 1B, 1W"))))
    36
    """
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
    if st.flash is None or st.state.absorbing:
        return st.state
    return State(st.state.white, st.state.black, (st.flash,))


@functools.lru_cache(maxsize=256)
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
    if not isinstance(s, State) or s.absorbing:
        raise ValueError(f"state must be one of the 17 transient states, got {s!r}")
    tally: dict[State, list[int]] = {}
    for roll in rolls(s):
        st = step(s, roll, face=face, rules=rules)
        entry = tally.setdefault(by_face(st) if faces else st.state, [0, 0])
        entry[0] += 1
        entry[1] += st.points
    return MappingProxyType({k: Outcome(ways, points) for k, (ways, points) in tally.items()})


def clear_caches() -> None:
    """Forget the remembered roll scores and step tables (to time a computation from cold).

    >>> clear_caches()
    """
    _scored.cache_clear()
    step_outcomes.cache_clear()


def markov_chain(rules: Rules = Rules()) -> AbsorbingChain:
    """The paper's 21-state absorbing chain (Table 6), every probability derived from :func:`step`.

    >>> chain = markov_chain()
    >>> chain.absorption_probability(ROLL_5, WIMPOUT)
    Fraction(...)
    """
    names = TRANSIENT + ABSORBING
    P = [[Fraction(0)] * len(names) for _ in names]
    for i, s in enumerate(TRANSIENT):
        total = 6**s.n_dice
        for nxt, out in step_outcomes(s, rules).items():
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
    seen, order = {ROLL_5}, [ROLL_5]
    for s in order:
        for nxt in step_outcomes(s, rules, faces=True):
            if not nxt.absorbing and nxt not in seen:
                seen.add(nxt)
                order.append(nxt)
    names = order + list(ABSORBING)
    index = {s: k for k, s in enumerate(names)}
    P = [[Fraction(0)] * len(names) for _ in names]
    for i, s in enumerate(order):
        for nxt, out in step_outcomes(s, rules, faces=True).items():
            P[i][index[nxt]] = Fraction(out.ways, 6**s.n_dice)
    for i in range(len(order), len(names)):
        P[i][i] = Fraction(1)
    return AbsorbingChain(P, states=names)
