"""Tests of dicelab.pig: hold-at-k distributions, best responses against exact fractions, sequential Pig."""

import itertools
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dicelab import pig


def enumerate_turn(k):
    """X_k by enumerating roll sequences directly (no recursion)."""
    dist = {}

    def go(total, prob):
        if total >= k:
            dist[total] = dist.get(total, 0) + prob
            return
        for face in range(1, 7):
            if face == 1:
                dist[0] = dist.get(0, 0) + prob / 6
            else:
                go(total + face, prob / 6)

    go(0, Fraction(1))
    return dist


@pytest.mark.parametrize("k", [1, 2, 3, 7, 12, 20])
def test_hold_distribution_matches_enumeration(k):
    dist = {x: p for x, p in pig.hold_distribution(k).items() if p}
    assert dist == enumerate_turn(k)
    assert sum(pig.hold_distribution(k).values()) == 1


def test_paper_worked_examples():
    x3 = pig.hold_distribution(3)
    assert [x3[i] for i in (0, 4, 5, 6)] == [Fraction(7, 36)] * 4
    assert x3[3] == Fraction(1, 6) and x3[7] == x3[8] == Fraction(1, 36)
    assert pig.hold_distribution(1)[1] == 0
    assert round(float(pig.hold_distribution(100)[0]), 4) == 0.9898
    assert pig.deviation_threshold() == 99


@pytest.mark.parametrize("goal", [1, 2, 5, 9])
@pytest.mark.parametrize("n", [1, 2, 4])
def test_best_response_equals_exact_fractions(goal, n):
    opp = pig.HoldAt(n, goal)
    fast = pig.best_response(opp, goal)
    exact = pig.best_response_exact(opp, goal)
    for i, j in itertools.product(range(goal), repeat=2):
        assert fast.win[i, j] == pytest.approx(float(exact.win[i, j]), abs=1e-14)


@settings(max_examples=25, deadline=None)
@given(st.integers(2, 12), st.integers(0, 2**32 - 1))
def test_best_response_against_random_policies(goal, seed):
    rng = np.random.default_rng(seed)
    own = np.arange(goal)[:, None]
    opp = 1 + (rng.integers(0, 1000, (goal, goal)) % (goal - own))
    fast = pig.best_response(opp, goal)
    vi = pig.value_iteration(opp, goal)
    assert np.abs(fast.win - vi.win).max() < 1e-10
    # the best response beats every hold-at-k policy for A, and its own policy evaluates to its values
    assert np.abs(pig.win_probability(fast.policy, opp, goal) - fast.win).max() < 1e-12
    for k in range(1, goal + 1):
        assert (pig.win_probability(pig.HoldAt(k, goal), opp, goal) <= fast.win + 1e-12).all()


def test_symmetry_and_full_response():
    goal = 12
    h = pig.HoldAt(4, goal)
    p = pig.win_probability(h, h, goal)
    assert np.allclose(p + p.T, 1.0)  # zero-sum: same policy, swapped seats
    assert p[0, 0] == pytest.approx(0.5)
    br = pig.best_response(h, goal)
    full = pig.full_best_response(h, goal)
    assert (full >= br.win - 1e-12).all()  # stopping at any turn total can only help


def test_ties_change_values_as_they_should():
    goal = 10
    h = pig.HoldAt(3, goal)
    v = [pig.best_response(h, goal, tie=t).value for t in (0.0, 0.5, 1.0)]
    assert v[0] < v[1] < v[2]


@pytest.mark.parametrize("goal", [3, 6])
def test_three_players_against_exact_fractions(goal):
    o1, o2 = pig.HoldAt(2, goal, players=3), pig.HoldAt(3, goal, players=3)
    fast = pig.best_response_3p(o1, o2, goal)
    exact = pig.best_response_3p_exact(o1, o2, goal)
    assert max(abs(fast[key] - float(v)) for key, v in exact.items()) < 1e-14


def test_three_players_symmetric_in_the_opponents():
    goal = 15
    a, b = pig.HoldAt(4, goal, players=3), pig.HoldAt(6, goal, players=3)
    assert pig.best_response_3p(a, b, goal)[0, 0, 0] == pytest.approx(
        pig.best_response_3p(b, a, goal)[0, 0, 0]
    )


