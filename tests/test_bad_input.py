"""Bad input, refused clearly: every invalid argument raises ValueError or TypeError, before any
work, with a message that names the argument.

Each row of the table is (what is called, the argument's name, a function of one bad value
that makes the call). The same bad values are tried on every argument of a kind.
"""

import math

import pytest

from dicelab import badg, efron, exact, games, markov, notebook, pig, stopping, wimpout
from dicelab.claims import Ledger

INTS = [-1, 2.0, "3", True, None, math.nan, math.inf, [1]]  # for an integer argument
BOOLS = ["False", 1, 0, None, 2.5]  # for a boolean argument
COIN = markov.AbsorbingChain([["1/2", "1/2"], [0, 1]], states=["flip", "heads"])

TABLE = [
    # wimpout
    ("wimpout.Rules", "sun_value", INTS + [3, 0], lambda v: wimpout.Rules(sun_value=v)),
    ("wimpout.Rules", "fourth_scores", BOOLS, lambda v: wimpout.Rules(fourth_scores=v)),
    ("wimpout.Rules", "two_pairs", ["min", 1, None], lambda v: wimpout.Rules(two_pairs=v)),
    (
        "wimpout.score",
        "roll",
        [None, 5, "55555", (), (1, 2, 3, 4, 5), (2, 3, 4, 5, 6, 2)],
        lambda v: wimpout.score(v),
    ),
    ("wimpout.parse_roll", "text", [None, 5, (2, 3)], lambda v: wimpout.parse_roll(v)),
    ("wimpout.parse_roll", "face", ["7 7", "2 x", "1"], lambda v: wimpout.parse_roll(v)),
    ("wimpout.state", "state", ["Flash 7; Reroll 5", "", None], lambda v: wimpout.state(v)),
    (
        "wimpout.step_outcomes",
        "state",
        [wimpout.WIMPOUT, "Roll 5; No Flash", None],
        lambda v: wimpout.step_outcomes(v),
    ),
    (
        "wimpout.step",
        "face",
        [2, 7],
        lambda v: wimpout.step(wimpout.state("Flash 3; Reroll 1B"), (2,), face=v),
    ),
    ("wimpout.play_turns", "n_turns", INTS + [0, 1], lambda v: wimpout.play_turns(v, seed=1)),
    ("wimpout.play_turns", "seed", INTS, lambda v: wimpout.play_turns(10, seed=v)),
    # markov
    (
        "AbsorbingChain",
        "P",
        [[], [[1, 0]], [["x", 1], [0, 1]], [[math.nan, 1], [0, 1]], None],
        lambda v: markov.AbsorbingChain(v),
    ),
    (
        "AbsorbingChain",
        "states",
        [["a"], ["a", "a"]],
        lambda v: markov.AbsorbingChain([[1, 0], [0, 1]], states=v),
    ),
    ("AbsorbingChain.simulate", "n_runs", INTS + [0], lambda v: COIN.simulate(v, "flip")),
    ("AbsorbingChain.simulate", "max_steps", INTS + [0], lambda v: COIN.simulate(10, "flip", max_steps=v)),
    ("AbsorbingChain.simulate", "start", ["heads", "tails", None], lambda v: COIN.simulate(10, v)),
    ("AbsorbingChain.float_view", "name", ["X", None], lambda v: COIN.float_view(v)),
    # efron
    ("efron.num_unique_dice", "L", INTS + [0], lambda v: efron.num_unique_dice(v, 6)),
    ("efron.num_unique_dice", "S", INTS + [0], lambda v: efron.num_unique_dice(7, v)),
    ("efron.unique_dice", "L", INTS + [0], lambda v: efron.unique_dice(v, 6)),
    ("efron.p_beats", "a", [None, "123", [], [1.5, 2], [True]], lambda v: efron.p_beats(v, (1, 2))),
    ("efron.p_beats", "rolls", INTS + [0], lambda v: efron.p_beats((1, 2), (0, 3), rolls=v)),
    ("efron.best_cycles", "M", INTS + [0, 1], lambda v: efron.best_cycles(6, 3, v)),
    ("efron.best_cycles", "S", INTS + [0], lambda v: efron.best_cycles(v, 3, 3)),
    ("efron.count_cycles", "L", INTS + [0], lambda v: efron.count_cycles(6, v, 3)),
    ("efron.die_counts", "L", INTS + [0], lambda v: efron.die_counts((0, 1), v)),
    # badg and the one-die game
    ("badg.solve", "dice", [None, "666", [], [1, 6], [6.0], [True, 6]], lambda v: badg.solve(v)),
    ("badg.solve", "restrict", ["fast", 1], lambda v: badg.solve((6, 6), restrict=v)),
    (
        "badg.simulate",
        "n_games",
        INTS + [0],
        lambda v: badg.simulate(badg.heuristic_policy(), v, 1, dice=(6, 6)),
    ),
    ("badg.simulate", "seed", INTS, lambda v: badg.simulate(badg.heuristic_policy(), 10, v, dice=(6, 6))),
    ("badg.heuristic_policy", "fallback", ["best", None, 3], lambda v: badg.heuristic_policy(v)),
    ("stopping.expected_max", "s", INTS + [0, 1], lambda v: stopping.expected_max(v, 2)),
    ("stopping.optimal_value", "r", INTS + [0], lambda v: stopping.optimal_value(6, v)),
    ("stopping.max_reject", "s", INTS + [1], lambda v: stopping.max_reject(v, 2)),
    ("stopping.expected_max_formula", "r", INTS + [0], lambda v: stopping.expected_max_formula(v)),
    # simultaneous Pig and matrix games
    ("pig.hold_distribution", "k", INTS + [0], lambda v: pig.hold_distribution(v)),
    ("pig.one_turn_win", "k", INTS + [0], lambda v: pig.one_turn_win(v)),
    ("pig.hold_at", "n", INTS + [0], lambda v: pig.hold_at(v, 20)),
    ("pig.hold_at", "goal", INTS + [0], lambda v: pig.hold_at(5, v)),
    ("pig.hold_at", "cap", BOOLS, lambda v: pig.hold_at(5, 20, cap=v)),
    ("pig.best_response", "opponent", [None, "25", [[1, 2]], 3.5], lambda v: pig.best_response(v, 20)),
    (
        "pig.best_response",
        "tie",
        [-0.5, 1.5, "half", math.nan, None],
        lambda v: pig.best_response(pig.hold_at(5, 20), tie=v),
    ),
    ("pig.sequential_optimal", "goal", INTS + [0], lambda v: pig.sequential_optimal(v)),
    ("pig.equilibrium", "goal", INTS + [0], lambda v: pig.equilibrium(v)),
    (
        "pig.symmetric_value_iteration",
        "sweeps",
        INTS + [0],
        lambda v: pig.symmetric_value_iteration(20, sweeps=v),
    ),
    (
        "games.solve_matrix_game",
        "A",
        [None, [], [[1, 2], [3]], [["a", 1]], [[math.nan, 1]]],
        lambda v: games.solve_matrix_game(v),
    ),
    # exact, notebook, claims
    (
        "exact.to_fraction",
        "x",
        [None, "abc", "1/0", 0.5, math.nan, True, [1]],
        lambda v: exact.to_fraction(v, "x"),
    ),
    ("notebook.fast_mode", "fast", [b for b in BOOLS if b is not None], lambda v: notebook.fast_mode(v)),
    ("Ledger", "name", ["", "a/b", None, 3], lambda v: Ledger(v)),
    ("Ledger.add", "tol", [-1, "x"], lambda v: Ledger("x").add("T", "w", paper=1, ours=1, tol=v)),
]

CASES = [(label, arg, value, call) for label, arg, values, call in TABLE for value in values]


@pytest.mark.parametrize(
    ("label", "arg", "value", "call"),
    CASES,
    ids=[f"{label}-{arg}-{value!r}"[:60] for label, arg, value, _ in CASES],
)
def test_bad_input_is_refused_by_name(label, arg, value, call):
    with pytest.raises((ValueError, TypeError)) as err:
        call(value)
    message = str(err.value)
    assert arg in message, (
        f"{label}({arg}={value!r}) raised {type(err.value).__name__}: {message!r}, not naming {arg!r}"
    )
