"""Counting and listing dice: ``N_{L,S}``, the paper's enumeration, faces and label counts.

Serves the section "How many unique dice are there?" of Stebbing's post.

A *labelled* die has ``S`` identifiable sides, each carrying one of the labels
``0, ..., L-1``: there are ``L**S`` of them. Two labelled dice that differ only
in which side carries which label roll alike, so a die is its multiset of
labels, stored two ways:

label counts
    a vector ``d`` of length ``L`` of non-negative integers summing to ``S``;
    ``d[i]`` is the number of faces labelled ``i``, and its cumulative sum
    ``d~[i]`` the number labelled ``i`` or less (``d~[L-1] = S``).
faces
    the ``S`` labels in ascending order, e.g. ``(0, 0, 4, 4, 4, 4)``.

``N_{L,S}`` is the number of distinct dice: ``N_{1,s} = 1`` and
``N_{L,S} = sum_{i=0}^{S} N_{L-1,i}``, in closed form ``C(S+L-1, L-1)``.

Rolling a die ``n`` times and adding gives another die: its faces are the
``S**n`` equally likely sums, with labels ``0 .. n(L-1)``; its label counts are
the ``n``-fold convolution of ``d`` with itself (:func:`sum_of_rolls`).
"""

from __future__ import annotations

import itertools
import math
from math import comb

import numpy as np

from dicelab.core.checks import check_cost, check_int
from dicelab.core.spec import Check, Int, Items, validated
from dicelab.efron._common import (
    COUNTS,
    LABELS,
    PY_STEP,
    SIDES,
    count_text,
    dice_listing_cost,
    face_tuples,
    int_array,
    log2_num_dice,
)

__all__ = [
    "num_unique_dice",
    "num_unique_dice_closed_form",
    "unique_dice",
    "die_faces",
    "die_counts",
    "sum_of_rolls",
]


_RECURRENCE_ADDITIONS = 10**6  # a fraction of a second; num_unique_dice's closed form beyond


@validated(sides=SIDES, labels=LABELS, example={"sides": 6, "labels": 7})
def num_unique_dice(*, sides: int, labels: int) -> int:
    """``N_{L,S}``, the number of distinct ``S``-sided dice with labels ``0..L-1``, by the paper's recurrence.

    ``N_{1,s} = 1`` and ``N_{L,S} = sum_{i=0}^{S} N_{L-1,i}``: a die with ``L``
    labels is a die with ``L-1`` labels on the ``i`` faces below the top label,
    for ``i = 0..S``. The recurrence takes ``(L - 1)(S + 1)`` additions; beyond
    ``10^6`` of them the closed form ``C(L+S-1, S)`` it equals
    (:func:`num_unique_dice_closed_form`) answers instead, at once.

    Parameters
    ----------
    sides : int
        Number of sides ``S``, ``S >= 1``.
    labels : int
        Number of labels ``L``, ``L >= 1``.

    Returns
    -------
    int
        ``N_{L,S}``.

    Examples
    --------
    >>> num_unique_dice(sides=4, labels=3), num_unique_dice(sides=6, labels=7)
    (15, 924)
    """
    S, L = sides, labels
    if (L - 1) * (S + 1) > _RECURRENCE_ADDITIONS:
        return num_unique_dice_closed_form(sides=S, labels=L)
    bits = log2_num_dice(S, L)  # the size of the largest entry
    check_cost(
        "(sides, labels)",
        (S, L),
        memory=2 * (S + 1) * (32 + bits / 8),
        steps=(L - 1) * (8 * PY_STEP + (S + 1) * (3 + bits / 300)),  # accumulate adds in C, ~30 ns
        what="the recurrence's rows of big integers",
    )
    row = [1] * (S + 1)  # N_{1,s} for s = 0..S
    for _ in range(L - 1):
        row = list(itertools.accumulate(row))  # N_{l+1,s} = sum_{i<=s} N_{l,i}
    return row[S]


