"""Tests of dicelab.efron: counting, the wins matrix, the cycle search against brute force and the paper."""

import itertools
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dicelab import efron as e
from dicelab.efron import _kernels as k
from dicelab.efron import reference

# --------------------------------------------------------------------------- brute force references


def brute_force_cycles(weights, allowed, M):
    """Every simple M-cycle by enumerating ordered M-tuples of distinct nodes."""
    n = len(weights)
    best, cycles = None, []
    for combo in itertools.permutations(range(n), M):
        if combo[0] != min(combo):
            continue  # one rotation per cycle
        steps = list(zip(combo, combo[1:] + combo[:1], strict=True))
        if not all(allowed[i][j] for i, j in steps):
            continue
        value = sum(weights[i][j] for i, j in steps)
        if best is None or value > best:
            best, cycles = value, [combo]
        elif value == best:
            cycles.append(combo)
    return best, sorted(cycles)


def dfs_cycles(weights, allowed, M):
    """Every simple M-cycle by plain depth-first search over simple paths (no bounds)."""
    n, best, found = len(weights), None, []
    succ = [np.flatnonzero(allowed[i]) for i in range(n)]

    def extend(path, total):
        nonlocal best, found
        if len(path) == M:
            if allowed[path[-1], path[0]]:
                v = total + weights[path[-1], path[0]]
                if best is None or v > best:
                    best, found = v, [tuple(path)]
                elif v == best:
                    found.append(tuple(path))
            return
        for c in succ[path[-1]]:
            if c > path[0] and c not in path:
                extend([*path, int(c)], total + weights[path[-1], c])

    for l0 in range(n):
        extend([l0], 0)
    return best, sorted(found)


def optimal_from_log(log):
    """The best value and the optimal cycles recorded in a search log."""
    last = max(k for k, step in enumerate(log) if step.action == "new best")
    return log[last].bound, sorted(s.path for s in log[last:] if s.action in ("new best", "tie"))


def canonical(walk):
    k = walk.index(min(walk))
    return tuple(walk[k:] + walk[:k])


def dice_graph(S, L, min_wins=None):
    dice = e.unique_dice(sides=S, labels=L)
    W = e.wins_matrix(dice)
    return dice, W, e.allowed_edges(W, min_wins=e.strict_min_wins(sides=S) if min_wins is None else min_wins)


# --------------------------------------------------------------------------- counting dice


@pytest.mark.parametrize(("L", "S", "N"), [(7, 6, 924), (3, 4, 15), (2, 4, 5), (1, 5, 1), (4, 1, 4)])
def test_num_unique_dice_paper_values(L, S, N):
    assert e.num_unique_dice(sides=S, labels=L) == N
    assert e.num_unique_dice_closed_form(sides=S, labels=L) == N


@given(st.integers(1, 9), st.integers(1, 9))
def test_recurrence_closed_form_and_enumeration_agree(L, S):
    n = e.num_unique_dice(sides=S, labels=L)
    assert n == e.num_unique_dice_closed_form(sides=S, labels=L)
    if n <= 5000:
        dice = e.unique_dice(sides=S, labels=L)
        assert dice.shape == (n, L)
        assert (dice >= 0).all() and (dice.sum(axis=1) == S).all()
        assert len({tuple(d) for d in dice}) == n


@pytest.mark.parametrize(("L", "S"), [(1, 4), (2, 5), (3, 4), (4, 3), (5, 5), (7, 4)])
def test_unique_dice_are_the_labelled_dice_up_to_the_order_of_sides(L, S):
    """Every one of the L**S labelled dice, its sides sorted, is exactly one row of unique_dice."""
    labelled = {tuple(sorted(sides)) for sides in itertools.product(range(L), repeat=S)}
    listed = [e.die_faces(d) for d in e.unique_dice(sides=S, labels=L)]
    assert sorted(listed) == sorted(labelled)
    assert (
        len(listed)
        == e.num_unique_dice(sides=S, labels=L)
        == e.num_unique_dice_closed_form(sides=S, labels=L)
    )


