"""What beats what: win probabilities, the wins matrix ``W = D E^T`` and the "beats" threshold.

Serves the section "What beats what?" of Stebbing's post.

For dice ``A`` and ``B`` with label counts ``alpha`` and ``beta``, the number of
the ``S**2`` equally likely face pairs in which ``A`` rolls higher is

    ``w_AB = sum_b beta_b sum_{a>b} alpha_a``.

With ``D`` the ``(N, L)`` matrix of label counts and ``E[j, a] = sum_{b<a} D[j, b]``
(faces of die ``j`` strictly below label ``a``), all of them at once are the
single product ``W = D E^T``. Die ``i`` *beats* die ``j`` when it wins more than
half of the pairs, ``w_ij > S**2 / 2``.
"""

from __future__ import annotations

import bisect
import itertools
import math
from collections import Counter
from fractions import Fraction

import numpy as np

from dicelab.core.checks import check_cost, check_int, check_sequence
from dicelab.core.spec import Check, Int, validated
from dicelab.efron._common import COUNTS, PY_STEP, SIDES, VECTOR_STEP, WINS, int_array, strict_threshold

__all__ = ["wins_matrix", "p_beats", "strict_min_wins", "allowed_edges"]


@validated(dice=COUNTS, example={"dice": [[2, 0, 0, 0, 4, 0, 0], [0, 0, 0, 6, 0, 0, 0]]})
def wins_matrix(dice) -> np.ndarray:
    """The wins matrix ``W = D E^T`` of a set of dice given by their label counts.

    ``w_ij = sum_b d_j[b] * sum_{a>b} d_i[a]`` counts the face pairs in which die
    ``i`` rolls higher than die ``j``.

    Parameters
    ----------
    dice : array_like of int, shape (N, L)
        One die per row, as label counts (e.g. :func:`unique_dice`).

    Returns
    -------
    numpy.ndarray
        ``int64`` array of shape ``(N, N)``.

    Examples
    --------
    Efron's dice ``A = (0, 0, 4, 4, 4, 4)`` and ``B = (3, 3, 3, 3, 3, 3)``: ``A``
    wins 24 of the 36 face pairs and ``B`` the other 12; two copies of ``A``
    give 8 pairs to each and tie in the other 20.

    >>> wins_matrix([[2, 0, 0, 0, 4, 0, 0], [0, 0, 0, 6, 0, 0, 0]])
    array([[ 8, 24],
           [12,  0]])
    """
    D = dice
    N, L = D.shape
    check_cost(
        "dice",
        f"{N} dice",
        memory=8 * N * N + 24 * N * L,
        steps=VECTOR_STEP * N * N * L,
        what="the wins matrix",
    )
    below = np.cumsum(D, axis=1) - D  # E: faces strictly below each label
    return D @ below.T


def _faces(name: str, faces) -> tuple[int, ...]:
    """A die given by its faces: a non-empty sequence of integer labels (any sign)."""
    faces = check_sequence(name, faces, what="integer faces")
    return tuple(check_int(f"{name}[{k}]", f, -math.inf) for k, f in enumerate(faces))


FACES = Check(_faces, bad=(None, "123", [], [1.5, 2], [True], 3, [None], {1: 2}, [math.nan]))


@validated(a=FACES, b=FACES, rolls=Int(1, 100), example={"a": (0, 0, 4, 4, 4, 4), "b": (3, 3, 3, 3, 3, 3)})
def p_beats(a, b, *, rolls: int = 1) -> Fraction:
    """Exact probability that a die with faces ``a`` rolls strictly higher than one with faces ``b``.

    Every pair of faces is equally likely; the dice may have different numbers
    of sides. With ``rolls = n`` each player rolls their die ``n`` times and
    adds: the ``len(a)**n * len(b)**n`` outcomes are equally likely, and the two
    sums are compared.

    Parameters
    ----------
    a, b : sequence of int
        The faces of the two dice.
    rolls : int
        How many times each die is rolled and added, ``1 <= rolls <= 100``.

    Returns
    -------
    fractions.Fraction
        ``#{(x, y) : x > y} / (len(a)**rolls * len(b)**rolls)``, ``x`` and ``y`` the sums of ``a`` and ``b``.

    Examples
    --------
    >>> p_beats((0, 0, 4, 4, 4, 4), (3, 3, 3, 3, 3, 3))
    Fraction(2, 3)

    Two of each: ``A + A'`` beats ``6`` only when both show 4.

    >>> p_beats((0, 0, 4, 4, 4, 4), (3, 3, 3, 3, 3, 3), rolls=2)
    Fraction(4, 9)
    """
    sizes = [_num_sums(faces, rolls) for faces in (a, b)]
    check_cost(
        "rolls",
        rolls,
        memory=100 * sum(sizes),
        steps=PY_STEP * sum(rolls * n * len(set(f)) for n, f in zip(sizes, (a, b), strict=True)),
        what=f"the {sizes[0]:.3g} and {sizes[1]:.3g} distinct sums of a and b",
    )
    sums_a, sums_b = _sums(a, rolls), _sums(b, rolls)
    below = sorted(sums_b)  # the sums of b, ascending, and how many outcomes reach each or less
    upto = list(itertools.accumulate(sums_b[y] for y in below))
    wins = 0
    for x, ca in sums_a.items():
        k = bisect.bisect_left(below, x)  # the sums of b strictly below x
        if k:
            wins += ca * upto[k - 1]
    return Fraction(wins, len(a) ** rolls * len(b) ** rolls)


