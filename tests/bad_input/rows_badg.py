"""Bad-input rows: dicelab.badg, dicelab.badg.stopping and dicelab.course.explore.badg_card."""

import math
from decimal import Decimal

import numpy as np

from bad_input import ARRAYS_2D, BOOLS, FLOATS, HUGE, INTS, STRINGS, Row  # noqa: F401
from dicelab import badg
from dicelab.badg import reference, stopping
from dicelab.badg.heuristic import HeuristicPolicy
from dicelab.badg.solver import Solution
from dicelab.badg.state import Game, check_dice, check_roll
from dicelab.badg.tables import check_solver_cost, solver_tables
from dicelab.badg.to_win import WinSolution
from dicelab.course.explore import badg_card

# a dice set: not a sequence, empty, a die with fewer than 2 sides, sizes that are not integers
DICE = [None, "666", 6, {6: 1}, [], [1, 6], [0], [6.0], [True, 6], [6, None], [6, "8"], [[6]]]
# games whose tables or work are far beyond the budget
BIG_DICE = [[HUGE], [6] * 60, list(range(2, 40))]
# a state of the game (6, 8): not a sequence, dice not in the game, sizes that are not integers
STATES = [None, "68", 6, [7], [6, 6], [6, 8, 8], [6.0], [True], [[6]], [6, None]]
# a state not tied to a game, with the roll (5, 2): the same but for (6, 6), a valid one
FREE_STATES = [s for s in STATES if s != [6, 6]] + [[]]
# a roll of the state (6, 8): not a sequence, wrong length, faces out of range or not integers
ROLLS = [None, "52", 52, [], [5], [5, 2, 1], [7, 1], [5, 9], [0, 1], [5.0, 2], [True, 2], [5, None], ["5", 2]]
# counts per size of the game (6, 6, 8)
COUNTS = [None, "11", [], [1], [1, 1, 1], [3, 1], [1, 2], [-1, 0], [1.0, 1], [True, 1], [None, 1]]
# a policy for evaluate: not callable, or a callable that does not return a legal take
POLICIES = [
    None,
    "regret",
    3,
    Game.of((6, 8)),
    len,
    lambda state, roll: 0,
    lambda state, roll: (0.0,),
    lambda state, roll: (True,),
    lambda state, roll: (),
    lambda state, roll: (0, 0),
    lambda state, roll: (5,),
]
VALUES_68 = {(): 0, (6,): 3.5, (8,): 4.5, (6, 8): 9.5}

GAME = Game.of((6, 6, 8))
WIN = badg.solve_to_win((6, 8), target=3)
# utilities of the game (6, 8) (X = 12): not a sequence, wrong length, not numbers, increasing
UTILITIES = [None, "1" * 13, 3, [], [1] * 12, [1] * 14, [None] * 13, [math.nan] * 13, [True] * 13]
UTILITIES += [list(range(13)), [0] * 12 + [1], [[1]] * 13]
# opponents' distributions: not a sequence of distributions, negative, not summing to 1
OPPONENTS = [None, "q", 3, [], [None], [[0.5, 0.6]], [[-0.5, 1.5]], [[math.nan, 1]], [["1/2", "x"]]]
OPPONENTS += [[[0.5]], [[1], 3], [{0: 1}]]
SOL = badg.solve((6, 8))
# a decision or value state of the protocol that is not a tuple of its parts
NOT_PAIRS = [None, "68", 6, [], [(6, 8)], [(6, 8), 0, (5, 2), 1]]
STOP = stopping.solve_stopping(6, 3)
# states (sides, rolls left) of the one-die game with a d6 and 3 rolls
STOPPING_STATES = [None, 6, (6,), (6, 0), (6, 4), (8, 2), [6, 2], (6, 2.0), (6, True), "62", (6, 2, 1)]
POLICY = badg.heuristic_policy()


def _ones(state):
    """A roll of ones for a list of die sizes (anything else: a two-dice roll)."""
    return (1,) * len(state) if isinstance(state, list) else (5, 2)


