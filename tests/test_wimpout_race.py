"""The race to a target: floats against the exact solution, the Last Licks turn against a brute
force through the rules engine, games played with dice, and the consistency of the values."""

import functools
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest

from dicelab import wimpout
from dicelab.wimpout import (
    AUTO_LOSE,
    AUTO_WIN,
    ROLL_5,
    STOP,
    WIMPOUT,
    Choice,
    Rules,
    State,
    _kernels,
    _race_tables,
    all_rolls,
    race,
)
from dicelab.wimpout import reference as race_reference
from dicelab.wimpout.race_match import _roll_step


@functools.lru_cache(maxsize=4)
def solved(target, minimum=35, method="levels"):
    return wimpout.solve_race(target, minimum=minimum, method=method)


# --------------------------------------------------------------------------- the rules engine


@pytest.mark.parametrize(
    "rules", [Rules(), Rules(sun_value=5), Rules(fourth_scores=False, two_pairs="max_low")]
)
def test_the_games_turn_engine_scores_every_roll_as_the_outcome_tables(rules):
    """The simulation's turn, written from the rules through score(), gives every state's
    outcomes exactly as turn_outcomes() tallies them."""
    for s in wimpout.turn_states(rules):
        flash = s.flash[0] if isinstance(s, State) and s.flash else None
        tally = Counter()
        for roll in all_rolls(s.white, s.black):
            kind, white, black, face, points = _roll_step(s.white, s.black, flash, roll, rules)
            nxt = {"repeat": s, "wimpout": WIMPOUT, "win": AUTO_WIN, "lose": AUTO_LOSE}.get(kind)
            if nxt is None:
                nxt = (
                    Choice(white, black)
                    if kind == "choice"
                    else State(white, black, () if face is None else (face,))
                )
            tally[nxt, points] += 1
        assert dict(tally) == dict(wimpout.turn_outcomes(s, rules)), str(s)


# --------------------------------------------------------------------------- the Last Licks turn


def brute_reach(points):
    """The chance to make ``points`` in a turn, by enumerating every roll through score(); once the
    need is met, a forced state is worth the paper's chain's chance of Score and Stop or Auto Win."""
    chain = wimpout.turn_chain()
    met = {
        s: chain.absorption_probability(s, STOP) + chain.absorption_probability(s, AUTO_WIN)
        for s in chain.transient
    }

    @functools.cache
    def value(white, black, flash, need):
        if need <= 0:
            return met[State(white, black, () if flash is None else (flash,))]
        total, repeat, acc = 6 ** (white + black), 0, Fraction(0)
        for roll in all_rolls(white, black):
            kind, w, b, f, gained = _roll_step(white, black, flash, roll, Rules())
            if kind == "repeat":
                repeat += 1
            elif kind == "win":
                acc += 1
            elif kind == "choice":
                acc += 1 if gained >= need else value(w, b, None, need - gained)
            elif kind == "forced":
                acc += value(w, b, f, need - gained)
        return acc / (total - repeat)

    return value(4, True, None, points)


@pytest.mark.parametrize("points", [0, 5, 15])
def test_the_reach_recursion_agrees_with_a_brute_force_through_score(points):
    assert wimpout.reach_probability(points) == brute_reach(points)


def test_reach_probability_decreases_to_the_chance_of_five_sixes():
    L = [wimpout.reach_probability(p) for p in range(0, 105, 5)]
    assert L[0] == L[1]  # every choice holds 5 points or more
    assert all(a > b for a, b in zip(L[1:], L[2:], strict=False))
    assert wimpout.reach_probability(35, minimum=35) == wimpout.reach_probability(20, minimum=35)
    sol = solved(50)
    assert 0 <= sol.tail_bound <= 1e-16  # L(horizon) - L(inf)


# --------------------------------------------------------------------------- the solution


@pytest.mark.slow
def test_the_floats_agree_with_the_exact_solution_on_a_small_target():
    exact = race_reference.exact_race(20, minimum=35, horizon=200)
    floats = wimpout.solve_race(20, minimum=35, horizon=200)
    assert all(isinstance(v, Fraction) for v in exact.values.flat)
    gap = max(abs(float(e) - f) for e, f in zip(exact.values.flat, floats.values.flat, strict=True))
    assert gap < 2e-12
    assert floats.residual < 1e-12


