"""Tests of dicelab.pig through its public API: hold-at-k turns, policies, best responses
against exact fractions and the paper's value iteration, three players, sequential Pig,
the stochastic game, and the fixed-point convention (NotConverged)."""

import itertools
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dicelab import pig
from dicelab.core import games
from dicelab.pig import _kernels, _kernels_3p, reference, stochastic_game


def enumerate_turn(k, sides=6):
    """X_k by enumerating roll sequences of a die with ``sides`` faces directly (no recursion)."""
    dist = {}

    def go(total, prob):
        if total >= k:
            dist[total] = dist.get(total, 0) + prob
            return
        for face in range(1, sides + 1):
            if face == 1:
                dist[0] = dist.get(0, 0) + prob / sides
            else:
                go(total + face, prob / sides)

    go(0, Fraction(1))
    return dist


# --------------------------------------------------------------------------- turns


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
    p = pig.one_turn_win()
    assert p == 1 - pig.hold_distribution(100)[0]
    n = pig.deviation_threshold()
    assert Fraction(1, n) < p <= Fraction(1, n - 1)  # the least n with 1/n below p
    assert n == 99


def test_hold_table_rows_are_the_distributions():
    T = pig.hold_table(12)
    for k in range(1, 13):
        assert {x: Fraction(T[k, x]).limit_denominator(6**13) for x in np.nonzero(T[k])[0]} == {
            x: p for x, p in pig.hold_distribution(k).items() if p
        }


# --------------------------------------------------------------------------- a die of s sides

SIDES = [2, 3, 4, 8, 10]


@pytest.mark.parametrize("sides", SIDES)
@pytest.mark.parametrize("k", [1, 2, 5, 11])
def test_hold_distribution_of_an_s_sided_die_matches_enumeration(sides, k):
    dist = pig.hold_distribution(k, sides=sides)
    assert {x: p for x, p in dist.items() if p} == enumerate_turn(k, sides)
    assert set(dist) <= {0, *range(k, k + sides)} and sum(dist.values()) == 1
    assert pig.one_turn_win(k, sides=sides) == 1 - enumerate_turn(k, sides)[0]


@pytest.mark.parametrize("sides", SIDES)
def test_hold_table_and_deviation_threshold_of_an_s_sided_die(sides):
    T = pig.hold_table(9, sides=sides)
    assert T.shape == (10, 9 + sides)
    for k in range(1, 10):
        exact = enumerate_turn(k, sides)
        assert {x: Fraction(T[k, x]) for x in np.nonzero(T[k])[0]} == {
            x: Fraction(float(p)) for x, p in exact.items()
        }
    p = 1 - enumerate_turn(9, sides)[0]
    n = pig.deviation_threshold(9, sides=sides)
    assert Fraction(1, n) < p <= Fraction(1, n - 1)


def test_the_six_sided_die_is_the_default():
    h = pig.hold_at(4, goal=15)
    assert np.array_equal(pig.hold_table(15, sides=6), pig.hold_table(15))
    assert np.array_equal(pig.solve_best_response(h, sides=6).values, pig.solve_best_response(h).values)
    assert pig.hold_distribution(7, sides=6) == pig.hold_distribution(7)


def brute_force_values(opponent, goal, sides, tie=0.5, policy=None):
    """A's values against ``opponent`` (a simple policy) by plain value iteration over every state,
    with the turn totals enumerated roll by roll: A's best hold value, or ``policy[i, j]``."""
    turn = {k: [(x, float(p)) for x, p in enumerate_turn(k, sides).items()] for k in range(1, goal + 1)}
    p = np.zeros((goal, goal))

    def after(i, j):
        if i >= goal and j >= goal:
            return tie
        return 1.0 if i >= goal else 0.0 if j >= goal else p[i, j]

    def q(i, j, k):
        b = turn[int(opponent[j])]
        return sum(pa * pb * after(i + x, j + y) for x, pa in turn[k] for y, pb in b)

    change = 1.0
    while change > 1e-15:
        change = 0.0
        for i in range(goal - 1, -1, -1):
            for j in range(goal - 1, -1, -1):
                ks = range(1, goal - i + 1) if policy is None else [int(policy[i, j])]
                new = max(q(i, j, k) for k in ks)
                change, p[i, j] = max(change, abs(new - p[i, j])), new
    return p


