"""The dice and the scoring rules of Cosmic Wimpout: :func:`score` is the one rules engine."""

from __future__ import annotations

import itertools
from collections import Counter

from dicelab.core.checks import check_bool
from dicelab.core.spec import Bool, Int, Text, validated
from dicelab.wimpout._common import RULES, check_roll, score_roll, tokens
from dicelab.wimpout._common import parse_roll as _parse
from dicelab.wimpout.records import BLACK_FACES, NONSCORING, SUN, WHITE_FACES, Rules, Score


@validated(rules=RULES, example={"roll": (5, 2, 3, 4, 6)})
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
    roll, has_black = check_roll(roll, has_black)
    return score_roll(roll, has_black, rules)


def show(roll) -> str:
    """A roll as text, the black die last and in brackets.

    >>> show((4, 4, 2, 6, SUN))
    '4 4 2 6 [*]'
    """
    roll, _ = check_roll(roll, None)
    if len(roll) == 5:
        return " ".join(str(f) for f in roll[:4]) + f" [{roll[4]}]"
    return " ".join(str(f) for f in roll)


def parse_roll(text: str, *, has_black: bool | None = None) -> tuple:
    """A roll written as text, ``*`` for the sun: ``"4 4 2 6 *"`` -> ``(4, 4, 2, 6, SUN)``.

    The text must write a roll :func:`score` takes: 1 to 5 faces, white dice first, the sun
    only on the black die, last. ``has_black``: whether the last die is the black one (by
    default when five dice are written or the last is the sun), as in :func:`score`.

    >>> parse_roll("4 4 2 6 *")
    (4, 4, 2, 6, SUN)
    """
    has_black = None if has_black is None else check_bool("has_black", has_black)
    return _parse(text, "text", has_black)


_PATTERN_TOKENS = {  # what a pattern may write for a white (False) or the black (True) die
    False: ("2", "3", "4", "5", "6", "10", "a", "b"),
    True: ("2", "4", "5", "6", "10", "*", "a", "b"),
}


@validated(whites=Text(), black=Text(), example={"whites": "4 4 a b", "black": "4"})
def pattern_rolls(whites: str, black: str) -> list[tuple]:
    """The ordered first rolls that fit a pattern of the paper's Table 1.

    A pattern gives the four white dice (in any order) and the black die, as faces,
    ``*`` for the sun, or the letters ``a``, ``b``: distinct non-scoring faces (2, 3, 4, 6
    on a white die; 2, 4, 6 on the black) that differ from the pattern's own faces.

    >>> len(pattern_rolls("4 4 a b", "4"))   # C(3, 2) choices of {a, b}, 4!/(2!1!1!) orders
    36
    """
    toks = whites.split() + [black.strip()]
    if len(toks) != 5 or any(t not in _PATTERN_TOKENS[False] for t in toks[:4]):
        raise ValueError(
            f"whites must be four white faces (2, 3, 4, 5, 6, 10) or letters a, b, such as '4 4 a b', "
            f"got {whites!r}"
        )
    if toks[4] not in _PATTERN_TOKENS[True]:
        raise ValueError(
            f"black must be one face of the black die (2, 4, 5, 6, 10, * for the sun) or a letter a, b, "
            f"got {black!r}"
        )
    letters = sorted({t for t in toks if t in ("a", "b")})
    fixed = [t for t in toks if t not in ("a", "b")]
    fixed_faces = {f for f in tokens(" ".join(fixed), "whites") if f is not SUN}
    found = set()
    for values in itertools.permutations(NONSCORING[False], len(letters)):
        if fixed_faces & set(values):
            continue
        sub = dict(zip(letters, values, strict=True))
        faces = tokens(" ".join(str(sub.get(t, t)) for t in toks), "whites")
        if faces[4] is not SUN and faces[4] not in BLACK_FACES or faces[4] == 3:
            continue
        found |= {order + (faces[4],) for order in itertools.permutations(faces[:4])}
    return sorted(found, key=str)


@validated(n_white=Int(0, 4), black=Bool())
def all_rolls(n_white: int = 4, black: bool = True):
    """Every ordered roll of ``n_white`` white dice and, if ``black``, the black die (6^n of them).

    >>> sum(1 for _ in all_rolls())
    7776
    """
    groups = [WHITE_FACES] * n_white + ([BLACK_FACES] if black else [])
    return itertools.product(*groups)


@validated(rules=RULES)
def initial_roll_distribution(rules: Rules = Rules()) -> Counter:
    """How many of the 7,776 ordered first rolls give each value (Table 2), from :func:`score`
    (of the ``6 ** rules.n_dice`` in a variant with fewer dice).

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
    for roll in all_rolls(rules.white_dice):
        s = score_roll(roll, True, rules)
        out["Auto Win" if s.outcome == "win" else "Auto Lose" if s.outcome == "lose" else s.points] += 1
    return out
