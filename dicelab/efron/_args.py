"""Argument checks and cost estimates shared by the efron modules.

The generic checks live in :mod:`dicelab.core.checks`; these add what the dice need:
integer arrays that refuse floats and booleans, 0/1 step masks, the number of
dice ``N_{L,S}`` estimated without forming it, and the cost of listing them.
Costs are in the units of :func:`dicelab.core.checks.check_cost`: bytes, and
compiled inner-loop steps (about 10^8 a second).
"""

from __future__ import annotations

import math

import numpy as np

from dicelab.core.checks import check_array

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
        raise ValueError(f"{form} (it{str(err)[len(name):]})") from None
    if n is not None and mask.shape != (n, n):
        raise ValueError(f"{form} of the shape of the weights, ({n}, {n}); got {mask.shape}")
    return mask


def log2_num_dice(L: int, S: int) -> float:
    """``log2 N_{L,S} = log2 C(L+S-1, S)``, from ``lgamma`` (no big integers formed).

    >>> round(2 ** log2_num_dice(7, 6))
    924
    """
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


def dice_listing_cost(L: int, S: int) -> tuple[float, float, float]:
    """``(N, bytes, steps)`` of listing the ``N_{L,S}`` dice as label counts (:func:`unique_dice`).

    Each die is a tuple of ``L - 1`` cumulative counts, then three ``(N, L)``
    ``int64`` arrays; building the tuples is a Python-level step per die.

    >>> N, memory, steps = dice_listing_cost(7, 6)
    >>> round(N), memory < 2**20
    (924, True)
    """
    N = capped(log2_num_dice(L, S))
    memory = N * (56 + 8 * (L - 1) + 3 * 8 * L)
    steps = N * (PY_STEP + 4 * L)
    return N, memory, steps
