"""Checking a student's homework answers: exact where the mathematics is exact, and said in words.

The homework notebooks (built by ``homework/build.py`` from the worked solutions) ask the student
to assign each answer to a named variable. Their tests call two functions of this module:

* :func:`check_form` (the public tests, which the student runs with ``grader.check``): is the
  answer there, and of the right kind (an exact number, an integer, a list of three exact
  numbers, a dict keyed by the dice ...)?
* :func:`check_answer` (the hidden tests): is it the value the worked solution computes?

An exact answer may be an ``int``, a :class:`fractions.Fraction`, a ``sympy.Rational`` or any SymPy
expression with an exact rational value (``sp.Rational(4, 9)``, ``Fraction(4, 9)`` and
``sp.Integer(4) / 9`` all pass); a float never does where the answer is exact. A wrong answer
raises :class:`AnswerError` (an ``AssertionError``) whose message speaks to the student, e.g.
"P(A > C) should be an exact fraction; you gave a float (0.4444)".

The answer key travels in the generated tests as JSON: :func:`encode` writes a computed value,
:func:`decode` reads it back (exact numbers as ``"p/q"`` strings, never through a float).
"""

from __future__ import annotations

import ast
import json
import math
import numbers
import re
from fractions import Fraction

import numpy as np
import sympy as sp

__all__ = ["AnswerError", "check_answer", "check_form", "decode", "decode_untrusted", "encode", "form_of"]

KINDS = ("exact", "sympy", "number", "dict", "list", "tuple", "set")  # the tags encode writes
NUMBER_TOLERANCE = 1e-9  # relative, for answers the worked solution computes in floating point


class AnswerError(AssertionError):
    """A wrong or missing answer, with a message in words for the student."""


def _name(what) -> str:
    if not isinstance(what, str) or not what.strip():
        raise ValueError(f"what must be a non-empty string naming the answer, got {what!r}")
    return what


def _missing(value) -> bool:
    return value is None or value is Ellipsis


def _is_float(value) -> bool:
    return isinstance(value, float | np.floating | sp.Float) or (
        isinstance(value, sp.Basic) and value.is_number and bool(value.atoms(sp.Float))
    )


def _describe(value) -> str:
    if _is_float(value):
        return f"a float ({float(value):.6g})"
    if isinstance(value, str):
        return f"the text {value!r}"
    if isinstance(value, bool | np.bool_):
        return f"the truth value {bool(value)}"
    if isinstance(value, dict):
        return f"a dict with {len(value)} entries"
    if isinstance(value, list | tuple | np.ndarray):
        return f"a {type(value).__name__} of {len(value)} items"
    return f"{value!r}" if len(repr(value)) <= 40 else f"a {type(value).__name__}"


def _exact(what: str, value) -> sp.Expr:
    """``value`` as an exact SymPy number, or an :class:`AnswerError` in words."""
    if _missing(value):
        raise AnswerError(f"{what}: no answer yet (replace the ... by your answer)")
    if isinstance(value, bool | np.bool_ | str):
        raise AnswerError(f"{what} should be an exact number; you gave {_describe(value)}")
    if _is_float(value):
        raise AnswerError(
            f"{what} should be an exact fraction; you gave {_describe(value)}. "
            "Use sp.Rational(p, q) or Fraction(p, q), or keep the SymPy result exact"
        )
    if isinstance(value, numbers.Integral):
        return sp.Integer(int(value))
    if isinstance(value, Fraction):
        return sp.Rational(value.numerator, value.denominator)
    if isinstance(value, sp.Basic):
        if value.free_symbols:
            names = ", ".join(sorted(map(str, value.free_symbols)))
            raise AnswerError(f"{what} should be a number; your answer still contains {names}")
        if value.is_number:
            return value
    raise AnswerError(f"{what} should be an exact number; you gave {_describe(value)}")


def _number(what: str, value) -> float:
    if _missing(value):
        raise AnswerError(f"{what}: no answer yet (replace the ... by your answer)")
    if isinstance(value, bool | np.bool_) or not isinstance(value, numbers.Real | sp.Basic):
        raise AnswerError(f"{what} should be a number; you gave {_describe(value)}")
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise AnswerError(f"{what} should be a number; you gave {_describe(value)}") from None
    if not math.isfinite(number):
        raise AnswerError(f"{what} should be a finite number; you gave {number}")
    return number


