"""Shared by the benchmark scripts: the median of repeated runs."""

from __future__ import annotations

import statistics
import time


def timed(fn, repeat: int):
    """Run ``fn`` ``repeat`` times; return the median wall time in seconds and the last result."""
    times, result = [], None
    for _ in range(repeat):
        t0 = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), result


def timed_cpu(fn, repeat: int):
    """Medians of CPU and wall time over ``repeat`` runs of ``fn``, and its last result (CPU time:
    other programs on a shared machine do not count; every thread of this process does)."""
    cpu, wall, result = [], [], None
    for _ in range(repeat):
        c0, w0 = time.process_time(), time.perf_counter()
        result = fn()
        cpu.append(time.process_time() - c0)
        wall.append(time.perf_counter() - w0)
    return statistics.median(cpu), statistics.median(wall), result
