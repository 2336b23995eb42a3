"""Timing of the b.a.d.g. solvers against the paper's pre-compute algorithm.

    python benchmarks/badg.py

Reports medians of repeated runs, the one-time numba compile separately (measured in a
fresh process with an empty cache), and the ratio against a direct implementation of
the paper's algorithm (every ordered roll, every non-empty subset) on a small game,
with both giving the same values.
"""

from __future__ import annotations

import argparse
import math
import os
import subprocess
import sys
import tempfile

from _timing import timed

from dicelab import badg
from dicelab.badg import reference


def paper_steps(dice) -> int:
    """Work of the paper's algorithm: over all states, ordered rolls x non-empty subsets."""
    return sum(math.prod(s) * (2 ** len(s) - 1) for s in badg.states(dice) if s)


def cold_compile_seconds() -> float:
    code = (
        "import time; t = time.perf_counter(); from dicelab import badg; "
        "s = badg.solve(); s.policy_statistics(); print(time.perf_counter() - t)"
    )
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        out = subprocess.run(
            [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
        )
    return float(out.stdout.strip())


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="runs per timing (median reported)")
    args = parser.parse_args(argv)
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")

    print(
        "one-time numba compile (fresh process, empty cache, solve + policy pass): "
        f"{cold_compile_seconds():.1f} s"
    )
    badg.solve((6, 6))
    badg.solve().policy_statistics()  # warm

    t_solve, sol = timed(lambda: badg.solve(), args.repeat)
    print(f"\nsolve() standard game: median {t_solve:.3f} s  (expected points {sol.expected_points:.6f})")
    t_stats, _ = timed(lambda: sol.policy_statistics(), args.repeat)
    print(f"policy_statistics(): median {t_stats:.3f} s")
    policy = badg.heuristic_policy()
    t_eval, ev = timed(lambda: badg.evaluate(policy), args.repeat)
    print(
        f"evaluate(heuristic), exact fractions: median {t_eval:.3f} s  "
        f"(expected points {float(ev.expected_points):.6f})"
    )
    t_sim, res = timed(lambda: badg.simulate(policy, 1_000_000, seed=1), max(1, min(3, args.repeat)))
    print(
        f"simulate(heuristic, 10^6 games): median {t_sim:.2f} s  "
        f"(mean {res.mean('points'):.4f} +- {res.stderr('points'):.4f})"
    )

    # the paper's algorithm, literally, on games small enough to finish
    print("\nthe paper's pre-compute algorithm (every ordered roll, every subset), floats, same values:")
    full_steps = paper_steps(badg.STANDARD)
    for dice in [(6, 6, 8, 10), (6, 6, 6, 8, 10), (6, 6, 6, 8, 10, 12)]:
        t_paper, ref = timed(lambda dice=dice: reference.paper_precompute(dice, exact=False), 1)
        t_ours, ours = timed(lambda dice=dice: badg.solve(dice), args.repeat)
        assert max(abs(ours.value_at(s) - v) for s, v in ref.items()) < 1e-9
        steps = paper_steps(dice)
        print(
            f"  {dice}: paper {t_paper:.2f} s ({steps:,} roll-subset steps), dicelab {t_ours * 1e3:.2f} ms: "
            f"{t_paper / t_ours:.0f}x"
        )
    rate = steps / t_paper
    print(
        f"  standard game by the paper's algorithm: {full_steps:.3e} steps; at {rate:.2e} steps/s "
        f"that is ~{full_steps / rate / 86400 / 365:.0f} years against dicelab's {t_solve:.2f} s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
