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
