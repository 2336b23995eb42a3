"""Bad-input rows: the race to a target (dicelab.wimpout.race, race_match, reference)."""

import math

import numpy as np

from bad_input import FLOATS, HUGE, INTS, Row
from dicelab import wimpout
from dicelab.wimpout import Choice, reference

SOL = wimpout.solve_race(20)
RULES = [None, "max", 10, {"sun_value": 5}, wimpout.ROLL_5]
TARGETS = INTS + [0, 3, 7, HUGE]
MINIMUMS = INTS + [3, HUGE]
CHOICES = [None, "3W + 1B", (3, True), 3, wimpout.ROLL_5]
POLICIES = [
    None,
    "best",
    3,
    np.zeros((2, 2), dtype=int),
    SOL.thresholds * 0,
    SOL.thresholds.astype(float),
    SOL.thresholds + 1,
    [[["5"]]],
]

ROWS = [
    Row(wimpout.reach_probability, "points", [HUGE, math.nan], lambda v: wimpout.reach_probability(v)),
    Row(wimpout.reach_probability, "minimum", [HUGE], lambda v: wimpout.reach_probability(5, minimum=v)),
    Row(wimpout.solve_race, "target", [7, HUGE, math.inf], lambda v: wimpout.solve_race(v)),
    Row(wimpout.solve_race, "minimum", [HUGE], lambda v: wimpout.solve_race(20, minimum=v)),
    Row(
        wimpout.solve_race,
        "horizon",
        [-1, math.nan, 5, 10, HUGE],
        lambda v: wimpout.solve_race(20, horizon=v),
    ),
    Row(wimpout.solve_race, "tol", [-1], lambda v: wimpout.solve_race(20, tol=v)),
    Row(wimpout.solve_race, "method", [b"text", "fast", ""], lambda v: wimpout.solve_race(20, method=v)),
    Row(wimpout.solve_race, "max_iter", [HUGE], lambda v: wimpout.solve_race(20, max_iter=v)),
    Row(wimpout.solve_race, "max_iter", [1], lambda v: wimpout.solve_race(20, max_iter=v)),  # too few
    Row(wimpout.RaceSolution.value_at, "state", [None, 0, (0,), "00", (0, 0, 0)], lambda v: SOL.value_at(v)),
    Row(
        wimpout.RaceSolution.value_at,
        "state",
        [(v, 0) for v in INTS + [3, 20, 25]],
        lambda v: SOL.value_at(v),
    ),
    Row(
        wimpout.RaceSolution.value_at,
        "state",
        [(0, v) for v in INTS + [3, 20, 25]],
        lambda v: SOL.value_at(v),
    ),
    Row(wimpout.RaceSolution.threshold, "i", INTS + [3, 20], lambda v: SOL.threshold(v, 0, Choice(1, True))),
    Row(wimpout.RaceSolution.threshold, "j", INTS + [3, 20], lambda v: SOL.threshold(0, v, Choice(1, True))),
    Row(wimpout.RaceSolution.threshold, "choice", CHOICES, lambda v: SOL.threshold(0, 0, v)),
    Row(wimpout.RaceSolution.best_action, "state", [None, (0, 0), (0, 0, 5), "0005"], SOL.best_action),
    Row(
        wimpout.RaceSolution.best_action,
        "state",
        [(v, 0, Choice(1, True), 5) for v in INTS + [3, 20]],
        SOL.best_action,
    ),
    Row(
        wimpout.RaceSolution.best_action,
        "state",
        [(0, v, Choice(1, True), 5) for v in INTS + [3, 20]],
        SOL.best_action,
    ),
    Row(wimpout.RaceSolution.best_action, "state", [(0, 0, c, 5) for c in CHOICES], SOL.best_action),
    Row(
        wimpout.RaceSolution.best_action,
        "state",
        [(0, 0, Choice(1, True), v) for v in INTS + [0, 3]],
        SOL.best_action,
    ),
    Row(wimpout.RaceSolution.threshold_grid, "choice", CHOICES, lambda v: SOL.threshold_grid(v)),
    Row(wimpout.for_points_thresholds, "target", [7, HUGE], lambda v: wimpout.for_points_thresholds(v)),
    Row(
        wimpout.for_points_thresholds,
        "minimum",
        [HUGE],
        lambda v: wimpout.for_points_thresholds(20, minimum=v),
    ),
    Row(wimpout.evaluate_race, "solution", [None, "x", 3, SOL.values], lambda v: wimpout.evaluate_race(v)),
    Row(wimpout.evaluate_race, "first", POLICIES, lambda v: wimpout.evaluate_race(SOL, v)),
    Row(wimpout.evaluate_race, "second", POLICIES, lambda v: wimpout.evaluate_race(SOL, "optimal", v)),
    Row(wimpout.evaluate_race, "tol", FLOATS + [0, -1], lambda v: wimpout.evaluate_race(SOL, tol=v)),
    Row(
        wimpout.evaluate_race,
        "method",
        [None, "", "levels", "plain", 3, b"linear", ["linear"]],
        lambda v: wimpout.evaluate_race(SOL, method=v),
    ),
    Row(
        wimpout.for_points_loss, "solution", [None, "x", 3, SOL.values], lambda v: wimpout.for_points_loss(v)
    ),
    Row(wimpout.simulate_race, "solution", [None, "x", 3], lambda v: wimpout.simulate_race(v, 10, seed=1)),
    Row(wimpout.simulate_race, "n", INTS + [0, 1, HUGE], lambda v: wimpout.simulate_race(SOL, v, seed=1)),
    Row(wimpout.simulate_race, "seed", INTS, lambda v: wimpout.simulate_race(SOL, 10, seed=v)),
    Row(wimpout.simulate_race, "first", POLICIES, lambda v: wimpout.simulate_race(SOL, 10, seed=1, first=v)),
    Row(
        wimpout.simulate_race, "second", POLICIES, lambda v: wimpout.simulate_race(SOL, 10, seed=1, second=v)
    ),
    Row(reference.exact_race, "target", [7, HUGE, 1000], lambda v: reference.exact_race(v, horizon=200)),
    Row(reference.exact_race, "minimum", [HUGE], lambda v: reference.exact_race(5, minimum=v, horizon=200)),
    Row(
        reference.exact_race,
        "horizon",
        [5, HUGE, 20_000],
        lambda v: reference.exact_race(5, horizon=v),
    ),
]

EXEMPT = {
    "dicelab.wimpout.race.RaceSolution": "a result record, returned by solve_race",
    "dicelab.wimpout.race_match.RaceMatch": "a result record, returned by evaluate_race",
    "dicelab.wimpout.race_match.ForPointsLoss": "a result record, returned by for_points_loss",
    "dicelab.wimpout.reference.ExactRace": "a result record, returned by exact_race",
}
