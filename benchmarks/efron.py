"""Timing of the nontransitive-dice search against the paper's row-by-row method.

    python benchmarks/efron.py                # the default report (about a minute)
    python benchmarks/efron.py --full-paper   # also the paper's method on the full default run (minutes)

Reports medians of repeated runs (the machines are noisy) and checks that both methods
find the same sets before timing them. Also: cycle counting by closed walks against the
straightforward ``trace(A^M)``, and the largest search, ``search_all(sides=6, labels=9, dice=4)`` (two million
sets), with its peak memory, measured in a fresh process.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time

import numpy as np
from _timing import timed

from dicelab import efron
from dicelab.efron import reference


def paper_run(S: int, L: int, M: int) -> dict:
    """The paper's complete run (unequal case, then every equal value) with its own method."""
    W = efron.wins_matrix(efron.unique_dice(sides=S, labels=L))
    min_wins = efron.strict_min_wins(sides=S)
    out = {}
    for n in [None, *np.unique(W[W >= min_wins]).tolist()]:
        value, walks = reference.paper_max_sum_walks(
            W, efron.allowed_edges(W, min_wins=min_wins, wins=n), dice=M
        )
        out[n] = (value, sorted({min(w[k:] + w[:k] for k in range(M)) for w in walks}))
    return out


def fast_run_indices(S: int, L: int, M: int) -> dict:
    W = efron.wins_matrix(efron.unique_dice(sides=S, labels=L))
    min_wins = efron.strict_min_wins(sides=S)
    out = {}
    for n in [None, *np.unique(W[W >= min_wins]).tolist()]:
        res = efron.max_sum_cycles(W, efron.allowed_edges(W, min_wins=min_wins, wins=n), dice=M)
        out[n] = (res.value, [tuple(c) for c in res.cycles.tolist()])
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="runs per timing (median reported)")
    parser.add_argument(
        "--full-paper", action="store_true", help="also time the paper's method on S=6, L=7, M=4"
    )
    args = parser.parse_args(argv)
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")

    t0 = time.perf_counter()
    efron.max_sum_cycles(np.array([[0, 1], [1, 0]]), np.ones((2, 2), bool), dice=2)
    efron.maxplus_product(np.ones((2, 2), dtype=np.int64), np.ones((2, 2), dtype=np.int64))
    print(f"first call (numba compile, or load from its cache): {time.perf_counter() - t0:.2f} s")

    # 1. the target: the paper's complete default run, all 19 searches, every set listed
    t_fast, results = timed(lambda: efron.search_all(sides=6, labels=7, dice=4), args.repeat)
    counts = {("unequal" if n is None else n): len(s) for n, (v, s) in results.items() if s}
    print(f"\nS=6 L=7 M=4, all 19 searches (sets: {counts})")
    print(f"  dicelab search_all: median {t_fast * 1e3:.0f} ms of {args.repeat} runs")

    # 2. the paper's row-by-row method on a smaller case, same results, same script
    S, L, M = 6, 5, 4
    t_small_fast, fast_small = timed(lambda: fast_run_indices(S, L, M), args.repeat)
    t_small_paper, paper_small = timed(lambda: paper_run(S, L, M), max(1, min(args.repeat, 3)))
    assert fast_small == paper_small, "the two methods disagree"
    n_small = efron.num_unique_dice(sides=S, labels=L)
    print(f"\nS={S} L={L} M={M} (N = {n_small} dice), all searches, identical results:")
    print(
        f"  paper's method {t_small_paper:.2f} s, dicelab {t_small_fast * 1e3:.1f} ms: "
        f"{t_small_paper / t_small_fast:.0f}x faster"
    )
    # at full size: one of the 19 searches (the unequal one) by the paper's method, once
    W = efron.wins_matrix(efron.unique_dice(sides=6, labels=7))
    allowed = efron.allowed_edges(W, min_wins=19)
    t_one, (value, walks) = timed(lambda: reference.paper_max_sum_walks(W, allowed, dice=4), 1)
    assert value == results[None][0] and len(walks) == 4 * len(results[None][1])
    print(
        f"  paper's method at N = 924, unequal search only: {t_one:.1f} s; "
        f"x 19 searches ~ {19 * t_one:.0f} s, "
        f"~{19 * t_one / t_fast:.0f}x dicelab's complete run"
    )

    if args.full_paper:
        t_paper, paper_full = timed(lambda: paper_run(6, 7, 4), 1)
        fast_full = fast_run_indices(6, 7, 4)
        assert paper_full == fast_full, "the two methods disagree on the full run"
        print(f"  paper's method on the full run: {t_paper:.1f} s (one run), {t_paper / t_fast:.0f}x dicelab")

    # 3. counting cycles: one product and a trace against the straightforward trace(A^M)
    A8 = efron.allowed_edges(efron.wins_matrix(efron.unique_dice(sides=6, labels=8)), min_wins=19)
    print(f"\nclosed walks on the {len(A8)} dice of L = 8 (the 0/1 matrix of 'beats'):")
    for M_ in (3, 4):
        t_new, walks = timed(lambda M_=M_: efron.closed_walks(A8, dice=M_), args.repeat)
        F = A8.astype(np.float64)
        t_old, trace = timed(lambda M_=M_, F=F: int(np.trace(np.linalg.matrix_power(F, M_))), args.repeat)
        assert walks == trace
        print(f"  M = {M_}: closed_walks {t_new:.3f} s, trace(A^M) {t_old:.3f} s: {t_old / t_new:.1f}x")

    # 4. the largest search, in a fresh process: its time and the process's peak memory
    child = (
        "import resource, time; from dicelab import efron; efron.search_all(sides=4, labels=6, dice=3); "
        "base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss; t0 = time.perf_counter(); "
        "out = efron.search_all(sides=6, labels=9, dice=4); t = time.perf_counter() - t0; "
        "peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss; "
        "print(t, base / 1024, peak / 1024, sum(len(s) for v, s in out.values()))"
    )
    t9, base_mb, peak_mb, n9 = map(float, subprocess.check_output([sys.executable, "-c", child]).split())
    print(
        f"\nsearch_all(6, 9, 4) in a fresh process: {t9:.2f} s, {int(n9):,} sets (as arrays); "
        f"peak resident memory {peak_mb:.0f} MB ({base_mb:.0f} MB before the search)"
    )

    # 5. growth with the number of labels
    print("\ngrowth with L at S=6, M=4 (all searches):")
    print(f"  {'L':>2} {'N':>6} {'pairs i beats j':>16} {'sets listed':>12} {'time':>9}")
    for L_, rep in [(7, args.repeat), (8, max(1, min(args.repeat, 3))), (9, 1)]:
        t, res = timed(lambda L_=L_: efron.search_all(sides=6, labels=L_, dice=4), rep)
        W = efron.wins_matrix(efron.unique_dice(sides=6, labels=L_))
        n_sets = sum(len(s) for v, s in res.values())
        n_dice = efron.num_unique_dice(sides=6, labels=L_)
        print(f"  {L_:>2} {n_dice:>6} {(W > 18).sum():>16,} {n_sets:>12,} {t:>8.2f}s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
