"""Each notebook run by papermill with parameters, in a scratch folder, and its ledger checked.

(nbval runs the same notebooks from the pytest command line: see the Makefile.)
"""

import os
from pathlib import Path

import papermill as pm
import pytest

from dicelab.claims import check_ledger, read_ledger

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("0[1-9]_*.ipynb"))  # the chapters


@pytest.mark.parametrize("nb_path", NOTEBOOKS, ids=lambda p: p.name)
def test_papermill_fast_run_checks_every_claim(nb_path, tmp_path):
    out = tmp_path / nb_path.name
    pm.execute_notebook(
        str(nb_path),
        str(out),
        parameters={"fast": True},
        cwd=str(nb_path.parent),
        kernel_name="python3",
        progress_bar=False,
    )
    ledger = Path(os.environ["DICELAB_OUTPUT_DIR"]) / "results" / f"{nb_path.stem}.csv"
    frame = read_ledger(ledger)
    assert check_ledger(frame) == []
    committed = read_ledger(ROOT / "results" / f"{nb_path.stem}.csv")
    key = lambda f: sorted(zip(f["where"], f["what"], strict=True))  # noqa: E731
    assert key(frame) == key(committed), "the fast run must check the same claims as the full run"
