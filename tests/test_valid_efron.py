"""Valid input is never refused: dicelab.efron and the Efron explorer, on small random arguments.

Every call below is within the documented ranges; it must run without raising and
give sane results (counts positive, probabilities in [0, 1], shapes as documented).
"""

import itertools
from fractions import Fraction

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from dicelab import efron as e
from dicelab.course.explore import efron_dice as ex
from dicelab.efron import reference

SMALL = settings(max_examples=25, deadline=None)

sides = st.integers(1, 4)
labels = st.integers(1, 5)
counts = st.lists(st.integers(0, 4), min_size=1, max_size=5).filter(any)
faces = st.lists(st.integers(-5, 9), min_size=1, max_size=6)
as_int = st.sampled_from([int, np.int64, np.int32])  # Python and numpy integers alike


@st.composite
def digraphs(draw, max_n=6):
    """A small weighted digraph: integer weights, a 0/1 or boolean mask, and a cycle length."""
    n = draw(st.integers(1, max_n))
    weights = np.array(draw(st.lists(st.integers(-4, 9), min_size=n * n, max_size=n * n))).reshape(n, n)
    mask = np.array(draw(st.lists(st.booleans(), min_size=n * n, max_size=n * n))).reshape(n, n)
    if draw(st.booleans()):
        mask = mask.astype(int)  # 0/1 entries are as good as booleans
    return weights, mask, draw(st.integers(2, 5))


@SMALL
@given(labels, st.integers(0, 6), as_int)
def test_counting_and_listing_dice(L, S, kind):
    S += 1
    n = e.num_unique_dice(sides=kind(S), labels=kind(L))
    assert n == e.num_unique_dice_closed_form(sides=S, labels=L) >= 1
    dice = e.unique_dice(sides=kind(S), labels=kind(L))
    assert dice.shape == (n, L) and (dice >= 0).all() and (dice.sum(axis=1) == S).all()


@SMALL
@given(counts)
def test_faces_and_counts_round_trip(d):
    f = e.die_faces(d)
    assert len(f) == sum(d) and list(f) == sorted(f)
    assert e.die_counts(f, labels=len(d)).tolist() == d


@SMALL
@given(st.lists(counts, min_size=1, max_size=5), st.integers(1, 3))
def test_wins_matrix_and_sums_of_rolls(rows, rolls):
    width = max(map(len, rows))
    D = np.array([r + [0] * (width - len(r)) for r in rows])
    W = e.wins_matrix(D)
    sizes = D.sum(axis=1)
    assert (W >= 0).all() and (W + W.T <= np.outer(sizes, sizes)).all()
    summed = e.sum_of_rolls(D, rolls=rolls)
    assert (summed.sum(axis=1) == sizes**rolls).all() and summed.shape[1] == rolls * (width - 1) + 1
    P = reference.exact_win_probabilities(D)
    assert all(0 <= p <= 1 for row in P for p in row)


@SMALL
@given(faces, faces, st.integers(1, 3))
def test_p_beats_is_a_probability(a, b, rolls):
    p, q = e.p_beats(a, b, rolls=rolls), e.p_beats(tuple(b), np.array(a), rolls=np.int64(rolls))
    assert 0 <= p <= 1 and 0 <= q <= 1 and p + q <= 1


@SMALL
@given(st.integers(1, 40), st.integers(0, 40), st.none() | st.integers(0, 40))
def test_thresholds_and_allowed_edges(S, min_wins, wins):
    assert S * S < 2 * e.strict_min_wins(sides=S) <= S * S + 2
    W = e.wins_matrix(e.unique_dice(sides=3, labels=3))
    A = e.allowed_edges(W, min_wins=min_wins, wins=wins)
    assert A.dtype == bool and A.shape == W.shape and not A.diagonal().any()


@SMALL
@given(st.integers(1, 4), st.integers(1, 4), st.integers(1, 4), st.integers(0, 2**32 - 1))
def test_maxplus_product_by_hand(n, k, m, seed):
    rng = np.random.default_rng(seed)
    A, B = rng.integers(-9, 9, (n, k)), rng.integers(-9, 9, (k, m))
    C = e.maxplus_product(A, B.tolist())
    assert C.tolist() == [[max(A[i, t] + B[t, j] for t in range(k)) for j in range(m)] for i in range(n)]


