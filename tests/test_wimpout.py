"""Tests of dicelab.wimpout: every scoring rule, the worked examples, the derived chain."""

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


def test_states_are_records_named_as_in_the_paper():
    assert len(w.TRANSIENT) == 17 and len(set(w.TRANSIENT)) == 17
    assert [str(s) for s in w.ABSORBING] == ["Auto Win", "Auto Lose", "Score and Stop", "Wimpout"]
    for s in w.TRANSIENT + w.ABSORBING:
        assert w.state(str(s)) is s or w.state(str(s)) == s
    assert w.clearing_state(3, 0, True) == w.state("Flash 3; Reroll 1B")
    assert w.clearing_state(5, 0, False) == w.State(4, True, (5,))
    with pytest.raises(ValueError, match="name must be the name of one of"):
        w.state("Flash 7; Reroll 5")


def test_table_5_outcomes():
    out = w.step_outcomes(w.state("Flash 2, 4, 6; Reroll 1B, 1W"))
    assert {str(k): o.ways for k, o in out.items()} == {
        "Flash 2, 4, 6; Reroll 1B, 1W": 11,
        "Score and Stop": 13,
        "Roll 5; No Flash": 6,
        "Wimpout": 6,
    }
    # points: 13 stops, each scoring one die (5, 10 or the sun as 10)
    assert out[w.STOP].points == sum(
        w.score(r, has_black=True).points
        for r in w.rolls(w.state("Flash 2, 4, 6; Reroll 1B, 1W"))
        if w.step(w.state("Flash 2, 4, 6; Reroll 1B, 1W"), r).state == w.STOP
    )


def test_step_follows_the_rules():
    assert w.step(w.ROLL_5, (2, 3, 4, 6, 2)).state == w.WIMPOUT
    assert w.step(w.ROLL_5, (6,) * 5).state == w.AUTO_WIN
    assert w.step(w.ROLL_5, (10,) * 5).state == w.AUTO_LOSE
    assert w.step(w.ROLL_5, (5, 5, 5, 5, 5)) == w.Step(w.ROLL_5, 500, None)  # a Freight Train, then YMNWTBYM
    assert w.step(w.ROLL_5, (5, 10, 5, 10, SUN)).state == w.State(4, True, (10,))  # a Flash on all five
    assert w.step(w.ROLL_5, (5, 2, 3, 4, 6)) == w.Step(w.STOP, 5, None)
    futt = w.State(4, True, (3,))
    assert w.step(futt, (3, 2, 4, 6, 2), face=3) == w.Step(futt, 0, 3)  # the Futtless rule
    with pytest.raises(ValueError, match="face must be one of"):
        w.step(w.state("Flash 3; Reroll 1B"), (2,), face=2)
    with pytest.raises(ValueError, match="rolls 1 dice"):
        w.step(w.state("Flash 3; Reroll 1B"), (2, 4))
    with pytest.raises(ValueError, match="absorbing"):
        w.step(w.STOP, ())


def test_chain_is_stochastic_and_groups_agree():
    chain = w.markov_chain()
    assert chain.transient == w.TRANSIENT and chain.absorbing == w.ABSORBING
    assert all(sum(row) == 1 for row in chain.P)
    for s in w.TRANSIENT[:10]:
        rows = {
            tuple(sorted((str(k), o.ways) for k, o in w.step_outcomes(s, face=f).items())) for f in s.flash
        }
        assert len(rows) == 1, f"the faces of {s} do not behave alike"
    assert chain.P[w.TRANSIENT.index(w.state("Flash 3; Reroll 1B")), w.TRANSIENT.index(w.ROLL_5)] == Fraction(
        3, 6
    )
    assert sum(chain.B[-1]) == 1


def test_expected_turn_score_against_play():
    exact = w.expected_turn_score()
    assert 19 < exact < 20
    played = w.simulate_turns(w.Rules(), 4_000, seed=11)  # the same rule, rolled at random
    assert abs(played.mean("points") - float(exact)) < 4 * played.stderr("points")


def test_simulation_matches_the_chain():
    chain = w.markov_chain()
    sim = chain.simulate(40_000, seed=5, start=w.ROLL_5)
    start = w.TRANSIENT.index(w.ROLL_5)
    assert abs(sim.mean("steps") - float(chain.t[start])) < 4 * sim.stderr("steps")
    assert chain.absorbing == w.ABSORBING
    for k in range(len(w.ABSORBING)):
        p = float(chain.B[start, k])
        assert abs(sim.share("absorbed", k) - p) < 4 * (p * (1 - p) / 40_000) ** 0.5 + 1e-4


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
    with pytest.raises(ValueError, match="fourth_scores"):
        w.Rules(fourth_scores="False")
    with pytest.raises(ValueError, match="transient states"):
        w.step_outcomes(w.WIMPOUT)
    with pytest.raises(ValueError, match="n must be"):
        w.simulate_turns(w.Rules(), 0, seed=1)


def test_turn_chain_lumps_onto_the_papers_chain():
    """Grouping Flash faces is exact for probabilities: every face of a group has the group's row."""
    fine, coarse = w.turn_chain(), w.markov_chain()

    def group_of(s):
        return next(
            g
            for g in w.TRANSIENT
            if (g.white, g.black) == (s.white, s.black)
            and bool(s.flash) == bool(g.flash)
            and set(s.flash) <= set(g.flash)
        )

    group = {s: group_of(s) for s in fine.transient}
    for i, s in enumerate(fine.transient):
        lumped = {}
        for j, t in enumerate(fine.states):
            t = group.get(t, t)
            lumped[t] = lumped.get(t, 0) + fine.P[i, j]
        row = coarse.P[coarse.states.index(group[s])]
        assert {t: p for t, p in lumped.items() if p} == {
            t: p for t, p in zip(coarse.states, row, strict=True) if p
        }


def test_points_depend_on_the_flash_face():
    ten, five = w.State(1, False, (10,)), w.State(1, False, (5,))
    assert w.step_outcomes(ten, faces=True)[w.ROLL_5].points == 5  # a Flash of 10s is cleared by a 5
    assert w.step_outcomes(five, faces=True)[w.ROLL_5].points == 10
    sun_clears_tens = w.step(w.state("Flash 5, 10; Reroll 1B"), (SUN,), face=10)
    assert sun_clears_tens == w.Step(w.ROLL_5, 5, None)  # the sun takes the other value
    assert w.step(w.state("Flash 5, 10; Reroll 1B"), (SUN,), face=5).points == 10