# --------------------------------------------------------------------------- the answer key as JSON
def encode(value):
    """A JSON-ready form of a computed answer: exact numbers as ``{"exact": "p/q"}``.

    >>> encode({"A": Fraction(8, 3), "B": 3})
    {'dict': [['A', {'exact': '8/3'}], ['B', 3]]}
    """
    if isinstance(value, bool | np.bool_):
        return bool(value)
    if isinstance(value, str) or value is None:
        return value
    if isinstance(value, numbers.Integral) and not isinstance(value, sp.Basic):
        return int(value)
    if isinstance(value, float | np.floating):
        return {"number": float(value)}
    if isinstance(value, Fraction):
        return {"exact": str(value)}
    if isinstance(value, sp.Basic):
        if value.is_Rational:
            return {"exact": str(value)}
        if value.is_number and not value.atoms(sp.Float):
            return {"sympy": sp.srepr(value)}
        if value.is_number:
            return {"number": float(value)}
    if isinstance(value, dict):
        return {"dict": [[encode(k), encode(v)] for k, v in value.items()]}
    if isinstance(value, list | tuple | np.ndarray):
        return {type(value).__name__ if isinstance(value, tuple) else "list": [encode(v) for v in value]}
    if isinstance(value, set | frozenset):
        return {"set": sorted((encode(v) for v in value), key=json.dumps)}
    raise ValueError(
        f"value must be a number, a string, a truth value or a dict, list or set of them, got {value!r}"
    )


def _unhashable(item):
    return tuple(_unhashable(v) for v in item) if isinstance(item, list) else item


def decode(data):
    """The value that :func:`encode` wrote (also from its JSON text).

    >>> decode('{"exact": "4/9"}')
    4/9
    """
    if isinstance(data, str) and data[:1] in "{[":
        try:
            return decode(json.loads(data))
        except json.JSONDecodeError:
            raise ValueError(f"data must be JSON written by encode, got {data[:40]!r}") from None
    if data is None or isinstance(data, bool | int | str):
        return data
    if isinstance(data, dict) and len(data) == 1:
        (kind, body), = data.items()
        if kind == "exact":
            return sp.Rational(body)
        if kind == "sympy":
            return sp.sympify(body)
        if kind == "number":
            return float(body)
        if kind == "dict":
            return {_unhashable(decode(k)): decode(v) for k, v in body}
        if kind == "list":
            return [decode(v) for v in body]
        if kind == "tuple":
            return tuple(decode(v) for v in body)
        if kind == "set":
            return {_unhashable(decode(v)) for v in body}
    raise ValueError(f"data must be what encode writes, got {data!r}")


# --------------------------------------------------------------------------- answers as untrusted data
_RATIONAL = re.compile(r"-?\d{1,400}(/\d{1,400})?")
_SREPR_CALLS = {"Integer": sp.Integer, "Rational": sp.Rational, "Add": sp.Add, "Mul": sp.Mul, "Pow": sp.Pow}
_SREPR_ATOMS = {"Half": sp.S.Half, "One": sp.S.One, "Zero": sp.S.Zero, "NegativeOne": sp.S.NegativeOne,
                "Pi": sp.pi, "Exp1": sp.E}
MAX_DEPTH = 20  # nesting of containers and expressions in an answer
MAX_ITEMS = 10_000  # items of one container


def _srepr(text: str):
    """An exact SymPy number from its ``srepr``, built from a short list of constructors only
    (integers, rationals, sums, products, powers with small exponents, pi and e): no ``eval``."""
    def build(node, depth):
        if depth > MAX_DEPTH:
            raise ValueError("nested too deeply")
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and not node.keywords:
            maker = _SREPR_CALLS.get(node.func.id)
            if maker is None:
                raise ValueError(f"{node.func.id} is not an exact number's part")
            if maker in (sp.Integer, sp.Rational):
                if not all(isinstance(a, ast.Constant) and type(a.value) is int and abs(a.value) < 10**400
                           for a in node.args) or not 1 <= len(node.args) <= 2:
                    raise ValueError("an integer or rational of plain integers")
                return maker(*(a.value for a in node.args))
            args = [build(a, depth + 1) for a in node.args]
            if maker is sp.Pow and (len(args) != 2 or not args[1].is_Rational or abs(args[1]) > 1000):
                raise ValueError("a power with a rational exponent of at most 1000")
            return maker(*args)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _SREPR_ATOMS:
            if node.args or node.keywords:
                raise ValueError("a constant takes no arguments")
            return _SREPR_ATOMS[node.func.id]
        raise ValueError("not an exact number")

    if not isinstance(text, str) or len(text) > 20_000:
        raise ValueError("an exact number's srepr, at most 20,000 characters")
    return build(ast.parse(text, mode="eval").body, 0)


