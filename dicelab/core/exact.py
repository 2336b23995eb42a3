"""Exact numbers: one converter to :class:`~fractions.Fraction`, and exact values shown as LaTeX.

The solvers compute with ``Fraction`` (fast, standard library); the chapters show
results with SymPy. Two small bridges:

* :func:`to_fraction` turns any exact number (int, ``Fraction``, SymPy ``Rational``,
  ``Decimal``, a string such as ``"3/7"``) into a ``Fraction``; floats only where
  asked for, at their exact binary value;
* :func:`to_sympy` and :func:`latex_table` / :func:`show_exact` render exact
  values as typeset fractions, so no chapter prints a 39-digit ``Fraction`` string.
"""

from __future__ import annotations

import numbers
from decimal import Decimal
from fractions import Fraction

import sympy

from dicelab.core.checks import (
    check_bool,
    check_digits,
    check_optional_int,
    check_sequence,
    check_str,
)

__all__ = ["to_fraction", "to_sympy", "latex_table", "show_exact", "Math"]


def to_fraction(x, name: str = "value", *, allow_float: bool = False) -> Fraction:
    """``x`` as an exact :class:`Fraction`, or a ``ValueError`` naming ``name``.

    Parameters
    ----------
    x : int, Fraction, sympy.Rational, Decimal, str or (with ``allow_float``) float
        The number. Strings are read by ``Fraction`` (``"1/6"``, ``"0.25"``).
    name : str
        The argument's name, for the error message.
    allow_float : bool
        Take a float at its exact binary value instead of refusing it.

    Returns
    -------
    Fraction

    Examples
    --------
    >>> to_fraction(sympy.Rational(2, 3))
    Fraction(2, 3)
    >>> to_fraction("11/36")
    Fraction(11, 36)
    """
    check_str("name", name)
    check_bool("allow_float", allow_float)
    if isinstance(x, bool):
        raise ValueError(f"{name} must be a number, got {x!r}")
    if isinstance(x, Fraction):
        return x
    if isinstance(x, numbers.Integral):
        return Fraction(int(x))
    if isinstance(x, Decimal):
        if not x.is_finite():
            raise ValueError(f"{name} must be finite, got {x!r}")
        check_digits(name, x, len(x.as_tuple().digits), x.as_tuple().exponent)
        return Fraction(x)
    if isinstance(x, sympy.Rational):
        return Fraction(int(x.p), int(x.q))
    if isinstance(x, str):
        check_digits(name, x, *_digits_and_exponent(x))
        try:
            return Fraction(x.strip())
        except (ValueError, ZeroDivisionError):
            raise ValueError(f"{name}: {x[:100]!r} is not a number") from None
    if isinstance(x, numbers.Real):
        value = float(x)
        if not allow_float:
            raise ValueError(
                f"{name} must be exact (int, Fraction, Rational or a string), got the float {x!r}"
            )
        if value != value or value in (float("inf"), float("-inf")):
            raise ValueError(f"{name} must be finite, got {x!r}")
        return Fraction(value)
    raise ValueError(f"{name} must be a number, got {x!r}")


def _digits_and_exponent(text: str) -> tuple[int, int]:
    """The digits of a decimal text (``"1.5e-3"``: 2) and its exponent (-3), from the characters
    alone: no number is formed. The exponent saturates at ``10**9`` either way."""
    mantissa, _, exponent = text.strip().lower().partition("e")
    digits = sum(c.isdigit() for c in mantissa)
    exponent = exponent.strip().lstrip("+")
    negative = exponent.startswith("-")
    body = exponent.lstrip("-").lstrip("0").replace("_", "")
    if not body.isdigit():
        return digits, 0  # no exponent (or not a number, which Fraction reports)
    value = int(body) if len(body) < 10 else 10**9
    return digits, -value if negative else value


def to_sympy(x):
    """An exact number (or a nested list / array of them) as SymPy objects.

    >>> to_sympy(Fraction(2, 3))
    2/3
    """
    return _to_sympy(x, "x")


