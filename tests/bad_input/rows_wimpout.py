"""Bad-input rows: dicelab.wimpout, dicelab.course.explore.wimpout_turn."""

import math

from bad_input import ARRAYS_2D, BOOLS, FLOATS, HUGE, INTS, STRINGS, Row  # noqa: F401
from dicelab import wimpout
from dicelab.course import explore
from dicelab.course.explore import WimpoutTurn
from dicelab.wimpout import SUN

CLEAR_3 = wimpout.state("Flash 3; Reroll 1B")  # a Flash of 3s, cleared with the black die
FINE = wimpout.State(1, False, (10,))  # a state of the finer turn chain, not of the paper's
NOT_NONE = [v for v in INTS if v is not None]  # for integer arguments where None is the default
BOOLS_NOT_NONE = [v for v in BOOLS if v is not None]
RULES = [None, "max", 10, {"sun_value": 5}, (10, True, "max"), wimpout.ROLL_5]  # a Rules argument
STATES = [None, "Roll 5; No Flash", 3, 2.5, (4, True), wimpout.Rules()]  # a State argument
ROLLS = [
    None,
    5,
    "55555",
    (),
    [[5]],
    (5, 2, 3, 4, 6, 2),  # six dice
    (5.0, 2, 3, 4, 6),  # a float face
    (True, 2, 3, 4, 6),
    (7, 2, 3, 4, 6),
    (2, 3, 4, 6, 3),  # the black die has no 3
    (SUN, 2, 3, 4, 6),  # the sun is on the black die only
    ("5", 2, 3, 4, 6),
]
FACES = NOT_NONE + [7, 1, 11, 2]  # a Flash face (2 is not the Flash of CLEAR_3)

