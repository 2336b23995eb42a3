"""One house style for every figure, and ``save_figure`` to ``figures/NAME.png``.

Call :func:`use_style` once at the top of a notebook. Figures are saved
relative to the repository root (see :mod:`dicelab.paths`), with no
time-stamp or software version in the file, so that re-running a notebook
reproduces the same bytes. The backend is never forced here: inline in
notebooks, the default elsewhere.
"""

from __future__ import annotations

import re
from pathlib import Path

import matplotlib as mpl

from dicelab.paths import output_dir

__all__ = ["STYLE", "PALETTE", "use_style", "save_figure"]

#: Colour-blind-safe palette (Okabe and Ito), in the order lines are drawn.
PALETTE = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#F0E442", "#000000"]

STYLE = {
    "figure.figsize": (6.4, 4.0),
    "figure.dpi": 100,
    "savefig.dpi": 150,
    "savefig.bbox": "tight",
    "font.size": 10,
    "axes.titlesize": 11,
    "axes.labelsize": 10,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "axes.prop_cycle": mpl.cycler(color=PALETTE),
    "image.cmap": "viridis",
    "legend.frameon": False,
}

_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")


def use_style() -> None:
    """Apply the house style to matplotlib's global settings."""
    mpl.rcParams.update(STYLE)


def save_figure(fig, name: str) -> Path:
    """Save ``fig`` as ``figures/<name>.png`` and return the path.

    ``name`` is a plain file stem (letters, digits, ``_``, ``-``, ``.``), e.g.
    ``"01_efron_dice_graph"``; the notebook number as prefix keeps figures sorted.
    """
    if not isinstance(name, str) or not _NAME.match(name) or name.endswith(".png"):
        raise ValueError(f"name must be a plain file stem such as '01_wins_heatmap', got {name!r}")
    path = output_dir("figures") / f"{name}.png"
    fig.savefig(path, metadata={"Software": None})
    return path
