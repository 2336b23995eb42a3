"""Bad-input rows: dicelab.core.markov."""

import math

import numpy as np

from bad_input import ARRAYS_2D, HUGE, Row
from dicelab.core import markov

COIN = markov.AbsorbingChain([["1/2", "1/2"], [0, 1]], states=["flip", "heads"])
BIG_DENSE = np.full((1500, 1500), 1 / 1500)  # 1,500 transient states: hours of exact inversion
WALK = markov.AbsorbingChain([[1, 0, 0], ["1/2", 0, "1/2"], [0, 0, 1]])  # 0 <- 1 -> 2
STARTS = ["tails", ["flip"], 7, 2.5]  # not a state of COIN
TARGETS = [None, "tails", "", [], ["tails"], ["flip", "tails"], 3.5, {"heads": 1}, b"heads"]


def declared(method, call) -> list[Row]:
    """The rows of a method's arguments declared with ``dicelab.core.spec.validated``: each bad value
    of its spec, tried by ``call(argument, value)``."""
    return [
        Row(method, arg, spec.bad_values(), lambda v, arg=arg: call(arg, v))
        for arg, spec in method.__specs__.items()
    ]


ROWS = [
    Row(
        markov.AbsorbingChain,
        "P",
        [[], [[1, 0]], [["x", 1], [0, 1]], [[math.nan, 1], [0, 1]], None]
        + ARRAYS_2D
        + [
            {"a": 1},
            ["10", "01"],
            [[True, False], [False, True]],
            [[1, 0], [0.5, 0.5, 0]],
            [[1, 0], [2, -1]],  # an entry outside [0, 1]
            [["1/2", "1/3"], [0, 1]],  # a row not summing to 1
            [["1/2", "1/2"], ["1/2", "1/2"]],  # no absorbing state
            [[1, 0, 0], [0, "1/2", "1/2"], [0, "1/2", "1/2"]],  # transient states never absorbed
            [[math.inf, 0], [0, 1]],
            BIG_DENSE,
            [
                ["1e-10000000", 1],
                [0, 1],
            ],  # an exact number of ten million digits, refused before it is written
        ],
        lambda v: markov.AbsorbingChain(v),
    ),
    Row(
        markov.AbsorbingChain,
        "states",
        [["a"], ["a", "a"], "ab", 5, [[1], [2]], {"a": 0, "b": 1}, [], ["a", "b", "c"]],
        lambda v: markov.AbsorbingChain([[1, 0], [0, 1]], states=v),
    ),
    # simulate(n, *, seed, start, max_steps): n, seed and max_steps declared; start must be transient
    *declared(markov.AbsorbingChain.simulate, lambda arg, v: COIN.simulate(**{"n": 10, "seed": 1, arg: v})),
    Row(markov.AbsorbingChain.simulate, "n", [HUGE], lambda v: COIN.simulate(v, seed=1)),
    Row(
        markov.AbsorbingChain.simulate,
        "start",
        ["heads", *STARTS],
        lambda v: COIN.simulate(10, seed=1, start=v),
    ),
    *declared(markov.AbsorbingChain.float_view, lambda arg, v: COIN.float_view(**{arg: v})),
    Row(markov.AbsorbingChain.float_view, "name", ["X", "p", ""], lambda v: COIN.float_view(v)),
    Row(
        markov.AbsorbingChain.absorption_probability,
        "start",
        [None, "heads", "tails", ["flip"]],
        lambda v: COIN.absorption_probability(v, "heads"),
    ),
    Row(
        markov.AbsorbingChain.absorption_probability,
        "end",
        [None, "flip", "tails", ["heads"]],
        lambda v: COIN.absorption_probability("flip", v),
    ),
    Row(
        markov.AbsorbingChain.expected_steps,
        "start",
        [None, "heads", "tails", ["flip"]],
        lambda v: COIN.expected_steps(v),
    ),
    # hitting probabilities and first passages: any state may be a target or a start
    Row(markov.AbsorbingChain.hitting_probability, "targets", TARGETS, COIN.hitting_probability),
    Row(
        markov.AbsorbingChain.hitting_probability,
        "start",
        STARTS,
        lambda v: COIN.hitting_probability("heads", start=v),
    ),
    *declared(
        markov.AbsorbingChain.first_passage, lambda arg, v: WALK.first_passage(2, **{"steps": 3, arg: v})
    ),
    Row(markov.AbsorbingChain.first_passage, "steps", [HUGE], lambda v: WALK.first_passage(2, v)),
    Row(markov.AbsorbingChain.first_passage, "targets", TARGETS, lambda v: COIN.first_passage(v, 3)),
    Row(
        markov.AbsorbingChain.first_passage,
        "start",
        STARTS,
        lambda v: COIN.first_passage("heads", 3, start=v),
    ),
]

EXEMPT = {
    "dicelab.core.markov.FirstPassage": "a result record, returned by AbsorbingChain.first_passage",
}