@pytest.mark.parametrize("sides", [2, 3, 4, 8])
def test_best_response_with_an_s_sided_die_is_brute_force_value_iteration(sides):
    goal, opponent = 8, pig.hold_at(3, goal=8)
    res = pig.solve_best_response(opponent, sides=sides)
    assert res.values.shape == (goal, goal)
    assert np.abs(res.values - brute_force_values(opponent, goal, sides)).max() < 1e-12
    # the policy attains the values, as does the exact response in fractions
    assert np.abs(brute_force_values(opponent, goal, sides, policy=res.policy) - res.values).max() < 1e-12
    exact = reference.exact_best_response(opponent, sides=sides)
    assert np.abs(exact.values.astype(float) - res.values).max() < 1e-14
    assert np.abs(pig.win_probability(res.policy, opponent, sides=sides) - res.values).max() < 1e-14
    as_mixed = np.eye(goal)[opponent.two_player().T - 1]
    assert np.abs(pig.solve_best_response_mixed(as_mixed, sides=sides).values - res.values).max() < 1e-14


@pytest.mark.parametrize("sides", [2, 3, 4, 8])
def test_three_player_best_response_with_an_s_sided_die_is_the_enumeration_of_every_outcome(sides):
    o1, o2 = pig.hold_at(2, goal=5), pig.hold_at(3, goal=5)
    res = pig.solve_best_response_3p(o1, o2, sides=sides)
    exact = reference.exact_best_response_3p(o1, o2, sides=sides)  # all (sides + 1)^3 outcomes of a turn
    assert np.abs(exact.values.astype(float) - res.values).max() < 1e-14
    assert res.policy == exact.policy
    d6 = pig.solve_best_response_3p(pig.hold_at(20, 40), pig.hold_at(25, 40))
    assert np.array_equal(
        pig.solve_best_response_3p(pig.hold_at(20, 40), pig.hold_at(25, 40), sides=6).values, d6.values
    )


def stopping_turn(roll_at, sides):
    """The turn total of a player who rolls on at the totals in ``roll_at`` (and at 0), by
    enumerating roll sequences."""
    dist = {}

    def go(total, prob):
        if total and total not in roll_at:
            dist[total] = dist.get(total, 0) + prob
            return
        dist[0] = dist.get(0, 0) + prob / sides
        for face in range(2, sides + 1):
            go(total + face, prob / sides)

    go(0, Fraction(1))
    return dist


@pytest.mark.parametrize("sides", [2, 3, 4])
def test_full_best_response_with_an_s_sided_die_is_the_best_of_every_stopping_rule(sides):
    goal, opponent = 5, pig.hold_at(2, goal=5)
    full = pig.solve_full_best_response(opponent, sides=sides)
    p = np.zeros((goal, goal))

    def after(i, j):
        return 0.5 if i >= goal and j >= goal else 1.0 if i >= goal else 0.0 if j >= goal else p[i, j]

    for i in range(goal - 1, -1, -1):
        for j in range(goal - 1, -1, -1):
            b = enumerate_turn(int(opponent[j]), sides)
            best = 0.0
            totals = range(1, goal - i)  # below the goal: A may roll on or hold
            for rule in itertools.product([False, True], repeat=len(totals)):
                a = stopping_turn({t for t, r in zip(totals, rule, strict=True) if r}, sides)
                after_turn = sum(
                    pa * pb * after(i + x, j + y) for x, pa in a.items() for y, pb in b.items() if x or y
                )
                best = max(best, float(after_turn) / (1 - float(a.get(0, 0) * b.get(0, 0))))
            p[i, j] = best
    assert np.abs(full.values - p).max() < 1e-12
    assert (full.values >= pig.solve_best_response(opponent, sides=sides).values - 1e-12).all()


def simulate_hold_at(n_a, n_b, goal, sides, games, seed):
    """A's share of ``games`` simultaneous games (ties worth 1/2), both players holding at their n
    (capped at the points needed), every roll drawn."""
    rng = np.random.default_rng(seed)
    score = np.zeros((2, games), dtype=np.int64)
    result = np.full(games, np.nan)
    live = np.ones(games, dtype=bool)
    while live.any():
        idx = np.nonzero(live)[0]
        banked = []
        for player, n in enumerate((n_a, n_b)):
            target = np.minimum(n, goal - score[player, idx])
            total = np.zeros(idx.size, dtype=np.int64)
            rolling = np.ones(idx.size, dtype=bool)
            while rolling.any():
                face = rng.integers(1, sides + 1, size=idx.size)
                bust = rolling & (face == 1)
                total = np.where(rolling, np.where(face == 1, 0, total + face), total)
                rolling &= ~bust & (total < target)
            banked.append(total)
        score[0, idx] += banked[0]
        score[1, idx] += banked[1]
        a, b = score[0, idx] >= goal, score[1, idx] >= goal
        done = a | b
        result[idx[done]] = np.where(a & b, 0.5, a.astype(float))[done]
        live[idx[done]] = False
    return result


