"""Each up-front cost estimate beside the measured cost of the call it guards.

    python benchmarks/budgets.py           # about ten minutes on two shared cores
    python benchmarks/budgets.py --small   # only the calibration sizes the test suite checks

A call's estimate is what :func:`dicelab.core.checks.check_cost` is told before any work: its
steps at ``10^8`` a second (the largest estimate when a call checks several parts). The
measured cost is the median CPU time of repeated calls (process time, so other programs on a
shared machine do not count; one run for the largest sizes), after a warm-up call that
compiles the kernels. The script fails (exit code 1) when an estimate is beyond a factor of 3 of
the measured cost on a small size (each at least 20 ms; a small size beyond it is measured again,
up to three times, since a shared machine may slow one median down), or when a call that must
answer at once (the closed form of a large count, numbers too long to read, a race beyond the
budget) takes a second or more. ``make benchmark`` runs it; the test run does not time anything.
"""

from __future__ import annotations

import argparse
import functools
import os
import statistics
import sys
import time
from collections.abc import Callable
from fractions import Fraction
from typing import NamedTuple

import numpy as np
import sympy

from dicelab import badg, efron, pig, wimpout
from dicelab.badg import _common as badg_common
from dicelab.badg import reference as badg_reference
from dicelab.badg import state as badg_state
from dicelab.badg import stopping
from dicelab.badg import tables as badg_tables
from dicelab.badg import to_win as badg_to_win
from dicelab.core import exact, games, markov
from dicelab.core.checks import recorded_costs
from dicelab.course import claims
from dicelab.efron import reference
from dicelab.pig import _common as pig_common
from dicelab.pig import reference as pig_reference
from dicelab.wimpout import race as wimpout_race
from dicelab.wimpout import reference as wimpout_reference


class Size(NamedTuple):
    """One size of one estimate: its label, whether the test suite checks it, and the call.

    ``setup``, when given, is run (untimed) before the call is measured: it builds the call's
    input, such as the solution whose statistics are timed.
    """

    label: str
    small: bool
    call: Callable[[], object]
    setup: Callable[[], object] | None = None


def _race(target: int) -> Callable[[], object]:
    """A race solved afresh: without the interior a solve of the same race shares (see race.py)."""

    def call():
        wimpout_race._clear_interiors()
        return wimpout.solve_race(target)

    return call


def _heuristic(dice) -> Callable[[], object]:
    return lambda: badg.evaluate(badg.heuristic_policy(), dice)


def _to_win(dice, target: int) -> Callable[[], object]:
    def call():  # afresh: the expected-points solution it breaks ties with, and the game's table
        badg_to_win._expected.cache_clear()  # of targets, are solved again
        badg_to_win._clear_targets()
        return badg.solve_to_win(dice, target=target)

    return call


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
    return lambda: pig.solve_best_response_mixed(s)


# Remembered tables are forgotten before each timed call, so that every run pays what a first
# call pays: the multisets of rolls (b.a.d.g.), the values E(r, s) (stopping), the hold table and
# the hold distributions (Pig), the symbolic sums.


def _fresh_badg() -> None:
    badg_tables._multisets.cache_clear()
    badg_state._multiset_rolls.cache_clear()


def _pig3(n1: int, n2: int, goal: int) -> Callable[[], object]:
    return lambda: pig.solve_best_response_3p(pig.hold_at(n1, goal), pig.hold_at(n2, goal))


def _fresh_pig() -> None:
    pig_common.hold_table.cache_clear()
    pig_common.HOLDS.clear()


def _solve(dice) -> Callable[[], object]:
    def call():
        _fresh_badg()
        return badg.solve(dice)

    return call


@functools.cache
def _solved(dice):
    return badg.solve(dice)


def _statistics(dice) -> Size:
    return Size(
        f"{len(dice)} dice {_counted(dice)}",
        False,
        lambda: _solved(dice).policy_statistics(),
        lambda: _solved(dice),
    )


def _counted(dice) -> str:
    """``'8 d6 + 8 d8'`` for ``(6,) * 8 + (8,) * 8``."""
    return " + ".join(f"{dice.count(s)} d{s}" for s in sorted(set(dice)))


