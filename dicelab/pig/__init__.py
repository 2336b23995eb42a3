"""Simultaneous Pig: hold-at-k turns, best responses for two and three players, sequential Pig,
and the game between two rational players.

Serves T. Zhu, M. Ma, L. Chen and Z. Liu, "Optimal strategy of the simultaneous dice game Pig
for multiplayers" (Scientific Reports, 2023) and notebook ``03_simultaneous_pig.ipynb``.

The game
--------
Every player rolls one die at the same time, turn after turn. Within a turn a player keeps
rolling until holding; a 1 wipes the turn total out. When every player has held or rolled a
1, the turn ends and the turn totals are banked. The first to reach ``goal`` (100) wins; if
``m`` players reach it in the same turn, each gets ``1/m`` (with two players, ``tie``).
The die has six faces in the paper; the turn distributions and the best responses (two and
three players, hold at ``k`` or any stopping rule) also take ``sides``, a die of ``sides``
faces whose face 1 ends the turn.

Notation (the paper's)
----------------------
``X_k``
    the turn total of a player who holds at ``k``: ``0`` after a 1, else ``k, ..., k+5``.
``p(i, j)``
    player A's probability of winning from the start of a turn with A on ``i`` and B on
    ``j`` points: the ``values`` of every solver's result.
policy
    a :class:`Policy`: hold values by state, ``policy[own, other]``, or ``policy[own]``
    for a *simple* policy such as :func:`hold_at`.

Exactness: the distributions of ``X_k`` are exact fractions; the solvers are float64, each
checked against exact fractions on small goals (:mod:`dicelab.pig.reference`). The
equilibrium solves every stage game in closed form on its support, decides in exact
fractions whether a state needs mixing where the floats come close, and is certified by both
players' exact best responses (:func:`exploitability`). The paper's own algorithms are in
:mod:`dicelab.pig.reference` too (``paper_*``): ``from dicelab.pig import reference``.

Every solver is a ``solve_*`` whose result follows :class:`dicelab.core.solution.Solved`
(``start``, ``value``, ``value_at(state)``, ``values``, ``policy``, ``best_action(state)``).

>>> from dicelab import pig
>>> round(pig.solve_best_response(pig.hold_at(25)).value, 4)
0.5231
"""

# ruff: noqa: I001 (the imports follow the package's reading order, not the alphabet)

# the turn: hold-at-k distributions (turns)
from dicelab.pig.turns import GOAL, deviation_threshold, hold_distribution, hold_table, one_turn_win

# policies (policy)
from dicelab.pig.policy import Policy, hold_at

# results and the fixed-point convention (solution)
from dicelab.pig.solution import BestResponse, NotConverged, PigSolution

# two players against a fixed opponent (two_player)
from dicelab.pig.two_player import (
    solve_best_response,
    solve_best_response_mixed,
    solve_full_best_response,
    win_probability,
)

# three players against simple opponents (three_player)
from dicelab.pig.three_player import solve_best_response_3p

# classic turn-taking Pig (sequential)
from dicelab.pig.sequential import HoldRace, SequentialSolution, race_against_hold, solve_sequential

# both players rational: the stage games (stage_games), the equilibrium (stochastic_game),
# the paper's value iterations (value_iteration)
from dicelab.pig.stage_games import stage_game, stage_game_value
from dicelab.pig.stochastic_game import Equilibrium, exploitability, solve_equilibrium
from dicelab.pig.value_iteration import SymmetricIteration, solve_svima, symmetric_value_iteration

__all__ = [
    # turns
    "GOAL",
    "hold_distribution",
    "hold_table",
    "one_turn_win",
    "deviation_threshold",
    # policies
    "Policy",
    "hold_at",
    # results
    "PigSolution",
    "BestResponse",
    "NotConverged",
    # two players
    "solve_best_response",
    "solve_best_response_mixed",
    "win_probability",
    "solve_full_best_response",
    # three players
    "solve_best_response_3p",
    # sequential Pig
    "SequentialSolution",
    "solve_sequential",
    "HoldRace",
    "race_against_hold",
    # the stochastic game
    "stage_game",
    "stage_game_value",
    "exploitability",
    "Equilibrium",
    "solve_equilibrium",
    "solve_svima",
    "SymmetricIteration",
    "symmetric_value_iteration",
]
