"""Timing of the Cosmic Wimpout computations (the paper did them by hand and in Maple).

python benchmarks/wimpout.py
"""

from __future__ import annotations

import argparse
import sys

from _timing import timed

from dicelab import wimpout
from dicelab.wimpout.play import _plain_float_iteration


def cold(fn):
    """``fn`` with the per-state roll tables recomputed, as on a first call."""

    def run():
        wimpout.clear_caches()
        return fn()

    return run


def everything():
    dist = wimpout.initial_roll_distribution()  # Table 2 from all 7,776 rolls
    chain = wimpout.markov_chain()  # Table 6 by enumeration, then exact N, B, t
    return dist, chain, wimpout.expected_turn_score()


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args(argv)
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")
    t_dist, _ = timed(wimpout.initial_roll_distribution, args.repeat)
    t_chain, chain = timed(cold(wimpout.markov_chain), args.repeat)
    t_all, _ = timed(cold(everything), args.repeat)
    print(f"Table 2 (7,776 rolls scored): median {t_dist:.3f} s")
    print(f"the chain: Table 6 by enumeration + exact N, B, t: median {t_chain:.3f} s")
    print(f"everything exact (Table 2, chain, N, B, t, expected turn score): median {t_all:.3f} s")
    chain = wimpout.markov_chain()
    t_sim, _ = timed(
        lambda: chain.simulate(1_000_000, seed=1, start=wimpout.ROLL_5), max(1, min(3, args.repeat))
    )
    print(f"10^6 turns sampled from the chain (AbsorbingChain.simulate): median {t_sim:.2f} s")
    t_dice, _ = timed(lambda: wimpout.simulate_turns(wimpout.Rules(), 100_000, seed=1), 1)
    print(f"10^5 turns played with real dice (pure Python): {t_dice:.2f} s")
    t_turn_cold, _ = timed(cold(wimpout.solve_turn), args.repeat)
    t_turn, best = timed(wimpout.solve_turn, args.repeat)
    t_naive, naive = timed(_plain_float_iteration, max(1, min(3, args.repeat)))
    print(
        f"the best turn for points, exact: median {t_turn:.3f} s ({t_turn_cold:.3f} s with the roll tables "
        f"built); plain float iteration to 1,500 points: {t_naive:.2f} s, ratio {t_naive / t_turn:.1f}x; "
        f"values {float(best.value):.10f} and {naive:.10f}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
