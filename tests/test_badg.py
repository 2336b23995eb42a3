"""Tests of dicelab.badg: the exact solver against the paper's algorithm, policies, simulation."""

import functools
import itertools
import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dicelab import badg
from dicelab.badg import reference, stopping

SMALL_GAMES = [(6,), (2, 2), (6, 6), (6, 8), (3, 3, 3), (6, 6, 8), (4, 6, 8), (6, 6, 8, 10), (3, 3, 4, 4)]


@pytest.mark.parametrize("dice", SMALL_GAMES, ids=str)
def test_solve_equals_the_papers_algorithm_with_fractions(dice):
    exact = reference.paper_precompute(dice)
    sol = badg.solve(dice)
    assert set(exact) == set(badg.states(dice))
    for state, value in exact.items():
        assert sol.value_at(state) == pytest.approx(float(value), rel=1e-13, abs=1e-13)


@pytest.mark.parametrize("dice", [(6,), (6, 8), (6, 6, 8), (3, 3, 4)], ids=str)
def test_step_2c_must_multiply_by_the_probability_of_the_roll(dice):
    multiplied = reference.paper_precompute(dice)
    printed = reference.paper_precompute(dice, as_printed=True)
    assert multiplied == reference.paper_precompute(dice, as_printed=False)
    for state in badg.states(dice):
        if not state:
            assert printed[state] == multiplied[state] == 0
            continue
        assert len(state) <= multiplied[state] <= sum(state)  # an expected face sum
        assert printed[state] > sum(state)  # dividing by p(c) leaves the possible range
    size = dice[-1]
    one_die = (size,)
    assert printed[one_die] == size**2 * multiplied[one_die] == size**2 * Fraction(size + 1, 2)


def test_solve_five_dice_against_the_papers_algorithm():
    dice = (6, 6, 6, 8, 10)
    ref = reference.paper_precompute(dice, exact=False)
    sol = badg.solve(dice)
    assert max(abs(sol.value_at(s) - v) for s, v in ref.items()) < 1e-11


@given(st.lists(st.integers(2, 5), min_size=1, max_size=5))
def test_states_are_the_distinct_sub_multisets(dice):
    subs = {tuple(sorted(sub)) for k in range(len(dice) + 1) for sub in itertools.combinations(dice, k)}
    found = badg.states(dice)
    assert len(found) == len(set(found)) and set(found) == subs
    assert [len(s) for s in found] == sorted(len(s) for s in found)  # fewest dice first


@given(st.lists(st.integers(2, 5), min_size=1, max_size=4))
def test_count_rolls_against_enumeration(state):
    ordered = list(itertools.product(*(range(1, s + 1) for s in state)))
    distinct = {tuple(sorted(zip(state, roll, strict=True))) for roll in ordered}
    assert badg.count_rolls(state, distinct=False) == len(ordered)
    assert badg.count_rolls(state) == len(distinct)


def test_multiset_rolls_are_the_multinomial_expansion():
    for s, a in [(6, 2), (6, 3), (4, 4), (8, 1), (6, 0)]:
        rolls = badg.multiset_rolls(s, a)
        ordered = itertools.product(range(1, s + 1), repeat=a)
        tally = {}
        for roll in ordered:
            key = tuple(sorted(roll, reverse=True))
            tally[key] = tally.get(key, 0) + 1
        assert dict(rolls) == tally and len(rolls) == math.comb(a + s - 1, s - 1)


def test_standard_game_structure():
    assert len(badg.states()) == 104  # Section 3
    assert badg.count_rolls((6,) * 12) == 6188
    assert badg.count_rolls((6,) * 12, distinct=False) == 6**12
    assert badg.count_rolls(badg.STANDARD) == 5_940_480
    assert badg.count_rolls((6,) * 6 + (8, 10)) == 36_960


@pytest.fixture(scope="module")
def standard():
    return badg.solve()


def test_solution_tables_number_the_states(standard):
    t = standard.tables
    assert isinstance(t, badg.SolverTables)
    sizes = t.sizes.tolist()
    for state in badg.states():
        index = sum(state.count(s) * stride for s, stride in zip(sizes, t.strides.tolist(), strict=True))
        assert standard.V[index] == standard.value_at(state)
        assert t.state_counts[index].tolist() == [state.count(s) for s in sizes]
    assert np.all(np.diff(t.state_counts[t.order].sum(axis=1)) >= 0)  # fewest dice first


