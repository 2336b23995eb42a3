"""Each up-front cost estimate beside the measured cost of the call it guards.

    python benchmarks/budgets.py           # about a minute and a half on two shared cores
    python benchmarks/budgets.py --small   # only the calibration sizes the test suite checks

A call's estimate is what :func:`dicelab._checks.check_cost` is told before any work: its
steps at ``10^8`` a second (the largest estimate when a call checks several parts). The
measured cost is the median CPU time of repeated calls (process time, so other programs on a
shared machine do not count; one run for the largest sizes), after a warm-up call that
compiles the kernels. ``tests/test_budgets.py`` checks that every estimate is within a factor
of 3 of the measured cost on the small sizes (each at least 50 ms).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from typing import NamedTuple

import numpy as np

from dicelab import badg, efron, games, pig, wimpout
from dicelab._checks import recorded_costs
from dicelab.efron import reference


class Size(NamedTuple):
    """One size of one estimate: its label, whether the test suite checks it, and the call."""

    label: str
    small: bool
    call: Callable[[], object]


def _heuristic(dice) -> Callable[[], object]:
    return lambda: badg.evaluate(badg.heuristic_policy(), dice)


def _to_win(dice, target: int) -> Callable[[], object]:
    return lambda: badg.solve_to_win(dice, target=target)


def _forward(dice, target: int) -> Callable[[], object]:
    """The forward pass of a win policy solved once (the first call solves it)."""
    solved = {}

    def call():
        if "win" not in solved:
            solved["win"] = badg.solve_to_win(dice, target=target)
        return solved["win"].differences(21)  # more examples than kept: a fresh pass each call

    return call


def _random_game(m: int, n: int) -> Callable[[], object]:
    A = np.random.default_rng(m * n).normal(size=(m, n))
    return lambda: games.solve_matrix_game(A)


def _mixed_opponent(goal: int, support: int) -> Callable[[], object]:
    """An opponent mixing ``support`` random hold values (all of them when ``support == goal``)."""
    rng = np.random.default_rng(goal)
    if support == goal:
        s = rng.random((goal,) * 3)
    else:
        s = sum(np.eye(goal)[rng.integers(0, goal, size=(goal, goal))] for _ in range(support))
    s = s / s.sum(axis=2, keepdims=True)
    return lambda: pig.best_response_mixed(s)


# estimate -> (warm-up call, sizes)
CASES: dict[str, tuple[Callable[[], object], list[Size]]] = {
    "badg.evaluate (heuristic)": (
        _heuristic((6, 6)),
        [
            Size("60 d6", True, _heuristic((6,) * 60)),
            Size("8 d6 + 8 d8", True, _heuristic((6,) * 8 + (8,) * 8)),
            Size("100 d6", False, _heuristic((6,) * 100)),
            Size("d4..d20 twice", False, _heuristic((4, 6, 8, 10, 12, 20) * 2)),
        ],
    ),
    "badg.solve_to_win": (
        _to_win((6, 6, 8), 4),
        [
            Size("6 d6 + d8 d10 d12, t=8", True, _to_win((6,) * 6 + (8, 10, 12), 8)),
            Size("8 d6 + d8 d10 d12, t=10", True, _to_win((6,) * 8 + (8, 10, 12), 10)),
            Size("standard, t=8", False, _to_win(badg.STANDARD, 8)),
            Size("standard, t=30", False, _to_win(badg.STANDARD, 30)),
        ],
    ),
    "badg.WinSolution forward pass": (
        _forward((6, 6, 8), 4),
        [
            Size("6 d6 + d8 d10 d12, t=8", True, _forward((6,) * 6 + (8, 10, 12), 8)),
            Size("8 d6 + 2 d8 + d10, t=12", True, _forward((6,) * 8 + (8, 8, 10), 12)),
            Size("standard, t=8", False, _forward(badg.STANDARD, 8)),
        ],
    ),
    "efron.reference.exact_best_cycles": (
        lambda: reference.exact_best_cycles(3, 4, 3),
        [
            Size("S=3 L=6 M=4", True, lambda: reference.exact_best_cycles(3, 6, 4)),
            Size("S=4 L=5 M=3", True, lambda: reference.exact_best_cycles(4, 5, 3)),
            Size("S=4 L=6 M=4", False, lambda: reference.exact_best_cycles(4, 6, 4)),
            Size("S=4 L=6 M=5", False, lambda: reference.exact_best_cycles(4, 6, 5)),
        ],
    ),
    "games.solve_matrix_game": (
        _random_game(3, 3),
        [
            Size("200 x 200", True, _random_game(200, 200)),
            Size("100 x 1000", True, _random_game(100, 1000)),
            Size("400 x 400", False, _random_game(400, 400)),
            Size("800 x 800", False, _random_game(800, 800)),
        ],
    ),
    "pig.best_response_mixed": (
        _mixed_opponent(10, 10),
        [
            Size("goal 100, every hold value mixed", True, _mixed_opponent(100, 100)),
            Size("goal 150, one hold value", True, _mixed_opponent(150, 1)),
            Size("goal 250, every hold value mixed", False, _mixed_opponent(250, 250)),
            Size("goal 250, two hold values", False, _mixed_opponent(250, 2)),
        ],
    ),
    "pig.best_response_3p": (
        lambda: pig.best_response_3p(pig.hold_at(3, 8), pig.hold_at(4, 8)),
        [
            Size("goal 80", True, lambda: pig.best_response_3p(pig.hold_at(20, 80), pig.hold_at(25, 80))),
            Size("goal 100", True, lambda: pig.best_response_3p(pig.hold_at(25), pig.hold_at(30))),
            Size("goal 150", False, lambda: pig.best_response_3p(pig.hold_at(25, 150), pig.hold_at(30, 150))),
        ],
    ),
    "pig.equilibrium": (
        lambda: pig.equilibrium(8),
        [
            Size("goal 100", True, lambda: pig.equilibrium(100)),
            Size("goal 150", True, lambda: pig.equilibrium(150)),
            Size("goal 200", False, lambda: pig.equilibrium(200)),
        ],
    ),
    "efron.num_unique_dice (recurrence)": (
        lambda: efron.num_unique_dice(5, 5),
        [
            Size("L=1000 S=999", True, lambda: efron.num_unique_dice(1000, 999)),
            Size("L=3000 S=300", True, lambda: efron.num_unique_dice(3000, 300)),
            Size("L=300 S=3000", False, lambda: efron.num_unique_dice(300, 3000)),
        ],
    ),
    "wimpout.solve_race": (
        lambda: wimpout.solve_race(20),
        [
            Size("target 100", True, lambda: wimpout.solve_race(100)),
            Size("target 150", True, lambda: wimpout.solve_race(150)),
            Size("target 300", False, lambda: wimpout.solve_race(300)),
            Size("target 500", False, lambda: wimpout.solve_race(500)),
        ],
    ),
}


def measure(call: Callable[[], object], repeat: int) -> tuple[float, float]:
    """``(estimated seconds, median measured CPU seconds)`` of ``call``."""
    times = []
    estimate = 0.0
    for _ in range(repeat):
        with recorded_costs() as seen:
            t0 = time.process_time()
            call()
            times.append(time.process_time() - t0)
        estimate = max((seconds for _, _, seconds in seen), default=0.0)
    return estimate, statistics.median(times)


def calibrate(small_only: bool, repeat: int = 3):
    """Yield ``(estimate, size, estimated seconds, measured seconds)`` for every size."""
    for name, (warm_up, sizes) in CASES.items():
        warm_up()
        for size in sizes:
            if small_only and not size.small:
                continue
            estimate, measured = measure(size.call, repeat if size.small else 1)
            yield name, size, estimate, measured


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--small", action="store_true", help="only the sizes the test suite checks")
    args = parser.parse_args(argv)
    print(f"{'estimate':36s} {'size':34s} {'estimated':>10s} {'measured':>10s} {'ratio':>6s}")
    worst = 1.0
    for name, size, estimate, measured in calibrate(args.small):
        ratio = measured / estimate
        worst = max(worst, ratio, 1 / ratio)
        mark = "" if 1 / 3 <= ratio <= 3 else "  (beyond a factor of 3)"
        print(f"{name:36s} {size.label:34s} {estimate:9.3g}s {measured:9.3g}s {ratio:6.2f}{mark}", flush=True)
    print(f"largest factor between estimate and measured cost: {worst:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
