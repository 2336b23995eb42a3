"""Every committed notebook is in the form JupyterLab saves it: opening it, running nothing and
saving it changes no byte (the browser test checks the same through JupyterLab's own save)."""

import json
from pathlib import Path

import pytest

from dicelab.course.notebook import KERNELSPEC, jupyterlab_form, normalise, notebook_text

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted(ROOT.glob("notebooks/*.ipynb")) + sorted(ROOT.glob("solutions/*.ipynb"))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: str(p.relative_to(ROOT)))
def test_committed_in_jupyterlab_form(path):
    text = path.read_text()
    nb = json.loads(text)
    assert normalise(nb) == 0, f"run `python -m dicelab.course.notebook normalise {path.relative_to(ROOT)}`"
    assert notebook_text(nb) == text, "written as the Jupyter server writes (normalise does)"
    assert nb["metadata"]["kernelspec"] == KERNELSPEC


def test_jupyterlab_form_follows_the_folding():
    nb = {"metadata": {}, "cells": [
        {"cell_type": "code", "metadata": {"collapsed": True}},  # outputs shown: no "collapsed"
        {"cell_type": "code", "metadata": {"jupyter": {"outputs_hidden": True, "source_hidden": True}}},
        {"cell_type": "markdown", "metadata": {}},
    ]}
    assert jupyterlab_form(nb) == 2
    assert [c["metadata"].get("collapsed") for c in nb["cells"]] == [None, True, None]


def test_normalise_writes_what_the_server_writes(tmp_path):
    import nbformat
    from jupyter_server.services.contents.filemanager import FileContentsManager

    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("x = 1\ny = 2", id="a")])
    nb.metadata.kernelspec = dict(KERNELSPEC)
    manager = FileContentsManager(root_dir=str(tmp_path))
    manager.save({"type": "notebook", "format": "json", "content": nb}, "a.ipynb")
    assert notebook_text(json.loads((tmp_path / "a.ipynb").read_text())) == (tmp_path / "a.ipynb").read_text()
