"""The one-time numba compile of everything the chapters call, from an empty cache.

    python benchmarks/compile.py              # total, by package and the slowest kernels
    python benchmarks/compile.py --top 30     # more kernels
    python benchmarks/compile.py --warm       # compile into numba's own cache (a warm-up), print nothing

A fresh process with ``NUMBA_CACHE_DIR`` pointed at an empty folder makes the chapters' calls
on small inputs (the same kernels, the same argument types; the computing itself takes well
under a second) and records numba's compile events: the CPU time of each kernel's compile
(callees included), the CPU time of each package's calls, and of the whole run with imports.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile

CHILD = r"""
import json, time
from numba.core import event

records = []


class Listener(event.Listener):
    def on_start(self, ev):
        self.t0 = getattr(self, "t0", {})
        self.t0[id(ev.data["dispatcher"]), str(ev.data["args"])] = time.process_time()

    def on_end(self, ev):
        key = id(ev.data["dispatcher"]), str(ev.data["args"])
        f = ev.data["dispatcher"].py_func
        records.append((f.__module__ + "." + f.__qualname__, time.process_time() - self.t0[key]))


t0, c0 = time.perf_counter(), time.process_time()
listener = Listener()
event.register("numba:compile", listener)
import numpy as np
from dicelab import badg, efron, pig, wimpout
from dicelab.pig import reference

tasks = {
    "efron": [
        lambda: efron.best_cycles(sides=3, labels=5, dice=3),
        lambda: efron.search_all(sides=4, labels=6, dice=3),
        lambda: efron.count_cycles(sides=4, labels=6, dice=3),
        lambda: efron.closed_walks([[0, 1, 0], [0, 0, 1], [1, 0, 0]], dice=3),
        lambda: efron.max_sum_cycles(
            [[0, 1, 1], [1, 0, 2], [3, 1, 0]], [[0, 1, 1], [1, 0, 1], [1, 1, 0]], dice=3
        ),
        lambda: efron.maxplus_product([[0, 1], [2, 3]], [[1, 0], [0, 1]]),
    ],
    "badg": [
        lambda: badg.solve((6, 8)).policy_statistics(),
        lambda: badg.evaluate(badg.heuristic_policy(), (6, 8)),
        lambda: badg.solve_to_win((6, 8), target=3).differences(),
        lambda: badg.points_distribution(badg.solve((6, 8))),
    ],
    "pig": [
        lambda: pig.solve_best_response(pig.hold_at(3, 6)),
        lambda: pig.solve_best_response_mixed(np.full((6, 6, 6), 1 / 6)),
        lambda: pig.solve_full_best_response(pig.hold_at(3, 6)),
        lambda: pig.win_probability(pig.hold_at(3, 6), pig.hold_at(2, 6)),
        lambda: pig.solve_best_response_3p(pig.hold_at(3, 6), pig.hold_at(2, 6)),
        lambda: pig.symmetric_value_iteration(6, sweeps=4),
        lambda: pig.solve_sequential(6),
        lambda: pig.solve_equilibrium(6),
        lambda: pig.solve_svima(6),
        lambda: pig.stage_game(pig.solve_equilibrium(6).values, 0, 0),
        lambda: pig.stage_game_value([[0.5, 0.9], [0.8, 0.4]], [[0.0, 0.0], [0.0, 0.0]]),
        lambda: reference.paper_value_iteration(pig.hold_at(3, 6)),
    ],
    "wimpout": [
        lambda: wimpout.solve_turn(),
        lambda: wimpout.simulate_turns(wimpout.Rules(), 100, seed=1),
        lambda: wimpout.simulate_race(wimpout.solve_race(20), 100, seed=1),
        lambda: wimpout.for_points_loss(wimpout.solve_race(20)),
        lambda: wimpout.solve_race(20, method="plain"),
    ],
}
wall = {}
for package, calls in tasks.items():
    t = time.process_time()
    for call in calls:
        call()
    wall[package] = time.process_time() - t
total, cpu = time.perf_counter() - t0, time.process_time() - c0
print(json.dumps({"records": records, "wall": wall, "total": total, "cpu": cpu}))
"""


def cold_compile(warm: bool = False) -> dict:
    """Run the child in a fresh process with an empty numba cache (``warm``: numba's own cache,
    which it fills); its records."""
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ) if warm else dict(os.environ, NUMBA_CACHE_DIR=cache)
        out = subprocess.run([sys.executable, "-c", CHILD], env=env, capture_output=True, text=True)
    if out.returncode:
        raise RuntimeError(out.stderr[-3000:])
    return json.loads(out.stdout.strip().splitlines()[-1])


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--top", type=int, default=15, help="how many of the slowest kernels to list")
    parser.add_argument("--warm", action="store_true", help="fill numba's own cache instead, print nothing")
    args = parser.parse_args(argv)
    if args.warm:
        cold_compile(warm=True)
        return 0
    res = cold_compile()
    compiled = {}
    for name, seconds in res["records"]:  # nested compiles: a caller's time includes its callees'
        compiled[name] = compiled.get(name, 0.0) + seconds
    print(f"whole run from an empty cache: {res['cpu']:.1f} s CPU, {res['total']:.1f} s wall")
    for package, seconds in res["wall"].items():  # CPU seconds
        print(f"  {package}: {seconds:.1f} s")
    print(f"\n{len(res['records'])} compiles; the slowest (callees included):")
    for name, seconds in sorted(compiled.items(), key=lambda kv: -kv[1])[: args.top]:
        print(f"  {seconds:6.2f} s  {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