# Functions that declare their arguments (dicelab.core.spec.validated) get rows from the declaration
# (tests/bad_input/__init__.py: declared_rows); their rows here hold only the values it does not
# try: sizes beyond the budget, and integers such as -1 and inf.
ROWS = [
    # --- dicelab.badg.state
    Row(check_dice, "dice", DICE, lambda v: check_dice(v)),
    Row(check_dice, "name", STRINGS + [""], lambda v: check_dice((6,), v)),
    Row(Game, "sizes", [None, "68", 6, [], [1], [6.0], [True], [8, 6], [6, 6]], lambda v: Game(v, (1,))),
    Row(Game, "counts", [None, "1", 1, [], [0], [1.0], [True], [-1], [1, 1]], lambda v: Game((6,), v)),
    Row(Game.of, "dice", DICE, lambda v: Game.of(v)),
    Row(Game.of, "name", STRINGS + [""], lambda v: Game.of((6,), v)),
    Row(Game.index, "counts", COUNTS, lambda v: GAME.index(v)),
    Row(Game.counts_of, "index", INTS + [6, HUGE], lambda v: GAME.counts_of(v)),
    Row(Game.dice_of, "counts", COUNTS, lambda v: GAME.dice_of(v)),
    Row(Game.counts_in, "state", STATES, lambda v: SOL.game.counts_in(v)),
    Row(Game.counts_in, "name", STRINGS + [""], lambda v: SOL.game.counts_in((6,), v)),
    Row(check_roll, "game", [None, "game", 3, (6, 8), SOL], lambda v: check_roll(v, (6, 8), (5, 2))),
    Row(check_roll, "state", STATES + [[]], lambda v: check_roll(SOL.game, v, (5, 2))),
    Row(check_roll, "roll", ROLLS, lambda v: check_roll(SOL.game, (6, 8), v)),
    Row(badg.states, "dice", [list(range(2, 60))], lambda v: badg.states(v)),
    Row(badg.multiset_rolls, "s", [-1, math.inf, HUGE], lambda v: badg.multiset_rolls(v, 2)),
    Row(badg.multiset_rolls, "a", [math.inf, HUGE], lambda v: badg.multiset_rolls(6, v)),
    # --- dicelab.badg.tables and solver
    Row(
        solver_tables,
        "game",
        [None, "game", 3, (6, 8), SOL, Game.of(range(2, 40))],
        lambda v: solver_tables(v),
    ),
    Row(
        check_solver_cost,
        "game",
        [None, "game", 3, (6, 8), SOL, Game.of(range(2, 40))],
        lambda v: check_solver_cost(v, "game"),
    ),
    Row(check_solver_cost, "name", STRINGS + [""], lambda v: check_solver_cost(GAME, v)),
    # solve's dice and restrict are declared (spec.validated): beyond the declared bad values,
    # games beyond the budget and near-misses of a choice
    Row(badg.solve, "dice", BIG_DICE, lambda v: badg.solve(v)),
    Row(badg.solve, "restrict", ["", 1, True, "No_Two_Low"], lambda v: badg.solve((6, 6), restrict=v)),
    Row(Solution.value_at, "state", STATES + [[6, 6, 6]], lambda v: SOL.value_at(v)),
    Row(Solution.points, "state", STATES + [[6, 6, 6]], lambda v: SOL.points(v)),
    Row(Solution.take_values, "state", STATES + [[]], lambda v: SOL.take_values(v, (5, 2))),
    Row(Solution.take_values, "roll", ROLLS, lambda v: SOL.take_values((6, 8), v)),
    Row(Solution.best_action, "state", NOT_PAIRS, lambda v: SOL.best_action(v)),
    Row(Solution.best_action, "state", STATES + [[]], lambda v: SOL.best_action((v, (5, 2)))),
    Row(Solution.best_action, "state", ROLLS, lambda v: SOL.best_action(((6, 8), v))),
    # --- dicelab.badg.to_win and scores
    Row(badg.threshold_utility, "target", INTS + [13, HUGE], lambda v: badg.threshold_utility(v, (6, 8))),
    Row(badg.lowest_utility, "opponents", OPPONENTS, lambda v: badg.lowest_utility(v, (6, 8))),
    Row(badg.lowest_utility, "tie", [-math.inf], lambda v: badg.lowest_utility([[1]], (6, 8), tie=v)),
    # solve_to_win's dice and target are declared: beyond those, games beyond the budget, targets
    # above the most points (12 for a d6 and a d8)
    Row(badg.solve_to_win, "dice", BIG_DICE, lambda v: badg.solve_to_win(v, target=3)),
    Row(badg.solve_to_win, "target", [13, HUGE, math.inf], lambda v: badg.solve_to_win((6, 8), target=v)),
    Row(badg.solve_to_win, "target", [None], lambda v: badg.solve_to_win((6, 8), target=v, utility=None)),
    Row(badg.solve_to_win, "utility", UTILITIES, lambda v: badg.solve_to_win((6, 8), utility=v)),
    Row(badg.solve_to_win, "utility", [[1] * 13], lambda v: badg.solve_to_win((6, 8), target=3, utility=v)),
    Row(WinSolution.value_at, "state", NOT_PAIRS, lambda v: WIN.value_at(v)),
    Row(WinSolution.value_at, "state", STATES + [[6, 6, 6]], lambda v: WIN.value_at((v, 0))),
    Row(WinSolution.value_at, "state", INTS + [8, HUGE], lambda v: WIN.value_at(((6,), v))),
    Row(WinSolution.take_values, "state", STATES + [[]], lambda v: WIN.take_values(v, 0, (5, 2))),
    Row(WinSolution.take_values, "points", INTS + [1, HUGE], lambda v: WIN.take_values((6, 8), v, (5, 2))),
    Row(WinSolution.take_values, "roll", ROLLS, lambda v: WIN.take_values((6, 8), 0, v)),
    Row(WinSolution.best_action, "state", NOT_PAIRS, lambda v: WIN.best_action(v)),
    Row(WinSolution.best_action, "state", STATES + [[]], lambda v: WIN.best_action((v, 0, (5, 2)))),
    Row(WinSolution.best_action, "state", INTS + [1, HUGE], lambda v: WIN.best_action(((6, 8), v, (5, 2)))),
    Row(WinSolution.best_action, "state", ROLLS, lambda v: WIN.best_action(((6, 8), 0, v))),
    Row(WinSolution.differences, "examples", INTS + [1001, HUGE], lambda v: WIN.differences(v)),
    Row(
        badg.points_distribution,
        "solution",
        [None, "solve", 3, WIN.expected.game, badg.solve((6, 8), restrict="no_two_low")],
        lambda v: badg.points_distribution(v),
    ),
    # --- dicelab.badg.heuristic
    Row(HeuristicPolicy, "fallback", ["best", "", None, 3, ["regret"]], lambda v: HeuristicPolicy(v)),
    Row(HeuristicPolicy.reject_up_to, "s", INTS + [0, 1], lambda v: POLICY.reject_up_to(v, 3)),
    Row(HeuristicPolicy.reject_up_to, "dice_left", INTS + [0, HUGE], lambda v: POLICY.reject_up_to(6, v)),
    Row(HeuristicPolicy.score, "s", INTS + [1], lambda v: POLICY.score(v, 2, 3)),
    Row(HeuristicPolicy.score, "face", INTS + [0, 7], lambda v: POLICY.score(6, v, 3)),
    Row(HeuristicPolicy.score, "dice_left", INTS + [0, 1, HUGE], lambda v: POLICY.score(6, 2, v)),
    Row(
        HeuristicPolicy.score,
        "dice_left",
        [0, -1, 2.0, True, HUGE],
        lambda v: badg.heuristic_policy("points").score(6, 2, v),
    ),
    Row(HeuristicPolicy.take, "state", FREE_STATES, lambda v: POLICY.take(v, (5, 2))),
    Row(HeuristicPolicy.take, "roll", ROLLS, lambda v: POLICY.take((6, 8), v)),
    Row(badg.heuristic_policy, "fallback", ["best", ["face"]], lambda v: badg.heuristic_policy(v)),
    Row(badg.evaluate, "policy", POLICIES, lambda v: badg.evaluate(v, (6, 6))),
    Row(badg.evaluate, "dice", [[HUGE, HUGE], [6] * 10**5], lambda v: badg.evaluate(POLICY, v)),
    Row(badg.evaluate, "dice", BIG_DICE, lambda v: badg.evaluate(POLICY.take, v)),
    # --- dicelab.badg.simulation
    Row(
        badg.simulate,
        "policy",
        [None, "regret", 3, SOL, lambda state, roll: (0,), HeuristicPolicy],
        lambda v: badg.simulate(v, 10, seed=1, dice=(6, 6)),
    ),
    Row(badg.simulate, "n", [-1, math.inf, HUGE], lambda v: badg.simulate(POLICY, v, seed=1, dice=(6, 6))),
    Row(badg.simulate, "seed", [math.inf], lambda v: badg.simulate(POLICY, 10, seed=v, dice=(6, 6))),
    Row(badg.simulate, "dice", [[HUGE], [6] * 10**5], lambda v: badg.simulate(POLICY, 10, seed=1, dice=v)),
    Row(
        badg.simulate,
        "chunk",
        [-1, math.inf, HUGE],
        lambda v: badg.simulate(POLICY, 10**9, seed=1, dice=(6, 8), chunk=v),
    ),
    # --- dicelab.badg.reference
    Row(
        reference.paper_expected_max,
        "s",
        [-1, 0, math.inf, HUGE],
        lambda v: reference.paper_expected_max(v, 2),
    ),
    Row(
        reference.paper_expected_max, "r", [-1, math.inf, HUGE], lambda v: reference.paper_expected_max(6, v)
    ),
    Row(
        reference.paper_max_strategy_reject,
        "s",
        [-1, math.inf, HUGE],
        lambda v: reference.paper_max_strategy_reject(v, 3),
    ),
    Row(
        reference.paper_max_strategy_reject,
        "r",
        [-1, math.inf, HUGE],
        lambda v: reference.paper_max_strategy_reject(6, v),
    ),
    Row(reference.paper_cutoff, "s", [-1, math.inf], lambda v: reference.paper_cutoff(v, 3)),
    Row(reference.paper_cutoff, "r", [-1, math.inf, HUGE], lambda v: reference.paper_cutoff(6, v)),
    Row(reference.paper_precompute, "dice", BIG_DICE, lambda v: reference.paper_precompute(v)),
    Row(reference.paper_take_values, "state", FREE_STATES, lambda v: reference.paper_take_values(v, (5, 2))),
    Row(
        reference.paper_take_values,
        "state",
        [[6] * 40, [HUGE]],
        lambda v: reference.paper_take_values(v, _ones(v)),
    ),
    Row(
        reference.paper_take_values,
        "state",
        [[6] * 40],
        lambda v: reference.paper_take_values(v, _ones(v), values=VALUES_68),
    ),
    Row(reference.paper_take_values, "roll", ROLLS, lambda v: reference.paper_take_values((6, 8), v)),
    Row(
        reference.paper_take_values,
        "values",
        [
            "abc",
            3,
            [1, 2],
            {},
            {(): 0, (6,): 3.5, (8,): 4.5},
            {**VALUES_68, (6, 8): "9.5"},
            {**VALUES_68, (6, 8): math.nan},
            {**VALUES_68, (6, 8): True},
            {**VALUES_68, (6, 8): None},
        ],
        lambda v: reference.paper_take_values((6, 8), (5, 2), values=v),
    ),
    Row(
        reference.exact_win_values,
        "dice",
        BIG_DICE,
        lambda v: reference.exact_win_values(v, [1] * 13),
    ),
    Row(reference.exact_win_values, "utility", UTILITIES, lambda v: reference.exact_win_values((6, 8), v)),
    Row(
        reference.exact_points_distribution,
        "dice",
        BIG_DICE,
        lambda v: reference.exact_points_distribution(v),
    ),
    Row(
        reference.exact_points_distribution,
        "utility",
        UTILITIES[1:],
        lambda v: reference.exact_points_distribution((6, 8), v),
    ),
    Row(
        reference.exact_policy_statistics,
        "dice",
        BIG_DICE,
        lambda v: reference.exact_policy_statistics(v),
    ),
    # --- dicelab.badg.stopping (solve_stopping's s and r are declared; here: beyond the budget)
    Row(stopping.solve_stopping, "s", [HUGE, 10**9], lambda v: stopping.solve_stopping(v, 3)),
    Row(stopping.solve_stopping, "r", [HUGE, 10**7], lambda v: stopping.solve_stopping(6, v)),
    Row(stopping.StoppingSolution.value_at, "state", STOPPING_STATES, lambda v: STOP.value_at(v)),
    Row(stopping.StoppingSolution.best_action, "state", STOPPING_STATES, lambda v: STOP.best_action(v)),
    Row(stopping.expected_max, "s", [-1, 0, math.inf, HUGE], lambda v: stopping.expected_max(v, 2)),
    Row(stopping.expected_max, "r", [-1, math.inf, HUGE], lambda v: stopping.expected_max(6, v)),
    Row(stopping.expected_max_formula, "r", [-1, math.inf, HUGE], lambda v: stopping.expected_max_formula(v)),
    Row(stopping.optimal_value, "s", [-1, 0, math.inf], lambda v: stopping.optimal_value(v, 2)),
    Row(stopping.optimal_value, "r", [-1, math.inf, HUGE], lambda v: stopping.optimal_value(6, v)),
    Row(stopping.max_reject, "s", [-1, math.inf], lambda v: stopping.max_reject(v, 2)),
    Row(stopping.max_reject, "r", [-1, math.inf, HUGE], lambda v: stopping.max_reject(6, v)),
    Row(stopping.value_with_cutoff, "s", [-1, math.inf], lambda v: stopping.value_with_cutoff(v, 2, 3)),
    Row(
        stopping.value_with_cutoff,
        "reject_up_to",
        INTS + [6],
        lambda v: stopping.value_with_cutoff(6, v, 3),
    ),
    Row(
        stopping.value_with_cutoff,
        "continuation",
        FLOATS + [0, 0.5, 7, -1, Decimal("3.5"), 1j, "7/2"],
        lambda v: stopping.value_with_cutoff(6, 3, v),
    ),
    Row(stopping.strategy_table, "s", [-1, math.inf], lambda v: stopping.strategy_table(v, 3)),
    Row(stopping.strategy_table, "r_max", [-1, math.inf, HUGE], lambda v: stopping.strategy_table(6, v)),
    # --- dicelab.course.explore.badg_card
    Row(badg_card.strategy_card, "state", FREE_STATES, lambda v: badg_card.strategy_card(v, (5, 2))),
    Row(badg_card.strategy_card, "state", BIG_DICE[1:], lambda v: badg_card.strategy_card(v, _ones(v))),
    Row(badg_card.strategy_card, "roll", ROLLS, lambda v: badg_card.strategy_card((6, 8), v)),
    Row(
        badg_card.badg_explorer,
        "state",
        STRINGS + ["", "six eight", "6 1", "6 0", "6 -8", "6 8.0", "6 ²"],
        lambda v: badg_card.badg_explorer(v, "5 2"),
    ),
    Row(badg_card.badg_explorer, "state", ["6 " * 60], lambda v: badg_card.badg_explorer(v, "1 " * 60)),
    Row(
        badg_card.badg_explorer,
        "roll",
        STRINGS + ["", "5 x", "5", "5 2 1", "7 2", "0 1", "5.0 2"],
        lambda v: badg_card.badg_explorer("6 8", v),
    ),
    Row(badg_card.badg_explorer, "seed", INTS, lambda v: badg_card.badg_explorer("6 8", "5 2", v)),
]

