"""Cosmic Wimpout: a turn roll by roll, with the chain state and the exact chances."""

from __future__ import annotations

import functools
import html
import numbers
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from dicelab import wimpout
from dicelab._checks import check_int, check_sequence
from dicelab.explore._widgets import Explorer, _guarded, _table
from dicelab.wimpout.dice import _check_roll, _parse_roll

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
    ``points`` so far and the ``rolls`` made, each as ``(roll, points it scored, state after)``.

    ``state`` is one of the states of the paper's chain; ``face``, when given, one of the
    faces of the state's Flash.

    >>> WimpoutTurn().state == wimpout.ROLL_5
    True
    """

    state: wimpout.State = wimpout.ROLL_5
    face: int | None = None
    points: int = 0
    rolls: tuple = ()

    def __post_init__(self):
        _check_paper_state("state", self.state)
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


def wimpout_roll(turn: WimpoutTurn, roll) -> WimpoutTurn:
    """The turn after ``roll`` (a tuple of faces, or text such as ``"5 5 5 2 *"``) of the dice ``turn`` rolls.

    Examples
    --------
    >>> t = wimpout_roll(WimpoutTurn(), "5 5 5 2 6")
    >>> t.points, str(t.state), t.face
    (50, 'Flash 5, 10; Reroll 1B, 1W', 5)
    """
    if not isinstance(turn, WimpoutTurn):
        raise ValueError(f"turn must be a WimpoutTurn (WimpoutTurn() starts one), got {turn!r}")
    if turn.state.absorbing:
        raise ValueError(f"turn: the turn has ended ({turn.state}): start a new one")
    black = turn.state.black
    roll = _parse_roll(roll, "roll", black) if isinstance(roll, str) else _check_roll(roll, black)[0]
    if len(roll) != turn.state.n_dice:
        raise ValueError(
            f"roll: {turn.state} rolls {turn.state.n_dice} dice (black die last), got {len(roll)}"
        )
    st = wimpout.step(turn.state, roll, face=turn.face)
    points = 0 if st.state in (wimpout.WIMPOUT, wimpout.AUTO_LOSE) else turn.points + st.points
    return WimpoutTurn(st.state, st.flash, points, turn.rolls + ((roll, st.points, st.state),))


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
    n = turn.state.n_dice
    head = f"<p>Turn so far: <b>{turn.points} points</b>; state <b>{where}</b>{face}. " + (
        "The turn is over: start a new turn.</p>"
        if turn.state.absorbing
        else f"Next: roll {n} {'die' if n == 1 else 'dice'} (white first, black last; * is the sun).</p>"
    )
    return (
        head
        + _table(["roll", "points", "state after"], rows)
        + "<p>How the turn ends from here (the paper's chain; exact fractions, or 4 significant "
        "figures where the exact denominator is long):</p>"
        + _table(["ending", "probability"], odds)
    )


def wimpout_explorer(seed: int = 7) -> Explorer:
    """Play a turn of Cosmic Wimpout roll by roll: type a roll or roll at random.

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
    go, new = w.Button(description="roll"), w.Button(description="new turn")
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
        go.disabled = state["turn"].state.absorbing

    def restart(_=None):
        state["turn"] = WimpoutTurn()
        out.value, message.value, go.disabled = _wimpout_view(state["turn"]), "", False

    go.on_click(roll)
    new.on_click(restart)
    restart()
    box = w.VBox([w.HBox([typed, go, new]), out, message])
    return Explorer(box, {"roll": typed, "go": go, "new": new}, {"turn": out, "message": message})
