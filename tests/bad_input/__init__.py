"""The bad-input table: every argument of every public function and method, tried with bad values.

Each ``rows_*.py`` module holds ``ROWS``, a list of :class:`Row`, and ``EXEMPT``, a dict
from ``"module.Qualname"`` (a whole callable) or ``"module.Qualname:argument"`` to the
reason it has no row (a result record built by its solver, an argument that takes any
object by design). ``test_refused.py`` makes every call and checks that each is refused
with a ``ValueError`` or ``TypeError`` naming the argument, and that the table leaves no
public argument out.
"""

from __future__ import annotations

import importlib
import inspect
import math
import pkgutil
import re
from collections.abc import Callable
from typing import Any, NamedTuple

import dicelab

# The bad values, by the kind of argument they are tried on.
INTS = [-1, 2.0, "3", True, None, math.nan, math.inf, [1]]  # an integer argument
HUGE = 10**12  # a size far beyond the machine, for arguments whose cost grows with them
BOOLS = ["False", 1, 0, None, 2.5]  # a boolean argument
FLOATS = [math.nan, math.inf, -math.inf, "0.5", None, True, [0.5]]  # a real-number argument
STRINGS = [None, 3, b"text", ["a"]]  # a string argument
ARRAYS_2D = [None, [], [[]], [[1, 2], [3]], [["a", "b"]], "12", [1, 2], [[math.nan, 1]]]  # a matrix


class Row(NamedTuple):
    """One argument of one public callable, the bad values to try, and how to call it."""

    target: Callable  # the public function, class or method, for the coverage check
    arg: str  # the argument's name, which every message must contain
    values: list
    call: Callable[[Any], Any]  # makes the call with one bad value


_ADDRESS = re.compile(r"0x[0-9a-fA-F]+")


def case_id(row, value) -> str:
    """A case's test name, the same in every process (no memory address: pytest-xdist compares them)."""
    return _ADDRESS.sub("0x", f"{row.target.__qualname__}-{row.arg}-{value!r}")[:70]


def qualified(obj) -> str:
    """``'dicelab.module.Qualname'`` of a function, class or method."""
    return f"{obj.__module__}.{obj.__qualname__}"


def _public_modules():
    for info in pkgutil.walk_packages(dicelab.__path__, "dicelab."):
        if not any(part.startswith("_") for part in info.name.split(".")[1:]):
            yield importlib.import_module(info.name)


def _arguments(func) -> list[str]:
    kinds = (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD)
    params = inspect.signature(func).parameters.values()
    return [p.name for p in params if p.name not in ("self", "cls") and p.kind not in kinds]


def public_arguments() -> dict[str, list[str]]:
    """Every public callable defined in dicelab (functions, classes, their public methods), with
    the names of its arguments."""
    found: dict[str, list[str]] = {}
    for module in _public_modules():
        for name, obj in vars(module).items():
            if name.startswith("_") or getattr(obj, "__module__", None) != module.__name__:
                continue
            if inspect.isfunction(obj):
                found[qualified(obj)] = _arguments(obj)
            elif inspect.isclass(obj) and not issubclass(obj, BaseException):
                found[qualified(obj)] = _arguments(obj)
                for attr, member in vars(obj).items():
                    if isinstance(member, staticmethod | classmethod):
                        member = member.__func__
                    if not attr.startswith("_") and inspect.isfunction(member):
                        found[qualified(member)] = _arguments(member)
    return found


def declared_rows() -> list[Row]:
    """A row for every argument a public function declares with ``dicelab.core.spec.validated``:
    the spec's bad values, each tried with the declared example's good values for the rest."""
    rows = []
    for module in _public_modules():
        for name, obj in vars(module).items():
            specs = getattr(obj, "__specs__", None)
            if name.startswith("_") or specs is None or getattr(obj, "__module__", None) != module.__name__:
                continue
            for arg, spec in specs.items():
                def call(value, fn=obj, arg=arg):
                    return fn(**{**fn.__example__, arg: value})

                rows.append(Row(obj, arg, spec.bad_values(), call))
    return rows
