"""What every chapter does first: settle fast mode, set the plotting style, open the claims ledger.

A chapter's parameters cell (papermill) begins ``# Parameters (papermill)`` and holds
``fast = None``; the next cell calls :func:`start_chapter`, which reads the ``DICELAB_FAST``
environment variable when ``fast`` is ``None`` (``make test`` sets it so that the notebooks
run small), and refuses any parameter papermill passed that the cell does not declare
(:func:`check_parameters`).
"""

from __future__ import annotations

import ast
import os
import sys

from dicelab._checks import check_bool, check_int, check_optional_int, check_sequence, check_str
from dicelab.paths import chapter_output_bytes, check_free_space, check_writable, is_canonical

__all__ = [
    "fast_mode",
    "check_parameters",
    "check_parameter",
    "start_chapter",
    "merge_streams",
    "drop_widget_state",
]

_FALSE = ("", "0", "false", "no", "off")


def fast_mode(fast=None) -> bool:
    """``fast`` if given (a bool), else whether ``DICELAB_FAST`` is set to a true value.

    >>> fast_mode(True)
    True
    """
    if fast is None:
        return os.environ.get("DICELAB_FAST", "0").strip().lower() not in _FALSE
    return check_bool("fast", fast)


DECLARED = "# Parameters (papermill)"  # how a notebook's own parameters cell begins
INJECTED = "# Parameters\n"  # how the cell papermill injects after it begins


def _assigned(source: str) -> set[str]:
    try:
        body = ast.parse(source).body
    except SyntaxError:
        return set()
    return {
        t.id for node in body if isinstance(node, ast.Assign) for t in node.targets if isinstance(t, ast.Name)
    }


def check_parameters(history=None) -> list[str]:
    r"""Refuse papermill parameters that the notebook's parameters cell does not declare.

    Papermill only warns about an unknown name (a misspelt ``n_game=10``) and runs on with
    the default; this raises instead. ``history`` is the sources of the cells run so far
    (default: IPython's ``In``). Returns the names papermill passed.

    >>> check_parameters([DECLARED + "\nseed = 1", INJECTED + "seed = 5"])
    ['seed']
    >>> check_parameters([DECLARED + "\nseed = 1", INJECTED + "sead = 5"])
    Traceback (most recent call last):
    ...
    ValueError: unknown parameter sead: this notebook's parameters are seed
    """
    if history is None:
        ipython = sys.modules.get("IPython")  # loaded in every Jupyter kernel; elsewhere no history
        shell = ipython.get_ipython() if ipython is not None else None
        history = shell.user_ns.get("In", []) if shell is not None else []
    history = check_sequence("history", history, what="cell sources", nonempty=False)
    if not all(isinstance(source, str) for source in history):
        raise ValueError("history must be a sequence of cell sources (strings)")
    declared = set().union(*(_assigned(s) for s in history if s.startswith(DECLARED)))
    passed = set().union(*(_assigned(s) for s in history if s.startswith(INJECTED)))
    unknown = sorted(passed - declared)
    if unknown and declared:
        raise ValueError(
            f"unknown parameter{'s' if len(unknown) > 1 else ''} {', '.join(unknown)}: "
            f"this notebook's parameters are {', '.join(sorted(declared))}"
        )
    return sorted(passed)


def check_parameter(name: str, value, low: int, high: int | None = None) -> int:
    """A notebook's integer parameter ``name``, or a ValueError naming it and its range.

    Integers only: not ``True``, not ``2.0``, not ``"3"``.

    >>> check_parameter("seed", 2026, 0)
    2026
    >>> check_parameter("n_turns", 1, 100)
    Traceback (most recent call last):
    ...
    ValueError: n_turns must be >= 100, got 1
    """
    low = check_int("low", low, -(2**63))
    high = check_optional_int("high", high, low)
    return check_int(check_str("name", name), value, low, high)


def start_chapter(name: str, fast=None):
    """Fast mode, plotting style and an empty ledger for chapter ``name``: ``(fast, ledger)``.

    Prints which mode runs and, when the run is not ``make``'s canonical one, where its
    figures and ledger go. Fails at once if the output folders cannot be written, or if their
    disk has no room for what the chapter writes (:func:`dicelab.paths.check_free_space`).

    >>> fast, ledger = start_chapter("example", True)
    example: fast mode...
    >>> fast, len(ledger)
    (True, 0)
    """
    from dicelab.claims import Ledger
    from dicelab.plotting import use_style

    fast = fast_mode(fast)
    check_parameters()
    ledger = Ledger(name)
    root = check_writable()  # fail now, not after the work
    check_free_space(chapter_output_bytes(name))
    use_style()
    print(f"{name}: {'fast' if fast else 'full'} mode")
    if not is_canonical() and not os.environ.get("DICELAB_OUTPUT_DIR"):
        where = "scratch/" if root.name == "scratch" else str(root)
        print(f"figures and the ledger go to {where} (`make` writes the committed figures/ and results/)")
    return fast, ledger