def _to_sympy(x, name: str):
    """:func:`to_sympy`, with errors naming the argument ``name``."""
    if isinstance(x, list | tuple):
        return type(x)(_to_sympy(v, name) for v in x)
    if isinstance(x, dict | set | frozenset | bytes):
        raise ValueError(
            f"{name} must be a number, a string, a SymPy expression or a list or array of them, got {x!r}"[
                :300
            ]
        )
    if getattr(x, "ndim", 0) > 0 and not isinstance(x, sympy.Basic):  # a numpy array
        return sympy.Matrix(_to_sympy(x.tolist(), name))
    if hasattr(x, "item") and not isinstance(x, sympy.Basic):  # a numpy scalar
        x = x.item()
    if isinstance(x, Fraction):
        return sympy.Rational(x.numerator, x.denominator)
    if isinstance(x, sympy.Basic) or isinstance(x, str):
        return x
    if isinstance(x, numbers.Integral) and not isinstance(x, bool):
        return sympy.Integer(int(x))
    if isinstance(x, numbers.Real) and not isinstance(x, bool):
        if x != x or x in (float("inf"), float("-inf")):
            raise ValueError(f"{name} must be finite, got {x!r}")
        return sympy.Float(x)
    if isinstance(x, Decimal):
        return _to_sympy(to_fraction(x, name), name)
    if isinstance(x, sympy.MatrixBase):
        return x
    try:
        return sympy.sympify(x, strict=True)
    except Exception:  # noqa: BLE001 - not sympifiable, or an object whose conversion fails
        raise ValueError(
            f"{name} must be a number, a string, a SymPy expression or a list or array of them, got {x!r}"[
                :300
            ]
        ) from None


def _cell(x, name: str) -> str:
    """One entry as LaTeX: ``"$...$"`` is LaTeX already, other strings are text, numbers exact."""
    if isinstance(x, str):
        if len(x) >= 2 and x.startswith("$") and x.endswith("$"):
            return x[1:-1]
        return r"\text{" + x.replace("_", r"\_").replace("#", r"\#") + "}"
    return sympy.latex(_to_sympy(x, name))


def latex_table(rows, header=None, *, align: str | None = None) -> str:
    r"""A LaTeX ``array`` of exact values (Fractions typeset as ``\frac``), strings as text.

    >>> latex_table([[Fraction(1, 6), 2]], header=["p", "n"])
    '\\begin{array}{cc}\n\\text{p} & \\text{n} \\\\ \\hline\n\\frac{1}{6} & 2\n\\end{array}'
    """
    rows = [
        list(check_sequence("rows", r, what="entries")) for r in check_sequence("rows", rows, what="rows")
    ]
    if header is not None:
        header = check_sequence("header", header, what="column titles")
    width = max([len(r) for r in rows] + ([len(header)] if header else []))
    if align is not None and (
        not isinstance(align, str) or len(align.replace("|", "")) != width or set(align) - set("lcr|")
    ):
        raise ValueError(f"align must be a string of {width} of l, c, r (and | rules), got {align!r}")
    lines = []
    if header:
        lines.append(" & ".join(_cell(h, "header") for h in header) + r" \\ \hline")
    body = [" & ".join(_cell(v, "rows") for v in r) for r in rows]
    lines.append(" \\\\\n".join(body))
    return "\\begin{array}{" + (align or "c" * width) + "}\n" + "\n".join(lines) + "\n\\end{array}"


class Math:
    """A LaTeX string that Jupyter displays typeset (``$$ ... $$``) and prints as plain LaTeX.

    >>> Math(r"\frac{2}{3}")
    \frac{2}{3}
    """

    def __init__(self, latex: str):
        self.latex = check_str("latex", latex)

    def _repr_latex_(self):
        return f"$$\n{self.latex}\n$$"

    def __repr__(self):
        return self.latex


def show_exact(digits: int | None = None, **values) -> Math:
    r"""Typeset named exact values, one per line: ``show_exact(E=Fraction(7, 2))`` shows E = 7/2.

    Names may be LaTeX (``show_exact(**{r"\mathbb{E}[X]": e})``). With ``digits``, each
    non-integer exact value is followed by its decimal value to that many significant digits.

    >>> show_exact(p=Fraction(2, 3))
    \begin{aligned}p &= \frac{2}{3}\end{aligned}
    >>> show_exact(digits=3, p=Fraction(2, 3))
    \begin{aligned}p &= \frac{2}{3} \approx 0.667\end{aligned}
    """

    digits = check_optional_int("digits", digits, 1, 100)

    def entry(k, v):
        tex = _cell(v, k)
        value = _to_sympy(v, k) if not isinstance(v, str) else None
        if digits and isinstance(value, sympy.Rational) and not isinstance(value, sympy.Integer):
            tex += r" \approx " + sympy.latex(sympy.Float(value, digits))
        return tex

    lines = [f"{k} &= {entry(k, v)}" for k, v in values.items()]
    return Math(r"\begin{aligned}" + r" \\ ".join(lines) + r"\end{aligned}")
