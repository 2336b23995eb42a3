"""What beats what: win probabilities, the wins matrix ``W = D E^T`` and the "beats" threshold.

Serves the section "What beats what?" of ``efron-dice.txt``.

For dice ``A`` and ``B`` with label counts ``alpha`` and ``beta``, the number of
the ``S**2`` equally likely face pairs in which ``A`` rolls higher is

    ``w_AB = sum_b beta_b sum_{a>b} alpha_a``.

With ``D`` the ``(N, L)`` matrix of label counts and ``E[j, a] = sum_{b<a} D[j, b]``
(faces of die ``j`` strictly below label ``a``), all of them at once are the
single product ``W = D E^T``. Die ``i`` *beats* die ``j`` when it wins more than
half of the pairs, ``w_ij > S**2 / 2``.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from dicelab._checks import check_int, check_sequence

__all__ = ["wins_matrix", "p_beats", "strict_min_wins", "allowed_edges"]


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
    D = np.asarray(dice)
    if D.ndim != 2 or D.shape[0] == 0 or D.shape[1] == 0:
        raise ValueError(f"dice must be a non-empty 2-D array (N, L) of label counts, got shape {D.shape}")
    if not np.issubdtype(D.dtype, np.integer):
        raise ValueError(f"dice must hold integer label counts, got dtype {D.dtype}")
    if (D < 0).any():
        raise ValueError("dice must hold non-negative label counts")
    D = D.astype(np.int64)
    below = np.cumsum(D, axis=1) - D  # E: faces strictly below each label
    return D @ below.T


def _faces(name: str, faces) -> tuple[int, ...]:
    """A die given by its faces: a non-empty sequence of integer labels (any sign)."""
    faces = check_sequence(name, faces, what="integer faces")
    return tuple(check_int(f"{name}[{k}]", f, -math.inf) for k, f in enumerate(faces))


def p_beats(a, b) -> Fraction:
    """Exact probability that a die with faces ``a`` rolls strictly higher than one with faces ``b``.

    Every pair of faces is equally likely; the dice may have different numbers of sides.

    Parameters
    ----------
    a, b : sequence of int
        The faces of the two dice.

    Returns
    -------
    fractions.Fraction
        ``#{(x, y) : x > y} / (len(a) * len(b))``.

    Examples
    --------
    >>> p_beats((0, 0, 4, 4, 4, 4), (3, 3, 3, 3, 3, 3))
    Fraction(2, 3)
    """
    a = _faces("a", a)
    b = _faces("b", b)
    wins = sum(1 for x in a for y in b if x > y)
    return Fraction(wins, len(a) * len(b))


def strict_min_wins(S: int) -> int:
    """The least ``w`` with ``w > S**2 / 2``: "beats" means winning *more* than half of the face pairs.

    Parameters
    ----------
    S : int
        Number of sides, ``S >= 1``.

    Returns
    -------
    int
        ``S**2 // 2 + 1``.

    Examples
    --------
    >>> strict_min_wins(6)
    19
    """
    S = check_int("S", S, 1)
    return S * S // 2 + 1


def allowed_edges(W, min_wins: int, wins: int | None = None) -> np.ndarray:
    """Boolean mask of the pairs ``i -> j`` (``i != j``) that may follow each other in a cycle.

    Parameters
    ----------
    W : array_like of int, shape (N, N)
        A wins matrix.
    min_wins : int
        With ``wins=None``, every pair with ``w_ij >= min_wins`` is allowed.
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
    >>> allowed_edges(W, strict_min_wins(6))
    array([[False,  True],
           [False, False]])
    """
    W = np.asarray(W)
    mask = (W >= min_wins) if wins is None else (W == wins)
    np.fill_diagonal(mask, False)
    return mask
