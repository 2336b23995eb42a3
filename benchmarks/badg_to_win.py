"""Timing of b.a.d.g. played to win: the win-value dynamic program and the forward pass.

    python benchmarks/badg_to_win.py            # about two minutes on two shared cores
    python benchmarks/badg_to_win.py --repeat 1

Reports medians of repeated runs (CPU time, so other programs on a shared machine do not
count, and wall time) of :func:`dicelab.badg.solve_to_win` on the standard game for one
target (afresh: the game's table of targets solved), of every target from 0 to 20 read from
that one table against each target solved alone (the kernel on its own utility, as before the
table; the values compared bit for bit), and of the forward pass (distribution, differing
decisions; and the expected-points policy's, :func:`~dicelab.badg.points_distribution`); then,
on small games, the ratio against the straightforward method -- every ordered roll, every
non-empty subset of the dice, every points total so far, in floats -- with both giving the same
values; and for several targets the table: ``P(bad <= t)`` under each policy, the expected bad
points of each, and how many decisions ``(state, points so far, roll)`` differ.
"""

from __future__ import annotations

import argparse
import itertools
import math
import sys

import numpy as np
from _timing import timed_cpu

from dicelab import badg
from dicelab.badg import _win_kernels, to_win
from dicelab.badg._common import _active
from dicelab.badg.state import Game


def naive_win_values(dice, target: int) -> dict:
    """``W(S, x)`` by every ordered roll and every non-empty subset, floats: the straightforward method."""
    X = badg.max_points(dice)
    W = {}
    for state in badg.states(dice):
        n = len(state)
        subsets = [sub for k in range(1, n + 1) for sub in itertools.combinations(range(n), k)]
        lefts = [tuple(state[p] for p in range(n) if p not in sub) for sub in subsets]
        for x in range(X - sum(s - 1 for s in state) + 1):
            if n == 0:
                W[state, x] = float(x <= target)
                continue
            total = 0.0
            for roll in itertools.product(*(range(1, s + 1) for s in state)):
                total += max(
                    W[left, x + sum(state[p] - roll[p] for p in sub)]
                    for sub, left in zip(subsets, lefts, strict=True)
                )
            W[state, x] = total / math.prod(state)
    return W


def naive_steps(dice) -> float:
    """Work of the straightforward method: over all states and points so far, ordered rolls x subsets."""
    X = badg.max_points(dice)
    return float(
        sum(
            math.prod(s) * (2 ** len(s) - 1) * (X - sum(d - 1 for d in s) + 1) for s in badg.states(dice) if s
        )
    )


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs per timing (median reported)")
    args = parser.parse_args(argv)
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")

    badg.solve_to_win((6, 6, 8), target=4).differences()  # compile the kernels
    badg.solve()

    target = 8

    def afresh(t):
        to_win._clear_targets()
        return badg.solve_to_win(target=t)

    cpu, wall, win = timed_cpu(lambda: afresh(target), args.repeat)
    print(
        f"solve_to_win(target={target}), standard game, afresh: median {cpu:.2f} s CPU, {wall:.2f} s wall "
        f"(P(bad <= {target}) = {win.value:.6f}; the table of targets up to "
        f"{to_win._TARGETS[win.dice].top}; solve() for the ties remembered)"
    )
    cpu_s, wall_s, _ = timed_cpu(lambda: badg.solve(), args.repeat)
    print(f"  solve() alone: median {cpu_s:.2f} s CPU, {wall_s:.2f} s wall")

    game, expected = Game.of(badg.STANDARD), badg.solve()
    targets = range(21)

    def alone():  # each target solved on its own: the kernel on its utility
        out = []
        for t in targets:
            u = badg.threshold_utility(t)
            out.append(
                _win_kernels.win_values(expected.tables, np.array([float(v) for v in u]), _active(game, u))
            )
        return out

    def table():
        to_win._clear_targets()
        return [badg.solve_to_win(target=t).W for t in targets]

    cpu_a, _, ref = timed_cpu(alone, args.repeat)
    cpu_t, _, ours = timed_cpu(table, args.repeat)
    assert all(np.array_equal(a, b, equal_nan=True) for a, b in zip(ref, ours, strict=True))
    print(
        f"targets 0..20, standard game: each solved alone {cpu_a:.2f} s CPU, read from one table of "
        f"targets {cpu_t:.2f} s CPU (median): {cpu_a / cpu_t:.1f}x; the same values, bit for bit"
    )

    cpu, wall, _ = timed_cpu(lambda: badg.solve_to_win(target=target).differences(21), args.repeat)
    print(
        f"forward pass of t={target} (distribution, differences; the values read from the table): "
        f"median {cpu:.2f} s CPU, {wall:.2f} s wall"
    )
    u = [-x - 1e-6 * (x > 8) for x in range(badg.max_points() + 1)]
    win_u = badg.solve_to_win(utility=u)
    cpu, wall, _ = timed_cpu(lambda: win_u.differences(21), args.repeat)
    print(
        f"forward pass of a utility (points, ties to score <= 8): median {cpu:.2f} s CPU, {wall:.2f} s wall"
    )
    cpu, wall, _ = timed_cpu(lambda: badg.points_distribution(expected), args.repeat)
    print(
        f"points_distribution(solve()), the expected-points policy: median {cpu:.2f} s CPU, {wall:.2f} s wall"
    )

    print("\nthe straightforward method (every ordered roll, every subset, every x), floats, same values:")
    for dice in [(6, 6, 8), (6, 6, 8, 10), (6, 6, 6, 8, 10)]:
        t = badg.max_points(dice) // 3
        cpu_n, _, ref = timed_cpu(lambda dice=dice, t=t: naive_win_values(dice, t), 1)
        cpu_f, _, ours = timed_cpu(lambda dice=dice, t=t: badg.solve_to_win(dice, target=t), args.repeat)
        assert max(abs(ours.value_at((s, x)) - v) for (s, x), v in ref.items()) < 1e-12
        print(
            f"  {dice}, t={t}: straightforward {cpu_n:.3f} s, dicelab {cpu_f * 1e3:.2f} ms: "
            f"{cpu_n / cpu_f:.0f}x"
        )

    rate = naive_steps(dice) / cpu_n
    full = naive_steps(badg.STANDARD)
    print(
        f"  standard game by the straightforward method: {full:.2e} roll-subset steps; at {rate:.2e} "
        f"steps/s that is ~{full / rate / 86400 / 365:.1e} years"
    )

    print("\nstandard game: P(bad <= t) and expected bad points of each policy, decisions that differ")
    print("(differ: every state, points so far and roll; per game: expected number met by the win policy)")
    expected = badg.solve()
    p_e = badg.points_distribution(expected).cumsum()
    print(
        f"{'t':>3s} {'P win policy':>13s} {'P exp. policy':>13s} {'1-P win':>9s} {'1-P exp.':>9s} "
        f"{'E win':>8s} {'E exp.':>8s} {'differ':>10s} {'per game':>9s}"
    )
    for t in (4, 6, 8, 10, 12, 15, 20, 25, 30, 35, 40):
        win = badg.solve_to_win(target=t)
        diff = win.differences()
        print(
            f"{t:3d} {win.value:13.9f} {p_e[t]:13.9f} {1 - win.value:9.2e} {1 - p_e[t]:9.2e} "
            f"{win.expected_points:8.4f} "
            f"{expected.expected_points:8.4f} {diff.count:10d} {diff.expected_count:9.4f}",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
