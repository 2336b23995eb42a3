"""Nontransitive dice: counting dice, the wins matrix and the max-sum cycle search.

Serves R. Stebbing, "Finding Efron's dice" (2015; see the README's citations) and
notebook ``01_efron_dice.ipynb``.

Notation (the paper's)
----------------------
``S``, the keyword ``sides``
    number of sides of every die.
``L``, the keyword ``labels``
    number of labels; faces carry the labels ``0, 1, ..., L-1``.
``M``, the keyword ``dice``
    number of dice in the nontransitive set (``M = 4`` for Efron's dice), the length of a cycle.

Every function that takes these sizes takes them as keywords, in this order:
``best_cycles(sides=6, labels=7, dice=4)``, ``unique_dice(sides=6, labels=7)``,
``max_sum_cycles(W, allowed, dice=4)``. The win thresholds are keywords too: ``min_wins=``
(every step won in at least that many face pairs) and ``wins=`` (in exactly that many).
die
    a vector ``d`` of length ``L`` of non-negative integers summing to ``S``:
    ``d[i]`` is the number of faces labelled ``i``. Its cumulative sum
    ``d~[i]`` is the number of faces labelled ``i`` or less (``d~[L-1] = S``).
    The same die as a *face tuple* lists its ``S`` labels in ascending order.
``N_{L,S}``
    the number of distinct dice, ``N_{L,S} = sum_{i=0}^{S} N_{L-1,i}``.
``W``
    the wins matrix: ``w_ij`` is the number of the ``S**2`` equally likely
    face pairs in which die ``i`` rolls higher than die ``j``.

A set of dice ``l_0 -> l_1 -> ... -> l_{M-1} -> l_0`` is *nontransitive* when each
die beats the next one, ``w > S**2 / 2``. The paper's objective is the largest
sum of wins around the cycle, found by a max-sum (tropical) dynamic program over
closed walks; :func:`max_sum_cycles` searches simple cycles with that program as
the bound of a branch-and-bound.

Modules
-------
``dice``       counting and listing dice, faces and label counts, sums of rolls
``wins``       win probabilities, the wins matrix ``W = D E^T``, the "beats" threshold
``search``     the max-sum search over simple cycles (and its log), the paper's complete run
``sets``       the sets of dice a search finds, held as arrays
``cycles``     counting nontransitive cycles by closed walks, ``tr(A^M) / M``
``reference``  the paper's algorithm as written (``paper_*``) and exact cross-checks (``exact_*``),
               imported on its own: ``from dicelab.efron import reference``

Examples
--------
>>> from dicelab import efron
>>> efron.num_unique_dice(sides=6, labels=7)
924
>>> efron.best_cycles(sides=6, labels=7, dice=4, wins=24)  # Efron's dice, listed from B
[((3, 3, 3, 3, 3, 3), (2, 2, 2, 2, 6, 6), (1, 1, 1, 5, 5, 5), (0, 0, 4, 4, 4, 4))]
"""

# counting dice: N_{L,S}, the paper's enumeration, faces <-> label counts, sums of rolls
from dicelab.efron.dice import (
    die_counts,
    die_faces,
    num_unique_dice,
    num_unique_dice_closed_form,
    sum_of_rolls,
    unique_dice,
)

# what beats what: exact probabilities, the wins matrix, the "beats" threshold
from dicelab.efron.wins import allowed_edges, p_beats, strict_min_wins, wins_matrix

# isort: split
# the max-sum search: simple cycles of largest total wins, its log, the paper's run
from dicelab.efron.search import (
    CycleSearch,
    SearchStep,
    best_cycles,
    max_sum_cycles,
    maxplus_product,
    same_cycle,
    search_all,
    search_log,
)

# isort: split
# the sets a search finds, as arrays read as a list
from dicelab.efron.sets import DiceSets

# isort: split
# counting nontransitive cycles: closed walks, tr(A^M) / M
from dicelab.efron.cycles import closed_walks, count_cycles

__all__ = [
    # counting dice
    "num_unique_dice",
    "num_unique_dice_closed_form",
    "unique_dice",
    "die_faces",
    "die_counts",
    "sum_of_rolls",
    # what beats what
    "wins_matrix",
    "p_beats",
    "strict_min_wins",
    "allowed_edges",
    # the max-sum search
    "CycleSearch",
    "SearchStep",
    "max_sum_cycles",
    "search_log",
    "maxplus_product",
    "same_cycle",
    "best_cycles",
    "search_all",
    "DiceSets",
    # counting cycles
    "closed_walks",
    "count_cycles",
]