def test_doubling_the_horizon_changes_nothing_to_1e_12():
    sol = solved(100)
    doubled = wimpout.solve_race(100, horizon=2 * sol.horizon)
    assert np.abs(doubled.values - sol.values).max() < 1e-12
    assert (doubled.thresholds == sol.thresholds).all()


def test_plain_value_iteration_finds_the_same_values():
    levels, plain = solved(50), solved(50, method="plain")
    assert np.abs(levels.values - plain.values).max() < 1e-11
    assert plain.evaluations > levels.evaluations


def test_probabilities_and_the_opponents_complement():
    sol = solved(100)
    W = sol.values
    assert ((W > 0) & (W < 1)).all() and sol.residual < 1e-12
    assert W[-1, 0] > W[0, -1] and W[-1, -1] > W[0, 0] > 0.5  # ahead and to move is better
    # both optimal: either player's own values are W, and the mover's chance and the other's add to 1
    match = wimpout.evaluate_race(sol, "optimal", "optimal")
    assert np.abs(match.WA - W).max() < 1e-11 and np.abs(match.WB - W).max() < 1e-11
    fp_first, opt_first = (
        wimpout.evaluate_race(sol, "for points", "optimal"),
        wimpout.evaluate_race(sol, "optimal", "for points"),
    )
    assert np.abs(fp_first.WA - opt_first.WB).max() < 1e-11  # the same player and state, either moving first
    assert np.abs(fp_first.WB - opt_first.WA).max() < 1e-11
    assert abs(fp_first.first_wins + (1 - fp_first.first_wins) - 1) < 1e-15


def test_a_race_sharing_the_interior_of_another_opening_is_the_race_solved_afresh():
    fields = (
        "values",
        "thresholds",
        "exceptions",
        "irregular",
        "iterations",
        "evaluations",
        "change",
        "residual",
    )
    race._clear_interiors()
    fresh = wimpout.solve_race(60, minimum=0)
    race._clear_interiors()
    with_rule, shared = wimpout.solve_race(60), wimpout.solve_race(60, minimum=0)
    for name in fields:
        assert np.array_equal(getattr(shared, name), getattr(fresh, name)), name
    assert np.array_equal(with_rule.values[1:, 1:], shared.values[1:, 1:])  # both scores above 0
    assert not np.array_equal(with_rule.values[0], shared.values[0])


def test_the_losses_match_each_match_played_alone():
    sol = solved(50)
    loss = wimpout.for_points_loss(sol)
    for first, second, value in [
        ("for points", "optimal", loss.for_points_vs_optimal),
        ("optimal", "for points", loss.optimal_vs_for_points),
        ("for points", "for points", loss.for_points_vs_for_points),
    ]:
        assert abs(wimpout.evaluate_race(sol, first, second).first_wins - value) < 1e-11, (first, second)
    T = wimpout.for_points_thresholds(50)
    alike = wimpout.evaluate_race(sol, T, T.copy())  # one policy, given twice: solved once
    assert np.array_equal(alike.WA, alike.WB)
    assert abs(alike.first_wins - loss.for_points_vs_for_points) < 1e-15


def test_a_fixed_policys_turn_is_exactly_a_line_in_what_a_wimpout_is_worth():
    """turn_line's two coefficients, in fractions, give the turn's value at every x exactly: the
    ground of evaluate_race's method="linear"."""
    sol = wimpout.solve_race(15, horizon=150)
    g, m, NH = 3, 7, 30
    tb = _race_tables.tables(Rules(), m, NH, True)
    S, nf = tb["S"], tb["nf"]
    V, D = _kernels.scratch(g + NH + 102, S, S - nf, exact=True)
    V1 = V.copy()
    W = np.array([[Fraction(v) for v in row] for row in sol.values], dtype=object)
    for name in ("for points", "optimal"):
        T, X, P = _race_tables.policy("first", name, sol)
        for i, j in [(0, 0), (0, 2), (1, 0), (1, 1), (2, 1)]:
            oz = int(j > 0)
            kit = (g, m, W, tb["tab"], tb["LT2"][oz], tb["MT2"][oz])
            Qtop = _kernels.fixed_bank.py_func(i, j, g, m, T, X, P, D)
            a, b = _kernels.turn_line.py_func(i, j, *kit, Qtop, D, V, V1)
            assert 0 < b < 1 and isinstance(a, Fraction), (name, i, j)
            for x in (Fraction(0), Fraction(2, 7), Fraction(1)):
                assert _kernels.turn_value.py_func(i, j, x, *kit, Qtop, D, False, V) == a + b * x