@validated(sides=SIDES, labels=LABELS, example={"sides": 6, "labels": 7})
def num_unique_dice_closed_form(*, sides: int, labels: int) -> int:
    """``N_{L,S} = C(S+L-1, L-1)``: multisets of size ``S`` from ``L`` labels (stars and bars).

    Parameters
    ----------
    sides : int
        Number of sides ``S``, ``S >= 1``.
    labels : int
        Number of labels ``L``, ``L >= 1``.

    Returns
    -------
    int
        ``N_{L,S}``, equal to :func:`num_unique_dice`.

    Examples
    --------
    >>> num_unique_dice_closed_form(sides=6, labels=7)
    924
    """
    S, L = sides, labels
    bits = log2_num_dice(S, L)
    check_cost(
        "(sides, labels)",
        (S, L),
        memory=bits / 8,
        steps=min(L - 1, S) * bits / 1000,
        what="a binomial coefficient",
    )
    return comb(S + L - 1, L - 1)


@validated(sides=SIDES, labels=LABELS, example={"sides": 6, "labels": 7})
def unique_dice(*, sides: int, labels: int) -> np.ndarray:
    """All ``N_{L,S}`` dice as an ``(N, L)`` integer array of label counts, in the paper's order.

    The order is ascending lexicographic order of the cumulative vector ``d~``
    -- equivalently, *descending* lexicographic order of the face tuples. Row 0
    is the die with every face ``L-1``; the last row is the die with every face
    ``0``. Indices into this array are the dice indices of the wins matrix and
    of the cycle search.

    Parameters
    ----------
    sides : int
        Number of sides ``S``, ``S >= 1``.
    labels : int
        Number of labels ``L``, ``L >= 1``.

    Returns
    -------
    numpy.ndarray
        ``int64`` array of shape ``(N_{L,S}, L)``; every row sums to ``S``.

    Examples
    --------
    >>> unique_dice(sides=2, labels=2)
    array([[0, 2],
           [1, 1],
           [2, 0]])
    """
    S, L = sides, labels
    N, memory, steps = dice_listing_cost(S, L)
    what = f"{count_text(log2_num_dice(S, L))} dice"
    check_cost("(sides, labels)", (S, L), memory=memory, steps=steps, what=what)
    # d~_0 <= d~_1 <= ... <= d~_{L-2} <= S, in lexicographic order.
    rows = list(itertools.combinations_with_replacement(range(S + 1), L - 1))
    cum = np.array(rows, dtype=np.int64).reshape(len(rows), L - 1)
    cum = np.hstack([cum, np.full((cum.shape[0], 1), S, dtype=np.int64)])
    return np.diff(cum, axis=1, prepend=0)


def _die_vector(name: str, value) -> np.ndarray:
    """One die's label counts: a non-empty 1-D vector of non-negative integers."""
    form = f"{name} must be a 1-D vector of non-negative integers"
    try:
        counts = int_array(name, value, ndim=1)
    except ValueError as err:
        raise ValueError(f"{form} ({err})") from None
    if (counts < 0).any():
        raise ValueError(f"{form}, got {counts.tolist()!r}"[:300])
    return counts


_BAD_FACES = (None, "123", [], [1.5, 2], [True], 3, [None], {1: 2}, [math.nan])


@validated(
    counts=Check(_die_vector, bad=_BAD_FACES + ([1, -1], [[1, 2]], [2**63, 1])),
    example={"counts": [2, 0, 0, 0, 4, 0, 0]},
)
def die_faces(counts) -> tuple[int, ...]:
    """The ascending face tuple of a die given by its label counts.

    Parameters
    ----------
    counts : array_like of int
        Label counts ``d``: ``counts[i]`` faces carry the label ``i``.

    Returns
    -------
    tuple of int
        The ``sum(counts)`` labels in ascending order.

    Examples
    --------
    >>> die_faces([2, 0, 0, 0, 4, 0, 0])
    (0, 0, 4, 4, 4, 4)
    """
    faces = float(counts.sum(dtype=float))
    check_cost("counts", f"{faces:.3g} faces", memory=40 * faces, steps=2 * faces, what="the face tuple")
    return face_tuples(counts[np.newaxis, :])[0]


