"""One house style for every figure, ``save_figure`` to ``figures/NAME.png`` and ``show_figure``.

Call :func:`use_style` once at the top of a notebook. Figures are saved
relative to the repository root (see :mod:`dicelab.course.paths`), with no
time-stamp or software version in the file, so that re-running a notebook
reproduces the same bytes. The backend is never forced here: inline in
notebooks, the default elsewhere.
"""

from __future__ import annotations

import re
import sys
import weakref
from pathlib import Path

import matplotlib as mpl
from matplotlib.axes import Axes
from matplotlib.colors import is_color_like
from matplotlib.figure import Figure
from matplotlib.patches import Circle, FancyArrowPatch, FancyBboxPatch

from dicelab.core.checks import check_float, check_sequence
from dicelab.course.paths import atomic_write, output_dir

__all__ = ["STYLE", "PALETTE", "use_style", "save_figure", "describe", "draw_die_face", "draw_digraph"]

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
MAX_NAME = 200  # file names hold 255 bytes; the temporary file adds a prefix and 8 random characters


def use_style() -> None:
    """Apply the house style to matplotlib's global settings.

    >>> use_style()
    >>> mpl.rcParams["axes.spines.top"]
    False
    """
    mpl.rcParams.update(STYLE)


def save_figure(fig, name: str, *, alt: str | None = None) -> Path:
    """Save ``fig`` as ``figures/<name>.png`` and return the path.

    ``alt`` is the figure's text alternative: one or more sentences saying what the figure shows
    (what a reader who cannot see it needs), written where the figure is made. It is stored in the
    PNG's ``Description`` field and given to the figure as it is shown (:func:`describe`), so that
    the notebook's output and the course site's ``<img alt>`` carry it too.

    ``name`` is a plain file stem (letters, digits, ``_``, ``-``, ``.``), e.g.
    ``"01_efron_dice_graph"``; the notebook number as prefix keeps figures sorted.

    >>> save_figure(None, "figures/a.png")
    Traceback (most recent call last):
    ...
    ValueError: name must be a plain file stem such as '01_wins_heatmap', got 'figures/a.png'
    """
    if not isinstance(name, str) or not _NAME.match(name) or name.endswith(".png"):
        raise ValueError(f"name must be a plain file stem such as '01_wins_heatmap', got {name!r}"[:300])
    if len(name) > MAX_NAME:
        raise ValueError(f"name must be at most {MAX_NAME} characters (a file name's limit), got {len(name)}")
    if not isinstance(fig, Figure):
        raise TypeError(f"fig must be a matplotlib Figure, got {fig!r}")
    if alt is not None:
        describe(fig, alt)
    path = output_dir("figures") / f"{name}.png"
    metadata = {"Software": None} | ({"Description": _ALT[fig]} if alt is not None else {})
    return atomic_write(path, lambda tmp: fig.savefig(tmp, metadata=metadata))


def show_figure(fig, name: str, *, alt: str) -> None:
    """Save ``fig`` with its text alternative (:func:`save_figure`), show it in the notebook with the
    same ``alt`` in the PNG output's metadata, and close it, so that it is shown once. Outside a
    Jupyter kernel (no ``IPython.display`` loaded) it is saved and closed, not shown.

    >>> show_figure(None, "figures/a.png", alt="A figure that is not one.")
    Traceback (most recent call last):
    ...
    ValueError: name must be a plain file stem such as '01_wins_heatmap', got 'figures/a.png'
    """
    if not isinstance(name, str) or not _NAME.match(name) or name.endswith(".png"):
        raise ValueError(f"name must be a plain file stem such as '01_wins_heatmap', got {name!r}"[:300])
    describe(fig, alt)  # refuses a missing or file-name alt before anything is written
    save_figure(fig, name, alt=alt)
    display = getattr(sys.modules.get("IPython.display"), "display", None)  # loaded in every kernel
    if display is not None:
        display(fig, metadata={"image/png": {"alt": alt}})
    import matplotlib.pyplot as plt

    plt.close(fig)


# The text alternative of each described figure, for as long as the figure lives.
_ALT: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_MIN_ALT = 20


def describe(fig, alt: str):
    """Give ``fig`` its text alternative ``alt`` (a sentence or more saying what it shows); returns ``fig``.

    Shown in a Jupyter kernel (``plt.show()``, or the figure as a cell's last value), the PNG output
    then carries ``alt`` in its metadata, ``{"image/png": {"alt": ...}}``: the notebook keeps it,
    and the course site's build (``book/_ext/figure_alt.py``) writes it as the image's ``alt``.
    :func:`save_figure` calls it with its own ``alt``. Whitespace runs become one space.

    >>> import matplotlib.pyplot as plt
    >>> fig = describe(plt.figure(), "A blank figure, the size of the house style.")
    >>> _ALT[fig]
    'A blank figure, the size of the house style.'
    >>> plt.close(fig)
    """
    if not isinstance(fig, Figure):
        raise TypeError(f"fig must be a matplotlib Figure, got {fig!r}"[:300])
    text = " ".join(alt.split()) if isinstance(alt, str) else None
    if text is None or len(text) < _MIN_ALT or text.lower().endswith((".png", ".svg", ".jpg")):
        raise ValueError(
            f"alt must be a sentence ({_MIN_ALT} characters or more) saying what the figure shows, "
            f"not a file name, got {alt!r:.80}"
        )
    _ALT[fig] = text
    _show_alt_in_jupyter()
    return fig