ROWS = [
    # the dice and the scoring rules
    Row(wimpout.Rules, "sun_value", INTS + [3, 0, 10.0, 5.5], lambda v: wimpout.Rules(sun_value=v)),
    Row(wimpout.Rules, "fourth_scores", BOOLS, lambda v: wimpout.Rules(fourth_scores=v)),
    Row(
        wimpout.Rules,
        "two_pairs",
        ["min", 1, None, "MAX", ["max"], b"max"],
        lambda v: wimpout.Rules(two_pairs=v),
    ),
    Row(wimpout.Rules, "white_dice", INTS + [0, 5, 4.0], lambda v: wimpout.Rules(white_dice=v)),
    Row(wimpout.score, "roll", ROLLS, lambda v: wimpout.score(v)),
    Row(wimpout.score, "has_black", BOOLS_NOT_NONE, lambda v: wimpout.score((5, 2), has_black=v)),
    Row(wimpout.parse_roll, "has_black", BOOLS_NOT_NONE, lambda v: wimpout.parse_roll("5 2", has_black=v)),
    Row(wimpout.show, "roll", [None, 5, "55555", (), (7,), (5, 2, 3, 4, 6, 2)], lambda v: wimpout.show(v)),
    Row(
        wimpout.parse_roll,
        "text",
        [None, 5, (2, 3), "7 7", "2 x", "1", "", "   ", "* 2", "2 3 4 5 6 2", b"2 3", "3 3 3 3 3", "５"],
        lambda v: wimpout.parse_roll(v),
    ),
    Row(
        wimpout.pattern_rolls,
        "whites",
        ["", "4 4 a", "4 4 a b c", "4 4 * a", "4 4 7 a", "4 4 c a"],
        lambda v: wimpout.pattern_rolls(v, "4"),
    ),
    Row(
        wimpout.pattern_rolls,
        "black",
        ["", "3", "c", "4 4", "7"],
        lambda v: wimpout.pattern_rolls("4 4 a b", v),
    ),
    Row(wimpout.all_rolls, "n_white", [HUGE, math.inf], lambda v: wimpout.all_rolls(v)),
    # the turn as an absorbing Markov chain: the state records
    Row(wimpout.State, "white", INTS + [5, 9], lambda v: wimpout.State(v, True)),
    Row(wimpout.State, "white", [3, 4], lambda v: wimpout.State(v, False, (3,))),  # white dice only
    Row(wimpout.State, "white", [0], lambda v: wimpout.State(v, False)),  # rolls no die
    Row(wimpout.State, "black", BOOLS + ["yes"], lambda v: wimpout.State(4, v)),
    Row(wimpout.State, "flash", [()], lambda v: wimpout.State(0, True, v)),  # one die: no game has it
    Row(
        wimpout.State,
        "flash",
        [None, "abc", 3, [7], [2, 2], [True], [2.0], ["2"], [1], [2, 3, 4, 5, 6, 10, 7], ()],
        lambda v: wimpout.State(1, False, v),
    ),
    Row(
        wimpout.State,
        "end",
        [None, 3, "Wimpout!", "wimpout", ["Wimpout"], b"Wimpout"],
        lambda v: wimpout.State(end=v),
    ),
    Row(wimpout.State, "end", ["Wimpout", "Score and Stop"], lambda v: wimpout.State(4, True, (), v)),
    Row(
        wimpout.state,
        "name",
        ["Flash 7; Reroll 5", "", "wimpout"],
        lambda v: wimpout.state(v),
    ),
    Row(wimpout.clearing_state, "white", [3], lambda v: wimpout.clearing_state(4, v, False)),
    Row(wimpout.clearing_state, "black", [True], lambda v: wimpout.clearing_state(4, 2, v)),
    # one step
    Row(
        wimpout.step,
        "s",
        [wimpout.Rules(), wimpout.WIMPOUT],
        lambda v: wimpout.step(v, (5, 2, 3, 4, 6)),
    ),
    Row(wimpout.step, "roll", ROLLS, lambda v: wimpout.step(wimpout.ROLL_5, v)),
    Row(wimpout.step, "roll", [(3,), (2, 4), (SUN, SUN)], lambda v: wimpout.step(CLEAR_3, v)),
    Row(wimpout.step, "face", FACES + [math.nan], lambda v: wimpout.step(CLEAR_3, (2,), face=v)),
    Row(wimpout.step, "face", [5, 3], lambda v: wimpout.step(wimpout.ROLL_5, (5, 2, 3, 4, 6), face=v)),
    Row(wimpout.rolls, "s", [wimpout.Rules()], lambda v: wimpout.rolls(v)),
    Row(wimpout.by_face, "st", [None, "x", 3, wimpout.ROLL_5, (wimpout.ROLL_5, 0, None)], wimpout.by_face),
    Row(wimpout.step_outcomes, "s", [wimpout.Rules(), wimpout.WIMPOUT], lambda v: wimpout.step_outcomes(v)),
    Row(wimpout.step_outcomes, "face", FACES, lambda v: wimpout.step_outcomes(CLEAR_3, face=v)),
    # whole turns (their other arguments are declared)
    Row(wimpout.simulate_turns, "n", [HUGE], lambda v: wimpout.simulate_turns(wimpout.Rules(), v, seed=1)),
    # the Wimpout explorer
    Row(WimpoutTurn, "state", STATES + [FINE], lambda v: WimpoutTurn(v)),
    Row(WimpoutTurn, "face", FACES + [math.nan, [3]], lambda v: WimpoutTurn(CLEAR_3, face=v)),
    Row(WimpoutTurn, "face", [3, 5], lambda v: WimpoutTurn(face=v)),  # no Flash pending at the start
    Row(WimpoutTurn, "points", INTS, lambda v: WimpoutTurn(points=v)),
    Row(
        WimpoutTurn,
        "rolls",
        [None, "abc", 3, [(5,)], [((5,), "5", wimpout.STOP)], [((5,), 5)], [((5,), 5, "Score and Stop")]],
        lambda v: WimpoutTurn(rolls=v),
    ),
    Row(explore.finish_chances, "state", STATES + [FINE], lambda v: explore.finish_chances(v)),
    Row(
        explore.wimpout_roll,
        "turn",
        [None, "turn", 3, wimpout.ROLL_5, WimpoutTurn(wimpout.WIMPOUT)],
        lambda v: explore.wimpout_roll(v, "5 2 3 4 6"),
    ),
    Row(
        explore.wimpout_roll,
        "roll",
        ROLLS + ["", "7 7", "5 5", "5 5 5 2 3 3", "3 3 3 3 3", "* 2 3 4 5"],
        lambda v: explore.wimpout_roll(WimpoutTurn(), v),
    ),
    Row(explore.wimpout_explorer, "seed", INTS, lambda v: explore.wimpout_explorer(v)),
]

