"""What every chapter does first: settle fast mode, set the plotting style, open the claims ledger.

A chapter finds its data files with :func:`data_dir` (from :mod:`dicelab.course.paths`, re-exported here).

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

from dicelab.core.checks import check_bool, check_int, check_optional_int, check_sequence, check_str
from dicelab.course.paths import (
    chapter_output_bytes,
    check_free_space,
    check_writable,
    data_dir,
    is_canonical,
)

__all__ = [
    "fast_mode",
    "check_parameters",
    "check_parameter",
    "start_chapter",
    "data_dir",
    "merge_streams",
    "drop_widget_state",
    "ROLES",
    "fold_cells",
    "normalise",
    "jupyterlab_form",
    "notebook_text",
    "pre_save_hook",
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
    disk has no room for what the chapter writes (:func:`dicelab.course.paths.check_free_space`).

    >>> fast, ledger = start_chapter("example", True)
    example: fast mode...
    >>> fast, len(ledger)
    (True, 0)
    """
    from dicelab.course.claims import Ledger
    from dicelab.course.plotting import use_style

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


# A chapter is a lesson with an audit folded into it. A code cell that is not part of the lesson
# carries one role tag; `fold_cells` derives from it how the cell shows in JupyterLab (the
# ``jupyter`` cell metadata: folded source, folded outputs) and on the course site (the Jupyter
# Book tags). The cell still runs everywhere: folded is not deleted.
ROLES = {
    # claim checks, cross-checks against a second method, test markers: folded whole
    "audit": {"site": "hide-cell", "source_hidden": True, "outputs_hidden": True},
    # the parameters cell and the imports: folded whole
    "setup": {"site": "hide-cell", "source_hidden": True, "outputs_hidden": True},
    # code whose only job is to display prose built from computed numbers: the prose shows
    "prose": {"site": "remove-input", "source_hidden": True, "outputs_hidden": False},
    # the drawing of a figure: the figure shows, its plotting code is folded
    "figure": {"site": "remove-input", "source_hidden": True, "outputs_hidden": False},
}
_SITE_TAGS = {"hide-cell", "hide-input", "hide-output", "remove-input", "remove-cell"}


def fold_cells(notebook: dict) -> int:
    """Fold every code cell that carries a role tag (:data:`ROLES`), in place.

    The role decides the cell's ``jupyter.source_hidden`` / ``outputs_hidden`` metadata (how
    JupyterLab shows it) and its one course-site tag; a cell without a role is lesson and is
    left unfolded. Returns how many cells changed.

    >>> nb = {"cells": [{"cell_type": "code", "metadata": {"tags": ["audit"]}, "source": ""}]}
    >>> fold_cells(nb), nb["cells"][0]["metadata"]
    (1, {'tags': ['audit', 'hide-cell'], 'jupyter': {'source_hidden': True, 'outputs_hidden': True}})
    >>> fold_cells(nb)
    0
    """
    _check_notebook(notebook)
    changed = 0
    for k, cell in enumerate(notebook["cells"]):
        if not isinstance(cell, dict) or not isinstance(cell.get("metadata", {}), dict):
            raise ValueError(f"notebook cell {k} must be a dict with a metadata dict, got {cell!r:.80}")
        if cell.get("cell_type") != "code":
            continue
        meta = cell.setdefault("metadata", {})
        tags = meta.get("tags", [])
        if not isinstance(tags, list) or not all(isinstance(t, str) for t in tags):
            raise ValueError(f"notebook cell {k} must have a list of tags (strings), got {tags!r:.80}")
        tags = list(tags)
        roles = [t for t in tags if t in ROLES]
        if len(roles) > 1:
            raise ValueError(f"notebook cell {k} has the roles {roles}; a cell has at most one")
        before = (list(tags), dict(meta.get("jupyter", {})))
        jupyter = {key: v for key, v in meta.get("jupyter", {}).items()
                   if key not in ("source_hidden", "outputs_hidden")}
        tags = [t for t in tags if t not in _SITE_TAGS]
        if roles:
            fold = ROLES[roles[0]]
            tags.append(fold["site"])
            jupyter.update({key: True for key in ("source_hidden", "outputs_hidden") if fold[key]})
        if tags:
            meta["tags"] = tags
        else:
            meta.pop("tags", None)
        if jupyter:
            meta["jupyter"] = jupyter
        else:
            meta.pop("jupyter", None)
        changed += before != (list(meta.get("tags", [])), dict(meta.get("jupyter", {})))
    return changed


# The kernel a notebook is saved with, as JupyterLab writes it once the kernel has started
# (ipykernel's own kernel spec): a notebook committed with another display name changes on save.
KERNELSPEC = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}


