"""Argument checks shared by the dicelab modules: clear ValueErrors naming the argument and its range."""

from __future__ import annotations

import numbers


def check_int(name: str, value, low: int, high: int | None = None) -> int:
    """Return ``value`` as an int, or raise ValueError naming the argument and the allowed range."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise ValueError(f"{name} must be an integer, got {value!r}")
    value = int(value)
    if value < low or (high is not None and value > high):
        allowed = f">= {low}" if high is None else f"in {low}..{high}"
        raise ValueError(f"{name} must be {allowed}, got {value}")
    return value
