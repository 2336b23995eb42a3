"""Valid input never raises: simultaneous Pig, matrix games and the Pig explorer, on small sizes.

Every strategy draws arguments from the whole valid range (booleans, numpy numbers, fractions
where a real is asked for) and checks that the results are sane: probabilities in [0, 1],
hold values in range, strategies that sum to one.
"""

from fractions import Fraction

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from dicelab import pig
from dicelab.core import games
from dicelab.course.explore import pig_game
from dicelab.pig import reference

FAST = settings(max_examples=25, deadline=None)
SLOW = settings(max_examples=8, deadline=None)
EPS = 1e-12

goals = st.integers(1, 12)
ties = st.one_of(
    st.floats(0, 1),
    st.sampled_from([0, 1, Fraction(1, 2), Fraction(1, 3), np.float64(0.25), np.float32(0.75)]),
)
tols = st.one_of(st.floats(1e-15, 1e-6), st.sampled_from([np.float64(1e-12), Fraction(1, 10**13)]))
ints = st.one_of(st.integers(1, 30), st.integers(1, 30).map(np.int64))


def is_probability(a) -> bool:
    a = np.asarray(a, dtype=float)
    return bool(np.isfinite(a).all() and (a >= -EPS).all() and (a <= 1 + EPS).all())


@st.composite
def policies(draw, goal=None, simple=None):
    """A hold-at-k policy: simple ``(goal,)`` or two-player ``(goal, goal)``, any valid hold values."""
    goal = draw(goals) if goal is None else goal
    simple = draw(st.booleans()) if simple is None else simple
    shape = (goal,) if simple else (goal, goal)
    seed = draw(st.integers(0, 2**32 - 1))
    return np.random.default_rng(seed).integers(1, goal + 1, size=shape)


@st.composite
def mixed(draw, goal):
    """A mixed strategy ``[i, j, k-1]``: probabilities that sum to one in every state."""
    seed = draw(st.integers(0, 2**32 - 1))
    w = np.random.default_rng(seed).random((goal, goal, goal)) ** 4
    return w / w.sum(axis=2, keepdims=True)


# --------------------------------------------------------------------------- the turn and policies


@FAST
@given(st.one_of(st.integers(1, 400), st.integers(1, 400).map(np.int64)))
def test_hold_distributions_are_distributions(k):
    dist = pig.hold_distribution(k)
    assert sum(dist.values()) == 1 and all(0 <= p <= 1 for p in dist.values())
    assert set(dist) == {0, *range(int(k), int(k) + 6)}
    assert pig.one_turn_win(k) == 1 - dist[0]


@FAST
@given(goals)
def test_hold_tables_and_the_deviation_threshold(goal):
    T = pig.hold_table(goal)
    assert T.shape == (goal + 1, goal + 6) and is_probability(T)
    assert np.allclose(T[1:].sum(axis=1), 1)
    assert pig.deviation_threshold(goal) >= 2


@FAST
@given(ints, goals, st.booleans())
def test_hold_at_is_a_simple_policy(n, goal, cap):
    if not cap and n > goal:
        n = goal
    h = pig.hold_at(n, goal, cap=cap)
    assert h.simple and h.goal == goal and h.table.min() >= 1 and h.table.max() <= goal
    assert pig.Policy(h) == h == pig.Policy(h.table.tolist())


# --------------------------------------------------------------------------- two and three players


@FAST
@given(policies(), ties)
def test_best_responses_are_probabilities(opponent, tie):
    goal = opponent.shape[0]
    res = pig.solve_best_response(opponent, tie=tie)
    assert res.values.shape == (goal, goal) and is_probability(res.values)
    assert res.policy.table.min() >= 1 and res.policy.table.max() <= goal
    same = pig.solve_best_response(pig.Policy(opponent), goal, tie=tie)
    assert np.array_equal(same.values, res.values)


@FAST
@given(st.integers(1, 8).flatmap(lambda g: st.tuples(policies(g), policies(g), ties)))
def test_win_probabilities_are_probabilities(args):
    a, b, tie = args
    assert is_probability(pig.win_probability(a, b, tie=tie))


@SLOW
@given(policies(), ties, tols, st.integers(100, 10**20))
def test_full_best_response_does_at_least_as_well(opponent, tie, tol, max_iter):
    full = pig.solve_full_best_response(opponent, tie=tie, tol=tol, max_iter=max_iter)
    assert is_probability(full.values)
    slack = 100 * float(tol) + 1e-12  # each state stops within about tol of its fixed point
    assert (full.values >= pig.solve_best_response(opponent, tie=tie).values - slack).all()


@FAST
@given(st.integers(1, 7).flatmap(lambda g: st.tuples(policies(g, True), policies(g, True))))
def test_three_player_best_responses_are_probabilities(pair):
    res = pig.solve_best_response_3p(*pair)
    assert is_probability(res.values) and res.policy.table.shape == (res.goal,) * 3


@FAST
@given(st.integers(1, 6).flatmap(lambda g: st.tuples(mixed(g), ties)))
def test_best_response_to_a_mixed_opponent(args):
    opponent, tie = args
    res = pig.solve_best_response_mixed(opponent, tie=tie)
    assert is_probability(res.values)


# --------------------------------------------------------------------------- sequential Pig


@SLOW
@given(st.integers(1, 12), tols)
def test_sequential_optimal_is_a_probability(goal, tol):
    sol = pig.solve_sequential(goal, tol=tol)
    assert is_probability(sol.values) and 0.5 <= sol.value <= 1
    for i in range(goal):
        assert 1 <= sol.first_hold(i, np.int64(0)) <= goal - i