def test_values_monotone_in_added_dice(standard):
    values = standard.values
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
            assert standard.value_at(state) >= float(value) - 1e-9
        assert standard.expected_points < float(ev.expected_points)


def test_restrictions(standard):
    never_two_low = badg.solve(restrict="no_two_low")
    assert all(abs(never_two_low.value_at(s) - standard.value_at(s)) < 1e-9 for s in badg.states())
    take_max = badg.solve(restrict="take_max_faces")
    assert all(take_max.value_at(s) <= standard.value_at(s) + 1e-9 for s in badg.states())
    assert take_max.expected_points > standard.expected_points + 0.1
    assert badg.RESTRICTIONS == (None, "take_max_faces", "no_two_low")


def test_leaving_a_maximum_face_is_sometimes_optimal_exactly():
    state, roll = (6, 12, 12, 12), (6, 1, 1, 10)
    options = reference.paper_take_values(state, roll)
    assert len(options) == 2**4 - 1
    best = max(options.values())
    assert [sub for sub, v in options.items() if v == best] == [(3,)]  # take the 10, leave the 6
    assert badg.solve(state).best_action((state, roll)) == (3,)


def test_paper_take_values_keeps_the_positions_of_an_unsorted_state():
    values = reference.paper_take_values((8, 6), (2, 5))
    assert values[(1,)] == 5 + Fraction(9, 2) and values[(0,)] == 2 + Fraction(7, 2)
    assert values[(0, 1)] == 7


@given(st.data())
@settings(max_examples=40, deadline=None)
def test_best_action_is_the_best_of_all_subsets(data):
    sol = badg.solve((6, 6, 8, 10))
    state = data.draw(st.sampled_from([s for s in badg.states(sol.dice) if s]))
    roll = tuple(data.draw(st.integers(1, s)) for s in state)
    options = reference.paper_take_values(state, roll, values=sol.values)
    assert options[sol.best_action((state, roll))] == pytest.approx(max(options.values()), abs=1e-12)


@pytest.mark.parametrize("dice", [(6, 6, 8), (4, 8, 8, 8), (2, 6, 6, 6), (3, 3, 4, 4)], ids=str)
def test_policy_statistics_equal_the_exact_forward_pass(dice):
    fast = badg.solve(dice).policy_statistics()
    exact = reference.exact_policy_statistics(dice)
    assert fast.p_zero == pytest.approx(float(exact.p_zero), abs=1e-12)
    assert fast.expected_rolls == pytest.approx(float(exact.expected_rolls), abs=1e-12)
    assert fast.expected_leave_max == pytest.approx(float(exact.expected_leave_max), abs=1e-12)
    assert fast.acceptance.keys() == exact.acceptance.keys()
    for s, by_face in exact.acceptance.items():
        assert fast.acceptance[s] == pytest.approx({f: float(p) for f, p in by_face.items()}, abs=1e-12)


def test_policy_statistics_of_the_standard_game(standard):
    stats = standard.policy_statistics()
    assert 0 < stats.p_zero < 0.01
    assert 1 <= stats.expected_rolls <= 15
    assert stats.expected_leave_max > 0  # optimal play sometimes leaves a maximum face
    for size, by_face in stats.acceptance.items():
        assert by_face[size] > 0.5 and all(0 <= p <= 1 + 1e-12 for p in by_face.values())
    assert stats.acceptance[6][6] < 1  # ... a six, in particular


@pytest.mark.parametrize("dice", [(6, 6, 8), (6, 8, 10), (6, 6, 6, 12), (4, 4, 6, 8)], ids=str)
@pytest.mark.parametrize("fallback", badg.FALLBACKS)
def test_heuristic_structured_evaluation_equals_roll_by_roll(dice, fallback):
    policy = badg.heuristic_policy(fallback)
    fast = badg.evaluate(policy, dice)
    slow = badg.evaluate(policy.take, dice)
    assert fast.expected_face_sum == slow.expected_face_sum
    assert fast.p_zero == slow.p_zero
    assert fast.values == slow.values
    assert fast.expected_points == sum(dice) - fast.expected_face_sum


