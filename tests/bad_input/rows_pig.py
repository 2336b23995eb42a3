"""Bad-input rows: dicelab.pig, dicelab.core.games and dicelab.course.explore.pig_game."""

import math
import random
from fractions import Fraction

import numpy as np

from bad_input import ARRAYS_2D, BOOLS, FLOATS, HUGE, INTS, STRINGS, Row  # noqa: F401
from dicelab import pig
from dicelab.core import games
from dicelab.course.explore import pig_game
from dicelab.pig import reference

H6 = pig.hold_at(3, 6)  # a valid simple policy, goal 6
H3 = pig.hold_at(2, 3)
PURE3 = np.eye(3)[H3.two_player() - 1]  # a valid mixed strategy [i, j, k-1], goal 3
SEQ = pig.solve_sequential(6)
OPP10 = pig_game.pig_opponent("hold_at", 3, goal=10)
OPP20 = pig_game.pig_opponent("hold_at", 3, goal=20)
GAME10 = pig_game.PigGame(10)
RNG = np.random.default_rng(1)

# a state of SEQ (goal 6, states (i, j, t))
STATES = [None, 3, "000", (0, 0), (0, 0, 0, 0), (0, 0, 6), (-1, 0, 0), (0, 0.5, 0), [0, None, 0]]

# a policy argument (two-player or simple), tried where the goal is 6
POLICIES = [
    None,
    "25",
    3.5,
    7,
    [],
    [[1, 2]],
    [[1, 2], [3]],
    [["a", "b"], ["c", "d"]],
    np.zeros((6, 6), dtype=int),  # hold values must be >= 1
    np.full(6, 7),  # and <= goal
    np.ones((6, 6)),  # floats, not hold values
    np.ones((6, 6), dtype=bool),
    np.ones((6, 6, 6), dtype=int),  # a three-player policy
    pig.hold_at(3, 7),  # a policy for another goal
    np.ones((5, 5), dtype=int),
]
# an opponent of three players: simple policies only
SIMPLE_POLICIES = POLICIES + [H6.two_player()]
# a policy whose goal is beyond the budget, for solvers that read the goal from it
TOO_BIG = [pig.hold_at(1, 20_000)]
# a mixed strategy [i, j, k-1], tried where the goal is 3
STRATEGIES = [
    None,
    "abc",
    3.5,
    [],
    np.ones((3, 3)) / 3,  # two dimensions
    np.ones((3, 3, 3)),  # sums to 3
    np.ones((3, 3, 4)) / 4,  # not a cube
    np.full((3, 3, 3), math.nan),
    PURE3 * 2 - np.roll(PURE3, 1, axis=2),  # sums to 1, but holds -1 and 2
    PURE3.astype(bool),
    H3,  # a policy, not a mixed strategy
    np.ones((2, 2, 2)) / 2,  # another goal
]
# a table of values p[i, j]
VALUES = ARRAYS_2D + [np.zeros((2, 3)), np.zeros(3), [[True, False], [False, True]], [[None, 0], [0, 0]]]
TIES = FLOATS + [-0.1, 1.5]  # an exact tie (a fraction), not declared: a float would round it
# (the other arguments of the solvers, goal, tie, tol, max_iter, sides ..., are declared with
# dicelab.core.spec.validated and tried from their declarations; the rows here try the rest and
# the sizes beyond the budget)
MATRICES = ARRAYS_2D + [[[True, False], [False, True]], [[None, 1]], np.zeros((2, 2, 2))]
RNGS = [None, 1, "rng", random.Random(1), np.random.RandomState(1)]

