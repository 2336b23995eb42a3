"""Cosmic Wimpout: one rules engine, and every table of the paper derived from it.

Serves ``cosmic-wimpout.txt`` (E. C. Kornegay and B. Yankosky) and notebook
``04_cosmic_wimpout.ipynb``.

Dice: four white dice ``2, 3, 4, 5, 6, 10`` and one black die ``2, SUN, 4, 5, 6, 10``
(the Flaming Sun replaces the 3). A roll lists the white dice first and the black die
last. Scoring (Section 2): 5s and 10s score their face; three matching faces are a
*Flash* worth 10 x the face; the sun with a pair must complete a Flash of the pair;
otherwise the sun is wild (5 or 10; here 10, the paper's first assumption); five
matching faces are a *Freight Train* worth 100 x the face, except five 6s (instant
win) and five 10s (Supernova, instant loss); a roll that scores nothing is a Wimpout.

Readings where the rules leave a choice (each a parameter of :class:`Rules`):

``sun_value = 10``
    the sun outside a Flash counts 10 (the paper's assumption);
``fourth_scores = True``
    a fourth die matching a Flash of 5s or 10s still scores its face ("for every 5
    and 10 rolled ... unless three or five of them are rolled at once"); Table 2 needs
    this reading. A fourth 2, 3, 4 or 6 never scores and must be rerolled;
``two_pairs = "max"``
    with two pairs and the sun, the Flash that scores more; on a tie (only
    ``4 4 5 5 SUN``) the Flash of the higher face.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType

import numpy as np

from dicelab._checks import check_bool, check_int, check_sequence
from dicelab.markov import AbsorbingChain

__all__ = [
    # the dice and the scoring rules
    "SUN",
    "WHITE_FACES",
    "BLACK_FACES",
    "Rules",
    "Score",
    "score",
    "show",
    "all_rolls",
    "parse_roll",
    "pattern_rolls",
    "NONSCORING",
    "initial_roll_distribution",
    # the turn as an absorbing Markov chain
    "State",
    "ROLL_5",
    "AUTO_WIN",
    "AUTO_LOSE",
    "STOP",
    "WIMPOUT",
    "TRANSIENT",
    "ABSORBING",
    "state",
    "clearing_state",
    "Step",
    "step",
    "rolls",
    "Outcome",
    "step_outcomes",
    "markov_chain",
    "clear_caches",
    "by_face",
    "turn_chain",
    # beyond the paper: whole turns
    "expected_turn_score",
    "simulate_turns",
    "play_turns",
]


class _Sun:
    """The Flaming Sun face (a singleton); prints as ``*``."""

    _instance = None

    def __new__(cls):
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self):
        return "SUN"

    def __str__(self):
        return "*"

    def __reduce__(self):
        return (_Sun, ())


SUN = _Sun()
WHITE_FACES = (2, 3, 4, 5, 6, 10)
BLACK_FACES = (2, SUN, 4, 5, 6, 10)
SCORING = (5, 10)


@dataclass(frozen=True)
class Rules:
    """The readings of the rules that the paper leaves open (see the module docstring).

    Parameters
    ----------
    sun_value : 5 or 10
        What the sun counts outside a Flash (the paper: 10).
    fourth_scores : bool
        Whether a fourth 5 or 10 beside a Flash of 5s or 10s scores its face.
    two_pairs : ``"max"`` or ``"max_low"``
        With two pairs and the sun, the larger Flash; on a tie the higher (or lower) face.

    Examples
    --------
    >>> score((5, 10, 3, 2, SUN), rules=Rules(sun_value=5)).points
    20
    """

    sun_value: int = 10
    fourth_scores: bool = True
    two_pairs: str = "max"

    def __post_init__(self):
        check_bool("fourth_scores", self.fourth_scores)
        if isinstance(self.sun_value, bool) or self.sun_value not in (5, 10):
            raise ValueError(f"sun_value must be 5 or 10, got {self.sun_value!r}")
        if self.two_pairs not in ("max", "max_low"):
            raise ValueError(
                f"two_pairs must be 'max' (ties: the higher face) or 'max_low' (ties: the lower), "
                f"got {self.two_pairs!r}"
            )


@dataclass(frozen=True)
class Score:
    """The score of a roll.

    ``outcome``: ``"points"``, ``"wimpout"``, ``"win"`` (five 6s) or ``"lose"`` (five 10s);
    ``points``: the roll's value; ``flash``: the Flash face or ``None``; ``freight``: five
    of a kind; ``scoring``: per die, whether it scored (the others must be rerolled to
    clear a Flash).

    >>> score((3, 3, 3, 5, 6)).scoring
    (True, True, True, True, False)
    """

    outcome: str
    points: int
    flash: int | None
    freight: bool
    scoring: tuple[bool, ...]

    @property
    def all_scoring(self) -> bool:
        return all(self.scoring)


def _check_roll(roll, has_black):
    roll = check_sequence("roll", roll, what="faces", nonempty=False)
    if not 1 <= len(roll) <= 5:
        raise ValueError(f"roll: a roll has 1 to 5 dice, got {len(roll)}: {roll!r}")
    if has_black is None:
        has_black = len(roll) == 5 or roll[-1] is SUN
    whites = roll[:-1] if has_black else roll
    if len(whites) > 4:
        raise ValueError(f"roll: there are only four white dice, got {len(whites)} in {roll!r}")
    for f in whites:
        if f is SUN or isinstance(f, bool) or f not in WHITE_FACES:
            raise ValueError(f"roll: {f!r} is not a face of a white die (faces {WHITE_FACES}) in {roll!r}")
    if has_black and (roll[-1] is not SUN and roll[-1] not in BLACK_FACES or roll[-1] == 3):
        raise ValueError(
            f"roll: {roll[-1]!r} is not a face of the black die (2, SUN, 4, 5, 6, 10) in {roll!r}"
        )
    return roll, has_black


def score(roll, *, has_black: bool | None = None, rules: Rules = Rules()) -> Score:
    """Score one roll of up to five dice (white dice first, the black die last).

    Parameters
    ----------
    roll : sequence of faces
        1 to 5 faces, white dice first; the sun is :data:`SUN`.
    has_black : bool, optional
        Whether the last die is the black one; by default it is when five dice are rolled
        or the last face is the sun.
    rules : Rules
        The readings of the rules (the paper's by default).

    Returns
    -------
    Score

    Examples
    --------
    >>> s = score((4, 4, 2, 6, SUN))      # the sun completes the pair: a Flash of 4s
    >>> s.points, s.flash
    (40, 4)
    """
    roll, has_black = _check_roll(roll, has_black)
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
        options = [_flash(roll, f, sun_at, has_black, rules) for f in candidates]
        tie_key = (
            (lambda s: (s.points, s.flash)) if rules.two_pairs == "max" else (lambda s: (s.points, -s.flash))
        )
        return max(options, key=tie_key)
    scoring = tuple(f is SUN or f in SCORING for f in roll)
    points = sum(rules.sun_value if f is SUN else f for f in roll if f is SUN or f in SCORING)
    return Score("points" if points else "wimpout", points, None, False, scoring)


def _flash(roll, face, sun_at, has_black, rules) -> Score:
    """The roll scored as a Flash of ``face``: three of them (white dice first, so that a black
    die matching the Flash is the one left to reroll), or a pair completed by the sun."""
    n = len(roll)
    in_flash = set()
    order = [k for k in range(n) if roll[k] == face and k != sun_at]
    if len(order) >= 3:
        in_flash = set(order[:3])  # white dice come first
    else:
        in_flash = set(order) | {sun_at}
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


def show(roll) -> str:
    """A roll as text, the black die last and in brackets.

    >>> show((4, 4, 2, 6, SUN))
    '4 4 2 6 [*]'
    """
    roll = tuple(roll)
    if len(roll) == 5:
        return " ".join(str(f) for f in roll[:4]) + f" [{roll[4]}]"
    return " ".join(str(f) for f in roll)


def parse_roll(text: str) -> tuple:
    """A roll written as text, ``*`` for the sun: ``"4 4 2 6 *"`` -> ``(4, 4, 2, 6, SUN)``.

    >>> parse_roll("4 4 2 6 *")
    (4, 4, 2, 6, SUN)
    """
    if not isinstance(text, str):
        raise ValueError(f"text must be a string such as '4 4 2 6 *', got {text!r}")
    out = []
    for token in text.replace(",", " ").split():
        if token == "*":
            out.append(SUN)
        elif token.isdigit() and int(token) in WHITE_FACES:
            out.append(int(token))
        else:
            raise ValueError(f"{token!r} is not a face (2, 3, 4, 5, 6, 10 or * for the sun) in {text!r}")
    return tuple(out)


NONSCORING = {False: (2, 3, 4, 6), True: (2, 4, 6)}  # by die colour: white (False) or black (True)


def pattern_rolls(whites: str, black: str) -> list[tuple]:
    """The ordered first rolls that fit a pattern of the paper's Table 1.

    A pattern gives the four white dice (in any order) and the black die, as faces,
    ``*`` for the sun, or the letters ``a``, ``b``: distinct non-scoring faces (2, 3, 4, 6
    on a white die; 2, 4, 6 on the black) that differ from the pattern's own faces.

    >>> len(pattern_rolls("4 4 a b", "4"))   # C(3, 2) choices of {a, b}, 4!/(2!1!1!) orders
    36
    """
    tokens = whites.split() + [black]
    if len(tokens) != 5:
        raise ValueError(f"a pattern has four white dice and the black die, got {whites!r} and {black!r}")
    letters = sorted({t for t in tokens if t in ("a", "b")})
    fixed = [t for t in tokens if t not in ("a", "b")]
    fixed_faces = {f for f in parse_roll(" ".join(fixed)) if f is not SUN}
    found = set()
    for values in itertools.permutations(NONSCORING[False], len(letters)):
        if fixed_faces & set(values):
            continue
        sub = dict(zip(letters, values, strict=True))
        faces = parse_roll(" ".join(str(sub.get(t, t)) for t in tokens))
        if faces[4] is not SUN and faces[4] not in BLACK_FACES or faces[4] == 3:
            continue
        found |= {order + (faces[4],) for order in itertools.permutations(faces[:4])}
    return sorted(found, key=str)


def all_rolls(n_white: int = 4, black: bool = True):
    """Every ordered roll of ``n_white`` white dice and, if ``black``, the black die (6^n of them).

    >>> sum(1 for _ in all_rolls())
    7776
    """
    groups = [WHITE_FACES] * n_white + ([BLACK_FACES] if black else [])
    return itertools.product(*groups)


def initial_roll_distribution(rules: Rules = Rules()) -> Counter:
    """How many of the 7,776 ordered first rolls give each value (Table 2), from :func:`score`.

    Parameters
    ----------
    rules : Rules
        The readings of the rules.

    Returns
    -------
    Counter
        Keys are point values, and ``"Auto Win"`` / ``"Auto Lose"`` for five 6s and five 10s.

    Examples
    --------
    >>> dist = initial_roll_distribution()
    >>> dist[0], dist[40], sum(dist.values())
    (450, 232, 7776)
    """
    out = Counter()
    for roll in all_rolls():
        s = score(roll, rules=rules)
        out["Auto Win" if s.outcome == "win" else "Auto Lose" if s.outcome == "lose" else s.points] += 1
    return out


# --------------------------------------------------------------------------- the Markov chain


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


def expected_turn_score(rules: Rules = Rules()) -> Fraction:
    """Exact expected points banked in a turn from ``Roll 5; No Flash``, under the chain's
    assumptions (stop as soon as the rules allow; a Wimpout or an instant result banks 0).

    Banked points are linear in the points carried: ``V(s, p) = b(s) p + g(s)`` with ``b(s)``
    the chance of ending in ``Score and Stop``. One roll from ``s`` gives
    ``g = r + Q g``, so ``g = N r``, where ``r(s)`` sums over the rolls from ``s`` their
    probability, the points they score and ``b`` of the state they lead to. Computed on
    :func:`turn_chain`, where each Flash keeps its face.

    Parameters
    ----------
    rules : Rules
        The readings of the rules.

    Returns
    -------
    Fraction

    Examples
    --------
    >>> round(float(expected_turn_score()), 4)
    19.2177
    """
    chain = turn_chain(rules)
    b = dict(zip(chain.transient, chain.B[:, chain.absorbing.index(STOP)], strict=True)) | {STOP: Fraction(1)}
    r = [
        sum(
            (
                Fraction(o.points, 6**s.n_dice) * b.get(nxt, 0)
                for nxt, o in step_outcomes(s, rules, faces=True).items()
            ),
            Fraction(0),
        )
        for s in chain.transient
    ]
    return chain.N.dot(np.array(r, dtype=object))[chain.transient.index(ROLL_5)]


def simulate_turns(n_turns: int, seed: int, rules: Rules = Rules()):
    """Whole turns sampled from the chain's transition matrix (see :meth:`AbsorbingChain.simulate`).

    Parameters
    ----------
    n_turns : int
        How many turns.
    seed : int
        Seed of the random generator.
    rules : Rules
        The readings of the rules.

    Returns
    -------
    ChainSample
        ``frequencies`` of the four endings, ``mean_steps`` and ``steps_stderr``.

    Examples
    --------
    >>> sample = simulate_turns(1000, seed=1)
    >>> sorted(str(a) for a in sample.frequencies)
    ['Auto Lose', 'Auto Win', 'Score and Stop', 'Wimpout']
    """
    return markov_chain(rules).simulate(n_turns, ROLL_5, random_state=seed)


def play_turns(n_turns: int, seed: int, rules: Rules = Rules()) -> dict:
    """Play whole turns with random dice through :func:`step` (not through the chain's matrix).

    Same assumptions as the chain: reroll only when forced, clear with the black die. Returns
    the frequency of each ending, the mean steps and the mean points banked, with standard
    errors. A Python loop: about 10^5 turns in a few seconds.

    Parameters
    ----------
    n_turns : int
        How many turns (at least 2, for a standard error).
    seed : int
        Seed of the random generator.
    rules : Rules
        The readings of the rules.

    Returns
    -------
    dict
        ``absorbed`` (frequency of each ending), ``mean_steps``, ``steps_stderr``,
        ``mean_points``, ``points_stderr``.

    Examples
    --------
    >>> out = play_turns(200, seed=3)
    >>> round(sum(out["absorbed"].values()), 12)
    1.0
    """
    n_turns = check_int("n_turns", n_turns, 2)
    rng = np.random.default_rng(check_int("seed", seed, 0))
    white, black = np.array(WHITE_FACES, dtype=object), np.array(BLACK_FACES, dtype=object)
    ends, steps, banked = Counter(), np.zeros(n_turns), np.zeros(n_turns)
    for t in range(n_turns):
        s, face, points, n = ROLL_5, None, 0, 0
        while not s.absorbing:
            roll = tuple(white[rng.integers(6, size=s.white)]) + (
                (black[rng.integers(6)],) if s.black else ()
            )
            st = step(s, roll, face=face, rules=rules)
            s, face, points, n = st.state, st.flash, points + st.points, n + 1
        ends[s] += 1
        steps[t], banked[t] = n, points if s == STOP else 0
    return {
        "absorbed": {a: ends[a] / n_turns for a in ABSORBING},
        "mean_steps": steps.mean(),
        "steps_stderr": steps.std(ddof=1) / np.sqrt(n_turns),
        "mean_points": banked.mean(),
        "points_stderr": banked.std(ddof=1) / np.sqrt(n_turns),
    }