def test_n_2_s_is_s_plus_one():
    assert [e.num_unique_dice(sides=S, labels=2) for S in range(1, 20)] == [S + 1 for S in range(1, 20)]


def test_unique_dice_order_is_the_papers_enumeration():
    dice = e.unique_dice(sides=6, labels=7)
    cum = np.cumsum(dice, axis=1)
    keys = [tuple(c) for c in cum]
    assert keys == sorted(keys)  # cumulative vectors ascending
    faces = [e.die_faces(d) for d in dice]
    assert faces == sorted(faces, reverse=True)  # equivalently, face tuples descending
    assert faces[0] == (6,) * 6 and faces[-1] == (0,) * 6


def test_faces_and_counts_round_trip():
    for d in e.unique_dice(sides=3, labels=4):
        assert (e.die_counts(e.die_faces(d), labels=4) == d).all()
    assert e.die_faces([2, 0, 0, 0, 4, 0, 0]) == (0, 0, 4, 4, 4, 4)


# --------------------------------------------------------------------------- what beats what


def test_efron_probabilities():
    A, B, C, D = (0, 0, 4, 4, 4, 4), (3,) * 6, (2, 2, 2, 2, 6, 6), (1, 1, 1, 5, 5, 5)
    for x, y in [(A, B), (B, C), (C, D), (D, A)]:
        assert e.p_beats(x, y) == Fraction(2, 3)
    assert e.p_beats(A, C) == Fraction(4, 9)
    assert e.p_beats(B, D) == Fraction(1, 2) == e.p_beats(D, B)


@settings(max_examples=50)
@given(st.integers(1, 5), st.integers(1, 5), st.data())
def test_wins_matrix_matches_p_beats_and_counts_every_pair_once(L, S, data):
    dice = e.unique_dice(sides=S, labels=L)
    W = e.wins_matrix(dice)
    i = data.draw(st.integers(0, len(dice) - 1))
    j = data.draw(st.integers(0, len(dice) - 1))
    a, b = e.die_faces(dice[i]), e.die_faces(dice[j])
    assert Fraction(int(W[i, j]), S * S) == e.p_beats(a, b)
    ties = sum(x == y for x in a for y in b)
    assert W[i, j] + W[j, i] + ties == S * S


def test_p_beats_mixed_sizes_and_negative_labels():
    assert e.p_beats((1, 2, 3), (0,)) == 1
    assert e.p_beats((-2, 5), (0, 1, 7)) == Fraction(2, 6)


# --------------------------------------------------------------------------- cycle search


@settings(max_examples=150, deadline=None)
@given(st.integers(2, 7), st.integers(2, 5), st.integers(0, 2**32 - 1), st.floats(0.2, 0.9))
def test_max_sum_cycles_and_search_log_equal_brute_force_on_random_digraphs(n, M, seed, density):
    rng = np.random.default_rng(seed)
    weights = rng.integers(-3, 6, size=(n, n))
    allowed = rng.random((n, n)) < density
    res = e.max_sum_cycles(weights, allowed, dice=M)
    log = e.search_log(weights, allowed, dice=M)
    np.fill_diagonal(allowed, False)
    best, cycles = brute_force_cycles(weights, allowed, M)
    assert res.value == best
    assert [tuple(c) for c in res.cycles.tolist()] == cycles
    if best is not None:
        assert res.walk_value >= best  # closed walks include the simple cycles
        assert optimal_from_log(log) == (best, cycles)  # the plain-Python search decides alike
    else:
        assert not any(step.action in ("new best", "tie") for step in log)
    assert all(
        step.bound < step.best for step in log if step.action == "prune"
    )  # a pruned branch could not win


@pytest.mark.parametrize(("S", "L", "M"), [(3, 4, 3), (3, 5, 3), (3, 5, 4), (4, 4, 3), (4, 4, 4), (3, 6, 5)])
def test_paper_method_and_fast_search_agree_when_walks_are_cycles(S, L, M):
    _, W, A = dice_graph(S, L)
    fast = e.max_sum_cycles(W, A, dice=M)
    value, walks = reference.paper_max_sum_walks(W, A, dice=M)
    assert value == fast.value == fast.walk_value
    # the paper lists every rotation of every set; we list each set once
    assert len(walks) == M * len(fast.cycles)
    assert sorted({canonical(list(w)) for w in walks}) == [tuple(c) for c in fast.cycles.tolist()]


