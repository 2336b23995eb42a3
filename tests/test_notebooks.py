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


# A misspelt or out-of-range parameter stops the notebook in the cell after the parameters
# cell, with a message naming it; nothing heavy runs first.
BAD_PARAMETERS = [
    ("01_efron_dice", {"fast": True, "Z": 3}, "unknown parameter Z"),
    ("01_efron_dice", {"fast": True, "M": 9}, "M must be in 3..6"),
    ("02_badg", {"fast": True, "n_game": 10}, "unknown parameter n_game"),
    ("02_badg", {"fast": True, "n_games": 10}, "n_games must be >= 1000"),
    ("03_simultaneous_pig", {"fast": True, "variant_goal": 1000}, "variant_goal must be in 10..100"),
    ("04_cosmic_wimpout", {"fast": True, "n_turns": 0}, "n_turns must be >= 100"),
    ("04_cosmic_wimpout", {"fast": True, "seed": "7"}, "seed must be an integer"),
    ("05_playing_to_win", {"fast": True, "n_turns": 5}, "n_turns must be >= 100"),
    ("00_course_guide", {"notebook_dir": "."}, "unknown parameter notebook_dir"),
    ("explorers", {"hold_n": 2.5}, "hold_n must be an integer"),
]


@pytest.mark.parametrize(("stem", "parameters", "message"), BAD_PARAMETERS, ids=lambda x: str(x)[:30])
def test_bad_parameters_are_refused_by_name(stem, parameters, message, tmp_path):
    nb_path = ROOT / "notebooks" / f"{stem}.ipynb"
    with pytest.raises(pm.PapermillExecutionError) as err:
        pm.execute_notebook(
            str(nb_path),
            str(tmp_path / nb_path.name),
            parameters=parameters,
            cwd=str(nb_path.parent),
            kernel_name="python3",
            progress_bar=False,
        )
    assert err.value.ename == "ValueError" and message in err.value.evalue
    # refused in the cell after the parameters, before any work: the first cell (dicelab is there),
    # the parameters, papermill's injected parameters, then the refusal
    assert err.value.exec_count <= 4, "refused in the cell after the parameters, before any work"
