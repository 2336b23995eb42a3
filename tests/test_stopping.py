"""Tests of dicelab.badg.stopping: the one-die game, exactly."""

import itertools
from collections import Counter
from fractions import Fraction

import pytest
import sympy
from hypothesis import given
from hypothesis import strategies as st

from dicelab.badg import stopping


@given(st.integers(2, 12), st.integers(1, 5))
def test_expected_max_matches_enumeration(s, r):
    rolls = list(itertools.product(range(1, s + 1), repeat=r))
    assert stopping.expected_max(s, r) == Fraction(sum(max(x) for x in rolls), len(rolls))


@pytest.mark.parametrize("r", range(1, 7))
def test_expected_max_formula_equals_expected_max(r):
    formula = stopping.expected_max_formula(r)
    s = sympy.Symbol("s", integer=True, positive=True)
    assert formula.free_symbols == {s}
    for sides in (2, 3, 6, 8, 10, 12, 20, 50):
        value = formula.subs(s, sides)
        assert isinstance(value, sympy.Rational)
        assert Fraction(int(value.p), int(value.q)) == stopping.expected_max(sides, r)


def test_expected_max_formula_closed_forms():
    s = sympy.Symbol("s", integer=True, positive=True)
    assert sympy.simplify(stopping.expected_max_formula(1) - (s + 1) / 2) == 0
    assert sympy.simplify(stopping.expected_max_formula(2) - (s + 1) * (4 * s - 1) / (6 * s)) == 0
    assert sympy.simplify(stopping.expected_max_formula(3) - (s + 1) * (3 * s - 1) / (4 * s)) == 0
    assert sympy.limit(stopping.expected_max_formula(4) / s, s, sympy.oo) == sympy.Rational(4, 5)


@given(st.integers(2, 10), st.integers(1, 4))
def test_optimal_value_beats_every_cutoff_rule(s, r):
    """E(r, s) is the best over all cutoff sequences (brute force over them)."""
    best = Fraction(0)
    for cuts in itertools.product(range(s), repeat=r - 1):  # reject faces <= cut, rolls r..2
        value = Fraction(s + 1, 2)
        for c in reversed(cuts):
            value = stopping.value_with_cutoff(s, c, value)
        best = max(best, value)
    assert stopping.optimal_value(s, r) == best


def test_paper_tables_cutoffs():
    expected = {
        6: [3, 4, 4, 4, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5],
        8: [4, 5, 6, 6, 6, 6, 7, 7, 7, 7, 7, 7, 7, 7],
        10: [5, 6, 7, 7, 8, 8, 8, 8, 8, 9, 9, 9, 9, 9],
        12: [6, 7, 8, 9, 9, 10, 10, 10, 10, 10, 10, 11, 11, 11],
    }
    for s, cuts in expected.items():
        assert [stopping.max_reject(s, r) for r in range(2, 16)] == cuts


def test_fifty_sided_counterexample():
    e2 = stopping.optimal_value(50, 2)
    assert e2 == Fraction(127, 4)
    values = [stopping.value_with_cutoff(50, c, e2) for c in (30, 31, 32, 33, 34)]
    assert values == [
        Fraction(3525, 100),
        Fraction(35265, 1000),
        Fraction(3526, 100),
        Fraction(35235, 1000),
        Fraction(3519, 100),
    ]
    assert stopping.max_reject(50, 3) == 31
    assert stopping.optimal_value(50, 3) == max(values)


def test_strategy_table():
    table = stopping.strategy_table(6, 3)
    assert list(table.columns) == ["max reject", "expected face", "expected points"]
    assert table.loc[2, "expected face"] == Fraction(17, 4) and table.loc[3, "expected points"] == Fraction(
        4, 3
    )
    assert table["max reject"].isna().tolist() == [True, False, False]


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: stopping.expected_max(1, 3), "s must be >= 2"),
        (lambda: stopping.optimal_value(6, 0), "r must be >= 1"),
        (lambda: stopping.value_with_cutoff(6, 6, 3), "reject_up_to must be in 0..5"),
        (lambda: stopping.strategy_table(6, 0), "r_max must be >= 1"),
        (lambda: stopping.max_reject(6.0, 2), "s must be an integer"),
        (lambda: stopping.expected_max_formula(0), "r must be >= 1"),
    ],
)
def test_bad_input(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_long_games_do_not_hit_a_recursion_limit():
    # 10,000 rolls left: the value is within 1e-12 of the top face, and the cutoff rejects all but a 6
    value = stopping.optimal_value(6, 10_000)
    assert 6 - value < Fraction(1, 10**12) and value < 6
    assert stopping.max_reject(6, 10_000) == 5


def _brute_force_play(s, r):
    """Values, and the rolls used and faces kept, by playing every sequence of ``r`` faces.

    ``V[k]`` is the optimal value with ``k`` rolls left, by its definition (take the face or go on,
    whichever is worth more); a face equal to the value of going on is taken.
    """
    V = {1: Fraction(s + 1, 2)}
    for k in range(2, r + 1):
        V[k] = sum((max(Fraction(f), V[k - 1]) for f in range(1, s + 1)), Fraction(0)) / s
    rolls_used, face_kept = Counter(), Counter()
    weight = Fraction(1, s**r)  # each sequence of r faces (the faces after the kept one unused)
    for faces in itertools.product(range(1, s + 1), repeat=r):
        for i, f in enumerate(faces, start=1):
            if i == r or f >= V[r - i]:
                rolls_used[i] += weight
                face_kept[f] += weight
                break
    return V, rolls_used, face_kept


@pytest.mark.parametrize(("s", "r"), [(s, r) for s in range(2, 8) for r in range(1, 6) if s**r <= 20_000])
def test_solve_stopping_play_matches_every_roll_sequence(s, r):
    V, rolls_used, face_kept = _brute_force_play(s, r)
    game = stopping.solve_stopping(s, r)
    assert game.start == (s, r) and game.value == V[r]
    assert all(game.value_at((s, k)) == V[k] for k in range(1, r + 1))
    assert game.rolls_used == {i: rolls_used[i] for i in range(1, r + 1)}
    assert game.face_kept == {f: face_kept[f] for f in range(1, s + 1)}
    assert sum(game.rolls_used.values()) == sum(game.face_kept.values()) == 1
    assert sum(f * p for f, p in game.face_kept.items()) == game.value  # the mean face kept is E(r, s)
    assert game.expected_rolls == sum(i * p for i, p in rolls_used.items())
    assert all(game.best_action((s, k)) == stopping.max_reject(s, k) for k in range(1, r + 1))


@given(st.integers(2, 60), st.integers(1, 40))
def test_solve_stopping_distributions_are_probabilities(s, r):
    game = stopping.solve_stopping(s, r)
    assert sum(game.rolls_used.values()) == sum(game.face_kept.values()) == 1
    assert all(p >= 0 for p in [*game.rolls_used.values(), *game.face_kept.values()])
    assert sum(f * p for f, p in game.face_kept.items()) == game.value == stopping.optimal_value(s, r)
    assert game.policy == {(s, k): stopping.max_reject(s, k) for k in range(1, r + 1)}
    # faces at or below the first cutoff are kept only when later rolls fall as low
    assert all(game.face_kept[f] <= game.face_kept[f + 1] for f in range(1, s))


def test_solve_stopping_refuses_states_of_another_game():
    game = stopping.solve_stopping(6, 3)
    for state in [(6, 0), (6, 4), (8, 2), [6, 2], (6, 2.0), (6, True), None]:
        with pytest.raises(ValueError, match="state must be"):
            game.value_at(state)
