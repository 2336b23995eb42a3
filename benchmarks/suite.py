"""How long the course takes to check and to rebuild: the test tiers, every notebook in full mode,
the numba compile of a first run, and (with ``--clone``) all of it from a fresh clone.

    python benchmarks/suite.py                       # tiers and notebooks in this checkout
    python benchmarks/suite.py --only notebooks --repeat 3 --cells 3
    python benchmarks/suite.py --clone               # a fresh clone: install, make test-fast, make test, make
    python benchmarks/suite.py --clone --ci          # ... and .ci/run (make test, then make test-browser)

Every time is printed twice: wall (what a person waits) and CPU (user + sys of the command and of
every process it waited for, kernels included). On a shared machine the wall time grows with the
load and the CPU time hardly does: compare CPU times between machines, wall times on a quiet one.
With ``--repeat N`` each time is the median of N runs. The notebooks run as ``make`` runs them
(full mode, ``DICELAB_CANONICAL`` unset: figures and ledgers go to a scratch folder, the committed
notebooks are not touched), after a warm-up that fills numba's cache; the numba compile of a
first run, from an empty cache, is reported on its own (``benchmarks/compile.py``).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))


def run(cmd: list[str], cwd: Path, env: dict | None = None, log: Path | None = None):
    """``(wall seconds, CPU seconds, exit code)`` of ``cmd``: the CPU of it and of its waited-for children."""
    out = open(log, "w") if log else subprocess.DEVNULL  # noqa: SIM115 (closed below)
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=out, stderr=subprocess.STDOUT)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t0
    proc.returncode = os.waitstatus_to_exitcode(status)
    if log:
        out.close()
    return wall, usage.ru_utime + usage.ru_stime, proc.returncode


def median(runs: list[tuple[float, float]]) -> tuple[float, float]:
    return statistics.median(w for w, _ in runs), statistics.median(c for _, c in runs)


def show(label: str, wall: float, cpu: float, extra: str = "") -> None:
    print(f"  {label:44s} wall {wall:7.1f} s   CPU {cpu:7.1f} s{extra}", flush=True)


def timed(label: str, cmd: list[str], cwd: Path, repeat: int, env: dict | None = None, logs=None):
    """Run ``cmd`` ``repeat`` times; print and return the median wall and CPU seconds."""
    runs = []
    for k in range(repeat):
        log = logs / f"{label.replace(' ', '_').replace('/', '_')}.{k}.log" if logs else None
        wall, cpu, code = run(cmd, cwd, env, log)
        if code not in (0,):
            print(f"  {label}: exit code {code}" + (f" (log: {log})" if log else ""), flush=True)
        runs.append((wall, cpu))
    wall, cpu = median(runs)
    show(label, wall, cpu, f"   (median of {repeat})" if repeat > 1 else "")
    return wall, cpu


def tiers(root: Path, repeat: int, logs: Path, heavy_repeat: int) -> dict:
    print("test tiers (make):", flush=True)
    out = {}
    for target, n in (("test-fast", repeat), ("test", heavy_repeat)):
        out[target] = timed(f"make {target}", ["make", target], root, n, logs=logs)
    return out


def slowest_cells(nb_path: Path, n: int) -> list[tuple[float, int, str]]:
    """The ``n`` slowest cells of an executed notebook, from nbclient's timing metadata."""
    cells = []
    for i, cell in enumerate(json.loads(nb_path.read_text())["cells"]):
        t = cell.get("metadata", {}).get("execution", {})
        if "iopub.execute_input" in t and "shell.execute_reply" in t:
            start, end = (datetime.fromisoformat(t[k].replace("Z", "+00:00"))
                          for k in ("iopub.execute_input", "shell.execute_reply"))
            first = "".join(cell["source"]).strip().splitlines()[:1]
            cells.append(((end - start).total_seconds(), i, first[0][:60] if first else ""))
    return sorted(cells, reverse=True)[:n]


