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

import itertools
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from dicelab.markov import AbsorbingChain

__all__ = [
    "SUN",
    "WHITE_FACES",
    "BLACK_FACES",
    "Rules",
    "Score",
    "score",
    "show",
    "all_rolls",
    "initial_roll_distribution",
    "TRANSIENT",
    "ABSORBING",
    "transition_counts",
    "markov_chain",
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
    """The readings of the rules that the paper leaves open (see the module docstring)."""

    sun_value: int = 10
    fourth_scores: bool = True
    two_pairs: str = "max"

    def __post_init__(self):
        if self.sun_value not in (5, 10):
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
    try:
        roll = tuple(roll)
    except TypeError:
        raise ValueError(f"roll must be a sequence of faces, got {roll!r}") from None
    if not 1 <= len(roll) <= 5:
        raise ValueError(f"a roll has 1 to 5 dice, got {len(roll)}: {roll!r}")
    if has_black is None:
        has_black = len(roll) == 5 or roll[-1] is SUN
    whites = roll[:-1] if has_black else roll
    if len(whites) > 4:
        raise ValueError(f"there are only four white dice, got {len(whites)} in {roll!r}")
    for f in whites:
        if f is SUN or f not in WHITE_FACES:
            raise ValueError(f"{f!r} is not a face of a white die (faces {WHITE_FACES}) in {roll!r}")
    if has_black and (roll[-1] is not SUN and roll[-1] not in BLACK_FACES or roll[-1] == 3):
        raise ValueError(f"{roll[-1]!r} is not a face of the black die (2, SUN, 4, 5, 6, 10) in {roll!r}")
    return roll, has_black


def score(roll, *, has_black: bool | None = None, rules: Rules = Rules()) -> Score:
    """Score one roll of up to five dice (white dice first, the black die last).

    ``has_black`` says whether the last die is the black one; by default it is when
    five dice are rolled or the last face is the sun.
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
    """A roll as text, the black die in brackets: ``4 4 [*] 2 6`` for ``(4, 4, 2, 6, SUN)``."""
    roll = tuple(roll)
    if len(roll) == 5:
        return " ".join(str(f) for f in roll[:4]) + f" [{roll[4]}]"
    return " ".join(str(f) for f in roll)


def all_rolls(n_white: int = 4, black: bool = True):
    """Every ordered roll of ``n_white`` white dice and, if ``black``, the black die (6^n of them)."""
    groups = [WHITE_FACES] * n_white + ([BLACK_FACES] if black else [])
    return itertools.product(*groups)


def initial_roll_distribution(rules: Rules = Rules()) -> Counter:
    """How many of the 7,776 ordered first rolls give each value (Table 2), from :func:`score`.

    Keys are point values, and ``"Auto Win"`` / ``"Auto Lose"`` for five 6s and five 10s.
    """
    out = Counter()
    for roll in all_rolls():
        s = score(roll, rules=rules)
        out["Auto Win" if s.outcome == "win" else "Auto Lose" if s.outcome == "lose" else s.points] += 1
    return out


# --------------------------------------------------------------------------- the Markov chain

TRANSIENT = (
    "Flash 2, 3, 4, 6; Reroll 1W",
    "Flash 5, 10; Reroll 1W",
    "Flash 2, 4, 6; Reroll 1B",
    "Flash 3; Reroll 1B",
    "Flash 5, 10; Reroll 1B",
    "Flash 2, 3, 4, 6; Reroll 2W",
    "Flash 5, 10; Reroll 2W",
    "Flash 2, 4, 6; Reroll 1B, 1W",
    "Flash 3; Reroll 1B, 1W",
    "Flash 5, 10; Reroll 1B, 1W",
    "Flash 2; Reroll 5",
    "Flash 3; Reroll 5",
    "Flash 4; Reroll 5",
    "Flash 5; Reroll 5",
    "Flash 6; Reroll 5",
    "Flash 10; Reroll 5",
    "Roll 5; No Flash",
)
ABSORBING = ("Auto Win", "Auto Lose", "Score and Stop", "Wimpout")

# the dice to reroll in each clearing state, and a representative Flash face of its group
_CLEARING = {
    "Flash 2, 3, 4, 6; Reroll 1W": ((2, 3, 4, 6), 1, False),
    "Flash 5, 10; Reroll 1W": ((5, 10), 1, False),
    "Flash 2, 4, 6; Reroll 1B": ((2, 4, 6), 0, True),
    "Flash 3; Reroll 1B": ((3,), 0, True),
    "Flash 5, 10; Reroll 1B": ((5, 10), 0, True),
    "Flash 2, 3, 4, 6; Reroll 2W": ((2, 3, 4, 6), 2, False),
    "Flash 5, 10; Reroll 2W": ((5, 10), 2, False),
    "Flash 2, 4, 6; Reroll 1B, 1W": ((2, 4, 6), 1, True),
    "Flash 3; Reroll 1B, 1W": ((3,), 1, True),
    "Flash 5, 10; Reroll 1B, 1W": ((5, 10), 1, True),
}


def _clearing_state(face: int, n_white: int, black: bool) -> str:
    """The state that must clear a Flash of ``face`` by rerolling these dice."""
    if n_white == 0 and not black:
        return f"Flash {face}; Reroll 5"
    for name, (faces, nw, b) in _CLEARING.items():
        if face in faces and nw == n_white and b == black:
            return name
    raise AssertionError(f"no state for a Flash of {face} rerolling {n_white} white and {int(black)} black")


def _five_dice(roll, pending: int | None, rules: Rules) -> str:
    """Where a roll of all five dice leads, with a Flash of ``pending`` still to clear (or None)."""
    if pending is not None and pending in roll:
        return f"Flash {pending}; Reroll 5"  # the Futtless rule: roll them all again
    s = score(roll, rules=rules)
    if s.outcome == "win":
        return "Auto Win"
    if s.outcome == "lose":
        return "Auto Lose"
    if s.outcome == "wimpout":
        return "Wimpout"
    if s.flash is not None:
        left = [k for k in range(5) if not s.scoring[k]]
        return _clearing_state(s.flash, sum(1 for k in left if k < 4), 4 in left)
    return "Roll 5; No Flash" if s.all_scoring else "Score and Stop"  # reroll only when forced


def _clearing(face: int, roll, has_black: bool, rules: Rules, state: str) -> str:
    """Where rerolling the dice of a clearing state leads."""
    if face in roll:
        return state  # the Flash face again: reroll the same dice
    s = score(roll, has_black=has_black, rules=rules)
    if s.all_scoring:
        return "Roll 5; No Flash"  # the Flash is cleared and all five dice have scored
    return "Score and Stop" if any(s.scoring) else "Wimpout"


def transition_counts(state: str, rules: Rules = Rules(), face: int | None = None) -> tuple[Counter, int]:
    """Outcome counts of one step from ``state``: ``(Counter of next states, total outcomes)``.

    Derived by rolling every outcome of the dice that state rerolls (6, 36 or 7,776 of
    them) through :func:`score`. Grouped clearing states use ``face`` (default: the
    first of the group); the notebook checks that every face of a group agrees.
    """
    out = Counter()
    if state in _CLEARING:
        faces, n_white, black = _CLEARING[state]
        face = faces[0] if face is None else face
        if face not in faces:
            raise ValueError(f"face must be one of {faces} for state {state!r}, got {face!r}")
        groups = [WHITE_FACES] * n_white + ([BLACK_FACES] if black else [])
        rolls = list(itertools.product(*groups))
        for roll in rolls:
            out[_clearing(face, roll, black, rules, state)] += 1
        return out, len(rolls)
    if state == "Roll 5; No Flash":
        pending = None
    elif state in TRANSIENT:
        pending = int(state.split(";")[0].split()[1])
    else:
        raise ValueError(f"state must be one of the 17 transient states, got {state!r}")
    for roll in all_rolls():
        out[_five_dice(roll, pending, rules)] += 1
    return out, 7776


def markov_chain(rules: Rules = Rules()) -> AbsorbingChain:
    """The paper's 21-state absorbing chain (Table 6), every probability derived from :func:`score`."""
    names = TRANSIENT + ABSORBING
    P = [[Fraction(0)] * len(names) for _ in names]
    for i, state in enumerate(TRANSIENT):
        counts, total = transition_counts(state, rules)
        for nxt, c in counts.items():
            P[i][names.index(nxt)] = Fraction(c, total)
    for i in range(len(TRANSIENT), len(names)):
        P[i][i] = Fraction(1)
    return AbsorbingChain(P, states=names)


def simulate_turns(n_turns: int, seed: int, rules: Rules = Rules()) -> dict:
    """Monte Carlo of whole turns from ``Roll 5; No Flash`` under the chain's assumptions.

    Returns the absorption frequencies and the mean and standard error of the number of
    steps. Steps are drawn from the exact transition rows, vectorised over turns.
    """
    chain = markov_chain(rules)
    names = chain.states
    P = chain.float_view("P")
    cum = np.cumsum(P, axis=1)
    rng = np.random.default_rng(seed)
    state = np.full(n_turns, names.index("Roll 5; No Flash"))
    steps = np.zeros(n_turns, dtype=np.int64)
    absorbing = np.array([names.index(a) for a in ABSORBING])
    alive = ~np.isin(state, absorbing)
    while alive.any():
        idx = np.flatnonzero(alive)
        u = rng.random(idx.size)
        nxt = (u[:, None] > cum[state[idx]]).sum(axis=1)
        state[idx] = np.minimum(nxt, len(names) - 1)
        steps[idx] += 1
        alive = ~np.isin(state, absorbing)
    freq = {a: float(np.mean(state == names.index(a))) for a in ABSORBING}
    return {
        "absorbed": freq,
        "mean_steps": float(steps.mean()),
        "steps_stderr": float(steps.std(ddof=1) / np.sqrt(n_turns)),
    }


__all__.append("simulate_turns")


def _step_points(state: str, rules: Rules, face: int | None = None) -> dict:
    """Total points gained over all outcomes of one step, by next state (numerators over the
    step's outcome count). Rolling the Flash face again clears nothing and gains nothing."""
    out: Counter = Counter()
    if state in _CLEARING:
        faces, n_white, black = _CLEARING[state]
        face = faces[0] if face is None else face
        for roll in itertools.product(*([WHITE_FACES] * n_white + ([BLACK_FACES] if black else []))):
            nxt = _clearing(face, roll, black, rules, state)
            if nxt != state:
                out[nxt] += score(roll, has_black=black, rules=rules).points
        return out
    pending = None if state == "Roll 5; No Flash" else int(state.split(";")[0].split()[1])
    for roll in all_rolls():
        nxt = _five_dice(roll, pending, rules)
        if nxt not in (f"Flash {pending}; Reroll 5", "Auto Win", "Auto Lose", "Wimpout"):
            out[nxt] += score(roll, rules=rules).points
    return out


def expected_turn_score(rules: Rules = Rules()) -> Fraction:
    """Exact expected points banked in a turn from ``Roll 5; No Flash``, under the chain's
    assumptions (stop as soon as the rules allow; a Wimpout or an instant result banks 0).

    Banked points are linear in the points carried: ``V(s, p) = b(s) p + G(s)`` with
    ``b(s)`` the chance of ending in ``Score and Stop``. So ``G = N r``, where ``r(s)``
    sums each step's points times ``b`` of the state it leads to.
    """
    chain = markov_chain(rules)
    stop = ABSORBING.index("Score and Stop")
    b = {s: chain.B[k, stop] for k, s in enumerate(TRANSIENT)} | {"Score and Stop": Fraction(1)}
    r = []
    for state in TRANSIENT:
        total = (
            6 ** (1 if "Reroll 1" in state and "1B, 1W" not in state else 2) if state in _CLEARING else 7776
        )
        pts = _step_points(state, rules)
        r.append(sum((Fraction(p, total) * b.get(nxt, Fraction(0)) for nxt, p in pts.items()), Fraction(0)))
    G = chain.N.dot(np.array(r, dtype=object))
    return G[TRANSIENT.index("Roll 5; No Flash")]


__all__.append("expected_turn_score")


def play_turns(n_turns: int, seed: int, rules: Rules = Rules()) -> dict:
    """Play whole turns with real dice through :func:`score` (not through the chain).

    Same assumptions as the chain: reroll only when forced, clear with the black die.
    Returns the frequency of each ending, the mean steps and the mean points banked,
    with standard errors. A Python loop: about 10^5 turns a second or two.
    """
    rng = np.random.default_rng(seed)
    white, black = np.array(WHITE_FACES, dtype=object), np.array(BLACK_FACES, dtype=object)
    ends, steps, banked = Counter(), [], []
    for _ in range(n_turns):
        state, pending, points, n = "Roll 5; No Flash", None, 0, 0
        while state in TRANSIENT:
            n += 1
            if state in _CLEARING:
                _, n_white, has_black = _CLEARING[state]
                roll = tuple(white[rng.integers(6, size=n_white)]) + (
                    (black[rng.integers(6)],) if has_black else ()
                )
                nxt = _clearing(pending, roll, has_black, rules, state)
                if nxt != state:
                    points += score(roll, has_black=has_black, rules=rules).points
                if nxt == "Roll 5; No Flash":
                    pending = None  # the Flash is cleared
            else:
                roll = tuple(white[rng.integers(6, size=4)]) + (black[rng.integers(6)],)
                nxt = _five_dice(roll, pending, rules)
                s = score(roll, rules=rules)
                if nxt != state or pending is None:
                    points += s.points
                if s.flash is not None and nxt != f"Flash {pending}; Reroll 5":
                    pending = s.flash
                elif nxt == "Roll 5; No Flash":
                    pending = None
            state = nxt
        ends[state] += 1
        steps.append(n)
        banked.append(points if state == "Score and Stop" else 0)
    steps, banked = np.array(steps, float), np.array(banked, float)
    return {
        "absorbed": {a: ends[a] / n_turns for a in ABSORBING},
        "mean_steps": steps.mean(),
        "steps_stderr": steps.std(ddof=1) / np.sqrt(n_turns),
        "mean_points": banked.mean(),
        "points_stderr": banked.std(ddof=1) / np.sqrt(n_turns),
    }


__all__.append("play_turns")
