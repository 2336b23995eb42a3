"""Simultaneous Pig: play against hold-at-n, its best response or the equilibrium."""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

import numpy as np

from dicelab import pig
from dicelab.core.checks import check_choice, check_int, check_sequence
from dicelab.core.spec import Int, OneOf, validated
from dicelab.course.explore._widgets import Explorer, _guarded, _table

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
        """A's win probability for each hold value ``k = 1..goal-i`` this turn, optimal play after it.

        Parameters
        ----------
        i, j : int
            A's and B's scores, below ``goal``.

        Returns
        -------
        numpy.ndarray
            ``q[k-1]`` for ``k = 1..goal-i``.

        Examples
        --------
        >>> pig_opponent("hold_at", 3, goal=10).choices(5, 0).round(4).tolist()  # A needs 5 points
        [0.8406, 0.8406, 0.8666, 0.8966, 0.9316]
        """
        i, j = check_int("i", i, 0, self.goal - 1), check_int("j", j, 0, self.goal - 1)
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


@validated(
    kind=OneOf(OPPONENTS), n=Int(1), goal=Int(10, pig.GOAL), example={"kind": "hold_at", "n": 3, "goal": 10}
)
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
    if kind == "equilibrium":
        return _equilibrium(goal)
    return _hold_opponent(kind, check_int("n", n, 1, goal), goal)


@functools.lru_cache(maxsize=8)
def _hold_opponent(kind: str, n: int, goal: int) -> PigOpponent:
    b = pig.hold_at(n, goal)
    name = f"hold at {n}"
    if kind == "best_response":
        b, name = pig.solve_best_response(b).policy, f"the best response to hold at {n}"
    return PigOpponent(name, goal, pig.solve_best_response(b).values, _pure(np.asarray(b.two_player())))


@functools.lru_cache(maxsize=4)
def _equilibrium(goal: int) -> PigOpponent:
    eq = pig.solve_equilibrium(goal)
    return PigOpponent("the equilibrium", goal, eq.values, eq.opponent)


def _winner(scores: tuple[int, int], goal: int) -> str:
    """``"A"``, ``"B"`` or ``"tie"`` for who has reached ``goal``; ``""`` while nobody has."""
    i, j = scores
    return "tie" if i >= goal and j >= goal else "A" if i >= goal else "B" if j >= goal else ""


@dataclass(frozen=True)
class PigGame:
    """A game in progress: the scores, the turns played (``(k, A's rolls, k', B's rolls)``), and
    ``winner`` (``"A"``, ``"B"``, ``"tie"``, or ``""`` while it goes on).

    Parameters
    ----------
    goal : int
        The target score, ``10..100`` (that of the opponents of :func:`pig_opponent`).
    scores : (int, int)
        A's and B's scores, ``0..goal+5`` (a last turn may overshoot the goal by up to 5).
    turns : tuple
        The turns so far, each ``(k, A's rolls, k', B's rolls)``.
    winner : str
        Who has won; it must agree with ``scores``.

    Examples
    --------
    >>> PigGame(20).scores, PigGame(20, (21, 3), winner="A").winner
    ((0, 0), 'A')
    """

    goal: int
    scores: tuple[int, int] = (0, 0)
    turns: tuple = ()
    winner: str = ""

    def __post_init__(self):
        goal = check_int("goal", self.goal, 10, pig.GOAL)
        scores = check_sequence("scores", self.scores, what="scores (A's, B's)")
        if len(scores) != 2:
            raise ValueError(f"scores must be two scores (A's, B's), got {self.scores!r}")
        scores = tuple(check_int("scores", s, 0, goal + 5) for s in scores)
        turns = check_sequence(
            "turns", self.turns, what="turns (k, A's rolls, k', B's rolls)", nonempty=False
        )
        if not all(isinstance(t, tuple) and len(t) == 4 for t in turns):
            raise ValueError("turns must hold tuples (k, A's rolls, k', B's rolls)")
        winner = check_choice("winner", self.winner, ("", "A", "B", "tie"))
        if winner != _winner(scores, goal):
            raise ValueError(f"winner must be {_winner(scores, goal)!r} at scores {scores}, got {winner!r}")
        for name, value in (("goal", goal), ("scores", scores), ("turns", turns)):
            object.__setattr__(self, name, value)


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
    if not isinstance(game, PigGame):
        raise ValueError(f"game must be a PigGame, got {game!r}")
    if not isinstance(opponent, PigOpponent):
        raise ValueError(f"opponent must be a PigOpponent (see pig_opponent), got {opponent!r}")
    if opponent.goal != game.goal:
        raise ValueError(f"opponent plays to goal {opponent.goal}, the game to {game.goal}")
    if not isinstance(rng, np.random.Generator):
        raise ValueError(f"rng must be a numpy.random.Generator (np.random.default_rng(seed)), got {rng!r}")
    if game.winner:
        raise ValueError(f"the game is over ({game.winner}): start a new one")
    i, j = game.scores
    k = check_int("k", k, 1, game.goal - i)
    k_b = int(rng.choice(np.arange(1, game.goal - j + 1), p=opponent.mixed[i, j, : game.goal - j]))
    a, b = _turn(k, rng), _turn(k_b, rng)
    i, j = i + (0 if 1 in a else sum(a)), j + (0 if 1 in b else sum(b))
    return PigGame(game.goal, (i, j), game.turns + ((k, a, k_b, b),), _winner((i, j), game.goal))


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
    lines.append(
        f"<p>Your win probability with optimal play from here: <b>{opp.values[i, j]:.4f}</b> "
        f"(hold at {best} this turn).</p>"
    )
    near = range(best - 3, best + 4)
    ks = sorted(k for k in {1, best - 10, *near, best + 10, len(q)} if 1 <= k <= len(q))
    loss = q[best - 1] - q  # what each hold value gives up, >= 0: the same convention as the b.a.d.g. card
    cost = ["—" if k == best else f"+{loss[k - 1]:.4f}" if loss[k - 1] >= 5e-5 else "< 0.0001" for k in ks]
    rows = [[k, f"{q[k - 1]:.4f}", c] for k, c in zip(ks, cost, strict=True)]
    return "".join(lines) + _table(["hold at k", "win probability", "cost (win probability given up)"], rows)


