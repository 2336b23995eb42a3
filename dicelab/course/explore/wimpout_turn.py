"""Cosmic Wimpout: a turn roll by roll, with the chain state and the exact chances; after a roll
that scores but not on every die, the choice to bank or to keep rolling, with what each is worth."""

from __future__ import annotations

import functools
import html
import numbers
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from dicelab import wimpout
from dicelab.core.checks import check_int, check_sequence
from dicelab.course.explore._widgets import Explorer, _guarded, _table
from dicelab.wimpout import Choice

_PAPER_STATES = wimpout.TRANSIENT + wimpout.ABSORBING


def _check_paper_state(name: str, state) -> wimpout.State:
    """``state`` if it is one of the 21 states of the paper's chain, or a ValueError naming ``name``."""
    if not isinstance(state, wimpout.State) or state not in _PAPER_STATES:
        raise ValueError(
            f"{name} must be one of the 21 states of the paper's chain (wimpout.TRANSIENT, "
            f"wimpout.ABSORBING), got {state!r}"
        )
    return state


@dataclass(frozen=True)
class WimpoutTurn:
    """A turn in progress: the chain ``state``, the Flash ``face`` to clear (or ``None``), the
    ``points`` so far and the ``rolls`` made, each as ``(roll, points it scored, state after)``;
    ``free``: after a roll that scored but not on every die (the paper's chain stops there), the
    :class:`~dicelab.wimpout.Choice` of dice the player may still roll, else ``None``.

    ``state`` is one of the states of the paper's chain; ``face``, when given, one of the
    faces of the state's Flash; ``free`` is given only in ``Score and Stop``.

    >>> WimpoutTurn().state == wimpout.ROLL_5
    True
    """

    state: wimpout.State = wimpout.ROLL_5
    face: int | None = None
    points: int = 0
    rolls: tuple = ()
    free: Choice | None = None

    def __post_init__(self):
        _check_paper_state("state", self.state)
        if self.free is not None and (not isinstance(self.free, Choice) or self.state != wimpout.STOP):
            raise ValueError(
                f"free must be None, or a Choice (the dice that did not score) in the state Score and Stop, "
                f"got {self.free!r} in {self.state}"
            )
        if self.face is not None:
            flash, face = self.state.flash, self.face
            if isinstance(face, bool) or not isinstance(face, numbers.Integral) or face not in flash:
                raise ValueError(
                    f"face must be None or one of the faces {flash} of the Flash to clear in state "
                    f"{str(self.state)!r}, got {self.face!r}"
                )
        check_int("points", self.points, 0)
        rolls = check_sequence("rolls", self.rolls, what="(roll, points, state) records", nonempty=False)
        for record in rolls:
            if not (
                isinstance(record, tuple)
                and len(record) == 3
                and isinstance(record[2], wimpout.State)
                and isinstance(record[1], numbers.Integral)
                and not isinstance(record[1], bool)
            ):
                raise ValueError(f"rolls must hold (roll, points, state after) records, got {record!r}")
        object.__setattr__(self, "rolls", rolls)


@functools.cache
def _wimpout_chain():
    return wimpout.markov_chain()


def finish_chances(state: wimpout.State) -> dict[str, Fraction]:
    """The exact probability of each way a turn can end, from ``state`` (the paper's chain).

    >>> chances = finish_chances(wimpout.ROLL_5)
    >>> sum(chances.values()), round(float(chances["Score and Stop"]), 4)
    (Fraction(1, 1), 0.7719)
    """
    state = _check_paper_state("state", state)
    if state.absorbing:
        return {a.end: Fraction(a == state) for a in wimpout.ABSORBING}
    chain = _wimpout_chain()
    return {a.end: chain.absorption_probability(state, a) for a in wimpout.ABSORBING}


def _check_turn(turn) -> WimpoutTurn:
    if not isinstance(turn, WimpoutTurn):
        raise ValueError(f"turn must be a WimpoutTurn (WimpoutTurn() starts one), got {turn!r}")
    if turn.state.absorbing and turn.free is None:
        raise ValueError(f"turn: the turn has ended ({turn.state}): start a new one")
    return turn


def _dice_of(turn: WimpoutTurn):
    """The dice the next roll throws: the free dice at a choice, else the state's."""
    return turn.free if turn.free is not None else turn.state


def _fine_state(turn: WimpoutTurn) -> wimpout.State:
    """The state of the finer chain (each Flash by its own face) that the turn is in."""
    if turn.face is None:
        return turn.state
    return wimpout.State(turn.state.white, turn.state.black, (turn.face,))


