"""Argument checks shared by the dicelab modules.

Each check returns the cleaned value or raises a ``ValueError``/``TypeError``
whose message names the argument and what it may be. They run before any work.
"""

from __future__ import annotations

import numbers


def check_int(name: str, value, low: int, high: int | None = None) -> int:
    """Return ``value`` as an int, or raise ValueError naming the argument and the allowed range.

    >>> check_int("sides", 6, 2)
    6
    >>> check_int("sides", True, 2)
    Traceback (most recent call last):
    ...
    ValueError: sides must be an integer, got True
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise ValueError(f"{name} must be an integer, got {value!r}")
    value = int(value)
    if value < low or (high is not None and value > high):
        allowed = f">= {low}" if high is None else f"in {low}..{high}"
        raise ValueError(f"{name} must be {allowed}, got {value}")
    return value


def check_bool(name: str, value) -> bool:
    """Return ``value`` if it is a bool (numpy's included); strings such as ``'False'`` are refused.

    >>> check_bool("progress", False)
    False
    """
    if isinstance(value, bool):
        return value
    if type(value).__name__ == "bool_":  # numpy.bool_
        return bool(value)
    raise ValueError(f"{name} must be True or False, got {value!r}")


def check_sequence(name: str, value, *, what: str = "items", nonempty: bool = True) -> tuple:
    """Return ``value`` as a tuple, or raise ValueError if it is not a sequence (or is empty).

    Strings and mappings are refused: a die is not ``"123"``.

    >>> check_sequence("faces", [1, 2, 3])
    (1, 2, 3)
    """
    if isinstance(value, str | bytes | dict):
        raise ValueError(f"{name} must be a sequence of {what}, got {value!r}")
    try:
        out = tuple(value)
    except TypeError:
        raise ValueError(f"{name} must be a sequence of {what}, got {value!r}") from None
    if nonempty and not out:
        raise ValueError(f"{name} must hold at least one of its {what}")
    return out
