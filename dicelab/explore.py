"""Explorers: the four games to play with, as pure functions and the widgets built on them.

Serves ``notebooks/explorers.ipynb``. Each explorer has a pure function that the notebook
shows as a static table or figure (what GitHub and the course site display), and an
``ipywidgets`` front end (in a live notebook) that calls the same function on every change:

``efron``     dice typed as text -> exact pairwise win probabilities and the beat graph
              (:func:`parse_dice`, :func:`matchup`, :func:`beat_graph`, :func:`efron_explorer`);
``b.a.d.g.``  dice left and a roll -> every sensible take, what optimal play takes and what
              each other take costs (:func:`strategy_card`, :func:`badg_explorer`);
``pig``       simultaneous Pig against hold-at-n, its best response or the equilibrium, with
              the win probability of every hold value before each turn (:func:`pig_opponent`,
              :func:`pig_play`, :func:`pig_explorer`);
``wimpout``   a turn of Cosmic Wimpout roll by roll: the score, the chain state and the exact
              chance of each way the turn can end (:func:`wimpout_roll`, :func:`wimpout_explorer`).

Probabilities are exact fractions where the solver is exact (Efron, Wimpout); the b.a.d.g. and
Pig values are the solvers' float64 solutions of the exact equations. A widget never shows a
traceback: a bad input is answered by a message in the widget.
"""

from __future__ import annotations

import functools
import html
import io
import itertools
import math
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from dicelab import badg, efron, pig, wimpout
from dicelab._checks import check_int, check_sequence

__all__ = [
    "Explorer",
    # Efron's dice
    "parse_dice",
    "Matchup",
    "matchup",
    "beat_graph",
    "efron_explorer",
    # b.a.d.g.
    "Take",
    "strategy_card",
    "badg_explorer",
    # simultaneous Pig
    "OPPONENTS",
    "PigOpponent",
    "pig_opponent",
    "PigGame",
    "pig_play",
    "pig_explorer",
    # Cosmic Wimpout
    "WimpoutTurn",
    "finish_chances",
    "wimpout_roll",
    "wimpout_explorer",
]


@dataclass
class Explorer:
    """A widget with its input ``controls`` and output ``panes`` by name; displays as the widget."""

    widget: object
    controls: dict
    panes: dict

    def _repr_mimebundle_(self, **kwargs):
        return self.widget._repr_mimebundle_(**kwargs)


def _guarded(pane, compute):
    """Set ``pane.value`` to ``compute()``, or to the message of the error that refused the input."""
    try:
        pane.value = compute()
    except (ValueError, TypeError, pig.NotConverged) as err:
        pane.value = f'<p style="color:#b00020"><b>Cannot compute this:</b> {html.escape(str(err))}</p>'


def _table(header, rows) -> str:
    pad = ' style="padding: 1px 12px 1px 4px; text-align: left"'
    cells = lambda tag, row: "".join(f"<{tag}{pad}>{c}</{tag}>" for c in row)  # noqa: E731
    body = "".join(f"<tr>{cells('td', r)}</tr>" for r in rows)
    return f"<table><thead><tr>{cells('th', header)}</tr></thead><tbody>{body}</tbody></table>"


def _png(fig) -> bytes:
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=90, bbox_inches="tight")
    return buffer.getvalue()