@pytest.mark.parametrize("n", [None, 19, 20, 21, 24])
def test_paper_method_on_the_papers_run(n):
    """Every mode of the paper's S=6, L=7, M=4 run, on the first 300 dice (the full run is benchmarked)."""
    dice = e.unique_dice(sides=6, labels=7)[:300]
    W = e.wins_matrix(dice)
    A = e.allowed_edges(W, min_wins=19, wins=n)
    fast = e.max_sum_cycles(W, A, dice=4)
    value, walks = reference.paper_max_sum_walks(W, A, dice=4)
    assert value == fast.value
    assert sorted({canonical(list(w)) for w in walks}) == [tuple(c) for c in fast.cycles.tolist()]


def test_simple_cycles_only_where_walks_repeat_a_die():
    """S=3, L=5, M=6: the max-sum recursion finds closed walks (a 3-cycle twice) but no 6-set exists."""
    _, W, A = dice_graph(3, 5)
    value, walks = reference.paper_max_sum_walks(W, A, dice=6)
    assert value is not None and value >= 0
    assert all(len(set(w)) < 6 for w in walks)  # every maximal walk repeats a die
    res = e.max_sum_cycles(W, A, dice=6)
    assert res.value is None and res.walk_value == value and res.cycles.shape == (0, 6)
    assert e.best_cycles(sides=3, labels=5, dice=6) == []


def test_simple_cycle_below_the_walk_maximum():
    """S=3, L=6, M=7: the best closed walk repeats dice; the best simple cycle is lower."""
    _, W, A = dice_graph(3, 6)
    res = e.max_sum_cycles(W, A, dice=7)
    assert res.walk_value > res.value
    best, found = dfs_cycles(W, A, 7)
    assert res.value == best
    assert [tuple(c) for c in res.cycles.tolist()] == found


def test_best_cycles_paper_results():
    sets = e.best_cycles(sides=6, labels=7, dice=4)
    assert len(sets) == 25
    assert sets[0] == ((4,) * 6, (3,) * 6, (2, 2, 2, 2, 6, 6), (1, 1, 5, 5, 5, 5))
    assert len(e.best_cycles(sides=6, labels=7, dice=4, wins=21)) == 69
    efron = e.best_cycles(sides=6, labels=7, dice=4, wins=24)
    assert efron == [((3,) * 6, (2, 2, 2, 2, 6, 6), (1, 1, 1, 5, 5, 5), (0, 0, 4, 4, 4, 4))]
    assert e.best_cycles(sides=6, labels=7, dice=4, wins=25) == []
    assert e.best_cycles(sides=3, labels=5, dice=3) == [((2, 2, 2), (1, 1, 4), (0, 3, 3))]


def test_best_cycles_every_adjacent_pair_beats_the_next():
    for sets, check in [
        (e.best_cycles(sides=6, labels=7, dice=4), lambda p: p > Fraction(1, 2)),
        (e.best_cycles(sides=6, labels=7, dice=4, wins=20), lambda p: p == Fraction(20, 36)),
    ]:
        for dice in sets:
            assert len(set(dice)) == len(dice)
            for a, b in zip(dice, dice[1:] + dice[:1], strict=True):
                assert check(e.p_beats(a, b))


def test_non_strict_reading_admits_ties_at_one_half():
    strict = e.best_cycles(sides=6, labels=7, dice=4)
    loose = e.best_cycles(sides=6, labels=7, dice=4, min_wins=18)
    total = lambda dice: sum(e.p_beats(a, b) for a, b in zip(dice, dice[1:] + dice[:1], strict=True))  # noqa: E731
    assert total(loose[0]) > total(strict[0])
    assert any(
        e.p_beats(a, b) == Fraction(1, 2) for a, b in zip(loose[0], loose[0][1:] + loose[0][:1], strict=True)
    )