ROWS = [
    # the turn
    Row(pig.hold_distribution, "k", [HUGE], lambda v: pig.hold_distribution(v)),
    Row(pig.one_turn_win, "k", [HUGE], lambda v: pig.one_turn_win(v)),
    Row(pig.hold_table, "goal", [HUGE], lambda v: pig.hold_table(v)),
    Row(pig.deviation_threshold, "goal", [HUGE], lambda v: pig.deviation_threshold(v)),
    # policies
    Row(
        pig.Policy, "table", POLICIES[:12] + [np.zeros(0, dtype=int), np.ones((2, 3), dtype=int)], pig.Policy
    ),
    Row(pig.hold_at, "n", [21], lambda v: pig.hold_at(v, 20, cap=False)),
    Row(pig.hold_at, "goal", [HUGE], lambda v: pig.hold_at(5, v)),
    # two players
    Row(pig.solve_best_response, "opponent", POLICIES, lambda v: pig.solve_best_response(v, 6)),
    Row(pig.solve_best_response, "opponent", TOO_BIG, lambda v: pig.solve_best_response(v)),
    Row(pig.solve_best_response, "goal", [7, HUGE], lambda v: pig.solve_best_response(H6, v)),
    Row(
        pig.solve_best_response_mixed, "opponent", STRATEGIES[:-1], lambda v: pig.solve_best_response_mixed(v)
    ),
    Row(pig.win_probability, "policy_a", POLICIES, lambda v: pig.win_probability(v, H6, 6)),
    Row(pig.win_probability, "policy_a", TOO_BIG, lambda v: pig.win_probability(v, v)),
    Row(pig.win_probability, "policy_b", POLICIES, lambda v: pig.win_probability(H6, v)),
    Row(pig.win_probability, "goal", [7, HUGE], lambda v: pig.win_probability(H6, H6, v)),
    Row(pig.solve_full_best_response, "opponent", POLICIES, lambda v: pig.solve_full_best_response(v, 6)),
    Row(pig.solve_full_best_response, "opponent", TOO_BIG, lambda v: pig.solve_full_best_response(v)),
    Row(pig.solve_full_best_response, "goal", [7, HUGE], lambda v: pig.solve_full_best_response(H6, v)),
    # three players
    Row(
        pig.solve_best_response_3p,
        "opponent1",
        SIMPLE_POLICIES,
        lambda v: pig.solve_best_response_3p(v, H6, 6),
    ),
    Row(
        pig.solve_best_response_3p,
        "opponent1",
        [pig.hold_at(1, 2_000)],
        lambda v: pig.solve_best_response_3p(v, v),
    ),
    Row(
        pig.solve_best_response_3p, "opponent2", SIMPLE_POLICIES, lambda v: pig.solve_best_response_3p(H6, v)
    ),
    Row(pig.solve_best_response_3p, "goal", [7, HUGE], lambda v: pig.solve_best_response_3p(H6, H6, v)),
    # sequential Pig
    Row(pig.solve_sequential, "goal", [HUGE], lambda v: pig.solve_sequential(v)),
    Row(pig.PigSolution.value_at, "state", STATES, lambda v: SEQ.value_at(v)),
    Row(pig.PigSolution.best_action, "state", STATES, lambda v: SEQ.best_action(v)),
    Row(pig.SequentialSolution.first_hold, "i", INTS + [6], lambda v: SEQ.first_hold(v, 0)),
    Row(pig.SequentialSolution.first_hold, "j", INTS + [6], lambda v: SEQ.first_hold(0, v)),
    # the stochastic game
    Row(pig.stage_game, "values", VALUES, lambda v: pig.stage_game(v, 0, 0)),
    Row(pig.stage_game, "i", INTS + [3], lambda v: pig.stage_game(np.zeros((3, 3)), v, 0)),
    Row(pig.stage_game, "j", INTS + [3], lambda v: pig.stage_game(np.zeros((3, 3)), 0, v)),
    Row(pig.stage_game_value, "A", MATRICES, lambda v: pig.stage_game_value(v, np.zeros((2, 2)))),
    Row(
        pig.stage_game_value,
        "C",
        MATRICES + [np.ones((2, 2)), -np.ones((2, 2)) / 4, np.eye(2) / 2, np.zeros((2, 3))],
        lambda v: pig.stage_game_value(np.ones((2, 2)) / 2, v),
    ),
    Row(pig.exploitability, "policy", STRATEGIES[:-1], lambda v: pig.exploitability(v, PURE3)),
    Row(pig.exploitability, "opponent", STRATEGIES, lambda v: pig.exploitability(PURE3, v)),
    Row(pig.solve_equilibrium, "goal", [HUGE], lambda v: pig.solve_equilibrium(v)),
    Row(pig.solve_svima, "goal", [HUGE], lambda v: pig.solve_svima(v)),
    Row(pig.symmetric_value_iteration, "goal", [HUGE], lambda v: pig.symmetric_value_iteration(v)),
    Row(
        pig.symmetric_value_iteration, "sweeps", [HUGE], lambda v: pig.symmetric_value_iteration(20, sweeps=v)
    ),
    # the paper's algorithms and the exact cross-checks
    Row(
        reference.paper_value_iteration, "opponent", POLICIES, lambda v: reference.paper_value_iteration(v, 6)
    ),
    Row(reference.paper_value_iteration, "opponent", TOO_BIG, lambda v: reference.paper_value_iteration(v)),
    Row(reference.paper_value_iteration, "goal", [7, HUGE], lambda v: reference.paper_value_iteration(H6, v)),
    Row(reference.exact_best_response, "opponent", POLICIES, lambda v: reference.exact_best_response(v, 6)),
    Row(
        reference.exact_best_response,
        "opponent",
        [pig.hold_at(1, 300)],
        lambda v: reference.exact_best_response(v),
    ),
    Row(reference.exact_best_response, "goal", [7, HUGE], lambda v: reference.exact_best_response(H6, v)),
    Row(reference.exact_best_response, "tie", TIES, lambda v: reference.exact_best_response(H6, tie=v)),
    Row(
        reference.exact_best_response_3p,
        "opponent1",
        SIMPLE_POLICIES,
        lambda v: reference.exact_best_response_3p(v, H6, 6),
    ),
    Row(
        reference.exact_best_response_3p,
        "opponent2",
        SIMPLE_POLICIES,
        lambda v: reference.exact_best_response_3p(H6, v),
    ),
    Row(
        reference.exact_best_response_3p,
        "goal",
        [7, HUGE],
        lambda v: reference.exact_best_response_3p(H6, H6, v),
    ),
    Row(
        reference.exact_stage_game,
        "values",
        VALUES + [[[Fraction(1, 2), "x"], [0, 0]], [[math.inf, 0], [0, 0]]],
        lambda v: reference.exact_stage_game(v, 0, 0),
    ),
    Row(reference.exact_pure_bounds, "values", VALUES, lambda v: reference.exact_pure_bounds(v, 0, 0)),
]
# The exact stage game and its pure bounds take the same (values, i, j, tie).
for _exact in (reference.exact_stage_game, reference.exact_pure_bounds):
    ROWS += [
        Row(_exact, "i", INTS + [3], lambda v, f=_exact: f(np.zeros((3, 3)), v, 0)),
        Row(_exact, "j", INTS + [3], lambda v, f=_exact: f(np.zeros((3, 3)), 0, v)),
        Row(_exact, "tie", TIES, lambda v, f=_exact: f(np.zeros((3, 3)), 0, 0, tie=v)),
    ]
