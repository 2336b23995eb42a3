"""The harsher bad values of ``census.py`` (numpy scalars, ``Decimal``, non-ASCII digits, integers
beyond any budget or any float, objects whose conversions or comparisons raise, odd matrices), on
every row of the bad-input table: each refused with a ValueError or TypeError naming its argument.

The one exception is an exact integer of 401 digits where any exact number is valid input."""

import pytest

from bad_input import case_id, census
from bad_input.test_refused import ROWS

VALID = {  # arguments that take any exact number: a huge integer is one
    ("to_sympy", "x"),
    ("compare", "ours"),
    ("power_of_ten_slip", "ours"),
}
CASES = [(row, value) for row in ROWS for value in census.harsher(row.values)]


@pytest.mark.parametrize(
    ("row", "value"),
    CASES,
    ids=[case_id(row, value) for row, value in CASES],
)
def test_harsher_bad_input_is_refused_by_name(row, value):
    kind, detail = census.outcome(row, value)
    if kind == "silent" and (row.target.__name__, row.arg) in VALID and value == 10**400:
        return
    assert kind == "clear", f"{row.target.__qualname__}({row.arg}={value!r:.60}): {kind}, {detail}"