@SMALL
@given(digraphs())
def test_searches_on_any_small_digraph(graph):
    weights, mask, M = graph
    res = e.max_sum_cycles(weights, mask, dice=M)
    assert res.cycles.shape[1] == M and (res.value is None) == (len(res.cycles) == 0)
    log = e.search_log(weights, mask, dice=M)
    actions = {"start", "stop", "dead end", "prune", "extend", "new best", "tie"}
    assert all(step.action in actions for step in log)
    value, walks = reference.paper_max_sum_walks(weights, mask, dice=M)
    assert all(len(w) == M for w in walks) and (value is None) == (not walks)


@SMALL
@given(st.lists(st.integers(0, 3), max_size=6), st.integers(0, 6))
def test_same_cycle_on_rotations(a, k):
    k = k % max(len(a), 1)
    assert e.same_cycle(a, a[k:] + a[:k]) and e.same_cycle(tuple(a), np.array(a[k:] + a[:k], dtype=int))
    assert e.same_cycle("abc", "cab") and not e.same_cycle(a, a + [0])


@settings(max_examples=15, deadline=None)
@given(sides, labels, st.integers(3, 4), st.data())
def test_searches_over_every_die(S, L, M, data):
    S2 = S * S
    min_wins = data.draw(st.none() | st.integers((S2 + 1) // 2, S2))
    wins = data.draw(st.none() | st.integers(min_wins or e.strict_min_wins(sides=S), S2))
    sets = e.best_cycles(sides=S, labels=L, dice=M, wins=wins, min_wins=min_wins)
    assert all(len(s) == M and all(len(f) == S for f in s) for s in sets)
    total, exact_sets = reference.exact_best_cycles(sides=S, labels=L, dice=M, wins=wins, min_wins=min_wins)
    assert exact_sets == sets and (total is None) == (not sets)
    everything = e.search_all(sides=S, labels=L, dice=M, min_wins=min_wins)
    assert everything[None][1] == e.best_cycles(sides=S, labels=L, dice=M, min_wins=min_wins)
    if min_wins is None:
        assert e.count_cycles(sides=S, labels=L, dice=M) >= len(sets)


@SMALL
@given(st.integers(1, 5), st.integers(1, 7), st.integers(0, 2**32 - 1))
def test_closed_walks_are_counts(n, M, seed):
    A = np.random.default_rng(seed).random((n, n)) < 0.5
    walks = e.closed_walks(A, dice=M)
    assert isinstance(walks, int) and 0 <= walks <= n**M
    assert e.closed_walks(A.astype(int).tolist(), dice=M) == walks


def test_closed_walks_stay_exact_past_int64():
    full = np.ones((50, 50), dtype=bool)  # trace(J^M) = 50^M, past 2**63 for M >= 12
    assert e.closed_walks(full, dice=30) == 50**30


names = st.text(alphabet="ABCDEFGH", min_size=1, max_size=3)


@SMALL
@given(st.dictionaries(names, faces, min_size=2, max_size=5), st.integers(1, 2))
def test_matchup_of_dice_as_dict_or_text(dice, rolls):
    m = ex.matchup(dice, rolls)
    assert all(0 <= p <= 1 for p in m.p.values())
    assert all(m.p[x, y] + m.p[y, x] <= 1 for x, y in itertools.combinations(dice, 2))
    text = "\n".join(f"{name}: {' '.join(map(str, f))}" for name, f in dice.items())
    assert ex.parse_dice(text) == {k: tuple(v) for k, v in dice.items()}
    assert ex.matchup(text, rolls).p == m.p
    for cycle in m.cycles:
        assert Fraction(1, 2) < m.weakest(cycle) <= 1 and m.weakest(list(cycle)) == m.weakest(cycle)
    assert m.rows()[0][0] == next(iter(dice))


def test_the_explorer_and_the_graph_take_valid_input():
    m = ex.matchup("P: 0 3\nQ: 1 2", rolls=np.int64(2))
    assert ex.beat_graph(m).axes
    assert ex.efron_explorer("P: 0 3\nQ: 1 2", rolls=4).controls["rolls"].value == 4
