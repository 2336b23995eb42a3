"""The internals the efron modules share (not part of the public API).

- argument checks the dice need beyond :mod:`dicelab.core.checks`: integer arrays that
  refuse floats and booleans (:func:`int_array`), 0/1 step masks (:func:`step_mask`), dice
  as a matrix of label counts (:func:`count_matrix`), a weighted digraph (:func:`digraph`),
  the win thresholds of a game (:func:`thresholds`), and the declared specs built on them
  (:data:`SIDES`, :data:`LABELS`, :data:`DICE`, :data:`COUNTS` ...);
- dice as faces: :func:`face_array`, :func:`face_tuples`;
- the cost constants and estimates: the number of dice ``N_{L,S}`` estimated without
  forming it (:func:`log2_num_dice`), the cost of listing them (:func:`dice_listing_cost`).
  Costs are in the units of :func:`dicelab.core.checks.check_cost`: bytes, and compiled
  inner-loop steps (about 10^8 a second).

Notation: ``sides`` (the paper's ``S``), ``labels`` (``L``), ``dice`` (``M``, the dice of a set).
"""

from __future__ import annotations

import math

import numpy as np

from dicelab.core.checks import check_array, check_int
from dicelab.core.spec import Check, Int

PY_STEP = 10  # one step of a Python-level loop, counted in compiled inner-loop steps
BLAS_RATE = 150  # multiply-adds of a float matrix product per compiled inner-loop step (all threads' CPU)
VECTOR_STEP = 0.1  # one element of a vectorised numpy expression, counted in compiled inner-loop steps
SIMD_STEP = 0.05  # one step of a compiled loop the compiler vectorises (contiguous int64 max-plus)
CAP_LOG2 = 300  # counts beyond 2**300 are taken as 2**300, so that their cubes stay finite floats


def int_array(name: str, value, *, ndim: int, what: str = "integers", square: bool = False) -> np.ndarray:
    """``value`` as a non-empty ``int64`` array of ``ndim`` dimensions; floats, booleans, text refused.

    >>> int_array("W", [[1, 2], [3, 4]], ndim=2, square=True).dtype
    dtype('int64')
    >>> int_array("W", [[1.5, 2]], ndim=2)
    Traceback (most recent call last):
    ...
    ValueError: W must be integers, got dtype float64
    """
    shape = f"{name} must be a non-empty {ndim}-D array of {what}"
    if value is None or isinstance(value, str | bytes | dict):
        raise ValueError(f"{shape}, got {value!r}")
    try:
        arr = np.asarray(value)
    except (ValueError, TypeError):  # ragged nested lists
        raise ValueError(f"{shape}, got a ragged {type(value).__name__}") from None
    if arr.ndim != ndim or arr.size == 0:
        raise ValueError(f"{shape}, got shape {arr.shape}")
    if not np.issubdtype(arr.dtype, np.integer):
        raise ValueError(f"{name} must be {what}, got dtype {arr.dtype}")
    if arr.dtype == np.uint64 and int(arr.max()) >= 2**63:
        raise ValueError(f"{name} must hold values below 2**63")
    if square and arr.shape[0] != arr.shape[1]:
        raise ValueError(f"{name} must be a square matrix, got shape {arr.shape}")
    return arr.astype(np.int64, copy=False)


def step_mask(name: str, value, n: int | None = None) -> np.ndarray:
    """``value`` as a square boolean matrix (booleans or 0/1 entries), of shape ``(n, n)`` if given.

    >>> step_mask("allowed", [[0, 1], [1, 0]]).tolist()
    [[False, True], [True, False]]
    >>> step_mask("allowed", [[0, 2], [1, 0]])
    Traceback (most recent call last):
    ...
    ValueError: allowed must be a square 0/1 (or boolean) matrix (it must hold only 0 and 1)
    """
    form = f"{name} must be a square 0/1 (or boolean) matrix"
    try:
        mask = check_array(name, value, ndim=2, kind="bool", square=True)
    except ValueError as err:
        raise ValueError(f"{form} (it{str(err)[len(name) :]})") from None
    if n is not None and mask.shape != (n, n):
        raise ValueError(f"{form} of the shape of the weights, ({n}, {n}); got {mask.shape}")
    return mask


def log2_num_dice(sides: int, labels: int) -> float:
    """``log2 N_{L,S} = log2 C(L+S-1, S)``, from ``lgamma`` (no big integers formed).

    >>> round(2 ** log2_num_dice(6, 7))
    924
    """
    S, L = sides, labels
    return (math.lgamma(L + S) - math.lgamma(L) - math.lgamma(S + 1)) / math.log(2)


def capped(log2_count: float) -> float:
    """``2 ** log2_count`` as a float, at most ``2**300``: large enough to refuse, small enough to cube.

    >>> capped(3.0), capped(1e6) == 2.0**300
    (8.0, True)
    """
    return 2.0 ** min(log2_count, CAP_LOG2)


def count_text(log2_count: float) -> str:
    """A count for a message: exact-looking when small, ``about 2^k`` when huge.

    >>> count_text(10.0), count_text(230.4)
    ('1024', 'about 2^230')
    """
    return f"{2**log2_count:.4g}" if log2_count < 40 else f"about 2^{log2_count:.0f}"


