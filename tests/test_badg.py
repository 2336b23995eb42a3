"""Tests of dicelab.badg: the exact solver against the paper's algorithm, policies, simulation."""

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dicelab import badg, stopping

SMALL_GAMES = [(6,), (2, 2), (6, 6), (6, 8), (3, 3, 3), (6, 6, 8), (4, 6, 8), (6, 6, 8, 10), (3, 3, 4, 4)]


@pytest.mark.parametrize("dice", SMALL_GAMES, ids=str)
def test_solve_equals_the_papers_algorithm_with_fractions(dice):
    exact = badg.paper_precompute(dice)
    sol = badg.solve(dice)
    assert set(exact) == set(badg.states(dice))
    for state, value in exact.items():
        assert sol.value(state) == pytest.approx(float(value), rel=1e-13, abs=1e-13)


def test_solve_five_dice_against_the_papers_algorithm():
    dice = (6, 6, 6, 8, 10)
    ref = badg.paper_precompute(dice, exact=False)
    sol = badg.solve(dice)
    assert max(abs(sol.value(s) - v) for s, v in ref.items()) < 1e-11


def test_standard_game_structure():
    assert len(badg.states()) == 104
    assert badg.count_rolls((6,) * 12) == 6188
    assert badg.count_rolls((6,) * 12, distinct=False) == 6**12
    assert badg.count_rolls(badg.STANDARD) == 5_940_480
    assert badg.count_rolls((6,) * 6 + (8, 10)) == 36_960


@pytest.fixture(scope="module")
def standard():
    return badg.solve()


def test_values_monotone_in_added_dice(standard):
    values = standard.values()
    worth_more_than_its_top_face = []
    for state, value in values.items():
        for extra in set(badg.STANDARD):
            bigger = tuple(sorted(state + (extra,)))
            if bigger in values:
                assert values[bigger] >= value + 1 - 1e-9  # an extra die adds at least its lowest face
                if values[bigger] > value + extra + 1e-9:
                    worth_more_than_its_top_face.append((state, extra))
    # ... but not at most its top face: a spare d6 buys the big dice another roll
    assert worth_more_than_its_top_face and all(extra == 6 for _, extra in worth_more_than_its_top_face)


def test_optimal_beats_every_heuristic_everywhere(standard):
    for fallback in badg.FALLBACKS:
        ev = badg.evaluate(badg.heuristic_policy(fallback))
        for state, value in ev.values.items():
            assert standard.value(state) >= float(value) - 1e-9
        assert standard.expected_points < float(ev.expected_points)


def test_restrictions(standard):
    never_two_low = badg.solve(restrict="no_two_low")
    assert all(abs(never_two_low.value(s) - standard.value(s)) < 1e-9 for s in badg.states())
    take_max = badg.solve(restrict="take_max_faces")
    assert take_max.expected_points > standard.expected_points + 0.1


def test_leaving_a_maximum_face_is_sometimes_optimal_exactly():
    dice = (6, 12, 12, 12)
    E = badg.paper_precompute(dice)
    state, roll = dice, (6, 1, 1, 10)
    options = {}
    for k in range(1, 5):
        for sub in itertools.combinations(range(4), k):
            left = tuple(state[p] for p in range(4) if p not in sub)
            options[sub] = sum(roll[p] for p in sub) + E[left]
    best = max(options.values())
    assert [sub for sub, v in options.items() if v == best] == [(3,)]  # take the 10, leave the 6
    assert badg.solve(dice).best_take(state, roll) == (3,)


@given(st.data())
@settings(max_examples=40, deadline=None)
def test_best_take_is_the_best_of_all_subsets(data):
    dice = (6, 6, 8, 10)
    sol = badg.solve(dice)
    state = data.draw(st.sampled_from([s for s in badg.states(dice) if s]))
    roll = tuple(data.draw(st.integers(1, s)) for s in state)
    take = sol.best_take(state, roll)
    n = len(state)

    def value(sub):
        left = tuple(state[p] for p in range(n) if p not in sub)
        return sum(roll[p] for p in sub) + (sol.value(left) if left else 0.0)

    best = max(value(sub) for k in range(1, n + 1) for sub in itertools.combinations(range(n), k))
    assert value(take) == pytest.approx(best, abs=1e-12)