# --------------------------------------------------------------------------- Efron's dice
def parse_dice(text: str) -> dict[str, tuple[int, ...]]:
    """Dice written one per line, ``NAME: faces`` (the name may be left out), faces as integers.

    Parameters
    ----------
    text : str
        2 to 8 lines such as ``"A: 0 0 4 4 4 4"``; faces separated by spaces or commas, at
        most 20 per die; blank lines and lines starting with ``#`` are skipped.

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
    ValueError: line 1: 'x' is not a whole number (die A)
    """
    if not isinstance(text, str):
        raise ValueError(f"the dice must be text, one die per line, got {text!r}")
    dice: dict[str, tuple[int, ...]] = {}
    for number, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        name, colon, faces = line.rpartition(":")
        name = name.strip() if colon else "ABCDEFGHIJ"[min(len(dice), 9)]
        if not name or name in dice:
            raise ValueError(f"line {number}: each die needs its own name before ':', got {name!r} again"
                             if name else f"line {number}: a name must come before ':'")
        tokens = faces.replace(",", " ").split()
        if not 1 <= len(tokens) <= 20:
            raise ValueError(f"line {number}: die {name} must have 1 to 20 faces, got {len(tokens)}")
        for t in tokens:
            if not t.lstrip("+-").isdigit():
                raise ValueError(f"line {number}: {t!r} is not a whole number (die {name})")
        dice[name] = tuple(int(t) for t in tokens)
    if not 2 <= len(dice) <= 8:
        raise ValueError(f"give 2 to 8 dice, one per line; got {len(dice)}")
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
        """The smallest win probability around ``cycle``."""
        return min(self.p[x, y] for x, y in zip(cycle, cycle[1:] + cycle[:1], strict=True))

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


def matchup(dice, rolls: int = 1) -> Matchup:
    """Exact win probabilities of every ordered pair of dice, "beats" and its cycles.

    Parameters
    ----------
    dice : dict or str
        ``{name: faces}``, or text for :func:`parse_dice`.
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
    faces = parse_dice(dice) if isinstance(dice, str) else dict(dice)
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
    (not attached to pyplot).

    >>> fig = beat_graph(matchup("A: 1 1 4\\nB: 2 2 3"))
    >>> [t.get_text() for t in fig.axes[0].texts]
    ['A', 'B']
    """
    from matplotlib.figure import Figure

    from dicelab.plotting import PALETTE, draw_digraph

    names = list(m.faces)
    angle = [math.pi / 2 - 2 * math.pi * k / len(names) for k in range(len(names))]
    pos = {n: (math.cos(a), math.sin(a)) for n, a in zip(names, angle, strict=True)}
    best = m.cycles[0] if m.cycles else ()
    on_cycle = set(zip(best, best[1:] + best[:1], strict=True))
    edges = [(x, y, "", {"color": PALETTE[1], "lw": 2.5} if (x, y) in on_cycle else {}) for x, y in m.beats]
    edges += [(x, y, "", {"arrowstyle": "-", "linestyle": ":", "color": "0.6"})
              for x, y in itertools.combinations(names, 2) if m.p[x, y] == m.p[y, x]]
    fig = Figure(figsize=(4.2, 4.2))
    ax = fig.add_subplot()
    draw_digraph(ax, pos, edges, radius=0.17, curved=0.08)
    title = " → ".join(best + best[:1]) if best else "no cycle: the dice are ordered"
    ax.set_title(f"A → B: A beats B. Cycle in colour:\n{title}", fontsize=10)
    return fig


def _efron_view(text: str, rolls: int) -> tuple[str, bytes]:
    m = matchup(text, rolls)
    latex = lambda v: v if v == "" else rf"$\frac{{{v.numerator}}}{{{v.denominator}}}$"  # noqa: E731
    rows = [[f"<b>{html.escape(r[0])}</b>"] + [latex(v) for v in r[1:]] for r in m.rows()]
    table = _table(["P(row beats column)"] + [html.escape(n) for n in m.faces], rows)
    if m.cycles:
        best = m.cycles[0]
        w = m.weakest(best)
        verdict = (f"Nontransitive: {' → '.join(best + best[:1])}, each die beating the next with "
                   rf"probability at least $\frac{{{w.numerator}}}{{{w.denominator}}}$ ({float(w):.3f}); "
                   f"{len(m.cycles)} cycle(s) in all.")
    else:
        verdict = "No cycle: “beats” orders these dice (it is transitive here)."
    return f"<p>{html.escape(verdict, quote=False)}</p>{table}", _png(beat_graph(m))


EFRON_DICE = "A: 0 0 4 4 4 4\nB: 3 3 3 3 3 3\nC: 2 2 2 2 6 6\nD: 1 1 1 5 5 5"


