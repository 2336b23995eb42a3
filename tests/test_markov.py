"""Tests of dicelab.core.markov on textbook absorbing chains (Grinstead and Snell, Chapter 11)."""

import itertools
from fractions import Fraction as F

import numpy as np
import pytest

from dicelab.core.markov import AbsorbingChain


def drunkards_walk(n=5, p=F(1, 2)):
    """Corners 0 and n-1 absorb; elsewhere step right with p, left with 1 - p."""
    P = [[F(0)] * n for _ in range(n)]
    P[0][0] = P[n - 1][n - 1] = F(1)
    for i in range(1, n - 1):
        P[i][i + 1], P[i][i - 1] = p, 1 - p
    return AbsorbingChain(P, states=range(n))


def test_drunkards_walk_textbook_values():
    chain = drunkards_walk()
    assert chain.transient == (1, 2, 3) and chain.absorbing == (0, 4)
    assert chain.N.tolist() == [[F(3, 2), 1, F(1, 2)], [1, 2, 1], [F(1, 2), 1, F(3, 2)]]
    assert chain.t.tolist() == [3, 4, 3]
    assert chain.B.tolist() == [[F(3, 4), F(1, 4)], [F(1, 2), F(1, 2)], [F(1, 4), F(3, 4)]]
    assert chain.absorption_probability(1, 0) == F(3, 4) and chain.expected_steps(2) == 4


@pytest.mark.parametrize("n", [3, 6, 9])
@pytest.mark.parametrize("p", [F(1, 3), F(1, 2), F(3, 4)])
def test_gamblers_ruin_closed_form(n, p):
    chain = drunkards_walk(n, p)
    q, last = 1 - p, n - 1
    for i in range(1, last):
        ruin = F(1, 1) - F(i, last) if p == q else ((q / p) ** i - (q / p) ** last) / (1 - (q / p) ** last)
        assert chain.absorption_probability(i, 0) == ruin
    assert all(sum(row) == 1 for row in chain.B)


def test_exact_identities_and_float_views():
    chain = drunkards_walk(7, F(2, 5))
    m = len(chain.transient)
    eye = np.array([[F(int(i == j)) for j in range(m)] for i in range(m)], dtype=object)
    assert ((eye - chain.Q).dot(chain.N) == eye).all()
    assert np.allclose(chain.float_view("N"), np.linalg.inv(np.eye(m) - chain.float_view("Q")))
    canon = chain.canonical()
    assert canon[m:, m:].tolist() == [[1, 0], [0, 1]] and (canon[:m, :m] == chain.Q).all()


def test_entries_given_as_strings_and_a_chain_with_loops():
    P = [["1/2", "1/2", "0"], ["1/3", "1/3", "1/3"], ["0", "0", "1"]]
    chain = AbsorbingChain(P, states=["a", "b", "end"])
    assert chain.N.tolist() == [[4, 3], [2, 3]]  # (I - Q)^-1 with I - Q = [[1/2, -1/2], [-1/3, 2/3]]
    assert chain.expected_steps("a") == 7 and chain.expected_steps("b") == 5
    assert chain.absorption_probability("b", "end") == 1


@pytest.mark.parametrize(
    ("P", "message"),
    [
        ([[F(1, 2), F(1, 2)], [F(1, 2), F(1, 2)]], "no absorbing state"),
        ([[1, 0], [F(1, 2), F(1, 3)]], "not stochastic"),
        ([[1, 0, 0], [0, F(1, 2), F(1, 2)], [0, F(1, 2), F(1, 2)]], "never reach an absorbing state"),
        ([[1, 0], [2, -1]], "outside"),
        ([[1, 0]], "square"),
        ([[1, 0], ["x", 1]], "not a number"),
    ],
)
def test_bad_input(P, message):
    with pytest.raises(ValueError, match=message):
        AbsorbingChain(P)


# --------------------------------------------------------------------------- simulation


