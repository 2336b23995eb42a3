"""The explorers: their pure functions against brute force, and their widgets driven as a reader would."""

import itertools
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dicelab import badg, pig, wimpout
from dicelab.course import explore

EFRON = explore.EFRON_DICE
REFUSED = "Cannot compute this"


# --------------------------------------------------------------------------- Efron's dice
def test_parse_dice_names_and_defaults():
    dice = explore.parse_dice("A: 1 2\n\n# a comment\n3, 4\n  X : -1 0 ")
    assert dice == {"A": (1, 2), "B": (3, 4), "X": (-1, 0)}


@pytest.mark.parametrize(
    "text, message",
    [
        ("A: 1 2 x\nB: 1", "'x' is not a whole number"),
        ("A: 1 2\nA: 3", "its own name"),
        ("A: 1 2", "2 to 8 dice"),
        ("A: 1\nB:", "1 to 20 faces"),
        (": 1 2\nB: 3", "a name must come before"),
        ("A: 1.5 2\nB: 1", "'1.5' is not a whole number"),
        ("\n".join(f"D{k}: 1" for k in range(9)), "2 to 8 dice"),
        (["A: 1"], "text must be a string"),
    ],
)
def test_parse_dice_refuses_bad_text(text, message):
    with pytest.raises(ValueError, match=message):
        explore.parse_dice(text)


def brute_p(a, b) -> Fraction:
    pairs = list(itertools.product(a, b))
    return Fraction(sum(x > y for x, y in pairs), len(pairs))


def brute_cycles(names, beats) -> set:
    """Every cyclic order of 3+ dice in which each beats the next, written from its first die in ``names``."""
    found = set()
    for size in range(3, len(names) + 1):
        for order in itertools.permutations(names, size):
            if all((x, y) in beats for x, y in zip(order, order[1:] + order[:1], strict=True)):
                k = min(range(size), key=lambda i: names.index(order[i]))
                found.add(order[k:] + order[:k])
    return found


def test_efron_matchup_is_exact_and_finds_the_cycle():
    m = explore.matchup(EFRON)
    for (x, y), p in m.p.items():
        assert p == brute_p(m.faces[x], m.faces[y])
    assert set(m.beats) == {("A", "B"), ("B", "C"), ("C", "D"), ("D", "A"), ("C", "A")}
    assert m.cycles[0] == ("A", "B", "C", "D") and m.weakest(m.cycles[0]) == Fraction(2, 3)
    assert m.rows()[0] == ["A", "", Fraction(2, 3), Fraction(4, 9), Fraction(1, 3)]


@settings(max_examples=25, deadline=None)
@given(st.lists(st.lists(st.integers(0, 5), min_size=1, max_size=4), min_size=2, max_size=5))
def test_matchup_against_brute_force(dice):
    faces = {f"D{k}": tuple(d) for k, d in enumerate(dice)}
    m = explore.matchup(faces)
    names = list(faces)
    assert all(m.p[x, y] == brute_p(faces[x], faces[y]) for x, y in itertools.permutations(names, 2))
    assert set(m.beats) == {(x, y) for x, y in itertools.permutations(names, 2) if m.p[x, y] > Fraction(1, 2)}
    assert set(m.cycles) == brute_cycles(names, set(m.beats))
    assert len(set(m.cycles)) == len(m.cycles)
    lengths = [(-len(c), -m.weakest(c)) for c in m.cycles]
    assert lengths == sorted(lengths)


def test_matchup_with_more_rolls_and_bad_rolls():
    two = explore.matchup(EFRON, rolls=2)
    a, b = two.faces["A"], two.faces["B"]
    sums = lambda d: [x + y for x, y in itertools.product(d, d)]  # noqa: E731
    assert two.p["A", "B"] == brute_p(sums(a), sums(b)) == Fraction(4, 9)
    assert two.cycles == ()
    with pytest.raises(ValueError, match="rolls must be in 1..4"):
        explore.matchup(EFRON, rolls=5)


