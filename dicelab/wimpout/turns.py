"""Whole turns, beyond the paper: the exact expected score of a turn, and two simulations."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import numpy as np

from dicelab._checks import check_int
from dicelab.wimpout.chain import ABSORBING, ROLL_5, STOP, markov_chain, step, step_outcomes, turn_chain
from dicelab.wimpout.dice import BLACK_FACES, WHITE_FACES, Rules


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
                for nxt, o in step_outcomes(s, rules, faces=True).items()
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
        How many turns.
    seed : int
        Seed of the random generator.
    rules : Rules
        The readings of the rules.

    Returns
    -------
    ChainSample
        ``frequencies`` of the four endings, ``mean_steps`` and ``steps_stderr``.

    Examples
    --------
    >>> sample = simulate_turns(1000, seed=1)
    >>> sorted(str(a) for a in sample.frequencies)
    ['Auto Lose', 'Auto Win', 'Score and Stop', 'Wimpout']
    """
    return markov_chain(rules).simulate(n_turns, ROLL_5, random_state=seed)


def play_turns(n_turns: int, seed: int, rules: Rules = Rules()) -> dict:
    """Play whole turns with random dice through :func:`step` (not through the chain's matrix).

    Same assumptions as the chain: reroll only when forced, clear with the black die. Returns
    the frequency of each ending, the mean steps and the mean points banked, with standard
    errors. A Python loop: about 10^5 turns in a few seconds.

    Parameters
    ----------
    n_turns : int
        How many turns (at least 2, for a standard error).
    seed : int
        Seed of the random generator.
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
    n_turns = check_int("n_turns", n_turns, 2)
    rng = np.random.default_rng(check_int("seed", seed, 0))
    white, black = np.array(WHITE_FACES, dtype=object), np.array(BLACK_FACES, dtype=object)
    ends, steps, banked = Counter(), np.zeros(n_turns), np.zeros(n_turns)
    for t in range(n_turns):
        s, face, points, n = ROLL_5, None, 0, 0
        while not s.absorbing:
            roll = tuple(white[rng.integers(6, size=s.white)]) + (
                (black[rng.integers(6)],) if s.black else ()
            )
            st = step(s, roll, face=face, rules=rules)
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
