"""Efron's dice: dice typed as text, exact pairwise win probabilities, the beat graph."""

from __future__ import annotations

import html
import itertools
import math
import re
from dataclasses import dataclass
from fractions import Fraction

from dicelab import efron
from dicelab.core.checks import check_int, check_sequence
from dicelab.course.explore._widgets import Explorer, _guarded, _png, _table


def parse_dice(text: str) -> dict[str, tuple[int, ...]]:
    """Dice written one per line, ``NAME: faces`` (the name may be left out), faces as integers.

    Parameters
    ----------
    text : str
        2 to 8 lines such as ``"A: 0 0 4 4 4 4"``; faces separated by spaces or commas, at
        most 20 per die, each a whole number of at most 30 digits; blank lines and lines
        starting with ``#`` are skipped.

    Returns
    -------
    dict
        ``{name: faces}``; unnamed dice are called A, B, C, ... by their line.

    Examples
    --------
    >>> parse_dice("A: 0 0 4 4 4 4\\n3, 3, 3, 3, 3, 3")
    {'A': (0, 0, 4, 4, 4, 4), 'B': (3, 3, 3, 3, 3, 3)}
    >>> parse_dice("A: 1 2 x")
    Traceback (most recent call last):
    ...
    ValueError: text, line 1: 'x' is not a whole number (die A)
    """
    if not isinstance(text, str):
        raise ValueError(f"text must be a string of dice, one die per line, got {text!r}")
    dice: dict[str, tuple[int, ...]] = {}
    for number, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        name, colon, faces = line.rpartition(":")
        name = name.strip() if colon else "ABCDEFGHIJ"[min(len(dice), 9)]
        if not name or name in dice:
            raise ValueError(
                f"text, line {number}: each die needs its own name before ':', got {name!r} again"
                if name
                else f"text, line {number}: a name must come before ':'"
            )
        tokens = faces.replace(",", " ").split()
        if not 1 <= len(tokens) <= 20:
            raise ValueError(f"text, line {number}: die {name} must have 1 to 20 faces, got {len(tokens)}")
        for t in tokens:
            if not re.fullmatch(r"[+-]?[0-9]+", t):
                raise ValueError(f"text, line {number}: {t[:40]!r} is not a whole number (die {name})")
            if len(t.lstrip("+-")) > 30:
                raise ValueError(f"text, line {number}: {t[:12]}... has more than 30 digits (die {name})")
        dice[name] = tuple(int(t) for t in tokens)
    if not 2 <= len(dice) <= 8:
        raise ValueError(f"text must give 2 to 8 dice, one per line; got {len(dice)}")
    return dice


@dataclass(frozen=True)
class Matchup:
    """Every ordered pair of dice: ``p[x, y]`` the exact probability that ``x`` rolls higher than ``y``.

    ``beats`` lists the pairs with ``p > 1/2``; ``cycles`` the simple cycles of "beats" (every
    die beats the next), longest first and, among equally long ones, strongest weakest link first.
    """

    faces: dict[str, tuple[int, ...]]
    rolls: int
    p: dict[tuple[str, str], Fraction]
    beats: tuple[tuple[str, str], ...]
    cycles: tuple[tuple[str, ...], ...]

    def weakest(self, cycle) -> Fraction:
        """The smallest win probability around ``cycle``, a sequence of at least two of the dice's names,
        no name followed by itself (the last is followed by the first).

        >>> matchup("A: 0 0 4 4 4 4\\nB: 3 3 3 3 3 3").weakest(("A", "B"))
        Fraction(1, 3)
        """
        cycle = check_sequence("cycle", cycle, what="die names")
        if len(cycle) < 2 or not all(isinstance(x, str) and x in self.faces for x in cycle):
            raise ValueError(f"cycle must list at least two of the dice {list(self.faces)}, got {cycle!r}")
        steps = list(zip(cycle, cycle[1:] + cycle[:1], strict=True))
        if any(x == y for x, y in steps):
            raise ValueError(f"cycle must not follow a die by itself, got {cycle!r}")
        return min(self.p[x, y] for x, y in steps)

    def rows(self) -> list[list]:
        """The matrix ``P(row beats column)`` as rows ``[name, p...]`` (``""`` on the diagonal)."""
        return [[x] + [self.p[x, y] if x != y else "" for y in self.faces] for x in self.faces]


def _simple_cycles(names, beats) -> list[tuple[str, ...]]:
    """Each simple cycle of the digraph once, from its first name in ``names`` order."""
    after = {x: [y for y in names if (x, y) in beats] for x in names}
    found = []

    def extend(path):
        for y in after[path[-1]]:
            if y == path[0] and len(path) >= 3:
                found.append(tuple(path))
            elif names.index(y) > names.index(path[0]) and y not in path:
                extend(path + [y])

    for x in names:
        extend([x])
    return found