def test_simulate_returns_a_sample_of_the_same_draws():
    chain = AbsorbingChain([["1/2", "1/4", "1/4"], [0, 1, 0], [0, 0, 1]], states=["go", "a", "b"])
    sample = chain.simulate(2000, seed=7, start="go")
    again = chain.simulate(2000, seed=7)  # the first transient state is the default start
    assert sample.n == 2000 and sample.seed == 7 and sorted(sample.columns) == ["absorbed", "steps"]
    assert (sample["absorbed"] == again["absorbed"]).all() and (sample["steps"] == again["steps"]).all()
    # the draws of numpy's generator from the seed, one uniform per run and step, compared with the
    # cumulative rows of the canonical matrix: the run's next state is the first column above it
    rng = np.random.default_rng(7)
    first = rng.random(2000)
    expect = np.where(first < 0.5, -1, np.where(first < 0.75, 0, 1))
    done = expect >= 0
    assert (sample["absorbed"][done] == expect[done]).all() and (sample["steps"][done] == 1).all()
    assert abs(sample.share("absorbed", 0) - 0.5) < 4 * (0.25 / 2000) ** 0.5


# --------------------------------------------------------------------------- hitting and first passage


def random_chain(seed, n=5, absorbing=2):
    """A random absorbing chain on ``n`` states, the last ``absorbing`` of them absorbing; entries are
    small fractions, some zero, and state ``k`` steps to ``k + 1`` with positive probability."""
    rng = np.random.default_rng(seed)
    P = []
    for i in range(n - absorbing):
        w = rng.integers(0, 4, size=n) * (rng.random(n) < 0.7)
        w[i + 1] += 1
        P.append([F(int(x), int(w.sum())) for x in w])
    for i in range(n - absorbing, n):
        P.append([F(int(i == j)) for j in range(n)])
    return AbsorbingChain(P, states=range(n))


def paths_first_passage(chain, targets, start, k):
    """``P(T = k)`` by enumerating every path of ``k`` steps from ``start`` that first meets the targets
    at its end."""
    P = chain.P
    if k == 0:
        return F(int(start in targets))
    total = F(0)
    for path in itertools.product(range(len(P)), repeat=k):
        walk = (start, *path)
        if any(x in targets for x in walk[:-1]) or walk[-1] not in targets:
            continue
        prob = F(1)
        for a, b in itertools.pairwise(walk):
            prob *= P[a, b]
        total += prob
    return total


def stopped_power(chain, targets, k):
    """``P(T <= k)`` from every state: the ``k``-th power of ``P`` with the targets made absorbing."""
    n = len(chain.states)
    S = np.array([[F(int(i == j)) if i in targets else chain.P[i, j] for j in range(n)] for i in range(n)])
    power = np.array([[F(int(i == j)) for j in range(n)] for i in range(n)], dtype=object)
    for _ in range(k):
        power = power.dot(S)
    return [sum((power[i, t] for t in targets), F(0)) for i in range(n)]


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("targets", [{2}, {3}, {1, 4}, {0}])
def test_first_passage_equals_path_enumeration_and_matrix_powers(seed, targets):
    chain = random_chain(seed)
    laws = chain.first_passage(targets, 5)
    below = [stopped_power(chain, targets, k) for k in range(6)]
    for i in chain.states:
        pmf, tail = laws[i]
        assert len(pmf) == 6 and sum(pmf) + tail == 1
        assert [pmf[k] for k in range(6)] == [paths_first_passage(chain, targets, i, k) for k in range(6)]
        assert [sum(pmf[: k + 1]) for k in range(6)] == [below[k][i] for k in range(6)]
        assert chain.first_passage(targets, 5, start=i) == laws[i]


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("targets", [{1}, {2}, {3}, {1, 4}, {0, 3}])
def test_hitting_probability_against_the_chain_with_the_targets_absorbing(seed, targets):
    chain = random_chain(seed)
    n = len(chain.states)
    h = chain.hitting_probability(targets)
    # independently: make the targets absorbing, and add their absorption probabilities
    stopped = AbsorbingChain(
        [[F(int(i == j)) if i in targets else chain.P[i, j] for j in range(n)] for i in range(n)],
        states=range(n),
    )
    for i in range(n):
        if i in targets:
            assert h[i] == 1
        elif i in stopped.absorbing:
            assert h[i] == 0
        else:
            assert h[i] == sum(stopped.absorption_probability(i, t) for t in targets)
        assert chain.hitting_probability(targets, start=i) == h[i]
        # P(T <= k) rises to h and never passes it: h - P(T <= k) = E[h(X_k); T > k], at most P(T > k)
        law = chain.first_passage(targets, 400, start=i)
        gaps = [h[i] - sum(law.pmf[: k + 1]) for k in (100, 400)]
        assert 0 <= gaps[1] <= gaps[0] and gaps[1] <= law.tail and gaps[1] < F(1, 1000)


