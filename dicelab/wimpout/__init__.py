"""Cosmic Wimpout: one rules engine, and every table of the paper derived from it.

Serves E. C. Kornegay and B. Yankosky, "Exploring the Cosmic Wimpout Dice Game" (see the
README's citations) and notebook ``04_cosmic_wimpout.ipynb``.

Dice: four white dice ``2, 3, 4, 5, 6, 10`` and one black die ``2, SUN, 4, 5, 6, 10``
(the Flaming Sun replaces the 3). A roll lists the white dice first and the black die
last. Scoring (Section 2): 5s and 10s score their face; three matching faces are a
*Flash* worth 10 x the face; the sun with a pair must complete a Flash of the pair;
otherwise the sun is wild (5 or 10; here 10, the paper's first assumption); five
matching faces are a *Freight Train* worth 100 x the face, except five 6s (instant
win) and five 10s (Supernova, instant loss); a roll that scores nothing is a Wimpout.

Readings where the rules leave a choice (each a parameter of :class:`Rules`):

``sun_value = 10``
    the sun outside a Flash counts 10 (the paper's assumption);
``fourth_scores = True``
    a fourth die matching a Flash of 5s or 10s still scores its face ("for every 5
    and 10 rolled ... unless three or five of them are rolled at once"); Table 2 needs
    this reading. A fourth 2, 3, 4 or 6 never scores and must be rerolled;
``two_pairs = "max"``
    with two pairs and the sun, the Flash that scores more; on a tie (only
    ``4 4 5 5 SUN``) the Flash of the higher face.

A variant with fewer dice (``Rules(white_dice=k)``: ``k`` white dice and the black one, 2 to 5
dice) plays by the same rules: the score, the chain, the turn played for points and the race
all follow it.

Modules: :mod:`~dicelab.wimpout.records` (faces, rules, scores, states), :mod:`~dicelab.wimpout.dice`
(scoring), :mod:`~dicelab.wimpout.chain` (the paper's chain), :mod:`~dicelab.wimpout.play` (the turn
played for points, :func:`solve_turn`), :mod:`~dicelab.wimpout.turns` (whole turns,
:func:`simulate_turns`), :mod:`~dicelab.wimpout.race` and :mod:`~dicelab.wimpout.race_match` (the
race to a target, :func:`solve_race`, :func:`simulate_race`); ``_common`` and ``_race_tables`` hold
the internals they share; :mod:`~dicelab.wimpout.reference` the race solved exactly in fractions
(``from dicelab.wimpout import reference``).
"""

# ruff: noqa: I001 (the imports follow the chapter's order, not the alphabet)

# the records: faces, rules, scores, the states of a turn
from dicelab.wimpout.records import (
    ABSORBING,
    AUTO_LOSE,
    AUTO_WIN,
    BLACK_FACES,
    CHOICES,
    NONSCORING,
    ROLL_5,
    STOP,
    SUN,
    TRANSIENT,
    WHITE_FACES,
    WIMPOUT,
    Choice,
    Outcome,
    Rules,
    Score,
    State,
    Step,
)

# the dice and the scoring rules
from dicelab.wimpout.dice import (
    all_rolls,
    initial_roll_distribution,
    parse_roll,
    pattern_rolls,
    score,
    show,
)

# the turn as an absorbing Markov chain
from dicelab.wimpout.chain import (
    by_face,
    clear_caches,
    clearing_state,
    markov_chain,
    rolls,
    state,
    step,
    step_outcomes,
    turn_chain,
)

# beyond the paper: a turn played for points, the free dice rolled by choice
from dicelab.wimpout.play import (
    TurnSolution,
    TurnTables,
    banking_lines,
    solve_turn,
    turn_outcomes,
    turn_states,
    turn_step,
    turn_tables,
)

# beyond the paper: whole turns
from dicelab.wimpout.turns import expected_turn_score, simulate_turns

# beyond the paper: two players racing to a target
from dicelab.wimpout.race import RaceSolution, reach_probability, solve_race
from dicelab.wimpout.race_match import (
    ForPointsLoss,
    RaceMatch,
    evaluate_race,
    for_points_loss,
    for_points_thresholds,
    simulate_race,
)

__all__ = [
    # the dice and the scoring rules
    "SUN",
    "WHITE_FACES",
    "BLACK_FACES",
    "Rules",
    "Score",
    "score",
    "show",
    "all_rolls",
    "parse_roll",
    "pattern_rolls",
    "NONSCORING",
    "initial_roll_distribution",
    # the turn as an absorbing Markov chain
    "State",
    "ROLL_5",
    "AUTO_WIN",
    "AUTO_LOSE",
    "STOP",
    "WIMPOUT",
    "TRANSIENT",
    "ABSORBING",
    "state",
    "clearing_state",
    "Step",
    "step",
    "rolls",
    "Outcome",
    "step_outcomes",
    "markov_chain",
    "clear_caches",
    "by_face",
    "turn_chain",
    # beyond the paper: a turn played for points
    "CHOICES",
    "Choice",
    "TurnSolution",
    "TurnTables",
    "banking_lines",
    "solve_turn",
    "turn_outcomes",
    "turn_step",
    "turn_states",
    "turn_tables",
    # beyond the paper: whole turns
    "expected_turn_score",
    "simulate_turns",
    # beyond the paper: two players racing to a target
    "reach_probability",
    "RaceSolution",
    "solve_race",
    "for_points_thresholds",
    "RaceMatch",
    "evaluate_race",
    "ForPointsLoss",
    "for_points_loss",
    "simulate_race",
]
