"""Bad-input rows: dicelab.badg, dicelab.stopping and dicelab.explore.badg_card."""

from bad_input import BOOLS, FLOATS, HUGE, INTS, STRINGS, ARRAYS_2D, Row  # noqa: F401

from dicelab import badg, stopping

ROWS = [
    Row(badg.solve, "dice", [None, "666", [], [1, 6], [6.0], [True, 6]], lambda v: badg.solve(v)),
    Row(badg.solve, "restrict", ["fast", 1], lambda v: badg.solve((6, 6), restrict=v)),
    Row(
        badg.simulate,
        "n_games",
        INTS + [0],
        lambda v: badg.simulate(badg.heuristic_policy(), v, 1, dice=(6, 6)),
    ),
    Row(badg.simulate, "seed", INTS, lambda v: badg.simulate(badg.heuristic_policy(), 10, v, dice=(6, 6))),
    Row(badg.heuristic_policy, "fallback", ["best", None, 3], lambda v: badg.heuristic_policy(v)),
    Row(stopping.expected_max, "s", INTS + [0, 1], lambda v: stopping.expected_max(v, 2)),
    Row(stopping.optimal_value, "r", INTS + [0], lambda v: stopping.optimal_value(6, v)),
    Row(stopping.max_reject, "s", INTS + [1], lambda v: stopping.max_reject(v, 2)),
    Row(stopping.expected_max_formula, "r", INTS + [0], lambda v: stopping.expected_max_formula(v)),
]

EXEMPT = {}