@pytest.mark.parametrize("sides", [3, 4, 8])
def test_win_probability_with_an_s_sided_die_matches_simulated_games(sides):
    goal, games = 12, 20_000
    exact = pig.win_probability(pig.hold_at(3, goal), pig.hold_at(5, goal), sides=sides)[0, 0]
    won = simulate_hold_at(3, 5, goal, sides, games, seed=sides)
    assert abs(won.mean() - exact) < 4 * won.std(ddof=1) / np.sqrt(games)


# --------------------------------------------------------------------------- policies


def test_hold_at_caps_at_the_points_needed():
    assert pig.hold_at(3, goal=5).table.tolist() == [3, 3, 3, 2, 1]
    assert pig.hold_at(3, goal=5, cap=False).table.tolist() == [3] * 5
    h = pig.hold_at(3, goal=5)
    assert h.simple and h.goal == 5
    assert (h.two_player() == np.array([3, 3, 3, 2, 1])[:, None]).all()


def test_policy_is_checked_once_and_read_only():
    pi = pig.Policy(np.array([[2, 1], [1, 1]]))
    assert pi.goal == 2 and not pi.simple and pi == pig.Policy([[2, 1], [1, 1]])
    with pytest.raises(ValueError, match="read-only"):
        pi.table[0, 0] = 1
    arr = np.array([2, 1])
    pi = pig.Policy(arr)
    arr[0] = 5  # the policy keeps its own copy
    assert pi[0] == 2


def test_goal_is_read_from_the_opponent_policy():
    res = pig.solve_best_response(pig.hold_at(3, goal=6))
    assert res.goal == 6 and res.values.shape == (6, 6)
    assert np.array_equal(
        res.values, pig.solve_best_response(pig.hold_at(3, goal=6).two_player(), goal=6).values
    )


# --------------------------------------------------------------------------- two players


@pytest.mark.parametrize("goal", [1, 2, 5, 9])
@pytest.mark.parametrize("n", [1, 2, 4])
def test_best_response_equals_exact_fractions(goal, n):
    opp = pig.hold_at(n, goal)
    fast = pig.solve_best_response(opp)
    exact = reference.exact_best_response(opp)
    assert exact.values.dtype == object and all(isinstance(v, Fraction) for v in exact.values.flat)
    assert np.abs(fast.values - exact.values.astype(float)).max() < 1e-14
    assert fast.policy == exact.policy


def test_exact_tie_rules_give_exact_values():
    h = pig.hold_at(1, goal=2)
    values = [reference.exact_best_response(h, tie=t).value for t in (0, Fraction(1, 2), 1)]
    assert values[0] < values[1] < values[2]
    assert all(isinstance(v, Fraction) for v in values)


@settings(max_examples=25, deadline=None)
@given(st.integers(2, 12), st.integers(0, 2**32 - 1))
def test_best_response_against_random_policies(goal, seed):
    rng = np.random.default_rng(seed)
    own = np.arange(goal)[:, None]
    opp = pig.Policy(1 + (rng.integers(0, 1000, (goal, goal)) % (goal - own)))
    fast = pig.solve_best_response(opp)
    vi = reference.paper_value_iteration(opp)
    assert vi.iterations > 1 and vi.converged
    assert np.abs(fast.values - vi.values).max() < 1e-10
    # the best response beats every hold-at-k policy for A, and its own policy evaluates to its values
    assert np.abs(pig.win_probability(fast.policy, opp) - fast.values).max() < 1e-12
    for k in range(1, goal + 1):
        assert (pig.win_probability(pig.hold_at(k, goal), opp) <= fast.values + 1e-12).all()


def test_symmetry_and_full_response():
    goal = 12
    h = pig.hold_at(4, goal)
    p = pig.win_probability(h, h)
    assert np.allclose(p + p.T, 1.0)  # zero-sum: same policy, swapped seats
    assert p[0, 0] == pytest.approx(0.5)
    br = pig.solve_best_response(h)
    full = pig.solve_full_best_response(h)
    assert (full.values >= br.values - 1e-12).all()  # stopping at any turn total can only help
    assert full.policy.shape == (goal, goal, goal) and full.policy[:, :, 0].all()  # a turn starts with a roll
    assert 1 <= full.iterations < 10_000


def test_full_response_reduces_to_hold_at_k_when_its_stopping_rule_is_a_threshold():
    goal = 10
    h = pig.hold_at(3, goal)
    full, br = pig.solve_full_best_response(h), pig.solve_best_response(h)
    thresholds = 0
    for i, j in itertools.product(range(goal), repeat=2):
        rolls = full.policy[i, j, : goal - i]
        k = int(np.argmin(rolls)) if not rolls.all() else goal - i
        if rolls[:k].all() and not rolls[k:].any():  # roll below k, hold from k on
            thresholds += 1
            assert full.values[i, j] == pytest.approx(br.values[i, j], abs=1e-12)
    assert thresholds > goal * goal // 2


