"""Explorers: the four games to play with, as pure functions and the widgets built on them.

Serves ``notebooks/explorers.ipynb``. Each explorer has a pure function that the notebook
shows as a static table or figure (what GitHub and the course site display), and an
``ipywidgets`` front end (in a live notebook) that calls the same function on every change:

``efron``     dice typed as text -> exact pairwise win probabilities and the beat graph
              (:func:`parse_dice`, :func:`matchup`, :func:`beat_graph`, :func:`efron_explorer`);
``b.a.d.g.``  dice left and a roll -> every sensible take, what optimal play takes and what
              each other take costs (:func:`strategy_card`, :func:`badg_explorer`);
``pig``       simultaneous Pig against hold-at-n, its best response or the equilibrium, with
              the win probability of every hold value before each turn (:func:`pig_opponent`,
              :func:`pig_play`, :func:`pig_explorer`);
``wimpout``   a turn of Cosmic Wimpout roll by roll: the score, the chain state and the exact
              chance of each way the turn can end, and at each choice what banking and rolling on are
              worth (:func:`wimpout_roll`, :func:`wimpout_bank`, :func:`choice_values`,
              :func:`wimpout_explorer`).

Probabilities are exact fractions where the solver is exact (Efron, Wimpout); the b.a.d.g. and
Pig values are the solvers' float64 solutions of the exact equations. A widget never shows a
traceback: a bad input is answered by a message in the widget.
"""

# ruff: noqa: I001 (the imports follow the games' order in the course, not the alphabet)

from dicelab.course.explore._widgets import Explorer

# Efron's dice
from dicelab.course.explore.efron_dice import (
    EFRON_DICE,
    Matchup,
    beat_graph,
    beat_graph_alt,
    efron_explorer,
    matchup,
    parse_dice,
)

# b.a.d.g.
from dicelab.course.explore.badg_card import STANDARD_ROLL, badg_explorer, strategy_card, Take

# simultaneous Pig
from dicelab.course.explore.pig_game import (
    OPPONENTS,
    pig_explorer,
    pig_opponent,
    pig_play,
    PigGame,
    PigOpponent,
)

# Cosmic Wimpout
from dicelab.course.explore.wimpout_turn import (
    choice_values,
    finish_chances,
    wimpout_bank,
    wimpout_explorer,
    wimpout_roll,
    WimpoutTurn,
)

__all__ = [
    "Explorer",
    # Efron's dice
    "EFRON_DICE",
    "parse_dice",
    "Matchup",
    "matchup",
    "beat_graph",
    "beat_graph_alt",
    "efron_explorer",
    # b.a.d.g.
    "STANDARD_ROLL",
    "Take",
    "strategy_card",
    "badg_explorer",
    # simultaneous Pig
    "OPPONENTS",
    "PigOpponent",
    "pig_opponent",
    "PigGame",
    "pig_play",
    "pig_explorer",
    # Cosmic Wimpout
    "WimpoutTurn",
    "finish_chances",
    "wimpout_roll",
    "wimpout_bank",
    "choice_values",
    "wimpout_explorer",
]