def test_hitting_probabilities_are_the_fundamental_matrix_ratios_and_B():
    chain = drunkards_walk(6, F(2, 5))
    for j_index, j in enumerate(chain.transient):
        for i_index, i in enumerate(chain.transient):
            h = chain.hitting_probability(j, start=i)
            assert h == (1 if i == j else chain.N[i_index, j_index] / chain.N[j_index, j_index])
    for i in chain.transient:
        for end in chain.absorbing:
            assert chain.hitting_probability(end, start=i) == chain.absorption_probability(i, end)
            assert chain.hitting_probability([end], start=i) == chain.absorption_probability(i, end)


@pytest.mark.parametrize("p", [F(1, 3), F(1, 2)])
def test_gamblers_ruin_first_passage_and_hitting_in_closed_form(p):
    chain, q = drunkards_walk(7, p), 1 - p
    # from 3 the walk reaches 5 before 0 with the ruin formula; it first stands on 5 after 2 steps
    # with p^2, after 4 steps with 2 p^3 q (right, right-left or left-right, right, right; never 5 before)
    r = q / p
    # reaching 5 from 3 is the gambler's ruin on 0..5: win before ruin
    assert chain.hitting_probability(5, start=3) == (F(3, 5) if p == q else (1 - r**3) / (1 - r**5))
    assert chain.hitting_probability(5, start=3) == chain.hitting_probability([5, 6], start=3)
    pmf, tail = chain.first_passage(5, 4, start=3)
    assert pmf == (0, 0, p * p, 0, 2 * p**3 * q) and tail == 1 - p * p - 2 * p**3 * q


def test_targets_and_starts_may_be_any_states():
    chain = AbsorbingChain([["1/2", "1/4", "1/4"], [0, 1, 0], [0, 0, 1]], states=["go", "a", "b"])
    assert chain.hitting_probability("go") == {"go": 1, "a": 0, "b": 0}
    assert chain.hitting_probability(["a", "b"], start="go") == 1
    assert chain.first_passage("a", 2, start="a") == ((1, 0, 0), 0)
    assert chain.first_passage("a", 2, start="b") == ((0, 0, 0), 1)  # never: T is infinite
    assert chain.first_passage("a", 0, start="go") == ((0,), 1)


def test_hitting_and_first_passage_against_monte_carlo():
    """Runs of a random chain, simulated step by step: the share of runs that hit the targets, and of
    those that first hit them at step 1, 2, 3, lie within 4.5 standard errors of the exact values."""
    chain = random_chain(11, n=6, absorbing=2)
    targets, start, runs = {2, 5}, 0, 40_000
    P = chain.float_view("P")
    rng = np.random.default_rng(3)
    state = np.full(runs, start)
    first = np.full(runs, -1)
    for step in range(1, 400):
        moving = first < 0
        u = rng.random(moving.sum())
        state[moving] = (u[:, None] >= np.cumsum(P[state[moving]], axis=1)).sum(axis=1)
        first[moving & np.isin(state, list(targets))] = step
    h = float(chain.hitting_probability(targets, start=start))
    pmf, _ = chain.first_passage(targets, 3, start=start)
    for estimate, exact in [
        (np.mean(first > 0), h),
        *((np.mean(first == k), float(pmf[k])) for k in (1, 2, 3)),
    ]:
        se = (exact * (1 - exact) / runs) ** 0.5
        assert abs(estimate - exact) <= 4.5 * se + 1e-12, (estimate, exact)


def test_bad_targets_and_starts():
    chain = drunkards_walk()
    with pytest.raises(ValueError, match="targets must be one of"):
        chain.hitting_probability([9])
    with pytest.raises(ValueError, match="targets must name at least one state"):
        chain.first_passage([], 3)
    with pytest.raises(ValueError, match="start must be one of"):
        chain.first_passage(0, 3, start=9)
    with pytest.raises(ValueError, match="steps must be >= 0"):
        chain.first_passage(0, -1)