def test_ties_change_values_as_they_should():
    h = pig.hold_at(3, 10)
    v = [pig.solve_best_response(h, tie=t).value for t in (0.0, 0.5, 1.0)]
    assert v[0] < v[1] < v[2]


# --------------------------------------------------------------------------- three players


@pytest.mark.parametrize("goal", [3, 6])
def test_three_players_against_exact_fractions(goal):
    o1, o2 = pig.hold_at(2, goal), pig.hold_at(3, goal)
    fast = pig.solve_best_response_3p(o1, o2)
    exact = reference.exact_best_response_3p(o1, o2)
    assert fast.values.shape == exact.values.shape == (goal, goal, goal)
    assert np.abs(fast.values - exact.values.astype(float)).max() < 1e-14
    assert fast.policy == exact.policy


def test_three_players_symmetric_in_the_opponents():
    a, b = pig.hold_at(4, 15), pig.hold_at(6, 15)
    ab, ba = pig.solve_best_response_3p(a, b), pig.solve_best_response_3p(b, a)
    assert ab.value == pytest.approx(ba.value)
    assert np.allclose(ab.values, ba.values.transpose(0, 2, 1))


def _full_and_narrowed(na, T, G, b1, b2, guess):
    C, a = _kernels_3p.hold_columns(T), np.zeros(na + 1)
    d = 1 - C[0] * b1 * b2
    return _kernels.best_hold(na, T, G, b1, b2), _kernels_3p.best_hold_narrowed(na, C, G, d, a, guess)


@pytest.mark.parametrize("seed", range(40))
def test_narrowed_hold_search_is_the_full_search(seed):
    rng = np.random.default_rng(seed)
    goal = int(rng.integers(2, 60))
    T = pig.hold_table(goal)
    na = int(rng.integers(1, goal + 1))
    b1, b2 = (float(x) for x in rng.choice([0.0, 1 / 6, 0.3, 0.99, 1.0], 2))
    kind = seed % 4
    if kind == 0:  # increasing values after the turn, as in the game
        G = np.sort(rng.random(na + 6))
    elif kind == 1:  # exact ties everywhere
        G = np.full(na + 6, rng.choice([0.0, 0.5, 1.0]))
    elif kind == 2:  # near-ties a few units of rounding apart
        G = 0.5 + rng.integers(-3, 4, na + 6) * 2.0**-53
    else:
        G = rng.random(na + 6) * rng.choice([1e-300, 1.0])
    for guess in {1, na, int(rng.integers(1, na + 1))}:  # the guess changes only the work
        full, narrowed = _full_and_narrowed(na, T, G, b1, b2, guess)
        assert full == narrowed


def test_three_players_narrowed_search_against_the_full_search(monkeypatch):
    goal = 14
    o1, o2 = pig.hold_at(3, goal), pig.hold_at(5, goal)
    T = pig.hold_table(goal)
    win, pol = _kernels_3p.best_response_3p_sweep(goal, T, o1.table.copy(), o2.table.copy())

    def full(na, C, G, d, a, guess):  # best_hold's scan over every hold value, with the column's d
        best_a, best_d, best_k = -1.0, 1.0, 1
        for k in range(1, na + 1):
            a_k = _kernels.after_hold(k, T, G)
            if a_k * best_d > best_a * d[k]:
                best_a, best_d, best_k = a_k, d[k], k
        return best_a / best_d, best_k

    monkeypatch.setattr(_kernels_3p, "best_hold_narrowed", full)
    win_full, pol_full = _kernels_3p.best_response_3p_sweep.py_func(goal, T, o1.table.copy(), o2.table.copy())
    assert np.array_equal(win, win_full) and np.array_equal(pol, pol_full)


# --------------------------------------------------------------------------- sequential Pig


def test_sequential_pig_known_value():
    sol = pig.solve_sequential()
    assert sol.value == pytest.approx(0.530592725, abs=5e-10)  # Neller and Presser
    assert sol.converged and sol.iterations > 1
    t = sol.first_hold(0, 0)
    assert sol.policy[0, 0, 1:t].all() and not sol.policy[0, 0, t]


@pytest.mark.parametrize(("hold", "goal"), [(2, 6), (5, 12), (10, 15), (20, 15)])
def test_hold_against_its_best_response_never_beats_optimal_play(hold, goal):
    # optimal play guarantees the game's value against any opponent; hold at k, met by its best
    # response, gets at most that value, moving first or second
    race, best = pig.race_against_hold(hold, goal), pig.solve_sequential(goal).value
    assert race.first <= best + 1e-9 and race.second <= 1 - best + 1e-9
    assert 0 < race.second < race.first < 1


