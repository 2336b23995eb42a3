"""The up-front cost estimates against the measured cost, and the sizes refused up front."""

import importlib.util
import time

import pytest

from dicelab import claims, efron, exact, markov, paths

_spec = importlib.util.spec_from_file_location("budgets", paths.repo_root() / "benchmarks" / "budgets.py")
budgets = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(budgets)


@pytest.mark.parametrize("name", list(budgets.CASES))
def test_each_estimate_is_within_a_factor_of_3_of_the_measured_cost(name):
    warm_up, sizes = budgets.CASES[name]
    warm_up()
    for size in (s for s in sizes if s.small):
        for _attempt in range(3):  # a shared machine may slow one median down: measure again
            estimate, measured = budgets.measure(size.call, 3, size.setup)
            if 1 / 3 <= measured / estimate <= 3:
                break
        assert measured >= 0.02, f"{name}, {size.label}: {measured:.3f} s is too short to calibrate on"
        assert 1 / 3 <= measured / estimate <= 3, (
            f"{name}, {size.label}: estimated {estimate:.3g} s, measured {measured:.3g} s"
        )


def test_the_closed_form_answers_large_counts_at_once():
    t0 = time.perf_counter()
    assert efron.num_unique_dice(10**9, 3) == efron.num_unique_dice_closed_form(10**9, 3)
    assert efron.num_unique_dice(10**9, 3) == (10**9 + 2) * (10**9 + 1) * 10**9 // 6
    assert time.perf_counter() - t0 < 1


@pytest.mark.parametrize("text", ["9" * 5000, "1e10000000", "1e-10000000", "1" + "0" * 4400 + "/3"])
def test_numbers_too_long_to_read_are_refused_with_the_limit(text):
    t0 = time.perf_counter()
    with pytest.raises(ValueError, match=r"x: .* digits written out; exact numbers are read up to 4,300"):
        exact.to_fraction(text, "x")
    with pytest.raises(ValueError, match="read up to 4,300 digits"):
        claims.printed_number(text.partition("/")[0])
    with pytest.raises(ValueError, match=r"P\[0, 0\]: .* read up to 4,300 digits"):
        markov.AbsorbingChain([[text, 0], [0, 1]])
    assert time.perf_counter() - t0 < 1


def test_numbers_up_to_the_limit_are_read():
    assert exact.to_fraction("9" * 4300) == 10**4300 - 1
    assert exact.to_fraction("1e-4299") == exact.to_fraction(1) / 10**4299
    assert claims.printed_number("1.5e3") == (1500, 50)  # half a unit of the last printed digit
