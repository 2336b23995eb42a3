"""Bad-input rows: dicelab.wimpout, dicelab.markov, dicelab.explore.wimpout_turn."""

import math

from bad_input import BOOLS, FLOATS, HUGE, INTS, STRINGS, ARRAYS_2D, Row  # noqa: F401

from dicelab import markov, wimpout

COIN = markov.AbsorbingChain([["1/2", "1/2"], [0, 1]], states=["flip", "heads"])

ROWS = [
    Row(wimpout.Rules, "sun_value", INTS + [3, 0], lambda v: wimpout.Rules(sun_value=v)),
    Row(wimpout.Rules, "fourth_scores", BOOLS, lambda v: wimpout.Rules(fourth_scores=v)),
    Row(wimpout.Rules, "two_pairs", ["min", 1, None], lambda v: wimpout.Rules(two_pairs=v)),
    Row(
        wimpout.score,
        "roll",
        [None, 5, "55555", (), (1, 2, 3, 4, 5), (2, 3, 4, 5, 6, 2)],
        lambda v: wimpout.score(v),
    ),
    Row(wimpout.parse_roll, "text", [None, 5, (2, 3), "7 7", "2 x", "1"], lambda v: wimpout.parse_roll(v)),
    Row(wimpout.state, "name", ["Flash 7; Reroll 5", "", None], lambda v: wimpout.state(v)),
    Row(
        wimpout.step,
        "face",
        [2, 7],
        lambda v: wimpout.step(wimpout.state("Flash 3; Reroll 1B"), (2,), face=v),
    ),
    Row(wimpout.play_turns, "n_turns", INTS + [0, 1], lambda v: wimpout.play_turns(v, seed=1)),
    Row(wimpout.play_turns, "seed", INTS, lambda v: wimpout.play_turns(10, seed=v)),
    # markov
    Row(
        markov.AbsorbingChain,
        "P",
        [[], [[1, 0]], [["x", 1], [0, 1]], [[math.nan, 1], [0, 1]], None],
        lambda v: markov.AbsorbingChain(v),
    ),
    Row(
        markov.AbsorbingChain,
        "states",
        [["a"], ["a", "a"]],
        lambda v: markov.AbsorbingChain([[1, 0], [0, 1]], states=v),
    ),
    Row(markov.AbsorbingChain.simulate, "n_runs", INTS + [0], lambda v: COIN.simulate(v, "flip")),
    Row(
        markov.AbsorbingChain.simulate,
        "max_steps",
        INTS + [0],
        lambda v: COIN.simulate(10, "flip", max_steps=v),
    ),
    Row(markov.AbsorbingChain.simulate, "start", ["heads", "tails", None], lambda v: COIN.simulate(10, v)),
    Row(markov.AbsorbingChain.float_view, "name", ["X", None], lambda v: COIN.float_view(v)),
]

EXEMPT = {
    "dicelab.markov.ChainSample": "a result record, returned by AbsorbingChain.simulate",
    "dicelab.wimpout.dice.Score": "a result record, returned by score",
    "dicelab.wimpout.chain.Step": "a result record, returned by step",
    "dicelab.wimpout.chain.Outcome": "a result record, returned by step_outcomes",
}