_GOALS = (20, 30, 50, 100)
"""The goals the explorer offers."""


@validated(kind=OneOf(OPPONENTS), n=Int(1, pig.GOAL), seed=Int(0), example={"kind": "hold_at", "goal": 20})
def pig_explorer(kind: str = "best_response", n: int = 25, goal: int = pig.GOAL, seed: int = 1) -> Explorer:
    """Play simultaneous Pig: choose a hold value each turn and watch your win probability.

    While an opponent is solved every control is disabled; when the game is over, *play the
    turn* is disabled until a new game, and a turn refused keeps the game's record, the message
    under it.

    Parameters
    ----------
    kind : {"hold_at", "best_response", "equilibrium"}
        The opponent to start with (:func:`pig_opponent`).
    n : int
        Its hold value, ``1..100``.
    goal : {20, 30, 50, 100}
        The target score to start with.
    seed : int
        Seeds the dice, ``>= 0``.

    Returns
    -------
    Explorer

    Examples
    --------
    >>> ex = pig_explorer(goal=20, n=5)
    >>> ex.controls["play"].click()
    >>> "Turn 1" in ex.panes["game"].value
    True
    """
    goal = check_choice("goal", check_int("goal", goal, 20), _GOALS)
    import ipywidgets as w

    who = w.Dropdown(
        options=[
            ("hold at n", "hold_at"),
            ("best response to hold at n", "best_response"),
            ("equilibrium", "equilibrium"),
        ],
        value=kind,
        description="opponent",
    )
    hold_n = w.IntSlider(value=n, min=1, max=pig.GOAL, description="n")
    target = w.Dropdown(options=list(_GOALS), value=goal, description="goal")
    k = w.IntSlider(value=1, min=1, max=goal, description="you hold at")
    play, new = w.Button(description="play the turn"), w.Button(description="new game")
    out, message = w.HTML(), w.HTML()
    state = {"rng": np.random.default_rng(seed)}
    controls = (who, hold_n, target, k, play, new)

    def show():
        game, opp = state["game"], state["opp"]
        play.disabled = bool(game.winner)
        if not game.winner:
            k.max = game.goal - game.scores[0]
            k.value = int(opp.choices(*game.scores).argmax()) + 1
        return _pig_view(game, opp)

    def restart(_=None):
        # A solve takes a while (the first of a session also compiles the solver): the controls
        # are disabled meanwhile, so that no click waits in line to play turns unseen.
        out.value = (
            "<p>Solving… (the first solve of a session also compiles the solver: up to half a "
            "minute; the equilibrium takes longest)</p>"
        )
        message.value = ""
        for control in controls:
            control.disabled = True

        def compute():
            state.pop("game", None)
            state["opp"] = pig_opponent(who.value, min(hold_n.value, target.value), target.value)
            state["game"] = PigGame(target.value)
            return show()

        try:
            _guarded(out, compute)
        finally:
            for control in controls:
                control.disabled = control is play and state.get("game") is None

    def turn(_):
        def compute():
            if "game" not in state:
                raise ValueError("no game: choose an opponent first")
            state["game"] = pig_play(state["game"], state["opp"], k.value, state["rng"])
            return show()

        # a refused turn (the game is over) leaves the game's record as it was, the message under it
        _guarded(out, compute, message=message)

    for control in (who, hold_n, target):
        control.observe(restart, "value")
    new.on_click(restart)
    play.on_click(turn)
    restart()
    box = w.VBox([w.HBox([who, hold_n, target]), w.HBox([k, play, new]), out, message])
    return Explorer(
        box,
        {"opponent": who, "n": hold_n, "goal": target, "k": k, "play": play, "new": new},
        {"game": out, "message": message},
    )