def decode_untrusted(data):
    """The value of an answer exported from a student's notebook, as plain data.

    Like :func:`decode`, but for data a student's kernel wrote: only plain values are built
    (``int``, ``str``, ``bool``, ``float``, exact ``sympy`` numbers and containers of them), no code is
    evaluated (an exact number that is not a fraction is rebuilt by :func:`_srepr`), and sizes are
    bounded. Anything else raises ``ValueError``.

    >>> decode_untrusted({"exact": "4/9"})
    4/9
    >>> decode_untrusted({"sympy": "__import__('os').system('true')"})
    Traceback (most recent call last):
    ...
    ValueError: data must be an exported answer (numbers, fractions, texts, truth values and containers
    of them): not an exact number
    """
    try:
        return _untrusted(data, 0)
    except (ValueError, TypeError, RecursionError) as err:  # TypeError: an unhashable set item
        raise ValueError(f"data must be an exported answer (numbers, fractions, texts, truth values "
                         f"and containers of them): {err}") from None


def _untrusted(data, depth: int):
    if depth > MAX_DEPTH:
        raise ValueError("nested too deeply")
    if data is None or isinstance(data, bool) or (isinstance(data, int) and abs(data) < 10**400):
        return data
    if isinstance(data, str):
        if len(data) > 10_000:
            raise ValueError("a text of at most 10,000 characters")
        return data
    if not (isinstance(data, dict) and len(data) == 1):
        raise ValueError("not an exported answer")
    (kind, body), = data.items()
    if kind == "exact" and isinstance(body, str) and _RATIONAL.fullmatch(body):
        return sp.Rational(body)
    if kind == "sympy":
        return _srepr(body)
    if kind == "number" and isinstance(body, int | float) and not isinstance(body, bool):
        if not math.isfinite(body):
            raise ValueError("a finite number")
        return float(body)
    if kind in ("dict", "list", "tuple", "set") and isinstance(body, list) and len(body) <= MAX_ITEMS:
        if kind == "dict":
            if not all(isinstance(kv, list) and len(kv) == 2 for kv in body):
                raise ValueError("a dict as [key, value] pairs")
            return {_unhashable(_untrusted(k, depth + 1)): _untrusted(v, depth + 1) for k, v in body}
        items = [_untrusted(v, depth + 1) for v in body]
        if kind == "set":
            return {_unhashable(v) for v in items}
        return tuple(items) if kind == "tuple" else items
    raise ValueError("not an exported answer")


# --------------------------------------------------------------------------- forms (public tests)
def form_of(expected):
    """The kind of answer ``expected`` is, without its value: what a public test may tell.

    >>> form_of([Fraction(2, 3), 1])
    {'list': ['exact', 'exact']}
    """
    if isinstance(expected, bool | np.bool_):
        return "truth"
    if isinstance(expected, str):
        return "text"
    if isinstance(expected, float | np.floating | sp.Float):
        return "number"
    if isinstance(expected, numbers.Rational | sp.Basic):
        return "exact"
    if isinstance(expected, dict):
        return {"dict": [[k, form_of(v)] for k, v in expected.items()]}
    if isinstance(expected, list | tuple):
        return {"list": [form_of(v) for v in expected]}
    if isinstance(expected, set | frozenset):
        return {"set": len(expected)}
    raise ValueError(f"expected must be an answer that encode writes, got {expected!r}")


def _keys(form) -> list:
    return [_unhashable(k) for k, _ in form["dict"]]