def notebooks(root: Path, repeat: int, cells: int, logs: Path) -> dict:
    """Every notebook executed in full mode, as ``make`` executes it, into a scratch folder."""
    paths = sorted((root / "notebooks").glob("*.ipynb")) + sorted((root / "solutions").glob("*.ipynb"))
    jupyter = str(Path(sys.executable).with_name("jupyter"))
    subprocess.run([sys.executable, str(root / "benchmarks" / "compile.py"), "--warm"], cwd=root, check=True,
                   stdout=subprocess.DEVNULL)
    print("notebooks in full mode (numba's cache warm):", flush=True)
    out, total = {}, [0.0, 0.0]
    with tempfile.TemporaryDirectory(prefix="dicelab-bench-") as scratch:
        env = os.environ | {"DICELAB_FAST": "0", "DICELAB_OUTPUT_DIR": scratch}
        env.pop("DICELAB_CANONICAL", None)
        for nb in paths:
            cmd = [jupyter, "nbconvert", "--to", "notebook", "--execute", "--output-dir", scratch,
                   "--ExecutePreprocessor.kernel_name=python3", "--ExecutePreprocessor.timeout=3600", str(nb)]
            wall, cpu = timed(f"{nb.parent.name}/{nb.name}", cmd, nb.parent, repeat, env, logs)
            out[nb.name] = (wall, cpu)
            total[0] += wall
            total[1] += cpu
            for seconds, i, first in slowest_cells(Path(scratch) / nb.name, cells):
                print(f"      cell {i:3d}: {seconds:6.1f} s  {first}")
    show("all notebooks (the sum of the medians)", *total)
    return out


def compile_first_run() -> None:
    import compile as numba_compile

    res = numba_compile.cold_compile()
    print("numba compile of a first run (empty cache; benchmarks/compile.py):", flush=True)
    show("every kernel the chapters call", res["total"], res["cpu"])


def clone(ci: bool, repeat: int, logs: Path) -> None:
    """A fresh clone of this checkout's HEAD: its install, tiers, ``make`` and, with ``ci``, .ci/run."""
    with tempfile.TemporaryDirectory(prefix="dicelab-clone-") as tmp:
        work = Path(tmp) / "dicelab"
        subprocess.run(["git", "clone", "--quiet", str(ROOT), str(work)], check=True)
        env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "DICELAB_OUTPUT_DIR")}
        head = subprocess.check_output(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, text=True).strip()
        print(f"a fresh clone of {head}:", flush=True)
        steps = [("make setup (install)", ["make", "setup"]),
                 ("make test-fast (numba's cache cold)", ["make", "test-fast"]),
                 ("make test", ["make", "test"]),
                 ("make (every notebook, full mode)", ["make"])]
        if ci:
            steps.append((".ci/run (make test, make test-browser)", ["bash", ".ci/run"]))
        for label, cmd in steps:
            timed(label, cmd, work, 1, env, logs)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=["tiers", "notebooks", "compile"], action="append",
                        help="measure only these (repeatable); default: all three")
    parser.add_argument("--repeat", type=int, default=3, help="runs of make test-fast and of each notebook")
    parser.add_argument("--heavy-repeat", type=int, default=1, help="runs of make test")
    parser.add_argument("--cells", type=int, default=0, help="list each notebook's slowest cells")
    parser.add_argument("--clone", action="store_true", help="from a fresh clone instead, install included")
    parser.add_argument("--ci", action="store_true", help="with --clone: .ci/run as well")
    parser.add_argument("--logs", type=Path, default=None, help="keep each command's output here")
    args = parser.parse_args(argv)
    if args.repeat < 1 or args.heavy_repeat < 1:
        parser.error("--repeat and --heavy-repeat must be at least 1")
    logs = args.logs or Path(tempfile.mkdtemp(prefix="dicelab-bench-logs-"))
    logs.mkdir(parents=True, exist_ok=True)
    print(f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}; logs in {logs}")
    if args.clone:
        clone(args.ci, args.repeat, logs)
        return 0
    only = args.only or ["tiers", "notebooks", "compile"]
    if "compile" in only:
        compile_first_run()
    if "tiers" in only:
        tiers(ROOT, args.repeat, logs, args.heavy_repeat)
    if "notebooks" in only:
        notebooks(ROOT, args.repeat, args.cells, logs)
    if not args.logs:
        shutil.rmtree(logs, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
