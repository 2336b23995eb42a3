"""What every solver's result offers, whatever the game: the shared protocol of ``solve_*``.

A decision problem (a turn of Pig, a game of b.a.d.g., a turn of Cosmic Wimpout, a race to a
target) is solved by a function named ``solve_*``. Its result answers the same questions in the
same words:

``start``              the state play begins in;
``value``              the value at ``start`` (expected points, or the chance of winning);
``value_at(state)``    the value at any state;
``values``             the whole value table (an array or a mapping, indexed by state);
``best_action(state)`` what optimal play does in ``state``;
``policy``             optimal play as a whole (a table or a mapping, the same actions).

``tests/test_protocol.py`` checks every public ``solve_*`` of every game against it:
``value_at(start) == value`` and the other members present.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable


@runtime_checkable
class Solved(Protocol):
    """The members every ``solve_*`` result has (see the module's docstring)."""

    @property
    def start(self) -> Any: ...

    @property
    def value(self) -> Any: ...

    @property
    def values(self) -> Any: ...

    @property
    def policy(self) -> Any: ...

    def value_at(self, state) -> Any: ...

    def best_action(self, state) -> Any: ...