def test_beat_graph_draws_every_arrow_and_the_cycle_in_colour():
    m = explore.matchup("A: 1 1 4\nB: 2 2 3\nC: 0 3 3\nD: 2 2 2")
    fig = explore.beat_graph(m)
    ties = sum(m.p[x, y] == m.p[y, x] for x, y in itertools.combinations(m.faces, 2))
    arrows = [p for p in fig.axes[0].patches if type(p).__name__ == "FancyArrowPatch"]
    assert len(arrows) == len(m.beats) + ties
    thick = [p for p in arrows if p.get_linewidth() > 2]
    assert len(thick) == (len(m.cycles[0]) if m.cycles else 0)


def test_efron_widget_follows_its_inputs_and_refuses_bad_dice():
    ex = explore.efron_explorer()
    table, graph = ex.panes["table"], ex.panes["graph"]
    assert "Nontransitive: A → B → C → D → A" in table.value and r"$\frac{2}{3}$" in table.value
    first_png = graph.value
    assert first_png[:8] == b"\x89PNG\r\n\x1a\n"
    ex.controls["rolls"].value = 2
    assert "No cycle" in table.value and graph.value != first_png
    ex.controls["dice"].value = "A: 1 2 three\nB: 2"
    assert REFUSED in table.value and "&#x27;three&#x27; is not a whole number" in table.value
    assert "Traceback" not in table.value
    # the graph of the dice before the typo is not left beside the message as if it answered it
    assert len(graph.value) == 0 and graph.layout.display == "none"
    ex.controls["dice"].value = "P: 0 3\nQ: 1 2"
    assert "No cycle" in table.value and "<b>P</b>" in table.value
    assert graph.value[:8] == b"\x89PNG\r\n\x1a\n" and graph.layout.display is None


# --------------------------------------------------------------------------- b.a.d.g.
def test_strategy_card_by_hand():
    # two d6 showing 2 and 5: the 5 alone (1 point, then one d6 worth 2.5) or both (4 + 1 points)
    card = explore.strategy_card((6, 6), (2, 5))
    assert [(t.faces, t.points_now, t.expected_points, t.cost) for t in card] == [
        ((5,), 1, 3.5, 0.0),
        ((2, 5), 5, 5.0, 1.5),
    ]


CARDS = [((6, 8, 10), (6, 1, 3)), ((6, 6, 6, 12), (2, 6, 6, 7)), ((8,), (3,))]


@pytest.mark.parametrize("state, roll", CARDS, ids=str)
def test_strategy_card_agrees_with_the_solver(state, roll):
    sol = badg.solve(state)
    card = explore.strategy_card(state, roll)
    assert card[0].positions == sol.best_action((state, roll)) and card[0].cost == 0
    assert all(t.cost >= 0 for t in card) and len(card) == len(sol.take_values(state, roll))
    for t in card:
        left = list(state)
        for p in t.positions:
            left.remove(state[p])
        after = sol.points(tuple(left)) if left else 0.0
        assert t.expected_points == pytest.approx(t.points_now + after)


@pytest.mark.parametrize(
    "state, roll, message",
    [((6, 8), (5,), "one face for each"), ((6, 8), (7, 2), "shows 7 on a die with 6 sides"),
     ((6, 1), (1, 1), "at least 2|>= 2"), ((), (), "at least one")],
)
def test_strategy_card_refuses_bad_input(state, roll, message):
    with pytest.raises(ValueError, match=message):
        explore.strategy_card(state, roll)


def test_badg_widget_card_errors_and_random_rolls():
    ex = explore.badg_explorer("6 6", "2 5")
    card = ex.panes["card"]
    assert "Optimal play takes <b>5 on a d6</b> and expects 3.5000 points" in card.value
    ex.controls["roll"].value = "2 x"
    assert REFUSED in card.value and "whole numbers" in card.value
    ex.controls["roll"].value = "2 9"
    assert REFUSED in card.value and "shows 9 on a die with 6 sides" in card.value
    ex.controls["dice"].value = "6 8 12"
    ex.controls["random"].click()
    faces = [int(f) for f in ex.controls["roll"].value.split()]
    assert len(faces) == 3 and all(1 <= f <= s for f, s in zip(faces, (6, 8, 12), strict=True))
    assert "Optimal play takes" in card.value


# --------------------------------------------------------------------------- simultaneous Pig
@pytest.mark.parametrize("kind", explore.OPPONENTS)
def test_best_hold_value_gives_the_state_value(kind):
    opp = explore.pig_opponent(kind, 4, goal=12)
    assert np.allclose(opp.mixed.sum(axis=2), 1)
    for i, j in itertools.product(range(12), repeat=2):
        q = opp.choices(i, j)
        assert q.shape == (12 - i,) and q.max() == pytest.approx(opp.values[i, j], abs=1e-9)