@validated(
    faces=Items(Int(0), what="labels"),
    labels=LABELS,
    example={"faces": (4, 0, 4, 4, 0, 4), "labels": 7},
)
def die_counts(faces, *, labels: int) -> np.ndarray:
    """The label-count vector of a die given by its faces.

    Parameters
    ----------
    faces : sequence of int
        The labels on the faces, each in ``0..labels-1``, in any order.
    labels : int
        Number of labels ``L``, ``L >= 1``.

    Returns
    -------
    numpy.ndarray
        ``int64`` vector of length ``L``: how many faces carry each label.

    Examples
    --------
    >>> die_counts((4, 0, 4, 4, 0, 4), labels=7)
    array([2, 0, 0, 0, 4, 0, 0])
    """
    L = labels
    check_cost("labels", L, memory=8 * L, what="the count vector")
    shown = [check_int(f"faces[{k}]", f, 0, L - 1) for k, f in enumerate(faces)]
    return np.bincount(np.array(shown), minlength=L).astype(np.int64)


@validated(dice=COUNTS, rolls=Int(1), example={"dice": [[1, 0, 1]], "rolls": 2})
def sum_of_rolls(dice, *, rolls: int) -> np.ndarray:
    """Label counts of the sum of ``rolls`` independent rolls of each die.

    A die with label counts ``d`` rolled ``n`` times shows the sum ``s`` in
    ``c[s]`` of its ``S**n`` equally likely outcomes, where ``c`` holds the
    coefficients of ``(d_0 + d_1 x + ... + d_{L-1} x^{L-1})**n`` (``d``
    convolved with itself ``n`` times). The sum is itself a die with ``S**n``
    faces and labels ``0 .. n(L-1)``, so ``wins_matrix(sum_of_rolls(dice, rolls=n))``
    is the wins matrix of the game in which each player rolls ``n`` times and adds.

    Parameters
    ----------
    dice : array_like of int, shape (N, L)
        One die per row, as label counts (e.g. :func:`unique_dice`).
    rolls : int
        Rolls of each die, ``rolls >= 1``; ``S**rolls`` must stay below ``2**31``
        so that wins matrices of the sums fit in ``int64``.

    Returns
    -------
    numpy.ndarray
        ``int64`` array of shape ``(N, rolls * (L - 1) + 1)``; row ``i`` sums to ``S_i**rolls``.

    Examples
    --------
    A die with faces 0 and 2, rolled twice: the sums 0, 2, 2, 4.

    >>> sum_of_rolls([[1, 0, 1]], rolls=2)
    array([[1, 0, 2, 0, 1]])
    """
    D = dice
    sides = int(D.sum(axis=1).max())
    if sides >= 2 and (rolls >= 31 or sides**rolls >= 2**31):
        raise ValueError(
            f"rolls = {rolls} gives more than 2**31 outcomes per die: the wins matrix would overflow int64"
        )
    n, L = D.shape
    width = rolls * (L - 1) + 1
    check_cost(
        "rolls",
        rolls,
        memory=3 * 8 * n * width,
        steps=(rolls - 1) * (PY_STEP * L + n * L * width / 2),
        what=f"the sums of {n} dice",
    )
    out = D
    for _ in range(rolls - 1):
        nxt = np.zeros((n, out.shape[1] + L - 1), dtype=np.int64)
        for label in range(L):  # add `label` to every sum so far, in d[label] ways
            nxt[:, label : label + out.shape[1]] += out * D[:, label : label + 1]
        out = nxt
    return out
