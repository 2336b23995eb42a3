"""Hold-at-k policies: a table of hold values by state, checked once when it is made.

A :class:`Policy` holds ``table``, an integer array of hold values in ``1..goal``:

* ``table[own]`` (1-D): a *simple* policy, which looks at the player's own score only
  ("hold at n" is one); it serves as an opponent for two or three players;
* ``table[own, other]`` (2-D): a two-player policy (the paper's ``pi(i, j)``);
* ``table[own, other1, other2]`` (3-D): a three-player policy.

Every solver accepts a :class:`Policy` or anything :class:`Policy` accepts (an array), so a
policy is validated once, where it is made.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from dicelab.core.checks import check_cost
from dicelab.core.spec import Bool, validated
from dicelab.pig._common import GOAL_ARG, check_size
from dicelab.pig.turns import GOAL

__all__ = ["Policy", "hold_at"]


@dataclass(frozen=True, eq=False)
class Policy:
    """A table of hold values, validated at construction and read-only afterwards.

    Parameters
    ----------
    table : array_like of int
        Hold values ``1..goal``, shape ``(goal,)``, ``(goal, goal)`` or ``(goal, goal, goal)``
        (see the module docstring); ``goal`` is read from the shape.

    Indexing a policy indexes its table; ``np.asarray(policy)`` is the table.

    >>> pi = Policy([[2, 1], [1, 1]])
    >>> pi.goal, pi.simple, pi[0, 0]
    (2, False, np.int64(2))
    >>> Policy([0, 1])
    Traceback (most recent call last):
    ...
    ValueError: table is not a valid policy: hold values must be in 1..2, got 0..1
    """

    table: np.ndarray

    def __post_init__(self):
        arr = np.array(_policy_table(self.table, "table"), dtype=np.int64)  # a private copy
        arr.setflags(write=False)
        object.__setattr__(self, "table", arr)

    @property
    def goal(self) -> int:
        """The target score (the table's side)."""
        return self.table.shape[0]

    @property
    def simple(self) -> bool:
        """Whether the policy looks at the player's own score only."""
        return self.table.ndim == 1

    def __getitem__(self, index):
        return self.table[index]

    def __array__(self, dtype=None, copy=None):
        return self.table if dtype is None else self.table.astype(dtype)

    def __eq__(self, other):
        return isinstance(other, Policy) and np.array_equal(self.table, other.table)

    __hash__ = None

    def two_player(self) -> np.ndarray:
        """The policy as a writable two-player table.

        Returns
        -------
        numpy.ndarray
            ``[own, other]``, shape ``(goal, goal)``: a simple policy repeated over ``other``.

        >>> hold_at(2, goal=3).two_player()
        array([[2, 2, 2],
               [2, 2, 2],
               [1, 1, 1]])
        """
        if self.table.ndim == 3:
            raise ValueError("a three-player policy has no two-player table")
        if self.simple:
            return np.repeat(self.table[:, None], self.goal, axis=1)
        return self.table.copy()


@validated(n=GOAL_ARG, goal=GOAL_ARG, cap=Bool(), example={"n": 3, "goal": 10})
def hold_at(n: int, goal: int = GOAL, *, cap: bool = True) -> Policy:
    """The "hold at n" policy: roll until the turn total is at least ``n``.

    Parameters
    ----------
    n : int
        The hold value, ``n >= 1`` (at most ``goal`` without ``cap``).
    goal : int
        The target score.
    cap : bool
        The paper's rule: a player who needs fewer than ``n`` points holds at ``goal - own``
        instead. Without it the player holds at ``n`` regardless.

    Returns
    -------
    Policy
        A simple policy (hold values by own score), usable against two or three players.

    >>> hold_at(3, goal=5).table
    array([3, 3, 3, 2, 1])
    """
    check_cost("goal", goal, memory=24.0 * goal, what="a hold-at-n policy")
    if not cap and n > goal:
        raise ValueError(f"n must be at most goal ({goal}) without capping, got {n}")
    own = np.arange(goal)
    return Policy(np.minimum(n, goal - own) if cap else np.full(goal, n))


_SHAPES = "(goal,), (goal, goal) or (goal, goal, goal)"


def _policy_table(table, name: str) -> np.ndarray:
    """``table`` as an integer array of hold values in ``1..goal`` of a shape in :data:`_SHAPES`,
    or a ValueError naming ``name``."""
    if isinstance(table, Policy):
        return table.table
    if table is None or isinstance(table, str | bytes | dict):
        raise ValueError(
            f"{name} must be a policy: an array of hold values of shape {_SHAPES}, got {table!r}"
        )
    try:
        arr = np.asarray(table)
    except ValueError:  # ragged nested lists
        raise ValueError(f"{name} must be a policy: an array of hold values of shape {_SHAPES}") from None
    if arr.ndim not in (1, 2, 3) or arr.shape[0] == 0 or len(set(arr.shape)) != 1:
        raise ValueError(f"{name} must be a policy table of shape {_SHAPES}, got shape {arr.shape}")
    if arr.dtype.kind not in "iu":
        raise ValueError(f"{name} must hold integer hold values, got dtype {arr.dtype}")
    goal = arr.shape[0]
    if arr.min() < 1 or arr.max() > goal:
        raise ValueError(
            f"{name} is not a valid policy: hold values must be in 1..{goal}, got {arr.min()}..{arr.max()}"
        )
    return arr


def _as_policy(policy, name: str) -> Policy:
    """``policy`` as a :class:`Policy`, validating an array once; errors name the argument."""
    return policy if isinstance(policy, Policy) else Policy(_policy_table(policy, name))


def resolve_policies(
    goal, policies: dict, *, simple: bool = False, cost=None, what: str = "", sides: int = 6
) -> tuple:
    """The common ``goal`` and the validated policies ``{name: policy}``, as ``(goal, *policies)``:
    how every solver that takes policies reads them (its errors name the solver's arguments).

    ``goal=None`` takes the goal of the first policy; a given ``goal`` is an int ``>= 1``
    (declared by the solver). With ``simple`` every policy must be
    simple (an opponent of three players); otherwise simple or two-player. ``cost(goal)``
    gives the solver's own ``(memory, steps)``, checked against the budget (``what``, with the
    hold table of a die of ``sides`` faces) before any work.
    """
    checked = {name: _as_policy(p, name) for name, p in policies.items()}
    if goal is None:
        first = next(iter(checked))
        goal, blame = checked[first].goal, f"{first}'s goal"
    else:
        blame = "goal"
    if cost is not None:
        memory, steps = cost(goal)
        check_size(blame, goal, goal, memory=memory, steps=steps, what=what, sides=sides)
    for name, p in checked.items():
        if simple and not p.simple:
            raise ValueError(
                f"{name} must be a simple policy (hold values by own score), shape ({goal},); "
                f"got shape {p.table.shape}"
            )
        allowed = [(goal,)] if simple else [(goal, goal), (goal,)]
        if p.table.shape not in allowed:
            shapes = " or ".join(str(s) for s in allowed)
            raise ValueError(f"{name} must have shape {shapes} for goal {goal}, got {p.table.shape}")
    return (goal, *checked.values())
