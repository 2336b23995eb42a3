"""Tests of dicelab.core.games against textbook zero-sum games."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dicelab.core import games


def test_matching_pennies():
    sol = games.solve_matrix_game([[1, -1], [-1, 1]])
    assert sol.value == pytest.approx(0) and not sol.pure
    assert sol.row == pytest.approx([0.5, 0.5]) and sol.col == pytest.approx([0.5, 0.5])


def test_rock_paper_scissors():
    sol = games.solve_matrix_game([[0, -1, 1], [1, 0, -1], [-1, 1, 0]])
    assert sol.value == pytest.approx(0)
    assert sol.row == pytest.approx([1 / 3] * 3) and sol.col == pytest.approx([1 / 3] * 3)


def test_saddle_point_needs_no_lp():
    A = [[3, 1, 4], [2, 2, 3], [0, 1, 5]]  # row 1 / column 1: 2 is the min of its row and max of its column
    sol = games.solve_matrix_game(A)
    assert sol.pure and sol.value == 2 and sol.row.argmax() == 1 and sol.col.argmax() == 1
    assert games.pure_saddle_point(A) == (1, 1)


def test_the_papers_table_3_game():
    sol = games.solve_matrix_game([[0.5, 1.0], [1.0, 0.5]])
    assert (
        sol.value == pytest.approx(0.75)
        and sol.row == pytest.approx([0.5, 0.5])
        and sol.col == pytest.approx([0.5, 0.5])
    )


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 6), st.integers(1, 6), st.integers(0, 2**32 - 1))
def test_optimal_strategies_guarantee_the_value(m, n, seed):
    A = np.random.default_rng(seed).normal(size=(m, n))
    sol = games.solve_matrix_game(A)
    assert sol.row.sum() == pytest.approx(1) and sol.col.sum() == pytest.approx(1)
    assert (sol.row @ A).min() >= sol.value - 1e-8  # the row strategy secures at least the value
    assert (A @ sol.col).max() <= sol.value + 1e-8  # the column strategy concedes at most the value


@pytest.mark.parametrize("A", [[], [[]], [[1, np.nan]], np.zeros((2, 2, 2)), [[1, 2], [3]], [["a"]]])
def test_bad_input(A):
    with pytest.raises(ValueError, match="payoff"):
        games.solve_matrix_game(A)


def _game(m, n, seed):
    return np.random.default_rng(seed).integers(-9, 10, size=(m, n)).astype(float)


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 5), st.integers(1, 5), st.integers(0, 2**32 - 1), st.floats(-300, 300))
def test_scaling_a_game_scales_its_value_and_keeps_its_strategies_optimal(m, n, seed, exponent):
    # c * A is rounded entry by entry, so where the optimal strategies are not unique the solver may
    # return another optimal pair: what must hold is that the scaled game's strategies are optimal
    # in the original game, and identical where the original game's optimal pair is a pure one
    A, c = _game(m, n, seed), 10.0**exponent
    sol, scaled = games.solve_matrix_game(A), games.solve_matrix_game(c * A)
    assert scaled.value == pytest.approx(c * sol.value, rel=1e-9, abs=1e-9 * c)
    assert scaled.pure == sol.pure
    assert (scaled.row @ A).min() >= sol.value - 1e-9  # secures the original game's value
    assert (A @ scaled.col).max() <= sol.value + 1e-9  # concedes at most the value
    assert games.pure_saddle_point(c * A) == games.pure_saddle_point(A)
    if sol.pure:
        assert scaled.row == pytest.approx(sol.row) and scaled.col == pytest.approx(sol.col)


@pytest.mark.parametrize("c", [1e-14, 1e15, 1e300, 1e-300])
def test_tiny_and_huge_payoffs(c):
    A = np.array([[1.0, -1.0], [-1.0, 1.0]]) + 0.5  # matching pennies shifted: value 0.5
    sol = games.solve_matrix_game(c * A)
    assert not sol.pure and sol.value == pytest.approx(0.5 * c, rel=1e-9)
    assert sol.row == pytest.approx([0.5, 0.5]) and sol.col == pytest.approx([0.5, 0.5])