@pytest.mark.parametrize(("S", "L", "M"), [(3, 5, 3), (4, 6, 3), (4, 7, 3)])
def test_search_all_covers_every_value(S, L, M):
    out = e.search_all(sides=S, labels=L, dice=M)
    _, W, _ = dice_graph(S, L)
    assert list(out) == [None, *np.unique(W[W >= e.strict_min_wins(sides=S)]).tolist()]
    assert out[None][1] == e.best_cycles(sides=S, labels=L, dice=M)
    for n, (value, sets) in out.items():
        if n is not None:
            assert sets == e.best_cycles(sides=S, labels=L, dice=M, wins=n)
            assert (value is None) == (sets == []) and (value is None or value == M * n)


@pytest.mark.parametrize(
    ("S", "L", "M", "wins", "min_wins"),
    [
        (3, 5, 3, None, None),
        (3, 6, 3, None, None),
        (3, 6, 4, None, None),
        (4, 6, 3, None, None),
        (4, 6, 3, 9, None),
        (4, 6, 3, None, 8),  # "at least half": w = 8 of 16 is allowed
        (6, 5, 3, 20, None),
        (6, 4, 3, None, None),  # no set at all
    ],
)
def test_best_cycles_equal_exact_enumeration_in_fractions(S, L, M, wins, min_wins):
    total, sets = reference.exact_best_cycles(sides=S, labels=L, dice=M, wins=wins, min_wins=min_wins)
    assert e.best_cycles(sides=S, labels=L, dice=M, wins=wins, min_wins=min_wins) == sets
    _, W, _ = dice_graph(S, L)
    threshold = e.strict_min_wins(sides=S) if min_wins is None else min_wins
    value = e.max_sum_cycles(W, e.allowed_edges(W, min_wins=threshold, wins=wins), dice=M).value
    assert (total is None and value is None) or total == Fraction(value, S * S)


@pytest.mark.parametrize(("L", "S"), [(3, 4), (5, 3), (4, 6), (2, 1)])
def test_wins_matrix_equals_exact_probabilities(L, S):
    dice = e.unique_dice(sides=S, labels=L)
    W = e.wins_matrix(dice)
    P = reference.exact_win_probabilities(dice)
    assert [[Fraction(int(w), S * S) for w in row] for row in W] == P


@pytest.mark.parametrize(("S", "L"), [(3, 4), (3, 5), (4, 4)])
@pytest.mark.parametrize("M", [3, 4, 5])
def test_count_cycles_matches_enumeration(S, L, M):
    _, W, A = dice_graph(S, L)
    _, cycles = dfs_cycles(np.zeros_like(W), A, M)  # equal weights: every cycle is optimal
    assert e.count_cycles(sides=S, labels=L, dice=M) == len(cycles)


def test_maxplus_product_and_the_papers_s_matrices():
    rng = np.random.default_rng(1)
    A, B = rng.integers(-9, 9, (5, 4)), rng.integers(-9, 9, (4, 3))
    expected = (A[:, :, None] + B[None, :, :]).max(axis=1)
    assert (e.maxplus_product(A, B) == expected).all()
    # the paper's S^2 diagonal is the best closed 4-walk through each die; negative: no set
    for L, has_sets in [(6, True), (4, False)]:
        W = e.wins_matrix(e.unique_dice(sides=3, labels=L))
        allowed = e.allowed_edges(W, min_wins=5)
        Wp = np.where(allowed, W, -4 * 9)
        S1 = e.maxplus_product(Wp, e.maxplus_product(Wp, Wp))
        best = e.maxplus_product(Wp, S1).diagonal().max()
        walk = e.max_sum_cycles(W, allowed, dice=4).walk_value
        assert (best == walk) if has_sets else (best < 0 and walk is None)


def test_same_cycle():
    assert e.same_cycle("abcd", "cdab") and not e.same_cycle("abcd", "abdc") and e.same_cycle((), ())


# ------------------------------------------------------------------- sums of rolls, closed walks, search log


