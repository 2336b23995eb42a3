"""Tests of dicelab.core.markov on textbook absorbing chains (Grinstead and Snell, Chapter 11)."""

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
