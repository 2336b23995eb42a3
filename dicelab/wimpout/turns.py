"""Whole turns, beyond the paper: the exact expected score of a turn, and turns played with dice."""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from dicelab.core.checks import check_cost
from dicelab.core.sample import Sample
from dicelab.core.spec import Check, Int, validated
from dicelab.wimpout import _common
from dicelab.wimpout._common import RULES
from dicelab.wimpout.chain import turn_chain
from dicelab.wimpout.play import TurnSolution
from dicelab.wimpout.records import ABSORBING, ROLL_5, STOP, Choice, Rules

# One turn played with random dice in pure Python: about 50 microseconds through the chain's
# step (the paper's player), 160 through the steps of a turn played for points; some 5,000 and
# 16,000 of the 10^8 steps a second the cost check counts.
_STEPS_PER_TURN = {Rules: 5_000, TurnSolution: 16_000}


@validated(rules=RULES)
def expected_turn_score(rules: Rules = Rules()) -> Fraction:
    """Exact expected points banked in a turn from ``Roll 5; No Flash``, under the chain's
    assumptions (stop as soon as the rules allow; a Wimpout or an instant result banks 0).

    Banked points are linear in the points carried: ``V(s, p) = b(s) p + g(s)`` with ``b(s)``
    the chance of ending in ``Score and Stop``. One roll from ``s`` gives
    ``g = r + Q g``, so ``g = N r``, where ``r(s)`` sums over the rolls from ``s`` their
    probability, the points they score and ``b`` of the state they lead to. Computed on
    :func:`turn_chain`, where each Flash keeps its face.

    Parameters
    ----------
    rules : Rules
        The readings of the rules.

    Returns
    -------
    Fraction

    Examples
    --------
    >>> round(float(expected_turn_score()), 4)
    19.2177
    """
    chain = turn_chain(rules)
    b = dict(zip(chain.transient, chain.B[:, chain.absorbing.index(STOP)], strict=True)) | {STOP: Fraction(1)}
    r = [
        sum(
            (
                Fraction(o.points, 6**s.n_dice) * b.get(nxt, 0)
                for nxt, o in _common.step_outcomes(s, rules, s.face, True).items()
            ),
            Fraction(0),
        )
        for s in chain.transient
    ]
    return chain.N.dot(np.array(r, dtype=object))[chain.transient.index(rules.roll_all)]


def _check_player(name: str, player):
    if not isinstance(player, Rules | TurnSolution):
        raise ValueError(
            f"{name} must be a Rules record (the paper's player, who stops as soon as the rules allow) "
            f"or a TurnSolution (as solve_turn returns), got {player!r}"[:300]
        )
    return player


_ENDING = {s: k for k, s in enumerate(ABSORBING)}


@validated(
    player=Check(_check_player, bad=(None, "best", 3, ROLL_5)),
    n=Int(1),
    seed=Int(0),
    example={"player": Rules(), "n": 10, "seed": 1},
)
def simulate_turns(player, n: int, *, seed: int) -> Sample:
    """Play ``n`` whole turns with random dice, every roll scored by the rules engine (no table
    is read): a check of the exact values by sampling.

    Parameters
    ----------
    player : Rules or TurnSolution
        Who plays: a :class:`Rules` record is the paper's player under those rules (rolls only
        when forced, stops as soon as the rules allow, clears a Flash with the black die); a
        :class:`TurnSolution` (:func:`solve_turn`) banks at a choice as its policy says, under
        its rules and ``minimum``.
    n : int
        How many turns. A Python loop: some 10^5 turns in a few seconds.
    seed : int
        Seed of the random generator (a non-negative integer).

    Returns
    -------
    Sample
        Per turn: ``"points"`` (the points banked: 0 after a Wimpout, an instant result, or a
        bank below ``minimum``), ``"rolls"`` (the rolls made) and ``"ending"`` (the index in
        :data:`ABSORBING` of how the turn ended: Auto Win, Auto Lose, Score and Stop (banked),
        Wimpout).

    Examples
    --------
    >>> sample = simulate_turns(Rules(), 200, seed=3)
    >>> sample.mean("points") > 0, int(sample.counts("ending").sum())
    (True, 200)
    """
    check_cost(
        "n",
        n,
        memory=24 * n,
        steps=_STEPS_PER_TURN[type(player)] * n,
        what="turns played roll by roll in Python",
    )
    rng = np.random.default_rng(seed)
    points, rolls, ending = np.zeros(n), np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64)
    for t in range(n):
        if isinstance(player, Rules):
            s, banked, k = _paper_turn(rng, player)
        else:
            s, banked, k = _turn_by(rng, player)
        points[t], rolls[t], ending[t] = banked, k, _ENDING[s]
    return Sample(n=n, seed=seed, columns={"points": points, "rolls": rolls, "ending": ending})


def _paper_turn(rng, rules: Rules):
    """One turn of the paper's player: ``(ending, points banked, rolls)``."""
    s, face, points, k = rules.roll_all, None, 0, 0
    while not s.absorbing:
        st = _common.step(s, _common.roll_dice(rng, s.white, s.black), face, rules)
        s, face, points, k = st.state, st.flash, points + st.points, k + 1
    return s, (points if s == STOP else 0), k


def _turn_by(rng, solution: TurnSolution):
    """One turn banked as ``solution`` says: ``(ending, points banked, rolls)``."""
    s, points, k, rules = solution.rules.roll_all, 0, 0, solution.rules
    while s not in _common.ENDINGS and not (isinstance(s, Choice) and points >= solution.policy[s]):
        s, gain = _common.turn_step(s, _common.roll_dice(rng, s.white, s.black), rules)
        points, k = points + gain, k + 1
    if isinstance(s, Choice):
        return STOP, (points if points >= solution.minimum else 0), k
    return s, 0, k
