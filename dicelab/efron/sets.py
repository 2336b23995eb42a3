"""Sets of dice as arrays: the optimal sets of a search, without one Python tuple per die.

A search over all ``N_{L,S}`` dice can find millions of optimal sets (two million at
``S = 6, L = 9, M = 4``). :class:`DiceSets` keeps them as two integer arrays, the face
table of every die and the ``(K, M)`` dice indices of every set, and reads as the list of
face-tuple sets it stands for: its length, indexing, iteration, comparison with a list
and its printed form are the list's.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

__all__ = ["DiceSets"]

SHOWN = 6  # sets printed in full; longer results print their first and last few


class DiceSets(Sequence):
    """Sets of ``M`` dice, each a cycle of dice indices into a table of faces.

    Reads as a list of sets, each a tuple of ``M`` face tuples: ``sets[k]`` is
    ``tuple(faces[d] for d in cycles[k])``, ``len``, iteration and ``==`` with a list
    of such tuples behave as on that list, slices are :class:`DiceSets` again.

    Attributes
    ----------
    faces : numpy.ndarray
        ``(N, S)`` face labels of every die, ascending in each row.
    cycles : numpy.ndarray
        ``(K, M)`` dice indices of the sets, one row per set.

    Examples
    --------
    >>> import numpy as np
    >>> sets = DiceSets(np.array([[2, 2, 2], [1, 1, 4], [0, 3, 3]]), np.array([[0, 1, 2]]))
    >>> sets
    [((2, 2, 2), (1, 1, 4), (0, 3, 3))]
    >>> len(sets), sets[0][1], sets == [((2, 2, 2), (1, 1, 4), (0, 3, 3))]
    (1, (1, 1, 4), True)
    >>> sets.array.shape
    (1, 3, 3)
    """

    __slots__ = ("faces", "cycles")
    __hash__ = None  # compares by content, like the list it stands for

    def __init__(self, faces: np.ndarray, cycles: np.ndarray) -> None:
        self.faces = np.asarray(faces)
        self.cycles = np.asarray(cycles)

    @property
    def array(self) -> np.ndarray:
        """``(K, M, S)`` faces of every die of every set."""
        return self.faces[self.cycles]

    def __len__(self) -> int:
        return int(self.cycles.shape[0])

    def _set(self, row) -> tuple[tuple[int, ...], ...]:
        return tuple(tuple(die) for die in self.faces[row].tolist())

    def __getitem__(self, index):
        if isinstance(index, slice):
            return DiceSets(self.faces, self.cycles[index])
        return self._set(self.cycles[index])

    def __iter__(self):
        chunk = 4096  # as tuples a chunk at a time: the whole list is never held
        for start in range(0, len(self), chunk):
            for sets in self.faces[self.cycles[start : start + chunk]].tolist():
                yield tuple(tuple(die) for die in sets)

    def to_list(self) -> list[tuple[tuple[int, ...], ...]]:
        """The sets as a list of tuples of face tuples."""
        return list(self)

    def __eq__(self, other) -> bool:
        if isinstance(other, DiceSets):
            return len(self) == len(other) and bool(np.array_equal(self.array, other.array))
        if isinstance(other, list | tuple):
            return len(self) == len(other) and all(a == b for a, b in zip(self, other, strict=True))
        return NotImplemented

    def __add__(self, other):
        return self.to_list() + list(other)

    def __radd__(self, other):
        return list(other) + self.to_list()

    def __repr__(self) -> str:
        if len(self) <= SHOWN:
            return repr(self.to_list())
        head = ", ".join(repr(s) for s in self[: SHOWN // 2])
        tail = ", ".join(repr(s) for s in self[len(self) - SHOWN // 2 :])
        return f"[{head}, ..., {tail}] ({len(self):,} sets)"