def test_hold_at_the_goal_is_optimal_play_when_every_hold_wins():
    # with goal 2 every scoring roll wins at once, so holding at 2 is the best play itself
    race, best = pig.race_against_hold(2, 2), pig.solve_sequential(2).value
    assert race.first == pytest.approx(best, abs=1e-12) and race.second == pytest.approx(1 - best, abs=1e-12)


@pytest.mark.parametrize("goal", [2, 5, 10])
def test_sequential_against_plain_value_iteration(goal):
    sol = pig.solve_sequential(goal)
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
            assert sol.values[i, j, t] == pytest.approx(P[i, j, t], abs=1e-11)


# --------------------------------------------------------------------------- the fixed-point convention


@pytest.mark.parametrize(
    ("call", "what"),
    [
        (lambda: reference.paper_value_iteration(pig.hold_at(3, 8), max_iter=2), "value iteration"),
        (lambda: pig.solve_full_best_response(pig.hold_at(3, 8), max_iter=1), "stopping iteration"),
        (lambda: pig.solve_sequential(8, max_iter=1), "sequential Pig"),
        (lambda: pig.solve_equilibrium(4, max_iter=1), "stage-game double oracle"),
        (lambda: pig.solve_svima(4, max_iter=1), "stage-game fixed point"),
    ],
)
def test_every_fixed_point_loop_raises_when_its_budget_runs_out(call, what):
    with pytest.raises(pig.NotConverged, match=what) as info:
        call()
    err = info.value
    assert isinstance(err, RuntimeError) and err.residual >= err.tol and err.max_iter in (1, 2)
    assert f"max_iter={err.max_iter}" in str(err) and "residual" in str(err)


def test_the_same_loops_converge_within_their_default_budget():
    h = pig.hold_at(3, 8)
    results = [
        reference.paper_value_iteration(h),
        pig.solve_full_best_response(h),
        pig.solve_sequential(8),
        pig.solve_equilibrium(4),
        pig.solve_svima(4),
    ]
    for res in results:
        assert res.converged and res.iterations >= 2
        assert isinstance(res, pig.PigSolution) and res.values.shape[:2] == (res.goal, res.goal)


# --------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: pig.hold_distribution(0), "k must be >= 1"),
        (lambda: pig.hold_at(0), "n must be >= 1"),
        (lambda: pig.hold_at(5, goal=0), "goal must be >= 1"),
        (lambda: pig.hold_at(7, goal=6, cap=False), "n must be at most goal"),
        (lambda: pig.solve_best_response(np.ones((5, 5), int), goal=6), "opponent must have shape"),
        (
            lambda: pig.solve_best_response(np.zeros((6, 6), int)),
            "opponent is not a valid policy: hold values",
        ),
        (lambda: pig.solve_best_response(np.ones((6, 6))), "integer hold values"),
        (lambda: pig.solve_best_response(np.ones((6, 5), int)), "shape"),
        (lambda: pig.solve_best_response(pig.hold_at(3, 6), tie=2), "tie must be >= 0 and <= 1"),
        (lambda: pig.win_probability(pig.hold_at(3, 6), pig.hold_at(3, 7)), "policy_b must have shape"),
        (
            lambda: pig.solve_best_response_3p(pig.hold_at(3, 6).two_player(), pig.hold_at(3, 6)),
            "simple policy",
        ),
        (lambda: pig.solve_sequential(0), "goal must be >= 1"),
        (lambda: pig.solve_sequential(5, tol=0), "tol must be"),
        (lambda: reference.paper_value_iteration(pig.hold_at(3, 6), max_iter=0), "max_iter must be >= 1"),
        (lambda: pig.symmetric_value_iteration(6, sweeps=1), "sweeps must be >= 2"),
        (lambda: pig.stage_game(np.zeros((3, 3)), 3, 0), "i must be in 0..2"),
        (lambda: pig.stage_game_value(np.ones((2, 2)), np.ones((2, 2))), "C must have entries in"),
        (lambda: pig.stage_game_value(np.ones((2, 2)), np.eye(2) / 2), "C must be of rank one"),
        (lambda: pig.stage_game_value(np.ones((2, 2)), np.zeros((2, 3))), "C must have the shape"),
        (lambda: pig.stage_game_value([[np.nan]], [[0]]), "A must hold finite"),
        (lambda: pig.solve_equilibrium(6, exact_band=-1), "exact_band must be"),
        (
            lambda: pig.exploitability(np.ones((3, 3, 3)), np.ones((3, 3, 3))),
            "policy must hold probabilities",
        ),
        (lambda: pig.exploitability(pure(pig.hold_at(2, 3)), np.ones((2, 2, 2))), "opponent must have shape"),
    ],
)
def test_bad_input(call, message):
    with pytest.raises(ValueError, match=message):
        call()


# --------------------------------------------------------------------------- both players rational