def check_form(what, value, form) -> None:
    """Raise :class:`AnswerError` unless ``value`` is an answer of the kind ``form`` (see :func:`form_of`).

    >>> check_form("P(B > C)", Fraction(2, 3), "exact")
    >>> check_form("P(B > C)", 0.6667, "exact")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    dicelab.course.homework.AnswerError: P(B > C) should be an exact fraction; you gave a float
    (0.6667). Use ...
    """
    what = _name(what)
    if not (isinstance(form, str) and form in ("exact", "number", "text", "truth") or isinstance(form, dict)):
        raise ValueError(f"form must be what form_of returns, got {form!r}")
    if _missing(value):
        raise AnswerError(f"{what}: no answer yet (replace the ... by your answer)")
    if form == "exact":
        _exact(what, value)
    elif form == "number":
        _number(what, value)
    elif form in ("text", "truth"):
        if _missing(value):
            raise AnswerError(f"{what}: no answer yet (replace the ... by your answer)")
        wanted = str if form == "text" else (bool, np.bool_)
        if not isinstance(value, wanted):
            kind = "a text (a str)" if form == "text" else "True or False"
            raise AnswerError(f"{what} should be {kind}; you gave {_describe(value)}")
    elif isinstance(form, dict) and "dict" in form:
        if not isinstance(value, dict):
            raise AnswerError(f"{what} should be a dict; you gave {_describe(value)}")
        keys = _keys(form)
        if sorted(map(repr, value)) != sorted(map(repr, keys)):
            raise AnswerError(f"{what} should be a dict with the keys {', '.join(map(repr, keys))}")
        for key, sub in zip(keys, (f for _, f in form["dict"]), strict=True):
            check_form(f"{what}[{key!r}]", value[key], sub)
    elif isinstance(form, dict) and "list" in form:
        if not isinstance(value, list | tuple | np.ndarray):
            raise AnswerError(f"{what} should be a list; you gave {_describe(value)}")
        if len(value) != len(form["list"]):
            raise AnswerError(f"{what} should have {len(form['list'])} items; yours has {len(value)}")
        for k, (item, sub) in enumerate(zip(value, form["list"], strict=True)):
            check_form(f"{what}[{k}]", item, sub)
    elif isinstance(form, dict) and "list_of" in form:
        if not isinstance(value, list | tuple | np.ndarray):
            raise AnswerError(f"{what} should be a list; you gave {_describe(value)}")
        for k, item in enumerate(value):
            check_form(f"{what}[{k}]", item, form["list_of"])
    elif isinstance(form, dict) and "set" in form:
        if not isinstance(value, set | frozenset | list | tuple):
            raise AnswerError(f"{what} should be a set; you gave {_describe(value)}")
    else:
        raise ValueError(f"form must be what form_of returns, got {form!r}")


# --------------------------------------------------------------------------- values (hidden tests)
def _same(what: str, value, expected) -> None:
    if isinstance(expected, dict):
        check_form(what, value, form_of(expected))
        for key, sub in expected.items():
            _same(f"{what}[{key!r}]", value[key], sub)
    elif isinstance(expected, list | tuple):
        check_form(what, value, form_of(expected))
        for k, (item, sub) in enumerate(zip(value, expected, strict=True)):
            _same(f"{what}[{k}]", item, sub)
    elif isinstance(expected, set | frozenset):
        check_form(what, value, {"set": len(expected)})
        given = {tuple(v) if isinstance(v, list) else v for v in value}
        if given != expected:
            raise AnswerError(f"{what} is not right: check which items belong to it")
    elif isinstance(expected, bool | str):
        check_form(what, value, form_of(expected))
        same = (
            value.strip().casefold() == expected.strip().casefold()
            if isinstance(expected, str)
            else bool(value) == expected
        )
        if not same:
            raise AnswerError(f"{what} is not right")
    elif isinstance(expected, float):
        number = _number(what, value)
        if not math.isclose(number, expected, rel_tol=NUMBER_TOLERANCE, abs_tol=1e-12):
            raise AnswerError(f"{what} is not right: check your computation")
    else:
        exact = _exact(what, value)
        if sp.simplify(exact - expected) != 0:
            raise AnswerError(f"{what} is not right: check your computation")


def check_answer(what, value, expected) -> None:
    """Raise :class:`AnswerError` unless ``value`` equals ``expected`` (exactly, where it is exact).

    ``expected`` is the answer key's value, or its JSON from :func:`encode`. Exact answers are
    compared exactly; a float never passes for one. Texts are compared without case or surrounding
    space, floats to a relative ``1e-9``.

    >>> check_answer("P(A > C)", sp.Rational(4, 9), {"exact": "4/9"})
    >>> check_answer("P(A > C)", Fraction(4, 9), {"exact": "4/9"})
    >>> check_answer("P(A > C)", 0.4444, {"exact": "4/9"})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    dicelab.course.homework.AnswerError: P(A > C) should be an exact fraction; you gave a float
    (0.4444). Use ...
    """
    what = _name(what)
    encoded = isinstance(expected, dict) and len(expected) == 1 and next(iter(expected)) in KINDS
    if encoded or (isinstance(expected, str) and expected[:1] in "{["):
        try:
            expected = decode(expected)
        except ValueError as err:
            raise ValueError(f"expected must be an answer or what encode writes: {err}") from None
    form_of(expected)  # refuses what no answer can be
    _same(what, value, expected)
