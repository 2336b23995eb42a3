"""Tests of dicelab.badg.to_win and dicelab.badg.scores: b.a.d.g. played to win.

The fast solver (highest faces of each size, floats) against the brute force over every subset
(exact fractions); distributions against win values; the expected-points game as a utility."""

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest

from dicelab import badg
from dicelab.badg import _win_kernels, reference, to_win
from dicelab.badg._common import _active
from dicelab.badg.state import Game
from dicelab.badg.to_win import _pick

BRUTE_GAMES = [(6, 6, 8), (4, 6, 6), (3, 3, 4), (2, 3, 3, 4)]
MID = (6,) * 5 + (8, 10)


def _utilities(dice):
    """A threshold for every target, and the chance of beating one or two opponents."""
    X = badg.max_points(dice)
    out = [badg.threshold_utility(t, dice) for t in range(X + 1)]
    opp = reference.exact_points_distribution(dice)
    out.append(badg.lowest_utility([opp], dice))
    out.append(badg.lowest_utility([opp, opp], dice, tie=0))
    return out


@pytest.mark.parametrize("dice", BRUTE_GAMES, ids=str)
def test_win_values_equal_the_brute_force_over_every_subset(dice):
    for u in _utilities(dice):
        exact = reference.exact_win_values(dice, u)
        sol = badg.solve_to_win(dice, utility=u)
        assert set(exact) == {
            (s, x)
            for s in badg.states(dice)
            for x in range(badg.max_points(dice) - sum(d - 1 for d in s) + 1)
        }
        for (state, x), v in exact.items():
            assert sol.value_at((state, x)) == pytest.approx(float(v), rel=1e-12, abs=1e-14)