def pure(policy):
    """A pure policy ``[own, other]`` as mixed strategies ``[i, j, k-1]`` in A's states."""
    table = pig.Policy(policy).two_player()
    return np.eye(table.shape[0])[table - 1]


@pytest.mark.parametrize("goal", [2, 12, 41, 50])
def test_equilibrium_is_symmetric_and_solves_every_stage_game(goal):
    eq = pig.solve_equilibrium(goal)
    assert eq.value == pytest.approx(0.5, abs=1e-15)
    assert np.abs(eq.values + eq.values.T - 1).max() < 1e-15
    assert (~eq.pure).any() == (goal >= 41)  # the first goal with a state that needs mixing
    for i, j in itertools.product(range(goal), repeat=2):
        A, C = pig.stage_game(eq.values, i, j)
        M = A + C * eq.values[i, j]
        x, y = eq.policy[i, j, : goal - i], eq.opponent[i, j, : goal - j]
        assert x.sum() == pytest.approx(1, abs=1e-15) and y.sum() == pytest.approx(1, abs=1e-15)
        assert games.solve_matrix_game(M).value == pytest.approx(eq.values[i, j], abs=1e-10)  # an LP agrees
        assert (x @ M).min() >= eq.values[i, j] - 1e-14 and (M @ y).max() <= eq.values[i, j] + 1e-14
        assert eq.pure[i, j] == (x.max() == 1 and y.max() == 1)
        gap = M.max(axis=0).min() - M.min(axis=1).max()  # pure minimax - pure maximin
        assert eq.margin[i, j] > 0 and (gap > 0) == (not eq.pure[i, j])


def test_the_equilibrium_at_goal_100_is_symmetric_and_certified():
    eq = pig.solve_equilibrium()
    assert np.abs(eq.values + eq.values.T - 1).max() < 1e-12
    assert np.array_equal(eq.pure, eq.pure.T) and np.array_equal(eq.policy, eq.opponent.transpose(1, 0, 2))
    assert 0 <= eq.exploitability < 1e-12
    assert eq.exploitability == pig.exploitability(eq.policy, eq.opponent)
    support = (eq.policy > 0).sum(axis=2)
    assert support.max() == 2 and np.array_equal(support > 1, ~eq.pure)
    # the certificate can fail: move weight between the two actions of one mixed state
    i, j = np.argwhere(~eq.pure)[0]
    bent = eq.policy.copy()
    a, b = np.nonzero(bent[i, j])[0]
    bent[i, j, a], bent[i, j, b] = bent[i, j, a] + 0.1 * bent[i, j, b], 0.9 * bent[i, j, b]
    assert pig.exploitability(bent, eq.opponent) > 1e-9


def test_the_state_that_needs_mixing_is_decided_exactly():
    eq = pig.solve_equilibrium()
    for mixed in (True, False):  # the mixed state closest to pure, and the pure one closest to mixed
        where = np.where(eq.pure != mixed, eq.margin, np.inf).argmin()
        i, j = (int(v) for v in np.unravel_index(where, eq.margin.shape))
        lower, upper = reference.exact_pure_bounds(eq.values, i, j)
        assert isinstance(lower, Fraction) and lower - 1e-16 <= eq.values[i, j] <= upper + 1e-16
        assert (lower < upper) == mixed == (not eq.pure[i, j])
        if mixed:  # the bounds lie apart by at least the gap at the state's value
            assert upper - lower >= eq.margin[i, j] * (1 - 1e-9) and {(i, j), (j, i)} == {(35, 45), (45, 35)}
        else:
            assert lower == upper


@pytest.mark.parametrize("goal, tie, closest", [(13, 0.5, None), (10, 0.0, None), (44, 0.5, 8)])
def test_every_float_decision_agrees_with_exact_arithmetic(goal, tie, closest):
    """Every state (or every mixed state and the ``closest`` pure ones) decided in fractions."""
    eq = pig.solve_equilibrium(goal, tie=tie)
    T = pig.hold_table(goal)
    kernel = np.where(eq.pure & (eq.policy.max(axis=2) == 1), 1, 2)
    bound = stochastic_game._margin_error_bound(T, eq.values, kernel, eq.policy, eq.opponent, 1e-14)
    assert eq.n_exact == int((eq.margin <= bound).sum())
    states = list(itertools.product(range(goal), repeat=2))
    if closest is not None:
        near = np.argsort(np.where(eq.pure, eq.margin, np.inf), axis=None)[:closest]
        states = [tuple(v) for v in np.argwhere(~eq.pure)]
        states += [np.unravel_index(n, eq.pure.shape) for n in near]
        assert (~eq.pure).sum() >= 2
    u, z = 2.0**-53, T[1:, 0]
    for i, j in states:
        lower, upper = reference.exact_pure_bounds(eq.values, int(i), int(j), tie=Fraction(tie))
        assert (lower == upper) == eq.pure[i, j]
        if eq.margin[i, j] <= bound[i, j]:
            continue  # decided exactly
        if eq.pure[i, j]:  # the exact value within the bound's distance of the float one
            r, c = eq.policy[i, j].argmax(), eq.opponent[i, j].argmax()
            assert abs(float(lower - Fraction(eq.values[i, j]))) <= 36 * u / (1 - z[r] * z[c])
        else:  # the pure bounds apart by at least the margin less its error bound
            assert float(upper - lower) >= eq.margin[i, j] - bound[i, j] > 0