EXEMPT = {
    "dicelab.wimpout.records.Score": "a result record, returned by score",
    "dicelab.wimpout.records.Step": "a result record, returned by step",
    "dicelab.wimpout.records.Outcome": "a result record, returned by step_outcomes",
}


# a turn played for points
BEST = wimpout.solve_turn()
TURN_STATES = STATES + [
    wimpout.AUTO_WIN,
    wimpout.state("Flash 2, 4, 6; Reroll 1B"),
]  # absorbing; grouped faces
POINTS = NOT_NONE + [7, 10**9 + 1]  # a turn's points: multiples of 5
ROWS += [
    Row(wimpout.Choice, "white", NOT_NONE + [5, 0], lambda v: wimpout.Choice(v, False)),
    Row(wimpout.Choice, "black", BOOLS, lambda v: wimpout.Choice(1, v)),
    Row(wimpout.turn_outcomes, "s", TURN_STATES, lambda v: wimpout.turn_outcomes(v)),
    Row(wimpout.turn_step, "s", TURN_STATES, lambda v: wimpout.turn_step(v, (5,))),
    Row(wimpout.turn_step, "roll", ROLLS, lambda v: wimpout.turn_step(wimpout.ROLL_5, v)),
    Row(
        wimpout.turn_step, "roll", [(5, 2), (SUN,)], lambda v: wimpout.turn_step(wimpout.Choice(1, False), v)
    ),
    Row(wimpout.TurnSolution.value_at, "state", STATES + [(wimpout.ROLL_5,)], lambda v: BEST.value_at(v)),
    Row(
        wimpout.TurnSolution.value_at,
        "state",
        [(s, 0) for s in TURN_STATES[:-2]] + [(wimpout.ROLL_5, p) for p in POINTS],
        lambda v: BEST.value_at(v),
    ),
    Row(
        wimpout.TurnSolution.best_action,
        "state",
        [(s, 0) for s in STATES] + [(wimpout.CHOICES[0], p) for p in NOT_NONE],
        lambda v: BEST.best_action(v),
    ),
    Row(
        wimpout.simulate_turns,
        "player",
        [wimpout.Rules, "Rules()", BEST.thresholds],
        lambda v: wimpout.simulate_turns(v, 10, seed=0),
    ),
    Row(wimpout.simulate_turns, "n", [HUGE], lambda v: wimpout.simulate_turns(BEST, v, seed=0)),
]
EXEMPT |= {
    "dicelab.wimpout.play.TurnTables": "a result record, returned by turn_tables",
    "dicelab.wimpout.play.TurnSolution": "a result record, returned by solve_turn (its methods have rows)",
}
ROWS += [
    Row(wimpout.TurnSolution.roll_value, "c", STATES, lambda v: BEST.roll_value(v, 0)),
    Row(wimpout.TurnSolution.roll_value, "points", POINTS, lambda v: BEST.roll_value(wimpout.CHOICES[0], v)),
]

# the explorer's choice: bank, or roll the free dice on
AT_CHOICE = explore.wimpout_roll(WimpoutTurn(), "5 2 3 4 6")
NOT_A_CHOICE = [None, "turn", wimpout.Choice(1, False), WimpoutTurn(), WimpoutTurn(wimpout.WIMPOUT)]
ROWS += [
    Row(
        WimpoutTurn,
        "free",
        [3, "1W", wimpout.ROLL_5, (1, False)],
        lambda v: WimpoutTurn(wimpout.STOP, free=v),
    ),
    Row(
        WimpoutTurn, "free", [wimpout.Choice(1, False)], lambda v: WimpoutTurn(free=v)
    ),  # not in Score and Stop
    Row(explore.wimpout_bank, "turn", NOT_A_CHOICE, lambda v: explore.wimpout_bank(v)),
    Row(explore.choice_values, "turn", NOT_A_CHOICE, lambda v: explore.choice_values(v)),
    Row(explore.wimpout_roll, "roll", ["5 5 5 2 3", (5, 2)], lambda v: explore.wimpout_roll(AT_CHOICE, v)),
]