def test_opponents_are_the_named_strategies():
    hold = explore.pig_opponent("hold_at", 25)
    assert hold.mixed[0, 7, 24] == 1 and hold.mixed[0, 90, 9] == 1  # hold at 25, or at what B needs
    br = explore.pig_opponent("best_response", 25)
    policy = pig.solve_best_response(pig.hold_at(25)).policy
    assert br.mixed[3, 40, policy[40, 3] - 1] == 1
    assert br.values[0, 0] == pytest.approx(pig.solve_best_response(policy).value)
    eq = explore.pig_opponent("equilibrium", goal=10)
    assert eq.values[0, 0] == pytest.approx(0.5)
    with pytest.raises(ValueError, match="kind must be one of"):
        explore.pig_opponent("random")
    with pytest.raises(ValueError, match="goal must be in 10..100"):
        explore.pig_opponent("hold_at", 5, goal=101)


def test_pig_play_follows_the_rules():
    opp = explore.pig_opponent("hold_at", 6, goal=20)
    rng = np.random.default_rng(5)
    game = explore.PigGame(20)
    for _ in range(200):
        if game.winner:
            break
        before = game.scores
        game = explore.pig_play(game, opp, min(8, 20 - before[0]), rng)
        k, a, kb, b = game.turns[-1]
        assert kb == min(6, 20 - before[1])
        for hold, rolls, old, new in ((k, a, before[0], game.scores[0]), (kb, b, before[1], game.scores[1])):
            assert 1 not in rolls[:-1] and (rolls[-1] == 1 or sum(rolls) >= hold > sum(rolls[:-1]))
            assert new == old + (0 if rolls[-1] == 1 else sum(rolls))
    i, j = game.scores
    assert game.winner == ("tie" if min(i, j) >= 20 else "A" if i >= 20 else "B")
    with pytest.raises(ValueError, match="the game is over"):
        explore.pig_play(game, opp, 1, rng)
    with pytest.raises(ValueError, match="k must be in 1..20"):
        explore.pig_play(explore.PigGame(20), opp, 21, rng)


def test_pig_widget_plays_a_whole_game():
    ex = explore.pig_explorer("hold_at", n=5, goal=20, seed=3)
    out, message, k, play = ex.panes["game"], ex.panes["message"], ex.controls["k"], ex.controls["play"]
    best = explore.pig_opponent("hold_at", 5, 20).choices(0, 0).argmax() + 1
    assert "Against <b>hold at 5</b>, goal 20" in out.value and k.value == best and k.max == 20
    assert not any(c.disabled for c in ex.controls.values())
    k.value = 2
    play.click()
    assert "Turn 1: you held at 2:" in out.value and message.value == ""
    for _ in range(200):
        if "Start a new game" in out.value:
            break
        play.click()
    # the end of the game: the verdict stays, and the turn button waits for a new game
    verdict = out.value
    assert "Start a new game" in verdict
    assert any(v in verdict for v in ("You win.", "B wins.", "a tie"))
    assert play.disabled
    play.click()  # a click that was already on its way
    assert out.value == verdict
    assert REFUSED in message.value and "the game is over" in message.value
    ex.controls["new"].click()
    assert "Score: <b>you 0</b>, B 0" in out.value and message.value == "" and not play.disabled
    ex.controls["opponent"].value = "equilibrium"
    assert "Against <b>the equilibrium</b>" in out.value and "0.5000" in out.value
    assert "+0." in out.value and "−" not in out.value  # costs: win probability given up, >= 0