def test_the_error_bound_leaves_no_state_to_exact_arithmetic_at_goal_100():
    eq = pig.solve_equilibrium()
    T = pig.hold_table()
    kernel = np.where(eq.pure, 1, 2)
    bound = stochastic_game._margin_error_bound(T, eq.values, kernel, eq.policy, eq.opponent, 1e-14)
    assert eq.n_exact == 0 and (eq.margin > bound).all() and np.median(bound) < 1e-13
    assert bound.max() < 1e-10 < eq.margin.min()


def test_exact_band_decides_the_closest_states_in_fractions():
    eq = pig.solve_equilibrium(44)
    band = float(np.sort(eq.margin.ravel())[12])
    exact = pig.solve_equilibrium(44, exact_band=band)
    assert exact.n_exact == int((eq.margin < band).sum()) >= 12 and eq.n_exact == 0
    assert np.array_equal(exact.pure, eq.pure)
    A, C = pig.stage_game(eq.values, 3, 7)
    Ax, Cx = reference.exact_stage_game(eq.values, 3, 7)
    assert np.abs(A - Ax.astype(float)).max() < 1e-15 and np.abs(C - Cx.astype(float)).max() < 1e-15


def test_equilibrium_without_the_symmetry_of_ties():
    lose, win = pig.solve_equilibrium(50, tie=0), pig.solve_equilibrium(50, tie=1)
    assert (~lose.pure).any() and lose.exploitability < 1e-12 and win.exploitability < 1e-12
    assert (
        np.abs(lose.values - (1 - win.values.T)).max() < 1e-14
    )  # B's seat with ties as wins is A's with ties as losses
    assert lose.value < 0.5 < win.value


def test_solve_stage_game_on_kernels_of_every_size():
    rps = np.array([[0, -1, 1], [1, 0, -1], [-1, 1, 0]]) / 4 + 0.5
    sol = pig.stage_game_value(rps, np.zeros((3, 3)))
    assert sol.value == pytest.approx(0.5, abs=1e-15) and not sol.pure
    assert np.allclose(sol.row, 1 / 3, atol=1e-15) and np.allclose(sol.col, 1 / 3, atol=1e-15)
    z, w = np.array([0.2, 0.5, 0.1]), np.array([0.3, 0.1, 0.6])
    sol = pig.stage_game_value(rps * 0.5, np.outer(z, w))
    M = rps * 0.5 + np.outer(z, w) * sol.value
    assert (sol.row @ M).min() >= sol.value - 1e-15 and (M @ sol.col).max() <= sol.value + 1e-15
    assert (sol.row > 0).all() and games.solve_matrix_game(M).value == pytest.approx(sol.value, abs=1e-9)


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 5), st.integers(1, 5), st.integers(0, 2**32 - 1))
def test_solve_stage_game_finds_the_fixed_point(m, n, seed):
    rng = np.random.default_rng(seed)
    A, z, w = rng.uniform(0, 0.6, (m, n)), rng.uniform(0, 0.9, m), rng.uniform(0, 0.9, n)
    sol = pig.stage_game_value(A, np.outer(z, w))
    M = A + np.outer(z, w) * sol.value
    assert sol.row.sum() == pytest.approx(1) and sol.col.sum() == pytest.approx(1)
    assert (sol.row @ M).min() >= sol.value - 1e-13 and (M @ sol.col).max() <= sol.value + 1e-13
    assert sol.pure == (sol.row.max() == 1 and sol.col.max() == 1)


def test_exploitability_of_pure_policies_is_their_best_responses():
    goal = 15
    a, b = pig.hold_at(3, goal), pig.solve_best_response(pig.hold_at(5, goal)).policy
    gain = pig.exploitability(pure(a), pure(b).transpose(1, 0, 2))
    against_b = pig.solve_best_response(b).values  # A best-responds to B
    against_a = pig.solve_best_response(a).values  # B (in A's seat) best-responds to A
    assert gain == pytest.approx((against_b - (1 - against_a.T)).max(), abs=1e-15)