def efron_explorer(text: str = EFRON_DICE, rolls: int = 1) -> Explorer:
    """Type dice, get the exact win probabilities and the beat graph (refreshed on every change).

    >>> ex = efron_explorer()
    >>> ex.controls["dice"].value = "A: 1 2 3\\nB: 2 2 2"
    >>> "No cycle" in ex.panes["table"].value
    True
    """
    import ipywidgets as w

    dice = w.Textarea(value=text, description="dice", layout=w.Layout(width="26em", height="9em"))
    times = w.IntSlider(value=rolls, min=1, max=4, description="rolls each")
    table, graph = w.HTMLMath(), w.Image(format="png", layout=w.Layout(width="340px"))

    def refresh(_=None):
        def compute():
            text_html, png = _efron_view(dice.value, times.value)
            graph.value = png
            return text_html

        _guarded(table, compute)

    dice.observe(refresh, "value")
    times.observe(refresh, "value")
    refresh()
    box = w.VBox([w.HBox([dice, times]), w.HBox([table, graph])])
    return Explorer(box, {"dice": dice, "rolls": times}, {"table": table, "graph": graph})


# --------------------------------------------------------------------------- b.a.d.g.
@dataclass(frozen=True)
class Take:
    """One sensible take: ``positions`` in the roll, the ``dice`` and ``faces`` taken, its b.a.d.g.
    ``points_now`` (sizes minus faces), ``expected_points`` for the rest of the game with optimal
    play after it, and its ``cost``: expected points above the best take (0 for the best)."""

    positions: tuple[int, ...]
    dice: tuple[int, ...]
    faces: tuple[int, ...]
    points_now: int
    expected_points: float
    cost: float


@functools.lru_cache(maxsize=32)
def _badg_solution(dice: tuple[int, ...]):
    return badg.solve(dice)


def strategy_card(state, roll) -> list[Take]:
    """Every sensible take after ``roll`` with ``state`` in play, best first, and what each costs.

    A sensible take removes the highest faces of each die size (others are never better).

    Parameters
    ----------
    state : sequence of int
        Sizes of the dice still in play, e.g. ``(6, 6, 8)``.
    roll : sequence of int
        One face per die of ``state``, in the same order.

    Returns
    -------
    list of Take
        Sorted by expected points (lowest first); the first is optimal play (among equally good
        takes, the one that takes most).

    Examples
    --------
    >>> card = strategy_card((6, 8), (5, 2))
    >>> [(t.faces, t.expected_points, t.cost) for t in card]   # take the 5: 14 - (5 + 4.5) points expected
    [((5,), 4.5, 0.0), ((5, 2), 7.0, 2.5), ((2,), 8.5, 4.0)]
    """
    sizes = check_sequence("state", state, what="die sizes")
    state = tuple(check_int("state: die size", s, 2) for s in sizes)
    solution = _badg_solution(tuple(sorted(state)))
    values = solution.take_values(state, roll)
    best_value, best = max(values.values()), solution.best_take(state, roll)
    cards = []
    for taken, value in values.items():
        dice = tuple(state[p] for p in taken)
        faces = tuple(int(roll[p]) for p in taken)
        expected = float(sum(state)) - value
        cards.append(Take(taken, dice, faces, sum(dice) - sum(faces), expected, best_value - value))
    return sorted(cards, key=lambda t: (t.positions != best, t.cost, -len(t.positions)))


def _card_view(state_text: str, roll_text: str, shown: int = 8) -> str:
    state, roll = _numbers("dice left", state_text), _numbers("roll", roll_text)
    card = strategy_card(state, roll)
    what = lambda t: ", ".join(f"{f} on a d{s}" for s, f in zip(t.dice, t.faces, strict=True))  # noqa: E731
    rows = [[("<b>optimal</b>: " if k == 0 else "") + what(t), t.points_now, f"{t.expected_points:.4f}",
             "—" if k == 0 else f"+{t.cost:.4f}"] for k, t in enumerate(card[:shown])]
    more = f"<p>… and {len(card) - shown} more takes, each worse.</p>" if len(card) > shown else ""
    best = card[0]
    head = f"<p>Optimal play takes <b>{what(best)}</b> and expects {best.expected_points:.4f} points.</p>"
    return head + _table(["take", "points now", "expected points, whole rest of game", "cost"], rows) + more


