"""Valid input is never refused: dicelab.wimpout, dicelab.core.markov and the Wimpout explorer, on
random valid arguments, give sane results (probabilities in [0, 1], counts that add up)."""

import functools
import itertools
from fractions import Fraction

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from dicelab import wimpout
from dicelab.core import markov
from dicelab.course import explore

FAST = settings(max_examples=20, deadline=None)
ENDINGS = {"Auto Win", "Auto Lose", "Score and Stop", "Wimpout"}

rules = st.builds(
    wimpout.Rules,
    sun_value=st.sampled_from([5, 10, np.int64(5)]),
    fourth_scores=st.booleans(),
    two_pairs=st.sampled_from(["max", "max_low"]),
)
white_face = st.sampled_from(wimpout.WHITE_FACES)
black_face = st.sampled_from(wimpout.BLACK_FACES)


@st.composite
def rolls(draw):
    """A roll of 0 to 4 white dice and maybe the black die (at least one die)."""
    n_white = draw(st.integers(0, 4))
    black = draw(st.booleans()) if n_white else True
    whites = draw(st.lists(white_face, min_size=n_white, max_size=n_white))
    return tuple(whites) + ((draw(black_face),) if black else ()), black


@functools.cache
def fine_states():
    return wimpout.turn_chain().transient


chain_states = st.sampled_from(wimpout.TRANSIENT) | st.deferred(lambda: st.sampled_from(fine_states()))


@st.composite
def state_and_roll(draw):
    """A transient state (of either chain), a roll of its dice and a face of its Flash."""
    s = draw(chain_states)
    whites = draw(st.lists(white_face, min_size=s.white, max_size=s.white))
    roll = tuple(whites) + ((draw(black_face),) if s.black else ())
    face = draw(st.sampled_from(s.flash)) if s.flash else None
    return s, roll, face


@st.composite
def absorbing_chains(draw):
    """A small absorbing chain: state ``k`` moves to ``k + 1`` with positive probability, the
    last state absorbs, so every state reaches it."""
    n = draw(st.integers(2, 5))
    P = []
    for i in range(n - 1):
        weights = draw(st.lists(st.integers(0, 4), min_size=n, max_size=n))
        weights[i + 1] += 1
        total = sum(weights)
        P.append([Fraction(w, total) for w in weights])
    P.append([Fraction(int(j == n - 1)) for j in range(n)])
    more = draw(st.integers(0, n - 2))  # some of the others may absorb too
    for k in range(more):
        P[k] = [Fraction(int(j == k)) for j in range(n)]
    return P


@FAST
@given(rules)
def test_rules_accept_their_readings(r):
    assert r.sun_value in (5, 10) and isinstance(r.fourth_scores, bool)


@settings(max_examples=40, deadline=None)
@given(rolls(), rules)
def test_every_roll_is_scored(roll_black, r):
    roll, black = roll_black
    s = wimpout.score(roll, has_black=black, rules=r)
    assert s.outcome in ("points", "wimpout", "win", "lose")
    assert s.points >= 0 and s.points % 5 == 0 and len(s.scoring) == len(roll)
    assert (s.outcome == "wimpout") == (s.outcome != "win" and s.outcome != "lose" and s.points == 0)
    assert wimpout.parse_roll(" ".join(str(f) for f in roll)) == roll  # the sun (*) is only ever last
    assert wimpout.show(roll).count(" ") == len(roll) - 1


@FAST
@given(st.integers(0, 4), st.booleans())
def test_all_rolls_counts(n_white, black):
    assert sum(1 for _ in wimpout.all_rolls(n_white, black)) == 6 ** (n_white + black)


@FAST
@given(
    st.lists(st.sampled_from(["2", "3", "4", "5", "6", "10", "a", "b"]), min_size=4, max_size=4),
    st.sampled_from(["2", "4", "5", "6", "10", "*", "a", "b"]),
)
def test_patterns_give_valid_rolls(whites, black):
    for roll in wimpout.pattern_rolls(" ".join(whites), black):
        assert len(roll) == 5 and wimpout.score(roll).points >= 0


@FAST
@given(
    st.integers(0, 4),
    st.booleans(),
    st.lists(white_face, unique=True, max_size=4),
    st.sampled_from(sorted(ENDINGS)),
)
def test_state_records(white, black, flash, end):
    five = white == 4 and black
    if five or 1 <= white + black <= 2 and flash:
        s = wimpout.State(white, black, tuple(flash) if not five else tuple(flash[:1]))
        assert not s.absorbing and 1 <= s.n_dice <= 5
        assert hash(s) == hash(wimpout.State(s.white, s.black, list(s.flash), s.end))
    absorbing = wimpout.State(end=end)
    assert absorbing.absorbing and wimpout.state(end) == absorbing


