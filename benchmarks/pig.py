"""Timing of the simultaneous-Pig solvers, each beside the straightforward method it replaces.

    python benchmarks/pig.py                 # about two minutes on two shared cores
    python benchmarks/pig.py --full-grid     # also time the straightforward 11 x 11 grid (minutes)

Medians of repeated runs for dicelab's solvers; the straightforward methods run once (they
take seconds). Every pair is run in the same process, its ratio printed, and its answers
compared. The straightforward methods, defined here:

* the paper's value iteration (Algorithm 0.1) for a best response, against one reverse sweep;
* value iteration summing every outcome cell ``P(x) P(b) p(i + x, j + b)`` for every hold value,
  against averaging the opponent's outcomes once per state (plain and symmetric iteration);
* the three-player best response rebuilding A's values after the turn in every state, against
  two running averages;
* the equilibrium with an LP (HiGHS) at every Newton step of every state, against closed forms
  on the supports and the symmetry ``p(j, i) = 1 - p(i, j)`` (and the equilibrium at goal 200
  alone, with the growth of its time from goal 100); and SVIMA with numpy stage games.
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np
from _timing import timed
from numba import njit

from dicelab import pig
from dicelab.core import games
from dicelab.pig import reference

ROWS = []


def report(what, t_new, t_old, same):
    """Print and keep one line of the summary: new time, straightforward time, ratio, agreement."""
    ROWS.append((what, t_new, t_old, same))
    print(f"{what}: {t_new:.3f} s against {t_old:.3f} s ({t_old / t_new:.0f}x); {same}")


# --------------------------------------------------------------------------- straightforward methods


@njit(cache=True)
def cell_sweep(goal, T, opp, W, pol):
    """One Gauss-Seidel sweep of value iteration, every outcome cell of every hold value."""
    delta = 0.0
    for i in range(goal):
        for j in range(goal):
            kb = opp[j, i]
            best, best_k = -1.0, 1
            for k in range(1, goal - i + 1):
                q = 0.0
                for x in range(k + 6):
                    for b in range(kb + 6):
                        if T[k, x] > 0 and T[kb, b] > 0:
                            q += T[k, x] * T[kb, b] * W[i + x, j + b]
                if q > best:
                    best, best_k = q, k
            delta = max(delta, abs(best - W[i, j]))
            W[i, j], pol[i, j] = best, best_k
    return delta


def cell_value_iteration(opponent, tol=1e-12):
    goal, T = opponent.goal, pig.hold_table(opponent.goal)
    W, pol, opp = reference_padded(goal), np.zeros((goal, goal), np.int64), opponent.two_player()
    while cell_sweep(goal, T, opp, W, pol) >= tol:
        pass
    return W[:goal, :goal]


def cell_symmetric_iteration(sweeps, start=25, goal=pig.GOAL):
    T, W, pol = pig.hold_table(goal), reference_padded(goal), pig.hold_at(start, goal).two_player()
    history = [pol.copy()]
    for _ in range(sweeps):
        cell_sweep(goal, T, pol, W, pol)
        history.append(pol.copy())
    return np.array(history)


def reference_padded(goal, tie=0.5):
    """A's values on the padded grid: 1 (A alone), ``tie`` (both) or 0 (B alone) past the goal."""
    n = 2 * goal + 6
    W = np.zeros((n, n))
    W[goal:, :goal], W[goal:, goal:] = 1.0, tie
    return W


@njit(cache=True)
def rebuild_3p(goal, T, o1, o2):
    """Three players, A's values after the turn rebuilt from B1's 7 outcomes in every state."""
    win = np.zeros((goal, goal, goal))
    agg = np.zeros((goal, goal, goal))  # agg[i, j1, j2] = sum_b2 P(b2) p(i, j1, j2 + b2)
    G = np.zeros(goal + 6)
    for i in range(goal - 1, -1, -1):
        for j1 in range(goal - 1, -1, -1):
            k1 = o1[j1]
            for j2 in range(goal - 1, -1, -1):
                k2 = o2[j2]
                q1, q2 = 0.0, 0.0  # the chances that each opponent reaches the goal
                for r in range(6):
                    q1 += T[k1, k1 + r] if j1 + k1 + r >= goal else 0.0
                    q2 += T[k2, k2 + r] if j2 + k2 + r >= goal else 0.0
                w_goal = (1 - q1) * (1 - q2) + (q1 * (1 - q2) + q2 * (1 - q1)) / 2 + q1 * q2 / 3
                for x in range(1, goal - i + 6):
                    G[x] = w_goal
                    if i + x < goal:
                        G[x] = 0.0
                        for b1 in range(k1 + 6):
                            if T[k1, b1] > 0 and j1 + b1 < goal:
                                G[x] += T[k1, b1] * agg[i + x, j1 + b1, j2]
                g0 = 0.0
                for b1 in range(k1 + 6):
                    if T[k1, b1] > 0 and j1 + b1 < goal:
                        if b1 > 0:
                            g0 += T[k1, b1] * agg[i, j1 + b1, j2]
                        else:
                            for b2 in range(1, k2 + 6):
                                if T[k2, b2] > 0 and j2 + b2 < goal:
                                    g0 += T[k1, 0] * T[k2, b2] * win[i, j1, j2 + b2]
                best = -1.0
                for k in range(1, goal - i + 1):
                    a = T[k, 0] * g0
                    for r in range(6):
                        a += T[k, k + r] * G[k + r]
                    best = max(best, a / (1 - T[k, 0] * T[k1, 0] * T[k2, 0]))
                win[i, j1, j2] = best
            for j2 in range(goal):
                k2 = o2[j2]
                agg[i, j1, j2] = 0.0
                for b2 in range(k2 + 6):
                    if T[k2, b2] > 0 and j2 + b2 < goal:
                        agg[i, j1, j2] += T[k2, b2] * win[i, j1, j2 + b2]
    return win