def dice_listing_cost(sides: int, labels: int) -> tuple[float, float, float]:
    """``(N, bytes, steps)`` of listing the ``N_{L,S}`` dice as label counts (:func:`unique_dice`).

    Each die is a tuple of ``L - 1`` cumulative counts, then three ``(N, L)``
    ``int64`` arrays; building the tuples is a Python-level step per die.

    >>> N, memory, steps = dice_listing_cost(6, 7)
    >>> round(N), memory < 2**20
    (924, True)
    """
    L = labels
    N = capped(log2_num_dice(sides, labels))
    memory = N * (56 + 8 * (L - 1) + 3 * 8 * L)
    steps = N * (PY_STEP + 4 * L)
    return N, memory, steps


def count_matrix(name: str, value) -> np.ndarray:
    """Dice as label counts, one per row, checked: a non-empty ``(N, L)`` ``int64`` array, no
    negatives, fewer than ``2**31`` faces per die (so that ``S_i * S_j`` and the wins fit ``int64``).

    >>> count_matrix("dice", [[1, 0, 1]]).tolist()
    [[1, 0, 1]]
    >>> count_matrix("dice", [[1, -1]])
    Traceback (most recent call last):
    ...
    ValueError: dice must hold non-negative label counts
    """
    D = int_array(name, value, ndim=2, what="integer label counts (one die per row)")
    if (D < 0).any():
        raise ValueError(f"{name} must hold non-negative label counts")
    if D.sum(axis=1, dtype=float).max() >= 2**31:
        raise ValueError(f"{name} must have fewer than 2**31 faces per die, so that the wins fit int64")
    return D.astype(np.int64)


def face_array(dice: np.ndarray) -> np.ndarray:
    """The ascending faces, ``(N, S)``, of the rows of an ``(N, L)`` count array whose rows share one sum.

    >>> face_array(np.array([[2, 0, 1], [0, 3, 0]])).tolist()
    [[0, 0, 2], [1, 1, 1]]
    """
    n, L = dice.shape
    labels = np.repeat(np.tile(np.arange(L), n), dice.ravel())
    return labels.reshape(n, labels.size // n)


def face_tuples(dice: np.ndarray) -> list[tuple[int, ...]]:
    """The ascending face tuples of the rows of an ``(N, L)`` count array whose rows share one sum."""
    return [tuple(row) for row in face_array(dice).tolist()]


def digraph(weights, allowed) -> tuple[np.ndarray, np.ndarray]:
    """A weighted digraph, checked: square ``int64`` weights and a boolean step mask of their shape,
    without loops (both may come already checked by :data:`WEIGHTS` and :data:`MASK`)."""
    weights = square_ints("weights", weights)
    allowed = step_mask("allowed", allowed, weights.shape[0]).copy()
    np.fill_diagonal(allowed, False)
    return weights, allowed


def strict_threshold(sides: int) -> int:
    """The least ``w`` with ``w > S**2 / 2`` (:func:`dicelab.efron.strict_min_wins`, unchecked)."""
    return sides * sides // 2 + 1


def thresholds(sides: int, min_wins: int | None, wins: int | None) -> tuple[int, int | None]:
    """The win thresholds of a game of ``sides``-sided dice, checked against ``sides``: ``min_wins``
    in ``ceil(S^2/2)..S^2`` (default: strictly more than half), ``wins``, if given, in
    ``min_wins..S^2``.

    >>> thresholds(6, None, 24)
    (19, 24)
    >>> thresholds(6, 10, None)
    Traceback (most recent call last):
    ...
    ValueError: min_wins must be in 18..36, got 10
    """
    S2 = sides * sides
    half_up = (S2 + 1) // 2  # ceil(S^2 / 2): "at least half"
    min_wins = check_int("min_wins", strict_threshold(sides) if min_wins is None else min_wins, half_up, S2)
    if wins is not None:
        wins = check_int("wins", wins, min_wins, S2)
    return min_wins, wins


# The declared specs of the efron functions' arguments (dicelab.core.spec.validated).
SIDES = Int(1)  # S, the sides of every die
LABELS = Int(1)  # L, the labels 0..L-1 on the faces
DICE = Int(2)  # M, the dice of a set (the length of a cycle)
WINS = Int(0, optional=True)  # a number of the S^2 face pairs won; its range depends on S, checked after
_BAD_MATRICES = (None, [], [[]], [[1, 2], [3]], [["a", "b"]], "12", [1, 2], [[math.nan, 1]])
_BAD_INT_MATRICES = _BAD_MATRICES + ([[1.5, 2], [3, 4]], [[1.0, 2.0], [3.0, 4.0]], [[True, False]])
COUNTS = Check(count_matrix, bad=_BAD_INT_MATRICES + (np.ones((2, 2, 2)), [[1, -1]], [[2**40, 2**40]]))


def square_ints(name: str, value) -> np.ndarray:
    """A square ``int64`` matrix (the weights of a digraph)."""
    return int_array(name, value, ndim=2, square=True)


WEIGHTS = Check(square_ints, bad=_BAD_INT_MATRICES + (np.ones((2, 2, 2)), np.ones((2, 3), int)))
# a square 0/1 step mask: the shared bad matrices, another value, a fraction, a rectangle, text
MASK = Check(
    step_mask,
    bad=_BAD_MATRICES
    + ([[0, 2], [1, 0]], [[0.5, 1], [1, 0]], np.ones((2, 3), bool), [["1", "0"], ["0", "1"]]),
)