def _numbers(name: str, text: str) -> tuple[int, ...]:
    tokens = str(text).replace(",", " ").split()
    bad = [t for t in tokens if not t.isdigit()]
    if bad or not tokens:
        raise ValueError(f"{name}: write whole numbers separated by spaces, got {text!r}")
    return tuple(int(t) for t in tokens)


STANDARD_ROLL = "5 4 4 4 6 2 5 5 1 3 6 4 1 8 9"


def badg_explorer(state: str = " ".join(map(str, badg.STANDARD)), roll: str = STANDARD_ROLL,
                  seed: int = 2022) -> Explorer:
    """The strategy card: type the dice left and a roll (or roll at random), read the best take.

    >>> ex = badg_explorer("6 8", "5 2")
    >>> "Optimal play takes <b>5 on a d6</b>" in ex.panes["card"].value
    True
    """
    import ipywidgets as w

    wide = w.Layout(width="24em")
    dice = w.Text(value=state, description="dice left", layout=wide)
    faces = w.Text(value=roll, description="roll", layout=wide)
    again = w.Button(description="roll at random")
    card = w.HTML()
    rng = np.random.default_rng(seed)

    def refresh(_=None):
        _guarded(card, lambda: _card_view(dice.value, faces.value))

    def random_roll(_):
        try:
            sizes = _numbers("dice left", dice.value)
        except ValueError:
            return refresh()
        faces.value = " ".join(str(int(rng.integers(1, max(s, 1) + 1))) for s in sizes)

    dice.observe(refresh, "value")
    faces.observe(refresh, "value")
    again.on_click(random_roll)
    refresh()
    box = w.VBox([w.HBox([dice, faces, again]), card])
    return Explorer(box, {"dice": dice, "roll": faces, "random": again}, {"card": card})


# --------------------------------------------------------------------------- simultaneous Pig
OPPONENTS = ("hold_at", "best_response", "equilibrium")
"""The opponents of :func:`pig_opponent`: hold at n, the best response to hold at n, the equilibrium."""


@dataclass(frozen=True, eq=False)
class PigOpponent:
    """Player B, and A's best play against it.

    ``values[i, j]``: A's win probability at the start of a turn (A on ``i``, B on ``j``) when A
    plays the best response from there; ``mixed[i, j, k-1]``: the probability that B holds at
    ``k`` this turn.
    """

    name: str
    goal: int
    values: np.ndarray = field(repr=False)
    mixed: np.ndarray = field(repr=False)

    def choices(self, i: int, j: int) -> np.ndarray:
        """A's win probability for each hold value ``k = 1..goal-i`` this turn, optimal play after it."""
        A, C = pig.stage_game(self.values, i, j)
        y = self.mixed[i, j, : self.goal - j]
        return (A + C * self.values[i, j]) @ y


def _pure(table: np.ndarray) -> np.ndarray:
    """B's hold values ``table[j, i]`` as probabilities ``mixed[i, j, k-1]``."""
    goal = table.shape[0]
    mixed = np.zeros((goal, goal, goal))
    i, j = np.meshgrid(np.arange(goal), np.arange(goal), indexing="ij")
    mixed[i, j, table[j, i] - 1] = 1.0
    return mixed


