"""Whole turns, beyond the paper: the exact expected score of a turn, and two simulations."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import numpy as np

from dicelab.core.checks import check_cost, check_int
from dicelab.core.markov import simulation_cost
from dicelab.wimpout.chain import (
    ABSORBING,
    ROLL_5,
    STOP,
    TRANSIENT,
    _face_of,
    _step,
    _step_outcomes,
    markov_chain,
    turn_chain,
)
from dicelab.wimpout.dice import BLACK_FACES, WHITE_FACES, Rules, _check_rules

# The expected number of rolls in a turn from Roll 5 is 1.551 to 1.555 under every reading of
# the rules (see the tests); 1.6 bounds it when a simulation's cost is estimated up front.
_TURN_ROLLS = 1.6
# One turn played with random dice through step() in pure Python: about 50 microseconds,
# i.e. some 5,000 steps at the 10^8 steps a second the cost check counts.
_PLAY_STEPS_PER_TURN = 5_000


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
    chain = turn_chain(_check_rules(rules))
    b = dict(zip(chain.transient, chain.B[:, chain.absorbing.index(STOP)], strict=True)) | {STOP: Fraction(1)}
    r = [
        sum(
            (
                Fraction(o.points, 6**s.n_dice) * b.get(nxt, 0)
                for nxt, o in _step_outcomes(s, rules, _face_of(s, None), True).items()
            ),
            Fraction(0),
        )
        for s in chain.transient
    ]
    return chain.N.dot(np.array(r, dtype=object))[chain.transient.index(ROLL_5)]


def simulate_turns(n_turns: int, seed: int, rules: Rules = Rules()):
    """Whole turns sampled from the chain's transition matrix (see :meth:`AbsorbingChain.simulate`).

    Parameters
    ----------
    n_turns : int
        How many turns (at least 1). The runs are vectorised: about 250 bytes of working
        memory a turn, so tens of millions of turns at most.
    seed : int
        Seed of the random generator (a non-negative integer).
    rules : Rules
        The readings of the rules.

    Returns
    -------
    dicelab.core.sample.Sample
        Columns ``"absorbed"`` (how each turn ended, as an index into ``ABSORBING``) and
        ``"steps"`` (its rolls).

    Examples
    --------
    >>> sample = simulate_turns(1000, seed=1)
    >>> sorted(sample.columns), sample.n
    (['absorbed', 'steps'], 1000)
    """
    n_turns, seed, rules = check_int("n_turns", n_turns, 1), check_int("seed", seed, 0), _check_rules(rules)
    n_states = len(TRANSIENT) + len(ABSORBING)
    cost = simulation_cost(n_turns, n_states, _TURN_ROLLS)
    check_cost("n_turns", n_turns, **cost, what="the simulated turns")
    return markov_chain(rules).simulate(n_turns, seed=seed, start=ROLL_5)


def play_turns(n_turns: int, seed: int, rules: Rules = Rules()) -> dict:
    """Play whole turns with random dice through :func:`step` (not through the chain's matrix).

    Same assumptions as the chain: reroll only when forced, clear with the black die. Returns
    the frequency of each ending, the mean steps and the mean points banked, with standard
    errors. A Python loop: about 10^5 turns in a few seconds.

    Parameters
    ----------
    n_turns : int
        How many turns (at least 2, for a standard error; at most some 7 x 10^7, an hour's play).
    seed : int
        Seed of the random generator (a non-negative integer).
    rules : Rules
        The readings of the rules.

    Returns
    -------
    dict
        ``absorbed`` (frequency of each ending), ``mean_steps``, ``steps_stderr``,
        ``mean_points``, ``points_stderr``.

    Examples
    --------
    >>> out = play_turns(200, seed=3)
    >>> round(sum(out["absorbed"].values()), 12)
    1.0
    """
    n_turns, seed, rules = check_int("n_turns", n_turns, 2), check_int("seed", seed, 0), _check_rules(rules)
    check_cost(
        "n_turns",
        n_turns,
        memory=16 * n_turns,
        steps=_PLAY_STEPS_PER_TURN * n_turns,
        what="turns played roll by roll in Python",
    )
    rng = np.random.default_rng(seed)
    white, black = np.array(WHITE_FACES, dtype=object), np.array(BLACK_FACES, dtype=object)
    ends, steps, banked = Counter(), np.zeros(n_turns), np.zeros(n_turns)
    for t in range(n_turns):
        s, face, points, n = ROLL_5, None, 0, 0
        while not s.absorbing:
            roll = tuple(white[rng.integers(6, size=s.white)]) + (
                (black[rng.integers(6)],) if s.black else ()
            )
            st = _step(s, roll, face, rules)
            s, face, points, n = st.state, st.flash, points + st.points, n + 1
        ends[s] += 1
        steps[t], banked[t] = n, points if s == STOP else 0
    return {
        "absorbed": {a: ends[a] / n_turns for a in ABSORBING},
        "mean_steps": steps.mean(),
        "steps_stderr": steps.std(ddof=1) / np.sqrt(n_turns),
        "mean_points": banked.mean(),
        "points_stderr": banked.std(ddof=1) / np.sqrt(n_turns),
    }