def jupyterlab_form(notebook: dict) -> int:
    """Put a notebook in the form JupyterLab saves it, in place; returns how many fields changed.

    Opening a notebook in JupyterLab and saving it without an edit writes two things a notebook
    written by nbconvert lacks: ``"collapsed": true`` in the metadata of every code cell whose
    outputs are folded (``jupyter.outputs_hidden``; JupyterLab keeps the two in step), and the
    running kernel's spec (:data:`KERNELSPEC`). With both in place, open-and-save changes nothing.

    >>> nb = {"metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3"}},
    ...       "cells": [{"cell_type": "code", "metadata": {"jupyter": {"outputs_hidden": True}}}]}
    >>> jupyterlab_form(nb), nb["cells"][0]["metadata"]["collapsed"]
    (2, True)
    >>> nb["metadata"]["kernelspec"]["display_name"]
    'Python 3 (ipykernel)'
    >>> jupyterlab_form(nb)
    0
    """
    _check_notebook(notebook)
    changed = 0
    for cell in notebook["cells"]:
        meta = cell.get("metadata", {})
        if cell.get("cell_type") != "code" or not isinstance(meta, dict):
            continue
        hidden = isinstance(meta.get("jupyter"), dict) and meta["jupyter"].get("outputs_hidden") is True
        if hidden and meta.get("collapsed") is not True:
            cell.setdefault("metadata", meta)["collapsed"] = True
            changed += 1
        elif not hidden and "collapsed" in meta:
            del meta["collapsed"]
            changed += 1
    spec = notebook.setdefault("metadata", {}).get("kernelspec")
    if isinstance(spec, dict) and spec.get("name") == KERNELSPEC["name"] and spec != KERNELSPEC:
        notebook["metadata"]["kernelspec"] = dict(KERNELSPEC)
        changed += 1
    return changed


def notebook_text(notebook: dict) -> str:
    """The notebook as the Jupyter server writes it (``nbformat.writes``: sorted keys, one-space
    indent, multi-line strings split into lists, a final newline), so that a file written here and
    the same notebook saved from JupyterLab are the same bytes.

    >>> notebook_text({"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}).splitlines()[:2]
    ['{', ' "cells": [],']
    """
    import nbformat

    _check_notebook(notebook)
    text = nbformat.writes(nbformat.from_dict(notebook), version=nbformat.NO_CONVERT)
    return text if text.endswith("\n") else text + "\n"


def pre_save_hook(model, **kwargs) -> None:
    """Jupyter's pre-save hook (``make lab`` sets it): a notebook is written as ``normalise`` writes it.

    JupyterLab saves a notebook with the views of the live widgets it shows (their ids change on
    every run) and, on autosave, while a reader plays with an explorer; the hook drops them, merges
    split streams, folds the cells by role and keeps JupyterLab's form (:func:`jupyterlab_form`)
    before the file is written, so that playing with the explorers leaves the committed notebook
    as it was. Anything but a notebook is saved unchanged.

    Parameters
    ----------
    model : dict
        The contents model being saved (``type``, ``content``); changed in place.
    **kwargs
        ``path`` and ``contents_manager``, as Jupyter passes them; unused.

    Examples
    --------
    >>> model = {"type": "notebook", "content": {"metadata": {"widgets": {}}, "cells": []}}
    >>> pre_save_hook(model, path="explorers.ipynb"); model["content"]
    {'metadata': {}, 'cells': []}
    """
    if not isinstance(model, dict) or model.get("type") != "notebook":
        return
    notebook = model.get("content")
    if not isinstance(notebook, dict) or not isinstance(notebook.get("cells"), list):
        return
    merge_streams(notebook)
    drop_widget_state(notebook)
    try:
        fold_cells(notebook)
    except ValueError:
        pass  # a cell with two roles or bad tags is saved as it is; `make notebooks` will refuse it
    jupyterlab_form(notebook)


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


def normalise(notebook: dict) -> int:
    """Everything ``python -m dicelab.course.notebook normalise`` does to one notebook read as JSON, in
    place: merge split streams, drop live-widget state, fold the cells by role and put the
    notebook in JupyterLab's save form. Returns how many things changed.

    >>> nb = {"metadata": {}, "cells": [{"cell_type": "code", "metadata": {"tags": ["audit"]}}]}
    >>> normalise(nb), nb["cells"][0]["metadata"]["collapsed"]
    (2, True)
    >>> normalise(nb)
    0
    """
    changed = merge_streams(notebook) + drop_widget_state(notebook) + fold_cells(notebook)
    return changed + jupyterlab_form(notebook)


def main(argv=None) -> int:
    """``python -m dicelab.course.notebook normalise NOTEBOOK...``: :func:`normalise` each notebook and
    write it as the Jupyter server does (:func:`notebook_text`), in place, so that a re-executed
    notebook is byte-identical and opening and saving it in JupyterLab leaves it unchanged.
    Run it last, after ``nbstripout`` (which drops the ``collapsed`` field JupyterLab writes)."""
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
        before = path.read_text()
        nb = json.loads(before)
        normalise(nb)
        text = notebook_text(nb)
        if text != before:
            path.write_text(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
