"""Bad values passed as keywords (``show_exact(p=...)``), which the table's argument list cannot
name: each is refused with a message naming its keyword."""

import math

import pytest

from dicelab.core import exact


@pytest.mark.parametrize("value", [math.nan, math.inf, object(), {1: 2}, [math.nan]])
def test_show_exact_names_the_value(value):
    with pytest.raises(ValueError, match="^p_win "):
        exact.show_exact(p_win=value)
