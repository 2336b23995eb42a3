"""Bad-input rows: dicelab.efron and dicelab.course.explore.efron_dice."""

import math

import numpy as np

from bad_input import ARRAYS_2D, BOOLS, FLOATS, HUGE, INTS, STRINGS, Row  # noqa: F401
from dicelab import efron
from dicelab.course.explore import efron_dice as ex
from dicelab.efron import reference

W3 = efron.wins_matrix(efron.unique_dice(5, 3))  # 35 dice with three sides
A3 = efron.allowed_edges(W3, 5)
W2 = np.array([[0, 1], [2, 0]])
A2 = np.ones((2, 2), dtype=bool)
EFRON = "A: 0 0 4 4 4 4\nB: 3 3 3 3 3 3\nC: 2 2 2 2 6 6\nD: 1 1 1 5 5 5"
MATCH = ex.matchup(EFRON)
BIG = np.ones((10**5, 1), np.int8)  # 10^5 dice, or a column whose product with a row is 10^10 entries

OPTIONAL_INTS = [v for v in INTS if v is not None]  # an int argument whose default is None
# a matrix of integers: the shared bad matrices, floats (refused, never truncated), booleans, a cube
INT_MATRICES = ARRAYS_2D + [[[1.5, 2], [3, 4]], [[1.0, 2.0], [3.0, 4.0]], [[True, False]], np.ones((2, 2, 2))]
SQUARE_INT = INT_MATRICES + [np.ones((2, 3), int)]
# dice as label counts, one per row: also negative counts and absurdly many faces
COUNTS = INT_MATRICES + [[[1, -1]], [[2**40, 2**40]]]
# a square 0/1 step mask: the shared bad matrices, another value, a fraction, a rectangle, text
MASKS = ARRAYS_2D + [[[0, 2], [1, 0]], [[0.5, 1], [1, 0]], np.ones((2, 3), bool), [["1", "0"], ["0", "1"]]]
MASKS_2 = MASKS + [np.ones((3, 3), bool)]  # ... for a graph of two nodes: also the wrong size
# faces of a die: not a sequence, empty, not integers
FACES = [None, "123", [], [1.5, 2], [True], 3, [None], {1: 2}, [math.nan]]
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
SEQUENCES = [None, 3, 2.5, True, {1, 2}, {1: 2}]


def search_all_rows() -> list[Row]:
    """(S, L, M, min_wins, wins) of the searches over every die: best_cycles, search_all, count_cycles
    and the exact reference, all alike."""
    rows = []
    for f in (efron.best_cycles, efron.search_all, efron.count_cycles, reference.exact_best_cycles):
        rows += [
            Row(f, "S", INTS + [0, HUGE], lambda v, f=f: f(v, 3, 3)),
            Row(f, "L", INTS + [0, HUGE], lambda v, f=f: f(3, v, 3)),
            Row(f, "M", INTS + [0, 1], lambda v, f=f: f(3, 4, v)),
            Row(f, "min_wins", OPTIONAL_INTS + [0, 4, 10, HUGE], lambda v, f=f: f(3, 4, 3, min_wins=v)),
        ]
    for f in (efron.best_cycles, reference.exact_best_cycles):
        rows.append(Row(f, "wins", OPTIONAL_INTS + [0, 4, 10, HUGE], lambda v, f=f: f(3, 4, 3, v)))
    return rows


def digraph_rows() -> list[Row]:
    """(weights, allowed, M) of the searches on a given digraph."""
    rows = []
    for f in (efron.max_sum_cycles, efron.search_log, reference.paper_max_sum_walks):
        rows += [
            Row(f, "weights", SQUARE_INT, lambda v, f=f: f(v, A2, 2)),
            Row(f, "allowed", MASKS_2, lambda v, f=f: f(W2, v, 2)),
            Row(f, "M", INTS + [0, 1, HUGE], lambda v, f=f: f(W3, A3, v)),
        ]
    # weights whose sums around the cycle would overflow int64
    rows.append(Row(efron.max_sum_cycles, "weights", [np.full((35, 35), 2**38)], lambda v: efron.max_sum_cycles(v, A3, 3)))  # fmt: skip  # noqa: E501
    rows.append(Row(reference.paper_max_sum_walks, "weights", [np.full((2, 2), 2**60)], lambda v: reference.paper_max_sum_walks(v, A2, 2)))  # fmt: skip  # noqa: E501
    return rows


