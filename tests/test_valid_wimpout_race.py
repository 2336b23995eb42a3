"""Valid input is never refused: the race to a target on random small targets and rule readings
gives probabilities in [0, 1] and a converged value iteration."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from dicelab import wimpout

FAST = settings(max_examples=12, deadline=None)
multiples = st.integers(0, 12).map(lambda k: 5 * k)


@FAST
@given(points=st.integers(0, 20).map(lambda k: 5 * k), minimum=multiples)
def test_reach_probability_is_a_probability(points, minimum):
    p = wimpout.reach_probability(points, minimum=minimum)
    assert 0 < p < 1
    assert p == wimpout.reach_probability(max(points, minimum))


@FAST
@given(
    target=st.integers(1, 10).map(lambda k: 5 * k),
    minimum=st.sampled_from([0, 5, 35, 60, np.int64(35)]),
    sun_value=st.sampled_from([5, 10]),
)
def test_solve_race_gives_probabilities(target, minimum, sun_value):
    sol = wimpout.solve_race(target, minimum=minimum, rules=wimpout.Rules(sun_value=sun_value))
    assert ((sol.values > 0) & (sol.values < 1)).all()
    assert sol.residual < 1e-12
    assert (sol.thresholds >= 5).all()
    match = wimpout.evaluate_race(sol, "optimal", "optimal")
    assert np.abs(match.WA - sol.values).max() < 1e-11