EXEMPT = {
    "dicelab.badg.solver.Solution": "a result record built by solve (its methods have rows)",
    "dicelab.badg.solver.PolicyStatistics": "a result record built by Solution.policy_statistics",
    "dicelab.badg.tables.SolverTables": "a result record built by solver_tables",
    "dicelab.badg.heuristic.Evaluation": "a result record built by evaluate",
    "dicelab.badg.to_win.WinSolution": "a result record built by solve_to_win (its methods have rows)",
    "dicelab.badg.to_win.Decision": "a result record built by WinSolution.differences",
    "dicelab.badg.to_win.Differences": "a result record built by WinSolution.differences",
    "dicelab.badg.stopping.StoppingSolution": "a result record of solve_stopping (its methods have rows)",
    "dicelab.course.explore.badg_card.Take": "a result record built by strategy_card",
}

# a one-element array holding a valid choice is not that choice
ROWS += [
    Row(badg.solve, "restrict", [np.array(["no_two_low"])], lambda v: badg.solve((6, 6), restrict=v)),
    Row(badg.lowest_utility, "tie", [np.array([0.5])], lambda v: badg.lowest_utility([[1]], (6, 8), tie=v)),
    Row(HeuristicPolicy, "fallback", [np.array(["regret"])], lambda v: HeuristicPolicy(v)),
    Row(badg.heuristic_policy, "fallback", [np.array(["face"])], lambda v: badg.heuristic_policy(v)),
]

# die sizes near 2**62 and beyond, refused by their cost (not by an overflow or a failed allocation)
ROWS += [
    Row(badg.solve, "dice", [(2**62,), (2**70,), (2**62, 6)], lambda v: badg.solve(v)),
    Row(badg.multiset_rolls, "s", [2**62, 2**70], lambda v: badg.multiset_rolls(v, 1)),
]