def _num_sums(faces: tuple[int, ...], rolls: int) -> float:
    """At most how many distinct sums ``rolls`` rolls of ``faces`` give: ``rolls * (max - min) + 1``, and
    at most the multisets of ``rolls`` of the distinct faces."""
    spread = rolls * (max(faces) - min(faces)) + 1
    return float(min(spread, math.comb(len(set(faces)) + rolls - 1, rolls)))


def _sums(faces: tuple[int, ...], rolls: int) -> dict[int, int]:
    """``{s: number of the len(faces)**rolls outcomes with sum s}``."""
    counts = {0: 1}
    distinct = Counter(faces).items()  # each face value with its multiplicity
    for _ in range(rolls):
        nxt: dict[int, int] = {}
        for s, c in counts.items():
            for f, k in distinct:
                nxt[s + f] = nxt.get(s + f, 0) + c * k
        counts = nxt
    return counts


@validated(sides=SIDES, example={"sides": 6})
def strict_min_wins(*, sides: int) -> int:
    """The least ``w`` with ``w > S**2 / 2``: "beats" means winning *more* than half of the face pairs.

    Parameters
    ----------
    sides : int
        Number of sides ``S``, ``S >= 1``.

    Returns
    -------
    int
        ``S**2 // 2 + 1``.

    Examples
    --------
    >>> strict_min_wins(sides=6)
    19
    """
    return strict_threshold(sides)


def _wins_arg(name: str, value) -> np.ndarray:
    """A wins matrix: a square array of integer win counts, none negative."""
    W = int_array(name, value, ndim=2, what="integers (a wins matrix)", square=True)
    if (W < 0).any():
        raise ValueError(f"{name} must hold win counts >= 0, got {int(W.min())}")
    return W


_BAD_SQUARE = COUNTS.bad[:11] + (
    np.ones((2, 2, 2)),
    np.ones((2, 3), int),
    [[0, -1], [1, 0]],
    [[0, 3], [-3, 0]],
)


@validated(
    W=Check(_wins_arg, bad=_BAD_SQUARE),
    min_wins=Int(0),
    wins=WINS,
    example={"W": [[8, 24], [12, 0]], "min_wins": 19},
)
def allowed_edges(W, *, min_wins: int, wins: int | None = None) -> np.ndarray:
    """Boolean mask of the pairs ``i -> j`` (``i != j``) that may follow each other in a cycle.

    Parameters
    ----------
    W : array_like of int, shape (N, N)
        A wins matrix.
    min_wins : int
        With ``wins=None``, every pair with ``w_ij >= min_wins`` is allowed; ``min_wins >= 0``.
    wins : int or None
        If given, only the pairs with ``w_ij == wins`` (the paper's
        equal-probability variant).

    Returns
    -------
    numpy.ndarray
        ``bool`` array of shape ``(N, N)`` with a false diagonal.

    Examples
    --------
    >>> W = wins_matrix([[2, 0, 0, 0, 4, 0, 0], [0, 0, 0, 6, 0, 0, 0]])
    >>> allowed_edges(W, min_wins=strict_min_wins(sides=6))
    array([[False,  True],
           [False, False]])
    """
    mask = (W >= min_wins) if wins is None else (W == wins)
    np.fill_diagonal(mask, False)
    return mask
