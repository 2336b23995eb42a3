"""Arguments declared once: what each argument may be, written beside the function it guards.

A public function says what its arguments may be with :func:`validated`; the declaration makes
the checks (run before any work, by the functions of :mod:`dicelab.core.checks`), their error
messages (each names the argument and what it may be), and the bad values the test suite tries
on every declared argument (:meth:`Spec.bad_values`), so the three can never drift apart.

>>> @validated(sides=Int(2), rolls=Int(1, 100), example={"sides": 6, "rolls": 3})
... def best_of(sides, rolls):
...     return sides * rolls
>>> best_of(6, 3)
18
>>> best_of(6, 0)
Traceback (most recent call last):
...
ValueError: rolls must be in 1..100, got 0
>>> Int(1, 100).bad_values()
[0, 101, 2.0, '3', True, None, nan, [1]]

A check that needs more than one argument (a cost budget, a state that must fit the game) stays
in the function's body, after the declared ones have run.
"""

from __future__ import annotations

import functools
import inspect
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from dicelab.core.checks import (
    check_bool,
    check_choice,
    check_float,
    check_int,
    check_sequence,
    check_str,
)

_NOT_INTS = [2.0, "3", True, None, math.nan, [1]]  # never an integer, whatever the range
_NOT_REALS = [math.nan, math.inf, -math.inf, "0.5", None, True, [0.5]]


class Spec:
    """What one argument may be: :meth:`__call__` checks a value, :meth:`bad_values` lists refused ones."""

    def __call__(self, name: str, value):  # pragma: no cover - every Spec defines it
        raise NotImplementedError

    def bad_values(self) -> list:
        """Values this argument must refuse, each with a ``ValueError`` or ``TypeError`` naming it."""
        raise NotImplementedError  # pragma: no cover


@dataclass(frozen=True)
class Int(Spec):
    """An integer in ``low..high`` (no upper bound when ``high`` is None); ``optional`` takes None."""

    low: int
    high: int | None = None
    optional: bool = False

    def __call__(self, name, value):
        if self.optional and value is None:
            return None
        return check_int(name, value, self.low, self.high)

    def bad_values(self):
        out = [self.low - 1] + ([] if self.high is None else [self.high + 1]) + _NOT_INTS
        return [v for v in out if not (self.optional and v is None)]


@dataclass(frozen=True)
class Real(Spec):
    """A finite real number in ``[low, high]`` (``(low, high]`` with ``open_low``); None bounds are open."""

    low: float | None = None
    high: float | None = None
    open_low: bool = False

    def __call__(self, name, value):
        return check_float(name, value, self.low, self.high, open_low=self.open_low)

    def bad_values(self):
        below = [] if self.low is None else [self.low if self.open_low else self.low - 1]
        above = [] if self.high is None else [self.high + 1]
        return below + above + _NOT_REALS


@dataclass(frozen=True)
class Bool(Spec):
    """True or False (numpy's booleans too); ``"False"``, 0 and 1 are refused."""

    def __call__(self, name, value):
        return check_bool(name, value)

    def bad_values(self):
        return ["False", 1, 0, None, 2.5]


@dataclass(frozen=True)
class OneOf(Spec):
    """One of a fixed set of choices (hashable values such as strings)."""

    choices: tuple

    def __call__(self, name, value):
        return check_choice(name, value, self.choices)

    def bad_values(self):
        return [v for v in ["no such choice", None, 3, ["x"]] if v not in self.choices]


@dataclass(frozen=True)
class Text(Spec):
    """A string, non-empty unless told."""

    nonempty: bool = True

    def __call__(self, name, value):
        return check_str(name, value, nonempty=self.nonempty)

    def bad_values(self):
        return [None, 3, b"text", ["a"]] + ([" "] if self.nonempty else [])


@dataclass(frozen=True)
class Items(Spec):
    """A sequence (not a string or mapping), each item checked by ``item`` (a Spec), as a tuple."""

    item: Spec
    what: str = "items"
    nonempty: bool = True

    def __call__(self, name, value):
        items = check_sequence(name, value, what=self.what, nonempty=self.nonempty)
        return tuple(self.item(f"{name}[{i}]", v) for i, v in enumerate(items))

    def bad_values(self):
        empty = [[]] if self.nonempty else []
        return [None, "123", {1: 2}, *empty] + [[v] for v in self.item.bad_values()[:3]]


@dataclass(frozen=True)
class Check(Spec):
    """Any other check: ``check(name, value)`` returns the clean value or raises; ``bad`` lists
    values it refuses."""

    check: Callable
    bad: tuple = field(default=())

    def __call__(self, name, value):
        return self.check(name, value)

    def bad_values(self):
        return list(self.bad)


def validated(*, example: Mapping | None = None, **specs: Spec):
    """Check the named arguments by their specs before the function runs.

    ``example`` holds good values for the function's required arguments: the test suite calls the
    function with them and one bad value at a time (see ``tests/bad_input``). The declared specs are
    kept on the function as ``__specs__`` and the example as ``__example__``.
    """

    def wrap(fn):
        signature = inspect.signature(fn)
        unknown = sorted(set(specs) - set(signature.parameters))
        if unknown:
            raise TypeError(f"{fn.__qualname__} has no argument {', '.join(unknown)} to declare")

        @functools.wraps(fn)
        def checked(*args, **kwargs):
            bound = signature.bind(*args, **kwargs)
            bound.apply_defaults()
            for name, spec in specs.items():
                bound.arguments[name] = spec(name, bound.arguments[name])
            return fn(*bound.args, **bound.kwargs)

        checked.__specs__ = dict(specs)
        checked.__example__ = dict(example or {})
        return checked

    return wrap