def test_heuristic_rules():
    policy = badg.heuristic_policy()
    state = (6, 6, 8)
    assert policy.take(state, (6, 4, 5)) == (0,)  # with 3 dice left: d6 cutoff 4, d8 cutoff 5
    assert policy.take(state, (6, 5, 8)) == (0, 1, 2)
    assert policy.take(state, (1, 2, 3)) == (1,)  # misfortune: the d6 showing 2 loses least
    assert badg.heuristic_policy("face").take(state, (1, 2, 3)) == (2,)
    assert badg.heuristic_policy("points").take(state, (1, 2, 3)) == (1,)
    assert policy.reject_up_to(8, 3) == stopping.max_reject(8, 3) == 5


def test_simulation_agrees_with_exact_evaluation():
    policy = badg.heuristic_policy()
    ev = badg.evaluate(policy)
    res = badg.simulate(policy, 100_000, seed=3)
    assert abs(res.mean("points") - float(ev.expected_points)) < 4 * res.stderr("points")
    assert res.n == res.counts("points").sum() == 100_000 and res.counts("points").size <= 88
    assert abs(res.mean("misfortunes") - float(ev.expected_misfortunes)) < 4 * res.stderr("misfortunes")
    assert abs(res.share("points", 0) - float(ev.p_zero)) < 4 * math.sqrt(float(ev.p_zero) / 100_000)
    small = badg.simulate(policy, 50_000, seed=1, dice=(6, 6, 8))
    exact = badg.evaluate(policy, (6, 6, 8))
    assert abs(small.mean("points") - float(exact.expected_points)) < 4 * small.stderr("points")


def test_simulation_chunking_plays_every_game_and_is_reproducible():
    policy = badg.heuristic_policy()
    one = badg.simulate(policy, 10_001, seed=4, dice=(6, 8, 10), chunk=3_000)
    again = badg.simulate(policy, 10_001, seed=4, dice=(6, 8, 10), chunk=3_000)
    other_seed = badg.simulate(policy, 10_001, seed=5, dice=(6, 8, 10), chunk=3_000)
    assert one.counts("points").sum() == one["misfortunes"].size == 10_001  # four chunks, the last of 1 game
    assert np.array_equal(one["points"], again["points"]) and one.mean("points") == again.mean("points")
    assert np.array_equal(one["misfortunes"], again["misfortunes"]) and one.seed == 4
    assert not np.array_equal(one["points"], other_seed["points"])
    counts = one.counts("points")
    assert one.mean("points") == pytest.approx((np.arange(counts.size) * counts).sum() / 10_001, rel=1e-12)