def test_the_levels_solved_as_linear_equations_are_the_iterated_values():
    sol = solved(50)
    for first, second in [("for points", "optimal"), ("optimal", "for points"), ("for points", "for points")]:
        linear = wimpout.evaluate_race(sol, first, second)
        iterated = wimpout.evaluate_race(sol, first, second, method="iterate")
        assert linear.iterations == 1 and iterated.iterations > 1
        assert np.abs(linear.WA - iterated.WA).max() < 1e-11 and np.abs(linear.WB - iterated.WB).max() < 1e-11
        again = wimpout.evaluate_race(sol, first, second, method="iterate", tol=1e-15)
        assert np.abs(linear.WA - again.WA).max() < 1e-14, (first, second)  # the equations' solution


def test_the_policy_banks_only_when_the_values_say_so():
    sol = solved(50)
    c = Choice(3, True)
    for i, j in [(0, 0), (45, 45), (25, 40)]:
        t = sol.threshold(i, j, c)
        assert sol.best_action((i, j, c, t)) == sol.best_action((i, j, c, t + 50)) == "bank"
        assert t == 5 or sol.best_action((i, j, c, t - 5)) == "roll"
    grid = sol.threshold_grid(c)
    assert grid["thresholds"].shape == (10, 10) and grid["dice"] == "3W + 1B"
    assert (grid["scores"] == np.arange(0, 50, 5)).all()
    ex = sol.exceptions
    assert sol.irregular == len({tuple(r) for r in ex[:, :3]})
    assert (ex[:, 3] < sol.thresholds[ex[:, 0] // 5, ex[:, 1] // 5, ex[:, 2]]).all()


def test_the_opening_rule_is_a_parameter():
    with_rule, without = solved(100), solved(100, minimum=0)
    assert with_rule.value != without.value
    assert (with_rule.thresholds[0, :, :] >= 35).all()  # from 0 it never banks below 35 for good
    T = wimpout.for_points_thresholds(100, minimum=0)
    assert (T[0] == T[1]).all()


def test_playing_for_points_gives_win_chances_up():
    sol = solved(100)
    loss = wimpout.for_points_loss(sol)
    assert loss.optimal == sol.value
    assert loss.against_optimal > 1e-3 and loss.against_for_points > 1e-3
    assert loss.for_points_vs_for_points < loss.optimal_vs_for_points


@pytest.mark.slow
def test_monte_carlo_games_with_dice_agree_with_the_solved_value():
    sol = solved(30)
    out = wimpout.simulate_race(sol, 5000, seed=11)
    assert abs(out.mean("won") - sol.value) < 4 * out.stderr("won")
    out = wimpout.simulate_race(sol, 3000, seed=12, first="for points")
    value = wimpout.evaluate_race(sol, "for points", "optimal").first_wins
    assert abs(out.mean("won") - value) < 4 * out.stderr("won")


def test_the_official_target_is_refused_beyond_the_budget_before_any_solve(monkeypatch):
    # refused before the solver starts (how fast: benchmarks/budgets.py, "refused at once")
    def no_solve(*args, **kwargs):
        raise AssertionError("the solver started before the budget was checked")

    monkeypatch.setenv("DICELAB_MAX_HOURS", "0.0001")
    monkeypatch.setattr(race._kernels, "solve_levels", no_solve)
    monkeypatch.setattr(race_reference, "solve_race", no_solve)
    with pytest.raises(ValueError, match="target=500 would need about"):
        wimpout.solve_race(500)
    with pytest.raises(ValueError, match="target=200 would need about"):
        race_reference.exact_race(200)
    assert ROLL_5 in wimpout.turn_states()


def test_the_solution_follows_the_solver_protocol():
    from dicelab.core.solution import Solved

    sol = solved(50)
    assert isinstance(sol, Solved) and sol.start == (0, 0)
    assert sol.value_at(sol.start) == sol.value == sol.values[0, 0]
    assert sol.policy["thresholds"] is sol.thresholds and sol.policy["exceptions"] is sol.exceptions
    assert sol.best_action((45, 45, Choice(1, False), 25)) == "bank"
