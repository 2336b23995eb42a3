"""Timing of the simultaneous-Pig solvers against the paper's value iteration.

    python benchmarks/pig.py            # includes the 11 x 11 three-player grid (about 1-2 minutes)
    python benchmarks/pig.py --no-grid

Medians of repeated runs; the paper's value iteration is run once (it takes seconds).
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np
from _timing import timed

from dicelab import pig
from dicelab.pig import reference


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--no-grid", action="store_true", help="skip the 11 x 11 three-player grid")
    args = parser.parse_args(argv)
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")

    t0 = time.perf_counter()
    h6 = pig.hold_at(3, 6)
    pig.best_response(h6)
    pig.best_response_3p(h6, h6)
    pig.sequential_optimal(6)
    reference.paper_value_iteration(h6)
    pig.symmetric_value_iteration(6, sweeps=4)
    print(f"first calls (numba compile or cache load): {time.perf_counter() - t0:.1f} s")

    h25 = pig.hold_at(25)
    t_br, br = timed(lambda: pig.best_response(h25), args.repeat)
    t_vi, vi = timed(lambda: reference.paper_value_iteration(h25, tol=1e-12), 1)
    assert np.abs(br.values - vi.values).max() < 1e-10
    print(
        f"\nbest response to hold-at-25 (one reverse sweep): median {t_br * 1e3:.1f} ms, "
        f"p(0,0) = {br.value:.7f}"
    )
    print(
        f"paper's value iteration (Algorithm 0.1) to 1e-12: {t_vi:.2f} s, {vi.iterations} sweeps: "
        f"{t_vi / t_br:.0f}x slower, same values"
    )
    t_sweep, _ = timed(lambda: [pig.best_response(pig.hold_at(n)).value for n in range(10, 41)], args.repeat)
    print(f"Fig. 1 sweep, n = 10..40 (31 best responses): median {t_sweep:.2f} s")
    t_seq, seq = timed(lambda: pig.sequential_optimal(tol=1e-13), args.repeat)
    print(f"sequential_optimal() to 1e-13: median {t_seq:.3f} s, first player wins {seq.value:.10f}")
    t_full, _ = timed(lambda: pig.full_best_response(h25), args.repeat)
    print(f"full within-turn best response: median {t_full:.3f} s")
    h = {n: pig.hold_at(n) for n in range(20, 31)}
    t_3p, w = timed(lambda: pig.best_response_3p(h[25], h[25]), max(1, min(3, args.repeat)))
    print(f"three-player best response: median {t_3p:.2f} s, p(0,0,0) = {w.value:.6f}")
    t_eq, eq = timed(lambda: pig.equilibrium(), max(1, min(3, args.repeat)))
    print(
        f"equilibrium(): median {t_eq:.2f} s, {eq.n_lp} LPs, {int((~eq.pure).sum())} mixed states, "
        f"value(0,0) = {eq.value:.12f}"
    )
    t_sym, sym = timed(lambda: pig.symmetric_value_iteration(sweeps=60), max(1, min(3, args.repeat)))
    print(
        f"symmetric value iteration, 60 sweeps: median {t_sym:.2f} s (period {sym.period}, "
        f"{int(sym.cycling.sum())} cycling states)"
    )
    t_sv, _ = timed(lambda: pig.svima(), max(1, min(3, args.repeat)))
    print(f"svima(): median {t_sv:.2f} s")
    if not args.no_grid:
        t0 = time.perf_counter()
        grid = {}
        for a in range(20, 31):
            for b in range(a, 31):  # the grid is symmetric in the two opponents
                grid[a, b] = grid[b, a] = pig.best_response_3p(h[a], h[b]).value
        print(f"11 x 11 three-player grid (66 solves, symmetry): {time.perf_counter() - t0:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