@FAST
@given(white_face, st.sampled_from([(0, False), (1, False), (2, False), (0, True), (1, True), (4, True)]))
def test_clearing_states(face, dice):
    s = wimpout.clearing_state(face, *dice)
    assert face in s.flash and s in wimpout.TRANSIENT


@settings(max_examples=50, deadline=None)
@given(state_and_roll(), rules)
def test_every_step_leads_to_a_state(case, r):
    s, roll, face = case
    out = wimpout.step(s, roll, face=face, rules=r)
    assert out.points >= 0 and isinstance(out.state, wimpout.State)
    assert out.state in wimpout.TRANSIENT + wimpout.ABSORBING or out.state == s  # the Futtless rule
    assert wimpout.by_face(out) == out.state or wimpout.by_face(out).flash == (out.flash,)


@FAST
@given(chain_states, rules, st.booleans())
def test_step_outcomes_count_every_roll(s, r, faces):
    out = wimpout.step_outcomes(s, r, faces=faces)
    assert sum(o.ways for o in out.values()) == 6**s.n_dice
    assert all(o.ways > 0 and o.points >= 0 for o in out.values())


def test_a_turn_is_about_one_and_a_half_rolls():
    # the sun's value changes the points, not the chain's probabilities
    for fourth, pairs in itertools.product((True, False), ("max", "max_low")):
        chain = wimpout.markov_chain(wimpout.Rules(10, fourth, pairs))
        assert 1.55 < chain.expected_steps(wimpout.ROLL_5) < 1.56


@settings(max_examples=10, deadline=None)
@given(st.integers(1, 60), st.integers(0, 2**32), rules)
def test_played_turns(n, seed, r):
    out = wimpout.simulate_turns(r, n, seed=seed)
    assert out.n == n and out.counts("ending").sum() == n and len(out.counts("ending")) <= 4
    assert out.mean("rolls") >= 1 and out.mean("points") >= 0 and (out["points"] % 5 == 0).all()


@FAST
@given(absorbing_chains(), st.integers(1, 200), st.integers(0, 2**32))
def test_absorbing_chains(P, n_runs, seed):
    chain = markov.AbsorbingChain(P, states=[f"s{k}" for k in range(len(P))])
    assert all(sum(row) == 1 and all(0 <= b <= 1 for b in row) for row in chain.B)
    assert all(t >= 1 for t in chain.t) and all(chain.N[k, k] >= 1 for k in range(len(chain.transient)))
    assert chain.float_view("P").shape == (len(P), len(P))
    for start in chain.transient:
        assert chain.expected_steps(start) >= 1
        assert 0 <= chain.absorption_probability(start, chain.absorbing[-1]) <= 1
        sample = chain.simulate(n_runs, seed=seed, start=start, max_steps=10_000)
        shares = [sample.share("absorbed", k) for k in range(len(chain.absorbing))]
        assert abs(sum(shares) - 1) < 1e-12 and sample["steps"].min() >= 1


@FAST
@given(absorbing_chains())
def test_chains_from_arrays_and_strings(P):
    chain = markov.AbsorbingChain(P)
    as_text = markov.AbsorbingChain([[str(v) for v in row] for row in P], states=range(len(P)))
    as_array = markov.AbsorbingChain(np.array(P, dtype=object), states=tuple(range(len(P))))
    assert (as_text.B == chain.B).all() and (as_array.t == chain.t).all()


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**32))
def test_a_turn_in_the_explorer(seed):
    rng = np.random.default_rng(seed)
    turn = explore.WimpoutTurn()
    while not turn.state.absorbing:
        chances = explore.finish_chances(turn.state)
        assert sum(chances.values()) == 1 and all(0 <= p <= 1 for p in chances.values())
        s = turn.state
        roll = tuple(int(rng.choice(wimpout.WHITE_FACES)) for _ in range(s.white))
        roll += (wimpout.BLACK_FACES[rng.integers(6)],) if s.black else ()
        text = " ".join(str(f) for f in roll)
        turn = explore.wimpout_roll(turn, text if rng.random() < 0.5 else roll)
        again = explore.WimpoutTurn(turn.state, turn.face, turn.points, list(turn.rolls), turn.free)
        assert turn.points >= 0 and again == turn
    assert set(explore.finish_chances(turn.state)) == ENDINGS
