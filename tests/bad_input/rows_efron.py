"""Bad-input rows: dicelab.efron and dicelab.course.explore.efron_dice."""


import numpy as np

from bad_input import ARRAYS_2D, BOOLS, FLOATS, HUGE, INTS, STRINGS, Row  # noqa: F401
from dicelab import efron
from dicelab.course.explore import efron_dice as ex
from dicelab.efron import reference

W3 = efron.wins_matrix(efron.unique_dice(sides=3, labels=5))  # 35 dice with three sides
A3 = efron.allowed_edges(W3, min_wins=5)
W2 = np.array([[0, 1], [2, 0]])
A2 = np.ones((2, 2), dtype=bool)
EFRON = "A: 0 0 4 4 4 4\nB: 3 3 3 3 3 3\nC: 2 2 2 2 6 6\nD: 1 1 1 5 5 5"
MATCH = ex.matchup(EFRON)
BIG = np.ones((10**5, 1), np.int8)  # 10^5 dice, or a column whose product with a row is 10^10 entries

OPTIONAL_INTS = [v for v in INTS if v is not None]  # an int argument whose default is None
SEQUENCES = [None, 3, 2.5, True, {1, 2}, {1: 2}]
# the text of a set of dice: not text, too few or many dice or faces, names missing or repeated, not numbers
TEXTS = STRINGS + [
    "",
    "A: 0 0 4",
    "A: 1 2 x\nB: 1",
    "A: 1\nA: 2",
    ": 1 2\nB: 3",
    "A: +-5\nB: 1",
    "A: ²\nB: 1",
    "A: 1\nB: " + "9" * 5000,
    "\n".join(f"D{k}: 1" for k in range(9)),
    "A:\nB: 1",
    "A: " + " ".join(["1"] * 21) + "\nB: 1",
]
DICTS = [None, 3, [], {}, {"A": (1, 2)}, {"A": "12", "B": (1,)}, {"A": (1.5,), "B": (1,)}]
DICTS += [{1: (1,), "B": (2,)}, {"A": (), "B": (1,)}, {"A": tuple(range(21)), "B": (1,)}]
DICTS += [{f"D{k}": (k,) for k in range(9)}]

# Every argument of the efron functions is declared with dicelab.core.spec.validated, and the
# declared specs make the rows of the values each refuses alone (tests/bad_input: declared_rows).
# The rows here are the refusals that depend on more than one argument: sizes whose cost is beyond
# the machine, win thresholds out of the range that the number of sides allows, a step mask of
# another shape than the weights, sums that would overflow int64.


def search_all_rows() -> list[Row]:
    """(sides, labels, dice, min_wins, wins) of the searches over every die: best_cycles, search_all,
    count_cycles and the exact reference, all alike."""
    rows = []
    for f in (efron.best_cycles, efron.search_all, efron.count_cycles, reference.exact_best_cycles):
        rows += [
            Row(f, "sides", [HUGE], lambda v, f=f: f(sides=v, labels=3, dice=3)),
            Row(f, "labels", [HUGE], lambda v, f=f: f(sides=3, labels=v, dice=3)),
            Row(f, "min_wins", [0, 4, 10, HUGE], lambda v, f=f: f(sides=3, labels=4, dice=3, min_wins=v)),
        ]
    for f in (efron.best_cycles, reference.exact_best_cycles):
        rows.append(Row(f, "wins", [0, 4, 10, HUGE], lambda v, f=f: f(sides=3, labels=4, dice=3, wins=v)))
    # an enumeration of hours (every 4-cycle of 924 dice in fractions), refused up front
    rows.append(Row(reference.exact_best_cycles, "dice", [4], lambda v: reference.exact_best_cycles(sides=6, labels=7, dice=v)))  # fmt: skip  # noqa: E501
    return rows


def digraph_rows() -> list[Row]:
    """(weights, allowed, dice) of the searches on a given digraph."""
    rows = []
    for f in (efron.max_sum_cycles, efron.search_log, reference.paper_max_sum_walks):
        rows += [
            Row(
                f, "allowed", [np.ones((3, 3), bool)], lambda v, f=f: f(W2, v, dice=2)
            ),  # not the weights' shape
            Row(f, "dice", [HUGE], lambda v, f=f: f(W3, A3, dice=v)),
        ]
    # weights whose sums around the cycle would overflow int64
    rows.append(Row(efron.max_sum_cycles, "weights", [np.full((35, 35), 2**38)], lambda v: efron.max_sum_cycles(v, A3, dice=3)))  # fmt: skip  # noqa: E501
    rows.append(Row(reference.paper_max_sum_walks, "weights", [np.full((2, 2), 2**60)], lambda v: reference.paper_max_sum_walks(v, A2, dice=2)))  # fmt: skip  # noqa: E501
    return rows


