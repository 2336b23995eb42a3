"""The dice and the scoring rules of Cosmic Wimpout: :func:`score` is the one rules engine."""

from __future__ import annotations

import itertools
import numbers
from collections import Counter
from dataclasses import dataclass

from dicelab.core.checks import check_bool, check_choice, check_int, check_sequence, check_str


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
        sun_value = check_choice("sun_value", check_int("sun_value", self.sun_value, 5, 10), (5, 10))
        object.__setattr__(self, "sun_value", sun_value)
        object.__setattr__(self, "fourth_scores", check_bool("fourth_scores", self.fourth_scores))
        if not isinstance(self.two_pairs, str) or self.two_pairs not in ("max", "max_low"):
            raise ValueError(
                f"two_pairs must be 'max' (ties: the higher face) or 'max_low' (ties: the lower), "
                f"got {self.two_pairs!r}"
            )


def _check_rules(rules) -> Rules:
    """``rules`` if it is a :class:`Rules` record, or a ValueError naming the argument."""
    if not isinstance(rules, Rules):
        raise ValueError(f"rules must be a Rules record, such as Rules(sun_value=5), got {rules!r}")
    return rules


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


def _is_face(f, faces) -> bool:
    """Whether ``f`` is one of ``faces``: the sun itself, or an integer (not a bool, not 5.0)."""
    if f is SUN:
        return SUN in faces
    return isinstance(f, numbers.Integral) and not isinstance(f, bool) and f in faces


def _check_roll(roll, has_black, name: str = "roll"):
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
        if not _is_face(f, WHITE_FACES):
            raise ValueError(f"{name}: {f!r} is not a face of a white die (faces {WHITE_FACES}) in {roll!r}")
    if has_black and not _is_face(roll[-1], BLACK_FACES):
        raise ValueError(
            f"{name}: {roll[-1]!r} is not a face of the black die (2, SUN, 4, 5, 6, 10) in {roll!r}"
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
    has_black = None if has_black is None else check_bool("has_black", has_black)
    roll, has_black = _check_roll(roll, has_black)
    return _score(roll, has_black, _check_rules(rules))


def _score(roll: tuple, has_black: bool, rules: Rules) -> Score:
    """:func:`score` of a checked roll."""
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
    roll, _ = _check_roll(roll, None)
    if len(roll) == 5:
        return " ".join(str(f) for f in roll[:4]) + f" [{roll[4]}]"
    return " ".join(str(f) for f in roll)


def parse_roll(text: str) -> tuple:
    """A roll written as text, ``*`` for the sun: ``"4 4 2 6 *"`` -> ``(4, 4, 2, 6, SUN)``.

    The text must write a roll :func:`score` takes: 1 to 5 faces, white dice first, the sun
    only on the black die, last.

    >>> parse_roll("4 4 2 6 *")
    (4, 4, 2, 6, SUN)
    """
    return _parse_roll(text, "text")


def _tokens(text: str, name: str) -> tuple:
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


def _parse_roll(text, name: str, has_black: bool | None = None) -> tuple:
    """:func:`parse_roll`, its messages naming ``name``; the roll is checked as by :func:`score`."""
    if not isinstance(text, str):
        raise ValueError(f"{name} must be a string such as '4 4 2 6 *', got {text!r}")
    roll = _tokens(text, name)
    if not roll:
        raise ValueError(f"{name} must write a roll of 1 to 5 faces, such as '4 4 2 6 *', got {text!r}")
    return _check_roll(roll, has_black, name)[0]


NONSCORING = {False: (2, 3, 4, 6), True: (2, 4, 6)}  # by die colour: white (False) or black (True)
_PATTERN_TOKENS = {  # what a pattern may write for a white (False) or the black (True) die
    False: ("2", "3", "4", "5", "6", "10", "a", "b"),
    True: ("2", "4", "5", "6", "10", "*", "a", "b"),
}


def pattern_rolls(whites: str, black: str) -> list[tuple]:
    """The ordered first rolls that fit a pattern of the paper's Table 1.

    A pattern gives the four white dice (in any order) and the black die, as faces,
    ``*`` for the sun, or the letters ``a``, ``b``: distinct non-scoring faces (2, 3, 4, 6
    on a white die; 2, 4, 6 on the black) that differ from the pattern's own faces.

    >>> len(pattern_rolls("4 4 a b", "4"))   # C(3, 2) choices of {a, b}, 4!/(2!1!1!) orders
    36
    """
    tokens = check_str("whites", whites).split() + [check_str("black", black).strip()]
    if len(tokens) != 5 or any(t not in _PATTERN_TOKENS[False] for t in tokens[:4]):
        raise ValueError(
            f"whites must be four white faces (2, 3, 4, 5, 6, 10) or letters a, b, such as '4 4 a b', "
            f"got {whites!r}"
        )
    if tokens[4] not in _PATTERN_TOKENS[True]:
        raise ValueError(
            f"black must be one face of the black die (2, 4, 5, 6, 10, * for the sun) or a letter a, b, "
            f"got {black!r}"
        )
    letters = sorted({t for t in tokens if t in ("a", "b")})
    fixed = [t for t in tokens if t not in ("a", "b")]
    fixed_faces = {f for f in _tokens(" ".join(fixed), "whites") if f is not SUN}
    found = set()
    for values in itertools.permutations(NONSCORING[False], len(letters)):
        if fixed_faces & set(values):
            continue
        sub = dict(zip(letters, values, strict=True))
        faces = _tokens(" ".join(str(sub.get(t, t)) for t in tokens), "whites")
        if faces[4] is not SUN and faces[4] not in BLACK_FACES or faces[4] == 3:
            continue
        found |= {order + (faces[4],) for order in itertools.permutations(faces[:4])}
    return sorted(found, key=str)


def all_rolls(n_white: int = 4, black: bool = True):
    """Every ordered roll of ``n_white`` white dice and, if ``black``, the black die (6^n of them).

    >>> sum(1 for _ in all_rolls())
    7776
    """
    n_white, black = check_int("n_white", n_white, 0, 4), check_bool("black", black)
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
    _check_rules(rules)
    out = Counter()
    for roll in all_rolls():
        s = _score(roll, True, rules)
        out["Auto Win" if s.outcome == "win" else "Auto Lose" if s.outcome == "lose" else s.points] += 1
    return out