@functools.lru_cache(maxsize=8)
def pig_opponent(kind: str = "best_response", n: int = 25, goal: int = pig.GOAL) -> PigOpponent:
    """Player B of :data:`OPPONENTS`, and A's best response to it (cached).

    Parameters
    ----------
    kind : {"hold_at", "best_response", "equilibrium"}
        B holds at ``n``; B plays the best response to hold at ``n``; B plays the equilibrium.
    n : int
        The hold value, ``1..goal`` (unused for the equilibrium).
    goal : int
        The target score, ``10..100``.

    Returns
    -------
    PigOpponent

    Examples
    --------
    >>> opp = pig_opponent("hold_at", 25)
    >>> q = opp.choices(0, 0)
    >>> int(q.argmax()) + 1, round(float(q.max()), 4)   # A's best hold value at the start, and its value
    (21, 0.5231)
    """
    if kind not in OPPONENTS:
        raise ValueError(f"kind must be one of {OPPONENTS}, got {kind!r}")
    goal = check_int("goal", goal, 10, pig.GOAL)
    if kind == "equilibrium":
        return _equilibrium(goal)
    n = check_int("n", n, 1, goal)
    b = pig.hold_at(n, goal)
    name = f"hold at {n}"
    if kind == "best_response":
        b, name = pig.best_response(b).policy, f"the best response to hold at {n}"
    return PigOpponent(name, goal, pig.best_response(b).values, _pure(np.asarray(b.two_player())))


@functools.lru_cache(maxsize=4)
def _equilibrium(goal: int) -> PigOpponent:
    eq = pig.equilibrium(goal)
    return PigOpponent("the equilibrium", goal, eq.values, eq.opponent)


@dataclass(frozen=True)
class PigGame:
    """A game in progress: the scores, the turns played (``(k, A's rolls, k', B's rolls)``), and
    ``winner`` (``"A"``, ``"B"``, ``"tie"``, or ``""`` while it goes on)."""

    goal: int
    scores: tuple[int, int] = (0, 0)
    turns: tuple = ()
    winner: str = ""


def _turn(k: int, rng) -> tuple[int, ...]:
    """Rolls of one player holding at ``k``: until the total reaches ``k``, or a 1."""
    rolls = []
    while sum(rolls) < k:
        rolls.append(int(rng.integers(1, 7)))
        if rolls[-1] == 1:
            break
    return tuple(rolls)


def pig_play(game: PigGame, opponent: PigOpponent, k: int, rng) -> PigGame:
    """One turn: A holds at ``k``, B holds at a value drawn from its strategy; both roll.

    Parameters
    ----------
    game : PigGame
        The game so far (not over).
    opponent : PigOpponent
        Player B.
    k : int
        A's hold value this turn, ``1..goal - A's score``.
    rng : numpy.random.Generator
        The dice.

    Returns
    -------
    PigGame

    Examples
    --------
    >>> opp = pig_opponent("hold_at", 3, goal=10)
    >>> game = pig_play(PigGame(10), opp, 10, np.random.default_rng(1))
    >>> game.turns[0][2], game.scores[1] == (sum(game.turns[0][3]) if 1 not in game.turns[0][3] else 0)
    (3, True)
    """
    if game.winner:
        raise ValueError(f"the game is over ({game.winner}): start a new one")
    i, j = game.scores
    k = check_int("k", k, 1, game.goal - i)
    k_b = int(rng.choice(np.arange(1, game.goal - j + 1), p=opponent.mixed[i, j, : game.goal - j]))
    a, b = _turn(k, rng), _turn(k_b, rng)
    i, j = i + (0 if 1 in a else sum(a)), j + (0 if 1 in b else sum(b))
    g = game.goal
    winner = "tie" if i >= g and j >= g else "A" if i >= g else "B" if j >= g else ""
    return PigGame(g, (i, j), game.turns + ((k, a, k_b, b),), winner)