def test_paper_formulas_as_printed():
    for s, r in itertools.product((2, 6, 12, 50), (1, 2, 3, 5)):
        # eq. (4) divides by s where s^r is right
        assert reference.paper_expected_max(s, r) == stopping.expected_max(s, r) * s ** (r - 1)
        if r > 1:
            E = stopping.optimal_value(s, r - 1)
            assert reference.paper_cutoff(s, r) == stopping.max_reject(s, r) - (E.denominator != 1)
    assert reference.paper_max_strategy_reject(6, 3) == 4 and reference.paper_max_strategy_reject(6, 2) == 3
    assert reference.paper_max_strategy_reject(50, 3) == 33 and stopping.max_reject(50, 3) == 31
    assert reference.paper_max_strategy_reject(50, 1) == 0


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: badg.solve(()), "dice must hold at least one"),
        (lambda: badg.solve("66"), "dice must be a sequence of die sizes"),
        (lambda: badg.solve((6, 1)), "die size must be >= 2"),
        (lambda: badg.solve((6, 6.5)), "must be an integer"),
        (lambda: badg.solve(restrict="never"), "restrict must be one of"),
        (lambda: badg.solve((6, 8)).value_at((6, 6)), "is not a set of dice"),
        (lambda: badg.solve((6, 8)).best_action(((6, 8), (6,))), "one face for each"),
        (lambda: badg.solve((6, 8)).best_action(((6, 8), (7, 1))), "shows 7 on a die with 6 sides"),
        (lambda: badg.solve((6, 8)).best_action(((6, 8), (0, 1))), "face must be >= 1"),
        (lambda: badg.count_rolls((6,), distinct="no"), "distinct must be True or False"),
        (lambda: badg.heuristic_policy("random"), "fallback must be one of"),
        (lambda: badg.evaluate(lambda s, r: (), (6, 6)), "not a legal take"),
        (lambda: badg.evaluate(lambda s, r: (5,), (6, 6)), "not a legal take"),
        (lambda: badg.simulate(badg.heuristic_policy(), 0, seed=1), "n must be >= 1"),
        (
            lambda: badg.simulate(badg.heuristic_policy(), 9, seed=1, progress="on"),
            "progress must be True or False",
        ),
        (lambda: reference.paper_precompute((6,), exact="yes"), "exact must be True or False"),
        (lambda: reference.paper_precompute((6,), as_printed=1), "as_printed must be True or False"),
        (lambda: reference.paper_take_values((6, 8), (6,)), "one face for each"),
        (lambda: reference.paper_take_values((6, 8), (7, 1)), "shows 7 on a die with 6 sides"),
        (lambda: reference.paper_cutoff(6, 1), "r must be >= 2"),
    ],
)
def test_bad_input(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_bad_types():
    with pytest.raises(TypeError):
        badg.evaluate(42)
    with pytest.raises(TypeError):
        badg.simulate(lambda s, r: (0,), 10, seed=1)


@pytest.mark.parametrize("solver", [badg.solve, badg.solve_to_win, stopping.solve_stopping])
def test_solvers_follow_the_protocol(solver):
    from dicelab.core.solution import Solved

    sol = solver(**solver.__example__)
    assert isinstance(sol, Solved)
    assert sol.value_at(sol.start) == sol.value
    assert all(sol.value_at(state) == value for state, value in sol.values.items())
    decisions = list(sol.policy)
    assert len(decisions) == len(sol.policy) == len(set(decisions))
    assert all(sol.policy[state] == sol.best_action(state) for state in decisions)


def test_policy_maps_every_decision_of_a_small_game():
    sol = badg.solve((6, 6, 8))
    decisions = list(sol.policy)
    assert len(decisions) == sum(badg.count_rolls(state) for state in badg.states((6, 6, 8)) if state)
    assert ((6, 8), (5, 2)) in sol.policy and ((6, 8), (7, 2)) not in sol.policy
    # any order of the faces of one size is the same decision
    assert sol.policy[(6, 6, 8), (2, 5, 7)] == sol.best_action(((6, 6, 8), (2, 5, 7)))
    with pytest.raises(KeyError):
        sol.policy[(6, 8), (7, 2)]
    win = badg.solve_to_win((6, 8), target=3)
    assert win.start == ((6, 8), 0) and win.values[win.start] == win.value
    assert ((6, 8), 0, (5, 2)) in win.policy and ((6, 8), 1, (5, 2)) not in win.policy


@pytest.mark.parametrize("dice", [(6, 6), (6, 8), (6, 6, 8), (4, 6, 6, 8)])
@pytest.mark.parametrize("fallback", badg.FALLBACKS)
def test_misfortunes_shortfall_and_fortune_cost_roll_by_roll(dice, fallback):
    """Every roll of every state, through the policy's own take: a misfortune is a roll where no
    die clears its cutoff, and its shortfall is E(s, N - 1) minus the face of the die taken; a roll
    taking k >= 2 dice costs every die left E(s, N - 1) - E(s, N - k). The parallel games' sum
    plus both costs is the expected points."""
    policy = badg.heuristic_policy(fallback)
    E = stopping.optimal_value

    @functools.cache
    def forward(state):  # (misfortunes, shortfall, fortune cost) to come from a sorted state
        if not state:
            return Fraction(0), Fraction(0), Fraction(0)
        n, totals = len(state), [Fraction(0)] * 3
        rolls = list(itertools.product(*(range(1, s + 1) for s in state)))
        for roll in rolls:
            taken = policy.take(state, roll)
            rest = tuple(sorted(s for k, s in enumerate(state) if k not in taken))
            m, sh, fo = forward(rest)
            if all(roll[k] <= policy.reject_up_to(state[k], n) for k in range(n)):
                (k,) = taken
                m, sh = m + 1, sh + E(state[k], n - 1) - roll[k]
            elif len(taken) >= 2:
                fo += sum(E(s, n - 1) - E(s, n - len(taken)) for s in rest)
            totals = [t + x for t, x in zip(totals, (m, sh, fo), strict=True)]
        return tuple(t / len(rolls) for t in totals)

    ev = badg.evaluate(policy, dice)
    assert (ev.expected_misfortunes, ev.expected_shortfall, ev.expected_fortune_cost) == forward(
        tuple(sorted(dice)))
    parallel = sum(s - E(s, len(dice)) for s in dice)
    assert parallel + ev.expected_shortfall + ev.expected_fortune_cost == ev.expected_points
