"""Argument checks shared by the dicelab modules.

Each check returns the cleaned value or raises a ``ValueError``/``TypeError``
whose message names the argument and what it may be. They run before any work.

Sizes whose cost is known up front (dice counts, goals, state spaces) go through
:func:`check_cost`, which refuses a call that would need more memory or time than
the budget: by default 8 GiB and one hour, set by the environment variables
``DICELAB_MAX_MEMORY_GB`` and ``DICELAB_MAX_HOURS``.
"""

from __future__ import annotations

import math
import numbers
import os
import sys
from collections.abc import Hashable

import numpy as np

STEPS_PER_SECOND = 1e8  # a rough rate for the compiled kernels' inner loops
INT_LIMIT = 2**200  # no count, size or seed reaches it; the 5th power of a size below it is a float


def _shown_int(value: int) -> str:
    """``value``, or how many digits it has when it is too long to print."""
    return str(value) if abs(value) < 10**40 else f"an integer of {len(str(abs(value)))} digits"


def check_int(name: str, value, low: int, high: int | None = None) -> int:
    """Return ``value`` as an int, or raise ValueError naming the argument and the allowed range.

    Integers of ``2**200`` or more (or below ``-2**200``) are refused whatever the range: no
    count, size or seed of dicelab comes near them, and the cost of a size below it (up to its
    fifth power) is still a float.

    >>> check_int("sides", 6, 2)
    6
    >>> check_int("sides", True, 2)
    Traceback (most recent call last):
    ...
    ValueError: sides must be an integer, got True
    >>> check_int("sides", 10**400, 2)
    Traceback (most recent call last):
    ...
    ValueError: sides must be below 2**200, got an integer of 401 digits
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise ValueError(f"{name} must be an integer, got {value!r}")
    try:
        value = int(value)
    except Exception as err:  # an Integral whose conversion fails
        raise ValueError(f"{name} must be an integer, got {value!r} ({type(err).__name__})") from None
    if value < low or (high is not None and value > high):
        allowed = f">= {low}" if high is None else f"in {low}..{high}"
        raise ValueError(f"{name} must be {allowed}, got {_shown_int(value)}")
    if abs(value) >= INT_LIMIT:
        raise ValueError(f"{name} must be below 2**200, got {_shown_int(value)}")
    return value


def check_optional_int(name: str, value, low: int, high: int | None = None) -> int | None:
    """``None``, or ``value`` checked by :func:`check_int`.

    >>> check_optional_int("goal", None, 1) is None
    True
    """
    return None if value is None else check_int(name, value, low, high)


def check_float(
    name: str, value, low: float | None = None, high: float | None = None, *, open_low: bool = False
) -> float:
    """Return ``value`` as a finite float in ``[low, high]`` (``(low, high]`` with ``open_low``).

    Integers and numpy floats are taken; booleans, strings and NaN are refused.

    >>> check_float("tie", 0.5, 0, 1)
    0.5
    >>> check_float("tol", 0, 0, open_low=True)
    Traceback (most recent call last):
    ...
    ValueError: tol must be > 0, got 0.0
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise ValueError(f"{name} must be a number, got {value!r}")
    try:
        value = float(value)
    except OverflowError:  # an integer or fraction beyond the largest float
        raise ValueError(f"{name} must be finite, got a number beyond 1.8e308") from None
    if not math.isfinite(value):
        raise ValueError(f"{name} must be finite, got {value!r}")
    too_low = low is not None and (value <= low if open_low else value < low)
    if too_low or (high is not None and value > high):
        lo = "" if low is None else (f"> {low}" if open_low else f">= {low}")
        hi = "" if high is None else f"<= {high}"
        raise ValueError(f"{name} must be {' and '.join(p for p in (lo, hi) if p)}, got {value!r}")
    return value


def check_bool(name: str, value) -> bool:
    """Return ``value`` if it is a bool (numpy's included); strings such as ``'False'`` are refused.

    >>> check_bool("progress", False)
    False
    >>> check_bool("black", np.True_)
    True
    """
    if isinstance(value, bool | np.bool_):
        return bool(value)
    raise ValueError(f"{name} must be True or False, got {value!r}")


