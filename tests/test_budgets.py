"""The sizes refused up front, and the closed form that answers large counts.

How long these take is measured by ``make benchmark``, not here: ``benchmarks/budgets.py``
checks every up-front cost estimate against the measured CPU cost (within a factor of 3 on the
small sizes) and that the closed form and the refusals below answer at once (under a second).
"""

import pytest

from dicelab import efron
from dicelab.core import exact, markov
from dicelab.course import claims


def test_the_closed_form_answers_large_counts():
    assert efron.num_unique_dice(sides=3, labels=10**9) == efron.num_unique_dice_closed_form(
        sides=3, labels=10**9
    )
    assert efron.num_unique_dice(sides=3, labels=10**9) == (10**9 + 2) * (10**9 + 1) * 10**9 // 6


TOO_LONG = ["9" * 5000, "1e10000000", "1e-10000000", "1" + "0" * 4400 + "/3"]


@pytest.mark.parametrize("text", TOO_LONG)
def test_numbers_too_long_to_read_are_refused_with_the_limit(text):
    with pytest.raises(ValueError, match=r"x: .* digits written out; exact numbers are read up to 4,300"):
        exact.to_fraction(text, "x")
    with pytest.raises(ValueError, match="read up to 4,300 digits"):
        claims.printed_number(text.partition("/")[0])
    with pytest.raises(ValueError, match=r"P\[0, 0\]: .* read up to 4,300 digits"):
        markov.AbsorbingChain([[text, 0], [0, 1]])


def test_numbers_up_to_the_limit_are_read():
    assert exact.to_fraction("9" * 4300) == 10**4300 - 1
    assert exact.to_fraction("1e-4299") == exact.to_fraction(1) / 10**4299
    assert claims.printed_number("1.5e3") == (1500, 50)  # half a unit of the last printed digit