def counting_rows() -> list[Row]:
    """Counting and listing dice: sizes beyond the machine, sums that overflow."""
    closed = efron.num_unique_dice_closed_form
    return [
        Row(efron.num_unique_dice, "sides", [HUGE], lambda v: efron.num_unique_dice(sides=v, labels=v)),
        Row(
            closed, "sides", [HUGE], lambda v: closed(sides=v, labels=v)
        ),  # huge L alone is cheap, not with S
        Row(efron.unique_dice, "labels", [10**4, HUGE], lambda v: efron.unique_dice(sides=6, labels=v)),
        Row(efron.unique_dice, "sides", [10**4, HUGE], lambda v: efron.unique_dice(sides=v, labels=7)),
        Row(efron.die_faces, "counts", [[10**13]], efron.die_faces),
        Row(efron.die_counts, "faces", [[0, 7]], lambda v: efron.die_counts(v, labels=7)),
        Row(efron.die_counts, "labels", [HUGE], lambda v: efron.die_counts((0, 1), labels=v)),
        Row(efron.sum_of_rolls, "rolls", [31, HUGE], lambda v: efron.sum_of_rolls([[1, 0, 1]], rolls=v)),
        Row(efron.sum_of_rolls, "rolls", [HUGE], lambda v: efron.sum_of_rolls([[0, 1]], rolls=v)),  # one face
    ]


def wins_rows() -> list[Row]:
    """What beats what and the max-plus product: costs, shapes and overflows."""
    wide = tuple(10**k for k in range(20))  # 100 rolls of these faces give ~10^22 distinct sums
    return [
        Row(efron.wins_matrix, "dice", [BIG], efron.wins_matrix),
        Row(efron.p_beats, "rolls", [100], lambda v: efron.p_beats(wide, (0,), rolls=v)),
        Row(efron.maxplus_product, "A", [np.ones((2, 3), int)], lambda v: efron.maxplus_product(v, W2)),
        Row(efron.maxplus_product, "B", [np.ones((3, 2), int)], lambda v: efron.maxplus_product(W2, v)),
        Row(efron.maxplus_product, "A", [BIG], lambda v: efron.maxplus_product(v, BIG.T)),  # 10^10 entries
        Row(efron.maxplus_product, "A", [[[2**62]]], lambda v: efron.maxplus_product(v, v)),  # sums overflow
        Row(efron.closed_walks, "dice", [HUGE], lambda v: efron.closed_walks(A3, dice=v)),
        Row(
            efron.closed_walks, "dice", [10**6], lambda v: efron.closed_walks(np.ones((20, 20), bool), dice=v)
        ),
        Row(reference.exact_win_probabilities, "dice", [BIG], reference.exact_win_probabilities),
    ]


def explorer_rows() -> list[Row]:
    """The explorer: dice typed as text, the matchup and its graph."""
    return [
        Row(ex.parse_dice, "text", TEXTS, ex.parse_dice),
        Row(ex.matchup, "dice", TEXTS[len(STRINGS) :] + DICTS, ex.matchup),
        Row(ex.matchup, "rolls", INTS + [0, 5, HUGE], lambda v: ex.matchup(EFRON, v)),
        Row(
            ex.Matchup.weakest,
            "cycle",
            [None, 3, "AB", [], ["A"], ["A", "Z"], ["A", "A"], [[1]]],
            MATCH.weakest,
        ),  # fmt: skip  # noqa: E501
        Row(ex.beat_graph, "m", [None, EFRON, 3, {"A": (1,)}, MATCH.p], ex.beat_graph),
        Row(ex.beat_graph_alt, "m", [None, EFRON, 3, {"A": (1,)}, MATCH.p], ex.beat_graph_alt),
        Row(ex.efron_explorer, "text", TEXTS, ex.efron_explorer),
        Row(ex.efron_explorer, "rolls", INTS + [0, 5, HUGE], lambda v: ex.efron_explorer(EFRON, v)),
    ]


ROWS = [*counting_rows(), *wins_rows(), *search_all_rows(), *digraph_rows(), *explorer_rows()]

EXEMPT = {
    "dicelab.efron.search.CycleSearch": "a result record, returned by max_sum_cycles",
    "dicelab.efron.search.SearchStep": "a result record, returned by search_log",
    "dicelab.efron.sets.DiceSets": "a result record, built by search_all from its own arrays",
    "dicelab.course.explore.efron_dice.Matchup": "a result record, returned by matchup",
}