@pytest.mark.slow
def test_svima_is_the_upper_value_of_pure_stage_games():
    goal = 10
    sv, eq = pig.solve_svima(goal), pig.solve_equilibrium(goal)
    assert sv.pure.all() and sv.n_exact == 0 and np.isnan(sv.margin).all()
    assert sv.value >= eq.value - 1e-12  # B leads, A follows: the follower cannot lose by it
    for i, j in itertools.product(range(goal), repeat=2):
        A, C = pig.stage_game(sv.values, i, j)
        M = A + C * sv.values[i, j]
        assert sv.values[i, j] == pytest.approx(M.max(axis=0).min(), abs=1e-12)  # min over B of max over A
        assert sv.values[i, j] == pytest.approx(
            float(reference.exact_pure_bounds(sv.values, i, j)[1]), abs=1e-15
        )
    a, b = sv.most_likely_policy(), sv.most_likely_opponent_policy()
    assert a.table.shape == b.table.shape == (goal, goal)
    assert sv.exploitability == pig.exploitability(sv.policy, sv.opponent) >= eq.exploitability


def period_by_brute_force(history, longest=10):
    n = len(history) - 1
    for q in range(1, longest + 1):
        if n >= 2 * q and all((history[n - t] == history[n - t - q]).all() for t in range(q)):
            return q
    return 0


@pytest.mark.parametrize(("goal", "sweeps"), [(20, 30), (50, 40)])
def test_symmetric_value_iteration_reports_what_it_did(goal, sweeps):
    res = pig.symmetric_value_iteration(goal, sweeps=sweeps, start=min(25, goal))
    vh, ph = res.value_history, res.policy_history
    assert vh.shape == ph.shape == (sweeps + 1, goal, goal) and res.iterations == sweeps
    assert (vh[0] == 0).all() and (ph[0] == pig.hold_at(min(25, goal), goal).two_player()).all()
    assert np.array_equal(res.values, vh[-1]) and np.array_equal(res.policy.table, ph[-1])
    assert res.residual == np.abs(vh[-1] - vh[-2]).max()
    assert res.period == period_by_brute_force(ph)
    assert res.converged == (res.period == 1 and res.residual < 1e-12)
    if res.period:
        start = res.cycle_start
        assert all((ph[s] == ph[s + res.period]).all() for s in range(start, sweeps + 1 - res.period))
        assert start == 0 or not (ph[start - 1] == ph[start - 1 + res.period]).all()
        changed = np.zeros((goal, goal), dtype=bool)
        for p in res.cycle:
            changed |= p.table != res.cycle[0].table
        assert np.array_equal(res.cycling, changed) and res.cycling.any() == (res.period > 1)
    else:
        assert res.cycle_start == -1 and res.cycle == [] and not res.cycling.any()
    if res.converged:  # a policy that is its own best response: a pure symmetric equilibrium
        assert np.abs(pig.solve_best_response(res.policy).values - res.values).max() < 1e-9


def test_symmetric_value_iteration_cycles_at_goal_50_as_at_100():
    res = pig.symmetric_value_iteration(50, sweeps=40)
    assert res.period == 2 and not res.converged and res.cycling.any()
    l1, l2 = res.cycle
    assert l1 != l2 and np.array_equal(res.cycling, l1.table != l2.table)


@pytest.mark.parametrize("goal", [6, 15])
def test_best_response_to_a_mixed_opponent(goal):
    b = pig.solve_best_response(pig.hold_at(2, goal)).policy
    as_opponent = pure(b).transpose(1, 0, 2)  # B's pure policy as a strategy in A's states
    assert (
        np.abs(pig.solve_best_response_mixed(as_opponent).values - pig.solve_best_response(b).values).max()
        < 1e-13
    )
    eq = pig.solve_equilibrium(goal)  # against the equilibrium mix, a best response gains nothing
    assert np.abs(pig.solve_best_response_mixed(eq.opponent).values - eq.values).max() < 1e-12
    coin = 0.5 * pure(pig.hold_at(1, goal)) + 0.5 * pure(pig.hold_at(goal, goal))
    res = pig.solve_best_response_mixed(coin)
    # A's best response to the coin is A's half of the certificate against that coin
    mine = np.eye(goal)[res.policy.table - 1]
    lo = 1 - pig.solve_best_response_mixed(mine.transpose(1, 0, 2)).values.T
    assert pig.exploitability(mine, coin) == pytest.approx((res.values - lo).max(), abs=1e-13)
    with pytest.raises(ValueError, match="opponent must hold probabilities in \\[0, 1\\]"):
        pig.solve_best_response_mixed(np.ones((goal, goal, goal)))


def test_long_turns_need_no_recursion_depth():
    # holding at 10,000 almost surely busts; the probabilities still sum to one exactly
    dist = pig.hold_distribution(10_000)
    assert sum(dist.values()) == 1 and dist[0] > 1 - Fraction(1, 10**100)
    assert pig.one_turn_win(10_000) == 1 - dist[0]
