"""Test-session set-up: notebook runs write figures and ledgers to a scratch folder.

nbval and papermill start their kernels from this process, so the variable set
here reaches every notebook executed by the test run; committed ``figures/``
and ``results/`` are never touched by ``make test``. Under pytest-xdist the workers
inherit the controller's scratch folder.
(nbval's cells are marked and grouped by the repository's top ``conftest.py``.)
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


def pytest_configure(config):
    if "DICELAB_OUTPUT_DIR" not in os.environ:
        scratch = tempfile.mkdtemp(prefix="dicelab-test-")
        os.environ["DICELAB_OUTPUT_DIR"] = scratch
        config._dicelab_scratch = scratch


def pytest_unconfigure(config):
    scratch = getattr(config, "_dicelab_scratch", None)
    if scratch:
        shutil.rmtree(scratch, ignore_errors=True)


@pytest.fixture(scope="session")
def root() -> Path:
    return ROOT


@pytest.fixture
def nbval_checks_ledger(request):
    """``nbval_checks_ledger(stem)``: whether this session runs the chapter through nbval, whose
    ``::ledger`` item (the repository's ``conftest.py``) then checks its ledger."""
    return lambda stem: stem in getattr(request.config, "_dicelab_nbval_collected", set())