def _take_all(state, roll):
    return tuple(range(len(state)))


def _rolls(dice) -> Callable[[], object]:
    def call():
        _fresh_badg()
        return badg.evaluate(_take_all, dice)

    return call


def _multiset_rolls(s: int, a: int) -> Callable[[], object]:
    def call():
        _fresh_badg()
        return badg.multiset_rolls(s, a)

    return call


def _optimal_value(s: int, r: int) -> Callable[[], object]:
    def call():
        badg_common._VALUES.clear()
        return stopping.optimal_value(s, r)

    return call


def _strategy_table(s: int, r: int) -> Callable[[], object]:
    def call():
        badg_common._VALUES.clear()
        return stopping.strategy_table(s, r)

    return call


def _formula(r: int) -> Callable[[], object]:
    def call():
        stopping._expected_max_formula.cache_clear()
        sympy.core.cache.clear_cache()
        return stopping.expected_max_formula(r)

    return call


@functools.cache
def _dice(L: int, S: int) -> np.ndarray:
    return efron.unique_dice(sides=S, labels=L)


@functools.cache
def _graph(L: int, S: int) -> tuple[np.ndarray, np.ndarray]:
    """The wins matrix of every die with ``S`` sides and labels ``0..L-1``, and its steps (a win in
    more than half the face pairs)."""
    W = efron.wins_matrix(_dice(L, S))
    return W, efron.allowed_edges(W, min_wins=efron.strict_min_wins(sides=S))


def _on_graph(f, L: int, S: int, M: int) -> Size:
    N = len(_dice(L, S)) if L * S < 80 else efron.num_unique_dice(sides=S, labels=L)
    return Size(
        f"L={L} S={S} ({N} dice) M={M}", False, lambda: f(*_graph(L, S), dice=M), lambda: _graph(L, S)
    )


def _small(size: Size) -> Size:
    return size._replace(small=True)


def _maxplus(n: int) -> Callable[[], object]:
    rng = np.random.default_rng(n)
    A, B = rng.integers(-50, 50, (n, n)), rng.integers(-50, 50, (n, n))
    return lambda: efron.maxplus_product(A, B)


def _pig(f, *args) -> Callable[[], object]:
    def call():
        _fresh_pig()
        return f(*args)

    return call


def _holds(n: int, goal: int):
    return pig.hold_at(n, goal)


def _stage(goal: int) -> Callable[[], object]:
    W = np.random.default_rng(goal).random((goal, goal))
    return _pig(pig.stage_game, W, 0, 0)


@functools.cache
def _pig_values(goal: int) -> np.ndarray:
    """A's winning probabilities against holding at 20, as the later states' values of a stage game."""
    return pig.solve_best_response(pig.hold_at(20, goal)).values


def _exact_stage(f, goal: int) -> Size:
    return Size(
        f"goal {goal}, state (0, 0)", False, lambda: f(_pig_values(goal), 0, 0), lambda: _pig_values(goal)
    )


def _walk(n: int, dense: bool) -> list[list]:
    """An absorbing chain on ``n`` states, both ends absorbing: a lazy random walk (``dense=False``)
    or rows of random small fractions over every state (``dense=True``)."""
    P = [[0] * n for _ in range(n)]
    P[0][0] = P[n - 1][n - 1] = 1
    rng = np.random.default_rng(n)
    for i in range(1, n - 1):
        if dense:
            w = rng.integers(1, 5, n)
            P[i] = [Fraction(int(x), int(w.sum())) for x in w]
        else:
            P[i][i - 1], P[i][i], P[i][i + 1] = Fraction(1, 2), Fraction(1, 6), Fraction(1, 3)
    return P


def _chain(n: int, dense: bool) -> Callable[[], object]:
    P = _walk(n, dense)
    return lambda: markov.AbsorbingChain(P)


