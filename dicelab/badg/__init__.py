"""b.a.d.g.: roll the dice left, take at least one, score the faces taken -- solved.

Serves D. Fetterman, "Strategy for bitches (a dice game)" (2022), Sections 3-5, and notebook
``02_badg.ipynb``. The one-die game of Section 2 is :mod:`dicelab.badg.stopping`.

Notation
--------
dice
    a tuple of die sizes, e.g. :data:`STANDARD` ``= (6,)*12 + (8, 10, 12)``;
    order does not matter. Each die shows ``1..s`` with probability ``1/s``.
state
    the multiset of dice still in play, given as such a tuple (or, inside, as
    the count of dice of each distinct size).
roll
    one face per die of the state, in the order of the state tuple.
take
    the dice removed after a roll (at least one); a die of size ``s`` taken
    showing ``p`` scores ``p`` -- equivalently ``s - p`` b.a.d.g. points, which
    the player wants few of. Maximising the face sum is the same game.

The solvers (:func:`solve`, :func:`solve_to_win`, :func:`~dicelab.badg.stopping.solve_stopping`)
answer the questions of :mod:`dicelab.core.solution`: ``start``, ``value``, ``value_at(state)``,
``values``, ``best_action(state)`` and ``policy``; a decision state holds the roll,
``(dice, roll)`` (``(dice, points, roll)`` playing to win).

Modules
-------
``stopping``    the one-die game (Section 2): :func:`~dicelab.badg.stopping.solve_stopping`, ``E(r, s)``
``state``       the states and their roll counts (Section 3)
``tables``      the roll tables the exact solver reads, built once per game
``solver``      the exact optimal strategy (:func:`solve`) and its statistics
``heuristic``   the paper's parallel-games strategy and exact policy evaluation (Section 4)
``to_win``      play to win: the strategy maximising ``P(bad points <= t)`` (or any nonincreasing
                utility of the final bad points), and where it parts from the expected-points one
``scores``      final-score distributions of both strategies
``simulation``  Monte Carlo play of that strategy (Section 5), a :class:`~dicelab.core.sample.Sample`
``reference``   the paper's methods literally (``paper_*``) and exact checks (``exact_*``); not
                imported by the package: ``from dicelab.badg import reference``
``_common``     the internals the modules share (private)
``_kernels``    the numba kernels behind ``solver``
``_win_kernels`` the numba kernels behind ``to_win``

Examples
--------
>>> from dicelab import badg
>>> optimal = badg.solve((6, 6, 8)).expected_points
>>> heuristic = badg.evaluate(badg.heuristic_policy(), (6, 6, 8)).expected_points
>>> round(optimal, 4), round(float(heuristic), 4)
(5.2307, 5.2585)
"""
# ruff: noqa: I001  (imports grouped by topic, as the package map reads)

# the game and its states
from dicelab.badg.state import STANDARD, count_rolls, multiset_rolls, states

# the exact optimal strategy
from dicelab.badg.solver import RESTRICTIONS, PolicyStatistics, Solution, solve
from dicelab.badg.tables import SolverTables

# the paper's parallel-games strategy, evaluated exactly and simulated
from dicelab.badg.heuristic import FALLBACKS, Evaluation, HeuristicPolicy, evaluate, heuristic_policy
from dicelab.badg.simulation import simulate

# play to win: the strategy for a target or a utility, final-score distributions
from dicelab.badg.to_win import (
    WinSolution,
    lowest_utility,
    max_points,
    solve_to_win,
    threshold_utility,
)
from dicelab.badg.to_win import Decision, Differences
from dicelab.badg.scores import points_distribution

# the paper's methods literally, and exact cross-checks, are imported on their own:
# ``from dicelab.badg import reference``

__all__ = [
    # the game and its states
    "STANDARD",
    "states",
    "count_rolls",
    "multiset_rolls",
    # the exact optimal strategy
    "RESTRICTIONS",
    "solve",
    "Solution",
    "SolverTables",
    "PolicyStatistics",
    # the parallel-games strategy
    "FALLBACKS",
    "heuristic_policy",
    "HeuristicPolicy",
    "evaluate",
    "Evaluation",
    "simulate",
    # play to win
    "max_points",
    "threshold_utility",
    "lowest_utility",
    "solve_to_win",
    "WinSolution",
    "points_distribution",
    "Differences",
    "Decision",
]
