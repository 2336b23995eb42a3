"""Cosmic Wimpout with fewer dice (Rules(white_dice=...)): the scores, the chain and the turn
played for points, each against a brute force that rolls every one of the 6^n rolls through
score(), the turn's flow written out from the rules (no table or step of the package is read)."""

import dataclasses
import itertools
from collections import Counter
from fractions import Fraction

import pytest
import sympy as sp

from dicelab import wimpout
from dicelab.wimpout import AUTO_WIN, BLACK_FACES, STOP, WHITE_FACES, WIMPOUT, Rules

VARIANTS = [Rules(white_dice=k) for k in (1, 2, 3)] + [Rules(white_dice=2, sun_value=5, fourth_scores=False)]


def every_roll(white, black):
    return itertools.product(*([WHITE_FACES] * white + ([BLACK_FACES] if black else [])))


def one_roll(rules, white, black, flash, roll):
    """Where a roll leads a player who stops as soon as the rules allow: ``("repeat",)``,
    ``("end", outcome)``, ``("stop", points)`` or ``("roll", white, black, flash, points)``."""
    if flash is not None and flash in roll:
        return ("repeat",)  # the Flash face again: reroll the same dice
    if flash is not None and flash == rules.sun_value:  # the wild sun must not repeat the Flash
        rules = dataclasses.replace(rules, sun_value=15 - flash)
    sc = wimpout.score(roll, has_black=black, rules=rules)
    if sc.outcome != "points":
        return ("end", sc.outcome)
    left_white = sum(1 for k in range(white) if not sc.scoring[k])
    left_black = black and not sc.scoring[-1]
    if not left_white and not left_black:  # every die scored: all of them again
        return ("roll", rules.white_dice, True, sc.flash, sc.points)
    if sc.flash is not None:  # clear the Flash with the dice that did not score
        return ("roll", left_white, left_black, sc.flash, sc.points)
    return ("stop", sc.points)


def brute_force_turn(rules):
    """``(P(Score and Stop), P(Wimpout), E[points banked])`` from rolling every die, exactly: the
    states found by rolling, and a linear solve over them (the turn returns to earlier states)."""
    start = (rules.white_dice, True, None)
    tables, order = {}, [start]
    for s in order:
        tally = Counter(one_roll(rules, *s, roll) for roll in every_roll(s[0], s[1]))
        tables[s] = {k: Fraction(n, 6 ** (s[0] + s[1])) for k, n in tally.items()}
        for k in tally:
            if k[0] == "roll" and k[1:4] not in tables and k[1:4] not in order:
                order.append(k[1:4])
    index = {s: i for i, s in enumerate(order)}
    n = len(order)
    Q, stop, wimp, gain = sp.zeros(n, n), sp.zeros(n, 1), sp.zeros(n, 1), sp.zeros(n, 1)
    for s, out in tables.items():
        i = index[s]
        for k, p in out.items():
            p = sp.Rational(p.numerator, p.denominator)
            if k[0] == "repeat":
                Q[i, i] += p
            elif k[0] == "stop":
                stop[i] += p
                gain[i] += p * k[1]
            elif k == ("end", "wimpout"):
                wimp[i] += p
            elif k[0] == "roll":
                Q[i, index[k[1:4]]] += p
    fundamental = (sp.eye(n) - Q).inv()
    bank, wimpouts = fundamental * stop, fundamental * wimp
    # points: banked = p * bank(s) + g(s), with g = Q_g + r: r = stop points, plus the gain of a
    # roll that goes on times the chance that it is banked
    for s, out in tables.items():
        for k, p in out.items():
            if k[0] == "roll":
                gain[index[s]] += sp.Rational(p.numerator, p.denominator) * k[4] * bank[index[k[1:4]]]
    g = fundamental * gain
    return bank[0], wimpouts[0], g[0]


@pytest.mark.parametrize("rules", VARIANTS + [Rules()], ids=str)
def test_the_first_roll_is_scored_as_a_brute_force_counts_it(rules):
    expected = Counter()
    for roll in every_roll(rules.white_dice, True):
        s = wimpout.score(roll, has_black=True, rules=rules)
        expected["Auto Win" if s.outcome == "win" else "Auto Lose" if s.outcome == "lose" else s.points] += 1
    dist = wimpout.initial_roll_distribution(rules)
    assert dist == expected and sum(dist.values()) == 6**rules.n_dice


@pytest.mark.parametrize("rules", VARIANTS + [Rules()], ids=str)
def test_the_chain_and_the_expected_score_agree_with_rolling_every_die(rules):
    bank, wimp, points = brute_force_turn(rules)
    start = rules.roll_all
    for chain in (wimpout.markov_chain(rules), wimpout.turn_chain(rules)):
        assert chain.absorption_probability(start, STOP) == bank
        assert chain.absorption_probability(start, WIMPOUT) == wimp
    assert wimpout.expected_turn_score(rules) == points
    assert wimpout.solve_turn(rules).stop_when_allowed == points


def test_five_dice_are_the_papers_game():
    assert Rules().roll_all == wimpout.ROLL_5 and Rules().n_dice == 5
    assert wimpout.markov_chain().transient == wimpout.TRANSIENT
    assert str(Rules(white_dice=3).roll_all) == "Roll 4; No Flash"
    # fewer dice: no Freight Train, so no instant result
    chain = wimpout.markov_chain(Rules(white_dice=3))
    assert chain.absorption_probability(Rules(white_dice=3).roll_all, AUTO_WIN) == 0


@pytest.mark.parametrize("white_dice", [1, 2, 3])
def test_the_turn_played_for_points_against_dice(white_dice):
    rules = Rules(white_dice=white_dice)
    best = wimpout.solve_turn(rules)
    assert best.start == (rules.roll_all, 0) and best.value_at(best.start) == best.value
    assert best.value >= best.stop_when_allowed
    played = wimpout.simulate_turns(best, 3000, seed=white_dice)
    assert abs(played.mean("points") - float(best.value)) < 4 * played.stderr("points")
    paper = wimpout.simulate_turns(rules, 3000, seed=10 + white_dice)
    exact = float(wimpout.expected_turn_score(rules))
    assert abs(paper.mean("points") - exact) < 4 * paper.stderr("points")


def test_a_variants_turn_steps_are_its_tallies():
    rules = Rules(white_dice=3)
    for s in wimpout.turn_states(rules):
        tally = Counter(wimpout.turn_step(s, roll, rules=rules) for roll in every_roll(s.white, s.black))
        assert tally == dict(wimpout.turn_outcomes(s, rules)), s


def test_white_dice_are_refused_out_of_range():
    for bad in (0, 5, 2.0, True, "4"):
        with pytest.raises(ValueError, match="white_dice"):
            Rules(white_dice=bad)
    with pytest.raises(ValueError, match="white: the game has 2 white dice"):
        wimpout.clearing_state(4, 3, False, rules=Rules(white_dice=2))