def _pig_view(game: PigGame, opp: PigOpponent) -> str:
    lines = [f"<p>Against <b>{opp.name}</b>, goal {game.goal}.</p>"]
    for n, (k, a, kb, b) in enumerate(game.turns[-3:], max(1, len(game.turns) - 2)):
        show = lambda r: " ".join(map(str, r)) + (" → 0" if 1 in r else f" → {sum(r)}")  # noqa: E731
        lines.append(f"<p>Turn {n}: you held at {k}: {show(a)}; B held at {kb}: {show(b)}</p>")
    i, j = game.scores
    lines.append(f"<p>Score: <b>you {i}</b>, B {j}.</p>")
    if game.winner:
        verdict = {"A": "You win.", "B": "B wins.", "tie": "Both reach the goal: a tie, each gets 1/2."}
        return "".join(lines) + f"<p><b>{verdict[game.winner]}</b> Start a new game.</p>"
    q = opp.choices(i, j)
    best = int(q.argmax()) + 1
    lines.append(f"<p>Your win probability with optimal play from here: <b>{opp.values[i, j]:.4f}</b> "
                 f"(hold at {best} this turn).</p>")
    near = range(best - 3, best + 4)
    ks = sorted(k for k in {1, best - 10, *near, best + 10, len(q)} if 1 <= k <= len(q))
    loss = q[best - 1] - q
    cost = ["—" if k == best else f"−{loss[k - 1]:.4f}" if loss[k - 1] >= 5e-5 else "< 0.0001" for k in ks]
    rows = [[k, f"{q[k - 1]:.4f}", c] for k, c in zip(ks, cost, strict=True)]
    return "".join(lines) + _table(["hold at k", "win probability", "cost"], rows)


def pig_explorer(kind: str = "best_response", n: int = 25, goal: int = pig.GOAL, seed: int = 1) -> Explorer:
    """Play simultaneous Pig: choose a hold value each turn and watch your win probability.

    >>> ex = pig_explorer(goal=20, n=5)
    >>> ex.controls["play"].click()
    >>> "Turn 1" in ex.panes["game"].value
    True
    """
    import ipywidgets as w

    who = w.Dropdown(options=[("hold at n", "hold_at"), ("best response to hold at n", "best_response"),
                              ("equilibrium", "equilibrium")], value=kind, description="opponent")
    hold_n = w.IntSlider(value=n, min=1, max=pig.GOAL, description="n")
    target = w.Dropdown(options=[20, 30, 50, 100], value=goal, description="goal")
    k = w.IntSlider(value=1, min=1, max=goal, description="you hold at")
    play, new = w.Button(description="play the turn"), w.Button(description="new game")
    out = w.HTML()
    state = {"rng": np.random.default_rng(seed)}

    def show():
        game, opp = state["game"], state["opp"]
        if not game.winner:
            k.max = game.goal - game.scores[0]
            k.value = int(opp.choices(*game.scores).argmax()) + 1
        return _pig_view(game, opp)

    def restart(_=None):
        out.value = "<p>Solving…</p>"

        def compute():
            state["opp"] = pig_opponent(who.value, min(hold_n.value, target.value), target.value)
            state["game"] = PigGame(target.value)
            return show()

        _guarded(out, compute)

    def turn(_):
        def compute():
            if "game" not in state:
                raise ValueError("no game: choose an opponent first")
            state["game"] = pig_play(state["game"], state["opp"], k.value, state["rng"])
            return show()

        _guarded(out, compute)

    for control in (who, hold_n, target):
        control.observe(restart, "value")
    new.on_click(restart)
    play.on_click(turn)
    restart()
    box = w.VBox([w.HBox([who, hold_n, target]), w.HBox([k, play, new]), out])
    return Explorer(box, {"opponent": who, "n": hold_n, "goal": target, "k": k, "play": play, "new": new},
                    {"game": out})


# --------------------------------------------------------------------------- Cosmic Wimpout
@dataclass(frozen=True)
class WimpoutTurn:
    """A turn in progress: the chain ``state``, the Flash ``face`` to clear (or ``None``), the
    ``points`` so far and the ``rolls`` made, each as ``(roll, points it scored, state after)``."""

    state: wimpout.State = wimpout.ROLL_5
    face: int | None = None
    points: int = 0
    rolls: tuple = ()


@functools.cache
def _wimpout_chain():
    return wimpout.markov_chain()


def finish_chances(state: wimpout.State) -> dict[str, Fraction]:
    """The exact probability of each way a turn can end, from ``state`` (the paper's chain).

    >>> chances = finish_chances(wimpout.ROLL_5)
    >>> sum(chances.values()), round(float(chances["Score and Stop"]), 4)
    (Fraction(1, 1), 0.7719)
    """
    if state.absorbing:
        return {a.end: Fraction(a == state) for a in wimpout.ABSORBING}
    chain = _wimpout_chain()
    return {a.end: chain.absorption_probability(state, a) for a in wimpout.ABSORBING}


