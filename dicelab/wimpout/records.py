"""The records of Cosmic Wimpout: the dice's faces, the readings of the rules, a roll's score, and
the states of a turn (the paper's chain and the choices of a turn played for points).

Every other module of :mod:`dicelab.wimpout` speaks in these records; they check their own fields.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from dicelab.core.checks import check_bool, check_choice, check_int, check_sequence


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
NONSCORING = {False: (2, 3, 4, 6), True: (2, 4, 6)}  # by die colour: white (False) or black (True)


@dataclass(frozen=True)
class Rules:
    """The readings of the rules that the paper leaves open (see :mod:`dicelab.wimpout`).

    Parameters
    ----------
    sun_value : 5 or 10
        What the sun counts outside a Flash (the paper: 10).
    fourth_scores : bool
        Whether a fourth 5 or 10 beside a Flash of 5s or 10s scores its face.
    two_pairs : ``"max"`` or ``"max_low"``
        With two pairs and the sun, the larger Flash; on a tie the higher (or lower) face.
    white_dice : 1 to 4
        How many white dice are rolled beside the black one: 4 in the game (five dice); a variant
        with fewer dice plays by the same rules (a Freight Train, and so five 6s and five 10s,
        needs five dice). More than five dice could show two Flashes at once, which the rules
        do not score.

    Examples
    --------
    >>> from dicelab.wimpout import score
    >>> score((5, 10, 3, 2, SUN), rules=Rules(sun_value=5)).points
    20
    >>> str(Rules(white_dice=2).roll_all)
    'Roll 3; No Flash'
    """

    sun_value: int = 10
    fourth_scores: bool = True
    two_pairs: str = "max"
    white_dice: int = 4

    def __post_init__(self):
        sun_value = check_choice("sun_value", check_int("sun_value", self.sun_value, 5, 10), (5, 10))
        object.__setattr__(self, "sun_value", sun_value)
        object.__setattr__(self, "fourth_scores", check_bool("fourth_scores", self.fourth_scores))
        if not isinstance(self.two_pairs, str) or self.two_pairs not in ("max", "max_low"):
            raise ValueError(
                f"two_pairs must be 'max' (ties: the higher face) or 'max_low' (ties: the lower), "
                f"got {self.two_pairs!r}"
            )
        object.__setattr__(self, "white_dice", check_int("white_dice", self.white_dice, 1, 4))

    @property
    def n_dice(self) -> int:
        """The dice of a full roll: the white ones and the black one."""
        return self.white_dice + 1

    @property
    def roll_all(self) -> State:
        """The state that rolls every die with no Flash pending, where a turn starts (``ROLL_5``)."""
        return _roll_all(self.white_dice)


@dataclass(frozen=True)
class Score:
    """The score of a roll.

    ``outcome``: ``"points"``, ``"wimpout"``, ``"win"`` (five 6s) or ``"lose"`` (five 10s);
    ``points``: the roll's value; ``flash``: the Flash face or ``None``; ``freight``: five
    of a kind; ``scoring``: per die, whether it scored (the others must be rerolled to
    clear a Flash).

    >>> from dicelab.wimpout import score
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


_ENDS = ("", "Auto Win", "Auto Lose", "Score and Stop", "Wimpout")


def _check_face(name: str, face) -> int:
    """``face`` if it is a face of a white die (2, 3, 4, 5, 6, 10), or a ValueError naming ``name``."""
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
    Flash; a transient one rolls all the dice (the black one among them: five in the game, two
    or more in a variant, see :class:`Rules`), or one or two dice to clear a pending Flash.

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
        if not self.end and not self.all_dice:
            if self.n_dice == 0:
                raise ValueError(
                    "white, black: a transient state rolls at least one die (an absorbing one names its end)"
                )
            if self.n_dice > 2:
                raise ValueError(
                    f"white, black: a Flash leaves at most two dice to reroll (or all of them, the black "
                    f"one among them), got white={self.white} and black={self.black}"
                )
            if not flash:
                raise ValueError("flash: with fewer than all the dice to roll, a Flash must be pending")

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
    def all_dice(self) -> bool:
        """All the dice are rolled (the start of a turn, or a Flash rolled again under the Futtless
        rule): the black die and, with no Flash pending, at least one white one; with a Flash,
        three dice or more (a Flash leaves at most two to clear)."""
        return not self.end and self.black and (self.n_dice >= 3 if self.flash else self.n_dice >= 2)

    @property
    def n_dice(self) -> int:
        return self.white + int(self.black)

    @property
    def face(self) -> int | None:
        """The Flash face to clear when the state's group is not told apart: its first, or ``None``.

        >>> State(1, True, (2, 4, 6)).face, ROLL_5.face
        (2, None)
        """
        return self.flash[0] if self.flash else None

    def __str__(self) -> str:
        if self.end:
            return self.end
        faces = ", ".join(str(f) for f in self.flash)
        if self.all_dice:
            return f"Flash {faces}; Reroll {self.n_dice}" if self.flash else f"Roll {self.n_dice}; No Flash"
        dice = ", ".join(d for d in ("1B" if self.black else "", f"{self.white}W" if self.white else "") if d)
        return f"Flash {faces}; Reroll {dice}"


