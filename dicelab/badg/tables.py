"""The arrays the exact solver reads: every state's counts and every roll of every group, once.

Serves D. Fetterman's b.a.d.g. paper (2022), Section 3.1: the rolls of ``a`` dice of
one size are counted as multisets (6188 for 12d6 instead of ``6^12``), each with its
multinomial weight. :func:`solver_tables` builds them once per game; :func:`~dicelab.badg.solve`
keeps them in :attr:`Solution.tables <dicelab.badg.Solution.tables>`, and the policy pass
reads the same record.
"""

from __future__ import annotations

import math
from functools import cache
from typing import NamedTuple

import numpy as np

from dicelab.badg.state import Game, _capped, _float, _log2_comb, _multiset_rolls, _rolls, _shown
from dicelab.core.checks import check_cost

__all__ = ["SolverTables", "solver_tables"]


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


# A step of :func:`_kernel_steps` is a compiled comparison or multiply-add, about 1 ns: a tenth of
# :func:`~dicelab.core.checks.check_cost`'s step (measured 2.8 s for 10 d6 + 10 d8, 29 s for 8 d6 + 4 d8 + 4 d10)
KERNEL_STEP = 0.1


def _kernel_steps(game: Game) -> float:
    """Inner-loop steps of :func:`~dicelab.badg._kernels.solve_values` over every state.

    A state with big group ``b`` (the most rolls ``R_b``), ``K`` joint choices of how many to take
    from its small groups and ``n_out`` joint rolls of them costs ``R_b K (n_b + 1)`` steps for the
    big group's takes, ``R_b n_out K`` for the best take of every roll, and ``n_out K`` to tabulate
    the small groups' rolls. Summed exactly (vectorised) up to ``10^6`` states; beyond, bounded by
    ``prod_i sum_{a <= c_i} 2 (a + 1) R_i(a)``, the product form of the same sum with ``b`` any group,
    where ``sum_{a <= c} (a + 1) R(a) = C(c + s, s) + s C(c + s, s + 1)``.
    """
    pairs = list(zip(game.sizes, game.counts, strict=True))
    if game.n_states > 10**6:
        log2_sums = (
            math.log2(2 * _capped(_log2_comb(c + s, s)) + 2 * _float(s) * _capped(_log2_comb(c + s, s + 1)))
            for s, c in pairs
        )
        return _capped(sum(log2_sums))
    counts = np.array(game.counts)
    n = (np.arange(game.n_states)[:, None] // np.array(game.strides)) % (counts + 1)  # (states, G)
    R = np.ones(n.shape)
    for i, (s, c) in enumerate(pairs):
        R[:, i] = np.array([_rolls(s, a) for a in range(c + 1)])[n[:, i]]
    rows = np.arange(n.shape[0])
    big = R.argmax(axis=1)
    R_big, n_big = R[rows, big], n[rows, big]
    n_out = R.prod(axis=1) / R_big
    K = (n + 1).prod(axis=1) / (n_big + 1)
    return float(np.sum(R_big * K * (n_big + 1) + R_big * n_out * K + n_out * K * len(pairs)))


def _solver_cost(game: Game) -> tuple[float, float]:
    """Bytes and steps of solving ``game``: its tables, the kernels' work (:func:`_kernel_steps`).

    The tables hold ``sum_i C(c_i + s_i, s_i)`` rolls (every multiset of ``0..c_i`` dice of size
    ``s_i``), a row of ``max(c) + 1`` faces and prefix sums each, plus the Python tuples they are
    built from (about 30 steps a face). The largest transient arrays are the start state's joint
    rolls of its small groups, against every choice of how many to take from them.
    """
    pairs = list(zip(game.sizes, game.counts, strict=True))
    G, width = len(pairs), max(game.counts) + 1
    rows = sum(_capped(_log2_comb(c + s, s)) for s, c in pairs)
    R = [_rolls(s, c) for s, c in pairs]
    big = max(range(G), key=R.__getitem__)
    n_out = math.prod(r for i, r in enumerate(R) if i != big)
    K = math.prod(c + 1 for i, (_, c) in enumerate(pairs) if i != big)
    n_states = _float(game.n_states)
    memory = rows * (32 * width + 200) + n_states * (16 * G + 120) + n_out * K * 25 + (n_out + K) * G * 8
    steps = KERNEL_STEP * _kernel_steps(game) + rows * (width + 2) * 30
    return min(memory, 1e300), min(steps, 1e300)


def _check_solver_cost(game: Game, name: str) -> None:
    """Refuse, before building anything, a game whose solver tables or work are beyond the budget."""
    memory, steps = _solver_cost(game)
    check_cost(name, _shown(game), memory=memory, steps=steps, what="the exact solver")


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