def _with_alt(printer):
    """A PNG printer of IPython's display formatter that adds a described figure's alt to its metadata."""

    def print_png(fig):
        data = printer(fig)
        alt = _ALT.get(fig)
        return data if data is None or alt is None else (data, {"alt": alt})

    print_png.dicelab_alt = True
    return print_png


def _show_alt_in_jupyter() -> None:
    """In an IPython kernel, wrap the figure PNG printer (the inline backend's) with :func:`_with_alt`.

    Done at each call, since the inline backend registers its printer anew when its formats change.
    Outside IPython, or before a printer for figures is registered, nothing happens.
    """
    ipython = sys.modules.get("IPython")
    shell = ipython.get_ipython() if ipython is not None else None
    formatter = getattr(getattr(shell, "display_formatter", None), "formatters", {}).get("image/png")
    if formatter is None:
        return
    try:
        printer = formatter.lookup_by_type(Figure)
    except KeyError:
        return
    if not getattr(printer, "dicelab_alt", False):
        formatter.for_type(Figure, _with_alt(printer))


# Pip positions on a unit face, for the values 1..6 (0 is a blank face).
_PIPS = {
    0: [],
    1: [(0.5, 0.5)],
    2: [(0.25, 0.75), (0.75, 0.25)],
    3: [(0.25, 0.75), (0.5, 0.5), (0.75, 0.25)],
    4: [(0.25, 0.75), (0.75, 0.75), (0.25, 0.25), (0.75, 0.25)],
    5: [(0.25, 0.75), (0.75, 0.75), (0.5, 0.5), (0.25, 0.25), (0.75, 0.25)],
    6: [(0.25, 0.75), (0.25, 0.5), (0.25, 0.25), (0.75, 0.75), (0.75, 0.5), (0.75, 0.25)],
}


def draw_die_face(ax, value, xy=(0.0, 0.0), size=1.0, *, color="white", pip_color="black", text=None):
    """Draw one die face with lower-left corner ``xy``: pips for 0..6, else ``text`` or the value.

    >>> import matplotlib.pyplot as plt
    >>> fig, ax = plt.subplots()
    >>> draw_die_face(ax, 5)
    >>> len(ax.patches)   # the face and five pips
    6
    >>> plt.close(fig)
    """
    _check_axes(ax)
    if text is None and (isinstance(value, bool) or not isinstance(value, int | str)):
        raise ValueError(
            f"value must be a face value (an int) or a label (a str) unless text is given, got {value!r}"
        )
    x0, y0 = _check_point("xy", xy)
    size = check_float("size", size, 0, open_low=True)
    _check_color("color", color)
    _check_color("pip_color", pip_color)
    if text is not None and not isinstance(text, str):
        raise ValueError(f"text must be a string or None, got {text!r}")
    ax.add_patch(
        FancyBboxPatch(
            (x0 + 0.05 * size, y0 + 0.05 * size),
            0.9 * size,
            0.9 * size,
            boxstyle=f"round,pad=0,rounding_size={0.15 * size}",
            facecolor=color,
            edgecolor="0.2",
            lw=1.2,
        )
    )
    if text is None and isinstance(value, int) and value in _PIPS:
        for px, py in _PIPS[value]:
            ax.add_patch(Circle((x0 + px * size, y0 + py * size), 0.08 * size, color=pip_color))
    else:
        label = str(value) if text is None else text
        ax.text(
            x0 + size / 2, y0 + size / 2, label, ha="center", va="center", fontsize=12 * size, color=pip_color
        )