def check_choice(name: str, value, choices) -> object:
    """Return ``value`` if it is one of ``choices``, or raise ValueError listing them.

    Only a hashable value can be one of them: an array, even one holding a single choice,
    is refused.

    >>> check_choice("fallback", "regret", ("regret", "max"))
    'regret'
    >>> check_choice("fallback", np.array(["max"]), ("regret", "max"))
    Traceback (most recent call last):
    ...
    ValueError: fallback must be one of ['regret', 'max'], got array(['max'], dtype='<U3')
    """
    try:
        if isinstance(value, Hashable) and not isinstance(value, np.ndarray) and value in choices:
            return value
    except Exception:  # noqa: BLE001 - a value whose comparison or hash fails: not a choice
        pass
    raise ValueError(f"{name} must be one of {list(choices)}, got {value!r}")


def check_str(name: str, value, *, nonempty: bool = True) -> str:
    """Return ``value`` if it is a string (non-empty unless told), or raise ValueError.

    >>> check_str("where", "Table 2")
    'Table 2'
    """
    if not isinstance(value, str):
        raise ValueError(f"{name} must be a string, got {value!r}")
    if nonempty and not value.strip():
        raise ValueError(f"{name} must be a non-empty string")
    return value


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


def check_array(name: str, value, *, ndim: int, kind: str = "float", square: bool = False) -> np.ndarray:
    """Return ``value`` as a non-empty numpy array of ``ndim`` dimensions, or raise ValueError.

    ``kind`` is ``"float"`` (finite numbers), ``"int"`` (whole numbers) or ``"bool"``
    (0/1 or booleans); ``square`` asks for a square matrix.

    >>> check_array("A", [[1, 2], [3, 4]], ndim=2).shape
    (2, 2)
    >>> check_array("A", [[1, 2], [3]], ndim=2)
    Traceback (most recent call last):
    ...
    ValueError: A must be a 2-D array of numbers, got [[1, 2], [3]]
    """
    shape = f"{ndim}-D array of " + {"float": "numbers", "int": "integers", "bool": "0/1 entries"}[kind]
    if isinstance(value, str | bytes | dict) or value is None:
        raise ValueError(f"{name} must be a {shape}, got {value!r}")
    try:
        arr = np.asarray(value)
    except Exception:  # noqa: BLE001 - ragged nested lists, or entries whose conversion fails
        raise ValueError(f"{name} must be a {shape}, got {value!r}"[:300]) from None
    if arr.ndim != ndim or arr.size == 0 or arr.dtype == object:
        raise ValueError(f"{name} must be a non-empty {shape}, got {value!r}"[:300])
    if square and arr.shape[0] != arr.shape[1]:
        raise ValueError(f"{name} must be a square matrix, got shape {arr.shape}")
    if arr.dtype.kind == "b":
        if kind == "float":
            raise ValueError(f"{name} must hold numbers, not booleans")
        return arr.astype(np.int64) if kind == "int" else arr
    if arr.dtype.kind not in "iuf":
        raise ValueError(f"{name} must be a {shape}, got dtype {arr.dtype}")
    if not np.isfinite(arr).all():
        raise ValueError(f"{name} must hold finite numbers")
    if kind == "float":
        return arr.astype(float)
    if (arr != np.round(arr)).any():
        raise ValueError(f"{name} must hold whole numbers")
    if kind == "bool":
        if not np.isin(arr, (0, 1)).all():
            raise ValueError(f"{name} must hold only 0 and 1")
        return arr.astype(bool)
    return arr.astype(np.int64)


def _limit(variable: str, default: float) -> float:
    try:
        return float(os.environ.get(variable, default))
    except ValueError:
        return default


def memory_limit() -> float:
    """Bytes one call may plan to allocate (``DICELAB_MAX_MEMORY_GB``, default 8)."""
    return _limit("DICELAB_MAX_MEMORY_GB", 8) * 2**30


def time_limit() -> float:
    """Seconds one call may plan to run (``DICELAB_MAX_HOURS``, default 1)."""
    return _limit("DICELAB_MAX_HOURS", 1) * 3600


def _bytes(n: float) -> str:
    for unit in ("bytes", "KiB", "MiB", "GiB", "TiB", "PiB"):
        if n < 1024 or unit == "PiB":
            return f"{n:.3g} {unit}"
        n /= 1024
    raise AssertionError  # unreachable


def _duration(seconds: float) -> str:
    for unit, size in (("years", 365.25 * 86400), ("days", 86400), ("hours", 3600), ("minutes", 60)):
        if seconds >= size:
            return _plural(seconds / size, unit)
    return _plural(seconds, "seconds")