def wimpout_roll(turn: WimpoutTurn, roll) -> WimpoutTurn:
    """The turn after ``roll`` (a tuple of faces, or text such as ``"5 5 5 2 *"``) of the dice ``turn`` rolls.

    Examples
    --------
    >>> t = wimpout_roll(WimpoutTurn(), "5 5 5 2 6")
    >>> t.points, str(t.state), t.face
    (50, 'Flash 5, 10; Reroll 1B, 1W', 5)
    """
    if turn.state.absorbing:
        raise ValueError(f"the turn has ended ({turn.state}): start a new one")
    roll = wimpout.parse_roll(roll) if isinstance(roll, str) else tuple(roll)
    if len(roll) != turn.state.n_dice:
        raise ValueError(f"{turn.state} rolls {turn.state.n_dice} dice (black die last), got {len(roll)}")
    st = wimpout.step(turn.state, roll, face=turn.face)
    points = 0 if st.state in (wimpout.WIMPOUT, wimpout.AUTO_LOSE) else turn.points + st.points
    return WimpoutTurn(st.state, st.flash, points, turn.rolls + ((roll, st.points, st.state),))


def _random_roll(state: wimpout.State, rng) -> tuple:
    white = [wimpout.WHITE_FACES[int(x)] for x in rng.integers(0, 6, size=state.white)]
    return tuple(white) + ((wimpout.BLACK_FACES[int(rng.integers(0, 6))],) if state.black else ())


def _wimpout_view(turn: WimpoutTurn) -> str:
    rows = [[wimpout.show(r), p, html.escape(str(s))] for r, p, s in turn.rolls]
    chances = finish_chances(turn.state)
    tex = lambda v: rf"$\frac{{{v.numerator}}}{{{v.denominator}}}$" if v.denominator > 1 else str(v)  # noqa: E731
    odds = [[end, tex(v) if v.denominator < 10**6 else "", f"{float(v):.4f}"] for end, v in chances.items()]
    face = f", Flash of {turn.face}s to clear" if turn.face is not None else ""
    where = html.escape(str(turn.state))
    head = (f"<p>Turn so far: <b>{turn.points} points</b>; state <b>{where}</b>{face}. "
            + ("The turn is over.</p>" if turn.state.absorbing else
               f"Next: roll {turn.state.n_dice} dice (white first, black last; * is the sun).</p>"))
    return (head + _table(["roll", "points", "state after"], rows)
            + "<p>How the turn ends from here (exact, the paper's chain):</p>"
            + _table(["ending", "probability", "≈"], odds))


def wimpout_explorer(seed: int = 7) -> Explorer:
    """Play a turn of Cosmic Wimpout roll by roll: type a roll or roll at random.

    >>> ex = wimpout_explorer()
    >>> ex.controls["roll"].value = "5 2 3 4 6"
    >>> ex.controls["go"].click()
    >>> "5 points" in ex.panes["turn"].value
    True
    """
    import ipywidgets as w

    typed = w.Text(value="", placeholder="e.g. 5 5 5 2 *  (empty: random)", description="roll")
    go, new = w.Button(description="roll"), w.Button(description="new turn")
    out = w.HTMLMath()
    state = {"turn": WimpoutTurn(), "rng": np.random.default_rng(seed)}

    def roll(_):
        def compute():
            faces = typed.value.strip() or _random_roll(state["turn"].state, state["rng"])
            state["turn"] = wimpout_roll(state["turn"], faces)
            return _wimpout_view(state["turn"])

        _guarded(out, compute)

    def restart(_=None):
        state["turn"] = WimpoutTurn()
        out.value = _wimpout_view(state["turn"])

    go.on_click(roll)
    new.on_click(restart)
    restart()
    box = w.VBox([w.HBox([typed, go, new]), out])
    return Explorer(box, {"roll": typed, "go": go, "new": new}, {"turn": out})