def test_pig_widget_disables_its_controls_while_it_solves(monkeypatch):
    """A click made during a long solve must not wait in line and play turns unseen."""
    from dicelab.course.explore import pig_game

    ex = explore.pig_explorer("hold_at", n=5, goal=20, seed=3)
    seen, solve = [], pig_game.pig_opponent

    def watched(*args):
        seen.append({name: c.disabled for name, c in ex.controls.items()})
        seen.append(ex.panes["game"].value)
        return solve(*args)

    monkeypatch.setattr(pig_game, "pig_opponent", watched)
    ex.controls["n"].value = 6
    assert seen and all(seen[0].values()) and "first solve" in seen[1] and "compiles" in seen[1]
    assert not any(c.disabled for c in ex.controls.values())
    assert "Against <b>hold at 6</b>" in ex.panes["game"].value

    def refused(*args):
        raise ValueError("goal: refused")

    monkeypatch.setattr(pig_game, "pig_opponent", refused)
    ex.controls["n"].value = 7  # a solve that fails: the old game is gone, no turn can be played
    assert REFUSED in ex.panes["game"].value and ex.controls["play"].disabled
    assert not ex.controls["new"].disabled and not ex.controls["opponent"].disabled


# --------------------------------------------------------------------------- Cosmic Wimpout
def test_finish_chances_are_the_chain_absorption_probabilities():
    chain = wimpout.markov_chain()
    for s in wimpout.TRANSIENT:
        chances = explore.finish_chances(s)
        assert sum(chances.values()) == 1
        assert chances["Wimpout"] == chain.absorption_probability(s, wimpout.WIMPOUT)
    stop = {"Auto Win": 0, "Auto Lose": 0, "Score and Stop": 1, "Wimpout": 0}
    assert explore.finish_chances(wimpout.STOP) == stop


def test_wimpout_turn_roll_by_roll():
    t = explore.wimpout_roll(explore.WimpoutTurn(), "3 3 3 5 6")  # a Flash of 3s: clear it with the black die
    assert (t.points, t.face, t.state) == (35, 3, wimpout.State(0, True, (3,)))
    t = explore.wimpout_roll(t, (wimpout.SUN,))  # the sun scores: every die scored, roll all five
    assert (t.points, t.state, t.face) == (45, wimpout.ROLL_5, None)
    t = explore.wimpout_roll(t, "2 3 4 6 2")
    assert (t.points, t.state, len(t.rolls)) == (0, wimpout.WIMPOUT, 3)
    with pytest.raises(ValueError, match="the turn has ended"):
        explore.wimpout_roll(t, "5 5 5 5 5")
    with pytest.raises(ValueError, match="rolls 5 dice"):
        explore.wimpout_roll(explore.WimpoutTurn(), "5 5")
    with pytest.raises(ValueError, match="is not a face"):
        explore.wimpout_roll(explore.WimpoutTurn(), "5 5 7 2 2")


def test_wimpout_widget_typed_random_and_refused_rolls():
    ex = explore.wimpout_explorer(seed=11)
    out, message, typed, go = ex.panes["turn"], ex.panes["message"], ex.controls["roll"], ex.controls["go"]
    assert "Turn so far: <b>0 points</b>; state <b>Roll 5; No Flash</b>" in out.value
    typed.value = "5 5 5 2 6"
    go.click()
    assert "<b>50 points</b>" in out.value and "Flash of 5s to clear" in out.value
    assert typed.value == ""  # a typed roll is used once
    record = out.value
    typed.value = "5 5 5"
    go.click()  # refused: the record stays, the message under it, the typed roll to correct
    assert out.value == record and typed.value == "5 5 5"
    assert REFUSED in message.value and "rolls 2 dice" in message.value and "Traceback" not in message.value
    typed.value = ""
    go.click()  # a random roll of the two dice left
    assert "Turn so far" in out.value and out.value.count("<tr>") >= 3 and message.value == ""
    ex.controls["new"].click()
    assert "<b>0 points</b>" in out.value and "Roll 5; No Flash" in out.value


def test_wimpout_widget_at_the_end_of_a_turn_and_its_small_chances():
    ex = explore.wimpout_explorer(seed=11)
    out, message, typed, go = ex.panes["turn"], ex.panes["message"], ex.controls["roll"], ex.controls["go"]
    start = out.value
    assert "0.0000" not in start and r"\times 10^{-4}" in start  # Auto Win, 0.000147: not rounded to 0
    assert "roll 5 dice" in start
    for roll in ("3 3 3 5 6", "5", "2 3 4 6 2"):  # a Flash of 3s, cleared; then nothing scores
        typed.value = roll
        go.click()
        assert message.value == "", message.value
        if roll == "3 3 3 5 6":
            assert "roll 1 die " in out.value  # one die, the black one, to clear the Flash
    ended = out.value
    assert "The turn is over" in ended and "Wimpout" in ended and go.disabled
    go.click()  # a click already on its way: the record stays, the message under it
    assert out.value == ended and REFUSED in message.value and "the turn has ended" in message.value
    ex.controls["new"].click()
    assert not go.disabled and message.value == "" and "<b>0 points</b>" in out.value


