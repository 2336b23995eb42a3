"""What every chapter does first: settle fast mode, set the plotting style, open the claims ledger.

A chapter's parameters cell (papermill) holds ``fast = None``; the next cell calls
:func:`start_chapter`, which reads the ``DICELAB_FAST`` environment variable when
``fast`` is ``None`` (``make test`` sets it so that the notebooks run small).
"""

from __future__ import annotations

import os

from dicelab._checks import check_bool

__all__ = ["fast_mode", "start_chapter"]

_FALSE = ("", "0", "false", "no", "off")


def fast_mode(fast=None) -> bool:
    """``fast`` if given (a bool), else whether ``DICELAB_FAST`` is set to a true value.

    >>> fast_mode(True)
    True
    """
    if fast is None:
        return os.environ.get("DICELAB_FAST", "0").strip().lower() not in _FALSE
    return check_bool("fast", fast)


def start_chapter(name: str, fast=None):
    """Fast mode, plotting style and an empty ledger for chapter ``name``: ``(fast, ledger)``.

    Prints one line saying which mode runs.

    >>> fast, ledger = start_chapter("example", True)
    example: fast mode
    >>> fast, len(ledger)
    (True, 0)
    """
    from dicelab.claims import Ledger
    from dicelab.plotting import use_style

    fast = fast_mode(fast)
    use_style()
    print(f"{name}: {'fast' if fast else 'full'} mode")
    return fast, Ledger(name)
