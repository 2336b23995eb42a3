"""Timing of the Cosmic Wimpout race to a target, beside plain value iteration.

    python benchmarks/wimpout_race.py            # targets 100 and 200 against plain sweeps, then 500
    python benchmarks/wimpout_race.py --full     # also plain sweeps at 500 (a few minutes)

``solve_race`` solves the levels ``i + j`` from the top down, iterating each pair ``(i, j)``,
``(j, i)`` alone; the straightforward method (Neller and Presser's plain value iteration)
sweeps every state in index order until no value changes by ``10^-12``. Both run the same
compiled turn, in the same process, after a warm-up that compiles the kernels and builds the
Last Licks tables; medians of repeated runs (one run of the slow ones), each solved afresh.
Each pair of answers is compared. The race without the opening rule, solved next, shares the
interior (both scores above 0) of the first; what playing for points gives up takes two matches
of fixed policies. A match of fixed policies solves each level's two equations as linear ones
(``evaluate_race(method="linear")``); beside it, the same match iterated as the race is
(``method="iterate"``), CPU medians (one run at 500) and the largest difference. Then games
played with dice (:func:`~dicelab.wimpout.simulate_race`): each roll scored by the remembered
scorer, against each roll scored through :func:`~dicelab.wimpout.score` and its argument checks,
the same games. Also printed: the first player's chance with and without the opening rule, and
what the turn played for points gives up.
"""

from __future__ import annotations

import argparse
import sys

import numpy as np
from _timing import timed, timed_cpu

from dicelab import wimpout
from dicelab.wimpout import _common, race


def afresh(target: int):
    """The race solved from nothing, not sharing the interior of an earlier solve."""
    race._clear_interiors()
    return wimpout.solve_race(target)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--full", action="store_true", help="plain sweeps at target 500 too")
    args = parser.parse_args(argv)
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")
    wimpout.solve_race(20)
    wimpout.solve_race(20, method="plain")
    wimpout.for_points_loss(wimpout.solve_race(20))
    wimpout.evaluate_race(wimpout.solve_race(20), method="iterate")
    matches = {}
    for target in (100, 200, 500):
        repeat = args.repeat if target < 500 else 1
        t_levels, sol = timed(lambda t=target: afresh(t), repeat)
        print(
            f"target {target}: levels {t_levels:.2f} s (median of {repeat}), {sol.evaluations} turns solved, "
            f"at most {sol.iterations} sweeps of a level, last change {sol.change:.1e}, "
            f"residual {sol.residual:.1e}"
        )
        if target < 500 or args.full:
            t_plain, plain = timed(lambda t=target: wimpout.solve_race(t, method="plain"), 1)
            gap = np.abs(plain.values - sol.values).max()
            print(
                f"  plain value iteration: {t_plain:.2f} s, {plain.iterations} sweeps, "
                f"{plain.evaluations} turns solved; ratio {t_plain / t_levels:.1f}x; "
                f"largest difference {gap:.1e}"
            )
        t_without, without = timed(lambda t=target: wimpout.solve_race(t, minimum=0), 1)
        t_loss, loss = timed(lambda s=sol: wimpout.for_points_loss(s), 1)
        print(f"  without the opening rule, sharing the interior: {t_without:.2f} s; "
              f"what playing for points gives up (two matches, side by side): {t_loss:.2f} s")
        for method in ("linear", "iterate"):
            cpu, _, match = timed_cpu(
                lambda s=sol, m=method: wimpout.evaluate_race(s, "for points", "optimal", method=m), repeat
            )
            matches[method] = cpu, match
        (cpu_l, lin), (cpu_i, it) = matches["linear"], matches["iterate"]
        gap = max(np.abs(lin.WA - it.WA).max(), np.abs(lin.WB - it.WB).max())
        print(
            f"  the match for points against optimal: levels solved as linear equations {cpu_l:.2f} s CPU, "
            f"iterated to 1e-12 {cpu_i:.2f} s CPU (at most {it.iterations} sweeps of a level): "
            f"{cpu_i / cpu_l:.1f}x; largest difference {gap:.1e}"
        )
        print(
            f"  W(0, 0) = {sol.value:.6f} (opening rule 35), "
            f"{without.value:.6f} (no opening rule); policy irregular at {sol.irregular} "
            f"of {sol.thresholds.size} (score pair, choice)"
        )
        print(
            f"  for points, first mover: {loss.for_points_vs_optimal:.6f} against optimal (gives up "
            f"{loss.against_optimal:.6f}); against for points {loss.for_points_vs_for_points:.6f} "
            f"where optimal gets {loss.optimal_vs_for_points:.6f} (gives up {loss.against_for_points:.6f})"
        )
    small = wimpout.solve_race(50)
    games = 5000
    cpu_r, _, played = timed_cpu(lambda: wimpout.simulate_race(small, games, seed=1), args.repeat)
    remembered = _common.scored
    try:  # each roll through score() and its argument checks, the way the games were played before
        _common.scored = lambda roll, black, rules: wimpout.score(roll, has_black=black, rules=rules)
        cpu_c, _, checked = timed_cpu(lambda: wimpout.simulate_race(small, games, seed=1), args.repeat)
    finally:
        _common.scored = remembered
    assert np.array_equal(played.columns["won"], checked.columns["won"])
    print(
        f"\n{games:,} games to 50 played with dice: rolls scored by the remembered scorer {cpu_r:.2f} s CPU, "
        f"through score() and its checks {cpu_c:.2f} s CPU (median): {cpu_c / cpu_r:.1f}x; the same games"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