@pytest.mark.parametrize(("L", "S", "rolls"), [(3, 2, 1), (3, 2, 2), (4, 3, 3), (2, 5, 2), (7, 2, 2)])
def test_sum_of_rolls_counts_every_outcome(L, S, rolls):
    dice = e.unique_dice(sides=S, labels=L)
    sums = e.sum_of_rolls(dice, rolls=rolls)
    assert sums.shape == (len(dice), rolls * (L - 1) + 1)
    for d, row in zip(dice, sums, strict=True):
        faces = e.die_faces(d)
        outcomes = [sum(o) for o in itertools.product(faces, repeat=rolls)]
        assert row.tolist() == [outcomes.count(s) for s in range(len(row))]


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 4), st.integers(1, 3), st.integers(1, 3), st.data())
def test_wins_matrix_of_sums_is_the_n_dice_game(L, S, rolls, data):
    dice = e.unique_dice(sides=S, labels=L)
    W = e.wins_matrix(e.sum_of_rolls(dice, rolls=rolls))
    i = data.draw(st.integers(0, len(dice) - 1))
    j = data.draw(st.integers(0, len(dice) - 1))
    a, b = e.die_faces(dice[i]), e.die_faces(dice[j])
    assert Fraction(int(W[i, j]), S ** (2 * rolls)) == e.p_beats(a, b, rolls=rolls)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.integers(-3, 6), min_size=1, max_size=4),
    st.lists(st.integers(-3, 6), min_size=1, max_size=4),
    st.integers(1, 3),
)
def test_p_beats_with_rolls_equals_enumeration(a, b, rolls):
    outcomes = list(itertools.product(itertools.product(a, repeat=rolls), itertools.product(b, repeat=rolls)))
    wins = sum(1 for x, y in outcomes if sum(x) > sum(y))
    assert e.p_beats(a, b, rolls=rolls) == Fraction(wins, len(outcomes))


def test_efron_dice_with_two_rolls_each():
    """The chapter's answer: two arrows of the cycle reverse, two survive, B and D stay even."""
    A, B, C, D = (0, 0, 4, 4, 4, 4), (3,) * 6, (2, 2, 2, 2, 6, 6), (1, 1, 1, 5, 5, 5)
    assert [e.p_beats(x, y, rolls=2) for x, y in [(A, B), (B, C), (C, D), (D, A)]] == [
        Fraction(4, 9),
        Fraction(4, 9),
        Fraction(5, 9),
        Fraction(5, 9),
    ]
    assert e.p_beats(B, D, rolls=2) == e.p_beats(D, B, rolls=2) == Fraction(1, 4)
    # three rolls each: every arrow reversed
    assert all(e.p_beats(y, x, rolls=3) > Fraction(1, 2) for x, y in [(A, B), (B, C), (C, D), (D, A)])


@settings(max_examples=80, deadline=None)
@given(st.integers(1, 6), st.integers(1, 6), st.integers(0, 2**32 - 1), st.floats(0.1, 0.9))
def test_closed_walks_equal_enumeration(n, M, seed, density):
    A = np.random.default_rng(seed).random((n, n)) < density
    walks = sum(
        1
        for w in itertools.product(range(n), repeat=M)
        if all(A[u, v] for u, v in zip(w, w[1:] + w[:1], strict=True))
    )
    assert e.closed_walks(A, dice=M) == walks


def test_closed_walks_stay_exact_beyond_float_precision():
    full = np.ones((50, 50), dtype=bool)  # every step allowed: trace(J^M) = 50^M
    assert e.closed_walks(full, dice=12) == 50**12
    assert e.closed_walks(full, dice=9) == 50**9


def test_closed_walks_of_a_3_cycle_overcount_longer_cycles():
    A = [[0, 1, 0], [0, 0, 1], [1, 0, 0]]
    assert [e.closed_walks(A, dice=m) for m in range(1, 7)] == [0, 0, 3, 0, 0, 3]


