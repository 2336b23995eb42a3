"""A census of bad input over the whole public API: the table's bad values, and harsher ones.

    python tests/bad_input/census.py            # the counts, and every call not refused clearly
    python tests/bad_input/census.py --quiet    # the counts only

Every row of the bad-input table (``rows_*.py``) is called with its own bad values and with
adversarial values derived from them: where a row refuses ``-1`` it is also given ``-10**100``
and numpy's ``-1``; where it refuses ``2.0``, numpy's and ``Decimal``'s; where it refuses the
digit string ``"3"``, Arabic-Indic and full-width digits; where it refuses NaN or infinity, numpy's
and ``Decimal``'s; where it refuses ``None``, objects whose ``__index__``, ``__float__``,
``__bool__`` or ``__eq__`` raise, and an ``__index__`` that returns ``10**30``; where it refuses a
ragged matrix, matrices of NaN, of complex numbers, with no rows, or of three dimensions.

Each call ends in one of four ways: a **clear refusal** (``ValueError`` or ``TypeError`` whose
message names the argument), an **unclear error** (another exception, or a message that does not
name the argument), a **silent accept** (no exception), or a **hang** (still running after the
time limit). ``test_refused.py`` holds the table's own values to clear refusals; the census tries
the harsher ones and lists what is left.
"""

from __future__ import annotations

import argparse
import collections
import math
import signal
import sys
import warnings
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the tests folder, for bad_input

import bad_input  # noqa: E402
from bad_input import HUGE  # noqa: E402

SECONDS = 20  # a call still running after this long counts as a hang


class RaisingIndex:
    """An integer-like object whose conversion fails."""

    def __index__(self):
        raise RuntimeError("__index__ failed")

    def __int__(self):
        raise RuntimeError("__int__ failed")

    def __repr__(self):
        return "RaisingIndex()"


class HugeIndex:
    """An object claiming to be the integer ``10**30``."""

    def __index__(self):
        return 10**30

    def __repr__(self):
        return "HugeIndex()"


class RaisingFloat:
    def __float__(self):
        raise RuntimeError("__float__ failed")

    def __repr__(self):
        return "RaisingFloat()"


class RaisingBool:
    def __bool__(self):
        raise RuntimeError("__bool__ failed")

    def __repr__(self):
        return "RaisingBool()"


class RaisingEq:
    """An object whose comparisons and hash fail."""

    def __eq__(self, other):
        raise RuntimeError("__eq__ failed")

    def __lt__(self, other):
        raise RuntimeError("__lt__ failed")

    __gt__ = __le__ = __ge__ = __lt__

    def __hash__(self):
        raise RuntimeError("__hash__ failed")

    def __repr__(self):
        return "RaisingEq()"


def _has(values, probe) -> bool:
    """Whether ``probe`` is among ``values`` (by type and value; NaN matches NaN)."""
    for v in values:
        if type(v) is not type(probe):
            continue
        if isinstance(v, float) and math.isnan(v) and math.isnan(probe):
            return True
        try:
            if v == probe:
                return True
        except Exception:  # noqa: BLE001 - arrays and hostile objects in the table
            continue
    return False


def harsher(values: list) -> list:
    """The adversarial values a row is also given, derived from the bad values it already lists."""
    extra: list = []
    if _has(values, -1):
        extra += [-(10**100), np.int64(-1)]
    if _has(values, HUGE):
        extra += [10**100, HugeIndex()]
    if _has(values, 2.0):
        extra += [np.float64(2.0), Decimal("2"), Fraction(5, 2)]
    if _has(values, "3"):
        extra += ["\u0663", "\uff13", " 3"]  # Arabic-Indic and full-width digit three
    if _has(values, True):
        extra += [np.bool_(True)]
    if _has(values, math.nan):
        extra += [np.float64("nan"), np.float32("nan"), Decimal("NaN")]
    if _has(values, math.inf):
        extra += [np.float64("inf"), Decimal("Infinity"), 10**400]
    if _has(values, "0.5"):
        extra += ["\u0660\u066b\u0665", "0,5", "\u00bd", complex(0.5, 0)]
    if _has(values, "False"):
        extra += [np.int64(1), np.float64(0.0), RaisingBool()]
    if _has(values, None):
        extra += [RaisingIndex(), RaisingFloat(), RaisingEq(), object()]
    if any(isinstance(v, list) and v == [[1, 2], [3]] for v in values):  # a matrix argument
        extra += [
            np.full((2, 2), np.nan),
            np.ones((2, 2), dtype=complex),
            np.ones((0, 2)),
            np.ones((2, 2, 2)),
            [[RaisingEq(), 1], [1, 1]],
        ]
    return extra


def _timeout(signum, frame):
    raise TimeoutError


def outcome(row, value) -> tuple[str, str]:
    """``(kind, detail)`` of one call: ``clear``, ``unclear``, ``silent`` or ``hang``."""
    signal.signal(signal.SIGALRM, _timeout)
    signal.alarm(SECONDS)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            row.call(value)
    except TimeoutError:
        return "hang", f"still running after {SECONDS} s"
    except (ValueError, TypeError) as err:
        if row.arg in str(err):
            return "clear", ""
        return "unclear", f"{type(err).__name__}: {str(err)[:150]}"
    except Exception as err:  # noqa: BLE001 - the census records every other failure
        return "unclear", f"{type(err).__name__}: {str(err)[:150]}"
    finally:
        signal.alarm(0)
    return "silent", "accepted"


def census():
    """Yield ``(row, value, kind, detail)`` for every call: the table's values, then the harsher ones."""
    from test_refused import ROWS  # noqa: PLC0415 - imports the rows once the path is set

    for row in ROWS:
        for value in [*row.values, *harsher(row.values)]:
            kind, detail = outcome(row, value)
            yield row, value, kind, detail


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quiet", action="store_true", help="the counts only")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(Path(bad_input.__file__).parent))
    counts: collections.Counter = collections.Counter()
    for row, value, kind, detail in census():
        counts[kind] += 1
        if kind != "clear" and not args.quiet:
            name = f"{row.target.__module__}.{row.target.__qualname__}"
            print(f"{kind:8s} {name}({row.arg}={value!r:.60}): {detail}", flush=True)
    total = sum(counts.values())
    print(
        f"{total} calls: {counts['clear']} clear refusals, {counts['unclear']} unclear errors, "
        f"{counts['silent']} silent accepts, {counts['hang']} hangs"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