def merge_streams(notebook: dict) -> int:
    """Merge consecutive stream outputs of the same name in each code cell, in place.

    Kernels may split one printed block into several chunks, differently on each run; merged,
    a re-executed notebook is byte-identical. Returns how many chunks were merged away.

    >>> nb = {"cells": [{"cell_type": "code", "outputs": [
    ...     {"output_type": "stream", "name": "stdout", "text": "a\\n"},
    ...     {"output_type": "stream", "name": "stdout", "text": ["b\\n"]}]}]}
    >>> merge_streams(nb), nb["cells"][0]["outputs"]
    (1, [{'output_type': 'stream', 'name': 'stdout', 'text': 'a\\nb\\n'}])
    """
    _check_notebook(notebook)
    merged = 0
    for cell in notebook.get("cells", []):
        outputs, out = cell.get("outputs", []), []
        for o in outputs:
            if (
                o.get("output_type") == "stream"
                and out
                and out[-1].get("output_type") == "stream"
                and out[-1].get("name") == o.get("name")
            ):
                prev = out[-1]["text"]
                prev = "".join(prev) if isinstance(prev, list) else prev
                text = "".join(o["text"]) if isinstance(o["text"], list) else o["text"]
                out[-1]["text"] = prev + text
                merged += 1
            else:
                out.append(o)
        if outputs:
            cell["outputs"] = out
    return merged


WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


def drop_widget_state(notebook: dict) -> int:
    """Remove live-widget views and the saved widget state, in place; returns how many views.

    A widget's view and state carry ids drawn at random on every run, and mean nothing outside
    a live kernel; the text beside them (and the static output a chapter shows first) stays.

    >>> nb = {"metadata": {"widgets": {}}, "cells": [{"cell_type": "code", "outputs": [
    ...     {"output_type": "display_data",
    ...      "data": {WIDGET_VIEW: {"model_id": "ab12"}, "text/plain": "w"}}]}]}
    >>> drop_widget_state(nb), nb["metadata"], nb["cells"][0]["outputs"][0]["data"]
    (1, {}, {'text/plain': 'w'})
    """
    _check_notebook(notebook)
    dropped = 0
    notebook.get("metadata", {}).pop("widgets", None)
    for cell in notebook.get("cells", []):
        for out in cell.get("outputs", []):
            if WIDGET_VIEW in out.get("data", {}):
                del out["data"][WIDGET_VIEW]
                dropped += 1
    return dropped


def _check_notebook(notebook) -> None:
    """Refuse, before any change, a notebook whose cells, outputs or metadata are malformed."""
    if not isinstance(notebook, dict) or not isinstance(notebook.get("cells"), list):
        raise ValueError("notebook must be a notebook read as JSON: a dict with a list of cells")
    if not isinstance(notebook.get("metadata", {}), dict):
        raise ValueError(f"notebook['metadata'] must be a dict, got {notebook['metadata']!r}"[:200])
    for i, cell in enumerate(notebook["cells"]):
        if not isinstance(cell, dict):
            raise ValueError(f"notebook['cells'][{i}] must be a cell (a dict), got {cell!r}"[:200])
        outputs = cell.get("outputs", [])
        if not isinstance(outputs, list) or not all(isinstance(o, dict) for o in outputs):
            raise ValueError(
                f"notebook['cells'][{i}]['outputs'] must be a list of dicts, got {outputs!r}"[:200]
            )
        for out in outputs:
            text = out.get("text", "")
            if not isinstance(out.get("data", {}), dict) or not (
                isinstance(text, str) or isinstance(text, list) and all(isinstance(t, str) for t in text)
            ):
                raise ValueError(
                    f"notebook['cells'][{i}] has a malformed output (data a dict, text a string "
                    f"or a list of strings): {out!r}"[:200]
                )


def main(argv=None) -> int:
    """``python -m dicelab.notebook normalise NOTEBOOK...``: merge split stream outputs and drop
    live-widget state, in place, so that a re-executed notebook is byte-identical."""
    import argparse
    import json
    from pathlib import Path

    parser = argparse.ArgumentParser(
        description="Normalise executed notebooks so that re-runs are byte-identical."
    )
    parser.add_argument("command", choices=["normalise"])
    parser.add_argument("notebooks", nargs="+", type=Path)
    args = parser.parse_args(argv)
    for path in args.notebooks:
        nb = json.loads(path.read_text())
        if merge_streams(nb) + drop_widget_state(nb) or "widgets" in nb.get("metadata", {}):
            path.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