def test_sequential_pig_known_value():
    assert pig.sequential_optimal().first_player == pytest.approx(0.530592725, abs=5e-10)


@pytest.mark.parametrize("goal", [2, 5, 10])
def test_sequential_against_plain_value_iteration(goal):
    sol = pig.sequential_optimal(goal)
    P = np.zeros((goal, goal, goal + 1))
    for _ in range(5000):
        old = P.copy()
        for i, j, t in itertools.product(range(goal), range(goal), range(goal)):
            if i + t >= goal:
                continue
            roll = (1 - P[j, i, 0]) / 6 + sum(
                (1.0 if i + t + r >= goal else P[i, j, t + r]) / 6 for r in range(2, 7)
            )
            hold = 1 - P[j, i + t, 0] if t > 0 else 1 - P[j, i, 0]
            P[i, j, t] = max(roll, hold)
        if np.abs(P - old).max() < 1e-15:
            break
    for i, j, t in itertools.product(range(goal), range(goal), range(goal)):
        if i + t < goal:
            assert sol.win[i, j, t] == pytest.approx(P[i, j, t], abs=1e-11)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: pig.hold_distribution(0), "k must be >= 1"),
        (lambda: pig.HoldAt(0), "n must be >= 1"),
        (lambda: pig.HoldAt(5, goal=0), "goal must be >= 1"),
        (lambda: pig.best_response(np.ones((5, 5), int), goal=6), "shape"),
        (lambda: pig.best_response(np.zeros((6, 6), int), goal=6), "hold values must be in 1..6"),
        (lambda: pig.best_response(np.ones((6, 6)), goal=6), "integer hold values"),
        (lambda: pig.best_response(pig.HoldAt(3, 6), goal=6, tie=2), "tie must be in"),
        (lambda: pig.best_response_3p(pig.HoldAt(3, 6), pig.HoldAt(3, 6), 6), "shape"),
        (lambda: pig.sequential_optimal(0), "goal must be >= 1"),
        (lambda: pig.value_iteration(pig.HoldAt(3, 6), 6, max_iter=0), "max_iter must be >= 1"),
    ],
)
def test_bad_input(call, message):
    with pytest.raises(ValueError, match=message):
        call()


# --------------------------------------------------------------------------- part 2: both players rational


@pytest.mark.parametrize("goal", [2, 6, 12])
def test_equilibrium_is_symmetric_and_solves_every_stage_game(goal):
    from dicelab import games

    eq = pig.equilibrium(goal)
    assert eq.value[0, 0] == pytest.approx(0.5, abs=1e-12)
    assert np.allclose(eq.value + eq.value.T, 1.0, atol=1e-11)
    T = pig.hold_table(goal)
    W = pig._padded_values(goal, 0.5)
    W[:goal, :goal] = eq.value
    for i, j in itertools.product(range(goal), repeat=2):
        A, C = pig._stage_matrices(i, j, W, T, goal)
        M = A + C * eq.value[i, j]
        x, y = eq.row[i, j, : goal - i], eq.col[i, j, : goal - j]
        assert games.solve_matrix_game(M).value == pytest.approx(eq.value[i, j], abs=1e-10)
        assert (x @ M).min() >= eq.value[i, j] - 1e-9 and (M @ y).max() <= eq.value[i, j] + 1e-9


def test_svima_is_the_upper_value_of_pure_stage_games():
    goal = 10
    sv = pig.svima(goal)
    eq = pig.equilibrium(goal)
    assert sv.pure.all()
    assert sv.value[goal - 1, goal - 1] >= eq.value[goal - 1, goal - 1] - 1e-12  # the follower gains


def test_symmetric_value_iteration_records_its_cycle():
    res = pig.symmetric_value_iteration(goal=30, max_iter=40)
    assert len(res.policies) == 41 and len(res.values) == 41
    if res.period:
        n = len(res.policies) - 1
        assert np.array_equal(res.policies[n], res.policies[n - res.period])
        assert res.cycling.any() == (res.period > 1)