# --------------------------------------------------------------------------- saving from JupyterLab
def test_saving_the_explorers_from_jupyterlab_keeps_the_committed_notebook(tmp_path):
    """``make lab`` saves through dicelab.course.notebook.pre_save_hook: live widget views never reach
    the file."""
    import json
    import os
    import shutil
    import subprocess
    from pathlib import Path

    import nbformat
    from jupyter_server.services.contents.filemanager import FileContentsManager

    root = Path(__file__).resolve().parents[1]
    make = subprocess.run(["make", "-n", "lab"], cwd=root, capture_output=True, text=True, check=True).stdout
    assert "--ContentsManager.pre_save_hook=dicelab.course.notebook.pre_save_hook" in make
    assert ("--allow-root" in make) == (os.getuid() == 0)  # JupyterLab refuses root without it

    committed = root / "notebooks" / "explorers.ipynb"
    shutil.copy(committed, tmp_path / "explorers.ipynb")
    manager = FileContentsManager(root_dir=str(tmp_path),
                                  pre_save_hook="dicelab.course.notebook.pre_save_hook")
    model = manager.get("explorers.ipynb")
    played = model["content"]
    played.metadata["widgets"] = {"application/vnd.jupyter.widget-state+json": {"state": {"m1": {}}}}
    view = "application/vnd.jupyter.widget-view+json"
    widget_cells = [c for c in played.cells if c.cell_type == "code" and "_explorer()" in c.source]
    assert len(widget_cells) == 4
    for cell in widget_cells:  # what a live kernel shows after running the cell and playing
        cell.outputs[0].data[view] = {"model_id": "f00d", "version_major": 2, "version_minor": 0}
    manager.save({"type": "notebook", "format": "json", "content": played}, "explorers.ipynb")
    saved = json.loads((tmp_path / "explorers.ipynb").read_text())
    assert "widgets" not in saved["metadata"]
    assert view not in json.dumps(saved)
    assert nbformat.reads(committed.read_text(), 4) == nbformat.reads(json.dumps(saved), 4)


def test_wimpout_turn_with_the_choice_to_roll_on():
    t = explore.wimpout_roll(explore.WimpoutTurn(), "5 2 3 4 6")  # one 5: bank it, or roll four dice on
    assert (t.points, t.state, t.free) == (5, wimpout.STOP, wimpout.Choice(3, True))
    best = wimpout.solve_turn()
    values = explore.choice_values(t)
    assert values == {"bank": 5, "roll": best.roll_value(wimpout.Choice(3, True), 5)}
    assert values["roll"] > values["bank"]
    t = explore.wimpout_roll(t, "10 3 4 *")  # the 10 and the sun score: two white dice left
    assert (t.points, t.free) == (25, wimpout.Choice(2, False))
    assert explore.wimpout_bank(t).points == 25 and explore.wimpout_bank(t).free is None
    t = explore.wimpout_roll(t, "2 3")  # nothing scores: a Wimpout loses the turn
    assert (t.points, t.state, t.free) == (0, wimpout.WIMPOUT, None)
    flash = explore.wimpout_roll(explore.wimpout_roll(explore.WimpoutTurn(), "5 2 3 4 6"), "3 3 3 2")
    assert (flash.state, flash.face, flash.points) == (wimpout.clearing_state(3, 0, True), 3, 35)


def test_wimpout_widget_banks_and_rolls_on():
    ex = explore.wimpout_explorer(seed=3)
    assert ex.controls["bank"].disabled
    ex.controls["roll"].value = "5 2 3 4 6"
    ex.controls["go"].click()
    assert "Your choice" in ex.panes["turn"].value and "Best play: <b>roll</b>" in ex.panes["turn"].value
    assert not ex.controls["bank"].disabled
    ex.controls["bank"].click()
    assert ex.controls["bank"].disabled and ex.controls["go"].disabled
    assert "5 points" in ex.panes["turn"].value