# --------------------------------------------------------------------------- the stochastic game


@FAST
@given(st.integers(1, 8), st.data())
def test_stage_games_and_their_fixed_points(goal, data):
    seed = data.draw(st.integers(0, 2**32 - 1))
    values = np.random.default_rng(seed).random((goal, goal))
    i, j = data.draw(st.integers(0, goal - 1)), data.draw(st.integers(0, goal - 1))
    A, C = pig.stage_game(values, i, j, tie=data.draw(ties))
    assert A.shape == C.shape == (goal - i, goal - j) and is_probability(A) and is_probability(C)
    sol = pig.stage_game_value(A, C)
    assert 0 <= sol.value <= 1 + EPS and np.isclose(sol.row.sum(), 1) and np.isclose(sol.col.sum(), 1)


@SLOW
@given(st.integers(1, 10), ties)
def test_equilibria_are_certified(goal, tie):
    eq = pig.solve_equilibrium(goal, tie=tie)
    assert is_probability(eq.values) and eq.exploitability < 1e-9
    assert np.allclose(eq.policy.sum(axis=2), 1) and np.allclose(eq.opponent.sum(axis=2), 1)
    sv = pig.solve_svima(goal, tie=tie)
    assert is_probability(sv.values) and sv.exploitability >= -1e-12
    assert pig.exploitability(eq.policy, eq.opponent, tie=tie) == eq.exploitability


@FAST
@given(st.integers(1, 10), st.integers(2, 12), ints, ties)
def test_symmetric_value_iteration_reports_what_it_did(goal, sweeps, start, tie):
    res = pig.symmetric_value_iteration(goal, sweeps=sweeps, start=start, tie=tie)
    assert res.iterations == sweeps and res.value_history.shape == (sweeps + 1, goal, goal)
    assert is_probability(res.values)


# --------------------------------------------------------------------------- the paper's algorithms, exactly


@SLOW
@given(
    st.integers(1, 4).flatmap(lambda g: st.tuples(policies(g), st.sampled_from([0, Fraction(1, 2), 1, 0.25])))
)
def test_exact_best_responses_are_fractions_in_0_1(args):
    opponent, tie = args
    res = reference.exact_best_response(opponent, tie=tie)
    assert all(isinstance(v, Fraction) and 0 <= v <= 1 for v in res.values.flat)
    fast = pig.solve_best_response(opponent, tie=tie)
    assert np.allclose(res.values.astype(float), fast.values, atol=1e-12)
    vi = reference.paper_value_iteration(opponent, tie=tie)
    assert np.allclose(vi.values, fast.values, atol=1e-9)


@SLOW
@given(st.integers(1, 3).flatmap(lambda g: st.tuples(policies(g, True), policies(g, True))))
def test_exact_three_player_best_responses(pair):
    res = reference.exact_best_response_3p(*pair)
    assert all(0 <= v <= 1 for v in res.values.flat)


@FAST
@given(st.integers(1, 6), st.data())
def test_exact_stage_games_and_pure_bounds(goal, data):
    seed = data.draw(st.integers(0, 2**32 - 1))
    values = np.random.default_rng(seed).random((goal, goal))
    if data.draw(st.booleans()):
        values = [[Fraction(v).limit_denominator(100) for v in row] for row in values]
    i, j = data.draw(st.integers(0, goal - 1)), data.draw(st.integers(0, goal - 1))
    A, C = reference.exact_stage_game(values, i, j)
    assert A.shape == (goal - i, goal - j) and all(0 <= c < 1 for c in C.flat)
    lower, upper = reference.exact_pure_bounds(values, i, j)
    assert 0 <= lower <= upper <= 1


# --------------------------------------------------------------------------- matrix games


matrices = st.tuples(st.integers(1, 5), st.integers(1, 5), st.integers(0, 2**32 - 1)).map(
    lambda t: np.random.default_rng(t[2]).normal(size=t[:2])
)


@FAST
@given(matrices, st.sampled_from(["float", "int", "fraction"]), st.sampled_from([0, 1e-13, 1e-6]))
def test_matrix_games_of_any_numbers(A, kind, tol):
    if kind == "int":
        A = np.round(A * 3).astype(int)
    elif kind == "fraction":
        A = [[Fraction(a).limit_denominator(10) for a in row] for row in A]
    sol = games.solve_matrix_game(A, tol=tol)
    B = np.asarray(A, dtype=float)
    assert np.isclose(sol.row.sum(), 1) and np.isclose(sol.col.sum(), 1)
    assert B.min() - 1e-9 <= sol.value <= B.max() + 1e-9
    saddle = games.pure_saddle_point(A, tol)
    assert saddle is None or (0 <= saddle[0] < B.shape[0] and 0 <= saddle[1] < B.shape[1])


# --------------------------------------------------------------------------- the explorer


@SLOW
@given(st.sampled_from(["hold_at", "best_response"]), st.integers(10, 14), st.data())
def test_games_against_an_opponent_play_to_the_end(kind, goal, data):
    n = data.draw(st.integers(1, goal))
    opp = pig_game.pig_opponent(kind, n, goal)
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    game = pig_game.PigGame(goal)
    while not game.winner:
        i, j = game.scores
        q = opp.choices(i, j)
        assert len(q) == goal - i and is_probability(q)
        game = pig_game.pig_play(game, opp, data.draw(st.integers(1, goal - i)), rng)
    assert game.winner in ("A", "B", "tie") and max(game.scores) <= goal + 5
    assert pig_game.PigGame(goal, game.scores, game.turns, game.winner) == game