def _paper_state(nxt) -> tuple[wimpout.State, int | None, Choice | None]:
    """A state of the turn played for points as the paper's chain names it: (state, face, free)."""
    if isinstance(nxt, Choice):
        return wimpout.STOP, None, nxt
    if nxt.absorbing or not nxt.flash:
        return nxt, None, None
    face = nxt.flash[0]
    return wimpout.clearing_state(face, nxt.white, nxt.black), face, None


def wimpout_roll(turn: WimpoutTurn, roll) -> WimpoutTurn:
    """The turn after ``roll`` (a tuple of faces, or text such as ``"5 5 5 2 *"``) of the dice ``turn``
    rolls: the dice of its state, or at a choice (``turn.free``) the free dice, which the player rolls
    instead of banking.

    Examples
    --------
    >>> t = wimpout_roll(WimpoutTurn(), "5 5 5 2 6")
    >>> t.points, str(t.state), t.face
    (50, 'Flash 5, 10; Reroll 1B, 1W', 5)
    >>> t = wimpout_roll(WimpoutTurn(), "5 2 3 4 6")   # one 5: bank 5, or roll the other four
    >>> t.points, t.free.dice
    (5, '3W + 1B')
    >>> wimpout_roll(t, "10 3 4 *").free.dice   # the 10 and the sun score: bank 25, or roll two on
    '2W'
    """
    turn = _check_turn(turn)
    dice = _dice_of(turn)
    if isinstance(roll, str):
        try:
            roll = wimpout.parse_roll(roll, has_black=dice.black)
        except ValueError as err:  # parse_roll names its argument "text": here it is the roll
            why = str(err).removeprefix("text: ").replace("text must", "it must", 1)
            raise ValueError(f"roll {roll!r}: {why}") from None
    roll = check_sequence("roll", roll, what="faces")
    if len(roll) != dice.n_dice:
        where = f"the free dice {turn.free.dice}" if turn.free is not None else str(turn.state)
        raise ValueError(f"roll: {where} rolls {dice.n_dice} dice (black die last), got {len(roll)}")
    nxt, gain = wimpout.turn_step(turn.free if turn.free is not None else _fine_state(turn), roll)
    state, face, free = _paper_state(nxt)
    points = 0 if state in (wimpout.WIMPOUT, wimpout.AUTO_LOSE) else turn.points + gain
    return WimpoutTurn(state, face, points, turn.rolls + ((roll, gain, state),), free)


def wimpout_bank(turn: WimpoutTurn) -> WimpoutTurn:
    """The turn ended by banking its points at a choice (``turn.free``).

    >>> t = wimpout_bank(wimpout_roll(WimpoutTurn(), "5 2 3 4 6"))
    >>> t.points, t.free, str(t.state)
    (5, None, 'Score and Stop')
    """
    turn = _check_turn(turn)
    if turn.free is None:
        raise ValueError(f"turn: only a turn at a choice may bank; {turn.state} must roll on")
    return WimpoutTurn(turn.state, None, turn.points, turn.rolls, None)


@functools.cache
def _best_turn():
    return wimpout.solve_turn()


def choice_values(turn: WimpoutTurn) -> dict[str, Fraction]:
    """At a choice: the expected points banked if the player banks now, and if they roll the free
    dice and then play best (:func:`~dicelab.wimpout.solve_turn`).

    >>> v = choice_values(wimpout_roll(WimpoutTurn(), "5 2 3 4 6"))
    >>> v["bank"], round(float(v["roll"]), 2)   # roll the four free dice: far better than 5
    (Fraction(5, 1), 21.89)
    """
    turn = _check_turn(turn)
    if turn.free is None:
        raise ValueError(f"turn: {turn.state} is not a choice: the rules say what to roll")
    return {"bank": Fraction(turn.points), "roll": _best_turn().roll_value(turn.free, turn.points)}


def _random_roll(state: wimpout.State, rng) -> tuple:
    white = [wimpout.WHITE_FACES[int(x)] for x in rng.integers(0, 6, size=state.white)]
    return tuple(white) + ((wimpout.BLACK_FACES[int(rng.integers(0, 6))],) if state.black else ())


