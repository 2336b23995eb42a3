"""Valid input is never refused: dicelab.badg, dicelab.badg.stopping and the strategy card, on random
small games, with sane results (probabilities in [0, 1], values between the lowest and highest
face sums, takes that are legal)."""

import itertools
import math
from fractions import Fraction

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from dicelab import badg
from dicelab.badg import reference, stopping
from dicelab.badg.state import Game, check_dice, check_roll
from dicelab.badg.tables import solver_tables
from dicelab.course.explore import badg_card

SIZES = st.integers(2, 8)
DICE = st.lists(SIZES, min_size=1, max_size=4)
FEW = settings(max_examples=15, deadline=None)


@st.composite
def state_and_roll(draw, dice=DICE):
    """A game, a non-empty state of it (in any order) and a roll of that state."""
    game = draw(dice)
    state = draw(st.lists(st.sampled_from(game), min_size=1, max_size=len(game)))
    state = [s for s in state if state.count(s) <= game.count(s)] or [game[0]]
    state = draw(st.permutations(state))
    roll = [draw(st.integers(1, s)) for s in state]
    return tuple(game), list(state), roll


def _as_numpy(dice, flag):
    """The same dice as numpy integers, when ``flag``: they are integers too."""
    return [np.int64(s) for s in dice] if flag else dice


# --------------------------------------------------------------------------- the one-die game
@given(st.integers(2, 60), st.integers(1, 40))
@settings(max_examples=60, deadline=None)
def test_one_die_values_are_in_range(s, r):
    value = stopping.optimal_value(s, r)
    assert Fraction(s + 1, 2) <= value <= s and value <= stopping.expected_max(s, r)
    assert 0 <= stopping.max_reject(s, r) <= s - 1
    assert (s + 1) / 2 <= stopping.expected_max(s, r) <= s
    assert reference.paper_expected_max(s, r) == stopping.expected_max(s, r) * s ** (r - 1)
    assert 0 <= reference.paper_max_strategy_reject(s, r) <= s - 1
    if r >= 2:
        assert -1 <= reference.paper_cutoff(s, r) <= s - 1


@given(st.integers(2, 30), st.data())
@settings(max_examples=40, deadline=None)
def test_value_with_cutoff_takes_ints_fractions_and_floats(s, data):
    c = data.draw(st.integers(0, s - 1))
    continuation = data.draw(
        st.one_of(
            st.integers(1, s),
            st.fractions(1, s),
            st.floats(1, s, allow_nan=False),
            st.just(np.float64(1.0)),
            st.just(np.int64(s)),
        )
    )
    value = stopping.value_with_cutoff(s, c, continuation)
    assert isinstance(value, Fraction) and 1 <= value <= s


@given(st.integers(2, 20), st.integers(1, 20))
@settings(max_examples=20, deadline=None)
def test_strategy_table_has_a_row_per_roll(s, r_max):
    table = stopping.strategy_table(s, r_max)
    assert len(table) == r_max and (table["expected points"] >= 0).all()


@given(st.integers(1, 4))
@settings(max_examples=4, deadline=None)
def test_expected_max_formula_at_small_r(r):
    assert stopping.expected_max_formula(r).free_symbols


def test_long_one_die_games_are_allowed():
    assert stopping.max_reject(6, 10_000) == 5 and stopping.optimal_value(6, 10_000) < 6


# --------------------------------------------------------------------------- states and games
@given(DICE, st.booleans())
@settings(max_examples=40, deadline=None)
def test_states_games_and_counts(dice, numpy_ints):
    sizes = _as_numpy(dice, numpy_ints)
    assert check_dice(sizes, "my_dice") == tuple(sorted(dice))
    game = Game.of(sizes, "my_dice")
    found = badg.states(sizes)
    assert len(found) == game.n_states == math.prod(dice.count(s) + 1 for s in set(dice))
    for i in range(game.n_states):
        counts = game.counts_of(i)
        assert game.index(counts) == i and game.counts_in(game.dice_of(counts)) == counts
    assert badg.count_rolls(sizes) <= badg.count_rolls(sizes, distinct=False) == math.prod(dice)
    assert Game(game.sizes, game.counts) == game


@given(st.integers(1, 8), st.integers(0, 5))
@settings(max_examples=30, deadline=None)
def test_multiset_rolls_weigh_every_ordered_roll(s, a):
    rolls = badg.multiset_rolls(s, a)
    assert sum(count for _, count in rolls) == s**a and all(count >= 1 for _, count in rolls)


# --------------------------------------------------------------------------- the exact solver
@given(state_and_roll(), st.sampled_from(badg.RESTRICTIONS))
@settings(max_examples=25, deadline=None)
def test_solver_values_and_takes_are_sane(case, restrict):
    dice, state, roll = case
    sol = badg.solve(list(dice), restrict=restrict)
    for sub, value in sol.values.items():
        assert len(sub) - 1e-9 <= value <= sum(sub) + 1e-9
        assert sol.points(sub) == sum(sub) - value >= -1e-9
    options = sol.take_values(state, roll)
    best = sol.best_action((state, roll))
    assert best in options and all(0 <= p < len(state) for t in options for p in t)
    assert check_roll(sol.game, state, roll) == (tuple(state), tuple(roll))
    assert solver_tables(sol.game).prob.sum() > 0


