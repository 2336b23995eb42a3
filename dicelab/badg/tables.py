"""The arrays the exact solver reads: every state's counts and every roll of every group, once.

Serves D. Fetterman's b.a.d.g. paper (2022), Section 3.1: the rolls of ``a`` dice of
one size are counted as multisets (6188 for 12d6 instead of ``6^12``), each with its
multinomial weight. :func:`solver_tables` builds them once per game; :func:`~dicelab.badg.solve`
keeps them in :attr:`Solution.tables <dicelab.badg.Solution.tables>`, and the policy pass
reads the same record.
"""

from __future__ import annotations

from functools import cache
from typing import NamedTuple

import numpy as np

from dicelab.badg._common import _check_solver_cost, _multiset_rolls
from dicelab.badg.state import Game
from dicelab.core.checks import check_str

__all__ = ["SolverTables", "solver_tables", "check_solver_cost"]


class SolverTables(NamedTuple):
    """A game's states and roll tables as flat arrays (one record, read by the numba kernels).

    ``G`` is the number of distinct die sizes; a *group* is the dice of one size.

    Attributes
    ----------
    sizes : int64 array (G,)
        The distinct die sizes, ascending.
    strides : int64 array (G,)
        State index = ``sum(counts * strides)`` (see :class:`~dicelab.badg.state.Game`).
    state_counts : int64 array (n_states, G)
        ``state_counts[i]``: dice of each size in state ``i``.
    order : int64 array (n_states,)
        The state indices fewest dice first: every take leads to a state earlier in ``order``.
    offsets : int64 array (G, max count + 2)
        Rows ``offsets[g, a]:offsets[g, a+1]`` of the row tables are the rolls of ``a``
        dice of size ``sizes[g]``, one row per multiset of faces.
    prefix : float64 array (rows, max count + 1)
        ``prefix[row, k]``: the sum of the ``k`` highest faces of the roll.
    prob : float64 array (rows,)
        Probability of the roll (multinomial count over ``s^a``).
    nmax : int64 array (rows,)
        Number of faces equal to the die size (maximum faces).
    nhigh : int64 array (rows,)
        Number of faces above half the die size (the others are *low*).
    top : int64 array (rows, max count + 1)
        The faces, descending.

    Examples
    --------
    >>> t = solver_tables(Game.of((6, 6, 8)))
    >>> t.sizes.tolist(), t.order.tolist()  # states 0..5: (), (6,), (6, 6), (8,), (6, 8), (6, 6, 8)
    ([6, 8], [0, 1, 3, 2, 4, 5])
    >>> rows = slice(t.offsets[0, 2], t.offsets[0, 3])  # the 21 rolls of two d6
    >>> t.top[rows][:3, :2].tolist(), float(t.prob[rows].sum())
    ([[6, 6], [6, 5], [6, 4]], 1.0)
    """

    sizes: np.ndarray
    strides: np.ndarray
    state_counts: np.ndarray
    order: np.ndarray
    offsets: np.ndarray
    prefix: np.ndarray
    prob: np.ndarray
    nmax: np.ndarray
    nhigh: np.ndarray
    top: np.ndarray


@cache
def _multisets(s: int, a: int) -> tuple[np.ndarray, np.ndarray]:
    """The rolls of ``a`` dice with ``s`` sides: one row of faces (descending) each, and probabilities."""
    rolls = _multiset_rolls(s, a)
    faces = np.array([f for f, _ in rolls], dtype=np.int64).reshape(len(rolls), a)
    return faces, np.array([c for _, c in rolls]) / float(s) ** a


def check_solver_cost(game: Game, name: str = "dice") -> None:
    """Refuse, before any work, a game whose exact solution is beyond the machine's budget.

    The solver's tables (every multiset roll of ``0..c`` dice of each size) and its inner-loop
    steps are estimated from the dice alone; beyond the budget of
    :func:`~dicelab.core.checks.check_cost` a ``ValueError`` names ``name`` and the game.

    Parameters
    ----------
    game : Game
        The dice grouped by size.
    name : str
        The argument named in the error message.

    Examples
    --------
    >>> check_solver_cost(Game.of((6, 6, 8)))  # small: nothing to refuse
    >>> check_solver_cost(Game.of((6,) * 60))
    Traceback (most recent call last):
    ...
    ValueError: dice='60 d6' would need ... for the exact solver; ...
    """
    if not isinstance(game, Game):
        raise ValueError(f"game must be a Game (e.g. Game.of(dice)), got {game!r}")
    _check_solver_cost(game, check_str("name", name))


def solver_tables(game: Game) -> SolverTables:
    """The :class:`SolverTables` of ``game``.

    Parameters
    ----------
    game : Game
        The dice grouped by size.

    Returns
    -------
    SolverTables

    Examples
    --------
    >>> t = solver_tables(Game.of((6, 6)))
    >>> t.top[t.offsets[0, 2]:t.offsets[0, 3]].shape  # 21 rolls of two d6, faces descending
    (21, 3)
    """
    if not isinstance(game, Game):
        raise ValueError(f"game must be a Game (e.g. Game.of(dice)), got {game!r}")
    _check_solver_cost(game, "game")
    return _build_tables(game)


def _build_tables(game: Game) -> SolverTables:
    """:func:`solver_tables` without the checks."""
    G, width = len(game.sizes), max(game.counts) + 1
    offsets = np.zeros((G, width + 1), dtype=np.int64)
    blocks = []
    row = 0
    for i, (s, n) in enumerate(zip(game.sizes, game.counts, strict=True)):
        for a in range(n + 1):
            offsets[i, a] = row
            faces, prob = _multisets(s, a)
            blocks.append((faces, prob, s))
            row += faces.shape[0]
        offsets[i, n + 1 :] = row
    prefix = np.zeros((row, width), dtype=np.float64)
    top = np.zeros((row, width), dtype=np.int64)
    prob = np.zeros(row)
    nmax = np.zeros(row, dtype=np.int64)
    nhigh = np.zeros(row, dtype=np.int64)
    r0 = 0
    for faces, p, s in blocks:
        m, a = faces.shape
        prefix[r0 : r0 + m, 1 : a + 1] = np.cumsum(faces, axis=1)
        top[r0 : r0 + m, :a] = faces
        prob[r0 : r0 + m] = p
        nmax[r0 : r0 + m] = (faces == s).sum(axis=1)
        nhigh[r0 : r0 + m] = (2 * faces > s).sum(axis=1)
        r0 += m
    state_counts = np.array(game.state_counts(), dtype=np.int64).reshape(game.n_states, G)
    order = np.argsort(state_counts.sum(axis=1), kind="stable").astype(np.int64)
    return SolverTables(
        sizes=np.array(game.sizes, dtype=np.int64),
        strides=np.array(game.strides, dtype=np.int64),
        state_counts=state_counts,
        order=order,
        offsets=offsets,
        prefix=prefix,
        prob=prob,
        nmax=nmax,
        nhigh=nhigh,
        top=top,
    )