def _chance(v: Fraction) -> str:
    """A probability as a reader can use it: the fraction when it is short, else 4 significant figures
    (a chance below 0.001 in powers of ten, never rounded to 0)."""
    if v.denominator < 10**6:
        return rf"$\frac{{{v.numerator}}}{{{v.denominator}}}$" if v.denominator > 1 else str(v)
    x = float(v)
    if x >= 0.001:
        return f"{x:.4f}"
    mantissa, exponent = f"{x:.3e}".split("e")
    return rf"${mantissa} \times 10^{{{int(exponent)}}}$"


def _wimpout_view(turn: WimpoutTurn) -> str:
    rows = [[wimpout.show(r), p, html.escape(str(s))] for r, p, s in turn.rolls]
    odds = [[end, _chance(v)] for end, v in finish_chances(turn.state).items()]
    face = f", Flash of {turn.face}s to clear" if turn.face is not None else ""
    where = html.escape(str(turn.state))
    n = _dice_of(turn).n_dice
    if turn.free is not None:
        v = choice_values(turn)
        better = "roll" if v["roll"] > v["bank"] else "bank"
        head = (
            f"<p>Turn so far: <b>{turn.points} points</b>. <b>Your choice:</b> bank them, or roll the "
            f"{n} free {'die' if n == 1 else 'dice'} ({turn.free.dice}; white first, black last).</p>"
            + _table(
                ["option", "expected points banked (best play after)"],
                [["bank now", turn.points], ["roll the free dice", f"{float(v['roll']):.2f}"]],
            )
            + f"<p>Best play: <b>{better}</b>. If you bank, the turn ends as in the paper's chain:</p>"
        )
    elif turn.state.absorbing:
        head = (
            f"<p>Turn so far: <b>{turn.points} points</b>; state <b>{where}</b>. "
            "The turn is over: start a new turn.</p>"
        )
    else:
        head = (
            f"<p>Turn so far: <b>{turn.points} points</b>; state <b>{where}</b>{face}. "
            f"Next: roll {n} {'die' if n == 1 else 'dice'} (white first, black last; * is the sun).</p>"
        )
    return (
        head
        + _table(["roll", "points", "state after"], rows)
        + "<p>How the turn ends from here (the paper's chain; exact fractions, or 4 significant "
        "figures where the exact denominator is long):</p>" + _table(["ending", "probability"], odds)
    )


def wimpout_explorer(seed: int = 7) -> Explorer:
    """Play a turn of Cosmic Wimpout roll by roll: type a roll or roll at random. After a roll that
    scores but not on every die, bank the points or roll the free dice on: the view shows what each
    option is worth with best play after it.

    A roll is used once (the box is emptied); a roll that is refused, or a roll after the turn has
    ended, leaves the turn's record as it was and says why below it.

    >>> ex = wimpout_explorer()
    >>> ex.controls["roll"].value = "5 2 3 4 6"
    >>> ex.controls["go"].click()
    >>> "5 points" in ex.panes["turn"].value
    True
    """
    seed = check_int("seed", seed, 0)
    import ipywidgets as w

    typed = w.Text(value="", placeholder="e.g. 5 5 5 2 *  (empty: random)", description="roll")
    go, bank, new = (
        w.Button(description="roll"),
        w.Button(description="bank"),
        w.Button(description="new turn"),
    )
    out, message = w.HTMLMath(), w.HTML()
    state = {"turn": WimpoutTurn(), "rng": np.random.default_rng(seed)}

    def roll(_):
        def compute():
            faces = typed.value.strip() or _random_roll(state["turn"].state, state["rng"])
            state["turn"] = wimpout_roll(state["turn"], faces)
            return _wimpout_view(state["turn"])

        # a refused roll leaves the turn as it was: the message shows under its record
        if _guarded(out, compute, message=message):
            typed.value = ""
        enable()

    def enable():
        turn = state["turn"]
        go.disabled = turn.state.absorbing and turn.free is None
        bank.disabled = turn.free is None

    def take(_):
        state["turn"] = wimpout_bank(state["turn"])
        out.value, message.value = _wimpout_view(state["turn"]), ""
        enable()

    def restart(_=None):
        state["turn"] = WimpoutTurn()
        out.value, message.value = _wimpout_view(state["turn"]), ""
        enable()

    go.on_click(roll)
    bank.on_click(take)
    new.on_click(restart)
    restart()
    box = w.VBox([w.HBox([typed, go, bank, new]), out, message])
    return Explorer(
        box, {"roll": typed, "go": go, "bank": bank, "new": new}, {"turn": out, "message": message}
    )