def draw_digraph(
    ax, pos, edges, *, node_color=PALETTE[0], radius=0.12, curved=0.0, fontsize=12, labels=None
):
    """Draw a small directed graph: ``pos`` maps node names to (x, y); ``edges`` lists
    ``(u, v, label)`` or ``(u, v, label, style)`` with ``style`` a dict of FancyArrowPatch
    options (e.g. ``{"linestyle": "--", "arrowstyle": "-"}``); ``labels`` maps node names to
    the text shown in the node (default: the name), so that nodes may share a label.
    Returns ``ax``.

    >>> import matplotlib.pyplot as plt
    >>> fig, ax = plt.subplots()
    >>> _ = draw_digraph(ax, {"A": (0, 0), "B": (1, 0)}, [("A", "B", "2/3")])
    >>> [t.get_text() for t in ax.texts]
    ['2/3', 'A', 'B']
    >>> plt.close(fig)
    """
    _check_axes(ax)
    pos = _check_positions(pos)
    edges = _check_edges(edges, pos)
    _check_color("node_color", node_color)
    radius = check_float("radius", radius, 0, open_low=True)
    curved = check_float("curved", curved)
    fontsize = check_float("fontsize", fontsize, 0, open_low=True)
    labels = _check_labels(labels, pos)
    for edge in edges:
        u, v, label = edge[:3]
        style = {"arrowstyle": "-|>", "mutation_scale": 16, "lw": 1.5, "color": "0.25"}
        style.update(edge[3] if len(edge) > 3 else {})
        (x1, y1), (x2, y2) = pos[u], pos[v]
        length = max(((x2 - x1) ** 2 + (y2 - y1) ** 2) ** 0.5, 1e-12)
        dx, dy = (x2 - x1) / length * radius * 1.1, (y2 - y1) / length * radius * 1.1
        ax.add_patch(
            FancyArrowPatch(
                (x1 + dx, y1 + dy), (x2 - dx, y2 - dy), connectionstyle=f"arc3,rad={curved}", **style
            )
        )
        if label:
            ax.text(
                (x1 + x2) / 2,
                (y1 + y2) / 2,
                label,
                ha="center",
                va="center",
                fontsize=10,
                bbox={"boxstyle": "round,pad=0.15", "fc": "white", "ec": "none"},
            )
    for name, (x, y) in pos.items():
        ax.add_patch(Circle((x, y), radius, facecolor=node_color, edgecolor="white", lw=2, zorder=3))
        ax.text(
            x, y, labels.get(name, name), ha="center", va="center", color="white", fontsize=fontsize,
            weight="bold", zorder=4,
        )
    xs, ys = [x for x, _ in pos.values()], [y for _, y in pos.values()]
    margin = 2 * radius
    ax.set_xlim(min(xs) - margin, max(xs) + margin)
    ax.set_ylim(min(ys) - margin, max(ys) + margin)
    ax.set_aspect("equal")
    ax.axis("off")
    return ax


def _check_axes(ax) -> None:
    if not isinstance(ax, Axes):
        raise TypeError(f"ax must be a matplotlib Axes (e.g. from plt.subplots()), got {ax!r}")


def _check_color(name: str, color) -> None:
    try:
        colour = is_color_like(color) and not isinstance(color, bool)
    except Exception:  # noqa: BLE001 - an object whose hash or comparison fails is no colour
        colour = False
    if not colour:
        raise ValueError(f"{name} must be a matplotlib colour such as 'white' or '#0072B2', got {color!r}")


def _check_point(name: str, xy) -> tuple[float, float]:
    point = check_sequence(name, xy, what="coordinates")
    if len(point) != 2:
        raise ValueError(f"{name} must be a point (x, y), got {xy!r}")
    return check_float(name, point[0]), check_float(name, point[1])


def _check_positions(pos) -> dict:
    if not isinstance(pos, dict) or not pos:
        raise ValueError(f"pos must be a non-empty dict from node names to (x, y), got {pos!r}")
    return {name: _check_point("pos", xy) for name, xy in pos.items()}


def _check_labels(labels, pos: dict) -> dict:
    if labels is None:
        return {}
    if not isinstance(labels, dict) or not all(isinstance(v, str) for v in labels.values()):
        raise ValueError(f"labels must be a dict from node names to strings, got {labels!r}")
    unknown = [name for name in labels if name not in pos]
    if unknown:
        raise ValueError(f"labels: {unknown[0]!r} is not a node that pos places")
    return labels


def _check_edges(edges, pos: dict) -> tuple:
    edges = check_sequence("edges", edges, what="(u, v, label) tuples", nonempty=False)
    for edge in edges:
        if isinstance(edge, str) or not isinstance(edge, tuple | list) or len(edge) not in (3, 4):
            raise ValueError(f"edges must hold (u, v, label) or (u, v, label, style) tuples, got {edge!r}")
        if edge[0] not in pos or edge[1] not in pos:
            raise ValueError(f"edges: {edge!r} joins a node that pos does not place")
        if len(edge) == 4 and not isinstance(edge[3], dict):
            raise ValueError(f"edges: the style of {edge!r} must be a dict of FancyArrowPatch options")
        if len(edge) == 4:
            try:
                FancyArrowPatch((0, 0), (1, 1), **edge[3])
            except (AttributeError, TypeError, ValueError, KeyError) as err:
                raise ValueError(
                    f"edges: the style of {edge!r} is not a set of FancyArrowPatch options: {err}"[:300]
                ) from None
    return edges
