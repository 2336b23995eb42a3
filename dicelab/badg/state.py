"""The states of b.a.d.g.: which dice are still in play, and how many rolls each state has.

Serves D. Fetterman's b.a.d.g. paper (2022), Sections 3 and 3.1 (the 104 states of
the standard game, Figs. 8-9, and the roll counts).

A *state* is the multiset of dice still in play, given as a tuple of die sizes (order does
not matter). Dice of one size are interchangeable, so inside the package a state is the
count of dice of each distinct size, and a whole game's states are numbered in mixed
radix: :class:`Game` holds the sizes, their counts and the strides.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from dataclasses import dataclass, field

from dicelab.badg._common import _float, _log2_comb, _multiset_rolls, _rolls, _shown
from dicelab.core.checks import check_cost, check_int, check_sequence, check_str
from dicelab.core.spec import Bool, Check, Int, validated

__all__ = ["STANDARD", "DICE", "Game", "check_dice", "check_roll", "states", "count_rolls", "multiset_rolls"]

STANDARD: tuple[int, ...] = (6,) * 12 + (8, 10, 12)
"""The standard game: twelve d6, one d8, one d10 and one d12."""


def check_dice(dice, name: str = "dice") -> tuple[int, ...]:
    """``dice`` as an ascending tuple of die sizes (each at least 2), or a ``ValueError`` naming ``name``.

    Parameters
    ----------
    dice : sequence of int
        The die sizes, in any order; at least one.
    name : str
        The argument's name, for the error message.

    Returns
    -------
    tuple of int
        The sizes, ascending.

    Examples
    --------
    >>> check_dice([8, 6, 6])
    (6, 6, 8)
    """
    name = check_str("name", name)
    dice = check_sequence(name, dice, what="die sizes")
    return tuple(sorted(check_int(f"{name}: die size", s, 2) for s in dice))


DICE = Check(
    lambda name, value: check_dice(value, name),
    bad=(None, "666", 6, {6: 1}, [], [1, 6], [0], [6.0], [True, 6], [6, None], [6, "8"], [[6]]),
)
"""The declared spec (:func:`dicelab.core.spec.validated`) of a ``dice`` argument: :func:`check_dice`."""


@dataclass(frozen=True)
class Game:
    """The dice of a game grouped by size, and the numbering of its states.

    ``sizes`` are the distinct die sizes (ascending) and ``counts`` how many dice of
    each the game starts with. A state with ``n[i]`` dice of size ``sizes[i]`` has
    index ``sum(n[i] * strides[i])`` (mixed radix, ``strides[i] = prod_{j<i}
    (counts[j] + 1)``), so ``0`` is the empty state and ``n_states - 1`` the start.

    Examples
    --------
    >>> game = Game.of((6, 6, 8))
    >>> game.sizes, game.counts, game.strides, game.n_states
    ((6, 8), (2, 1), (1, 3), 6)
    >>> game.index(game.counts_in((6, 8)))
    4
    """

    sizes: tuple[int, ...]
    counts: tuple[int, ...]
    strides: tuple[int, ...] = field(init=False)
    n_states: int = field(init=False)

    def __post_init__(self):
        sizes = tuple(check_int("sizes: die size", s, 2) for s in check_sequence("sizes", self.sizes))
        counts = tuple(check_int("counts: count", c, 1) for c in check_sequence("counts", self.counts))
        if any(a >= b for a, b in itertools.pairwise(sizes)):
            raise ValueError(f"sizes must be distinct die sizes in ascending order, got {sizes!r}")
        if len(counts) != len(sizes):
            raise ValueError(f"counts must give one count per size of {sizes!r}, got {counts!r}")
        object.__setattr__(self, "sizes", sizes)
        object.__setattr__(self, "counts", counts)
        strides, n = [], 1
        for c in self.counts:
            strides.append(n)
            n *= c + 1
        object.__setattr__(self, "strides", tuple(strides))
        object.__setattr__(self, "n_states", n)

    @classmethod
    def of(cls, dice, name: str = "dice") -> Game:
        """The game played with ``dice`` (a sequence of die sizes; ``name`` for error messages).

        Examples
        --------
        >>> Game.of([8, 6, 6]).counts
        (2, 1)
        """
        tally = Counter(check_dice(dice, name))
        sizes = tuple(sorted(tally))
        return cls(sizes, tuple(tally[s] for s in sizes))

    @property
    def dice(self) -> tuple[int, ...]:
        """The start state: every die, ascending."""
        return self._dice_of(self.counts)

    def _check_counts(self, counts, name: str = "counts") -> tuple[int, ...]:
        """``counts`` as a tuple: one count per size, each at most the game's count of that size."""
        counts = check_sequence(name, counts, what="counts per size")
        if len(counts) != len(self.sizes):
            raise ValueError(f"{name} must give one count per size of {self.sizes!r}, got {counts!r}")
        return tuple(
            check_int(f"{name}: count", c, 0, top) for c, top in zip(counts, self.counts, strict=True)
        )

    def index(self, counts) -> int:
        """The index of the state with ``counts[i]`` dice of size ``sizes[i]``.

        Examples
        --------
        >>> Game.of((6, 6, 8)).index((1, 1))
        4
        """
        return self._index(self._check_counts(counts))

    def _index(self, counts) -> int:
        return sum(c * st for c, st in zip(counts, self.strides, strict=True))

    def counts_of(self, index: int) -> tuple[int, ...]:
        """The counts per size of the state with this index.

        Examples
        --------
        >>> Game.of((6, 6, 8)).counts_of(4)
        (1, 1)
        """
        return self._counts_of(check_int("index", index, 0, self.n_states - 1))

    def _counts_of(self, index: int) -> tuple[int, ...]:
        return tuple((index // st) % (c + 1) for st, c in zip(self.strides, self.counts, strict=True))

    def dice_of(self, counts) -> tuple[int, ...]:
        """The state with these counts per size, as an ascending tuple of die sizes.

        Examples
        --------
        >>> Game.of((6, 6, 8)).dice_of((1, 1))
        (6, 8)
        """
        return self._dice_of(self._check_counts(counts))

    def _dice_of(self, counts) -> tuple[int, ...]:
        return tuple(s for s, c in zip(self.sizes, counts, strict=True) for _ in range(c))

    def state_counts(self) -> list[tuple[int, ...]]:
        """The counts per size of every state, by index."""
        _check_states_cost(self, "dice")
        return [self._counts_of(i) for i in range(self.n_states)]

    def counts_in(self, state, name: str = "state") -> tuple[int, ...]:
        """The counts per size of ``state`` (a tuple of die sizes): a sub-multiset of the game's dice.

        Examples
        --------
        >>> Game.of((6, 6, 8)).counts_in([8, 6])
        (1, 1)
        """
        name = check_str("name", name)
        state = check_sequence(name, state, what="die sizes", nonempty=False)
        tally = Counter(check_int(f"{name}: die size", s, 2) for s in state)
        if not set(tally) <= set(self.sizes) or any(
            tally[s] > c for s, c in zip(self.sizes, self.counts, strict=True)
        ):
            raise ValueError(f"{name} {state!r} is not a set of dice from {self.dice!r}")
        return tuple(tally[s] for s in self.sizes)


def _check_states_cost(game: Game, name: str) -> None:
    """Refuse listing the states of a game with more of them than fit the budget (a tuple each)."""
    n_dice, n_states = sum(game.counts), _float(game.n_states)
    check_cost(
        name,
        _shown(game),
        memory=n_states * (120 + 8 * (len(game.sizes) + n_dice)),
        steps=n_states * (150 + 5 * n_dice),  # a tuple of up to n_dice entries each: 0.1 s, 101^2 states
        what=f"a list of its {n_states:.3g} states",
    )


def check_roll(game: Game, state, roll) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """``(state, roll)`` as tuples after checking that ``roll`` gives one face ``1..s`` per die of ``state``.

    Parameters
    ----------
    game : Game
        The game ``state`` belongs to.
    state : sequence of int
        The dice in play (non-empty).
    roll : sequence of int
        One face per die of ``state``, in the same order.

    Returns
    -------
    (tuple of int, tuple of int)

    Examples
    --------
    >>> check_roll(Game.of((6, 8)), [8, 6], [7, 2])
    ((8, 6), (7, 2))
    """
    if not isinstance(game, Game):
        raise ValueError(f"game must be a Game (e.g. Game.of(dice)), got {game!r}")
    game.counts_in(state)
    state = tuple(state)
    roll = check_sequence("roll", roll, what="faces", nonempty=False)
    if len(roll) != len(state) or not state:
        raise ValueError(
            f"roll {roll!r} must give one face for each of the {len(state)} dice of state {state!r}"
        )
    for s, f in zip(state, roll, strict=True):
        check_int("roll: face", f, 1)
        if f > s:
            raise ValueError(f"roll {roll!r} shows {f} on a die with {s} sides (state {state!r})")
    return state, tuple(int(f) for f in roll)


@validated(dice=DICE, example={"dice": (6, 8)})
def states(dice=STANDARD) -> list[tuple[int, ...]]:
    """Every state of the game: every sub-multiset of ``dice``, the empty one included, fewest dice first.

    Parameters
    ----------
    dice : sequence of int
        The die sizes of the game (default :data:`STANDARD`).

    Returns
    -------
    list of tuple of int
        Each state as an ascending tuple of die sizes; ``prod(count + 1)`` of them.

    Examples
    --------
    >>> states((6, 6, 8))
    [(), (8,), (6,), (6, 8), (6, 6), (6, 6, 8)]
    """
    game = Game.of(dice)
    return [game._dice_of(c) for c in sorted(game.state_counts(), key=lambda c: (sum(c), c))]


@validated(state=DICE, distinct=Bool(), example={"state": (6, 6)})
def count_rolls(state, distinct: bool = True) -> int:
    """How many rolls the dice of ``state`` have.

    Parameters
    ----------
    state : sequence of int
        The dice rolled.
    distinct : bool
        ``True`` counts multisets of faces per size (dice of one size are
        interchangeable: ``a`` dice with ``s`` sides have ``C(a + s - 1, s - 1)``
        rolls); ``False`` counts ordered rolls, ``prod(s)``.

    Returns
    -------
    int

    Examples
    --------
    >>> count_rolls((6, 6)), count_rolls((6, 6), distinct=False)
    (21, 36)
    """
    game = Game.of(state, "state")
    pairs = list(zip(game.sizes, game.counts, strict=True))
    bits = sum(c * math.log2(s) if not distinct else _log2_comb(c + s - 1, s - 1) for s, c in pairs)
    words = bits / 64 + 1  # the size of the answer, in machine words
    # reading the dice (about 0.8 microseconds a die), then powers by Karatsuba multiplication
    steps = 80 * _float(sum(game.counts)) + 3 * len(pairs) * words**1.585
    check_cost("state", _shown(game), memory=8 * words, steps=steps, what="the exact count")
    if not distinct:
        return math.prod(s**c for s, c in pairs)
    return math.prod(math.comb(c + s - 1, s - 1) for s, c in pairs)


@validated(s=Int(1), a=Int(0), example={"s": 6, "a": 2})
def multiset_rolls(s: int, a: int) -> tuple[tuple[tuple[int, ...], int], ...]:
    """The rolls of ``a`` dice with ``s`` sides as multisets, with how many ordered rolls each stands for.

    Parameters
    ----------
    s : int
        Sides of each die.
    a : int
        Number of dice (0 gives the one empty roll).

    Returns
    -------
    tuple of (faces, count)
        ``faces`` descending; ``count`` the multinomial coefficient; the counts sum to ``s^a``.

    Examples
    --------
    >>> multiset_rolls(2, 2)
    (((2, 2), 1), ((2, 1), 2), ((1, 1), 1))
    """
    rows = _rolls(s, a)  # C(a + s - 1, s - 1): symmetric in a and s - 1, so the larger one is to blame
    name, value = ("a", a) if a >= s else ("s", s)
    # faces and a count a row (measured: 464 MiB at the peak for the 2.2 million rolls of 8 d20)
    memory, steps = rows * (180 + 8 * _float(a)), rows * (_float(a) + 2) * 30
    check_cost(name, value, memory=memory, steps=steps, what=f"its {rows:.3g} multisets of faces")
    return _multiset_rolls(s, a)
