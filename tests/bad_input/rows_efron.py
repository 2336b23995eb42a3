"""Bad-input rows: dicelab.efron and dicelab.explore.efron_dice."""

from bad_input import BOOLS, FLOATS, HUGE, INTS, STRINGS, ARRAYS_2D, Row  # noqa: F401

from dicelab import efron

ROWS = [
    Row(efron.num_unique_dice, "L", INTS + [0], lambda v: efron.num_unique_dice(v, 6)),
    Row(efron.num_unique_dice, "S", INTS + [0], lambda v: efron.num_unique_dice(7, v)),
    Row(efron.unique_dice, "L", INTS + [0], lambda v: efron.unique_dice(v, 6)),
    Row(efron.p_beats, "a", [None, "123", [], [1.5, 2], [True]], lambda v: efron.p_beats(v, (1, 2))),
    Row(efron.p_beats, "rolls", INTS + [0], lambda v: efron.p_beats((1, 2), (0, 3), rolls=v)),
    Row(efron.best_cycles, "M", INTS + [0, 1], lambda v: efron.best_cycles(6, 3, v)),
    Row(efron.best_cycles, "S", INTS + [0], lambda v: efron.best_cycles(v, 3, 3)),
    Row(efron.count_cycles, "L", INTS + [0], lambda v: efron.count_cycles(6, v, 3)),
    Row(efron.die_counts, "L", INTS + [0], lambda v: efron.die_counts((0, 1), v)),
]

EXEMPT = {
    "dicelab.efron.search.CycleSearch": "a result record, returned by max_sum_cycles",
    "dicelab.efron.search.SearchStep": "a result record, returned by search_log",
}