@pytest.mark.parametrize("dice", BRUTE_GAMES[:3], ids=str)
def test_win_values_are_nonincreasing_in_the_points_so_far(dice):
    """The claim behind the shortcut, on the exact values."""
    u = badg.threshold_utility(badg.max_points(dice) // 3, dice)
    W = reference.exact_win_values(dice, u)
    for (state, x), v in W.items():
        if (state, x + 1) in W:
            assert W[state, x + 1] <= v


def test_a_utility_that_is_not_nonincreasing_is_refused():
    bump = [0] * (badg.max_points((6, 8)) + 1)
    bump[3] = 1  # play to score exactly 3: the highest faces are no longer always best
    with pytest.raises(ValueError, match="utility must be nonincreasing"):
        badg.solve_to_win((6, 8), utility=bump)
    with pytest.raises(ValueError, match="utility must be nonincreasing"):
        reference.exact_win_values((6, 8), bump)


@pytest.mark.parametrize("dice", BRUTE_GAMES, ids=str)
def test_exact_distributions_equal_the_float_ones(dice):
    exact = reference.exact_points_distribution(dice)
    fast = badg.points_distribution(badg.solve(dice))
    assert sum(exact) == 1
    assert np.abs(np.array([float(p) for p in exact]) - fast).max() < 1e-12
    for u in _utilities(dice):
        exact = reference.exact_points_distribution(dice, u)
        fast = badg.solve_to_win(dice, utility=u).distribution()
        assert sum(exact) == 1
        assert np.abs(np.array([float(p) for p in exact]) - fast).max() < 1e-12


@pytest.mark.parametrize("dice", BRUTE_GAMES[:2], ids=str)
def test_exact_threshold_value_is_the_cumulative_distribution(dice):
    for t in range(badg.max_points(dice) + 1):
        u = badg.threshold_utility(t, dice)
        p = reference.exact_points_distribution(dice, u)
        assert sum(p[: t + 1]) == reference.exact_win_values(dice, u)[dice, 0]


@pytest.mark.parametrize("dice", [(6, 6, 8), MID], ids=str)
def test_threshold_value_is_the_cumulative_distribution(dice):
    for t in range(0, badg.max_points(dice) + 1, 3):
        win = badg.solve_to_win(dice, target=t)
        p = win.distribution()
        assert p.min() >= 0 and p.sum() == pytest.approx(1, abs=1e-13)
        assert p.cumsum()[t] == pytest.approx(win.value, abs=1e-12)
        assert win.expected_points == pytest.approx(float(p @ np.arange(p.size)))


@pytest.mark.parametrize("dice", [*BRUTE_GAMES, MID], ids=str)
def test_minus_the_points_as_utility_is_the_expected_points_game(dice):
    X = badg.max_points(dice)
    win = badg.solve_to_win(dice, utility=[-x for x in range(X + 1)])
    sol = badg.solve(dice)
    assert -win.value == pytest.approx(sol.expected_points, rel=1e-12)
    assert win.expected_points == pytest.approx(sol.expected_points, rel=1e-12)
    assert win.differences().count == 0  # the same policy, ties broken the same way
    if len(dice) <= 4:
        exact = reference.exact_win_values(dice, [-x for x in range(X + 1)])
        assert -exact[dice, 0] == sum(dice) - reference.paper_precompute(dice)[dice]


@pytest.mark.parametrize("dice", [(6, 8), (4, 6, 6, 8, 10), MID], ids=str)
def test_a_targets_values_are_those_of_its_own_solve_bit_for_bit(dice):
    """Every target read from the game's table of targets (in any order, the table growing as
    larger targets come) equals the kernel run on that target's utility alone, to the last bit."""
    game, X = Game.of(dice), badg.max_points(dice)
    to_win._clear_targets()
    targets = list(range(X + 1))
    np.random.default_rng(len(dice)).shuffle(targets)
    for t in targets:
        u = badg.threshold_utility(t, dice)
        alone = _win_kernels.win_values(
            to_win._expected(game.dice).tables, np.array([float(v) for v in u]), _active(game, u)
        )
        win = badg.solve_to_win(dice, target=t)
        assert np.array_equal(win.W, alone, equal_nan=True), t
        assert np.array_equal(win.active, _active(game, u))
    assert to_win._TARGETS[game.dice].top == X


def test_a_targets_forward_pass_is_solved_once_per_game():
    to_win._clear_targets()
    first = badg.solve_to_win(MID, target=9)
    p, diff = first.distribution(), first.differences(3)
    badg.solve_to_win(MID, target=40)  # a larger target: the table is solved again, passes kept
    again = badg.solve_to_win(MID, target=9)
    assert again is not first and again._forward is first._forward
    assert np.array_equal(again.distribution(), p) and again.differences(3) == diff
    to_win._clear_targets()
    fresh = badg.solve_to_win(MID, target=9)
    assert np.array_equal(fresh.distribution(), p) and fresh.differences(3) == diff


def test_win_value_is_nondecreasing_in_the_target_and_beats_the_expected_points_policy():
    expected = badg.points_distribution(badg.solve(MID)).cumsum()
    values = [badg.solve_to_win(MID, target=t).value for t in range(badg.max_points(MID) + 1)]
    assert all(b >= a - 1e-13 for a, b in itertools.pairwise(values))
    assert all(0 <= v <= 1 for v in values)
    assert values[-1] == pytest.approx(1, abs=1e-14)
    assert all(v >= e - 1e-12 for v, e in zip(values, expected, strict=True))
    assert sum(v > e + 1e-6 for v, e in zip(values, expected, strict=True)) > 10  # strictly, mostly


def test_expected_points_distribution_matches_solve_and_its_statistics():
    sol = badg.solve(MID)
    p = badg.points_distribution(sol)
    assert float(p @ np.arange(p.size)) == pytest.approx(sol.expected_points, rel=1e-12)
    assert p[0] == pytest.approx(sol.policy_statistics().p_zero, rel=1e-12)
    # one die: the final points are s - face of the last roll's rule
    one = badg.points_distribution(badg.solve((6,)))
    assert np.allclose(one, [1 / 6] * 6)


def test_lowest_utility_against_equal_opponents_is_fair():
    """With ties split, against n opponents of the same distribution, E[u] = 1/(n + 1)."""
    dice = (4, 6, 6)
    p = reference.exact_points_distribution(dice)
    for n in (1, 2, 3):
        u = badg.lowest_utility([p] * n, dice)
        assert sum(q * v for q, v in zip(p, u, strict=True)) == Fraction(1, n + 1)
        win, lose = (
            badg.lowest_utility([p] * n, dice, tie=1),
            badg.lowest_utility([p] * n, dice, tie=0),
        )
        assert all(a <= b <= c for a, b, c in zip(lose, u, win, strict=True))
    assert badg.solve_to_win(dice, utility=badg.lowest_utility([p], dice)).value > 0.5  # knows p, plays to it


def test_lowest_utility_by_counting_every_opponent_outcome():
    dice = (3, 3)
    q1 = [Fraction(1, 3), Fraction(1, 3), 0, Fraction(1, 3)]
    q2 = [Fraction(1, 2), Fraction(1, 4), Fraction(1, 4)]
    for tie, share in [
        (0.5, lambda j: Fraction(1, j + 1)),
        (1, lambda j: 1),
        (0, lambda j: int(j == 0)),
        (Fraction(1, 3), lambda j: Fraction(1, 1 + 2 * j)),  # a lot: weight 1/3 against 2/3 each
        (0.75, lambda j: Fraction(3, 3 + j)),
    ]:
        u = badg.lowest_utility([q1, q2], dice, tie=tie)
        for x in range(badg.max_points(dice) + 1):
            want = Fraction(0)
            for y1, y2 in itertools.product(range(len(q1)), range(len(q2))):
                if min(y1, y2) >= x:
                    want += q1[y1] * q2[y2] * share((y1 == x) + (y2 == x))
            assert u[x] == want


def _brute_differences(win, dice):
    """Every (state, points, multiset roll) where best_action differs from the expected-points take."""
    X = badg.max_points(dice)
    count = 0
    for state in badg.states(dice):
        if not state:
            continue
        groups = sorted(set(state))
        per_size = [
            list(itertools.combinations_with_replacement(range(s, 0, -1), state.count(s))) for s in groups
        ]
        for x in range(X - sum(s - 1 for s in state) + 1):
            for parts in itertools.product(*per_size):
                roll = tuple(f for part in parts for f in part)
                options = win._options(state, x, roll)
                count += _pick(options, use_win=True) != _pick(options, use_win=False)
    return count


@pytest.mark.parametrize(("dice", "target"), [((6, 6, 8), 4), ((4, 6, 6), 3), ((3, 3, 4), 2)], ids=str)
def test_differences_count_every_decision_where_the_takes_differ(dice, target):
    win = badg.solve_to_win(dice, target=target)
    diff = win.differences(examples=50)
    assert diff.count == _brute_differences(win, dice) > 0
    probs = [d.probability for d in diff.examples]
    assert probs == sorted(probs, reverse=True) and all(p > 0 for p in probs)
    assert 0 < diff.expected_count and sum(probs) <= diff.expected_count + 1e-12
    for d in diff.examples:
        assert d.win_take == win.best_action((d.state, d.points, d.roll)) != d.expected_take
        assert d.win_values[0] > d.win_values[1]  # the win take is strictly better for the target
        assert d.expected_points[0] >= d.expected_points[1] - 1e-12  # and never better on points
        assert "to win" in str(d) and "on points" in str(d)


def test_take_values_and_best_action_read_the_win_values():
    win = badg.solve_to_win((6, 8), target=3)
    # roll d6:3 d8:8 with nothing scored: take both for 3 points, sure to make the target
    values = win.take_values((6, 8), 0, (3, 8))
    assert values[(0, 1)] == 1.0 and win.best_action(((6, 8), 0, (3, 8))) == (0, 1)
    assert badg.solve((6, 8)).best_action(((6, 8), (3, 8))) == (1,)
    assert win.value_at(((), 3)) == 1.0 and win.value_at(((), 4)) == 0.0
    assert win.value_at(((6,), 0)) == pytest.approx(4 / 6)  # faces 3..6 keep within 3 points


@pytest.mark.slow
def test_standard_game_threshold_agrees_with_its_distribution():
    win = badg.solve_to_win(target=8)
    p = win.distribution()
    expected = badg.points_distribution(win.expected)
    assert p.cumsum()[8] == pytest.approx(win.value, abs=1e-11)
    assert win.value > expected.cumsum()[8] + 0.01
    assert float(expected @ np.arange(p.size)) == pytest.approx(win.expected.expected_points, rel=1e-11)
    assert math.isclose(win.expected_points, float(p @ np.arange(p.size)))


@pytest.mark.slow
def test_lowest_utility_of_float_distributions_never_rises():
    # a float distribution sums to 1 only within rounding: 1 - (its cumulative sum) can dip below
    # 0 in the far tail, and an even power of it makes u rise there
    dist = badg.points_distribution(badg.solve())  # sums to 1 + 2.2e-16
    for opponents in (1, 2, 3, 4):
        u = badg.lowest_utility([dist] * opponents)
        assert all(a >= b for a, b in zip(u, u[1:], strict=False)), opponents
