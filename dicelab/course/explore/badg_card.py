"""b.a.d.g.: the strategy card, every sensible take of a roll and what it costs."""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

from dicelab import badg
from dicelab.badg.state import Game, check_roll
from dicelab.badg.tables import check_solver_cost
from dicelab.core.checks import check_int, check_sequence, check_str
from dicelab.course.explore._widgets import Explorer, _guarded, _table


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
    state = check_sequence("state", state, what="die sizes")
    game = Game.of(state, "state")
    state, roll = check_roll(game, state, roll)
    check_solver_cost(game, "state")
    solution = _badg_solution(game.dice)
    values = solution.take_values(state, roll)
    best_value, best = max(values.values()), solution.best_action((state, roll))
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
    rows = [
        [
            ("<b>optimal</b>: " if k == 0 else "") + what(t),
            t.points_now,
            f"{t.expected_points:.4f}",
            "—" if k == 0 else f"+{t.cost:.4f}",
        ]
        for k, t in enumerate(card[:shown])
    ]
    more = f"<p>… and {len(card) - shown} more takes, each worse.</p>" if len(card) > shown else ""
    best = card[0]
    head = f"<p>Optimal play takes <b>{what(best)}</b> and expects {best.expected_points:.4f} points.</p>"
    header = ["take", "points now", "expected points, whole rest of game", "cost (expected points given up)"]
    return head + _table(header, rows) + more


def _numbers(name: str, text: str) -> tuple[int, ...]:
    tokens = str(text).replace(",", " ").split()
    bad = [t for t in tokens if not (t.isascii() and t.isdigit())]
    if bad or not tokens:
        raise ValueError(f"{name}: write whole numbers separated by spaces, got {text!r}")
    return tuple(int(t) for t in tokens)


STANDARD_ROLL = "5 4 4 4 6 2 5 5 1 3 6 4 1 8 9"


def badg_explorer(
    state: str = " ".join(map(str, badg.STANDARD)), roll: str = STANDARD_ROLL, seed: int = 2022
) -> Explorer:
    """The strategy card: type the dice left and a roll (or roll at random), read the best take.

    Parameters
    ----------
    state : str
        The dice left, as die sizes separated by spaces or commas.
    roll : str
        One face per die of ``state``, likewise.
    seed : int
        Seed of the random rolls.

    Returns
    -------
    Explorer

    Examples
    --------
    >>> ex = badg_explorer("6 8", "5 2")
    >>> "Optimal play takes <b>5 on a d6</b>" in ex.panes["card"].value
    True
    """
    sizes = _numbers("state", check_str("state", state))
    faces_shown = _numbers("roll", check_str("roll", roll))
    seed = check_int("seed", seed, 0)
    strategy_card(sizes, faces_shown)  # refuses a state or roll the card cannot show
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