def _runs(n: int, runs: int) -> Callable[[], object]:
    chain = markov.AbsorbingChain(_walk(n, False))
    return lambda: chain.simulate(runs, seed=1, start=n // 2)


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
        lambda: reference.exact_best_cycles(sides=3, labels=4, dice=3),
        [
            Size("S=3 L=6 M=4", True, lambda: reference.exact_best_cycles(sides=3, labels=6, dice=4)),
            Size("S=4 L=5 M=3", True, lambda: reference.exact_best_cycles(sides=4, labels=5, dice=3)),
            Size("S=4 L=6 M=4", False, lambda: reference.exact_best_cycles(sides=4, labels=6, dice=4)),
            Size("S=4 L=6 M=5", False, lambda: reference.exact_best_cycles(sides=4, labels=6, dice=5)),
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
    "pig.solve_best_response_mixed": (
        _mixed_opponent(10, 10),
        [
            Size("goal 100, every hold value mixed", True, _mixed_opponent(100, 100)),
            Size("goal 150, one hold value", True, _mixed_opponent(150, 1)),
            Size("goal 250, every hold value mixed", False, _mixed_opponent(250, 250)),
            Size("goal 250, two hold values", False, _mixed_opponent(250, 2)),
        ],
    ),
    "pig.solve_best_response_3p": (
        lambda: pig.solve_best_response_3p(pig.hold_at(3, 8), pig.hold_at(4, 8)),
        [
            Size("goal 80", True, _pig3(20, 25, 80)),
            Size("goal 100", True, lambda: pig.solve_best_response_3p(pig.hold_at(25), pig.hold_at(30))),
            Size("goal 150", False, _pig3(25, 30, 150)),
        ],
    ),
    "pig.solve_equilibrium": (
        lambda: pig.solve_equilibrium(8),
        [
            Size("goal 100", True, lambda: pig.solve_equilibrium(100)),
            Size("goal 150", True, lambda: pig.solve_equilibrium(150)),
            Size("goal 200", False, lambda: pig.solve_equilibrium(200)),
        ],
    ),
    "efron.num_unique_dice (recurrence)": (
        lambda: efron.num_unique_dice(sides=5, labels=5),
        [
            Size("L=1000 S=999", True, lambda: efron.num_unique_dice(sides=999, labels=1000)),
            Size("L=3000 S=300", True, lambda: efron.num_unique_dice(sides=300, labels=3000)),
            Size("L=300 S=3000", False, lambda: efron.num_unique_dice(sides=3000, labels=300)),
        ],
    ),
    "wimpout.solve_race": (
        lambda: wimpout.solve_race(20),
        [
            Size("target 100", True, _race(100)),
            Size("target 150", True, _race(150)),
            Size("target 300", False, _race(300)),
            Size("target 500", False, _race(500)),
        ],
    ),
    # b.a.d.g.
    "badg.solve": (
        _solve((6, 6)),
        [
            Size("12 d6 + d8 + d10 + d12", True, _solve(badg.STANDARD)),
            Size("8 d6 + 8 d8", False, _solve((6,) * 8 + (8,) * 8)),
            Size("10 d6 + 10 d8", False, _solve((6,) * 10 + (8,) * 10)),
            Size("24 d6", False, _solve((6,) * 24)),
        ],
    ),
    "badg.Solution.policy_statistics": (
        lambda: _solved((6, 8)).policy_statistics(),
        [
            _small(_statistics((6,) * 6 + (8,) * 6)),
            _statistics(badg.STANDARD),
            _statistics((6,) * 8 + (8,) * 8),
            _statistics((6,) * 10 + (8,) * 10),
        ],
    ),
    "badg.evaluate (roll by roll)": (
        _rolls((6, 6)),
        [
            Size("d4 + d6 + d8 + d10", True, _rolls((4, 6, 8, 10))),
            Size("3 d6 + 3 d8", False, _rolls((6,) * 3 + (8,) * 3)),
            Size("4 d6 + 3 d8", False, _rolls((6,) * 4 + (8,) * 3)),
        ],
    ),
    "badg.reference.paper_precompute": (
        lambda: badg_reference.paper_precompute((6, 6)),
        [
            Size("4 d6", True, lambda: badg_reference.paper_precompute((6,) * 4)),
            Size("d4 + d6 + d8 + d10", True, lambda: badg_reference.paper_precompute((4, 6, 8, 10))),
            Size("5 d6", False, lambda: badg_reference.paper_precompute((6,) * 5)),
            Size("6 d6", False, lambda: badg_reference.paper_precompute((6,) * 6)),
        ],
    ),
    "badg.reference.exact_policy_statistics": (
        lambda: badg_reference.exact_policy_statistics((6, 6)),
        [
            Size("d4 + 2 d6 + d8", True, lambda: badg_reference.exact_policy_statistics((4, 6, 8, 6))),
            Size("5 d6", False, lambda: badg_reference.exact_policy_statistics((6,) * 5)),
        ],
    ),
    "badg.simulate": (
        lambda: badg.simulate(badg.heuristic_policy(), 100, seed=1),
        [
            Size(
                "standard dice, 10^4 games",
                True,
                lambda: badg.simulate(badg.heuristic_policy(), 10**4, seed=1),
            ),
            Size(
                "60 d6, 2 x 10^3 games",
                True,
                lambda: badg.simulate(badg.heuristic_policy(), 2000, seed=1, dice=(6,) * 60),
            ),
            Size(
                "standard dice, 10^6 games",
                False,
                lambda: badg.simulate(badg.heuristic_policy(), 10**6, seed=1),
            ),
            Size(
                "120 d6, 2 x 10^4 games",
                False,
                lambda: badg.simulate(badg.heuristic_policy(), 20_000, seed=1, dice=(6,) * 120),
            ),
        ],
    ),
    "badg.states": (
        lambda: badg.states((6, 8)),
        [
            Size("80 d6 + 80 d8", False, lambda: badg.states((6,) * 80 + (8,) * 80)),
            Size("100 d6 + 100 d8", True, lambda: badg.states((6,) * 100 + (8,) * 100)),
            Size("200 d6 + 200 d8", False, lambda: badg.states((6,) * 200 + (8,) * 200)),
        ],
    ),
    "badg.multiset_rolls": (
        _multiset_rolls(6, 2),
        [
            Size("8 d10", True, _multiset_rolls(10, 8)),
            Size("10 d10", False, _multiset_rolls(10, 10)),
            Size("25 d6", False, _multiset_rolls(6, 25)),
            Size("30 d6", False, _multiset_rolls(6, 30)),
            Size("8 d20", False, _multiset_rolls(20, 8)),
        ],
    ),
    "badg.count_rolls": (
        lambda: badg.count_rolls((6, 8)),
        [
            Size("2 x 10^5 d6, ordered", True, lambda: badg.count_rolls((6,) * 200_000, distinct=False)),
            Size("10^5 d6 + 10^5 d8", True, lambda: badg.count_rolls((6,) * 100_000 + (8,) * 100_000)),
            Size("2 x 10^6 d6, ordered", False, lambda: badg.count_rolls((6,) * 2_000_000, distinct=False)),
        ],
    ),
    # optimal stopping
    "stopping.optimal_value": (
        _optimal_value(6, 10),
        [
            Size("s=6 r=5000", True, _optimal_value(6, 5000)),
            Size("s=100 r=5000", True, _optimal_value(100, 5000)),
            Size("s=6 r=30000", False, _optimal_value(6, 30_000)),
        ],
    ),
    "stopping.strategy_table": (
        _strategy_table(6, 10),
        [
            Size("s=6 r_max=3000", False, _strategy_table(6, 3000)),
            Size("s=6 r_max=5000", True, _strategy_table(6, 5000)),
            Size("s=6 r_max=15000", False, _strategy_table(6, 15_000)),
        ],
    ),
    "stopping.expected_max": (
        lambda: stopping.expected_max(6, 2),
        [
            Size("s=1000 r=2000", True, lambda: stopping.expected_max(1000, 2000)),
            Size("s=100 r=20000", False, lambda: stopping.expected_max(100, 20_000)),
            Size("s=10^5 r=100", False, lambda: stopping.expected_max(10**5, 100)),
            Size("s=10^4 r=1000", False, lambda: stopping.expected_max(10**4, 1000)),
        ],
    ),
    "stopping.expected_max_formula": (
        _formula(3),
        [
            Size("r=15", True, _formula(15)),
            Size("r=20", False, _formula(20)),
            Size("r=40", False, _formula(40)),
            Size("r=60", False, _formula(60)),
        ],
    ),
    # Efron's dice
    "efron.wins_matrix": (
        lambda: efron.wins_matrix(_dice(3, 3)),
        [
            Size("L=9 S=6 (3003 dice)", True, lambda: efron.wins_matrix(_dice(9, 6)), lambda: _dice(9, 6)),
            Size(
                "L=10 S=6 (5005 dice)", False, lambda: efron.wins_matrix(_dice(10, 6)), lambda: _dice(10, 6)
            ),
            Size(
                "L=11 S=6 (8008 dice)", False, lambda: efron.wins_matrix(_dice(11, 6)), lambda: _dice(11, 6)
            ),
        ],
    ),
    "efron.closed_walks": (
        lambda: efron.closed_walks(_graph(4, 3)[1], dice=4),
        [
            _small(_on_graph(lambda W, A, dice: efron.closed_walks(A, dice=dice), 7, 6, 6)),
            _on_graph(lambda W, A, dice: efron.closed_walks(A, dice=dice), 8, 6, 4),
            _on_graph(lambda W, A, dice: efron.closed_walks(A, dice=dice), 8, 6, 8),
            _on_graph(lambda W, A, dice: efron.closed_walks(A, dice=dice), 9, 6, 6),
        ],
    ),
    "efron.count_cycles": (
        lambda: efron.count_cycles(sides=3, labels=4, dice=3),
        [
            Size("S=6 L=7 M=4", True, lambda: efron.count_cycles(sides=6, labels=7, dice=4)),
            Size("S=6 L=8 M=4", False, lambda: efron.count_cycles(sides=6, labels=8, dice=4)),
            Size("S=6 L=9 M=4", False, lambda: efron.count_cycles(sides=6, labels=9, dice=4)),
        ],
    ),
    "efron.best_cycles": (
        lambda: efron.best_cycles(sides=3, labels=4, dice=3),
        [
            Size("S=6 L=8 M=4", True, lambda: efron.best_cycles(sides=6, labels=8, dice=4)),
            Size("S=6 L=8 M=5", False, lambda: efron.best_cycles(sides=6, labels=8, dice=5)),
            Size("S=6 L=9 M=3", False, lambda: efron.best_cycles(sides=6, labels=9, dice=3)),
            Size("S=6 L=9 M=4", False, lambda: efron.best_cycles(sides=6, labels=9, dice=4)),
        ],
    ),
    "efron.search_all": (
        lambda: efron.search_all(sides=3, labels=4, dice=3),
        [
            Size("S=6 L=7 M=4", True, lambda: efron.search_all(sides=6, labels=7, dice=4)),
            Size("S=6 L=8 M=3", False, lambda: efron.search_all(sides=6, labels=8, dice=3)),
            Size("S=6 L=8 M=4", False, lambda: efron.search_all(sides=6, labels=8, dice=4)),
            Size("S=6 L=9 M=3", False, lambda: efron.search_all(sides=6, labels=9, dice=3)),
        ],
    ),
    "efron.max_sum_cycles": (
        lambda: efron.max_sum_cycles(*_graph(4, 3), dice=3),
        [
            _small(_on_graph(efron.max_sum_cycles, 8, 6, 4)),
            _on_graph(efron.max_sum_cycles, 8, 6, 5),
            _on_graph(efron.max_sum_cycles, 7, 6, 8),
            _on_graph(efron.max_sum_cycles, 9, 6, 5),
        ],
    ),
    "efron.search_log": (
        lambda: efron.search_log(*_graph(4, 3), dice=3),
        [
            _on_graph(efron.search_log, 5, 4, 4),
            _small(_on_graph(efron.search_log, 6, 4, 4)),
            _on_graph(efron.search_log, 6, 5, 3),
            _on_graph(efron.search_log, 6, 5, 4),
        ],
    ),
    "efron.reference.paper_max_sum_walks": (
        lambda: reference.paper_max_sum_walks(*_graph(4, 3), dice=3),
        [
            _small(_on_graph(reference.paper_max_sum_walks, 5, 4, 4)),
            _small(_on_graph(reference.paper_max_sum_walks, 6, 4, 3)),
            _on_graph(reference.paper_max_sum_walks, 6, 5, 3),
            _on_graph(reference.paper_max_sum_walks, 6, 4, 6),
        ],
    ),
    "efron.reference.exact_win_probabilities": (
        lambda: reference.exact_win_probabilities(_dice(3, 3)),
        [
            Size("L=5 S=3 (35 dice)", False, lambda: reference.exact_win_probabilities(_dice(5, 3))),
            Size("L=6 S=3 (56 dice)", True, lambda: reference.exact_win_probabilities(_dice(6, 3))),
            Size("L=6 S=4 (126 dice)", False, lambda: reference.exact_win_probabilities(_dice(6, 4))),
            Size("L=7 S=4 (210 dice)", False, lambda: reference.exact_win_probabilities(_dice(7, 4))),
        ],
    ),
    "efron.maxplus_product": (
        _maxplus(10),
        [
            Size("400 x 400 by 400 x 400", False, _maxplus(400)),
            Size("600 x 600 by 600 x 600", True, _maxplus(600)),
            Size("1200 x 1200 by 1200 x 1200", False, _maxplus(1200)),
        ],
    ),
    "efron.num_unique_dice_closed_form": (
        lambda: efron.num_unique_dice_closed_form(sides=6, labels=7),
        [
            Size(
                "L=3 x 10^5 S=3 x 10^4",
                True,
                lambda: efron.num_unique_dice_closed_form(sides=30_000, labels=300_000),
            ),
            Size(
                "L=10^6 S=10^5", False, lambda: efron.num_unique_dice_closed_form(sides=10**5, labels=10**6)
            ),
            Size(
                "L=3 x 10^6 S=3 x 10^5",
                False,
                lambda: efron.num_unique_dice_closed_form(sides=3 * 10**5, labels=3 * 10**6),
            ),
        ],
    ),
    "efron.die_faces": (
        lambda: efron.die_faces([1, 2]),
        [
            Size("10^7 faces", True, lambda: efron.die_faces([2_500_000] * 4)),
            Size("3 x 10^7 faces", False, lambda: efron.die_faces([7_500_000] * 4)),
        ],
    ),
    # Pig
    "pig.solve_best_response": (
        _pig(pig.solve_best_response, _holds(20, 30)),
        [
            Size("goal 300", True, _pig(pig.solve_best_response, _holds(20, 300))),
            Size("goal 400", False, _pig(pig.solve_best_response, _holds(20, 400))),
            Size("goal 800", False, _pig(pig.solve_best_response, _holds(20, 800))),
        ],
    ),
    "pig.win_probability": (
        _pig(pig.win_probability, _holds(20, 30), _holds(25, 30)),
        [
            Size("goal 200", False, _pig(pig.win_probability, _holds(20, 200), _holds(25, 200))),
            Size("goal 300", True, _pig(pig.win_probability, _holds(20, 300), _holds(25, 300))),
            Size("goal 400", False, _pig(pig.win_probability, _holds(20, 400), _holds(25, 400))),
            Size("goal 800", False, _pig(pig.win_probability, _holds(20, 800), _holds(25, 800))),
        ],
    ),
    "pig.solve_full_best_response": (
        _pig(pig.solve_full_best_response, _holds(20, 30)),
        [
            Size("goal 100", True, _pig(pig.solve_full_best_response, _holds(20, 100))),
            Size("goal 200", False, _pig(pig.solve_full_best_response, _holds(20, 200))),
            Size("goal 300", False, _pig(pig.solve_full_best_response, _holds(20, 300))),
        ],
    ),
    "pig.solve_sequential": (
        _pig(pig.solve_sequential, 20),
        [
            Size("goal 100", True, _pig(pig.solve_sequential, 100)),
            Size("goal 200", False, _pig(pig.solve_sequential, 200)),
            Size("goal 300", False, _pig(pig.solve_sequential, 300)),
        ],
    ),
    "pig.reference.paper_value_iteration": (
        _pig(pig_reference.paper_value_iteration, _holds(20, 30)),
        [
            Size("goal 50", False, _pig(pig_reference.paper_value_iteration, _holds(20, 50))),
            Size("goal 70", True, _pig(pig_reference.paper_value_iteration, _holds(20, 70))),
            Size("goal 100", False, _pig(pig_reference.paper_value_iteration, _holds(20, 100))),
            Size("goal 200", False, _pig(pig_reference.paper_value_iteration, _holds(20, 200))),
        ],
    ),
    "pig.reference.exact_best_response": (
        _pig(pig_reference.exact_best_response, _holds(5, 5)),
        [
            Size("goal 10", True, _pig(pig_reference.exact_best_response, _holds(5, 10))),
            Size("goal 20", False, _pig(pig_reference.exact_best_response, _holds(5, 20))),
            Size("goal 30", False, _pig(pig_reference.exact_best_response, _holds(5, 30))),
        ],
    ),
    "pig.reference.exact_best_response_3p": (
        _pig(pig_reference.exact_best_response_3p, _holds(2, 3), _holds(2, 3)),
        [
            Size("goal 4", True, _pig(pig_reference.exact_best_response_3p, _holds(2, 4), _holds(3, 4))),
            Size("goal 6", False, _pig(pig_reference.exact_best_response_3p, _holds(3, 6), _holds(4, 6))),
            Size("goal 8", False, _pig(pig_reference.exact_best_response_3p, _holds(3, 8), _holds(4, 8))),
        ],
    ),
    "pig.hold_table": (
        _pig(pig.hold_table, 30),
        [
            Size("goal 2500", True, _pig(pig.hold_table, 2500)),
            Size("goal 3000", False, _pig(pig.hold_table, 3000)),
            Size("goal 4000", False, _pig(pig.hold_table, 4000)),
            Size("goal 8000", False, _pig(pig.hold_table, 8000)),
        ],
    ),
    "pig.hold_distribution": (
        _pig(pig.hold_distribution, 10),
        [
            Size("k=600", False, _pig(pig.hold_distribution, 600)),
            Size("k=1000", True, _pig(pig.hold_distribution, 1000)),
            Size("k=5000", False, _pig(pig.hold_distribution, 5000)),
        ],
    ),
    "pig.stage_game": (
        _stage(10),
        [
            Size("goal 1000, state (0, 0)", False, _stage(1000)),
            Size("goal 1500, state (0, 0)", True, _stage(1500)),
            Size("goal 3000, state (0, 0)", False, _stage(3000)),
        ],
    ),
    "pig.reference.exact_stage_game": (
        lambda: pig_reference.exact_stage_game(_pig_values(5), 0, 0),
        [
            _small(_exact_stage(pig_reference.exact_stage_game, 30)),
            _exact_stage(pig_reference.exact_stage_game, 100),
        ],
    ),
    "pig.reference.exact_pure_bounds": (
        lambda: pig_reference.exact_pure_bounds(_pig_values(5), 0, 0),
        [
            _small(_exact_stage(pig_reference.exact_pure_bounds, 30)),
            _exact_stage(pig_reference.exact_pure_bounds, 100),
        ],
    ),
    # absorbing Markov chains and Cosmic Wimpout
    "markov.AbsorbingChain": (
        _chain(3, False),
        [
            Size("30 states, dense rows", True, _chain(30, True)),
            Size("40 states, a random walk", True, _chain(40, False)),
            Size("70 states, a random walk", False, _chain(70, False)),
            Size("50 states, dense rows", False, _chain(50, True)),
            Size("100 states, a random walk", False, _chain(100, False)),
        ],
    ),
    "markov.AbsorbingChain.simulate": (
        _runs(5, 10),
        [
            Size("20 states, 2 x 10^4 runs", True, _runs(20, 2 * 10**4)),
            Size("5 states, 10^5 runs", False, _runs(5, 10**5)),
            Size("20 states, 10^5 runs", False, _runs(20, 10**5)),
            Size("5 states, 10^6 runs", False, _runs(5, 10**6)),
        ],
    ),
    "wimpout.simulate_turns": (
        lambda: wimpout.simulate_turns(wimpout.Rules(), 10, seed=1),
        [
            Size("2000 turns", True, lambda: wimpout.simulate_turns(wimpout.Rules(), 2000, seed=1)),
            Size("20000 turns", False, lambda: wimpout.simulate_turns(wimpout.Rules(), 20_000, seed=1)),
        ],
    ),
}


def measure(call: Callable[[], object], repeat: int, setup: Callable[[], object] | None = None):
    """``(estimated seconds, median measured CPU seconds)`` of ``call``, after ``setup`` (untimed)."""
    if setup is not None:
        setup()
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
            estimate, measured = measure(size.call, repeat if size.small else 1, size.setup)
            yield name, size, estimate, measured


def _refused(call) -> None:
    """Run ``call``; it must raise ``ValueError``."""
    try:
        call()
    except ValueError:
        return
    raise AssertionError("not refused")


def _refusals():
    """Calls that must answer at once, whatever their size: ``(label, call)``."""

    def beyond_the_budget():
        hours = os.environ.get("DICELAB_MAX_HOURS")
        os.environ["DICELAB_MAX_HOURS"] = "0.0001"
        try:
            for call in (
                lambda: wimpout.solve_race(500),
                lambda: wimpout_reference.exact_race(200),
            ):
                _refused(call)
        finally:
            if hours is None:
                del os.environ["DICELAB_MAX_HOURS"]
            else:
                os.environ["DICELAB_MAX_HOURS"] = hours

    def too_long():
        for text in ["9" * 5000, "1e10000000", "1e-10000000", "1" + "0" * 4400 + "/3"]:
            for call in (
                lambda t=text: exact.to_fraction(t, "x"),
                lambda t=text: claims.printed_number(t.partition("/")[0]),
                lambda t=text: markov.AbsorbingChain([[t, 0], [0, 1]]),
            ):
                _refused(call)

    return [
        (
            "efron.num_unique_dice(sides=3, labels=10**9), the closed form",
            lambda: efron.num_unique_dice(sides=3, labels=10**9),
        ),
        ("numbers too long to read, refused", too_long),
        ("races beyond the budget, refused", beyond_the_budget),
    ]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--small", action="store_true", help="only the calibrated small sizes")
    args = parser.parse_args(argv)
    print(f"{'estimate':36s} {'size':34s} {'estimated':>10s} {'measured':>10s} {'ratio':>6s}")
    worst, failed = 1.0, []
    for name, size, estimate, measured in calibrate(args.small):
        ratio = measured / estimate
        for _attempt in range(2 if size.small else 0):  # a shared machine may slow one median down
            if 1 / 3 <= ratio <= 3:
                break
            estimate, measured = measure(size.call, 3, size.setup)
            ratio = measured / estimate
        worst = max(worst, ratio, 1 / ratio)
        mark = "" if 1 / 3 <= ratio <= 3 else "  (beyond a factor of 3)"
        if size.small and (mark or measured < 0.02):
            failed.append(
                f"{name}, {size.label}: estimated {estimate:.3g} s, measured {measured:.3g} s"
                + (" (too short to calibrate on)" if measured < 0.02 else "")
            )
        print(f"{name:36s} {size.label:34s} {estimate:9.3g}s {measured:9.3g}s {ratio:6.2f}{mark}", flush=True)
    print(f"largest factor between estimate and measured cost: {worst:.2f}")
    print("\nanswered at once (wall time, at most 1 s):")
    wimpout.solve_race(20)  # the turn's tables, built once
    for label, call in _refusals():
        t0 = time.perf_counter()
        call()
        seconds = time.perf_counter() - t0
        print(f"  {label:52s} {seconds:7.3f} s")
        if seconds >= 1:
            failed.append(f"{label}: {seconds:.2f} s")
    if failed:
        print("\nout of bounds:\n  " + "\n  ".join(failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