def _named_dice(dice) -> dict[str, tuple[int, ...]]:
    """``{name: faces}`` checked like :func:`parse_dice`: 2 to 8 dice with non-empty string names,
    each 1 to 20 integer faces."""
    if not isinstance(dice, dict) or not 2 <= len(dice) <= 8:
        raise ValueError(f"dice must be text or a dict of 2 to 8 dice {{name: faces}}, got {dice!r}"[:300])
    out = {}
    for name, faces in dice.items():
        if not isinstance(name, str) or not name.strip():
            raise ValueError(f"dice must be named by non-empty strings, got the name {name!r}")
        faces = check_sequence(f"dice[{name!r}]", faces, what="integer faces")
        if len(faces) > 20:
            raise ValueError(f"dice[{name!r}] must have 1 to 20 faces, got {len(faces)}")
        out[name] = tuple(check_int(f"dice[{name!r}][{k}]", f, -math.inf) for k, f in enumerate(faces))
    return out


def matchup(dice, rolls: int = 1) -> Matchup:
    """Exact win probabilities of every ordered pair of dice, "beats" and its cycles.

    Parameters
    ----------
    dice : dict or str
        ``{name: faces}`` (2 to 8 dice, each 1 to 20 integer faces), or text for :func:`parse_dice`.
    rolls : int
        Each player rolls their die this many times and adds, ``1..4``.

    Returns
    -------
    Matchup

    Examples
    --------
    >>> m = matchup("A: 0 0 4 4 4 4\\nB: 3 3 3 3 3 3\\nC: 2 2 2 2 6 6\\nD: 1 1 1 5 5 5")
    >>> m.p["A", "B"], m.cycles   # Efron's cycle, and C beats A too
    (Fraction(2, 3), (('A', 'B', 'C', 'D'), ('A', 'B', 'C')))
    >>> matchup(m.faces, rolls=2).cycles   # two dice each: no cycle is left
    ()
    """
    if isinstance(dice, str):
        try:
            dice = parse_dice(dice)
        except ValueError as err:
            raise ValueError(f"dice given as {err}") from None
    faces = _named_dice(dice)
    rolls = check_int("rolls", rolls, 1, 4)
    names = list(faces)
    p = {(x, y): efron.p_beats(faces[x], faces[y], rolls=rolls) for x, y in itertools.permutations(names, 2)}
    beats = tuple(e for e, v in p.items() if v > Fraction(1, 2))
    result = Matchup(faces, rolls, p, beats, ())
    cycles = sorted(_simple_cycles(names, set(beats)), key=lambda c: (-len(c), -result.weakest(c)))
    return Matchup(faces, rolls, p, beats, tuple(cycles))


def beat_graph(m: Matchup):
    """The beat graph: an arrow from each die to every die it beats, the best cycle in colour.

    Pairs that win equally often are joined by a dotted line. Returns a matplotlib ``Figure``
    (not attached to pyplot), described for a reader who cannot see it (:func:`beat_graph_alt`).

    >>> fig = beat_graph(matchup("A: 1 1 4\\nB: 2 2 3"))
    >>> [t.get_text() for t in fig.axes[0].texts]
    ['A', 'B']
    """
    if not isinstance(m, Matchup):
        raise ValueError(f"m must be a Matchup, as returned by matchup(), got {m!r}"[:300])
    from matplotlib.figure import Figure

    from dicelab.course.plotting import PALETTE, describe, draw_digraph

    names = list(m.faces)
    angle = [math.pi / 2 - 2 * math.pi * k / len(names) for k in range(len(names))]
    pos = {n: (math.cos(a), math.sin(a)) for n, a in zip(names, angle, strict=True)}
    best = m.cycles[0] if m.cycles else ()
    on_cycle = set(zip(best, best[1:] + best[:1], strict=True))
    edges = [(x, y, "", {"color": PALETTE[1], "lw": 2.5} if (x, y) in on_cycle else {}) for x, y in m.beats]
    edges += [
        (x, y, "", {"arrowstyle": "-", "linestyle": ":", "color": "0.6"})
        for x, y in itertools.combinations(names, 2)
        if m.p[x, y] == m.p[y, x]
    ]
    fig = Figure(figsize=(4.2, 4.2))
    ax = fig.add_subplot()
    draw_digraph(ax, pos, edges, radius=0.17, curved=0.08)
    title = " → ".join(best + best[:1]) if best else "no cycle: the dice are ordered"
    ax.set_title(f"A → B: A beats B. Cycle in colour:\n{title}", fontsize=10)
    return describe(fig, beat_graph_alt(m))


