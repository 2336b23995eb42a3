"""Reference code: the paper's max-sum method as written, and slow exact cross-checks.

``paper_max_sum_walks`` is the algorithm of Stebbing's post ("Defining and
optimising the objective") implemented literally: the penalised wins matrix,
the max-sum recursion ``S^0, S^1, ...`` row by row, and the backtracking through
every ``argmax``. It is what :func:`dicelab.efron.max_sum_cycles` is checked and
timed against.

The ``exact_*`` functions recompute results from first principles in exact
``Fraction`` arithmetic -- every face pair compared, every feasible cycle
enumerated -- without the wins matrix or the compiled search. They are slow
and meant for small ``L`` and ``S``.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from dicelab.core.checks import check_cost
from dicelab.core.spec import validated
from dicelab.efron._common import (
    COUNTS,
    DICE,
    LABELS,
    MASK,
    PY_STEP,
    SIDES,
    WEIGHTS,
    WINS,
    count_text,
    dice_listing_cost,
    digraph,
    log2_num_dice,
    thresholds,
)
from dicelab.efron.dice import die_faces, unique_dice
from dicelab.efron.wins import allowed_edges, p_beats, wins_matrix

__all__ = ["paper_max_sum_walks", "exact_win_probabilities", "exact_best_cycles"]


_EXAMPLE_GRAPH = {"weights": [[0, 1, 1], [1, 0, 2], [3, 1, 0]], "allowed": [[0, 1, 1], [1, 0, 1], [1, 1, 0]]}


@validated(weights=WEIGHTS, allowed=MASK, dice=DICE, example={**_EXAMPLE_GRAPH, "dice": 3})
def paper_max_sum_walks(weights, allowed, *, dice: int) -> tuple[int | None, list[tuple[int, ...]]]:
    """The paper's method as its text describes it: every maximal closed walk, by max-sum recursion.

    The weights of the steps that are not allowed are set to a penalty that
    makes any sum using one negative (the paper's ``w <- -M S^2``). For every
    start die ``l0`` in turn it runs the max-sum recursion ``S^0, S^1, ...`` back
    to ``l0`` one row at a time (``max`` and ``argmax`` of each row in Python),
    keeps the starts whose value is the overall maximum, and backtracks through
    every ``argmax`` to list *all* maximal closed walks ``(l0, ..., l_{M-1})`` --
    every rotation of every set, and, for ``M >= 6``, walks that repeat a die.

    Parameters
    ----------
    weights : array_like of int, shape (n, n)
        Step weights, e.g. a wins matrix.
    allowed : array_like of bool, shape (n, n)
        Which steps may be taken; the diagonal is ignored.
    dice : int
        Walk length ``M`` (the dice of a set), ``M >= 2``.

    Returns
    -------
    value : int or None
        The maximum over closed walks; ``None`` when it is negative (no
        nontransitive set).
    walks : list of tuple of int
        Every maximal closed walk, by start and then in ``argmax`` order.

    Examples
    --------
    The paper's favourite set of three dice, found from each of its three dice:

    >>> from dicelab.efron import allowed_edges, unique_dice, wins_matrix
    >>> W = wins_matrix(unique_dice(sides=3, labels=5))
    >>> paper_max_sum_walks(W, allowed_edges(W, min_wins=5), dice=3)
    (17, [(9, 16, 22), (16, 22, 9), (22, 9, 16)])
    """
    M = dice
    weights, allowed = digraph(weights, allowed)
    n = weights.shape[0]
    top = int(np.abs(weights).max()) + 1
    if M * M * top >= 2**62:
        raise ValueError(
            f"weights up to {top - 1} around dice = {M} steps overflow int64 "
            "(dice**2 * (|weight| + 1) >= 2**62)"
        )
    check_cost(
        "dice",
        M,
        memory=16 * n * n + 120 * max(M - 2, 0) * n,  # Z and the argmax lists of every step
        steps=n * max(M - 2, 0) * (2 * n * n + PY_STEP * 30 * n),  # per start and step: Z, then row by row
        what=f"the recursion from each of {n} starts",
    )
    penalty = -M * top  # one forbidden step makes the sum negative
    Wp = np.where(allowed, weights, penalty)
    best, walks = None, []
    for l0 in range(n):
        # V[x]: best value of the remaining steps from x back to l0; arg[m][x]: maximising successors
        V = Wp[:, l0].copy()
        args = []
        for _ in range(M - 2):
            Z = Wp + V[np.newaxis, :]
            newV = np.empty(n, dtype=np.int64)
            arg = []
            for x in range(n):  # row by row, as the paper's program does
                row = Z[x]
                m = row.max()
                newV[x] = m
                arg.append(np.flatnonzero(row == m))
            V = newV
            args.append(arg)
        first = Wp[l0] + V
        value = int(first.max())
        if value < 0 or (best is not None and value < best):
            continue
        if best is None or value > best:
            best, walks = value, []
        stack = [(l0, int(l1)) for l1 in np.flatnonzero(first == value)]
        while stack:
            walk = stack.pop()
            if len(walk) == M:
                walks.append(walk)
                continue
            step = args[M - 1 - len(walk)]
            stack.extend(walk + (int(nxt),) for nxt in step[walk[-1]][::-1])
    walks.sort(key=lambda walk: walk)  # the paper lists starts ascending, each in argmax order
    return best, walks


@validated(dice=COUNTS, example={"dice": [[2, 0, 0, 0, 4, 0, 0], [0, 0, 0, 6, 0, 0, 0]]})
def exact_win_probabilities(dice) -> list[list[Fraction]]:
    """``P(die i rolls higher than die j)`` for every pair, by comparing every pair of faces.

    Parameters
    ----------
    dice : array_like of int, shape (N, L)
        One die per row, as label counts.

    Returns
    -------
    list of list of fractions.Fraction
        ``N x N``; entry ``[i][j]`` equals ``wins_matrix(dice)[i, j] / S**2``.

    Examples
    --------
    >>> exact_win_probabilities([[2, 0, 0, 0, 4, 0, 0], [0, 0, 0, 6, 0, 0, 0]])
    [[Fraction(2, 9), Fraction(2, 3)], [Fraction(1, 3), Fraction(0, 1)]]
    """
    N, S = len(dice), float(dice.sum(axis=1).max())
    check_cost("dice", f"{N} dice", memory=N * (N * 120 + 40 * S), steps=_pairs_cost(N, S), what="every pair")
    faces = [die_faces(d) for d in dice]
    return [[p_beats(a, b) for b in faces] for a in faces]


def _pairs_cost(N: float, S: float) -> float:
    """Steps of :func:`p_beats` on every ordered pair of ``N`` dice with up to ``S`` faces each
    (timed: about 60 microseconds a pair for ``S`` from 4 to 10, mostly its argument checks)."""
    return PY_STEP * N * N * (500 + 10 * S)


def _enumeration_cost(allowed: np.ndarray, M: int) -> float:
    """Steps of the depth-first enumeration of the ``M``-cycles in the digraph ``allowed``.

    A path is extended only by dice of larger index than its first, so the paths of ``k``
    steps from each start are the ``k``-step walks that stay above it: row ``l`` of
    ``(A o U) A o U ... o U`` (``U`` the strictly upper triangle), summed. Each path of
    ``M - 1`` steps looks for its first die among the ``d`` successors of its last (about
    ``2 + 0.03 d`` microseconds with the fraction added, timed); each shorter path tries its
    ``d`` successors (0.06 microseconds each). Beyond 2,000 dice the count is approximated
    by ``2.5 / (k + 1)`` times all ``k``-step walks (the ratio on the timed sizes).
    """
    A = allowed.astype(float)
    n = len(A)
    d = A.sum() / n
    paths = []
    if n <= 2000:
        upper = np.triu(np.ones((n, n)), 1)
        V = A * upper
        for _ in range(M - 1):
            paths.append(float(V.sum()))
            V = (V @ A) * upper
    else:
        v = np.ones(n)
        for k in range(1, M):
            v = A @ v
            paths.append(min(2.5 * float(v.sum()) / (k + 1), 1e300))
    return n * d * 6 + sum(paths[:-1]) * d * 6 + paths[-1] * (200 + 3 * d)


@validated(
    sides=SIDES,
    labels=LABELS,
    dice=DICE,
    wins=WINS,
    min_wins=WINS,
    example={"sides": 3, "labels": 4, "dice": 3},
)
def exact_best_cycles(
    *, sides: int, labels: int, dice: int, wins: int | None = None, min_wins: int | None = None
):
    """:func:`dicelab.efron.best_cycles` by enumerating every nontransitive ``M``-cycle, in ``Fraction``\\ s.

    Every cyclic sequence of distinct dice in which each beats the next with
    probability at least ``min_wins / S**2`` (exactly ``wins / S**2`` if given)
    is listed from its smallest index; the ones with the largest sum of
    probabilities are kept.

    Parameters
    ----------
    sides, labels, dice, wins, min_wins
        As in :func:`dicelab.efron.best_cycles`.

    Returns
    -------
    total : fractions.Fraction or None
        The largest sum of probabilities around a cycle (``None`` if no cycle exists).
    sets : list of tuple of tuple of int
        As returned by :func:`dicelab.efron.best_cycles`.

    Examples
    --------
    >>> exact_best_cycles(sides=3, labels=5, dice=3)
    (Fraction(17, 9), [((2, 2, 2), (1, 1, 4), (0, 3, 3))])
    """
    S, L, M = sides, labels, dice
    min_wins, wins = thresholds(S, min_wins, wins)
    N, memory, steps = dice_listing_cost(S, L)
    check_cost(
        "(sides, labels, dice)",
        (S, L, M),
        memory=memory + N * N * 130,  # every probability, and the lists of what beats what
        steps=steps + _pairs_cost(N, S) + PY_STEP * N * N,
        what=f"the exact probabilities of {count_text(log2_num_dice(S, L))} dice",
    )
    counts = unique_dice(sides=S, labels=L)
    # the cycles' steps, in integers
    allowed = allowed_edges(wins_matrix(counts), min_wins=min_wins, wins=wins)
    check_cost(
        "(sides, labels, dice)",
        (S, L, M),
        memory=memory + N * N * 130 + 24.0 * N * N,
        steps=steps + _pairs_cost(N, S) + PY_STEP * N * N + _enumeration_cost(allowed, M),
        what=f"every {M}-cycle of {count_text(log2_num_dice(S, L))} dice, in fractions",
    )
    P = exact_win_probabilities(counts)
    n = len(P)
    low = Fraction(min_wins, S * S)
    beats = [[j for j in range(n) if j != i and P[i][j] >= low] for i in range(n)]
    if wins is not None:
        beats = [[j for j in row if P[i][j] == Fraction(wins, S * S)] for i, row in enumerate(beats)]
    best, found = None, []

    def extend(path: list[int], total: Fraction) -> None:
        nonlocal best, found
        if len(path) == M:
            if path[0] in beats[path[-1]]:
                value = total + P[path[-1]][path[0]]
                if best is None or value > best:
                    best, found = value, []
                if value == best:
                    found.append(tuple(path))
            return
        for j in beats[path[-1]]:
            if j > path[0] and j not in path:
                extend([*path, j], total + P[path[-1]][j])

    for l0 in range(n):
        extend([l0], Fraction(0))
    faces = [die_faces(d) for d in counts]
    return best, [tuple(faces[i] for i in cycle) for cycle in sorted(found)]
