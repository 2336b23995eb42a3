"""Bad-input rows: dicelab.pig, dicelab.games and dicelab.explore.pig_game."""

import math

from bad_input import BOOLS, FLOATS, HUGE, INTS, STRINGS, ARRAYS_2D, Row  # noqa: F401

from dicelab import games, pig

ROWS = [
    Row(pig.hold_distribution, "k", INTS + [0], lambda v: pig.hold_distribution(v)),
    Row(pig.one_turn_win, "k", INTS + [0], lambda v: pig.one_turn_win(v)),
    Row(pig.hold_at, "n", INTS + [0], lambda v: pig.hold_at(v, 20)),
    Row(pig.hold_at, "goal", INTS + [0], lambda v: pig.hold_at(5, v)),
    Row(pig.hold_at, "cap", BOOLS, lambda v: pig.hold_at(5, 20, cap=v)),
    Row(pig.best_response, "opponent", [None, "25", [[1, 2]], 3.5], lambda v: pig.best_response(v, 20)),
    Row(
        pig.best_response,
        "tie",
        [-0.5, 1.5, "half", math.nan, None],
        lambda v: pig.best_response(pig.hold_at(5, 20), tie=v),
    ),
    Row(pig.sequential_optimal, "goal", INTS + [0], lambda v: pig.sequential_optimal(v)),
    Row(pig.equilibrium, "goal", INTS + [0], lambda v: pig.equilibrium(v)),
    Row(
        pig.symmetric_value_iteration,
        "sweeps",
        INTS + [0],
        lambda v: pig.symmetric_value_iteration(20, sweeps=v),
    ),
    Row(
        games.solve_matrix_game,
        "A",
        [None, [], [[1, 2], [3]], [["a", 1]], [[math.nan, 1]]],
        lambda v: games.solve_matrix_game(v),
    ),
]

EXEMPT = {}