def beat_graph_alt(m: Matchup) -> str:
    """What :func:`beat_graph` shows, in words: its text alternative.

    >>> beat_graph_alt(matchup("A: 1 1 4\\nB: 2 2 3")).split("beats. ")[-1]
    'B beats A. No cycle: "beats" orders these dice.'
    """
    if not isinstance(m, Matchup):
        raise ValueError(f"m must be a Matchup, as returned by matchup(), got {m!r}"[:300])
    names = list(m.faces)
    listed = ", ".join(names[:-1]) + f" and {names[-1]}" if len(names) > 1 else names[0]
    words = [f"The beat graph of the dice {listed}, placed on a circle: an arrow runs from each die "
             "to every die it beats."]
    wins = {x: [y for a, y in m.beats if a == x] for x in names}
    words += [f"{x} beats {' and '.join(ys)}." for x, ys in wins.items() if ys]
    ties = [f"{x} and {y}" for x, y in itertools.combinations(names, 2) if m.p[x, y] == m.p[y, x]]
    if ties:
        words.append(f"Equally matched, joined by a dotted line: {'; '.join(ties)}.")
    if m.cycles:
        best = m.cycles[0]
        w = m.weakest(best)
        words.append(f"The cycle {' → '.join(best + best[:1])} is drawn in orange: each die on it beats "
                     f"the next with probability at least {w.numerator}/{w.denominator}.")
    else:
        words.append('No cycle: "beats" orders these dice.')
    return " ".join(words)


def _efron_view(text: str, rolls: int) -> tuple[str, bytes, str]:
    m = matchup(parse_dice(text), rolls)
    latex = lambda v: v if v == "" else rf"$\frac{{{v.numerator}}}{{{v.denominator}}}$"  # noqa: E731
    rows = [[f"<b>{html.escape(r[0])}</b>"] + [latex(v) for v in r[1:]] for r in m.rows()]
    table = _table(["P(row beats column)"] + [html.escape(n) for n in m.faces], rows)
    if m.cycles:
        best = m.cycles[0]
        w = m.weakest(best)
        verdict = (
            f"Nontransitive: {' → '.join(best + best[:1])}, each die beating the next with "
            rf"probability at least $\frac{{{w.numerator}}}{{{w.denominator}}}$ ({float(w):.3f}); "
            f"{len(m.cycles)} cycle(s) in all."
        )
    else:
        verdict = "No cycle: “beats” orders these dice (it is transitive here)."
    return f"<p>{html.escape(verdict, quote=False)}</p>{table}", _png(beat_graph(m)), beat_graph_alt(m)


EFRON_DICE = "A: 0 0 4 4 4 4\nB: 3 3 3 3 3 3\nC: 2 2 2 2 6 6\nD: 1 1 1 5 5 5"


def efron_explorer(text: str = EFRON_DICE, rolls: int = 1) -> Explorer:
    """Type dice, get the exact win probabilities and the beat graph (refreshed on every change).

    ``text`` is the first set of dice, as for :func:`parse_dice`, and ``rolls`` the rolls
    each, ``1..4``; both are checked before the widget is built. Dice typed later that
    cannot be read are refused in the table pane, by the same message, and the beat graph of
    the dice before them is cleared.

    >>> ex = efron_explorer()
    >>> ex.controls["dice"].value = "A: 1 2 3\\nB: 2 2 2"
    >>> "No cycle" in ex.panes["table"].value
    True
    """
    parse_dice(text)  # refuses text that is not dice, before any widget is built
    rolls = check_int("rolls", rolls, 1, 4)
    import ipywidgets as w

    dice = w.Textarea(value=text, description="dice", layout=w.Layout(width="26em", height="9em"))
    times = w.IntSlider(value=rolls, min=1, max=4, description="rolls each")
    table, graph = w.HTMLMath(), w.Image(format="png", layout=w.Layout(width="340px"))

    def refresh(_=None):
        def compute():
            text_html, png, alt = _efron_view(dice.value, times.value)
            graph.value = png
            graph.tooltip = alt  # the image's title: its text alternative in a live notebook
            return text_html

        # dice that cannot be read: the message replaces the table, and the old graph goes
        _guarded(table, compute, stale=[graph])

    dice.observe(refresh, "value")
    times.observe(refresh, "value")
    refresh()
    box = w.VBox([w.HBox([dice, times]), w.HBox([table, graph])])
    return Explorer(box, {"dice": dice, "rolls": times}, {"table": table, "graph": graph})
