"""Monte Carlo play of b.a.d.g. with the parallel-games strategy, vectorised over games.

Serves D. Fetterman's b.a.d.g. paper (2022), Section 5 ("we use computers to
validate"). The exact evaluation (:func:`~dicelab.badg.evaluate`) is the reference; a
simulation agrees with it within its standard error.
"""

from __future__ import annotations

import numpy as np

from dicelab.badg._common import _check_optimal_cost, _float
from dicelab.badg.heuristic import HeuristicPolicy
from dicelab.badg.state import DICE, STANDARD
from dicelab.core.checks import check_cost
from dicelab.core.sample import Sample
from dicelab.core.spec import Bool, Int, validated

__all__ = ["simulate"]


def _chunks(n: int, chunk: int, progress: bool):
    """Chunk sizes summing to ``n``, with a tqdm bar over the games when ``progress``."""
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=n, unit="game", desc="b.a.d.g.")
    done = 0
    try:
        while done < n:
            m = min(chunk, n - done)
            yield m
            done += m
            if bar is not None:
                bar.update(m)
    finally:
        if bar is not None:
            bar.close()


def _check_simulation_cost(dice: tuple[int, ...], n: int, chunk: int) -> None:
    """Refuse a simulation beyond the budget, before any work.

    The tables hold a cutoff and ``max(s) + 1`` fallback scores per die and number of dice left
    (a fraction each, about 300 steps, to fill); a chunk of ``m`` games holds about 40 bytes per
    game and die; a game of ``n`` dice costs about ``45 n + 0.6 n^2`` steps: a roll of every die
    left, with the dice left falling roll by roll (measured: 10^5 standard games in 0.7 s of CPU,
    10^5 games of 60 d6 in 4.4 s). The result keeps two 8-byte numbers a game.
    """
    n_dice, s_max = len(dice), max(dice)
    table = _float(n_dice * (n_dice + 1) * (s_max + 2)) * 8.0
    shown = dice if n_dice <= 30 else f"{n_dice} dice"
    check_cost(
        "dice",
        shown,
        memory=table,
        steps=300.0 * _float((n_dice + 1) * sum(dice)),
        what="the strategy tables",
    )
    _check_optimal_cost("dice", shown, s_max, n_dice)
    m = _float(min(chunk, n))
    check_cost("chunk", chunk, memory=table + 40.0 * m * n_dice, what="a chunk of games")
    per_game = 45.0 * n_dice + 0.6 * n_dice**2
    check_cost("n", n, memory=16.0 * _float(n), steps=per_game * _float(n), what=f"{n_dice} dice a game")


@validated(
    n=Int(1),
    seed=Int(0),
    dice=DICE,
    chunk=Int(1),
    progress=Bool(),
    example={"policy": HeuristicPolicy(), "n": 10, "seed": 1, "dice": (6, 6)},
)
def simulate(
    policy, n: int, *, seed: int, dice=STANDARD, chunk: int = 200_000, progress: bool = False
) -> Sample:
    """Play ``n`` games of b.a.d.g. with a :class:`~dicelab.badg.HeuristicPolicy`.

    Games are played in chunks, all games of a chunk in lock-step (one roll of every
    game at a time, at most ``len(dice)`` rolls).

    Parameters
    ----------
    policy : HeuristicPolicy
        The strategy played.
    n : int
        Number of games, at least 1.
    seed : int
        Seed of the random generator (``numpy.random.default_rng``); the result is
        reproducible for a given ``seed`` and ``chunk``.
    dice : sequence of int
        The die sizes (default :data:`~dicelab.badg.STANDARD`).
    chunk : int
        Games played at once (memory against speed).
    progress : bool
        Show a tqdm progress bar over the games.

    Returns
    -------
    Sample
        One entry per game in each column: ``"points"``, the b.a.d.g. points it scored, and
        ``"misfortunes"``, its rolls where no die cleared its cutoff. ``sample.mean("points")``
        and ``sample.stderr("points")`` (sample standard deviation, ``ddof=1``, over ``sqrt(n)``),
        ``sample.share("points", 0)`` the fraction of 0-point games, ``sample.counts("points")``
        the games of each score.

    Examples
    --------
    >>> from dicelab.badg import heuristic_policy
    >>> games = simulate(heuristic_policy(), 2_000, seed=1, dice=(6, 8))
    >>> int(games.counts("points").sum()), int(games["points"].max()) <= 12  # 0..12 points a game
    (2000, True)
    >>> abs(games.mean("points") - 109 / 24) < 4 * games.stderr("points")  # the exact mean is 109/24
    True
    """
    if not isinstance(policy, HeuristicPolicy):
        raise TypeError(f"policy must be a HeuristicPolicy (simulate plays one), got {policy!r}")
    _check_simulation_cost(dice, n, chunk)
    dice = np.array(dice, dtype=np.int64)
    n_dice, s_max = dice.size, int(dice.max())
    # cutoff[d, N]: highest face of die d rolled again with N dice left; fallback score likewise
    cutoff = np.zeros((n_dice, n_dice + 1), dtype=np.int64)
    score = np.zeros((n_dice, n_dice + 1, s_max + 1))
    for d, s in enumerate(dice.tolist()):
        for N in range(1, n_dice + 1):
            cutoff[d, N] = policy._reject_up_to(s, N)
            for f in range(1, s + 1):
                score[d, N, f] = float(policy._score(s, f, N)) if N > 1 else 0.0
    # ties in the fallback go to the die with more sides (dice are sorted ascending: later is larger)
    tie_break = np.arange(n_dice) * 1e-9
    rng = np.random.default_rng(seed)
    all_points, all_unlucky = np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64)
    done = 0
    for m in _chunks(n, chunk, progress):
        alive = np.ones((m, n_dice), dtype=bool)
        points = np.zeros(m, dtype=np.int64)
        unlucky = np.zeros(m, dtype=np.int64)
        rows = np.arange(m)
        for _ in range(n_dice):
            left = alive.sum(axis=1)
            if not left.any():
                break
            faces = rng.integers(1, dice + 1, size=(m, n_dice))
            take = alive & (faces > cutoff[np.arange(n_dice), left[:, None]])
            stuck = (left > 0) & ~take.any(axis=1)
            if stuck.any():
                idx = rows[stuck]
                sc = score[np.arange(n_dice), left[idx, None], faces[idx]] - tie_break
                sc[~alive[idx]] = np.inf
                take[idx, sc.argmin(axis=1)] = True
                unlucky[stuck] += 1
            points += ((dice - faces) * take).sum(axis=1)
            alive &= ~take
        all_points[done : done + m], all_unlucky[done : done + m] = points, unlucky
        done += m
    return Sample(n=n, seed=seed, columns={"points": all_points, "misfortunes": all_unlucky})