ROLL_5 = State(4, True)


@functools.lru_cache(maxsize=8)
def _roll_all(white: int) -> State:
    return State(white, True)


AUTO_WIN, AUTO_LOSE, STOP, WIMPOUT = (
    State(end=e) for e in ("Auto Win", "Auto Lose", "Score and Stop", "Wimpout")
)

# Flash faces whose clearing rerolls behave alike: on a white die every non-scoring face,
# on the black die 3 apart (the black die has no 3), and the scoring faces 5 and 10.
_GROUPS = {False: ((2, 3, 4, 6), (5, 10)), True: ((2, 4, 6), (3,), (5, 10))}
CLEARING: tuple[State, ...] = tuple(
    State(white, black, faces)
    for white, black in ((1, False), (0, True), (2, False), (1, True))
    for faces in _GROUPS[black]
)
"""The paper's clearing states: one or two dice to roll, the Flash faces that behave alike grouped."""
TRANSIENT: tuple[State, ...] = CLEARING + tuple(State(4, True, (f,)) for f in (2, 3, 4, 5, 6, 10)) + (ROLL_5,)
ABSORBING: tuple[State, ...] = (AUTO_WIN, AUTO_LOSE, STOP, WIMPOUT)


@dataclass(frozen=True)
class Step:
    """What one roll does: the next ``state``, the ``points`` it adds to the turn, and the
    Flash face (``flash``) still to clear afterwards (``None`` when none is pending).

    >>> from dicelab.wimpout import step
    >>> step(ROLL_5, (5, 2, 3, 4, 6))
    Step(state=State(white=0, black=False, flash=(), end='Score and Stop'), points=5, flash=None)
    """

    state: State
    points: int
    flash: int | None


@dataclass(frozen=True)
class Outcome:
    """The rolls of one step that lead to one next state: how many (``ways``) and their total ``points``.

    >>> from dicelab.wimpout import state, step_outcomes
    >>> step_outcomes(state("Flash 3; Reroll 1B"))[WIMPOUT]
    Outcome(ways=3, points=0)
    """

    ways: int
    points: int


@dataclass(frozen=True, order=True)
class Choice:
    """A decision point: bank the turn's points, or roll these dice that did not score.

    >>> str(Choice(2, True))
    'Choice: bank, or roll 2W + 1B'
    """

    white: int
    black: bool

    def __post_init__(self):
        object.__setattr__(self, "white", check_int("white", self.white, 0, 4))
        object.__setattr__(self, "black", check_bool("black", self.black))
        if not 1 <= self.n_dice <= 4:
            raise ValueError(
                f"white, black: a choice rolls 1 to 4 dice (five is the forced Roll 5), "
                f"got white={self.white}, black={self.black}"
            )

    @property
    def n_dice(self) -> int:
        return self.white + int(self.black)

    @property
    def dice(self) -> str:
        """The dice as the chapter writes them, e.g. ``2W + 1B``."""
        return " + ".join(
            d for d in (f"{self.white}W" if self.white else "", "1B" if self.black else "") if d
        )

    def __str__(self) -> str:
        return f"Choice: bank, or roll {self.dice}"


CHOICES: tuple[Choice, ...] = tuple(Choice(w, b) for b in (False, True) for w in range(5) if 1 <= w + b <= 4)