def test_search_log_on_efron_dice_and_the_papers_first_set():
    """Six dice: the best cycle (the paper's first set) is found first; Efron's own branch is pruned."""
    six = [(4,) * 6, (3,) * 6, (2, 2, 2, 2, 6, 6), (1, 1, 5, 5, 5, 5), (1, 1, 1, 5, 5, 5), (0, 0, 4, 4, 4, 4)]
    W = e.wins_matrix([e.die_counts(f, labels=7) for f in six])
    log = e.search_log(W, e.allowed_edges(W, min_wins=19), dice=4)
    assert optimal_from_log(log) == (104, [(0, 1, 2, 3)])
    assert [(s.path, s.bound) for s in log if s.action == "prune"] == [((1, 2), 96)]  # towards Efron's 4 x 24
    assert log[-1].action == "stop" and log[-1].bound == 96


def test_no_cycle_of_the_papers_dice_survives_two_rolls_each():
    """The two-dice game (beats: more than half of the outcomes) keeps none of the one-die cycles."""
    dice = e.unique_dice(sides=6, labels=7)
    one = e.allowed_edges(e.wins_matrix(dice), min_wins=19)
    two = e.allowed_edges(e.wins_matrix(e.sum_of_rolls(dice, rolls=2)), min_wins=e.strict_min_wins(sides=36))
    assert [e.closed_walks(one & two, dice=m) for m in (3, 4)] == [0, 0]
    assert [e.closed_walks(one & two.T, dice=m) // m for m in (3, 4)] == [54, 0]


# --------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: e.num_unique_dice(sides=6, labels=0), "labels must be >= 1"),
        (lambda: e.num_unique_dice(sides=0, labels=7), "sides must be >= 1"),
        (lambda: e.num_unique_dice(sides=6, labels=7.0), "labels must be an integer"),
        (lambda: e.unique_dice(sides=6, labels=True), "labels must be an integer"),
        (lambda: e.best_cycles(sides=6, labels=7, dice=1), "dice must be >= 2"),
        (lambda: e.best_cycles(sides=6, labels=7, dice=4, wins=18), "wins must be in 19..36"),
        (lambda: e.best_cycles(sides=6, labels=7, dice=4, wins=37), "wins must be in 19..36"),
        (lambda: e.best_cycles(sides=6, labels=7, dice=4, min_wins=10), "min_wins must be in 18..36"),
        (lambda: e.p_beats((1, 2.5), (1, 2)), r"a\[1\] must be an integer"),
        (lambda: e.p_beats((1, 2), ()), "b must hold at least one"),
        (lambda: e.p_beats(3, (1, 2)), "a must be a sequence of integer faces"),
        (lambda: e.p_beats("123", (1, 2)), "a must be a sequence of integer faces"),
        (lambda: e.die_counts((0, 7), labels=7), r"faces\[1\] must be in 0..6"),
        (lambda: e.die_counts((0, True), labels=7), r"faces\[1\] must be an integer"),
        (lambda: e.die_faces([[1, 2]]), "counts must be a 1-D vector"),
        (lambda: e.die_faces([1.0, 2.0]), "counts must be a 1-D vector of non-negative integers"),
        (lambda: e.die_faces([1, -1]), "counts must be a 1-D vector of non-negative integers"),
        (lambda: e.wins_matrix(np.array([[1.5, 2]])), "integer label counts"),
        (lambda: e.wins_matrix(np.array([1, 2])), "2-D array"),
        (lambda: e.max_sum_cycles(np.zeros((3, 2), int), np.ones((3, 2), bool), dice=3), "square"),
        (lambda: e.count_cycles(sides=6, labels=7, dice=6), "dice must be in 3..5"),
        (lambda: e.maxplus_product(np.ones((2, 3), int), np.ones((2, 3), int)), "do not chain"),
        (lambda: e.maxplus_product(np.ones((2, 2)), np.ones((2, 2))), "integer arrays"),
        (lambda: e.count_cycles(sides=6, labels=7, dice=4, min_wins=18), "beat each other"),
        (
            lambda: reference.paper_max_sum_walks(np.zeros((2, 2), int), np.ones((2, 2), bool), dice=1),
            "dice must be >= 2",
        ),
        (lambda: reference.exact_best_cycles(sides=3, labels=4, dice=3, wins=4), "wins must be in 5..9"),
        (lambda: e.sum_of_rolls(e.unique_dice(sides=2, labels=3), rolls=0), "rolls must be >= 1"),
        (lambda: e.sum_of_rolls(e.unique_dice(sides=6, labels=3), rolls=13), "overflow"),
        (lambda: e.sum_of_rolls(np.array([[1.0, 2.0]]), rolls=2), "integer label counts"),
        (lambda: e.p_beats((1, 2), (0,), rolls=0), "rolls must be in 1..100"),
        (lambda: e.closed_walks(np.ones((2, 3), bool), dice=3), "square 0/1"),
        (lambda: e.closed_walks(np.array([[0, 2], [1, 0]]), dice=3), "square 0/1"),
        (lambda: e.closed_walks(np.ones((2, 2), bool), dice=0), "dice must be >= 1"),
        (lambda: e.search_log(np.zeros((2, 2), int), np.ones((2, 2), bool), dice=1), "dice must be >= 2"),
        (lambda: e.search_log(np.zeros((2, 2)), np.ones((2, 2), bool), dice=3), "weights must be integers"),
    ],
)
def test_bad_input_raises_clear_value_error(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_degenerate_cases_are_empty_not_errors():
    assert e.best_cycles(sides=1, labels=5, dice=3) == []  # one face: nobody beats a die that beats them
    assert e.best_cycles(sides=6, labels=1, dice=2) == []  # one die only
    assert e.best_cycles(sides=2, labels=2, dice=3) == []


# --------------------------------------------------------------------------- the package map


def test_public_functions_document_parameters_returns_and_an_example():
    functions = [getattr(e, name) for name in e.__all__ if callable(getattr(e, name))]
    functions += [getattr(reference, name) for name in reference.__all__]
    for fn in functions:
        if isinstance(fn, type):
            continue  # result records document their attributes
        doc = fn.__doc__ or ""
        for section in ("Parameters\n", "Returns\n", "Examples\n", ">>> "):
            assert section in doc, f"{fn.__name__} lacks {section.strip()}"


def test_reference_code_is_named_as_such_and_not_re_exported():
    assert all(name.startswith(("paper_", "exact_")) for name in reference.__all__)
    assert "reference" not in e.__all__
    assert not set(reference.__all__) & set(e.__all__)
    assert not any(hasattr(e, name) for name in reference.__all__)


def test_search_all_sets_read_as_the_list_they_hold():
    out = e.search_all(sides=6, labels=7, dice=4)
    value, sets = out[20]
    listed = e.best_cycles(sides=6, labels=7, dice=4, wins=20)
    assert isinstance(sets, e.DiceSets) and len(sets) == len(listed) == 5223
    assert sets == listed and listed == sets and list(sets) == listed and sets.to_list() == listed
    assert sets[0] == listed[0] and sets[-1] == listed[-1] and sets[10:20] == listed[10:20]
    assert sets.array.shape == (5223, 4, 6) and sets.cycles.dtype == np.int32
    assert sets != listed[:-1] and sets != [] and bool(sets) and not out[23][1]
    assert repr(out[24][1]) == repr(
        e.best_cycles(sides=6, labels=7, dice=4, wins=24)
    )  # short results print as the list
    assert repr(sets).startswith(repr(listed[:3])[:-1] + ", ..., ") and repr(sets).endswith("(5,223 sets)")
    assert sets + [] == listed and [] + sets == listed
    rotations = {s[k:] + s[:k] for s in out[None][1] for k in range(4)}
    assert len(rotations) == 100


@pytest.mark.parametrize("seed", range(4))
def test_square_by_rows_and_cycle_core_keep_the_walk_bounds(seed):
    rng = np.random.default_rng(seed)
    n = 40
    W = rng.integers(-30, 40, size=(n, n))
    allowed = rng.random((n, n)) < 0.2
    allowed[:5] = False  # nodes without successors, and those only they lead from, leave the core
    g = k.csr(W, allowed)
    assert np.array_equal(k.square_rows(*g), k.square(*g))
    keep, *core = k.cycle_core(*g)
    for M in (2, 3, 4, 5):
        full, part = k.walk_bounds(*g, M), k.walk_bounds(*core, M)
        assert np.array_equal(full[keep], part)
        assert (np.delete(full, keep) == k.NEG).all()