def counting_rows() -> list[Row]:
    """Counting and listing dice."""
    closed = efron.num_unique_dice_closed_form
    return [
        Row(efron.num_unique_dice, "L", INTS + [0], lambda v: efron.num_unique_dice(v, 6)),
        Row(efron.num_unique_dice, "S", INTS + [0], lambda v: efron.num_unique_dice(7, v)),
        Row(efron.num_unique_dice, "L", [HUGE], lambda v: efron.num_unique_dice(v, v)),  # as closed(v, v)
        Row(closed, "L", INTS + [0], lambda v: closed(v, 6)),
        Row(closed, "S", INTS + [0], lambda v: closed(7, v)),
        Row(closed, "L", [HUGE], lambda v: closed(v, v)),  # one huge L is cheap; with a huge S it is not
        Row(efron.unique_dice, "L", INTS + [0, 10**4, HUGE], lambda v: efron.unique_dice(v, 6)),
        Row(efron.unique_dice, "S", INTS + [0, 10**4, HUGE], lambda v: efron.unique_dice(7, v)),
        Row(efron.die_faces, "counts", FACES + [[1, -1], [[1, 2]], [10**13], [2**63, 1]], efron.die_faces),
        Row(efron.die_counts, "faces", FACES + [[0, 7], [-1], [0, True]], lambda v: efron.die_counts(v, 7)),
        Row(efron.die_counts, "L", INTS + [0, HUGE], lambda v: efron.die_counts((0, 1), v)),
        Row(efron.sum_of_rolls, "dice", COUNTS, lambda v: efron.sum_of_rolls(v, 2)),
        Row(efron.sum_of_rolls, "rolls", INTS + [0, 31, HUGE], lambda v: efron.sum_of_rolls([[1, 0, 1]], v)),
        Row(efron.sum_of_rolls, "rolls", [HUGE], lambda v: efron.sum_of_rolls([[0, 1]], v)),  # one face
    ]


def wins_rows() -> list[Row]:
    """What beats what, the max-plus product and cycles as sequences."""
    wide = tuple(10**k for k in range(20))  # 100 rolls of these faces give ~10^22 distinct sums
    return [
        Row(efron.wins_matrix, "dice", COUNTS + [BIG], efron.wins_matrix),
        Row(efron.p_beats, "a", FACES, lambda v: efron.p_beats(v, (1, 2))),
        Row(efron.p_beats, "b", FACES, lambda v: efron.p_beats((1, 2), v)),
        Row(efron.p_beats, "rolls", INTS + [0, 101, HUGE], lambda v: efron.p_beats((1, 2), (0, 3), rolls=v)),
        Row(efron.p_beats, "rolls", [100], lambda v: efron.p_beats(wide, (0,), rolls=v)),
        Row(efron.strict_min_wins, "S", INTS + [0], efron.strict_min_wins),
        Row(efron.allowed_edges, "W", SQUARE_INT, lambda v: efron.allowed_edges(v, 19)),
        Row(efron.allowed_edges, "min_wins", INTS, lambda v: efron.allowed_edges(W3, v)),
        Row(efron.allowed_edges, "wins", OPTIONAL_INTS, lambda v: efron.allowed_edges(W3, 5, v)),
        Row(efron.maxplus_product, "A", INT_MATRICES + [np.ones((2, 3), int)], lambda v: efron.maxplus_product(v, W2)),  # fmt: skip  # noqa: E501
        Row(efron.maxplus_product, "B", INT_MATRICES + [np.ones((3, 2), int)], lambda v: efron.maxplus_product(W2, v)),  # fmt: skip  # noqa: E501
        Row(efron.maxplus_product, "A", [BIG], lambda v: efron.maxplus_product(v, BIG.T)),  # 10^10 entries
        Row(efron.maxplus_product, "A", [[[2**62]]], lambda v: efron.maxplus_product(v, v)),  # sums overflow
        Row(efron.same_cycle, "a", SEQUENCES, lambda v: efron.same_cycle(v, (1, 2))),
        Row(efron.same_cycle, "b", SEQUENCES, lambda v: efron.same_cycle((1, 2), v)),
        Row(efron.closed_walks, "allowed", MASKS, lambda v: efron.closed_walks(v, 3)),
        Row(efron.closed_walks, "M", INTS + [0, HUGE], lambda v: efron.closed_walks(A3, v)),
        Row(efron.closed_walks, "M", [10**6], lambda v: efron.closed_walks(np.ones((20, 20), bool), v)),
        Row(reference.exact_win_probabilities, "dice", COUNTS + [BIG], reference.exact_win_probabilities),
    ]


def explorer_rows() -> list[Row]:
    """The explorer: dice typed as text, the matchup and its graph."""
    return [
        Row(ex.parse_dice, "text", TEXTS, ex.parse_dice),
        Row(ex.matchup, "dice", TEXTS[len(STRINGS) :] + DICTS, ex.matchup),
        Row(ex.matchup, "rolls", INTS + [0, 5, HUGE], lambda v: ex.matchup(EFRON, v)),
        Row(ex.Matchup.weakest, "cycle", [None, 3, "AB", [], ["A"], ["A", "Z"], ["A", "A"], [[1]]], MATCH.weakest),  # fmt: skip  # noqa: E501
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

ROWS += [  # win counts are never negative
    Row(efron.allowed_edges, "W", [[[0, -1], [1, 0]], [[0, 3], [-3, 0]]], lambda v: efron.allowed_edges(v, 1)),  # noqa: E501
]
ROWS += [  # an enumeration of hours (every 4-cycle of 924 dice in fractions), refused up front
    Row(reference.exact_best_cycles, "M", [4], lambda v: reference.exact_best_cycles(6, 7, v)),
]
