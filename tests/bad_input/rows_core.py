"""Bad-input rows: dicelab.exact, claims, notebook, paths and plotting."""

from bad_input import BOOLS, FLOATS, HUGE, INTS, STRINGS, ARRAYS_2D, Row  # noqa: F401

from dicelab import exact, notebook
from dicelab.claims import Ledger

ROWS = [
    Row(
        exact.to_fraction,
        "x",
        [None, "abc", "1/0", 0.5, float("nan"), True, [1]],
        lambda v: exact.to_fraction(v, "x"),
    ),
    Row(notebook.fast_mode, "fast", [b for b in BOOLS if b is not None], lambda v: notebook.fast_mode(v)),
    Row(Ledger, "name", ["", "a/b", None, 3], lambda v: Ledger(v)),
    Row(Ledger.add, "tol", [-1, "x"], lambda v: Ledger("x").add("T", "w", paper=1, ours=1, tol=v)),
]

EXEMPT = {}
