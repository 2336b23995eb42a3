"""Test-session set-up: notebook runs write figures and ledgers to a scratch folder; nbval's cells
are marked and kept together.

nbval and papermill start their kernels from this process, so the variable set
here reaches every notebook executed by the test run; committed ``figures/``
and ``results/`` are never touched by ``make test``. Under pytest-xdist the workers
inherit the controller's scratch folder.

Each notebook's nbval cells carry the ``notebook`` marker and one ``xdist_group`` (its
name), so that ``--dist loadgroup`` runs them in order in one kernel on one worker; the test
that checks a chapter's ledger (``tests/test_notebooks.py``) joins that group and is moved
right after the chapter's last cell, to read the ledger that nbval's run just wrote rather
than run the chapter a second time.
"""

import os
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import settings

# No wall-clock deadline on any property test: a busy machine slows an example down without
# making it wrong (timing is measured by `make benchmark`, not checked by the tests).
settings.register_profile("dicelab", deadline=None)
settings.load_profile("dicelab")

ROOT = Path(__file__).resolve().parents[1]
LEDGER_TEST = "test_the_fast_run_checks_every_claim"


def pytest_configure(config):
    if "DICELAB_OUTPUT_DIR" not in os.environ:
        scratch = tempfile.mkdtemp(prefix="dicelab-test-")
        os.environ["DICELAB_OUTPUT_DIR"] = scratch
        config._dicelab_scratch = scratch
    config._dicelab_nbval_ran = {}  # notebook stem -> whether every cell nbval ran passed


def pytest_sessionfinish(session, exitstatus):
    """A run that selected no test (``-k`` or ``-m`` matching nothing) is not a failure: pytest's
    exit code 5 becomes 0 (its summary still says that no test ran)."""
    if exitstatus == pytest.ExitCode.NO_TESTS_COLLECTED:
        session.exitstatus = pytest.ExitCode.OK


def pytest_unconfigure(config):
    scratch = getattr(config, "_dicelab_scratch", None)
    if scratch:
        shutil.rmtree(scratch, ignore_errors=True)


def _stem(item) -> str | None:
    """The notebook an nbval cell belongs to, or None for any other test."""
    path = Path(str(item.path))
    return path.stem if path.suffix == ".ipynb" else None


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    last = {}
    for k, item in enumerate(items):
        stem = _stem(item)
        if stem:
            item.add_marker(pytest.mark.notebook)
            item.add_marker(pytest.mark.xdist_group(stem))
            last[stem] = k
    if not last:
        return
    moved = {}
    for item in items:
        ledger_test = getattr(item, "originalname", "") == LEDGER_TEST
        stem = item.callspec.params["nb_path"].stem if ledger_test else None
        if stem in last:
            item.add_marker(pytest.mark.xdist_group(stem))
            moved[id(item)] = (last[stem], item)
    if moved:
        order = [it for it in items if id(it) not in moved]
        for after, item in sorted(moved.values(), key=lambda m: -m[0]):
            anchor = order.index(items[after])
            order.insert(anchor + 1, item)
        items[:] = order
    items.sort(key=_first)  # stable: each group's order is kept


# The longest groups first (``--dist loadgroup --no-loadscope-reorder`` hands them out in this
# order), so that the many short tests, last, fill the workers' ends: the homework build and
# grading, then the notebooks from the slowest in fast mode.
FIRST = ["homework", "05_playing_to_win_solutions", "05_playing_to_win", "01_efron_dice",
         "03_simultaneous_pig", "02_badg", "04_cosmic_wimpout"]


def _first(item) -> int:
    mark = item.get_closest_marker("xdist_group")
    if mark is None:
        return len(FIRST) + 1
    name = mark.args[0] if mark.args else mark.kwargs.get("name")
    return FIRST.index(name) if name in FIRST else len(FIRST)


def pytest_runtest_logreport(report):
    """Record, per notebook, that nbval ran its cells in this process and whether all passed."""
    if report.when != "call" and not report.failed:
        return
    path = report.nodeid.split("::")[0]
    if path.endswith(".ipynb"):
        ran = _CONFIG._dicelab_nbval_ran
        stem = Path(path).stem
        ran[stem] = ran.get(stem, True) and not report.failed


_CONFIG = None


@pytest.hookimpl(tryfirst=True)
def pytest_sessionstart(session):
    global _CONFIG
    _CONFIG = session.config


@pytest.fixture(scope="session")
def root() -> Path:
    return ROOT


@pytest.fixture
def nbval_ran(request):
    """``nbval_ran(stem)``: None when nbval did not run that notebook in this process, else whether
    every one of its cells passed."""
    return lambda stem: request.config._dicelab_nbval_ran.get(stem)
