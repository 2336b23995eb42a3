"""What every chapter does first: settle fast mode, set the plotting style, open the claims ledger.

A chapter's parameters cell (papermill) holds ``fast = None``; the next cell calls
:func:`start_chapter`, which reads the ``DICELAB_FAST`` environment variable when
``fast`` is ``None`` (``make test`` sets it so that the notebooks run small).
"""

from __future__ import annotations

import os

from dicelab._checks import check_bool
from dicelab.paths import check_writable, is_canonical

__all__ = ["fast_mode", "start_chapter", "merge_streams", "drop_widget_state"]

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

    Prints which mode runs and, when the run is not ``make``'s canonical one, where its
    figures and ledger go. Fails at once if the output folders cannot be written.

    >>> fast, ledger = start_chapter("example", True)
    example: fast mode...
    >>> fast, len(ledger)
    (True, 0)
    """
    from dicelab.claims import Ledger
    from dicelab.plotting import use_style

    fast = fast_mode(fast)
    ledger = Ledger(name)
    root = check_writable()  # fail now, not after the work
    use_style()
    print(f"{name}: {'fast' if fast else 'full'} mode")
    if not is_canonical() and not os.environ.get("DICELAB_OUTPUT_DIR"):
        where = "scratch/" if root.name == "scratch" else str(root)
        print(
            f"figures and the ledger go to {where} (`make` writes the committed figures/ and results/)"
        )
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
    dropped = 0
    notebook.get("metadata", {}).pop("widgets", None)
    for cell in notebook.get("cells", []):
        for out in cell.get("outputs", []):
            if WIDGET_VIEW in out.get("data", {}):
                del out["data"][WIDGET_VIEW]
                dropped += 1
    return dropped


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