@pytest.mark.parametrize("dice", [(6, 6, 8), (6, 8, 10), (6, 6, 6, 12), (4, 4, 6, 8)], ids=str)
@pytest.mark.parametrize("fallback", badg.FALLBACKS)
def test_heuristic_structured_evaluation_equals_roll_by_roll(dice, fallback):
    policy = badg.heuristic_policy(fallback)
    fast = badg.evaluate(policy, dice)
    slow = badg.evaluate(policy.take, dice)
    assert fast.expected_face_sum == slow.expected_face_sum
    assert fast.p_zero == slow.p_zero
    assert fast.expected_points == sum(dice) - fast.expected_face_sum


def test_heuristic_rules():
    policy = badg.heuristic_policy()
    state = (6, 6, 8)
    assert policy.take(state, (6, 4, 5)) == (0,)  # with 3 dice left: d6 cutoff 4, d8 cutoff 5
    assert policy.take(state, (6, 5, 8)) == (0, 1, 2)
    assert policy.take(state, (1, 2, 3)) == (1,)  # misfortune: the d6 showing 2 loses least
    assert badg.heuristic_policy("face").take(state, (1, 2, 3)) == (2,)
    assert badg.heuristic_policy("points").take(state, (1, 2, 3)) == (1,)
    assert stopping.max_reject(6, 3) == 4


def test_simulation_agrees_with_exact_evaluation():
    policy = badg.heuristic_policy()
    ev = badg.evaluate(policy)
    res = badg.simulate(policy, 100_000, seed=3, progress=False)
    assert abs(res.mean_points - float(ev.expected_points)) < 4 * res.stderr
    assert res.distribution.sum() == 100_000 and res.distribution.size == 88
    assert abs(res.mean_misfortunes - float(ev.expected_misfortunes)) < 0.02
    again = badg.simulate(policy, 100_000, seed=3, progress=False, chunk=30_000)
    assert again.n_games == res.n_games  # any chunking plays the same number of games
    small = badg.simulate(policy, 50_000, seed=1, dice=(6, 6, 8), progress=False)
    exact = badg.evaluate(policy, (6, 6, 8))
    assert abs(small.mean_points - float(exact.expected_points)) < 4 * small.stderr


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: badg.solve(()), "at least one die"),
        (lambda: badg.solve((6, 1)), "die size must be >= 2"),
        (lambda: badg.solve((6, 6.5)), "must be an integer"),
        (lambda: badg.solve(restrict="never"), "restrict must be one of"),
        (lambda: badg.solve((6, 8)).value((6, 6)), "is not a set of dice"),
        (lambda: badg.solve((6, 8)).best_take((6, 8), (6,)), "one face for each"),
        (lambda: badg.solve((6, 8)).best_take((6, 8), (7, 1)), "shows 7 on a die with 6 sides"),
        (lambda: badg.solve((6, 8)).best_take((6, 8), (0, 1)), "face must be >= 1"),
        (lambda: badg.heuristic_policy("random"), "fallback must be one of"),
        (lambda: badg.evaluate(lambda s, r: (), (6, 6)), "not a legal take"),
        (lambda: badg.evaluate(lambda s, r: (5,), (6, 6)), "not a legal take"),
        (lambda: badg.simulate(badg.heuristic_policy(), 0, 1), "n_games must be >= 1"),
    ],
)
def test_bad_input(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_bad_types():
    with pytest.raises(TypeError):
        badg.evaluate(42)
    with pytest.raises(TypeError):
        badg.simulate(lambda s, r: (0,), 10, 1)


def test_policy_statistics_are_probabilities(standard):
    stats = standard.policy_statistics()
    assert 0 < stats["p_zero"] < 0.01
    assert 1 <= stats["expected_rolls"] <= 15
    for size, by_face in stats["acceptance"].items():
        assert by_face[size] > 0.5 and all(0 <= p <= 1 + 1e-12 for p in by_face.values())
    assert np.isclose(sum(1 for _ in badg.states()), 104)