@given(DICE)
@settings(max_examples=10, deadline=None)
def test_policy_statistics_are_probabilities(dice):
    stats = badg.solve(dice).policy_statistics()
    assert 0 <= stats.p_zero <= 1 + 1e-12 and 1 - 1e-12 <= stats.expected_rolls <= len(dice) + 1e-12
    assert all(0 <= p <= 1 + 1e-12 for by_face in stats.acceptance.values() for p in by_face.values())


@given(st.lists(st.integers(2, 5), min_size=1, max_size=3))
@settings(max_examples=10, deadline=None)
def test_the_papers_algorithm_agrees(dice):
    exact = reference.paper_precompute(dice, exact=True, as_printed=False)
    sol = badg.solve(dice)
    assert all(abs(sol.value_at(s) - float(v)) < 1e-12 for s, v in exact.items())
    stats = reference.exact_policy_statistics(dice)
    assert 0 <= stats.p_zero <= 1
    state, roll = list(reversed(dice)), [1] * len(dice)
    by_subset = reference.paper_take_values(state, roll, values=sol.values)
    assert len(by_subset) == 2 ** len(dice) - 1


# --------------------------------------------------------------------------- heuristic and simulation
@given(state_and_roll(), st.sampled_from(badg.FALLBACKS))
@settings(max_examples=25, deadline=None)
def test_heuristic_takes_are_legal(case, fallback):
    _, state, roll = case
    policy = badg.heuristic_policy(fallback)
    taken = policy.take(state, roll)
    assert taken and len(set(taken)) == len(taken) and all(0 <= p < len(state) for p in taken)
    N = len(state)
    for s, f in zip(state, roll, strict=True):
        assert 0 <= policy.reject_up_to(s, N) <= s - 1
        if N > 1 or fallback != "regret":
            assert isinstance(policy.score(s, f, N), Fraction)


@given(DICE, st.sampled_from(badg.FALLBACKS))
@settings(max_examples=12, deadline=None)
def test_heuristic_evaluation_is_sane(dice, fallback):
    ev = badg.evaluate(badg.heuristic_policy(fallback), dice)
    assert 0 <= ev.p_zero <= 1 and 0 <= ev.expected_points <= sum(s - 1 for s in dice)
    assert ev.expected_misfortunes >= 0
    assert ev.expected_points >= badg.solve(dice).expected_points - 1e-9
    take_all = badg.evaluate(lambda state, roll: tuple(range(len(state))), dice)
    assert take_all.expected_points == Fraction(sum(s - 1 for s in dice), 2)


@given(DICE, st.integers(1, 300), st.integers(0, 2**40), st.integers(1, 500))
@settings(max_examples=15, deadline=None)
def test_simulation_counts_every_game(dice, n_games, seed, chunk):
    res = badg.simulate(badg.heuristic_policy(), n_games, seed=seed, dice=dice, chunk=chunk, progress=False)
    assert res.counts("points").sum() == n_games == res.n and 0 <= res.share("points", 0) <= 1
    assert 0 <= res.mean("points") <= sum(s - 1 for s in dice)
    assert n_games == 1 or res.stderr("points") >= 0


# --------------------------------------------------------------------------- the strategy card
@given(state_and_roll())
@settings(max_examples=15, deadline=None)
def test_strategy_card_is_sane(case):
    _, state, roll = case
    card = badg_card.strategy_card(state, roll)
    assert card[0].cost == 0 and all(t.cost >= -1e-12 and t.points_now >= 0 for t in card)


def test_badg_explorer_takes_commas_and_spaces():
    ex = badg_card.badg_explorer("6, 8", " 5 2 ", seed=0)
    assert "Optimal play takes" in ex.panes["card"].value


# --------------------------------------------------------------------------- playing to win
@given(DICE, st.floats(0, 1), st.booleans(), st.data())
@FEW
def test_play_to_win_accepts_every_small_game_and_target(dice, where, numpy_ints, data):
    X = badg.max_points(dice)
    target = round(where * X)
    win = badg.solve_to_win(_as_numpy(dice, numpy_ints), target=np.int64(target) if numpy_ints else target)
    p = win.distribution()
    assert 0 <= win.value <= 1 and abs(p.sum() - 1) < 1e-12 and p.min() >= 0
    assert abs(p[: target + 1].sum() - win.value) < 1e-12
    expected = badg.points_distribution(win.expected)
    assert win.value >= expected[: target + 1].sum() - 1e-12
    game, state, roll = data.draw(state_and_roll(st.just(tuple(dice))))
    points = data.draw(st.integers(0, X - sum(s - 1 for s in state)))
    take = win.best_action((state, points, roll))
    assert take in win.take_values(state, points, roll) and 0 <= win.value_at((state, points)) <= 1
    diff = win.differences(2)
    assert diff.count >= len(diff.examples) and diff.expected_count >= 0


@given(DICE, st.lists(st.lists(st.integers(0, 5), min_size=1, max_size=12), min_size=1, max_size=3))
@FEW
def test_lowest_utility_accepts_any_opponents(dice, weights):
    opponents = [[Fraction(w, sum(ws)) for w in ws] if sum(ws) else [1] for ws in weights]
    for tie in (0, 0.25, 0.5, Fraction(2, 3), 1):
        u = badg.lowest_utility(opponents, dice, tie=tie)
        assert len(u) == badg.max_points(dice) + 1 and all(0 <= v <= 1 for v in u)
        assert all(a >= b for a, b in itertools.pairwise(u))
    assert 0 <= badg.solve_to_win(dice, utility=u).value <= 1