def newton_stage_games(goal, stage):
    """Every state in reverse order, its fixed point by safeguarded Newton steps, ``stage(M)``
    returning ``(value, x, y)``; no symmetry used. Returns values and both strategies."""
    values, row, col = np.zeros((goal, goal)), np.zeros((goal,) * 3), np.zeros((goal,) * 3)
    for i in range(goal - 1, -1, -1):
        for j in range(goal - 1, -1, -1):
            A, C = pig.stage_game(values, i, j)
            lo, hi, v = 0.0, 1.0, 0.5
            for _ in range(200):
                value, x, y = stage(A + C * v)
                lo, hi = (max(lo, v), hi) if value > v else (lo, min(hi, v))
                new = (x @ A @ y) / (1 - x @ C @ y)
                new = new if lo <= new <= hi else 0.5 * (lo + hi)
                residual, v = min(abs(new - v), hi - lo), new
                if residual < 1e-15:
                    break
            values[i, j], row[i, j, : x.size], col[i, j, : y.size] = v, x, y
    return values, row, col


def lp_stage(M):
    sol = games.solve_matrix_game(M)
    return sol.value, sol.row, sol.col


def pure_leader_stage(M):
    kb = int(M.max(axis=0).argmin())
    ka = int(M[:, kb].argmax())
    return float(M[ka, kb]), np.eye(M.shape[0])[ka], np.eye(M.shape[1])[kb]


