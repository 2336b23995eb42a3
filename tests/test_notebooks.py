"""The chapters' ledgers after a fast run, and papermill's parameters: good ones reach the chapter,
bad ones are refused by name before any work.

Each chapter runs once per test session. ``make test`` runs every notebook through nbval (fast
mode), and the item ``notebooks/NN_name.ipynb::ledger`` that follows the chapter's cells (the
repository's ``conftest.py``) checks the ledger that run just wrote; the ledger test here then
skips, naming it. Run without nbval (``pytest tests/test_notebooks.py``), it runs the chapter with
papermill (``fast=True``) and checks the same.
Papermill's parameter handling is checked on each notebook's opening cells, up to and including
the cell that checks the parameters: what runs after them is nbval's business.
"""

import json
import os
from pathlib import Path

import nbformat
import papermill as pm
import pytest

from dicelab.course.claims import check_ledger, read_ledger

pytestmark = pytest.mark.notebook

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("0[1-9]_*.ipynb"))  # the chapters


def execute(nb_path: Path, out: Path, parameters: dict) -> None:
    pm.execute_notebook(
        str(nb_path),
        str(out),
        parameters=parameters,
        cwd=str(nb_path.parent),
        kernel_name="python3",
        progress_bar=False,
    )


@pytest.mark.parametrize("nb_path", NOTEBOOKS, ids=lambda p: p.name)
def test_the_fast_run_checks_every_claim(nb_path, tmp_path, nbval_checks_ledger):
    if nbval_checks_ledger(nb_path.stem):
        pytest.skip(f"checked by notebooks/{nb_path.name}::ledger after nbval's run, not run twice")
    ledger = Path(os.environ["DICELAB_OUTPUT_DIR"]) / "results" / f"{nb_path.stem}.csv"
    execute(nb_path, tmp_path / nb_path.name, {"fast": True})
    frame = read_ledger(ledger)
    assert check_ledger(frame) == []
    committed = read_ledger(ROOT / "results" / f"{nb_path.stem}.csv")
    key = lambda f: sorted(zip(f["where"], f["what"], strict=True))  # noqa: E731
    assert key(frame) == key(committed), "the fast run must check the same claims as the full run"


def checking_cell(nb) -> int:
    """The index of the cell that checks the parameters: the first after the parameters cell that
    starts the chapter (``start_chapter``), or else the one right after it."""
    tagged = next(k for k, c in enumerate(nb.cells) if "parameters" in c.metadata.get("tags", []))
    near = range(tagged + 1, min(tagged + 3, len(nb.cells)))
    after = [k for k in near if "start_chapter(" in nb.cells[k].source]
    return after[0] if after else tagged + 1


def opening(stem: str, names: list[str]) -> nbformat.NotebookNode:
    """The notebook's cells up to the one that checks its parameters, then a cell that prints
    ``names`` as JSON."""
    nb = nbformat.read(ROOT / "notebooks" / f"{stem}.ipynb", as_version=4)
    nb.cells = nb.cells[: checking_cell(nb) + 1]
    echo = ", ".join(f"{n!r}: {n}" for n in names)
    nb.cells.append(nbformat.v4.new_code_cell(f"import json\nprint(json.dumps({{{echo}}}))"))
    return nb


# Valid parameters other than the defaults, and what the chapter holds after its checks (fast mode
# caps the sample sizes and the race's target).
GOOD_PARAMETERS = [
    ("01_efron_dice", {"fast": True, "S": 4, "L": 5, "M": 3, "rolls": 1}, {}),
    ("02_badg", {"fast": True, "n_games": 2 * 10**6, "variant_dice": [6, 8], "seed": 7}, {"n_games": 10**5}),
    ("03_simultaneous_pig", {"fast": False, "variant_goal": 30, "variant_hold": 5}, {}),
    (
        "04_cosmic_wimpout",
        {"fast": True, "variant_sun_value": 10, "n_turns": 500, "n_dice_turns": 10**6, "n_score_turns": 300,
         "seed": 3},
        {"n_dice_turns": 20_000},
    ),
    (
        "05_playing_to_win",
        {"fast": True, "n_turns": 200, "race_target": 300, "race_games": 150, "seed": 1},
        {"race_target": 100},
    ),
    ("00_course_guide", {"notebooks_dir": "."}, {}),
    ("explorers", {"seed": 5, "opponent": "equilibrium", "hold_n": 20}, {}),
]


@pytest.mark.parametrize(("stem", "parameters", "after"), GOOD_PARAMETERS, ids=lambda x: str(x)[:30])
def test_good_parameters_reach_the_chapter(stem, parameters, after, tmp_path):
    source, out = tmp_path / f"{stem}.ipynb", tmp_path / f"{stem}.out.ipynb"
    nbformat.write(opening(stem, list(parameters)), source)
    pm.execute_notebook(str(source), str(out), parameters=parameters, cwd=str(ROOT / "notebooks"),
                        kernel_name="python3", progress_bar=False)
    printed = nbformat.read(out, as_version=4).cells[-1].outputs[0]["text"]
    assert json.loads(printed) == parameters | after


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
        execute(nb_path, tmp_path / nb_path.name, parameters)
    assert err.value.ename == "ValueError" and message in err.value.evalue
    # refused in the cell that checks the parameters, before any work: the code cells before it, the
    # parameters, papermill's injected parameters (one more cell), then the refusal
    nb = nbformat.read(nb_path, as_version=4)
    checking = sum(c.cell_type == "code" for c in nb.cells[: checking_cell(nb) + 1]) + 1
    assert err.value.exec_count <= checking, "refused in the cell that checks the parameters, before any work"
