"""Valid input never raises: property tests for the exact-number, claims and notebook helpers."""

import keyword
from decimal import Decimal, localcontext
from fractions import Fraction

import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from dicelab.core import exact
from dicelab.course import claims, notebook

fractions = st.fractions(min_value=-(10**9), max_value=10**9, max_denominator=10**6)
exact_numbers = st.one_of(st.integers(-(10**12), 10**12), fractions)
names = st.text(alphabet="abcdefghijklmnopqrstuvwxyz_", min_size=1, max_size=8).filter(
    lambda s: s.isidentifier() and not keyword.iskeyword(s)
)


@settings(max_examples=200, deadline=None)
@given(exact_numbers)
def test_exact_numbers_round_trip(x):
    assert exact.to_fraction(x) == x
    assert exact.to_fraction(str(x)) == x
    assert exact.to_sympy(x) == sympy.Rational(Fraction(x).numerator, Fraction(x).denominator)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.lists(exact_numbers, min_size=1, max_size=4), min_size=1, max_size=4), st.integers(1, 20))
def test_tables_and_values_typeset(rows, digits):
    tex = exact.latex_table(rows)
    assert tex.startswith("\\begin{array}") and tex.count("\\\\") == len(rows) - 1
    assert "approx" in repr(exact.show_exact(digits=digits, x=Fraction(1, 3)))


@settings(max_examples=200, deadline=None)
@given(fractions, st.integers(1, 8))
def test_a_value_agrees_with_itself_printed_to_any_precision(x, places):
    with localcontext(prec=80):
        printed = str(round(Decimal(x.numerator) / Decimal(x.denominator), places))
    assert claims.agrees_as_printed(printed, x)
    agree, _, tol = claims.compare(printed, x)
    assert agree and tol == Fraction(1, 2) * Fraction(10) ** -places


@settings(max_examples=100, deadline=None)
@given(st.dictionaries(names, st.integers(0, 9), min_size=1, max_size=4), st.data())
def test_declared_parameters_pass(declared, data):
    passed = data.draw(st.lists(st.sampled_from(sorted(declared)), unique=True))
    history = [
        notebook.DECLARED + "\n" + "".join(f"{k} = {v}\n" for k, v in declared.items()),
        notebook.INJECTED + "".join(f"{k} = 1\n" for k in passed),
    ]
    assert notebook.check_parameters(history) == sorted(passed)