def _plural(amount: float, unit: str) -> str:
    text = f"{amount:.3g}"
    return f"{text} {unit[:-1] if text == '1' else unit}"


_RECORDS: list | None = None  # the estimates seen while recorded_costs() is active


class recorded_costs:
    """A context manager collecting every estimate :func:`check_cost` sees, as ``(name, memory,
    seconds)``, for the calibration of the estimates against timed runs.

    >>> with recorded_costs() as seen:
    ...     check_cost("goal", 100, memory=800, steps=1e6)
    >>> seen
    [('goal', 800, 0.01)]
    """

    def __enter__(self) -> list:
        global _RECORDS
        self._outer, _RECORDS = _RECORDS, []
        return _RECORDS

    def __exit__(self, *exc) -> None:
        global _RECORDS
        _RECORDS = self._outer


def check_cost(name: str, value, *, memory: float = 0, steps: float = 0, what: str = "") -> None:
    """Refuse, before any work, a call whose known size is beyond the memory or time budget.

    ``memory`` is the bytes the call would allocate, ``steps`` the inner-loop steps it
    would run (timed at about 10^8 a second); ``what`` says what is being counted.

    >>> check_cost("goal", 100, memory=8 * 101**2)
    >>> check_cost("goal", 10**6, memory=8 * (10**6 + 1) ** 2, what="a value table")
    Traceback (most recent call last):
    ...
    ValueError: goal=1000000 would need 7.28 TiB of memory for a value table; the limit is 8 GiB ...
    """
    about = f" for {what}" if what else ""
    if _RECORDS is not None:
        _RECORDS.append((name, memory, steps / STEPS_PER_SECOND))
    if memory > memory_limit():
        raise ValueError(
            f"{name}={value!r} would need {_bytes(memory)} of memory{about}; "
            f"the limit is {_bytes(memory_limit())} (DICELAB_MAX_MEMORY_GB)"
        )
    seconds = steps / STEPS_PER_SECOND
    if seconds > time_limit():
        raise ValueError(
            f"{name}={value!r} would need about {_duration(seconds)} ({steps:.2g} steps){about}; "
            f"the limit is {_duration(time_limit())} (DICELAB_MAX_HOURS)"
        )


def check_matrix(A, name: str = "A") -> np.ndarray:
    """``A`` as a non-empty, finite 2-D float array, or a ValueError naming it.

    Strings and booleans are not payoffs: ``"12"`` and ``[[True, False]]`` are refused.
    """
    if A is None or isinstance(A, str | bytes | dict):
        raise ValueError(f"{name} must be a 2-D payoff matrix of numbers, got {A!r}")
    try:
        raw = np.asarray(A)
        A = np.asarray(A, dtype=float)
    except Exception:  # noqa: BLE001 - ragged lists, or entries whose conversion to float fails
        raise ValueError(f"{name} must be a 2-D payoff matrix of numbers") from None
    numbers_only = raw.dtype.kind in "iuf" or (
        raw.dtype.kind == "O"
        and all(isinstance(a, numbers.Real) and not isinstance(a, bool) for a in raw.flat)
    )
    if not numbers_only:
        raise ValueError(f"{name} must be a 2-D payoff matrix of numbers, got entries of dtype {raw.dtype}")
    if A.ndim != 2 or A.shape[0] == 0 or A.shape[1] == 0:
        raise ValueError(f"{name} must be a non-empty 2-D payoff matrix, got shape {A.shape}")
    if not np.isfinite(A).all():
        raise ValueError(f"{name} must hold finite payoffs")
    return A


def max_digits() -> int:
    """How many digits an exact number read from text may have: Python's limit on converting
    text to integers (``sys.get_int_max_str_digits()``, 4300 by default), or 100,000 when that
    limit is off. Reading is quadratic in the digits, so longer texts are refused up front."""
    return sys.get_int_max_str_digits() or 100_000


def check_digits(name: str, x, digits: int, exponent: int) -> None:
    """Refuse a number whose exact value would take more than :func:`max_digits` digits to write."""
    if digits + abs(exponent) > max_digits():
        shown = repr(x) if len(repr(x)) <= 60 else f"{repr(x)[:40]}... ({len(str(x))} characters)"
        raise ValueError(
            f"{name}: {shown} has about {digits + abs(exponent):,} digits written out; exact numbers "
            f"are read up to {max_digits():,} digits (Python's sys.get_int_max_str_digits())"
        )