ROWS += [
    # matrix games
    Row(games.pure_saddle_point, "A", MATRICES, lambda v: games.pure_saddle_point(v)),
    Row(games.pure_saddle_point, "tol", FLOATS + [-1], lambda v: games.pure_saddle_point([[1, 2]], tol=v)),
    Row(games.solve_matrix_game, "A", MATRICES, lambda v: games.solve_matrix_game(v)),
    Row(games.solve_matrix_game, "tol", FLOATS + [-1], lambda v: games.solve_matrix_game([[1, 2]], tol=v)),
    # the explorer
    Row(pig_game.pig_opponent, "kind", [""], lambda v: pig_game.pig_opponent(v, 3, 10)),
    Row(pig_game.pig_opponent, "n", [11], lambda v: pig_game.pig_opponent("hold_at", v, 10)),
    Row(pig_game.pig_opponent, "n", INTS + [0], lambda v: pig_game.pig_opponent("equilibrium", v, 10)),
    Row(pig_game.PigOpponent.choices, "i", INTS + [10], lambda v: OPP10.choices(v, 0)),
    Row(pig_game.PigOpponent.choices, "j", INTS + [10], lambda v: OPP10.choices(0, v)),
    Row(pig_game.PigGame, "goal", INTS + [9, 101, HUGE], lambda v: pig_game.PigGame(v)),
    Row(
        pig_game.PigGame,
        "scores",
        [None, "00", 0, (0,), (0, 0, 0), (-1, 0), (0, 2.0), (0, 16), [True, 0]],
        lambda v: pig_game.PigGame(10, v),
    ),
    Row(
        pig_game.PigGame,
        "turns",
        [None, "abc", 3, [5], ((1, (2,)),)],
        lambda v: pig_game.PigGame(10, turns=v),
    ),
    Row(pig_game.PigGame, "winner", [None, 3, "C", "a", "A"], lambda v: pig_game.PigGame(10, winner=v)),
    Row(pig_game.PigGame, "winner", ["", "B", "tie"], lambda v: pig_game.PigGame(10, (12, 3), winner=v)),
    Row(pig_game.pig_play, "game", [None, "game", 3, OPP10], lambda v: pig_game.pig_play(v, OPP10, 1, RNG)),
    Row(
        pig_game.pig_play,
        "opponent",
        [None, "hold_at", 3, OPP20, H6],
        lambda v: pig_game.pig_play(GAME10, v, 1, RNG),
    ),
    Row(pig_game.pig_play, "k", INTS + [0, 11], lambda v: pig_game.pig_play(GAME10, OPP10, v, RNG)),
    Row(pig_game.pig_play, "rng", RNGS, lambda v: pig_game.pig_play(GAME10, OPP10, 1, v)),
    Row(pig_game.pig_explorer, "kind", [""], lambda v: pig_game.pig_explorer(v)),
    Row(pig_game.pig_explorer, "goal", INTS + [0, 25, HUGE], lambda v: pig_game.pig_explorer(goal=v)),
]

EXEMPT = {
    "dicelab.pig.solution.PigSolution": "a result record, returned by the solvers",
    "dicelab.pig.solution.BestResponse": "a result record, returned by the best-response solvers",
    "dicelab.pig.sequential.SequentialSolution": "a result record, returned by solve_sequential",
    "dicelab.pig.sequential.HoldRace": "a result record, returned by race_against_hold",
    "dicelab.pig.stochastic_game.Equilibrium": "a result record, of solve_equilibrium and solve_svima",
    "dicelab.pig.policy.resolve_policies": "every policy solver's entry: refused through the solvers' rows",
    "dicelab.pig.value_iteration.SymmetricIteration": "a result record, of symmetric_value_iteration",
    "dicelab.core.games.MatrixGameSolution": "a result record, of solve_matrix_game and stage_game_value",
    "dicelab.course.explore.pig_game.PigOpponent": "a result record, returned by pig_opponent",
}

# a one-element array holding a valid choice is not that choice
ROWS += [
    Row(pig_game.pig_opponent, "kind", [np.array(["hold_at"])], lambda v: pig_game.pig_opponent(v, 3, 10)),
    Row(pig_game.pig_explorer, "kind", [np.array(["hold_at"])], lambda v: pig_game.pig_explorer(v)),
]
