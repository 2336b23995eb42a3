"""A Cosmic Wimpout turn played for points: the exact Bellman solution, checked four ways."""

from fractions import Fraction

import pytest

from dicelab import wimpout
from dicelab.wimpout import play

BEST = wimpout.solve_turn()


def test_every_roll_of_every_state_is_counted_once():
    for s in wimpout.turn_states():
        assert sum(wimpout.turn_outcomes(s).values()) == 6**s.n_dice, s
    t = wimpout.turn_tables()
    for i, s in enumerate(t.states):
        assert t.ways[t.start[i] : t.start[i + 1]].sum() + t.repeat[i] == 6**s.n_dice


def test_banking_at_every_choice_is_the_papers_turn():
    # the linear values of the forced states are those of "stop when allowed", computed by
    # the turn chain on another path (its fundamental matrix)
    assert BEST.stop_when_allowed == wimpout.expected_turn_score()
    assert BEST.value > BEST.stop_when_allowed


def test_banking_lines_solve_one_rolls_equations():
    # V(s, p) = b p + g for every forced state when every choice banks: one roll from s averages
    # the next states' lines (a choice banks p + gain, an ending 0); b is the chain's chance to bank
    lines = wimpout.banking_lines()
    assert len(lines) == 31 and lines[wimpout.ROLL_5][1] == wimpout.expected_turn_score()
    assert {s: b for s, (b, _) in lines.items()} == dict(BEST.bank_chance)
    for s, (b, g) in lines.items():
        slope = intercept = Fraction(0)
        for (nxt, gain), ways in wimpout.turn_outcomes(s).items():
            pr = Fraction(ways, 6**s.n_dice)
            nb, ng = (1, 0) if isinstance(nxt, wimpout.Choice) else lines.get(nxt, (0, 0))
            slope, intercept = slope + pr * nb, intercept + pr * (nb * gain + ng)
        assert (slope, intercept) == (b, g), s


def test_the_policy_is_a_threshold_at_every_choice():
    for c, t in BEST.thresholds.items():
        for p in range(0, BEST.cap + 30, 5):
            rolled = BEST.value_at((c, p)) > p
            assert rolled == (p < t) or (BEST.value_at((c, p)) == p and p >= t), (c, p)
            assert BEST.best_action((c, p)) == ("roll" if p < t else "bank")


def test_doubling_the_cap_changes_nothing():
    wider = play._solve(wimpout.Rules(), 0, 2 * BEST.cap)
    assert wider.value == BEST.value
    assert dict(wider.thresholds) == dict(BEST.thresholds)


@pytest.mark.slow
def test_an_independent_float_iteration_agrees():
    # floats, no cap theory, levels from the top down to 1,500 points
    assert play._plain_float_iteration(1500) == pytest.approx(float(BEST.value), abs=1e-7)


def test_the_opening_rule_rolls_on_until_35():
    opening = wimpout.solve_turn(minimum=35)
    assert all(t >= 35 for t in opening.thresholds.values())
    assert opening.value < BEST.value
    assert opening.value_at((wimpout.CHOICES[0], 30)) > 0


def test_sampled_turns_agree_with_the_exact_value():
    out = wimpout.simulate_turns(BEST, 4000, seed=11)
    assert abs(out.mean("points") - float(BEST.value)) < 4 * out.stderr("points")


def test_values_are_exact_and_refuse_odd_points():
    assert isinstance(BEST.value, Fraction)
    assert BEST.value_at((wimpout.WIMPOUT, 50)) == 0
    with pytest.raises(ValueError, match="state: a turn's points are a multiple of 5"):
        BEST.value_at((wimpout.ROLL_5, 7))
    with pytest.raises(ValueError, match="minimum"):
        wimpout.solve_turn(minimum=12)


def test_rolling_values_cross_banking_at_the_thresholds():
    for c, t in BEST.thresholds.items():
        assert BEST.bounds[c] <= BEST.cap
        for p in range(0, BEST.cap + 20, 5):
            assert BEST.value_at((c, p)) == max(BEST.roll_value(c, p), p)
            assert (BEST.roll_value(c, p) > p) == (p < t)


def test_the_bank_chance_from_the_start_is_the_chains():
    chain = wimpout.turn_chain()
    assert BEST.bank_chance[wimpout.ROLL_5] == chain.absorption_probability(wimpout.ROLL_5, wimpout.STOP)


def test_the_solution_follows_the_solver_protocol():
    from dicelab.core.solution import Solved

    assert isinstance(BEST, Solved)
    assert BEST.value_at(BEST.start) == BEST.value == BEST.values[wimpout.ROLL_5][0]
    assert BEST.policy == BEST.thresholds and BEST.best_action(BEST.start) == "roll"
    assert BEST.best_action((wimpout.Choice(1, False), 15)) == "bank"


def test_a_turn_step_is_the_tallied_one():
    c = wimpout.Choice(2, True)
    tally = {}
    for roll in wimpout.all_rolls(2, True):
        key = wimpout.turn_step(c, roll)
        tally[key] = tally.get(key, 0) + 1
    assert tally == dict(wimpout.turn_outcomes(c))
