"""Tests of dicelab.wimpout: every scoring rule, the worked examples, the derived chain."""

from collections import Counter
from fractions import Fraction

import pytest

from dicelab import wimpout as w
from dicelab.wimpout import SUN


@pytest.mark.parametrize(
    ("roll", "points", "flash", "scoring"),
    [
        ((10, 10, 5, 3, 2), 25, None, (True, True, True, False, False)),  # 5s and 10s
        ((2, 2, 2, 4, 6), 20, 2, (True, True, True, False, False)),  # a Flash of any face
        ((4, 4, 2, 6, SUN), 40, 4, (True, True, False, False, True)),  # example 2: the sun completes the pair
        ((3, 3, 3, 5, 6), 35, 3, (True, True, True, True, False)),  # example 1
        ((2, 2, 2, 10, 2), 30, 2, (True, True, True, True, False)),  # example 3: the black 2 is rerolled
        ((3, 3, 3, 10, 5), 45, 3, (True,) * 5),  # example 4 (the black die shows 5): all five score
        ((5, 10, 2, 3, SUN), 25, None, (True, True, False, False, True)),  # example 5: the sun counts 10
        ((2, 2, 2, 2, SUN), 30, 2, (True, True, True, False, True)),  # example 6: not a Freight Train
        ((4, 4, 4, 4, 4), 400, None, (True,) * 5),  # a Freight Train
        ((5, 5, 5, 5, 2), 55, 5, (True, True, True, True, False)),  # a fourth 5 still scores
        ((4, 4, 6, 6, SUN), 60, 6, (False, False, True, True, True)),  # two pairs: the larger Flash
        ((4, 4, 5, 5, SUN), 50, 5, (False, False, True, True, True)),  # a tie: the Flash of the higher face
        ((2, 3, 4, 6, 2), 0, None, (False,) * 5),  # a Wimpout
    ],
)
def test_scoring_rules(roll, points, flash, scoring):
    s = w.score(roll)
    assert (s.points, s.flash, s.scoring) == (points, flash, scoring)


def test_instant_outcomes_and_options():
    assert w.score((6,) * 5).outcome == "win" and w.score((10,) * 5).outcome == "lose"
    assert w.score((2, 3, 4, 6, 2)).outcome == "wimpout"
    assert w.score((5, 10, 2, 3, SUN), rules=w.Rules(sun_value=5)).points == 20
    assert w.score((5, 5, 5, 5, 2), rules=w.Rules(fourth_scores=False)).points == 50
    assert w.score((4, 4, 5, 5, SUN), rules=w.Rules(two_pairs="max_low")).flash == 4
    assert w.score((5, SUN)).scoring == (True, True) and w.score((3,), has_black=False).outcome == "wimpout"


def test_table_2_is_derived():
    dist = w.initial_roll_distribution()
    assert sum(dist.values()) == 7776 and dist[0] == 450 and dist[40] == 232 and dist["Auto Win"] == 1
    assert len(dist) == 27


def test_table_5_outcomes():
    counts, total = w.transition_counts("Flash 2, 4, 6; Reroll 1B, 1W")
    assert total == 36
    assert counts == Counter(
        {"Flash 2, 4, 6; Reroll 1B, 1W": 11, "Score and Stop": 13, "Roll 5; No Flash": 6, "Wimpout": 6}
    )


def test_chain_is_stochastic_and_groups_agree():
    chain = w.markov_chain()
    assert chain.transient == w.TRANSIENT and chain.absorbing == w.ABSORBING
    assert all(sum(row) == 1 for row in chain.P)
    for state in w.TRANSIENT[:10]:
        faces = w._CLEARING[state][0]
        assert len({tuple(sorted(w.transition_counts(state, face=f)[0].items())) for f in faces}) == 1
    assert chain.P[
        w.TRANSIENT.index("Flash 3; Reroll 1B"), w.TRANSIENT.index("Roll 5; No Flash")
    ] == Fraction(3, 6)
    assert abs(float(sum(chain.B[-1])) - 1) < 1e-15


def test_simulation_matches_the_chain():
    chain = w.markov_chain()
    sim = w.simulate_turns(40_000, seed=5)
    start = w.TRANSIENT.index("Roll 5; No Flash")
    assert abs(sim["mean_steps"] - float(chain.t[start])) < 4 * sim["steps_stderr"]
    for k, a in enumerate(w.ABSORBING):
        p = float(chain.B[start, k])
        assert abs(sim["absorbed"][a] - p) < 4 * (p * (1 - p) / 40_000) ** 0.5 + 1e-4


@pytest.mark.parametrize(
    ("roll", "message"),
    [
        ((2, 3, 4, 5, 3), "not a face of the black die"),
        ((2, 3, 7, 5, 6), "not a face of a white die"),
        ((2, 3, 4, 5, 6, 2), "1 to 5 dice"),
        ((), "1 to 5 dice"),
        ((SUN, 2, 3, 4, 5), "not a face of a white die"),
        ((2, 3, 4, 5, 6), "only four white dice"),
    ],
)
def test_bad_rolls(roll, message):
    has_black = False if len(roll) == 5 and message.startswith("only") else None
    with pytest.raises(ValueError, match=message):
        w.score(roll, has_black=has_black)


def test_bad_rules_and_states():
    with pytest.raises(ValueError, match="sun_value"):
        w.Rules(sun_value=3)
    with pytest.raises(ValueError, match="state must be"):
        w.transition_counts("Flash 7; Reroll 5 dice")
    with pytest.raises(ValueError, match="face must be one of"):
        w.transition_counts("Flash 3; Reroll 1B", face=2)