# --------------------------------------------------------------------------- the comparisons


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--full-grid", action="store_true", help="time the straightforward 11 x 11 grid too")
    args = parser.parse_args(argv)
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")
    few = max(1, min(3, args.repeat))

    t0 = time.perf_counter()
    h6 = pig.hold_at(3, 6)
    for call in (
        lambda: pig.solve_best_response(h6),
        lambda: pig.solve_best_response_3p(h6, h6),
        lambda: rebuild_3p(6, pig.hold_table(6), h6.table, h6.table),
        lambda: pig.solve_sequential(6),
        lambda: reference.paper_value_iteration(h6),
        lambda: cell_value_iteration(h6),
        lambda: pig.symmetric_value_iteration(6, sweeps=4),
        lambda: pig.solve_equilibrium(6),
        lambda: pig.solve_svima(6),
    ):
        call()
    print(f"first calls (numba compile or cache load): {time.perf_counter() - t0:.1f} s\n")

    h25 = pig.hold_at(25)
    t_br, br = timed(lambda: pig.solve_best_response(h25), args.repeat)
    t_vi, vi = timed(lambda: reference.paper_value_iteration(h25, tol=1e-12), few)
    t_cell, cell = timed(lambda: cell_value_iteration(h25), 1)
    print(
        f"A's best response to hold-at-25 wins {br.value:.7f}; value iteration takes {vi.iterations} sweeps"
    )
    report(
        "best response: one reverse sweep / value iteration (Alg. 0.1)",
        t_br,
        t_vi,
        f"values within {np.abs(br.values - vi.values).max():.0e} (its tol 1e-12)",
    )
    report(
        "value iteration (Alg. 0.1): averaged opponent / every outcome cell",
        t_vi,
        t_cell,
        f"values within {np.abs(vi.values - cell).max():.0e}",
    )

    t_sym, sym = timed(lambda: pig.symmetric_value_iteration(sweeps=60), few)
    t_symc, symc = timed(lambda: cell_symmetric_iteration(60), 1)
    same = np.array_equal(sym.policy_history, symc)
    print(f"symmetric value iteration: period {sym.period}, {int(sym.cycling.sum())} cycling states")
    report(
        "symmetric value iteration, 60 sweeps: averaged / every cell",
        t_sym,
        t_symc,
        f"same 61 policies: {same}",
    )

    h = {n: pig.hold_at(n) for n in range(20, 31)}
    t_3p, w = timed(lambda: pig.solve_best_response_3p(h[25], h[25]), few)
    T = pig.hold_table()
    t_3pr, wr = timed(lambda: rebuild_3p(pig.GOAL, T, h[25].table, h[25].table), 1)
    print(f"three players against two hold-at-25: A wins {w.value:.6f}")
    report(
        "three-player best response: running averages / rebuilt per state",
        t_3p,
        t_3pr,
        f"values within {np.abs(w.values - wr).max():.0e}",
    )

    t0 = time.perf_counter()
    grid = {}
    for a in range(20, 31):
        for b in range(a, 31):  # the grid is symmetric in the two opponents
            grid[a, b] = grid[b, a] = pig.solve_best_response_3p(h[a], h[b]).value
    t_grid = time.perf_counter() - t0
    if args.full_grid:
        t0 = time.perf_counter()
        slow = {
            (a, b): rebuild_3p(pig.GOAL, T, h[a].table, h[b].table)[0, 0, 0]
            for a in range(20, 31)
            for b in range(a, 31)
        }
        t_slow, how = time.perf_counter() - t0, "measured"
        agree = max(abs(grid[k] - v) for k, v in slow.items())
    else:
        t_slow, how, agree = 66 * t_3pr, "66 x the single solve above", float("nan")
    report(f"11 x 11 grid, 66 solves (straightforward: {how})", t_grid, t_slow, f"values within {agree:.0e}")

    t_eq, eq = timed(lambda: pig.solve_equilibrium(), few)
    t_lp, (v_lp, x_lp, y_lp) = timed(lambda: newton_stage_games(pig.GOAL, lp_stage), 1)
    mixed_lp = int(((x_lp.max(axis=2) < 1 - 1e-12) | (y_lp.max(axis=2) < 1 - 1e-12)).sum())
    print(
        f"equilibrium: {int((~eq.pure).sum())} mixed states, |p + p^T - 1| <= "
        f"{np.abs(eq.values + eq.values.T - 1).max():.1e}, exploitability {eq.exploitability:.1e}\n"
        f"  with an LP per Newton step: {mixed_lp} mixed states, |p + p^T - 1| <= "
        f"{np.abs(v_lp + v_lp.T - 1).max():.1e}, exploitability {pig.exploitability(x_lp, y_lp):.1e}"
    )
    report(
        "solve_equilibrium(): closed forms + symmetry / an LP per Newton step",
        t_eq,
        t_lp,
        f"values within {np.abs(eq.values - v_lp).max():.0e}",
    )

    t_eq200, eq200 = timed(lambda: pig.solve_equilibrium(200), 1)
    print(
        f"solve_equilibrium(200): {t_eq200:.2f} s, {eq200.n_exact} states decided in exact fractions, "
        f"exploitability {eq200.exploitability:.1e}; from goal 100 the time grows as "
        f"goal^{np.log2(t_eq200 / t_eq):.1f}"
    )

    t_sv, sv = timed(lambda: pig.solve_svima(), few)
    t_svn, (v_sv, x_sv, _) = timed(lambda: newton_stage_games(pig.GOAL, pure_leader_stage), 1)
    report(
        "solve_svima(): numba stage games / numpy stage games",
        t_sv,
        t_svn,
        f"values within {np.abs(sv.values - v_sv).max():.0e}, same policy: {np.array_equal(sv.policy, x_sv)}",
    )

    t_seq, seq = timed(lambda: pig.solve_sequential(tol=1e-13), args.repeat)
    t_full, _ = timed(lambda: pig.solve_full_best_response(h25), args.repeat)
    t_fig1, _ = timed(
        lambda: [pig.solve_best_response(pig.hold_at(n)).value for n in range(10, 41)], args.repeat
    )
    print(f"\nsolve_sequential() to 1e-13: median {t_seq:.3f} s (first player wins {seq.value:.10f})")
    print(f"full within-turn best response: median {t_full:.3f} s")
    print(f"Fig. 1 sweep, n = 10..40 (31 best responses): median {t_fig1:.3f} s")

    print("\n| solver | dicelab (s) | straightforward (s) | ratio | agreement |\n|---|---|---|---|---|")
    for what, t_new, t_old, same in ROWS:
        print(f"| {what} | {t_new:.3f} | {t_old:.2f} | {t_old / t_new:.0f}x | {same} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
